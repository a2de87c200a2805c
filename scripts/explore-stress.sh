#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The long form of the KUnit suite quic_explore, run by make stress: 100
# times the seeds make check runs (16 per scenario), as RUNS kernel boots
# of SEEDS seeds per scenario each, every boot with its own base seed.
# KUnit stops a case after five minutes, so one boot cannot take them all.
#
#   scripts/explore-stress.sh [x86_64|arm64|um]
#   EXPLORE_RUNS=20 EXPLORE_SEEDS=80 scripts/explore-stress.sh um
#
# A failure prints its scenario and seed, and how to replay it alone.

set -e
cd "$(dirname "$0")/.."
arch=${1:-x86_64}
runs=${EXPLORE_RUNS:-20}
seeds=${EXPLORE_SEEDS:-80}
# The default base seed of the suite ("EXPLQUIC"), then the next ones.
base=4996832075279845699

i=0
while [ "$i" -lt "$runs" ]; do
	seed=$(printf '%#x' $((base + i)))
	echo "quic_explore: run $((i + 1)) of $runs, $seeds seeds per scenario, base $seed"
	./kunit.py run --arch="$arch" 'quic_explore' \
		--kernel_args="quic_kunit.explore_seeds=$seeds quic_kunit.explore_seed=$seed"
	i=$((i + 1))
done
