#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make interop PEER=ngtcp2 [ARCH=x86_64]
#
# Our kernel's QUIC against an independent implementation. The guest (the
# selftest kernel in QEMU) runs our endpoint, tools/quic's client and
# server behind interop/endpoint.sh, driven by interop-agent; the peer runs
# on the host through QEMU user networking. Both roles per case: our client
# against the peer's server (the guest reaches the host as 10.0.2.2), and
# the peer's client against our server (a forwarded host port per case).
#
# Peers are one file each, tools/testing/selftests/net/quic/interop/peers/
# NAME, following the interop runner's endpoint contract (docs/interop.md);
# "# interop-alpn: h3" in it says the peer speaks only HTTP/3, and
# "# interop-packages: a b" which Debian packages it needs.
#
# A case passes when the client's endpoint exits 0, every file arrived
# byte-identical (sha256), and tshark, given both sides' key logs, decodes
# every QUIC packet of the case in the guest's capture: none undecryptable
# or malformed, and stream data among them.
#
# QEMU's user networking carries neither a second server address nor ECN
# marks, so the cases that need them (LOCAL_CASES) run with both ends in
# the guest: the peer's programs (named by "# interop-local: prog..." in its
# file) are copied into the image, and the agent joins two network
# namespaces by veth, runs the two endpoints there and captures the
# server's side.

import argparse
import fcntl
import hashlib
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selftest as st  # noqa: E402

INTEROP = os.path.join(st.TESTS, 'interop')
PEERS = os.path.join(INTEROP, 'peers')
TOOLS = os.path.join(st.ROOT, 'tools', 'quic')
GUEST_PORT_BASE = 4600	# clear of 4500, IPsec NAT-T, which tshark would decode
PEER_LIMIT = 300		# seconds one peer run may take

