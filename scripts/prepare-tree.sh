#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel tree under .build/linux:
#  1. extract Debian's linux-source-6.12 (only when missing or when the
#     installed package version differs from the one extracted);
#  2. apply the glue edits to existing kernel files (idempotent: each glued
#     file is regenerated from its pristine copy and only rewritten when its
#     content changes, so make sees no spurious modification);
#  3. overlay our sources by symlinking them into the tree, so that edits in
#     the repository are seen by the next incremental build.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/.build"
TREE="$BUILD/linux"
TARBALL=/usr/src/linux-source-6.12.tar.xz
PKG=linux-source-6.12

mkdir -p "$BUILD"
# Several builds (one per arch) may prepare the tree at the same time.
exec 9>"$BUILD/prepare.lock"
flock 9

pkgver=$(dpkg-query -W -f='${Version}' "$PKG")
stamp="$TREE/.quic-source-stamp"

if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$pkgver" ]; then
	echo "prepare: extracting $PKG $pkgver into $TREE"
	rm -rf "$TREE" "$BUILD/linux-source-6.12"
	tar -C "$BUILD" -xf "$TARBALL"
	mv "$BUILD/linux-source-6.12" "$TREE"
	echo "$pkgver" > "$stamp"
	# Build directories configured against the old tree are stale.
	rm -rf "$BUILD"/kunit-* "$BUILD"/check-* "$BUILD"/selftest-*
fi

ORIG="$TREE/.quic-orig"

# glue FILE SED-SCRIPT: regenerate FILE from its pristine copy with SED-SCRIPT.
glue() {
	local file="$TREE/$1" script="$2" tmp

	if [ ! -f "$ORIG/$1" ]; then
		mkdir -p "$(dirname "$ORIG/$1")"
		cp -p "$file" "$ORIG/$1"
	fi
	tmp=$(mktemp)
	sed -e "$script" "$ORIG/$1" > "$tmp"
	if cmp -s "$tmp" "$ORIG/$1"; then
		echo "prepare: glue for $1 no longer applies" >&2
		rm -f "$tmp"
		exit 1
	fi
	if ! cmp -s "$tmp" "$file"; then
		cat "$tmp" > "$file"
		echo "prepare: glued $1"
	fi
	rm -f "$tmp"
}

glue include/uapi/linux/in.h '/^#define IPPROTO_SMC[[:space:]]/a\
  IPPROTO_QUIC = 261,		/* QUIC: UDP-based multiplexed secure transport */\
#define IPPROTO_QUIC		IPPROTO_QUIC'
glue include/linux/socket.h '/^#define SOL_VSOCK[[:space:]]*287/a\
#define SOL_QUIC	288'
# net/handshake is built for its consumers: the QUIC sample is one.
glue net/Kconfig '/^source "net\/sctp\/Kconfig"/i\
source "net/quic/Kconfig"
s/^\(\tdepends on SUNRPC || NVME_TARGET_TCP || NVME_TCP\)$/\1 || IP_QUIC_SAMPLE/'
glue net/Makefile '/^obj-\$(CONFIG_IP_SCTP)/i\
obj-$(CONFIG_IP_QUIC)		+= quic/'

# link SRC DST: make DST (in the tree) a symlink to SRC (in the repository).
link() {
	local src="$ROOT/$1" dst="$TREE/$2"

	[ -e "$src" ] || return 0
	if [ "$(readlink "$dst" 2>/dev/null)" != "$src" ]; then
		rm -rf "$dst"
		mkdir -p "$(dirname "$dst")"
		ln -s "$src" "$dst"
	fi
}

link net/quic net/quic
link include/uapi/linux/quic.h include/uapi/linux/quic.h
link include/linux/quic.h include/linux/quic.h
link tools/testing/selftests/net/quic tools/testing/selftests/net/quic
exit 0
