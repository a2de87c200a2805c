#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages quic-dkms, libquic2, libquic-dev and
# quic-tools, built with dpkg-buildpackage from a copy of the tree's
# tracked files (uncommitted edits included) with scripts/debian/ as its
# debian/ directory. The packages end up in .build/deb/.
#
#   scripts/deb.sh [--out=DIR]
#
# Version: 0~git<commit date>.<commit> (a native package); "0~unknown"
# outside a git checkout.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/.build/deb
for arg in "$@"; do
	case "$arg" in
	--out=*) OUT=${arg#*=} ;;
	*) echo "deb: unknown argument $arg" >&2; exit 2 ;;
	esac
done

need=
for pkg in dpkg-dev debhelper dh-dkms fakeroot libgnutls28-dev libkeyutils-dev \
	   libnghttp3-dev libnl-3-dev libnl-genl-3-dev pkgconf; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
		need="$need $pkg"
done
if [ -n "$need" ]; then
	echo "deb: installing$need"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need \
		>/dev/null
fi

cd "$ROOT"
if git rev-parse --git-dir >/dev/null 2>&1; then
	version="0~git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git log -1 --format=%h)"
	date=$(git log -1 --format=%aD)
else
	version="0~unknown"
	date=$(date -R)
fi

src="$OUT/quic-$version"
rm -rf "$OUT"
mkdir -p "$src"
git ls-files -z | grep -zv '^scripts/debian/' | xargs -0 cp --parents -t "$src"
cp -a scripts/debian "$src/debian"
maint=$(sed -n 's/^Maintainer: //p' scripts/debian/control)
cat > "$src/debian/changelog" <<EOT
quic ($version) unstable; urgency=medium

  * Built from the tree by make deb.

 -- $maint  $date
EOT

echo "deb: dpkg-buildpackage for quic $version in $src"
if ! (cd "$src" && dpkg-buildpackage -b -us -uc -j"$(nproc)") > "$OUT/build.log" 2>&1; then
	tail -40 "$OUT/build.log" >&2
	exit 1
fi
ls "$OUT"/*.deb
