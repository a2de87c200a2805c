# SPDX-License-Identifier: GPL-2.0
#
# The patch series `make series` writes (scripts/series.py), in order. Each
# entry: the subject, the description, the files it adds (paths as in a
# kernel tree, shell globs), the kernel files it edits (EDITS of series.py),
# and whether its objects are built at once. The order follows the calls
# between the files (each patch calls only what earlier ones added), so
# every prefix of the series builds and links; the files of the connection
# layer call each other in a circle and are only added to the Makefile by
# the last of their three patches ("build": "with-later" holds them back).
# checkpatch --strict must find nothing in a patch of kernel code; the
# userspace of tools/ (libquic, the tools, the selftests' programs) keeps
# its own style, as in make check, and its findings are listed only.

PATCHES = [
	{
		'subject': 'net: define IPPROTO_QUIC and SOL_QUIC',
		'body': '''
QUIC runs over UDP and has no IP protocol number of its own: like
IPPROTO_MPTCP (262), IPPROTO_QUIC takes a socket protocol value past the
IP header's 8-bit range, 261. Its socket options are at level SOL_QUIC,
288. Add both, and the QUIC uapi header: the control messages, socket
options and events of the socket interface and the structures they
carry. include/linux/quic.h declares the option calls kernel users make.
''',
		'files': ['include/uapi/linux/quic.h', 'include/linux/quic.h'],
		'edits': ['in.h', 'socket.h'],
		# <uapi/linux/in.h> indents its IPPROTO_ enumerators with two
		# spaces; the new one follows the file.
		'checkpatch_ignore': ['LEADING_SPACE'],
	},
	{
		'subject': 'quic: add the module, its Kconfig and the shared helpers',
		'body': '''
Add net/quic with its Kconfig and Makefile, hooked into net/, and the
helpers every later part uses: the variable-length integer codec of RFC
9000 Section 16, packet number decoding (Appendix A.3), connection ID
and data helpers, and the hash tables of connections and listeners.

The KUnit module starts here with the suites of these helpers, checked
against the examples of RFC 9000 Appendix A.
''',
		'files': ['net/quic/Kconfig', 'net/quic/Makefile', 'net/quic/common.[ch]',
			  'net/quic/tests/Makefile', 'net/quic/tests/module.c',
			  'net/quic/tests/varint_kunit.c', 'net/quic/tests/pn_decode_kunit.c',
			  'net/quic/tests/common_kunit.c'],
		'edits': ['net-Kconfig', 'net-Makefile'],
	},
	{
		'subject': 'quic: add address family helpers and transport parameters',
		'body': '''
family.c hides what differs between IPv4 and IPv6 (addresses, routes,
UDP transmission). param.c encodes and decodes the transport parameters
of RFC 9000 Section 18, preferred_address included.
''',
		'files': ['net/quic/family.[ch]', 'net/quic/param.[ch]'],
	},
	{
		'subject': 'quic: add paths and path MTU discovery',
		'body': '''
pmtu.c is the PLPMTUD state machine of RFC 8899 as RFC 9000 Section 14.3
uses it; path.c keeps the connection's paths, their UDP tunnel sockets,
path validation state and the amplification limit of Section 8.
''',
		'files': ['net/quic/pmtu.[ch]', 'net/quic/path.[ch]',
			  'net/quic/tests/plpmtud_kunit.c'],
	},
	{
		'subject': 'quic: add packet protection and address validation tokens',
		'body': '''
crypto.c derives the keys of RFC 9001 Section 5 (HKDF-Expand-Label),
protects packets and headers with AES-GCM, AES-CCM and
ChaCha20-Poly1305, updates keys (Section 6) and computes Retry integrity
tags; its suite runs the vectors of RFC 9001 Appendix A and RFC 9369
Appendix A. token.c makes and checks Retry and NEW_TOKEN tokens.
''',
		'files': ['net/quic/crypto.[ch]', 'net/quic/token.[ch]',
			  'net/quic/tests/initial_vectors.h', 'net/quic/tests/crypto_kunit.c',
			  'net/quic/tests/crypto_bench_kunit.c', 'net/quic/tests/token_kunit.c'],
	},
	{
		'subject': 'quic: add the packet header codec',
		'body': '''
packet.c reads and writes long and short headers (RFC 9000 Section 17,
RFC 9369 for QUIC v2), Version Negotiation and Retry packets, and the
version-independent view of RFC 8999.
''',
		'files': ['net/quic/packet.[ch]'],
	},
	{
		'subject': 'quic: add frames and packet number spaces',
		'body': '''
frame.c encodes and decodes every frame of RFC 9000 Section 19 and RFC
9221's DATAGRAM; pnspace.c tracks each packet number space's received
packets and the ACK ranges to send.
''',
		'files': ['net/quic/frame.[ch]', 'net/quic/pnspace.[ch]',
			  'net/quic/tests/frame_kunit.c', 'net/quic/tests/pnspace_kunit.c'],
	},
	{
		'subject': 'quic: add RTT estimation, congestion control and pacing',
		'body': '''
cong.c implements RFC 9002: RTT estimation (Section 5), NewReno (Section
7) and CUBIC (RFC 9438), persistent congestion and pacing (Section 7.7).
Its suites check each against the RFC's formulas and figures.
''',
		'files': ['net/quic/cong.[ch]', 'net/quic/tests/rtt_kunit.c',
			  'net/quic/tests/reno_kunit.c', 'net/quic/tests/cubic_kunit.c',
			  'net/quic/tests/pacing_kunit.c', 'net/quic/tests/cong_bench_kunit.c'],
	},
	{
		'subject': 'quic: add streams and connection ID sets',
		'body': '''
stream.c keeps the stream table, stream limits and the send and receive
state machines of RFC 9000 Section 3; connid.c the sets of connection
IDs each end issued (Section 5.1).
''',
		'files': ['net/quic/stream.[ch]', 'net/quic/connid.[ch]',
			  'net/quic/tests/stream_kunit.c', 'net/quic/tests/connid_kunit.c'],
	},
	{
		'subject': 'quic: add the receive queue and events',
		'body': '''
inqueue.c reassembles stream and CRYPTO data, queues datagrams and
charges what it holds to the socket; event.c queues the notifications
the socket interface delivers.
''',
		'files': ['net/quic/inqueue.[ch]', 'net/quic/event.[ch]',
			  'net/quic/tests/inqueue_kunit.c'],
	},
	{
		'subject': 'quic: add the send queue and loss recovery',
		'body': '''
outqueue.c queues frames, stream data and sent packets and accounts
bytes in flight; recovery.c detects loss and arms the probe timeout of
RFC 9002 Section 6.
''',
		'files': ['net/quic/outqueue.[ch]', 'net/quic/recovery.[ch]',
			  'net/quic/tests/outqueue_util.[ch]', 'net/quic/tests/outqueue_kunit.c',
			  'net/quic/tests/recovery_kunit.c'],
	},
	{
		'subject': 'quic: add timers, memory accounting and /proc files',
		'body': '''
timer.c holds the connection's timers; memory.c charges socket memory as
TCP does (sk_mem_charge(), the protocol's memory pressure, memory
cgroups); procfs.c lists connections and SNMP counters per namespace.
''',
		'files': ['net/quic/timer.[ch]', 'net/quic/memory.[ch]', 'net/quic/procfs.[ch]'],
	},
	{
		'subject': 'quic: add ALPN routing and connection requests',
		'body': '''
Listeners may share a port when each serves other application protocols:
alpn.c opens a client's first Initial in softirq context and picks the
listener by the ALPN extension of its ClientHello. request.c queues the
connection requests a listener has not accepted yet.
''',
		'files': ['net/quic/alpn.[ch]', 'net/quic/request.[ch]'],
	},
	{
		'subject': 'quic: add version negotiation and session tickets',
		'body': '''
version.c carries compatible version negotiation (RFC 9368) between QUIC
v1 and v2; ticket.c keeps session tickets and the 0-RTT state of
resumption (RFC 9001 Section 4.6).
''',
		'files': ['net/quic/version.[ch]', 'net/quic/ticket.[ch]'],
	},
	{
		'subject': 'quic: add connection lookup, closing and migration',
		'body': '''
The connection layer, first part (built with the third): lookup.c finds
a packet's connection or listener, close.c runs the closing and draining
states of RFC 9000 Section 10, addrval.c address validation, migrate.c
path validation and migration (Section 9), connid_ctl.c the frames that
issue and retire connection IDs.
''',
		'files': ['net/quic/lookup.[ch]', 'net/quic/close.[ch]', 'net/quic/addrval.[ch]',
			  'net/quic/migrate.[ch]', 'net/quic/connid_ctl.[ch]'],
		'build': 'with-later',
	},
	{
		'subject': 'quic: add transmission and reception',
		'body': '''
The connection layer, second part (built with the third): transmit.c
builds, protects, paces and sends packets; receive.c opens them in
softirq context and hands each frame to its component.
''',
		'files': ['net/quic/transmit.[ch]', 'net/quic/receive.[ch]'],
		'build': 'with-later',
	},
	{
		'subject': 'quic: add the connection and the socket',
		'body': '''
The connection layer, last part: connection.c runs a connection, connect.c
and endpoint.c set it up on each side, socket.c, sockmsg.c and
protocol.c are the socket interface (bind, listen, connect, accept,
sendmsg, recvmsg, SOL_QUIC options) and the module's registration with
AF_INET and AF_INET6. The three parts are built from here on.
''',
		'files': ['net/quic/connection.[ch]', 'net/quic/connect.[ch]',
			  'net/quic/endpoint.[ch]', 'net/quic/socket.[ch]', 'net/quic/sockmsg.[ch]',
			  'net/quic/protocol.[ch]'],
	},
	{
		'subject': 'quic: add the KUnit suites of the connection layer',
		'body': '''
Suites that drive real connections between two kernel sockets: the
socket interface, handshakes with a stand-in for TLS, loss and
reordering (a model link explored with seeded patterns), hostile peers,
receive-path fuzzing, limits and memory accounting.
''',
		'files': ['net/quic/tests/*.[ch]'],
	},
	{
		'subject': 'quic: add a sample kernel consumer through net/handshake',
		'body': '''
A module that opens a QUIC socket in the kernel, asks a userspace agent
for the TLS handshake through net/handshake, and fetches or serves one
response: how SMB or NFS would use QUIC.
''',
		'files': ['net/quic/sample.c'],
		'edits': ['net-Kconfig-handshake'],
	},
	{
		'subject': 'tools: lib: quic: add the TLS handshake library',
		'body': '''
libquic makes the TLS 1.3 handshake messages of a kernel QUIC socket
with GnuTLS and installs the secrets the kernel needs; the selftests
and the tools link it.
''',
		'files': ['tools/lib/quic/*', 'tools/lib/quic/*/*', 'tools/lib/quic/*/*/*'],
	},
	{
		'subject': 'tools: quic: add a client, a server and a handshake agent',
		'body': '''
quic-client and quic-server speak hq-interop and HTTP/3 over kernel QUIC
sockets; quic-handshaked serves the handshakes kernel users request
through net/handshake.
''',
		'files': ['tools/quic/*', 'tools/quic/*/*'],
	},
	{
		'subject': 'selftests: net: quic: add the booted tests',
		'body': '''
System calls on QUIC sockets between network namespaces: the socket
interface against the draft that specifies it, handshakes, resumption,
migration, bad networks (netem), many connections, a concurrent system
call fuzzer, the kernel consumer, and interop with ngtcp2.
''',
		'files': ['tools/testing/selftests/net/quic/*', 'tools/testing/selftests/net/quic/*/*',
			  'tools/testing/selftests/net/quic/*/*/*'],
	},
	{
		'subject': 'Documentation: networking: add QUIC',
		'body': '''
An overview of the QUIC socket interface and its implementation.
''',
		'files': ['Documentation/networking/quic.rst'],
		'edits': ['doc-index'],
	},
]
