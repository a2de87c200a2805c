#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# `make selftest ARCH=x86_64|arm64 [T=name,...]`: the booted functional tests.
# `make stress ARCH=...`: the same with --stress (netem's full matrix).
#
#   scripts/selftest.py --arch=x86_64 [-t sockopt,snmp] [-v] [--stress]
#                       [--timeout=S] [--hostfwd=udp::4433-:4433] [--pcap=FILE]
#
# 1. installs what is missing (apt-get), checks include/uapi/linux/quic.h
#    compiles standalone as C and C++ (a host-side test);
# 2. under the per-arch kernel build lock of ./kunit.py, configures
#    .build/selftest-<arch> from tools/testing/selftests/net/quic/config
#    (+ config.<arch>), verifies every option survived olddefconfig, builds
#    the kernel and modules incrementally and installs the modules (depmod);
# 3. builds the test programs with the arch's compiler (a cross build links
#    handshake against the target's GnuTLS, unpacked from Debian packages)
#    and an initramfs: busybox from Debian's busybox-static (apt-get
#    download + dpkg -x), the modules, the programs (dynamic ones with their
#    loader and libraries) and, for handshake, fresh test credentials made
#    with certtool in /tests/certs (for callers, the CA also in
#    /etc/ssl/certs/ca-certificates.crt, the system trust store); for netem and sysfuzz, tc (iproute2) in /sbin; for kconsumer, tools/quic's
#    quic-server, quic-client and quic-handshaked in /tests;
# 4. boots it in QEMU (TCG) with user networking; /init runs the programs and
#    writes KTAP to a virtio console, the kernel log goes to the serial one;
#    the guest NIC is recorded to run/eth0.pcap (or --pcap), and when the
#    hostnet test runs, a UDP peer on the host's loopback serves it both
#    ways (guest -> 10.0.2.2 and host -> forwarded port -> guest);
# 5. parses the KTAP, scans the kernel log for WARN/BUG/KASAN/UBSAN/lockdep
#    reports, prints the results and "selftest-<arch>: N passed, N failed".
#
# --kunit boots the same kernel with scripts/selftest/kunit as the only
# test: it loads quic_kunit.ko (CONFIG_IP_QUIC_KUNIT_TEST=m), whose suites
# run as it loads, and prints each suite's KTAP from debugfs. make check
# runs the KUnit suites this way: one kernel per arch for both layers.
# Exit status 0 only when every test passed.

import argparse
import fcntl
import glob
import os
import re
import select
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time

import debian_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, '.build')
TREE = os.path.join(BUILD, 'linux')
TESTS = os.path.join(ROOT, 'tools', 'testing', 'selftests', 'net', 'quic')
CACHE = os.path.join(BUILD, 'selftest-cache')
INIT = os.path.join(ROOT, 'scripts', 'selftest', 'init')

# A kernel fault or lockup in the console, and how long a run may then go
# without output before it is stopped (boot()).
OOPS_RE = re.compile(r'Oops: |Kernel panic|BUG: soft lockup')
OOPS_GRACE = 300
KUNIT = os.path.join(ROOT, 'scripts', 'selftest', 'kunit')
GENCERTS = os.path.join(ROOT, 'tools', 'lib', 'quic', 'tests', 'gencerts.sh')

# The handshake test links GnuTLS dynamically. A native build takes the
# host's (libgnutls28-dev); a cross build links against the target arch's
# libraries, unpacked from these Debian packages (libgnutls28-dev for the
# libgnutls.so link, the others are what libgnutls30 needs at run time).
GNUTLS_DEBS = ['libgnutls30', 'libgnutls28-dev', 'libgmp10', 'libhogweed6', 'libidn2-0',
	       'libnettle8', 'libp11-kit0', 'libtasn1-6', 'libunistring2', 'libffi8']
# The netem test drives the qdisc with tc: a native image gets the host's
# /sbin/tc (package iproute2), another arch Debian's iproute2 of that arch
# and the packages of the libraries tc needs (readelf -d: libbpf, libelf,
# libmnl, libbsd, libcap, libxtables, and libz and libmd below them).
TC_DEBS = ['iproute2', 'libbpf1', 'libelf1', 'libmnl0', 'libbsd0', 'libmd0', 'libcap2',
	   'libxtables12', 'zlib1g']
# The kconsumer test runs tools/quic's quic-server, quic-client and
# quic-handshaked in the guest: for another arch, the packages of the
# libraries they link beyond GnuTLS (nghttp3, libnl, libkeyutils).
TOOLS_DEBS = ['libnghttp3-3', 'libnghttp3-dev', 'libnl-3-200', 'libnl-3-dev',
	      'libnl-genl-3-200', 'libnl-genl-3-dev', 'libkeyutils1', 'libkeyutils-dev']
TOOLS = os.path.join(ROOT, 'tools', 'quic')
TOOL_PROGS = ('quic-server', 'quic-client', 'quic-handshaked')
# --stress: the guest's quic_stress=1 (netem runs every impairment with
# both controllers) and at least this long per program, seconds.
STRESS_TEST_TIMEOUT = 3600

# What the handshake test finds in /tests/certs (tools/lib/quic/tests/gencerts.sh).
CERT_FILES = ('ca.pem', 'other-ca.pem', 'server.pem', 'server.key', 'psk-alice.txt',
	      'psk-mallory.txt')

# The host tests, run before the boot; every other name is a guest program.
HOST_TESTS = ('uapi_header',)

ARCHES = {
	'x86_64': {
		'cross': '',
		'deb_arch': 'amd64',
		'multiarch': 'x86_64-linux-gnu',
		'image': 'arch/x86/boot/bzImage',
		'target': 'bzImage',
		'qemu': 'qemu-system-x86_64',
		'machine': ['-M', 'pc', '-bios', 'qboot.rom'],
		'console': 'ttyS0',
		# The virtio devices use MSI-X: routing their legacy interrupts through
		# ACPI costs about 8 s per device under TCG and buys nothing.
		'append': ['acpi=noirq'],
		'virtio': 'pci',
		'packages': ['libc6-dev', 'g++', 'qemu-system-x86', 'libgnutls28-dev',
			     'pkg-config', 'gnutls-bin', 'libnghttp3-dev', 'libnl-3-dev',
			     'libnl-genl-3-dev', 'libkeyutils-dev'],
		'target_debs': [],
		'tc_debs': [],
		# KASAN, lockdep and kmemleak under TCG: slow, but well below this.
		'timeout': 1200,
	},
	'arm64': {
		'cross': 'aarch64-linux-gnu-',
		'deb_arch': 'arm64',
		'multiarch': 'aarch64-linux-gnu',
		'image': 'arch/arm64/boot/Image',
		'target': 'Image',
		'qemu': 'qemu-system-aarch64',
		# pauth-impdef: QEMU's own pointer-authentication hash, much faster under TCG.
		'machine': ['-M', 'virt', '-cpu', 'max,pauth-impdef=on'],
		'console': 'ttyAMA0',
		'append': [],
		'virtio': 'device',
		'packages': ['libc6-dev-arm64-cross', 'gcc-aarch64-linux-gnu', 'g++',
			     'qemu-system-arm', 'gnutls-bin'],
		'target_debs': GNUTLS_DEBS,
		'tc_debs': TC_DEBS,
		'timeout': 1200,
	},
}

