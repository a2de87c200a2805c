#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Command-line tests of quic-server and quic-client on the host: --help
# documents every option, bad arguments exit 2, and with no QUIC socket
# available both fail cleanly (exit 1, a message; under valgrind, no
# error and no leak). quic-handshaked: --help documents every option, bad
# arguments and bad config files exit 1, and a good configuration gets as
# far as netlink, then fails cleanly. Every program runs with
# tests/nosock.so preloaded, which refuses socket(IPPROTO_QUIC) and
# generic netlink sockets before the kernel sees them: nothing here can
# load the QUIC module or take a handshake request of the host's.
#
#   sh tests/cli.sh OUTPUT-DIR    (the programs and tests/nosock.so)

out=${1:?usage: cli.sh OUTPUT-DIR}
server=$out/quic-server
client=$out/quic-client
hsd=$out/quic-handshaked
preload=$out/tests/nosock.so
work=$out/tests/work/cli
pass=0
fail=0
n=0

if ! [ -x "$server" ] || ! [ -x "$client" ] || ! [ -x "$hsd" ] || ! [ -f "$preload" ]; then
	echo "cli.sh: build first (make OUTPUT=$out)" >&2
	exit 2
fi
rm -rf "$work"
mkdir -p "$work/www"
echo "alice:00112233445566778899aabbccddeeff" > "$work/psk.txt"
: > "$work/cert.pem"
: > "$work/key.pem"

result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
		pass=$((pass + 1))
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

# expect STATUS DESCRIPTION PROGRAM ARGS...: the exit status is STATUS.
expect() {
	want=$1
	what=$2
	shift 2
	LD_PRELOAD=$preload "$@" > "$work/stdout" 2> "$work/stderr"
	got=$?
	[ "$got" = "$want" ] || sed 's/^/# /' "$work/stderr"
	[ "$got" = "$want" ]
	result $? "$what (exit $got)"
}

echo "KTAP version 1"

# --help: exit 0, every option documented.
for opt in --listen --root --cert --key --psk --alpn --keylog --retry --preferred-addr --ca \
	   --quiet --verbose --help; do
	LD_PRELOAD=$preload "$server" --help > "$work/help" 2>&1
	st=$?
	grep -q -e "$opt " "$work/help"
	result $((st + $?)) "quic-server --help documents $opt"
done
for opt in --alpn --ca --insecure --version --cipher --psk --keylog --key-update --migrate \
	   --timeout --output --verbose --help; do
	LD_PRELOAD=$preload "$client" --help > "$work/help" 2>&1
	st=$?
	grep -q -e "$opt " "$work/help"
	result $((st + $?)) "quic-client --help documents $opt"
done

for opt in "-f, --foreground" "-c, --config" --cert --key --ca --timeout --max-children \
	   "-v, --verbose" --syslog "-h, --help"; do
	LD_PRELOAD=$preload "$hsd" --help > "$work/help" 2>&1
	st=$?
	grep -q -e "$opt " "$work/help"
	result $((st + $?)) "quic-handshaked --help documents $opt"
done