KIB = 1024
# The runner's case names; the files each one fetches (name, size).
CASES = [
	('handshake', [('hs-1k.bin', KIB)]),
	('transfer', [('tr-1k.bin', KIB), ('tr-64k.bin', 64 * KIB), ('tr-512k.bin', 512 * KIB),
		      ('tr-2m.bin', 2048 * KIB)]),
	('multiplexing', [(f'mx-{i:03d}.bin', 2 * KIB + i) for i in range(64)]),
	('chacha20', [('cc-32k.bin', 32 * KIB)]),
	('v2', [('v2-16k.bin', 16 * KIB)]),
	('http3', [('h3-96k.bin', 96 * KIB)]),
	('keyupdate', [('ku-1m.bin', 1024 * KIB)]),
	('retry', [('rt-8k.bin', 8 * KIB)]),
	('rebind-port', [('rb-2m.bin', 2048 * KIB)]),
	# The first file on one connection, the others on a second one that
	# resumes it (zerortt: with its requests in 0-RTT packets).
	('resumption', [('rs-1k.bin', KIB), ('rs-32k.bin', 32 * KIB), ('rs-5k.bin', 5 * KIB)]),
	('zerortt', [('zr-1k.bin', KIB), ('zr-3k.bin', 3 * KIB), ('zr-7k.bin', 7 * KIB)]),
]
# Cases run with both ends in the guest, on veth (see the top).
LOCAL_CASES = [
	('connectionmigration', [('cm-2m.bin', 2048 * KIB), ('cm-16k.bin', 16 * KIB)]),
	('ecn', [('ecn-256k.bin', 256 * KIB)]),
	# Not a runner case: the client moves to a new local port during the
	# transfer by itself (active migration), which the host's user
	# networking cannot forward to the guest.
	('clientmigration', [('cl-2m.bin', 2048 * KIB)]),
]
LOCAL_PORT_BASE = 4800
LOCAL_SERVER, LOCAL_PREFERRED = '192.0.2.2', '192.0.2.3'
# Our endpoint's role: against the peer's server, against the peer's
# client, and both ends ours inside the guest (a baseline of the tools on
# their own, over hq-interop except in http3; it covers what the peer may
# lack, such as v2; loopback, so not in the capture).
ROLES = ('client', 'server', 'both')
SELF_ALPN = 'hq-interop'
SELF_PORT_BASE = 4700
# What the capture must show besides decoded stream data, per case; in
# the filters PORT stands for the server's port.
EXPECT = {
	'chacha20': [('TLS_CHACHA20_POLY1305_SHA256 chosen',
		      'tls.handshake.type == 2 && tls.handshake.ciphersuite == 0x1303')],
	'v2': [('QUIC v2 packets', 'quic.version == 0x6b3343cf')],
	# RFC 9001 Section 6: the client updates, the server follows.
	'keyupdate': [('client packets in key phase 1', 'udp.dstport == PORT && quic.key_phase == 1'),
		      ('server packets in key phase 1', 'udp.srcport == PORT && quic.key_phase == 1')],
	# RFC 9000 Section 8.1.2: a Retry, then an Initial bringing its token.
	'retry': [('Retry from the server', 'udp.srcport == PORT && quic.long.packet_type == 3'),
		  ('client Initial with a token',
		   'udp.dstport == PORT && quic.long.packet_type == 0 && quic.token_length > 0')],
	# RFC 9000 Section 9: the client's new port is validated by the server.
	'rebind-port': [('PATH_CHALLENGE from the server', 'udp.srcport == PORT && quic.frame_type == 0x1a'),
			('PATH_RESPONSE from the client', 'udp.dstport == PORT && quic.frame_type == 0x1b')],
	# RFC 9001 Section 4.5: the second handshake resumes with a PSK.
	'resumption': [('NewSessionTicket from the server',
			'udp.srcport == PORT && tls.handshake.type == 4'),
		       ('ServerHello accepting a PSK',
			'udp.srcport == PORT && tls.handshake.type == 2 && '
			'tls.handshake.extension.type == 41')],
	# RFC 9000 Section 9.6: the client moves to the server's preferred
	# address, validates it, and the transfer goes on there.
	'connectionmigration': [
		('PATH_CHALLENGE to the preferred address',
		 f'ip.dst == {LOCAL_PREFERRED} && quic.frame_type == 0x1a'),
		('PATH_RESPONSE from the preferred address',
		 f'ip.src == {LOCAL_PREFERRED} && quic.frame_type == 0x1b'),
		('STREAM frames from the preferred address',
		 f'ip.src == {LOCAL_PREFERRED} && quic.frame_type >= 0x08 && '
		 'quic.frame_type <= 0x0f')],
	# RFC 9000 Section 9.3: the server, seeing non-probing frames from a
	# new client address, "MUST initiate path validation". The client's
	# own probe first is a MAY (Section 9.1): ngtcp2's client probes, ours
	# moves at once (Section 9.2).
	'clientmigration': [('PATH_CHALLENGE from the server',
			     'udp.srcport == PORT && quic.frame_type == 0x1a'),
			    ('PATH_RESPONSE from the client',
			     'udp.dstport == PORT && quic.frame_type == 0x1b')],
	# RFC 9000 Section 13.4: both ends mark ECT(0) and report the marks
	# they received in ACK frames with ECN counts.
	'ecn': [('client packets marked ECT(0)', 'udp.dstport == PORT && ip.dsfield.ecn == 2'),
		('server packets marked ECT(0)', 'udp.srcport == PORT && ip.dsfield.ecn == 2'),
		('ACK frames with ECN counts from the client',
		 'udp.dstport == PORT && quic.frame_type == 0x03'),
		('ACK frames with ECN counts from the server',
		 'udp.srcport == PORT && quic.frame_type == 0x03')],
	# RFC 9001 Section 4.6: requests in 0-RTT packets, accepted.
	'zerortt': [('0-RTT packets with STREAM frames',
		     'udp.dstport == PORT && quic.long.packet_type == 1 && '
		     'quic.frame_type >= 0x08 && quic.frame_type <= 0x0f'),
		    ('EncryptedExtensions accepting early data',
		     'udp.srcport == PORT && tls.handshake.type == 8 && '
		     'tls.handshake.extension.type == 42')],
}