# Kernel log lines that fail the run wherever they appear.
BAD_LOG = re.compile(
	r'\bWARNING:|\bBUG:|\bOops\b|KASAN:|UBSAN:|[Cc]all [Tt]race:|Kernel panic'
	r'|sleeping function called from invalid context|general protection fault'
	r'|Unable to handle kernel|INFO: task .* blocked|rcu: INFO:'
	r'|INFO: trying to register non-static key|turning off the locking correctness'
	r'|refcount_t: |list_(?:add|del) corruption|cut here|inconsistent lock state'
	r'|possible (?:circular|recursive) locking')

VERBOSE = False


def log(msg):
	print(msg, flush=True)


def run(cmd, **kw):
	"""Run a command; raise with its output shown when it fails."""
	kw.setdefault('stdout', subprocess.PIPE)
	kw.setdefault('stderr', subprocess.STDOUT)
	kw.setdefault('text', True)
	proc = subprocess.run(cmd, **kw)
	if proc.returncode:
		out = proc.stdout or ''
		raise RuntimeError(f'{" ".join(cmd)} failed ({proc.returncode}):\n{out[-6000:]}')
	return proc.stdout


# ---------------------------------------------------------------- packages

def installed(pkg):
	proc = subprocess.run(['dpkg-query', '-W', '-f=${Status}', pkg],
			      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
	return 'install ok installed' in proc.stdout


def apt_install(pkgs):
	missing = [p for p in pkgs if not installed(p)]
	if not missing:
		return
	log(f'selftest: installing {" ".join(missing)}')
	env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
	run(['apt-get', 'update', '-qq'], env=env)
	run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends'] + missing, env=env)


def ensure_foreign_arch(deb_arch):
	native = run(['dpkg', '--print-architecture']).strip()
	if deb_arch == native:
		return
	foreign = run(['dpkg', '--print-foreign-architectures']).split()
	if deb_arch not in foreign:
		log(f'selftest: dpkg --add-architecture {deb_arch}')
		run(['dpkg', '--add-architecture', deb_arch])
		run(['apt-get', 'update', '-qq'])


def fetch_debs(deb_arch, pkgs, sysroot):
	"""Unpack Debian packages of @deb_arch into @sysroot without installing them.

	The .deb files are fetched once with `apt-get download` into the cache;
	later runs reuse them. Returns @sysroot.
	"""
	ensure_foreign_arch(deb_arch)
	debdir = os.path.join(CACHE, 'debs', deb_arch)
	os.makedirs(debdir, exist_ok=True)
	os.makedirs(sysroot, exist_ok=True)
	for pkg in pkgs:
		debs = glob.glob(os.path.join(debdir, f'{pkg}_*_{deb_arch}.deb'))
		if not debs:
			name = f'{pkg}:{deb_arch}'
			proc = subprocess.run(['apt-get', 'download', '-q', name], cwd=debdir,
					      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
					      text=True)
			if proc.returncode:
				# Stale package lists: refresh once and retry.
				run(['apt-get', 'update', '-qq'])
				run(['apt-get', 'download', '-q', name], cwd=debdir)
			debs = glob.glob(os.path.join(debdir, f'{pkg}_*_{deb_arch}.deb'))
		deb = sorted(debs)[-1]
		stamp = os.path.join(sysroot, '.unpacked-' + pkg)
		if not os.path.exists(stamp) or open(stamp).read() != os.path.basename(deb):
			run(['dpkg', '-x', deb, sysroot])
			with open(stamp, 'w') as f:
				f.write(os.path.basename(deb))
	return sysroot


# ---------------------------------------------------------------- host test

def uapi_header_test(cfg):
	"""The uapi header compiles in userspace: C (target compiler) and C++, alone and
	with the C library's headers in either order (uapi_header.c lists the cases)."""
	src = os.path.join(TESTS, 'uapi_header.c')
	libc = ['-I', os.path.join(TESTS, 'uapi_libc')]
	flags = ['-Wall', '-Wextra', '-Werror', '-I', os.path.join(ROOT, 'include', 'uapi'),
		 '-fsyntax-only']
	orders = (('standalone', []),
		  ('after <netinet/in.h>', ['-DUAPI_IN_FIRST']),
		  ('before <netinet/in.h>', ['-DUAPI_IN_AFTER']),
		  ('after <linux/in.h>', ['-DUAPI_LINUX_IN']),
		  ('after <linux/sctp.h>', ['-DUAPI_SCTP_FIRST']),
		  ('before <linux/sctp.h>', ['-DUAPI_SCTP_AFTER']),
		  ('after a libc <netinet/in.h> with IPPROTO_QUIC', libc + ['-DUAPI_IN_FIRST']),
		  ('before a libc <netinet/in.h> with IPPROTO_QUIC', libc + ['-DUAPI_IN_AFTER']))
	cases = []
	for order, defs in orders:
		for name, cmd in (('C (' + cfg['cross'] + 'gcc)', [cfg['cross'] + 'gcc', '-x', 'c']),
				  ('C99', [cfg['cross'] + 'gcc', '-x', 'c', '-std=c99']),
				  ('C++ (g++)', ['g++', '-x', 'c++']),
				  ('C++11', ['g++', '-x', 'c++', '-std=c++11'])):
			# -I dirs are searched in order: the libc stand-in before ours.
			proc = subprocess.run(cmd + defs + flags + [src], stdout=subprocess.PIPE,
					      stderr=subprocess.STDOUT, text=True)
			cases.append(Test(f'linux/quic.h compiles {order} as {name}',
					  ok=proc.returncode == 0,
					  diag=proc.stdout.splitlines()[-20:]))
	return Test('uapi_header', ok=all(c.ok for c in cases), children=cases, plan=len(cases))


# ---------------------------------------------------------------- kernel

def parse_fragment(text):
	"""CONFIG_X=v and '# CONFIG_X is not set' lines -> {name: value or None}."""
	opts = {}
	for line in text.splitlines():
		m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
		if m:
			opts[m.group(1)] = m.group(2)
			continue
		m = re.match(r'^# (CONFIG_\w+) is not set$', line.strip())
		if m:
			opts[m.group(1)] = None
	return opts


def config_missing(dotconfig, opts):
	have = parse_fragment(open(dotconfig).read()) if os.path.exists(dotconfig) else {}
	missing = []
	for name, want in opts.items():
		got = have.get(name)
		if got != want and not (want is None and name not in have):
			missing.append(f'{name}={want if want is not None else "n"} (got {got or "n"})')
	return missing


def kmake(arch, cfg, obj, *targets, quiet=True):
	cross = cfg['cross']
	cmd = ['make', '-C', TREE, f'O={obj}', f'ARCH={arch}', f'CC=ccache {cross}gcc', '-j2']
	if cross:
		cmd.append(f'CROSS_COMPILE={cross}')
	if quiet:
		cmd.append('-s')
	env = dict(os.environ)
	env.setdefault('CCACHE_BASEDIR', ROOT)
	env.setdefault('CCACHE_NOHASHDIR', '1')
	env.setdefault('CCACHE_MAXSIZE', '20G')
	return run(cmd + list(targets), env=env)


def build_kernel(arch, cfg, obj, fragments=None):
	"""Configure and build the kernel and modules; returns the module tree.

	@fragments: the configuration fragments (file names in the selftest
	directory) merged in order; default "config" and "config.<arch>".
	"""
	# A re-extracted source tree makes the old objects stale.
	tree_stamp = os.path.join(TREE, '.quic-source-stamp')
	obj_stamp = os.path.join(obj, '.quic-source-stamp')
	src = open(tree_stamp).read() if os.path.exists(tree_stamp) else ''
	if os.path.exists(obj_stamp) and open(obj_stamp).read() != src:
		log(f'selftest: kernel source changed, rebuilding {obj} from scratch')
		shutil.rmtree(obj)
	os.makedirs(obj, exist_ok=True)
	with open(obj_stamp, 'w') as f:
		f.write(src)

	fragment = ''
	for name in fragments or ('config', 'config.' + arch):
		path = os.path.join(TESTS, name)
		if os.path.exists(path):
			fragment += open(path).read()
	opts = parse_fragment(fragment)
	dotconfig = os.path.join(obj, '.config')
	saved = os.path.join(obj, '.selftest-fragment')
	same = os.path.exists(saved) and open(saved).read() == fragment
	if not same or config_missing(dotconfig, opts):
		log(f'selftest: configuring {os.path.relpath(obj, ROOT)}')
		with open(dotconfig, 'w') as f:
			f.write(fragment)
		kmake(arch, cfg, obj, 'olddefconfig')
		missing = config_missing(dotconfig, opts)
		if missing:
			raise RuntimeError('options lost by olddefconfig (missing dependency?):\n  ' +
					   '\n  '.join(missing))
		with open(saved, 'w') as f:
			f.write(fragment)

	start = time.monotonic()
	log(f'selftest: building {cfg["target"]} and modules in {os.path.relpath(obj, ROOT)}')
	kmake(arch, cfg, obj, cfg['target'], 'modules')
	modroot = os.path.join(obj, 'modroot')
	shutil.rmtree(modroot, ignore_errors=True)
	kmake(arch, cfg, obj, 'modules_install', f'INSTALL_MOD_PATH={modroot}', 'INSTALL_MOD_STRIP=1')
	log(f'selftest: kernel ready ({time.monotonic() - start:.0f} s)')
	return modroot


# ---------------------------------------------------------------- image

def elf_info(path):
	"""(interpreter or None, [NEEDED libraries]) of an ELF file, for any arch."""
	out = run(['readelf', '-d', '-l', '-W', path], env=dict(os.environ, LC_ALL='C'))
	interp = re.search(r'\[Requesting program interpreter: ([^\]]+)\]', out)
	needed = re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', out)
	return (interp.group(1) if interp else None), needed


def lib_dirs(cfg, sysroots=()):
	"""(where to look on the host, where it goes in the image) for the arch's libraries."""
	ma = cfg['multiarch']
	dirs = []
	for root in sysroots:
		for d in (f'lib/{ma}', f'usr/lib/{ma}', 'lib', 'usr/lib'):
			dirs.append((os.path.join(root, d), '/' + d))
	if cfg['cross']:
		# The cross toolchain's libc (libc6-arm64-cross) is the target's libc.
		dirs.append((f'/usr/{ma}/lib', f'/lib/{ma}'))
	else:
		for d in (f'/lib/{ma}', f'/usr/lib/{ma}', '/lib64', '/lib', '/usr/lib'):
			dirs.append((d, d))
	return dirs


def copy_with_libs(prog, dest_dir, root, cfg, sysroots=()):
	"""Copy the ELF program @prog to @root/@dest_dir with everything it needs.

	Works for either arch without running anything: readelf names the
	interpreter and the NEEDED libraries, which are looked up (recursively)
	in the arch's library directories (lib_dirs(): unpacked Debian packages
	first, then the toolchain's or the host's) and copied to the matching
	place in the image; the interpreter goes to the path the program asks for.
	"""
	def put(src, dst):
		target = os.path.join(root, dst.lstrip('/'))
		os.makedirs(os.path.dirname(target), exist_ok=True)
		shutil.copy2(os.path.realpath(src), target)

	put(prog, os.path.join(dest_dir, os.path.basename(prog)))
	dirs = lib_dirs(cfg, sysroots)
	todo, done = [prog], set()
	while todo:
		interp, needed = elf_info(todo.pop())
		if interp and interp not in done:
			done.add(interp)
			base = os.path.basename(interp)
			for host_dir, _ in dirs:
				if os.path.exists(os.path.join(host_dir, base)):
					put(os.path.join(host_dir, base), interp)
					break
			else:
				raise RuntimeError(f'{prog}: interpreter {interp} not found')
		for lib in needed:
			if lib in done:
				continue
			done.add(lib)
			for host_dir, img_dir in dirs:
				src = os.path.join(host_dir, lib)
				if os.path.exists(src):
					put(src, os.path.join(img_dir, lib))
					todo.append(src)
					break
			else:
				raise RuntimeError(f'{prog}: library {lib} not found in ' +
						   ', '.join(d for d, _ in dirs))


def make_certs(work, dest):
	"""Fresh credentials for the handshake test into @dest (via @work).

	gencerts.sh makes, with certtool, a CA, a certificate for server.test
	signed by it, a second CA that signed nothing and two PSK files. They
	are valid from now on for two days: each image gets new ones, and the
	guest's clock comes from the host's (the RTC).
	"""
	shutil.rmtree(work, ignore_errors=True)
	run(['sh', GENCERTS, work])
	os.makedirs(dest)
	for name in CERT_FILES:
		shutil.copy2(os.path.join(work, name), os.path.join(dest, name))


def write_cpio(root, out, nodes):
	"""Write @root as a newc cpio archive (owner root, time 0) plus device @nodes."""
	ino = [1]

	def entry(f, name, mode, data=b'', rdev=(0, 0), nlink=1):
		name_b = name.encode() + b'\0'
		hdr = '070701' + ''.join(f'{v:08x}' for v in (
			ino[0], mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1],
			len(name_b), 0))
		ino[0] += 1
		f.write(hdr.encode() + name_b)
		f.write(b'\0' * (-(110 + len(name_b)) % 4))
		f.write(data)
		f.write(b'\0' * (-len(data) % 4))

	with open(out, 'wb') as f:
		for dirpath, dirnames, filenames in os.walk(root):
			dirnames.sort()
			rel = os.path.relpath(dirpath, root)
			if rel != '.':
				entry(f, rel, stat.S_IFDIR | 0o755, nlink=2)
			for name in sorted(filenames) + [d for d in dirnames
							 if os.path.islink(os.path.join(dirpath, d))]:
				path = os.path.join(dirpath, name)
				arc = os.path.normpath(os.path.join(rel, name))
				st = os.lstat(path)
				if stat.S_ISLNK(st.st_mode):
					entry(f, arc, stat.S_IFLNK | 0o777, os.readlink(path).encode())
				else:
					perm = 0o755 if st.st_mode & 0o111 else 0o644
					with open(path, 'rb') as src:
						entry(f, arc, stat.S_IFREG | perm, src.read())
		for name, mode, major, minor in nodes:
			entry(f, name, mode, rdev=(major, minor))
		entry(f, 'TRAILER!!!', 0, nlink=1)