s="--listen 127.0.0.1:4433 --root $work/www"
x509="--cert $work/cert.pem --key $work/key.pem"
# shellcheck disable=SC2086
{
expect 2 "quic-server: no arguments" "$server"
expect 2 "quic-server: unknown option" "$server" --bogus
expect 2 "quic-server: missing option argument" "$server" --listen
expect 2 "quic-server: no --listen" "$server" --root "$work/www" $x509
expect 2 "quic-server: no --root" "$server" --listen 127.0.0.1:4433 $x509
expect 2 "quic-server: no credentials" "$server" $s
expect 2 "quic-server: --cert without --key" "$server" $s --cert "$work/cert.pem"
expect 2 "quic-server: --psk with --cert" "$server" $s $x509 --psk "$work/psk.txt"
expect 2 "quic-server: unreadable --psk" "$server" $s --psk "$work/none.txt"
expect 2 "quic-server: unreadable --cert" "$server" $s --cert "$work/none" \
	--key "$work/key.pem"
expect 2 "quic-server: unreadable --ca" "$server" $s $x509 --ca "$work/none"
expect 2 "quic-server: --alpn h2" "$server" $s $x509 --alpn h2
expect 2 "quic-server: --alpn with an empty name" "$server" $s $x509 --alpn h3,
r="--root $work/www"
expect 2 "quic-server: --listen without a port" "$server" --listen 127.0.0.1 $r $x509
expect 2 "quic-server: --listen with a name" "$server" --listen localhost:443 $r $x509
expect 2 "quic-server: --listen with a bare IPv6 address" "$server" --listen ::1:443 $r $x509
expect 2 "quic-server: --root not a directory" "$server" --listen 127.0.0.1:4433 \
	--root "$work/psk.txt" $x509
expect 2 "quic-server: stray argument" "$server" $s $x509 extra
expect 2 "quic-server: --preferred-addr of the other family" "$server" $s $x509 \
	--preferred-addr "[::1]:4434"
expect 2 "quic-server: --preferred-addr without a port" "$server" $s $x509 \
	--preferred-addr 127.0.0.2
expect 2 "quic-server: --preferred-addr with port 0" "$server" $s $x509 \
	--preferred-addr 127.0.0.2:0

u=https://127.0.0.1:4433/file.bin
expect 2 "quic-client: no arguments" "$client"
expect 2 "quic-client: unknown option" "$client" --output "$work/dl" --bogus $u
expect 2 "quic-client: no --output" "$client" $u
expect 2 "quic-client: no URL" "$client" --output "$work/dl"
expect 2 "quic-client: http URL" "$client" --output "$work/dl" http://127.0.0.1/x
expect 2 "quic-client: URL with user information" "$client" --output "$work/dl" https://u@h/x
expect 2 "quic-client: URL ending in /.." "$client" --output "$work/dl" https://h/a/..
expect 2 "quic-client: --alpn h2" "$client" --output "$work/dl" --alpn h2 $u
expect 2 "quic-client: --version 3" "$client" --output "$work/dl" --version 3 $u
expect 2 "quic-client: --cipher unknown" "$client" --output "$work/dl" --cipher TLS_NULL $u
expect 2 "quic-client: --timeout not a number" "$client" --output "$work/dl" --timeout 5s $u
expect 2 "quic-client: --timeout negative" "$client" --output "$work/dl" --timeout -1 $u
expect 2 "quic-client: --ca and --insecure" "$client" --output "$work/dl" \
	--ca "$work/cert.pem" --insecure $u
expect 2 "quic-client: two URLs saved as one file" "$client" --output "$work/dl" \
	https://a/x/f.bin https://b/y/f.bin
expect 2 "quic-client: unreadable --ca" "$client" --output "$work/dl" --ca "$work/none" $u
expect 2 "quic-client: unreadable --psk" "$client" --output "$work/dl" --psk "$work/none" $u
}

printf '# test\ncert = %s\nkey = %s\n\nca = %s\ntimeout = 5000\nmax-children = 8\n' \
	"$work/cert.pem" "$work/key.pem" "$work/cert.pem" > "$work/good.conf"
printf 'max-children = 0\n' > "$work/nochildren.conf"
printf 'cert = /c.pem\nsecret = x\n' > "$work/unknown.conf"
printf 'cert /c.pem\n' > "$work/noeq.conf"
printf 'cert = %s\n' "$work/cert.pem" > "$work/certonly.conf"
: > "$work/empty.conf"
expect 1 "quic-handshaked: unknown option" "$hsd" -f --bogus
expect 1 "quic-handshaked: missing option argument" "$hsd" -f --timeout
expect 1 "quic-handshaked: stray argument" "$hsd" -f extra
expect 1 "quic-handshaked: --timeout not a number" "$hsd" -f --timeout 5s
expect 1 "quic-handshaked: --timeout 0" "$hsd" -f --timeout 0
expect 1 "quic-handshaked: --max-children 0" "$hsd" -f --max-children 0
grep -q -e "--max-children: from 1 to" "$work/stderr"
result $? "quic-handshaked: says what --max-children takes"
expect 1 "quic-handshaked: --max-children not a number" "$hsd" -f --max-children 8x
expect 1 "quic-handshaked: max-children = 0 in the config file" "$hsd" -f \
	-c "$work/nochildren.conf"
