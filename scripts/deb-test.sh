#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb-check: build the Debian packages (scripts/deb.sh) and test them
# the way a Debian 12 user meets them. Each step prints "ok N - ..." or
# "not ok N - ..."; the last line is "deb: N passed, N failed".
#
#   scripts/deb-test.sh [--no-root]
#
# 1. lintian: no error and no warning (an override must say why);
# 2. DKMS: the quic-dkms package's dkms.conf and sources, unpacked (not
#    installed), built by dkms itself in a private DKMS tree against the
#    newest installed Debian 6.12 headers: quic.ko and quic_sample.ko for
#    that kernel, nothing installed into any kernel of this machine;
# 3. a fresh Debian 12 root (mmdebstrap, cached in ~/.cache/quic-deb):
#    apt installs libquic2, libquic-dev and quic-tools from the .debs with
#    their dependencies from the archive, a program written against
#    <netinet/quic.h> is built with pkg-config --cflags --libs libquic and
#    run, and the tools start (--help). --no-root skips this step.

set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/.build/deb
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/quic-deb
NO_ROOT=
[ "${1:-}" = "--no-root" ] && NO_ROOT=1

n=0
failed=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

apt_need() {
	local need='' pkg

	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
			need="$need $pkg"
	done
	[ -z "$need" ] && return 0
	echo "# installing$need"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need \
		>/dev/null
}

start=$(date +%s)
if ! "$ROOT/scripts/deb.sh"; then
	result 1 "make deb builds the packages"
	echo "deb: 0 passed, $failed failed"
	exit 1
fi
result 0 "make deb builds the packages ($(($(date +%s) - start)) s)"
version=$(sed -n '1s/^quic (\(.*\)).*/\1/p' "$OUT"/quic-*/debian/changelog)
arch=$(dpkg --print-architecture)

# 1. lintian
apt_need lintian
lintian --fail-on error,warning "$OUT"/*.changes > "$OUT/lintian.log" 2>&1
rc=$?
grep -v '^running with root' "$OUT/lintian.log" | sed 's/^/# /'
result $rc "lintian: no error, no warning"

# 2. DKMS, in a private tree
apt_need dkms
# The headers make selftest KERNEL=debian unpacked (make check runs it
# first), else installed ones, else installed now.
kdir=$(ls -d "$ROOT"/.build/selftest-cache/debian-headers-*/usr/src/linux-headers-6.12.*+deb12-"$arch" \
	2>/dev/null | sort -V | tail -n 1)
[ -n "$kdir" ] ||
	kdir=$(ls -d /usr/src/linux-headers-6.12.*+deb12-"$arch" 2>/dev/null | sort -V | tail -n 1)
if [ -z "$kdir" ]; then
	# The headers a DKMS user installs (they pull in the image package:
	# files on disk only, this machine's running kernel is not touched).
	rel=$(apt-cache pkgnames linux-headers-6.12. |
	      sed -n "s/^linux-headers-\(6\.12\.[0-9]*+deb12-$arch\)$/\1/p" | sort -V | tail -n 1)
	apt_need "linux-headers-$rel"
	kdir=/usr/src/linux-headers-$rel
