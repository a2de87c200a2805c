# SPDX-License-Identifier: GPL-2.0
#
# Top-level targets of the QUIC repository. The kernel tree and every build
# directory live under .build/ (see scripts/prepare-tree.sh).

.PHONY: all check kunit kunit-arm64 kunit-um selftest stress interop bench static prepare help \
	module deb deb-check series series-check

# make selftest ARCH=x86_64|arm64 [T=test1,test2]
# make stress ARCH=x86_64|arm64 [T=test1,test2]   (T defaults to netem)
ARCH ?= x86_64
T ?=
# make selftest KERNEL=debian: Debian's own 6.12 kernel with quic.ko built
# out of tree (scripts/debian_kernel.py); KERNEL=ours: the test kernel.
KERNEL ?= ours
# make module [KDIR=/lib/modules/<release>/build]: default, the newest
# linux-headers-6.12.*+deb12-<arch> installed (scripts/module.sh).
KDIR ?=
# The concurrent booted tests that make stress also runs under KCSAN (x86_64).
KCSAN_TESTS ?= conn,misuse,many,kconsumer,sysfuzz
# make bench ARCH=x86_64|arm64|um [BENCH_ARGS="--quick" or "--perf-args='--mtu-all'"]
BENCH_ARGS ?=
# make interop PEER=name: a file of tools/testing/selftests/net/quic/interop/peers
PEER ?= ngtcp2

all: help

help:
	@echo "make check        KUnit + selftests on x86_64 and arm64 + static checks"
	@echo "make kunit        KUnit suites on x86_64 (KASAN, UBSAN, lockdep)"
	@echo "make kunit-arm64  KUnit suites on arm64"
	@echo "make kunit-um     KUnit suites on User-mode Linux (native speed)"
	@echo "make selftest     booted tests in QEMU (ARCH=x86_64|arm64; T=name,... runs only those;"
	@echo "                  KERNEL=debian boots Debian's own 6.12 kernel with the module below)"
	@echo "make module       quic.ko out of tree against a distribution kernel's headers"
	@echo "                  (KDIR=, default the newest Debian 6.12 headers installed)"
	@echo "make deb          Debian packages quic-dkms, libquic2, libquic-dev, quic-tools"
	@echo "                  in .build/deb/ (dpkg-buildpackage, scripts/debian/)"
	@echo "make deb-check    make deb, then lintian, a DKMS build, and the packages"
	@echo "                  installed and used in a fresh Debian 12 root"
	@echo "make series       the tree as a patch series against linux-source-6.12, with a"
	@echo "                  cover letter, in .build/series/patches (scripts/series.py)"
	@echo "make series-check make series, checkpatch --strict on each patch, then git am"
	@echo "                  onto a fresh tree with a build after every patch"
	@echo "make stress       long booted tests: netem's full matrix of bad networks (ARCH=, T=),"
	@echo "                  sysfuzz for 55 minutes,"
	@echo "                  then quic_explore with 100 times the seeds (scripts/explore-stress.sh),"
	@echo "                  every KUnit suite with QUIC built in (./kunit.py),"
	@echo "                  and quic_rx_fuzz with 200,000 inputs, quic_hostile with 100,000 packets,"
	@echo "                  then the concurrent tests on an x86_64 KCSAN kernel (KCSAN_TESTS=),"
	@echo "                  then every booted test on Debian's arm64 kernel"
	@echo "make interop      our kernel (QEMU) against another QUIC stack on the host (PEER=ngtcp2)"
	@echo "make bench        throughput of QUIC, TCP, kTLS and ngtcp2 in one guest, no debug kernel"
	@echo "                  (ARCH=x86_64|arm64|um, BENCH_ARGS=)"
	@echo "make static       checkpatch, W=1 + sparse, layers, kernel-doc and the host tests"
	@echo "make prepare      install packages and prepare .build/linux"

prepare:
	./scripts/deps.sh
	./scripts/prepare-tree.sh

check:
	./scripts/check.py

kunit:
	./kunit.py run --arch=x86_64

kunit-arm64:
	./kunit.py run --arch=arm64

kunit-um:
	./kunit.py run --arch=um

selftest:
	./scripts/selftest.py --arch=$(ARCH) --kernel=$(KERNEL) $(if $(T),--tests=$(T))

deb:
	./scripts/deb.sh

deb-check:
	./scripts/deb-test.sh

series:
	./scripts/series.py

series-check:
	./scripts/series.py --check

module:
	./scripts/module.sh $(if $(filter command line environment,$(origin ARCH)),--arch=$(ARCH)) \
		$(if $(KDIR),--kdir=$(KDIR))

stress:
	./scripts/selftest.py --arch=$(ARCH) --stress --tests=$(if $(T),$(T),netem)
	$(if $(T),,./scripts/selftest.py --arch=$(ARCH) --stress --tests=sysfuzz)
	./scripts/explore-stress.sh $(ARCH)
	./kunit.py run --arch=$(ARCH)
	./kunit.py run --arch=$(ARCH) 'quic_rx_fuzz' \
		--kernel_args='quic_kunit.rx_fuzz_inputs=200000 quic_kunit.rx_fuzz_seed=0x53545245'
	./kunit.py run --arch=$(ARCH) 'quic_hostile' --kernel_args='quic_kunit.hostile_packets=100000'
	./scripts/selftest.py --arch=x86_64 --kcsan --tests=$(KCSAN_TESTS)
	./scripts/selftest.py --arch=arm64 --kernel=debian

bench:
	./scripts/bench.py --arch=$(ARCH) $(BENCH_ARGS)

interop:
	./scripts/interop.py --peer=$(PEER) --arch=$(ARCH)

static:
	CHECK_ARCHES= ./scripts/check.py
