#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile single objects of ours with W=1 and sparse (C=1), in a build
# directory of their own (.build/check-x86_64) so that a running KUnit
# build is not disturbed:  scripts/compile-one.sh net/quic/common.o ...
# With no argument, checks the whole net/quic directory (C=2: every file).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TREE="$ROOT/.build/linux"
OBJ="$ROOT/.build/check-x86_64"

export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1

exec 9>"$ROOT/.build/check.lock"
flock 9

if [ ! -f "$OBJ/.config" ] || ! grep -q '^CONFIG_IP_QUIC_KUNIT_TEST=y' "$OBJ/.config" ||
   ! grep -q '^CONFIG_IP_QUIC_SAMPLE=m' "$OBJ/.config" ||
   ! grep -q '^CONFIG_IP_QUIC_DEBUG_INVARIANTS=y' "$OBJ/.config"; then
	mkdir -p "$OBJ"
	# The x86_64 KUnit kernel's configuration plus the sample module
	# (a kernel consumer through net/handshake), so that it is checked too.
	make -s -C "$TREE" O="$OBJ" ARCH=x86_64 defconfig >/dev/null
	echo CONFIG_IP_QUIC_SAMPLE=m > "$OBJ/sample.config"
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" \
		"$ROOT/kunitconfig" "$OBJ/sample.config" >/dev/null
	make -s -C "$TREE" O="$OBJ" ARCH=x86_64 olddefconfig >/dev/null
fi

if [ $# -eq 0 ]; then
	set -- net/quic/
	check=2
else
	check=1
fi
make -s -C "$TREE" O="$OBJ" ARCH=x86_64 CC="ccache gcc" W=1 C=$check -j2 "$@"
