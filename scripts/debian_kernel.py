# SPDX-License-Identifier: GPL-2.0
#
# The booted tests on Debian's own kernel (scripts/selftest.py --kernel=debian,
# `make selftest KERNEL=debian`): the proof that a Debian 12 user who installs
# linux-headers-6.12.*+deb12-<arch> can build quic.ko out of tree and load it.
#
# 1. picks the newest linux-image-6.12.*+deb12-<arch> apt knows (or
#    QUIC_DEBIAN_RELEASE=6.12.N+deb12-<arch>);
# 2. unpacks that image package (the signed one users install) into the
#    cache without installing it: its vmlinuz is what QEMU boots, its
#    modules what the guest loads; the host's running kernel is not used;
# 3. unpacks the matching linux-headers package into the cache, with the
#    host's linux-kbuild (for arm64 on an x86_64 host with
#    aarch64-linux-gnu-gcc-12, as Debian cross-builds modules), and builds
#    quic.ko and quic_sample.ko with scripts/module.sh against it;
# 4. assembles a module tree for the initramfs: our two modules in
#    updates/, and of Debian's modules the ones the tests need (the NIC,
#    veth, netem, the UDP tunnel helpers, every crypto module) with what
#    they depend on, decompressed (busybox's modprobe reads plain .ko)
#    and indexed with depmod.

import glob
import os
import re
import shutil
import subprocess

# Debian's modules the guest may load, by name; their dependencies follow.
# virtio_mmio (arm64's virt machine) and virtio_net are loaded by /init
# (etc/selftest-modules); the others on demand
# (veth and netem through their rtnl/qdisc aliases, quic's dependencies by
# modprobe quic, AEADs by their crypto- aliases).
WANTED = ('virtio_mmio', 'virtio_net', 'veth', 'sch_netem', 'udp_tunnel', 'ip6_udp_tunnel',
	  'gf128mul')
# Whole directories of Debian's tree: every cipher and hash the crypto API
# may ask for by alias (gcm, ccm, chacha20poly1305 and their parts).
WANTED_DIRS = ('kernel/crypto', 'kernel/lib/crypto', 'kernel/arch/x86/crypto',
	       'kernel/arch/arm64/crypto')
BOOT_MODULES = ('virtio_mmio', 'virtio_net')


def release(deb_arch, run):
	"""The newest Debian 6.12 kernel release of @deb_arch apt offers."""
	want = os.environ.get('QUIC_DEBIAN_RELEASE')
	if want:
		return want
	names = run(['apt-cache', 'pkgnames', 'linux-image-6.12.']).split()
	rels = []
	for n in names:
		m = re.fullmatch(r'linux-image-(6\.12\.(\d+)\+deb12-' + deb_arch + ')', n)
		if m:
			rels.append((int(m.group(2)), m.group(1)))
	if not rels:
		raise RuntimeError(f'apt knows no linux-image-6.12.*+deb12-{deb_arch}: '
				   'is bookworm (with its security and updates suites) configured?')
	return max(rels)[1]


def _module_name(path):
	base = os.path.basename(path)
	for suffix in ('.ko.xz', '.ko.zst', '.ko.gz', '.ko'):
		if base.endswith(suffix):
			return base[:-len(suffix)].replace('-', '_')
	return None


def _closure(moddir, wanted_paths):
	"""Paths (relative to @moddir) of @wanted_paths and all they depend on."""
	deps = {}
	with open(os.path.join(moddir, 'modules.dep')) as f:
		for line in f:
			mod, _, rest = line.partition(':')
			deps[mod] = rest.split()
	todo = list(wanted_paths)
	seen = set()
	while todo:
		mod = todo.pop()
		if mod in seen:
			continue
		seen.add(mod)
		todo += deps.get(mod, [])
	return sorted(seen)