grep -q "nochildren.conf: line 1: max-children" "$work/stderr"
result $? "quic-handshaked: names the max-children line"
expect 1 "quic-handshaked: --cert without --key" "$hsd" -f -c "$work/empty.conf" \
	--cert "$work/cert.pem"
expect 1 "quic-handshaked: --key with an empty name" "$hsd" -f -c "$work/good.conf" --key ""
expect 1 "quic-handshaked: cert without key in the config file" "$hsd" -f \
	-c "$work/certonly.conf"
expect 1 "quic-handshaked: missing -c file" "$hsd" -f -c "$work/none.conf"
grep -q "none.conf: No such file" "$work/stderr"
result $? "quic-handshaked: names the missing config file"
expect 1 "quic-handshaked: unknown key in the config file" "$hsd" -f --config "$work/unknown.conf"
grep -q "unknown.conf: line 2: unknown key 'secret'" "$work/stderr"
result $? "quic-handshaked: names the line and the key"
expect 1 "quic-handshaked: config line without '='" "$hsd" -f -c "$work/noeq.conf"
expect 0 "quic-handshaked: --help after a good config" "$hsd" -c "$work/good.conf" --help
# A good configuration is taken; without generic netlink the daemon stops.
expect 1 "quic-handshaked: no generic netlink" "$hsd" -f -v -c "$work/good.conf" --timeout 100
grep -q "netlink" "$work/stderr" && ! grep -q "config" "$work/stderr"
result $? "quic-handshaked: says netlink failed, not the config"
expect 1 "quic-handshaked: --max-children 4096 is taken" "$hsd" -f -c "$work/empty.conf" \
	--max-children 4096
grep -q "netlink" "$work/stderr"
result $? "quic-handshaked: --max-children 4096 gets as far as netlink"

# No QUIC socket: the server cannot start, the client fails every file.
expect 1 "quic-server: no IPPROTO_QUIC socket" "$server" --listen 127.0.0.1:4433 \
	--root "$work/www" --psk "$work/psk.txt"
grep -q "quic module" "$work/stderr"
result $? "quic-server: says the QUIC module may be missing"
expect 1 "quic-client: no IPPROTO_QUIC socket" "$client" --output "$work/dl" \
	--cipher TLS_CHACHA20_POLY1305_SHA256 --version 2 --insecure $u "https://[::1]:4433/b.bin"
grep -q "FAILED $u" "$work/stderr" && grep -q "FAILED https://\[::1\]:4433/b.bin" "$work/stderr"
result $? "quic-client: lists every failed URL"
[ -d "$work/dl" ] && [ ! -e "$work/dl/file.bin" ]
result $? "quic-client: created --output, left no file behind"

if command -v valgrind > /dev/null; then
	vg="valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect"
	vg="$vg --error-exitcode=99"
	# shellcheck disable=SC2086
	expect 1 "valgrind quic-client: the failure path is clean" $vg "$client" \
		--output "$work/dl" --alpn hq-interop $u https://127.0.0.1:4434/c.bin
	# shellcheck disable=SC2086
	expect 1 "valgrind quic-server: the failure path is clean" $vg "$server" \
		--listen "[::1]:4433" --root "$work/www" $x509 --quiet
	# shellcheck disable=SC2086
	expect 2 "valgrind quic-client: bad arguments are clean" $vg "$client" \
		--output "$work/dl" https://h/ok.bin http://bad/
	# shellcheck disable=SC2086
	expect 1 "valgrind quic-handshaked: the netlink failure path is clean" $vg "$hsd" \
		-f -c "$work/good.conf"
	# shellcheck disable=SC2086
	expect 1 "valgrind quic-handshaked: a bad config file is clean" $vg "$hsd" \
		-f -c "$work/unknown.conf" --cert "$work/cert.pem"
fi

echo "1..$n"
echo "command lines: $pass passed, $fail failed"
[ "$fail" = 0 ]