def add_tc(arch, cfg, root, sysroots):
	"""/sbin/tc in the image at @root, with its loader and libraries."""
	if cfg['tc_debs']:
		tc_root = fetch_debs(cfg['deb_arch'], cfg['tc_debs'],
				     os.path.join(CACHE, 'sysroot-tc-' + arch))
		copy_with_libs(os.path.join(tc_root, 'sbin', 'tc'), '/sbin', root, cfg,
			       [tc_root] + sysroots)
	else:
		apt_install(['iproute2'])
		copy_with_libs('/sbin/tc', '/sbin', root, cfg, sysroots)


def add_tools(cfg, obj, root, sysroot):
	"""tools/quic's programs in /tests of the image at @root, with their libraries.

	A native build uses the host's libraries (pkg-config); a cross build
	the target's, unpacked into @sysroot (TOOLS_DEBS next to GnuTLS's).
	"""
	out = os.path.join(obj, 'tools')
	cmd = ['make', '-s', '-C', TOOLS, f'OUTPUT={out}', '-j2']
	sysroots = []
	if cfg['cross']:
		fetch_debs(cfg['deb_arch'], TOOLS_DEBS, sysroot)
		ma = cfg['multiarch']
		libdirs = [os.path.join(sysroot, 'usr', 'lib', ma), os.path.join(sysroot, 'lib', ma)]
		inc = os.path.join(sysroot, 'usr', 'include')
		cmd += [f'CC={cfg["cross"]}gcc',
			f'SYSROOT_CFLAGS=-isystem {inc} -isystem {inc}/libnl3 -isystem {inc}/{ma}',
			'SYSROOT_LIBS=' + ' '.join([f'-L{d} -Wl,-rpath-link,{d}' for d in libdirs] +
						   ['-lgnutls', '-lnghttp3'])]
		sysroots = [sysroot]
	run(cmd + [os.path.join(out, p) for p in TOOL_PROGS])
	for prog in TOOL_PROGS:
		copy_with_libs(os.path.join(out, prog), '/tests', root, cfg, sysroots)
		run([cfg['cross'] + 'strip', os.path.join(root, 'tests', prog)])


