#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Our endpoint for the interop harness, in the guest: the QUIC interop
# runner's endpoint contract (docs/interop.md) on tools/quic's quic-client
# and quic-server over the kernel's QUIC sockets.
#
# Contract: ROLE (client|server), TESTCASE, REQUESTS (client), DOWNLOADS,
# WWW, CERTS (cert.pem, priv.key; ca.pem if the peer's certificate is to be
# verified), SSLKEYLOGFILE. Extensions of this harness: PORT (the server's
# UDP port, default 443), ALPN (hq-interop unless the peer speaks only h3),
# ADDR (the server's address, default any), PREFERRED_ADDR (ADDR:PORT the
# server offers as preferred_address in connectionmigration).
# Exit 127: the case is not supported.

bin=${QUIC_TOOLS:-/interop/bin}
alpn=${ALPN:-hq-interop}

case "$TESTCASE" in
handshake|transfer|multiplexing|chacha20|v2|keyupdate|retry|rebind-port|resumption|zerortt) ;;
# connectionmigration: our client follows a preferred_address by itself.
# ecn: both directions are marked ECT(0) and ACKs carry the counts, always.
# clientmigration (not a runner case): our client moves to a new local port.
connectionmigration|ecn|clientmigration) ;;
http3) alpn=h3 ;;
*) exit 127 ;;
esac

case "$ROLE" in
client)
	set -- --alpn "$alpn" --output "${DOWNLOADS:-/downloads}"
	if [ -f "$CERTS/ca.pem" ]; then
		set -- "$@" --ca "$CERTS/ca.pem"
	else
		set -- "$@" --insecure
	fi
	[ -n "$SSLKEYLOGFILE" ] && set -- "$@" --keylog "$SSLKEYLOGFILE"
	[ "$TESTCASE" = chacha20 ] && set -- "$@" --cipher TLS_CHACHA20_POLY1305_SHA256
	[ "$TESTCASE" = keyupdate ] && set -- "$@" --key-update
	[ "$TESTCASE" = rebind-port ] && set -- "$@" --migrate
	[ "$TESTCASE" = clientmigration ] && set -- "$@" --migrate
	[ "$TESTCASE" = resumption ] && set -- "$@" --resume
	[ "$TESTCASE" = zerortt ] && set -- "$@" --resume --early-data
	# v2: ours starts in v1 and offers v2 (compatible version
	# negotiation, RFC 9368); the server moves the connection to v2.
	# REQUESTS is a space-separated list: split it on purpose.
	# shellcheck disable=SC2086
	exec "$bin/quic-client" "$@" $REQUESTS
	;;
server)
	# Both protocols unless the case is HTTP/3's: the client's offer
	# decides, and the server learns the agreed one from its socket.
	[ "$TESTCASE" = http3 ] || alpn=h3,hq-interop
	set -- --listen "${ADDR:-0.0.0.0}:${PORT:-443}" --cert "$CERTS/cert.pem" \
		--key "$CERTS/priv.key" --root "${WWW:-/www}" --alpn "$alpn"
	[ -n "$SSLKEYLOGFILE" ] && set -- "$@" --keylog "$SSLKEYLOGFILE"
	[ "$TESTCASE" = retry ] && set -- "$@" --retry
	[ "$TESTCASE" = v2 ] && set -- "$@" --version 2
	[ "$TESTCASE" = connectionmigration ] && [ -n "$PREFERRED_ADDR" ] &&
		set -- "$@" --preferred-addr "$PREFERRED_ADDR"
	exec "$bin/quic-server" "$@"
	;;
*)
	echo "endpoint: ROLE must be client or server" >&2
	exit 2
	;;
esac
