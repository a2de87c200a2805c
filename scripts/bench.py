#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# `make bench ARCH=x86_64|arm64`: the throughput benchmark (the guest
# program tools/testing/selftests/net/quic/perf) in a kernel built without
# the sanitizers and lock debugging of the selftest kernel, so that the
# figures measure QUIC, TCP and kTLS rather than KASAN.
#
# 1. builds that kernel in .build/bench-<arch> from the selftest
#    fragments "config" + "config.bench" + "config.bench.<arch>";
# 2. puts perf (with libquic and GnuTLS), its credentials and a wrapper
#    holding the chosen options in an initramfs;
# 3. boots it in QEMU (TCG, like every booted test here) and collects the
#    "# bench ..." lines perf prints into a table, saved with the raw
#    output under .build/bench-<arch>/run/.
#
# Figures from emulation mean little in absolute terms; the ratios of one
# run (QUIC/kTLS, QUIC without 1-RTT encryption/TCP) are what to compare.
# The benchmark never fails on a number: the exit status only says whether
# every row ran and carried the right data.

import argparse
import fcntl
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selftest as st  # noqa: E402


def log(msg):
	print(msg, flush=True)


BENCH_LINE = re.compile(r'^\s*# bench (\S+) (\S+) (\S+) (.*)$')


def parse_bench(text):
	"""Rows of "# bench <kind> <size> <metric> key=value..." lines."""
	rows = []
	for line in text.splitlines():
		m = BENCH_LINE.match(line)
		if not m:
			continue
		kv = dict(f.split('=', 1) for f in m.group(4).split() if '=' in f)
		rows.append((m.group(1), m.group(2), m.group(3), kv))
	return rows


def main():
	ap = argparse.ArgumentParser(description='QUIC throughput against TCP and kTLS in one guest.')
	ap.add_argument('--arch', default='x86_64', choices=sorted(st.ARCHES))
	ap.add_argument('--quick', action='store_true',
			help='one repeat, 1 s per run, 1 KiB and 64 KiB only (a smoke run)')
	ap.add_argument('--perf-args', default='',
			help='more options for perf (see perf --help), e.g. "--mtu-all --repeat 3"')
	ap.add_argument('--timeout', type=int, default=5400, help='limit for the boot, seconds')
	ap.add_argument('-v', '--verbose', action='store_true')
	args = ap.parse_args()
	st.VERBOSE = args.verbose
	arch, cfg = args.arch, st.ARCHES[args.arch]
	obj = os.path.join(st.BUILD, 'bench-' + arch)

	subprocess.run([os.path.join(st.ROOT, 'scripts', 'deps.sh')], check=True)
	st.apt_install(cfg['packages'])
	start = time.monotonic()
	os.makedirs(st.BUILD, exist_ok=True)
	with open(os.path.join(st.BUILD, f'kunit-{arch}.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		st.run([os.path.join(st.ROOT, 'scripts', 'prepare-tree.sh')])
		modroot = st.build_kernel(arch, cfg, obj,
					  ['config', 'config.bench', 'config.bench.' + arch])

	perf_args = (['--quick'] if args.quick else []) + shlex.split(args.perf_args)

	def extra(root, sysroots):
		# /init runs /tests/<name> without arguments: a wrapper adds them.
		tests = os.path.join(root, 'tests')
		os.rename(os.path.join(tests, 'perf'), os.path.join(tests, 'perf.bin'))
		with open(os.path.join(tests, 'perf'), 'w') as f:
			f.write('#!/bin/sh\nexec /tests/perf.bin ' +
				' '.join(shlex.quote(a) for a in perf_args) + '\n')
		os.chmod(os.path.join(tests, 'perf'), 0o755)

	names = ['perf']
	image = st.build_image(arch, cfg, obj, modroot, names, extra=extra, name='bench')
	args.hostfwd, args.pcap = [], ''
	args.test_timeout = args.timeout - 120
	rundir = os.path.join(obj, 'run')
	results, secs = st.boot(arch, cfg, obj, image, args, names, rundir=rundir)
	for t in results:
		st.report(t)

	text = open(os.path.join(rundir, 'ktap.log'), errors='replace').read()
	rows = parse_bench(text)
	log(f'bench: {arch}, QEMU TCG, perf {" ".join(perf_args) or "(defaults)"}; '
	    f'{time.monotonic() - start:.0f} s in all, {secs:.0f} s booted')
	log(f'bench: {"kind":<16}{"size":>6}  {"metric":<10}{"median":>12}{"min":>12}{"max":>12}  unit')
	for kind, size, metric, kv in rows:
		log(f'bench: {kind:<16}{size:>6}  {metric:<10}{kv.get("median", "?"):>12}'
		    f'{kv.get("min", ""):>12}{kv.get("max", ""):>12}  {kv.get("unit", "")}')
	with open(os.path.join(rundir, 'bench.txt'), 'w') as f:
		for kind, size, metric, kv in rows:
			f.write(f'{kind} {size} {metric} ' +
				' '.join(f'{k}={v}' for k, v in kv.items()) + '\n')
	p = fl = 0
	for t in results:
		tp, tf, _ = t.count()
		p, fl = p + tp, fl + tf
	log(f'bench-{arch}: {p} passed, {fl} failed ({len(rows)} figures)')
	return 1 if fl or not rows else 0


if __name__ == '__main__':
	try:
		sys.exit(main())
	except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
		print(f'bench: {e}', file=sys.stderr)
		sys.exit(1)