def build_image(arch, cfg, obj, modroot, names, extra=None, name='initramfs'):
	"""Test programs, busybox, modules and /init in a cpio archive; returns its path.

	@extra(root, sysroots), when given, adds its own files to the tree
	before it is archived as obj/@name.cpio.
	"""
	cc = cfg['cross'] + 'gcc'
	tests_out = os.path.join(obj, 'tests')
	sysroot = fetch_debs(cfg['deb_arch'], ['busybox-static'] + cfg['target_debs'],
			     os.path.join(CACHE, 'sysroot-' + arch))
	busybox = os.path.join(sysroot, 'bin', 'busybox')
	# Libraries of the target arch that the host does not have (GnuTLS).
	sysroots = [sysroot] if cfg['target_debs'] else []
	make_vars = [f'GNUTLS_SYSROOT={sysroot}'] if sysroots else []
	targets = [os.path.join(tests_out, n) for n in names]
	if targets:
		run(['make', '-s', '-C', TESTS, f'OUTPUT={tests_out}', f'CC={cc}', '-j2'] +
		    make_vars + targets)
	dynamic = run(['make', '-s', '-C', TESTS, 'list-dynamic']).split()

	root = os.path.join(obj, name)
	shutil.rmtree(root, ignore_errors=True)
	for d in ('bin', 'sbin', 'tests', 'lib', 'dev', 'proc', 'sys', 'tmp', 'run', 'etc'):
		os.makedirs(os.path.join(root, d))
	shutil.copy2(busybox, os.path.join(root, 'bin', 'busybox'))
	# request_module() runs /sbin/modprobe before /init could install links.
	os.symlink('../bin/busybox', os.path.join(root, 'sbin', 'modprobe'))
	shutil.copy2(INIT, os.path.join(root, 'init'))
	os.chmod(os.path.join(root, 'init'), 0o755)
	shutil.copytree(os.path.join(modroot, 'lib', 'modules'),
			os.path.join(root, 'lib', 'modules'), symlinks=True)
	for link in glob.glob(os.path.join(root, 'lib', 'modules', '*', 'build')) + \
			glob.glob(os.path.join(root, 'lib', 'modules', '*', 'source')):
		os.remove(link)

	for test in names:
		prog = os.path.join(tests_out, test)
		if test in dynamic:
			copy_with_libs(prog, '/tests', root, cfg, sysroots)
		else:
			shutil.copy2(prog, os.path.join(root, 'tests', test))
		# Debug info stays in the build directory; the image gets lean copies.
		run([cfg['cross'] + 'strip', os.path.join(root, 'tests', test)])
	with open(os.path.join(root, 'tests', 'list'), 'w') as f:
		f.write(' '.join(names) + '\n')
	if {'handshake', 'functional', 'resumption', 'alpnroute', 'netem', 'many', 'misuse',
	    'kconsumer', 'perf', 'sysfuzz', 'api', 'callers'} & set(names):
		make_certs(os.path.join(obj, 'certs'), os.path.join(root, 'tests', 'certs'))
	if 'callers' in names:
		# Its client passes no CA file: GnuTLS's system trust store on
		# Debian is this file (gnutls_certificate_set_x509_system_trust()).
		store = os.path.join(root, 'etc', 'ssl', 'certs')
		os.makedirs(store)
		shutil.copy2(os.path.join(root, 'tests', 'certs', 'ca.pem'),
			     os.path.join(store, 'ca-certificates.crt'))
	if {'netem', 'sysfuzz'} & set(names):
		add_tc(arch, cfg, root, sysroots)
	if 'kconsumer' in names:
		add_tools(cfg, obj, root, sysroot)
	if extra:
		extra(root, sysroots)

	image = os.path.join(obj, name + '.cpio')
	write_cpio(root, image, [('dev/console', stat.S_IFCHR | 0o600, 5, 1)])
	return image