def log(msg):
	st.log(msg)


def peer_meta(path, key):
	"""The value of a '# interop-KEY: value' line of the peer file."""
	with open(path) as f:
		for line in f:
			m = re.match(rf'#\s*interop-{key}:\s*(.*)', line)
			if m:
				return m.group(1).strip()
	return ''


def make_www(www):
	"""Random files of every case; returns {name: sha256}."""
	shutil.rmtree(www, ignore_errors=True)
	os.makedirs(www)
	rnd = random.Random(9000)
	sums = {}
	for _, files in CASES + LOCAL_CASES:
		for name, size in files:
			data = rnd.randbytes(size)
			with open(os.path.join(www, name), 'wb') as f:
				f.write(data)
			sums[name] = hashlib.sha256(data).hexdigest()
	return sums


def make_certs(work):
	"""A CA and a server certificate for the names both sides dial, by certtool."""
	shutil.rmtree(work, ignore_errors=True)
	os.makedirs(work)

	def path(n):
		return os.path.join(work, n)

	with open(path('ca.tmpl'), 'w') as f:
		f.write('cn = "quic interop CA"\nca\ncert_signing_key\nexpiration_days = 2\n')
	with open(path('server.tmpl'), 'w') as f:
		f.write('cn = "server"\ndns_name = "server"\nip_address = "10.0.2.2"\n'
			'ip_address = "10.0.2.15"\nip_address = "127.0.0.1"\n'
			f'ip_address = "{LOCAL_SERVER}"\nip_address = "{LOCAL_PREFERRED}"\n'
			'tls_www_server\nsigning_key\nencryption_key\nexpiration_days = 2\n')
	for key in ('ca.key', 'priv.key'):
		st.run(['certtool', '--generate-privkey', '--key-type=ecdsa',
			'--outfile', path(key)])
	st.run(['certtool', '--generate-self-signed', '--load-privkey', path('ca.key'),
		'--template', path('ca.tmpl'), '--outfile', path('ca.pem')])
	st.run(['certtool', '--generate-certificate', '--load-privkey', path('priv.key'),
		'--load-ca-certificate', path('ca.pem'), '--load-ca-privkey', path('ca.key'),
		'--template', path('server.tmpl'), '--outfile', path('cert.pem')])
	return {n: path(n) for n in ('ca.pem', 'cert.pem', 'priv.key')}


class Outcome:
	"""One case in one direction."""

	def __init__(self, case, role, port, local=False):
		self.case, self.role, self.port, self.local = case, role, port, local
		self.pcap = self.keys = None	# a local case's capture and key log
		self.state = 'failed'	# passed, failed or unsupported
		self.why = []	# what failed
		self.info = []	# what was measured
		self.secs = 0.0

	@property
	def label(self):
		where = ', in the guest' if self.local else ''
		if self.role == 'both':
			return f'{self.case}, ours to ours'
		return f'{self.case}, our {self.role}{where}'


