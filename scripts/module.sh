#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make module [KDIR=/lib/modules/<release>/build] [ARCH=x86_64|arm64] [OUT=dir]
#
# Builds quic.ko (and quic_sample.ko when the kernel has net/handshake) out
# of tree, against a distribution kernel's headers: by default the newest
# Debian 6.12 headers installed for ARCH (linux-headers-6.12.*+deb12-<arch>).
#
#   scripts/module.sh [--kdir=DIR] [--arch=ARCH] [--out=DIR] [--stage-only]
#
# 1. checks the kernel configuration for every option QUIC needs and stops
#    with one line per missing option (none is worked around by copying
#    kernel code into the module);
# 2. stages the sources in OUT (default .build/module-<release>): symbolic
#    links to net/quic and include/, so objects stay out of the repository
#    (Linux 6.12's kbuild writes them next to the sources of M=); a DKMS
#    source tree (scripts/debian/rules) holds real copies instead and calls this
#    script with --in-place;
# 3. runs the kernel's kbuild: make -C KDIR M=OUT modules.
# The modules are then OUT/net/quic/quic.ko and OUT/net/quic/quic_sample.ko.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${ARCH:-$(uname -m)}
KDIR=${KDIR:-}
OUT=${OUT:-}
STAGE_ONLY=
IN_PLACE=

for arg in "$@"; do
	case "$arg" in
	--kdir=*) KDIR=${arg#*=} ;;
	--arch=*) ARCH=${arg#*=} ;;
	--out=*) OUT=${arg#*=} ;;
	--stage-only) STAGE_ONLY=1 ;;
	--in-place) IN_PLACE=1 ;;
	*) echo "module: unknown argument $arg" >&2; exit 2 ;;
	esac
done

case "$ARCH" in
x86_64|amd64) ARCH=x86_64; deb_arch=amd64; cross= ;;
arm64|aarch64) ARCH=arm64; deb_arch=arm64; cross=aarch64-linux-gnu- ;;
*) echo "module: no Debian kernel flavour for ARCH=$ARCH" >&2; exit 2 ;;
esac
[ "$ARCH" = "$(uname -m | sed 's/aarch64/arm64/')" ] && cross=

# The newest Debian 6.12 headers of the arch.
if [ -z "$KDIR" ]; then
	KDIR=$(ls -d /usr/src/linux-headers-6.12.*+deb12-"$deb_arch" 2>/dev/null |
	       sort -V | tail -n 1)
	if [ -z "$KDIR" ]; then
		echo "module: no linux-headers-6.12.*+deb12-$deb_arch installed;" \
		     "apt-get install linux-headers-6.12.<N>+deb12-$deb_arch" >&2
		exit 1
	fi
fi
if [ ! -f "$KDIR/include/config/auto.conf" ]; then
	echo "module: $KDIR is not a configured kernel build or headers tree" >&2
	exit 1
fi
release=$(cat "$KDIR/include/config/kernel.release")
conf="$KDIR/include/config/auto.conf"

# What the Kconfig of net/quic selects or depends on. The module cannot
# select options of a kernel already built; a missing one is reported.
need() {
	local opt=$1 why=$2

	if ! grep -qE "^CONFIG_$opt=[ym]" "$conf"; then
		echo "module: $release lacks CONFIG_$opt ($why)" >&2
		missing=1
	fi
}
missing=
need INET "IPv4 sockets"
need IPV6 "IPv6 sockets; QUIC serves both families"
need NET_UDP_TUNNEL "UDP encapsulation sockets carry QUIC"
for alg in AES GCM CCM CHACHA20POLY1305 HMAC SHA256 SHA512 ECB CTR; do
	need CRYPTO_$alg "RFC 9001 packet protection and key derivation"
done
need CRYPTO_LIB_AES "header protection and ALPN routing of Initials"
need CRYPTO_LIB_SHA256 "address validation tokens"
# Opening a client's Initial in softirq context to route it by ALPN: the
# AES-GCM library when the kernel has it, else GHASH over gf128mul.
if ! grep -qE '^CONFIG_CRYPTO_LIB_AESGCM=[ym]' "$conf"; then
	need CRYPTO_LIB_GF128MUL "ALPN routing without the AES-GCM library"
fi
[ -z "$missing" ] || exit 1

sample=
if grep -qE '^CONFIG_NET_HANDSHAKE=y' "$conf"; then
	sample="CONFIG_IP_QUIC_SAMPLE=m"
else
	echo "module: $release has no net/handshake (CONFIG_NET_HANDSHAKE):" \
	     "quic_sample.ko is not built" >&2
fi

if [ -n "$IN_PLACE" ]; then
	# A DKMS source tree (scripts/debian/rules): real copies and a Kbuild.
	if [ -e "$ROOT/.git" ] || [ ! -f "$ROOT/Kbuild" ]; then
		echo "module: --in-place is for a DKMS source tree, not $ROOT" >&2
		exit 2
	fi
	OUT=$ROOT
else
	OUT=${OUT:-$ROOT/.build/module-$release}
	# Links, file by file: a linked directory would put the objects in it.
	stage() {
		local dir=$1 f

		mkdir -p "$OUT/$dir"
		for f in "$ROOT/$dir"/*; do
			[ -f "$f" ] || continue
			ln -sfn "$f" "$OUT/$dir/$(basename "$f")"
		done
	}
	stage net/quic
	stage include/linux
	stage include/uapi/linux
	ln -sfn "$ROOT/scripts/debian/quic-dkms.Kbuild" "$OUT/Kbuild"
fi
[ -n "$STAGE_ONLY" ] && exit 0

echo "module: building against $KDIR ($release, $ARCH) in $OUT"
exec make -C "$KDIR" M="$OUT" ARCH="$ARCH" ${cross:+CROSS_COMPILE=$cross} \
	QUIC_SRC="$OUT" CONFIG_IP_QUIC=m $sample \
	-j"$(nproc)" modules