def prepare(arch, cfg, obj, root_dir, cache, helpers):
	"""Debian's kernel and a module tree with our modules; returns (vmlinuz, modroot, rel).

	@helpers: selftest.py's run, log, apt_install and fetch_debs.
	"""
	run, log = helpers['run'], helpers['log']
	deb_arch = cfg['deb_arch']
	rel = release(deb_arch, run)
	log(f'selftest: Debian kernel {rel}')

	# The image package, unpacked (never installed): vmlinuz and modules.
	img = helpers['fetch_debs'](deb_arch, ['linux-image-' + rel],
				    os.path.join(cache, 'debian-' + rel))
	vmlinuz = os.path.join(img, 'boot', 'vmlinuz-' + rel)
	moddir = os.path.join(img, 'lib', 'modules', rel)
	if not os.path.exists(os.path.join(moddir, 'modules.dep')):
		run(['depmod', '-b', img, rel])

	# The headers a user installs, and our module built against them:
	# the arch's linux-headers package unpacked into the cache (installing
	# it would pull in the image package and an initramfs for this host),
	# its scripts/ and tools/ links resolved to this host's linux-kbuild
	# (host programs, so another arch's headers work too, as Debian
	# cross-builds modules), and the arch-independent -common package,
	# which its Makefile includes by absolute path, installed with the
	# host's linux-kbuild, as the headers package depends on it: from
	# 6.12.118 the -common Makefile includes scripts/Makefile.btf through
	# its own scripts link, /usr/lib/linux-kbuild-<version>/scripts.
	base = rel[:-len('-' + deb_arch)]
	host_arch = run(['dpkg', '--print-architecture']).strip()
	extra = ['gcc-12-' + cfg['multiarch'].replace('_', '-')] if cfg['cross'] else []
	# pahole: linux-kbuild's BTF step for modules (its dependency).
	helpers['apt_install'](['linux-headers-' + base + '-common', 'linux-kbuild-' + base,
				'pahole'] + extra)
	hroot = os.path.join(cache, 'debian-headers-' + rel)
	helpers['fetch_debs'](deb_arch, ['linux-headers-' + rel], hroot)
	helpers['fetch_debs'](host_arch, ['linux-kbuild-' + base], hroot)
	kdir = os.path.join(hroot, 'usr', 'src', 'linux-headers-' + rel)
	out = os.path.join(obj, 'module')
	log(f'selftest: building quic.ko against {kdir}')
	run([os.path.join(root_dir, 'scripts', 'module.sh'), f'--kdir={kdir}', f'--arch={arch}',
	     f'--out={out}'])

	modroot = os.path.join(obj, 'modroot')
	shutil.rmtree(modroot, ignore_errors=True)
	dest = os.path.join(modroot, 'lib', 'modules', rel)
	os.makedirs(os.path.join(dest, 'updates'))
	wanted = []
	for path in glob.glob(os.path.join(moddir, 'kernel', '**', '*.ko*'), recursive=True):
		relpath = os.path.relpath(path, moddir)
		if _module_name(path) in WANTED or relpath.startswith(WANTED_DIRS):
			wanted.append(relpath)
	for relpath in _closure(moddir, wanted):
		src = os.path.join(moddir, relpath)
		plain = re.sub(r'\.ko\.(xz|zst|gz)$', '.ko', relpath)
		os.makedirs(os.path.dirname(os.path.join(dest, plain)), exist_ok=True)
		if relpath.endswith('.xz'):
			with open(os.path.join(dest, plain), 'wb') as f:
				subprocess.run(['xz', '-dc', src], stdout=f, check=True)
		elif relpath.endswith('.zst'):
			run(['zstd', '-q', '-d', src, '-o', os.path.join(dest, plain)])
		else:
			shutil.copy2(src, os.path.join(dest, plain))
	for f in ('modules.builtin', 'modules.builtin.modinfo', 'modules.order'):
		if os.path.exists(os.path.join(moddir, f)):
			shutil.copy2(os.path.join(moddir, f), dest)
	for ko in ('quic.ko', 'quic_sample.ko'):
		src = os.path.join(out, 'net', 'quic', ko)
		if os.path.exists(src):
			# The image gets no debug information; the build keeps it.
			run([cfg['cross'] + 'strip', '--strip-debug', '-o',
			     os.path.join(dest, 'updates', ko), src])
	run(['depmod', '-b', modroot, rel])
	return vmlinuz, modroot, rel


def add_boot_modules(root):
	"""/etc/selftest-modules: what /init loads before it brings eth0 up."""
	with open(os.path.join(root, 'etc', 'selftest-modules'), 'w') as f:
		f.write('\n'.join(BOOT_MODULES) + '\n')