class Driver:
	"""Runs every case against the guest's agent while the guest is up."""

	def __init__(self, peer, alpn, work, sums, certs):
		self.peer, self.alpn, self.work, self.sums, self.certs = \
			peer, alpn, work, sums, certs
		self.www = os.path.join(work, 'www')
		self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
		self.listener.bind(('127.0.0.1', 0))
		self.listener.listen(1)
		self.outcomes = []
		self.keylogs = []
		self.fwd = {}	# guest port -> host port of our servers
		for i, (case, _) in enumerate(CASES):
			self.fwd[GUEST_PORT_BASE + i] = free_udp_port()
		self.error = None
		self.thread = threading.Thread(target=self.run, daemon=True)

	def hostfwds(self):
		return [f'udp:127.0.0.1:{h}-:{g}' for g, h in self.fwd.items()]

	def cmdline(self):
		return [f'interop_ctrl={self.listener.getsockname()[1]}']

	def start(self):
		self.thread.start()

	# ---- the control connection

	def readline(self):
		line = self.rfile.readline()
		if not line:
			raise RuntimeError('the guest agent closed the control connection')
		return line.decode(errors='replace').rstrip('\n')

	def send(self, line):
		self.conn.sendall(line.encode() + b'\n')

	def read_report(self, extra=None):
		"""exit N, file lines, keylog LEN + bytes, end -> (rc, files, keylog).

		Other lines ("server N", "pcap LEN" + bytes) land in @extra.
		"""
		first = self.readline()
		if not first.startswith('exit '):
			raise RuntimeError(f'agent: {first}')
		rc, files, keylog = int(first.split()[1]), {}, b''
		while True:
			line = self.readline()
			if line == 'end':
				return rc, files, keylog
			words = line.split()
			if words[0] == 'file' and len(words) == 4:
				files[words[1]] = (int(words[2]), words[3])
			elif words[0] == 'keylog':
				keylog = self.rfile.read(int(words[1]))
			elif words[0] == 'pcap':
				data = self.rfile.read(int(words[1]))
				if extra is not None:
					extra['pcap'] = data
			elif words[0] == 'server' and extra is not None:
				extra['server'] = int(words[1])

	# ---- one case in one direction

	def run_peer(self, env, logname, wait):
		path = os.path.join(self.work, 'logs', logname)
		full = dict(os.environ, **env)
		out = open(path, 'w')
		proc = subprocess.Popen([self.peer], env=full, stdout=out, stderr=subprocess.STDOUT,
					stdin=subprocess.DEVNULL)
		out.close()
		if not wait:
			return proc
		try:
			proc.wait(PEER_LIMIT)
		except subprocess.TimeoutExpired:
			proc.kill()
			proc.wait()
			return 124
		return proc.returncode

	def check_files(self, o, files, got):
		for name, _ in files:
			if name not in got:
				o.why.append(f'{name}: missing')
			elif got[name][1] != self.sums[name]:
				o.why.append(f'{name}: {got[name][0]} bytes, sha256 differs')

	def ours_client(self, o, files):
		env = {'ROLE': 'server', 'TESTCASE': o.case, 'WWW': self.www,
		       'CERTS': self.certs, 'ADDR': '127.0.0.1', 'PORT': str(o.port),
		       'SSLKEYLOGFILE': self.peer_keylog(o)}
		server = self.run_peer(env, f'{o.case}-peer-server.log', wait=False)
		udp_bound_wait(o.port, server)
		if server.poll() is not None:
			o.state = 'unsupported' if server.returncode == 127 else 'failed'
			o.why.append(f'peer server exited with {server.returncode}')
			return
		urls = ' '.join(f'https://10.0.2.2:{o.port}/{n}' for n, _ in files)
		self.send(f'client {o.case} {self.alpn} {urls}')
		rc, got, keylog = self.read_report()
		server.terminate()
		try:
			server.wait(10)
		except subprocess.TimeoutExpired:
			server.kill()
			server.wait()
		self.keylogs.append(keylog)
		if self.client_done(o, rc, 'our client', 0):
			self.check_files(o, files, got)

	def start_our_server(self, o, alpn, guest_port):
		"""Ask the agent for our server; False (and why in @o) if it did not start."""
		self.send(f'server {o.case} {alpn} {guest_port}')
		line = self.readline()
		if line == 'started':
			return True
		rc = int(line.split()[1]) if line.startswith('exit ') else -1
		o.state = 'unsupported' if rc == 127 else 'failed'
		o.why.append(f'our server: {line}')
		return False

	def client_done(self, o, rc, client, server_rc):
		"""Note the two exit codes; False when the client called the case unsupported."""
		if rc == 127:
			o.state = 'unsupported'
			return False
		if rc:
			o.why.append(f'{client} exited with {rc}')
		if server_rc:
			o.why.append(f'our server exited with {server_rc}')
		return True

	def ours_server(self, o, files, guest_port):
		if not self.start_our_server(o, self.alpn, guest_port):
			return
		downloads = os.path.join(self.work, 'downloads', f'{o.case}')
		shutil.rmtree(downloads, ignore_errors=True)
		os.makedirs(downloads)
		host_port = self.fwd[guest_port]
		urls = ' '.join(f'https://127.0.0.1:{host_port}/{n}' for n, _ in files)
		env = {'ROLE': 'client', 'TESTCASE': o.case, 'REQUESTS': urls,
		       'DOWNLOADS': downloads, 'CERTS': self.certs,
		       'SSLKEYLOGFILE': self.peer_keylog(o)}
		rc = self.run_peer(env, f'{o.case}-peer-client.log', wait=True)
		self.send('stop')
		server_rc, _, keylog = self.read_report()
		self.keylogs.append(keylog)
		if not self.client_done(o, rc, 'peer client', server_rc):
			return
		got = {}
		for name in os.listdir(downloads):
			data = open(os.path.join(downloads, name), 'rb').read()
			got[name] = (len(data), hashlib.sha256(data).hexdigest())
		self.check_files(o, files, got)

	def ours_both(self, o, files):
		if not self.start_our_server(o, SELF_ALPN, o.port):
			return
		urls = ' '.join(f'https://127.0.0.1:{o.port}/{n}' for n, _ in files)
		self.send(f'client {o.case} {SELF_ALPN} {urls}')
		rc, got, _ = self.read_report()
		self.send('stop')
		server_rc, _, _ = self.read_report()
		if not self.client_done(o, rc, 'our client', server_rc):
			return
		self.check_files(o, files, got)

	def local(self, o, files):
		"""Both ends in the guest; the capture and key log come back."""
		alpn = SELF_ALPN if o.role == 'both' else self.alpn
		names = ' '.join(n for n, _ in files)
		self.send(f'local {o.role} {o.case} {alpn} {o.port} {names}')
		extra = {}
		rc, got, keylog = self.read_report(extra)
		base = os.path.join(self.work, 'local', f'{o.case}-{o.role}')
		os.makedirs(os.path.dirname(base), exist_ok=True)
		o.pcap, o.keys = base + '.pcap', base + '.keys'
		with open(o.pcap, 'wb') as f:
			f.write(extra.get('pcap', b''))
		with open(o.keys, 'wb') as f:
			f.write(keylog)
		server_rc = extra.get('server', 0)
		if rc == 127 or server_rc == 127:
			o.state = 'unsupported'
			return
		client = 'our client' if o.role != 'server' else 'peer client'
		if rc:
			o.why.append(f'{client} exited with {rc}')
		if server_rc:
			who = 'our server' if o.role != 'client' else 'peer server'
			o.why.append(f'{who} exited with {server_rc}')
		self.check_files(o, files, got)

	def peer_keylog(self, o):
		return os.path.join(self.work, 'keys', f'{o.case}-{o.role}.log')

	def run_case(self, o, run, *args):
		"""Run one case in one direction, timed, and note its outcome."""
		start = time.monotonic()
		run(o, *args)
		o.secs = time.monotonic() - start
		if o.state == 'failed' and not o.why:
			o.state = 'passed'
		log(f'interop: {o.label}: {o.state} ({o.secs:.1f} s)')
		self.outcomes.append(o)

	def run(self):
		try:
			self.listener.settimeout(900)
			self.conn, _ = self.listener.accept()
			self.conn.settimeout(PEER_LIMIT * 2)
			self.rfile = self.conn.makefile('rb')
			for i, (case, files) in enumerate(CASES):
				guest_port = GUEST_PORT_BASE + i
				self.run_case(Outcome(case, 'client', free_udp_port()), self.ours_client,
					      files)
				self.run_case(Outcome(case, 'server', guest_port), self.ours_server, files,
					      guest_port)
				self.run_case(Outcome(case, 'both', SELF_PORT_BASE + i), self.ours_both,
					      files)
			for i, (case, files) in enumerate(LOCAL_CASES):
				for role in ROLES:
					self.run_case(Outcome(case, role, LOCAL_PORT_BASE + i, local=True),
						      self.local, files)
			self.send('quit')
		except (OSError, RuntimeError, ValueError) as e:
			self.error = str(e)
		finally:
			self.listener.close()

	# ---- after the guest stopped

	def finish(self, pcap):
		self.thread.join()
		keys = os.path.join(self.work, 'keys', 'all.log')
		with open(keys, 'wb') as out:
			for blob in self.keylogs:
				out.write(blob)
			for name in sorted(os.listdir(os.path.dirname(keys))):
				if name != 'all.log':
					out.write(open(os.path.join(os.path.dirname(keys), name),
						       'rb').read())
		results = []
		# One small capture per case: tshark then decrypts only that case's
		# packets, not the whole run's once per filter of every case.
		ports = {o.port for o in self.outcomes if not o.pcap}
		split = split_by_port(pcap, ports, os.path.join(self.work, 'pcap')) \
			if os.path.exists(pcap) else {}
		for o in self.outcomes:
			if o.state != 'unsupported' and (o.local or o.role != 'both'):
				self.check_capture(o, o.pcap or split.get(o.port, pcap), o.keys or keys)
				if o.why:
					o.state = 'failed'
			results.append(st.Test(f'interop: {o.label}', ok=o.state != 'failed',
					       skip=o.state == 'unsupported',
					       diag=['# ' + w for w in o.why + o.info]))
		if self.error or not self.outcomes:
			results.append(st.Test('interop: every case ran', ok=False,
					       diag=[f'# {self.error or "no case ran"}']))
		return results

	def check_capture(self, o, pcap, keys):
		"""tshark decodes every QUIC packet of the case's port, stream data too."""
		def count(flt):
			out = subprocess.run(['tshark', '-n', '-r', pcap, '-o', f'tls.keylog_file:{keys}',
					      '-d', f'udp.port == {o.port},quic',
					      '-Y', f'udp.port == {o.port} && ({flt})',
					      '-T', 'fields', '-e', 'frame.number',
					      '-e', '_ws.expert.message'],
					     capture_output=True, text=True)
			if out.returncode:
				o.why.append(f'tshark: {out.stderr.strip()[-200:]}')
				return []
			return [l for l in out.stdout.splitlines() if l]

		packets = count('quic')
		# An ICMP error quoting a cut datagram (to a port the client left)
		# is no packet of the connection.
		bad = count('quic && !icmp && !icmpv6 && '
			    '(_ws.malformed || _ws.expert.severity >= 6291456)')
		stream = count('quic.frame_type >= 0x08 && quic.frame_type <= 0x0f')
		o.info.append(f'capture: {len(packets)} QUIC datagrams on port {o.port}, '
			      f'{len(bad)} not decoded, {len(stream)} with STREAM frames')
		if not packets:
			o.why.append(f'capture: no QUIC datagram on port {o.port}')
		if bad:
			o.why.append(f'capture: {len(bad)} of {len(packets)} datagrams not decoded: ' +
				     '; '.join(bad[:3]))
		if packets and not stream:
			o.why.append('capture: no STREAM frame decrypted')
		for what, flt in EXPECT.get(o.case, []):
			if not count(flt.replace('PORT', str(o.port))):
				o.why.append(f'capture: no {what}')
			else:
				o.info.append(f'capture: {what}')


