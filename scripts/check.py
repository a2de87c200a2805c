#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every KUnit suite on x86_64 and arm64, the booted selftests
# (scripts/selftest.py) on both, in one kernel per arch (the KUnit suites
# load as quic_kunit.ko in the selftest kernel: scripts/selftest.py
# --kunit; ./kunit.py builds kernels of its own for a developer's runs and
# for make stress), interop with ngtcp2 on x86_64
# (scripts/interop.py), the booted selftests again on Debian's own x86_64
# kernel with quic.ko built out of tree, the userspace host tests, then the static checks (checkpatch
# --strict, W=1 + sparse, the layering check of scripts/layers.py, kernel-doc)
# on our sources. Ends with one line
# "check: N passed, N failed": KUnit and selftest cases counted from their
# KTAP results, each static check counted as one test.

import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.path.join(ROOT, '.build', 'linux')
SELFTEST = re.compile(r'^selftest-\S+: (\d+) passed, (\d+) failed', re.M)
HOST_RESULTS = re.compile(r'^(\d+) passed, (\d+) failed$', re.M)
INTEROP = re.compile(r'^interop: (\d+) passed, (\d+) failed', re.M)
DEB = re.compile(r'^deb: (\d+) passed, (\d+) failed', re.M)

passed = 0
failed = 0
report = []


def ours(patterns):
	files = []
	for p in patterns:
		files += sorted(glob.glob(os.path.join(ROOT, p), recursive=True))
	return [os.path.relpath(f, ROOT) for f in files]


def step(name, fn):
	global passed, failed
	start = time.monotonic()
	print(f'==> {name}', flush=True)
	p, f = fn()
	secs = time.monotonic() - start
	passed += p
	failed += f
	report.append(f'{name}: {p} passed, {f} failed ({secs:.0f} s)')
	print(f'<== {report[-1]}', flush=True)


def booted(cmd, summary):
	"""A booted run (@cmd) whose last @summary line has the passed and failed counts."""
	def run():
		proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
		sys.stdout.write(proc.stdout)
		m = None
		for m in summary.finditer(proc.stdout):
			pass
		if not m:
			# No results at all (build or boot failure): one failure.
			return 0, 1
		p = int(m.group(1))
		f = int(m.group(2))
		if proc.returncode and not f:
			f = 1
		return p, f
	return run


def selftest(arch, kernel='ours'):
	return booted([os.path.join(ROOT, 'scripts', 'selftest.py'), f'--arch={arch}',
		       f'--kernel={kernel}'], SELFTEST)


def kunit(arch):
	return booted([os.path.join(ROOT, 'scripts', 'selftest.py'), f'--arch={arch}', '--kunit'],
		      SELFTEST)


def interop(peer):
	return booted([os.path.join(ROOT, 'scripts', 'interop.py'), f'--peer={peer}'], INTEROP)


def checkpatch():
	files = ours(['net/quic/**/*.[ch]', 'include/linux/quic.h', 'include/uapi/linux/quic.h'])
	proc = subprocess.run(['scripts/checkpatch.pl', '--strict', '--no-tree', '--terse',
			       '--max-line-length=100', '--show-types', '-f'] + files,
			      cwd=TREE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	bad = [l for l in proc.stdout.splitlines() if re.search(r': (ERROR|WARNING|CHECK):', l)]
	for l in bad:
		print(l)
	return (0, 1) if bad else (1, 0)


def sparse_w1():
	proc = subprocess.run([os.path.join(ROOT, 'scripts', 'compile-one.sh')],
			      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	out = proc.stdout
	bad = [l for l in out.splitlines()
	       if 'net/quic/' in l and re.search(r'(warning|error):', l)]
	for l in bad:
		print(l)
	if proc.returncode:
		print(out[-4000:])
	return (0, 1) if bad or proc.returncode else (1, 0)


def host_tests(path):
	"""Userspace code at @path: build, then its host tests (plain, ASan, valgrind)."""
	def run():
		where = os.path.join(ROOT, path)
		proc = subprocess.run(['make', '-C', where, 'check'], stdout=subprocess.PIPE,
				      stderr=subprocess.STDOUT, text=True)
		sys.stdout.write(proc.stdout)
		subprocess.run(['make', '-C', where, 'clean'], stdout=subprocess.DEVNULL)
		runs = HOST_RESULTS.findall(proc.stdout)
		p = sum(int(r[0]) for r in runs)
		f = sum(int(r[1]) for r in runs)
		# Three runs are expected; a build failure or a crash reports fewer.
		if proc.returncode or len(runs) != 3:
			f = max(f, 1)
		return p, f
	return run


def layers():
	# Reads the objects the W=1 step just built (.build/check-x86_64).
	proc = subprocess.run([os.path.join(ROOT, 'scripts', 'layers.py')],
			      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	sys.stdout.write(proc.stdout)
	return (0, 1) if proc.returncode else (1, 0)


def kernel_doc():
	files = ours(['net/quic/**/*.[ch]', 'include/linux/quic.h', 'include/uapi/linux/quic.h'])
	proc = subprocess.run(['scripts/kernel-doc', '-none', '-Wall'] + files, cwd=TREE,
			      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	out = proc.stdout.strip()
	if out:
		print(out)
	return (0, 1) if out or proc.returncode else (1, 0)


def main():
	subprocess.run([os.path.join(ROOT, 'scripts', 'deps.sh')], check=True)
	subprocess.run([os.path.join(ROOT, 'scripts', 'prepare-tree.sh')], check=True)
	arches = os.environ.get('CHECK_ARCHES', 'x86_64 arm64').split()
	for arch in arches:
		step(f'kunit {arch}', kunit(arch))
	# CHECK_SELFTEST=0 skips the booted layer in a quick local run; CI
	# always runs it.
	if os.environ.get('CHECK_SELFTEST', '1') != '0':
		for arch in arches:
			step(f'selftest {arch}', selftest(arch))
		if 'x86_64' in arches:
			step('interop ngtcp2 x86_64', interop('ngtcp2'))
		# Debian's own kernel with quic.ko built against its headers: the
		# module is built natively, so on a host of that arch only.
		if 'x86_64' in arches and os.uname().machine == 'x86_64':
			step('selftest x86_64 on Debian\'s kernel', selftest('x86_64', 'debian'))
		# The Debian packages: lintian, DKMS, a fresh Debian 12 root.
		step('Debian packages', booted([os.path.join(ROOT, 'scripts', 'deb-test.sh')], DEB))
	step('libquic host tests', host_tests('tools/lib/quic'))
	step('quic tools host tests', host_tests('tools/quic'))
	step('checkpatch --strict', checkpatch)
	step('W=1 C=2 (sparse) net/quic', sparse_w1)
	step('layers of net/quic', layers)
	step('kernel-doc -Wall', kernel_doc)
	print('\n'.join(report))
	print(f'check: {passed} passed, {failed} failed')
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
