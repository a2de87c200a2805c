#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Entry point for building and running the QUIC KUnit suites.
#
#   ./kunit.py run --arch=x86_64 [kunit.py options...]
#
# It installs missing packages, prepares the kernel tree under .build/ and
# then hands over to the tree's tools/testing/kunit/kunit.py with the
# arguments that select our configuration, build directory and compiler.
# Every other argument is passed through unchanged.

import fcntl
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(ROOT, '.build')
TREE = os.path.join(BUILD, 'linux')

ARCHES = {
	'x86_64': {'kunitconfig': 'kunitconfig', 'cross': None},
	'arm64': {'kunitconfig': '.kunitconfig.arm64', 'cross': 'aarch64-linux-gnu-'},
	'um': {'kunitconfig': '.kunitconfig.um', 'cross': None},
}
SUBCOMMANDS = ('run', 'build', 'config', 'exec', 'parse')

# UML's PCI stub warns at every boot, whatever is tested.
KNOWN_BENIGN = re.compile(r'arch/um/drivers/virt-pci\.c')

# Kernel reports that fail a run even when every test case passed.
KERNEL_REPORTS = re.compile(r'BUG:|WARNING:|KASAN:|UBSAN:|Oops|Kernel panic|'
			    r'possible (circular|recursive) locking|inconsistent lock state|'
			    r'sleeping function called from invalid context|kmemleak:|'
			    r'refcount_t:|list_(add|del) corruption')


def usage() -> None:
	print('usage: ./kunit.py [run|build|config|exec|parse] [--arch=x86_64|arm64|um] '
	      '[kunit.py options]\n'
	      'Options not listed here go to tools/testing/kunit/kunit.py unchanged.',
	      file=sys.stderr)


def split_args(argv):
	"""Pick out the subcommand and --arch; keep everything else in order."""
	sub = 'run'
	arch = 'x86_64'
	rest = []
	i = 0
	if argv and argv[0] in SUBCOMMANDS:
		sub = argv[0]
		i = 1
	while i < len(argv):
		a = argv[i]
		if a.startswith('--arch='):
			arch = a.split('=', 1)[1]
		elif a == '--arch' and i + 1 < len(argv):
			arch = argv[i + 1]
			i += 1
		else:
			rest.append(a)
		i += 1
	return sub, arch, rest


def filter_glob_positional(args):
	"""The tree's kunit.py takes the filter glob as a positional argument;
	accept --filter_glob=GLOB and --filter_glob GLOB as well."""
	out = []
	i = 0
	while i < len(args):
		a = args[i]
		if a.startswith('--filter_glob='):
			out.append(a.split('=', 1)[1])
		elif a == '--filter_glob' and i + 1 < len(args):
			out.append(args[i + 1])
			i += 1
		else:
			out.append(a)
		i += 1
	return out


def has_opt(args, name):
	return any(a == name or a.startswith(name + '=') for a in args)


def main(argv) -> int:
	if argv and argv[0] in ('-h', '--help', 'help'):
		usage()
		return 0
	sub, arch, rest = split_args(argv)
	rest = filter_glob_positional(rest)
	if arch not in ARCHES:
		print(f'kunit.py: unsupported arch {arch!r} (supported: {", ".join(ARCHES)})',
		      file=sys.stderr)
		return 2
	cfg = ARCHES[arch]

	if sub != 'parse':
		subprocess.run([os.path.join(ROOT, 'scripts', 'deps.sh')], check=True)

	os.makedirs(BUILD, exist_ok=True)
	# One build per arch at a time, whoever starts it (2 cores here).
	lock = open(os.path.join(BUILD, f'kunit-{arch}.lock'), 'w')
	if sub != 'parse':
		fcntl.flock(lock, fcntl.LOCK_EX)
		subprocess.run([os.path.join(ROOT, 'scripts', 'prepare-tree.sh')], check=True)

	cmd = [sys.executable, os.path.join(TREE, 'tools', 'testing', 'kunit', 'kunit.py'), sub]
	if sub != 'parse':
		cmd.append(f'--arch={arch}')
		if not has_opt(rest, '--kunitconfig'):
			cmd.append('--kunitconfig=' + os.path.join(ROOT, cfg['kunitconfig']))
		if not has_opt(rest, '--build_dir'):
			cmd.append('--build_dir=' + os.path.join(BUILD, 'kunit-' + arch))
		if cfg['cross'] and not has_opt(rest, '--cross_compile'):
			cmd.append('--cross_compile=' + cfg['cross'])
		if sub in ('run', 'build'):
			if not has_opt(rest, '--jobs'):
				cmd.append('--jobs=2')
			if not has_opt(rest, '--make_options'):
				cmd.append('--make_options=CC=ccache ' + (cfg['cross'] or '') + 'gcc')
		if sub in ('run', 'exec') and arch != 'um' and not has_opt(rest, '--timeout'):
			# Software emulation with KASAN is slow; kunit.py's default is 300 s.
			cmd.append('--timeout=1500')
	cmd += rest

	env = dict(os.environ)
	# Cache hits across clones of the repository (CI uses a fresh one).
	env.setdefault('CCACHE_BASEDIR', ROOT)
	env.setdefault('CCACHE_NOHASHDIR', '1')
	env.setdefault('CCACHE_MAXSIZE', '20G')
	proc = subprocess.run(cmd, cwd=TREE, env=env)
	if sub in ('run', 'exec') and not has_opt(rest, '--build_dir'):
		if kernel_reports(os.path.join(BUILD, 'kunit-' + arch, 'test.log')):
			return proc.returncode or 1
	return proc.returncode


def kernel_reports(log_path) -> bool:
	"""Print sanitizer, lockdep and WARN reports found in the console log."""
	try:
		with open(log_path, errors='replace') as f:
			hits = [line.rstrip() for line in f
				if KERNEL_REPORTS.search(line) and not KNOWN_BENIGN.search(line)]
	except OSError:
		return False
	for line in hits[:40]:
		print('kernel report: ' + line, file=sys.stderr)
	return bool(hits)


if __name__ == '__main__':
	try:
		sys.exit(main(sys.argv[1:]))
	except subprocess.CalledProcessError as e:
		print(f'kunit.py: {" ".join(e.cmd)} failed with status {e.returncode}',
		      file=sys.stderr)
		sys.exit(1)