def split_by_port(pcap, ports, outdir):
	"""Write the UDP datagrams of each of @ports in @pcap to outdir/port-N.pcap.

	Reads the classic pcap format QEMU's filter-dump writes (Ethernet; raw
	IP also understood), IPv4 and IPv6 with UDP right after the IP header.
	Returns {port: path}; empty when the capture is in another format (the
	caller then reads the whole capture).
	"""
	with open(pcap, 'rb') as f:
		data = f.read()
	if len(data) < 24:
		return {}
	magic = data[:4]
	if magic in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
		order = '<'
	elif magic in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
		order = '>'
	else:
		return {}
	link = struct.unpack(order + 'I', data[20:24])[0]
	if link == 1:
		l2 = 14
	elif link == 101:
		l2 = 0
	else:
		return {}
	os.makedirs(outdir, exist_ok=True)
	outs = {p: [data[:24]] for p in ports}
	at = 24
	while at + 16 <= len(data):
		incl = struct.unpack(order + 'I', data[at + 8:at + 12])[0]
		rec = data[at:at + 16 + incl]
		pkt = rec[16:]
		at += 16 + incl
		ip = l2
		if l2 == 14:
			if len(pkt) < 14:
				continue
			etype = struct.unpack('>H', pkt[12:14])[0]
			if etype not in (0x0800, 0x86dd):
				continue
		if len(pkt) < ip + 1:
			continue
		if pkt[ip] >> 4 == 4:
			if len(pkt) < ip + 20 or pkt[ip + 9] != 17:
				continue
			udp = ip + (pkt[ip] & 0x0f) * 4
		elif pkt[ip] >> 4 == 6:
			if len(pkt) < ip + 40 or pkt[ip + 6] != 17:
				continue
			udp = ip + 40
		else:
			continue
		if len(pkt) < udp + 4:
			continue
		sport, dport = struct.unpack('>HH', pkt[udp:udp + 4])
		for port in {sport, dport} & ports:
			outs[port].append(rec)
	paths = {}
	for port, recs in outs.items():
		paths[port] = os.path.join(outdir, f'port-{port}.pcap')
		with open(paths[port], 'wb') as f:
			f.write(b''.join(recs))
	return paths