# ---------------------------------------------------------------- KTAP

class Test:
	def __init__(self, name, ok=True, skip=False, children=None, plan=None, diag=None,
		     directive=''):
		self.name = name
		self.ok = ok
		self.skip = skip
		self.children = children or []
		self.plan = plan
		self.diag = diag or []
		self.directive = directive

	def problems(self):
		"""Structural failures of this node: plan missing or not met."""
		if not self.children and self.plan is None:
			return []
		if self.plan is None:
			return ['no plan']
		if len(self.children) != self.plan:
			return [f'planned {self.plan}, got {len(self.children)}']
		return []

	def count(self):
		"""(passed, failed, skipped) over the leaves, structural failures included."""
		if not self.children:
			if self.plan is not None and self.plan > 0:
				return 0, self.plan, 0	# planned cases that never came
			if self.skip:
				return 0, 0, 1
			return (1, 0, 0) if self.ok else (0, 1, 0)
		p = f = s = 0
		for c in self.children:
			cp, cf, cs = c.count()
			p, f, s = p + cp, f + cf, s + cs
		if self.plan is not None and self.plan > len(self.children):
			f += self.plan - len(self.children)
		if (self.problems() or not self.ok) and not f:
			f = 1	# e.g. exit status non-zero although every case passed
		return p, f, s


RESULT = re.compile(r'^(ok|not ok) (\d+)(?: (?:- )?([^#]*?))?\s*(?:# (.*))?$')


def parse_ktap(text, plans_optional=False):
	"""Parse (nested) KTAP into a root Test whose children are the top-level tests.

	@plans_optional: a subtest without a plan counts what it printed (KUnit
	prints none for a parameterized case, whose count it does not know in
	advance); otherwise a missing plan fails the subtest.
	"""
	# Per indentation level: the results collected, the plan, pending diagnostics.
	levels = {}

	def level(n):
		return levels.setdefault(n, {'results': [], 'plan': None, 'diag': [],
					     'header': False})

	for raw in text.splitlines():
		raw = raw.rstrip('\r')
		stripped = raw.lstrip(' ')
		depth = (len(raw) - len(stripped)) // 4
		if not stripped:
			continue
		lv = level(depth)
		if stripped.startswith('KTAP version') or stripped.startswith('TAP version'):
			levels[depth] = {'results': [], 'plan': None, 'diag': [], 'header': True}
			continue
		m = re.match(r'^1\.\.(\d+)', stripped)
		if m:
			lv['plan'] = int(m.group(1))
			continue
		m = RESULT.match(stripped)
		if m:
			directive = m.group(4) or ''
			sub = levels.pop(depth + 1, None)
			t = Test(m.group(3) or f'test {m.group(2)}', ok=m.group(1) == 'ok',
				 skip=directive.upper().startswith('SKIP'), directive=directive,
				 diag=lv['diag'])
			if sub and (sub['header'] or sub['results']):
				t.children = sub['results']
				t.plan = sub['plan']
				if t.plan is None and plans_optional:
					t.plan = len(t.children)
			if sub:
				t.diag = t.diag + sub['diag']
			if sub and sub['header'] and sub['plan'] is None and not plans_optional:
				t.ok = False
				t.diag.append('# printed no KTAP plan')
			lv['results'].append(t)
			lv['diag'] = []
			continue
		if stripped.startswith('#'):
			lv['diag'].append(stripped)
	top = level(0)
	root = Test('all', children=top['results'], plan=top['plan'])
	# Unfinished subtest (crash, timeout): keep what it printed.
	if 1 in levels and (levels[1]['header'] or levels[1]['results']):
		running = [d[len('# Subtest: '):] for d in top['diag'] if d.startswith('# Subtest: ')]
		name = (running[-1] if running else 'test') + ' (unfinished)'
		root.children.append(Test(name, ok=False, children=levels[1]['results'],
					  plan=levels[1]['plan'], diag=levels[1]['diag']))
	return root


def show(test, path='', depth=0):
	"""Print failing leaves with their diagnostics (every leaf when verbose)."""
	name = f'{path}/{test.name}' if path else test.name
	if test.children:
		for c in test.children:
			show(c, name, depth + 1)
		for p in test.problems():
			log(f'           not ok {name}: {p}')
		return
	if VERBOSE or not test.ok:
		status = 'ok' if test.ok else 'not ok'
		extra = f' # {test.directive}' if test.directive else ''
		log(f'           {status} {name}{extra}')
		if not test.ok:
			for d in test.diag[-8:]:
				log(f'             {d}')


def report(test):
	p, f, s = test.count()
	mark = '[ok]    ' if not f else '[FAILED]'
	extra = f', {s} skipped' if s else ''
	log(f'{mark} {test.name}: {p} passed, {f} failed{extra}')
	if f or VERBOSE:
		if not test.ok and test.directive:
			log(f'           {test.directive}')
		if test.children:
			for c in test.children:
				show(c, test.name)
		elif not test.ok:
			for d in test.diag[-20:]:
				log(f'             {d}')
		for prob in test.problems():
			log(f'           {prob}')
	return p, f, s


