#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# check-symbols.sh LIB SOURCE...: the functions the sources mark QUIC_API
# are exactly the ones LIB exports, and each carries a LIBQUIC_ version.
lib=$1
shift
want=$(sed -n 's/^QUIC_API .*[ *]\(quic_[a-z0-9_]*\)(.*/\1/p' "$@" | sort)
have=$(objdump -T "$lib" | awk '$NF ~ /^quic_/ && $2 != "*UND*" { print $NF }' | sort)
versioned=$(objdump -T "$lib" | awk '$NF ~ /^quic_/ && $(NF-1) ~ /^LIBQUIC_/ { print $NF }' |
	sort)
if [ "$want" != "$have" ] || [ "$want" != "$versioned" ]; then
	echo "check-symbols: QUIC_API functions and $lib's versioned exports differ:" >&2
	printf 'marked QUIC_API:\n%s\nexported:\n%s\nversioned:\n%s\n' "$want" "$have" \
		"$versioned" >&2
	exit 1
fi
echo "check-symbols: $(echo "$want" | wc -l) functions exported, all versioned"