fi
rel=$(cat "$kdir/include/config/kernel.release")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
dpkg -x "$OUT/quic-dkms_${version}_all.deb" "$t/pkg"
mkdir -p "$t/dkms"
dkms_run() {
	dkms "$@" --dkmstree "$t/dkms" --sourcetree "$t/pkg/usr/src" -m quic -v "$version" \
		>> "$t/dkms.log" 2>&1
}
start=$(date +%s)
if dkms_run add && dkms_run build -k "$rel" --kernelsourcedir "$kdir"; then
	rc=0
	for ko in quic quic_sample; do
		f=$(ls "$t/dkms/quic/$version/$rel"/*/module/"$ko".ko* 2>/dev/null | head -n 1)
		if [ -z "$f" ]; then
			echo "# dkms built no $ko.ko"
			rc=1
			continue
		fi
		vm=$(modinfo -F vermagic "$f" | cut -d' ' -f1)
		echo "# $(basename "$f"): vermagic $vm"
		[ "$vm" = "$rel" ] || rc=1
	done
else
	rc=1
	tail -30 "$t/dkms.log" | sed 's/^/# /'
	find "$t/dkms" -name make.log -exec tail -20 {} \; | sed 's/^/# /'
fi
result $rc "dkms builds quic.ko and quic_sample.ko for $rel ($(($(date +%s) - start)) s)"

# 3. A fresh Debian 12 root
if [ -n "$NO_ROOT" ]; then
	echo "deb: $((n - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi
apt_need mmdebstrap
mkdir -p "$CACHE"
base="$CACHE/bookworm-$arch.tar"
start=$(date +%s)
if [ ! -s "$base" ]; then
	# Debian 12 with a compiler and pkg-config: what a developer has.
	mmdebstrap --quiet --variant=apt --include=gcc,libc6-dev,pkgconf,ca-certificates \
		bookworm "$base.part.tar" http://deb.debian.org/debian > "$t/mmdebstrap.log" 2>&1 &&
		mv "$base.part.tar" "$base"
fi
rootfs="$t/root"
mkdir -p "$rootfs"
if [ -s "$base" ] && tar -C "$rootfs" -xf "$base"; then
	result 0 "a fresh Debian 12 root ($(($(date +%s) - start)) s)"
else
	tail -20 "$t/mmdebstrap.log" 2>/dev/null | sed 's/^/# /'
	result 1 "a fresh Debian 12 root"
	echo "deb: $((n - failed)) passed, $failed failed"
	exit 1
fi
mkdir -p "$rootfs/tmp/debs"
cp "$OUT"/libquic2_"$version"_"$arch".deb "$OUT"/libquic-dev_"$version"_"$arch".deb \
   "$OUT"/quic-tools_"$version"_"$arch".deb "$rootfs/tmp/debs/"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
in_root() {
	chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}
mount -t proc proc "$rootfs/proc"
trap 'umount "$rootfs/proc" 2>/dev/null; rm -rf "$t"' EXIT
in_root apt-get update -qq > "$t/apt.log" 2>&1 &&
	in_root apt-get install -y -qq --no-install-recommends /tmp/debs/libquic2_"$version"_"$arch".deb \
		/tmp/debs/libquic-dev_"$version"_"$arch".deb \
		/tmp/debs/quic-tools_"$version"_"$arch".deb >> "$t/apt.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -20 "$t/apt.log" | sed 's/^/# /'
result $rc "apt installs libquic2, libquic-dev and quic-tools with their dependencies"

cat > "$rootfs/tmp/alpn.c" <<'EOT'
/* Built against the installed libquic-dev: no QUIC kernel is needed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netinet/quic.h>

int main(void)
{
	const char *list = "h3, hq-interop";
	gnutls_session_t session;
	size_t len = 64, size = 16;
	char alpn[64], data[16];

	if (gnutls_init(&session, GNUTLS_CLIENT))
		return 1;
	/* A list written with a space after each comma is taken. */
	if (quic_session_set_alpn(session, list, strlen(list)))
		return 2;
	/* Nothing negotiated before a handshake. */
	if (quic_session_get_alpn(session, alpn, &len) != -ENOENT)
		return 3;
	/* No session ticket yet: 0 and an empty ticket. */
	if (quic_session_get_data(session, data, &size) || size)
		return 4;
	gnutls_deinit(session);
	printf("libquic from libquic-dev: ALPN list and session data calls behave\n");
	return 0;
}
EOT
out=$(in_root sh -c 'cd /tmp && gcc -Wall -Wextra -Werror -o alpn alpn.c \
	$(pkg-config --cflags --libs libquic) && ./alpn' 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
result $rc "a program built with pkg-config libquic against the installed headers runs"

rc=0
for prog in /usr/bin/quic-client /usr/bin/quic-server /usr/sbin/quic-handshaked; do
	in_root "$prog" --help > /dev/null 2>&1 || { echo "# $prog --help failed"; rc=1; }
done
for f in /usr/share/man/man7/quic.7.gz /usr/share/man/man1/quic-client.1.gz \
	 /usr/share/man/man1/quic-server.1.gz /usr/share/man/man8/quic-handshaked.8.gz \
	 /lib/systemd/system/quic-handshaked.service \
	 /etc/quic-handshaked.conf \
	 /usr/lib/"$(dpkg-architecture -qDEB_HOST_MULTIARCH)"/pkgconfig/libquic.pc; do
	[ -e "$rootfs$f" ] || { echo "# missing $f"; rc=1; }
done
result $rc "the tools start; their manual pages, quic(7), the unit, the config and libquic.pc are installed"

echo "deb: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