# ---------------------------------------------------------------- boot

def check_kernel_log(console):
	"""One Test: the kernel log holds no report of a kernel problem.

	A KCSAN data race report (a block from "BUG: KCSAN:" to its closing
	line of "=") counts when one of its frames is QUIC's; races elsewhere
	(the virtio console's ring, written by the device) are listed only.
	"""
	bad = []
	elsewhere = []
	current = '(boot)'
	race = None
	for line in console.splitlines():
		if race is not None:
			if '=====' in line:
				(bad if any('quic' in r for r in race[1:]) else elsewhere).append(
					f'# during {current}: {race[0].strip()}')
				race = None
			else:
				race.append(line)
			continue
		m = re.search(r'selftest: (start|end) (\S+)', line)
		if m:
			current = m.group(2) if m.group(1) == 'start' else f'(after {m.group(2)})'
			continue
		if 'BUG: KCSAN:' in line:
			race = [line]
			continue
		if BAD_LOG.search(line):
			bad.append(f'# during {current}: {line.strip()}')
	if race is not None:
		bad.append(f'# during {current}: {race[0].strip()} (report cut short)')
	diag = bad[:40] + [f'{e} (not in QUIC: listed only)' for e in elsewhere[:10]]
	return Test('kernel_log: no WARNING/BUG/KASAN/UBSAN/lockdep report', ok=not bad,
		    diag=diag)


# ---------------------------------------------------------------- host peer

class HostPeer:
	"""UDP peer on the host's loopback for the guest's hostnet test.

	Echoes what the guest sends to 10.0.2.2:echo_port (QEMU user networking
	delivers it to the host's 127.0.0.1), and probes the guest through a
	forwarded host port until the guest answers. Later interop tests put a
	host-side QUIC stack where this echo is.
	"""
	GUEST_PORT = 4434
	MARKER = b'quic-selftest-hostnet guest->host'
	PROBE = b'quic-selftest-hostnet probe'
	ANSWER = b'quic-selftest-hostnet answer'

	def __init__(self):
		self.echo = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		self.echo.bind(('127.0.0.1', 0))
		self.echo_port = self.echo.getsockname()[1]
		# QEMU binds the forwarded port itself: find one that is free now.
		with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
			s.bind(('127.0.0.1', 0))
			self.fwd_port = s.getsockname()[1]
		self.probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		self.probe.bind(('127.0.0.1', 0))
		self.echoed = 0
		self.answers = 0
		self.other = 0
		self.stop = threading.Event()
		self.thread = threading.Thread(target=self.serve, daemon=True)

	def hostfwds(self):
		return [f'udp:127.0.0.1:{self.fwd_port}-:{self.GUEST_PORT}']

	def cmdline(self):
		return [f'selftest_hostecho={self.echo_port}', f'selftest_hostfwd={self.GUEST_PORT}']

	def serve(self):
		next_probe = 0
		while not self.stop.is_set():
			now = time.monotonic()
			if now >= next_probe and not self.answers:
				# Until the guest binds the port, slirp drops these;
				# until QEMU binds the host port, loopback refuses them.
				try:
					self.probe.sendto(self.PROBE, ('127.0.0.1', self.fwd_port))
				except ConnectionRefusedError:
					pass
				next_probe = now + 0.5
			ready = select.select([self.echo, self.probe], [], [], 0.2)[0]
			if self.echo in ready:
				data, peer = self.echo.recvfrom(2048)
				if data == self.MARKER:
					self.echo.sendto(data, peer)
					self.echoed += 1
				else:
					self.other += 1
			if self.probe in ready:
				try:
					data = self.probe.recv(2048)
				except ConnectionRefusedError:
					continue
				if data == self.ANSWER:
					self.answers += 1
				else:
					self.other += 1

	def start(self):
		self.thread.start()

	def finish(self, pcap):
		self.stop.set()
		self.thread.join()
		self.echo.close()
		self.probe.close()
		results = [
			Test('host peer: echoed the guest datagram sent to 10.0.2.2',
			     ok=self.echoed > 0, diag=[f'# {self.echoed} echoed, {self.other} '
						       'unexpected datagrams']),
			Test('host peer: the guest answered through the forwarded port',
			     ok=self.answers > 0, diag=[f'# {self.answers} answers to probes sent '
							f'to 127.0.0.1:{self.fwd_port}']),
		]
		found, why = pcap_has(pcap, self.MARKER)
		results.append(Test('packet capture holds the guest datagram', ok=found,
				    diag=[f'# {pcap}: {why}']))
		return results


def pcap_has(path, needle):
	"""Does the libpcap file at @path hold a frame containing @needle?"""
	try:
		data = open(path, 'rb').read()
	except OSError as e:
		return False, str(e)
	if len(data) < 24:
		return False, f'{len(data)} bytes, no pcap header'
	magic = int.from_bytes(data[:4], 'little')
	if magic not in (0xa1b2c3d4, 0xa1b23c4d):
		return False, f'bad magic {magic:#x}'
	off, frames = 24, 0
	while off + 16 <= len(data):
		caplen = int.from_bytes(data[off + 8:off + 12], 'little')
		frame = data[off + 16:off + 16 + caplen]
		off += 16 + caplen
		frames += 1
		if needle in frame:
			return True, f'found in frame {frames}'
	return False, f'not in any of {frames} frames'