def udp_bound_wait(port, proc, secs=10):
	"""Wait until something binds UDP @port on the host, or @proc exits."""
	want = f':{port:04X} '
	end = time.monotonic() + secs
	while time.monotonic() < end and proc.poll() is None:
		for table in ('/proc/net/udp', '/proc/net/udp6'):
			with open(table) as f:
				if any(line.split()[1].endswith(want.strip()) for line in list(f)[1:]):
					return
		time.sleep(0.05)


def free_udp_port():
	with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
		s.bind(('127.0.0.1', 0))
		return s.getsockname()[1]


def table(peer_name, outcomes):
	cols = (f'ours client, {peer_name} server', f'{peer_name} client, ours server',
		'ours to ours, in the guest')
	by = {(o.case, o.role): o for o in outcomes}
	lines = [f'{"case":<20}{cols[0]:<34}{cols[1]:<34}{cols[2]}']
	for case, _ in CASES + LOCAL_CASES:
		cells = []
		for role in ROLES:
			o = by.get((case, role))
			cell = 'not run' if not o else o.state
			if o and o.state == 'passed':
				cell += f' ({o.secs:.1f} s)'
			cells.append(cell)
		lines.append(f'{case:<20}{cells[0]:<34}{cells[1]:<34}{cells[2]}')
	lines.append('(' + ', '.join(c for c, _ in LOCAL_CASES) +
		     ': both ends in the guest, over veth)')
	return lines


