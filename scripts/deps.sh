#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the QUIC build and test harness needs.
# Only packages that are missing are installed, so a prepared machine
# pays one dpkg query per package and nothing else.

set -euo pipefail

PKGS=(
	linux-source-6.12
	build-essential gcc make flex bison bc cpio kmod rsync xz-utils
	libelf-dev libssl-dev dwarves python3 perl
	ccache sparse
	qemu-system-x86 qemu-system-arm
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	libgnutls28-dev gnutls-bin pkg-config valgrind libnghttp3-dev groff-base
	libnl-3-dev libnl-genl-3-dev libkeyutils-dev
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