def qemu_command(arch, cfg, obj, image, rundir, args, names, peer):
	# --kernel=debian: Debian's vmlinuz instead of the one built here.
	kernel = getattr(args, 'kernel_image', None) or os.path.join(obj, cfg['image'])
	# slab_nomerge: QUIC's slab caches keep their names (modload counts them).
	# The RCU stall timeout is raised to its maximum: a loaded host slows TCG
	# down enough to trip the default 21 s on a healthy kernel.
	append = [f'console={cfg["console"]}', 'panic=-1', 'slab_nomerge', 'printk.time=1',
		  'rcupdate.rcu_cpu_stall_timeout=300',
		  'selftests=' + ','.join(names), f'selftest_timeout={args.test_timeout}']
	append += cfg['append']
	if getattr(args, 'stress', False):
		append.append('quic_stress=1')
	if getattr(args, 'kcsan', False):
		# Watch one access in 100 instead of KCSAN's default 4000: the
		# tests are short, and races between a task and the softirq need
		# many chances to be seen.
		append.append('kcsan.skip_watch=100')
	# --append: words for the kernel command line; those without a dot
	# reach /init and the tests as environment variables (sysfuzz_seed=).
	append += getattr(args, 'append', '').split()
	if peer:
		append += peer.cmdline()
	if 'modload' not in names:
		# kmemleak triples the boot time under TCG; only modload needs it.
		append.append('kmemleak=off')
	netdev = 'user,id=net0'
	for fwd in args.hostfwd + (peer.hostfwds() if peer else []):
		netdev += ',hostfwd=' + fwd
	cmd = [cfg['qemu'], '-accel', 'tcg'] + cfg['machine'] + [
		'-smp', '2', '-m', '2048', '-nodefaults', '-display', 'none', '-no-reboot',
		'-serial', 'file:' + os.path.join(rundir, 'console.log'),
		'-kernel', kernel, '-initrd', image, '-append', ' '.join(append),
		'-netdev', netdev, '-device', f'virtio-net-{cfg["virtio"]},netdev=net0',
		'-device', f'virtio-serial-{cfg["virtio"]}',
		'-chardev', 'file,id=ktap,path=' + os.path.join(rundir, 'ktap.log'),
		'-device', 'virtconsole,chardev=ktap']
	cmd += ['-object', f'filter-dump,id=dump0,netdev=net0,file={pcap_path(rundir, args)}']
	return cmd


def pcap_path(rundir, args):
	return args.pcap or os.path.join(rundir, 'eth0.pcap')


def boot(arch, cfg, obj, image, args, names, peer=None, rundir=None):
	"""Run the image; returns (Test list, seconds).

	@peer: what runs on the host meanwhile (start(), finish(pcap) -> Test
	list, hostfwds(), cmdline()); a HostPeer when the hostnet test runs.
	"""
	rundir = rundir or os.path.join(obj, 'run')
	os.makedirs(rundir, exist_ok=True)
	for f in ('console.log', 'ktap.log'):
		open(os.path.join(rundir, f), 'w').close()
	if not peer and 'hostnet' in names:
		peer = HostPeer()
	cmd = qemu_command(arch, cfg, obj, image, rundir, args, names, peer)
	with open(os.path.join(rundir, 'qemu.cmd'), 'w') as f:
		f.write(' '.join(cmd) + '\n')
	# --stress: every program may take its whole (raised) limit. Callers
	# other than main() (scripts/interop.py) have no stress attribute.
	stress = getattr(args, 'stress', False)
	timeout = args.timeout or cfg['timeout'] + (args.test_timeout if stress else 0)
	log(f'selftest: booting {cfg["qemu"]} (TCG, timeout {timeout} s); '
	    f'logs in {os.path.relpath(rundir, ROOT)}/')

	start = time.monotonic()
	if peer:
		peer.start()
	proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
				stderr=subprocess.STDOUT, text=True)
	ktap_path = os.path.join(rundir, 'ktap.log')
	console_path = os.path.join(rundir, 'console.log')
	seen = 0
	timed_out = False
	oops_at = None
	last_size, last_growth = -1, time.monotonic()
	while proc.poll() is None:
		time.sleep(0.5)
		text = open(ktap_path, errors='replace').read()
		# A fault that leaves a lock held (a socket's, say) hangs the
		# rest of the run until the timeout. Once the console showed
		# one, the run is stopped when neither log has grown for
		# OOPS_GRACE seconds; a run that goes on is left to finish.
		if os.path.exists(console_path):
			size = os.path.getsize(console_path) + len(text)
			if size != last_size:
				last_size, last_growth = size, time.monotonic()
			if oops_at is None:
				with open(console_path, errors='replace') as f:
					if OOPS_RE.search(f.read()):
						oops_at = time.monotonic()
		if oops_at is not None and time.monotonic() - last_growth > OOPS_GRACE:
			timed_out = True
			timeout = int(time.monotonic() - start)
			proc.kill()
			break
		# Live progress: top-level lines only.
		for line in text[seen:].splitlines(keepends=True):
			if not line.endswith('\n'):
				break
			seen += len(line)
			if line.startswith('# Subtest: '):
				log(f'selftest: running {line[11:].strip()} '
				    f'({time.monotonic() - start:.0f} s)')
		if time.monotonic() - start > timeout:
			timed_out = True
			proc.kill()
			break
	qemu_out = proc.communicate()[0] or ''
	secs = time.monotonic() - start
	peer_results = peer.finish(pcap_path(rundir, args)) if peer else []

	text = open(ktap_path, errors='replace').read()
	console = open(console_path, errors='replace').read()
	if not text.strip():
		# No virtio console: /init wrote to the serial console instead.
		text = '\n'.join(l for l in console.splitlines() if not re.match(r'\[\s*\d+\.\d+\]', l))
	root = parse_ktap(text, plans_optional=getattr(args, 'kunit', False))
	results = list(root.children)
	if root.plan is None:
		results.append(Test('KTAP plan from /init', ok=False,
				    diag=['# no KTAP plan: the image did not start its tests']))
	elif root.plan != len(root.children):
		results.append(Test('every test ran', ok=False,
				    diag=[f'# planned {root.plan}, ran {len(root.children)}']))
	if timed_out:
		why = (f'no output for {OOPS_GRACE} s after a kernel oops' if oops_at is not None
		       else 'the timeout')
		results.append(Test('no timeout', ok=False,
				    diag=[f'# killed after {timeout} s ({why})'] +
				    ['# ' + l for l in console.splitlines()[-15:]]))
	elif proc.returncode:
		results.append(Test('QEMU exit status', ok=False,
				    diag=[f'# QEMU exited with {proc.returncode}'] +
				    ['# ' + l for l in qemu_out.splitlines()[-10:]]))
	elif '# selftest: done' not in text:
		results.append(Test('clean power-off', ok=False,
				    diag=['# the guest stopped before /init finished'] +
				    ['# ' + l for l in console.splitlines()[-15:]]))
	if root.plan is not None:
		# /init reports whether QEMU's DHCP server answered the guest NIC.
		results.append(Test('guest NIC: DHCP through QEMU user networking',
				    ok='# eth0: DHCP lease' in text,
				    diag=[l for l in text.splitlines() if l.startswith('# eth0')]))
	results += peer_results
	results.append(check_kernel_log(console))
	return results, secs


# ---------------------------------------------------------------- main