def build_tools(obj):
	out = os.path.join(obj, 'interop-tools')
	st.run(['make', '-s', '-C', TOOLS, f'OUTPUT={out}', '-j2'])
	return [os.path.join(out, p) for p in ('quic-client', 'quic-server')]


def main():
	ap = argparse.ArgumentParser(description='Interoperate with another QUIC implementation.')
	ap.add_argument('--peer', default='ngtcp2', help='a file of ' + os.path.relpath(PEERS, st.ROOT))
	ap.add_argument('--arch', default='x86_64', choices=['x86_64'])
	ap.add_argument('--timeout', type=int, default=2400, help='limit for the boot, seconds')
	ap.add_argument('-v', '--verbose', action='store_true')
	args = ap.parse_args()
	st.VERBOSE = args.verbose
	peer = os.path.join(PEERS, args.peer)
	if not os.access(peer, os.X_OK):
		log(f'interop: no peer {args.peer}; peers: {" ".join(sorted(os.listdir(PEERS)))}')
		return 2
	arch, cfg = args.arch, st.ARCHES[args.arch]
	obj = os.path.join(st.BUILD, 'selftest-' + arch)
	work = os.path.join(st.BUILD, 'interop-' + args.peer)

	subprocess.run([os.path.join(st.ROOT, 'scripts', 'deps.sh')], check=True)
	st.apt_install(cfg['packages'] + ['tshark', 'libnghttp3-dev'] +
		       peer_meta(peer, 'packages').split())

	start = time.monotonic()
	shutil.rmtree(work, ignore_errors=True)
	for d in ('logs', 'keys', 'downloads'):
		os.makedirs(os.path.join(work, d))
	sums = make_www(os.path.join(work, 'www'))
	certs = make_certs(os.path.join(work, 'certs'))
	os.makedirs(st.BUILD, exist_ok=True)
	with open(os.path.join(st.BUILD, f'kunit-{arch}.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		st.run([os.path.join(st.ROOT, 'scripts', 'prepare-tree.sh')])
		modroot = st.build_kernel(arch, cfg, obj)
	tools = build_tools(obj)

	def extra(root, sysroots):
		base = os.path.join(root, 'interop')
		shutil.copytree(os.path.join(work, 'www'), os.path.join(base, 'www'))
		os.makedirs(os.path.join(base, 'certs'))
		for name, path in certs.items():
			shutil.copy2(path, os.path.join(base, 'certs', name))
		shutil.copy2(os.path.join(INTEROP, 'endpoint.sh'), os.path.join(base, 'endpoint.sh'))
		for prog in tools:
			st.copy_with_libs(prog, '/interop/bin', root, cfg, sysroots)
			st.run(['strip', os.path.join(base, 'bin', os.path.basename(prog))])
		# The peer in the guest, for LOCAL_CASES: its script and programs.
		shutil.copy2(peer, os.path.join(base, 'peer.sh'))
		for prog in peer_meta(peer, 'local').split():
			path = shutil.which(prog, path='/usr/bin:/usr/sbin:/bin:/sbin')
			if not path:
				raise RuntimeError(f'peer program {prog} not found')
			st.copy_with_libs(path, '/usr/bin', root, cfg, sysroots)
			st.run(['strip', os.path.join(root, 'usr', 'bin', prog)])

	names = ['interop-agent']
	image = st.build_image(arch, cfg, obj, modroot, names, extra=extra, name='interop')
	alpn = peer_meta(peer, 'alpn') or 'hq-interop'
	driver = Driver(peer, alpn, work, sums, os.path.dirname(certs['cert.pem']))
	args.hostfwd, args.pcap = [], os.path.join(work, 'guest.pcap')
	args.test_timeout = args.timeout - 120
	results, secs = st.boot(arch, cfg, obj, image, args, names, peer=driver,
				rundir=os.path.join(work, 'run'))
	for t in results:
		st.report(t)

	log(f'interop: {arch} kernel (QEMU, TCG) with {args.peer} on the host, ALPN {alpn}')
	for line in table(args.peer, driver.outcomes):
		log('interop:   ' + line)
	for o in driver.outcomes:
		for line in o.info:
			log(f'interop: {o.label}: {line}')
	p = f = s = 0
	for t in results:
		tp, tf, ts = t.count()
		p, f, s = p + tp, f + tf, s + ts
	log(f'interop: took {time.monotonic() - start:.0f} s (boot and cases {secs:.0f} s); '
	    f'logs in {os.path.relpath(work, st.ROOT)}/')
	log(f'interop: {p} passed, {f} failed, {s} unsupported')
	return 1 if f else 0


if __name__ == '__main__':
	try:
		sys.exit(main())
	except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
		print(f'interop: {e}', file=sys.stderr)
		print('interop: 0 passed, 1 failed', file=sys.stderr)
		sys.exit(1)
