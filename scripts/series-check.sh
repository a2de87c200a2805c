#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series of make series, applied and built as a reviewer would:
#
#   scripts/series-check.sh [PATCH_DIR]     (default .build/series/patches)
#
# 1. a fresh tree: /usr/src/linux-source-6.12.tar.xz extracted into
#    .build/series/tree, a git repository whose first commit tracks the
#    kernel files the series edits (the rest of the tree stays untracked:
#    git am only needs the files it patches);
# 2. configured once (x86_64 defconfig plus QUIC as modules, its KUnit
#    suites, the invariant checks and the sample) and prepared;
# 3. git am, one patch at a time; after each: olddefconfig with the QUIC
#    options merged again (they exist from patch 2), make net/quic/ with
#    -Werror, and every symbol of ours (no kernel symbol has "quic" in its
#    name) that quic.o, quic_kunit.o and quic_sample.o leave undefined
#    must be defined by the series so far: the part of modpost's check
#    a patch order can break, without building the whole kernel (the
#    kernel's own symbols are the same at every step, and make check's
#    builds resolve them);
# 4. prints "ok N - <patch>" per patch, and "series: N passed, N failed".

set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATCHES=$(cd "${1:-$ROOT/.build/series/patches}" && pwd)
BASE=$ROOT/.build/series
TREE=$BASE/tree
OBJ=$BASE/obj
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1

start=$(date +%s)
rm -rf "$TREE" "$OBJ" "$BASE/linux-source-6.12"
tar -C "$BASE" -xf /usr/src/linux-source-6.12.tar.xz
mv "$BASE/linux-source-6.12" "$TREE"
cd "$TREE" || exit 1
git init -q
# -f: the tarball's directories may match an ignore file of the user's.
if ! git add -f include/uapi/linux/in.h include/linux/socket.h net/Kconfig net/Makefile \
	Documentation/networking/index.rst ||
   ! git -c user.name=series -c user.email=series@localhost commit -q -m "linux-source-6.12"; then
	echo "series: could not make the fresh tree a git repository" >&2
	exit 1
fi

mkdir -p "$OBJ"
cat > "$OBJ/quic.config" <<'EOF'
CONFIG_MODULES=y
CONFIG_NET=y
CONFIG_INET=y
CONFIG_IPV6=y
CONFIG_KUNIT=y
CONFIG_IP_QUIC=m
CONFIG_IP_QUIC_KUNIT_TEST=m
CONFIG_IP_QUIC_DEBUG_INVARIANTS=y
CONFIG_IP_QUIC_SAMPLE=m
EOF
kmake() {
	make -s -C "$TREE" O="$OBJ" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" "$@"
}
kmake defconfig > /dev/null
configure() {
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$OBJ/quic.config" \
		> /dev/null
	kmake olddefconfig > /dev/null
}
configure
kmake prepare > "$BASE/prepare.log" 2>&1 || { tail -20 "$BASE/prepare.log"; exit 1; }
echo "# fresh tree ready in $(($(date +%s) - start)) s"

n=0
failed=0
for patch in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	name=$(basename "$patch")
	[ "${name#0000-}" = "$name" ] || continue
	n=$((n + 1))
	t0=$(date +%s)
	why=
	if ! git -c user.name=series -c user.email=series@localhost am -q "$patch" \
		> "$BASE/am.log" 2>&1; then
		why="git am: $(head -3 "$BASE/am.log" | tr '\n' ' ')"
		git am --abort > /dev/null 2>&1
	elif [ -f net/quic/Makefile ]; then
		configure
		if ! kmake KCFLAGS=-Werror net/quic/ > "$BASE/build.log" 2>&1; then
			why="build: $(grep -m3 -E 'error|Error' "$BASE/build.log" | tr '\n' ' ')"
		else
			# Defined in our objects so far, and left undefined by them.
			defined=$(for o in "$OBJ"/net/quic/quic.o "$OBJ"/net/quic/tests/quic_kunit.o \
					   "$OBJ"/net/quic/quic_sample.o; do
					[ -f "$o" ] && nm --defined-only "$o" | awk '{ print $3 }'
				  done | sort -u)
			missing=$(for o in "$OBJ"/net/quic/quic.o "$OBJ"/net/quic/tests/quic_kunit.o \
					   "$OBJ"/net/quic/quic_sample.o; do
					[ -f "$o" ] && nm -u "$o" | awk '{ print $2 }'
				  done | sort -u | grep -i quic |
				  comm -23 - <(echo "$defined") | head -5)
			[ -z "$missing" ] || why="undefined: $(echo "$missing" | tr '\n' ' ')"
		fi
	fi
	if [ -z "$why" ]; then
		echo "ok $n - $name ($(($(date +%s) - t0)) s)"
	else
		echo "not ok $n - $name"
		echo "#   $why"
		failed=$((failed + 1))
		break
	fi
done
echo "# $(ls "$OBJ"/net/quic/*.o 2>/dev/null | wc -l) objects in net/quic at the end;" \
     "$(($(date +%s) - start)) s in all"
echo "series: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