def main():
	global VERBOSE
	ap = argparse.ArgumentParser(description='Build and boot the QUIC selftests.')
	ap.add_argument('--arch', default='x86_64', choices=sorted(ARCHES))
	ap.add_argument('-t', '--tests', default='',
			help='comma-separated test names (default: all)')
	ap.add_argument('--timeout', type=int, default=0,
			help='hard limit for the boot, seconds (default per arch)')
	ap.add_argument('--test-timeout', type=int, default=600,
			help='limit per test program inside the guest, seconds')
	ap.add_argument('--hostfwd', action='append', default=[],
			help='QEMU user-net forward, e.g. udp::4433-:4433 (repeatable)')
	ap.add_argument('--pcap', default='', help='record the guest NIC (filter-dump)')
	ap.add_argument('--build-dir', default='',
			help='kernel build directory (default .build/selftest-<arch>)')
	ap.add_argument('--stress', action='store_true',
			help='long variants: quic_stress=1 for the guest (the netem test runs '
			f'its full matrix), --test-timeout at least {STRESS_TEST_TIMEOUT}')
	ap.add_argument('--kcsan', action='store_true',
			help='x86_64 only: the kernel of .build/selftest-kcsan-x86_64, KCSAN '
			'instead of KASAN (config.kcsan); a data race report fails the kernel '
			'log check')
	ap.add_argument('--append', default='',
			help='more kernel command line, e.g. "sysfuzz_seed=0x1234 sysfuzz_secs=600" '
			'(words without a dot reach the tests as environment variables)')
	ap.add_argument('--kernel', default='ours', choices=('ours', 'debian'),
			help='debian: boot Debian\'s own 6.12 kernel (the newest image apt '
			'offers, unpacked, not installed) with quic.ko built out of tree '
			'against its headers (scripts/module.sh); every test runs, those '
			'that need a debug option (kmemleak) skip that case')
	ap.add_argument('--kunit', action='store_true',
			help='the QUIC KUnit suites instead of the test programs: quic_kunit.ko '
			'(CONFIG_IP_QUIC_KUNIT_TEST=m in the selftest kernel) runs them as it '
			'loads, one subtest per suite; make check runs the suites so, in the '
			'kernel the booted tests use, instead of building one of their own. '
			'Module parameters: --append quic_kunit_args=a=1,b=2')
	ap.add_argument('-v', '--verbose', action='store_true', help='print every case')
	args = ap.parse_args()
	if args.kunit and (args.kernel == 'debian' or args.tests):
		log('selftest: --kunit runs the suites in our kernel, without --tests')
		return 2
	if args.kunit:
		# Every suite runs inside one modprobe: as long as ./kunit.py
		# allows a whole KUnit run (1,500 s), not one test program.
		args.test_timeout = max(args.test_timeout, 1200)
		args.timeout = args.timeout or 1500
	if args.kcsan and args.arch != 'x86_64':
		log('selftest: --kcsan is for x86_64 only')
		return 2
	if args.kcsan and args.kernel == 'debian':
		log('selftest: --kcsan needs our kernel')
		return 2
	if args.stress:
		args.test_timeout = max(args.test_timeout, STRESS_TEST_TIMEOUT)
	VERBOSE = args.verbose
	arch = args.arch
	cfg = ARCHES[arch]
	flavour = 'selftest-kcsan-' if args.kcsan else \
		'selftest-debian-' if args.kernel == 'debian' else 'selftest-'
	obj = os.path.abspath(args.build_dir) if args.build_dir else \
		os.path.join(BUILD, flavour + arch)
	fragments = ('config', 'config.' + arch) + (('config.kcsan',) if args.kcsan else ())
	if args.pcap:
		args.pcap = os.path.abspath(args.pcap)

	subprocess.run([os.path.join(ROOT, 'scripts', 'deps.sh')], check=True)
	apt_install(cfg['packages'])

	guest_all = run(['make', '-s', '-C', TESTS, 'list']).split()
	wanted = [t for t in re.split(r'[,\s]+', args.tests) if t]
	unknown = [t for t in wanted if t not in guest_all and t not in HOST_TESTS]
	if unknown:
		log(f'selftest: unknown test {", ".join(unknown)}; tests: '
		    f'{" ".join(HOST_TESTS + tuple(guest_all))}')
		return 2
	guest = [t for t in guest_all if not wanted or t in wanted]
	host = [t for t in HOST_TESTS if not wanted or t in wanted]
	if args.kunit:
		# /init runs the image's /tests/kunit: scripts/selftest/kunit.
		guest, host = ['kunit'], []

	start = time.monotonic()
	results = []
	if 'uapi_header' in host:
		results.append(uapi_header_test(cfg))
		report(results[-1])

	secs = 0
	if guest and args.kernel == 'debian':
		os.makedirs(obj, exist_ok=True)
		helpers = {'run': run, 'log': log, 'apt_install': apt_install,
			   'fetch_debs': fetch_debs}
		args.kernel_image, modroot, rel = debian_kernel.prepare(arch, cfg, obj, ROOT, CACHE,
									helpers)
		image = build_image(arch, cfg, obj, modroot, guest,
				    extra=lambda root, sysroots: debian_kernel.add_boot_modules(root))
	elif guest:
		os.makedirs(BUILD, exist_ok=True)
		# Two cores: the same per-arch build lock as ./kunit.py.
		with open(os.path.join(BUILD, f'kunit-{arch}.lock'), 'w') as lock:
			fcntl.flock(lock, fcntl.LOCK_EX)
			run([os.path.join(ROOT, 'scripts', 'prepare-tree.sh')])
			modroot = build_kernel(arch, cfg, obj, fragments)
		if args.kunit:
			image = build_image(arch, cfg, obj, modroot, [], name='initramfs-kunit',
					    extra=lambda root, sysroots: shutil.copy2(
						    KUNIT, os.path.join(root, 'tests', 'kunit')))
		else:
			image = build_image(arch, cfg, obj, modroot, guest)
	if guest:
		guest_results, secs = boot(arch, cfg, obj, image, args, guest)
		for t in guest_results:
			report(t)
		results += guest_results

	p = f = s = 0
	for t in results:
		tp, tf, ts = t.count()
		p, f, s = p + tp, f + tf, s + ts
	log(f'selftest: {arch} took {time.monotonic() - start:.0f} s (boot and tests {secs:.0f} s)')
	log(f'selftest-{arch}: {p} passed, {f} failed, {s} skipped')
	return 1 if f else 0


if __name__ == '__main__':
	try:
		sys.exit(main())
	except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
		print(f'selftest: {e}', file=sys.stderr)
		print('selftest: 0 passed, 1 failed', file=sys.stderr)
		sys.exit(1)
