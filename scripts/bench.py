#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# `make bench ARCH=x86_64|arm64|um`: the throughput benchmark (the guest
# program tools/testing/selftests/net/quic/perf) in a kernel built without
# the sanitizers and lock debugging of the selftest kernel, so that the
# figures measure QUIC, TCP and kTLS rather than KASAN.
#
# 1. builds that kernel in .build/bench-<arch> from the selftest
#    fragments "config" + "config.bench" + "config.bench.<arch>" (for
#    User-mode Linux "config.bench.um" alone: the QEMU fragments name
#    devices UML does not have);
# 2. puts perf (with libquic and GnuTLS), its credentials, tools/quic's
#    quic-server and quic-client, ngtcp2's gtlsserver and gtlsclient
#    (native arches: the host's, from Debian's ngtcp2-server and
#    ngtcp2-client) and a wrapper holding the chosen options in an
#    initramfs;
# 3. boots it, in QEMU (TCG, like every booted test here) or, for um, as
#    the host program .build/bench-um/linux, and collects the "# bench ..."
#    lines perf prints into a table, saved with the raw output under
#    .build/bench-<arch>/run/.
#
# Figures from emulation mean little in absolute terms; the ratios of one
# run (QUIC/kTLS, QUIC without 1-RTT encryption/TCP, kernel QUIC/ngtcp2)
# are what to compare. User-mode Linux runs the guest's code natively (one
# CPU, system calls and page faults through the host's ptrace): its
# figures are far steadier than TCG's, the better platform for ratios.
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
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selftest as st  # noqa: E402


def log(msg):
	print(msg, flush=True)


# User-mode Linux on an x86_64 host: a host program that runs x86_64
# binaries, so the image takes the host's programs and libraries as the
# x86_64 one does.
ARCHES = dict(st.ARCHES, um=dict(
	st.ARCHES['x86_64'], image='linux', target='linux', qemu='User-mode Linux',
	packages=[p for p in st.ARCHES['x86_64']['packages'] if not p.startswith('qemu')]))
# The download rows' userspace QUIC stack, native images only.
NGTCP2_PACKAGES = ['ngtcp2-client', 'ngtcp2-server']
NGTCP2_PROGS = ('gtlsserver', 'gtlsclient')


def add_download_programs(arch, cfg, obj, root):
	"""quic-server/quic-client in /tests, ngtcp2's programs in /usr/bin."""
	st.add_tools(cfg, obj, root, os.path.join(st.CACHE, 'sysroot-' + arch))
	if cfg['cross']:
		log(f'bench: no ngtcp2 programs for {arch} (the host\'s are x86_64): '
		    'its dl row is skipped')
		return
	st.apt_install(NGTCP2_PACKAGES)
	for prog in NGTCP2_PROGS:
		path = shutil.which(prog, path='/usr/bin:/usr/sbin:/bin:/sbin')
		if not path:
			raise RuntimeError(f'{prog} not found after installing {NGTCP2_PACKAGES}')
		st.copy_with_libs(path, '/usr/bin', root, cfg)
		st.run(['strip', os.path.join(root, 'usr', 'bin', prog)])


def boot_um(obj, image, rundir, timeout, profile=False):
	"""Run the image under User-mode Linux; returns (Test list, seconds).

	The kernel log goes to console.log through con0 (the console), /init's
	KTAP to ktap.log through con1 (/dev/tty1, named by selftest_out=).
	Every channel is a pipe of its own: UML polls its channels with epoll,
	which refuses regular files, and takes one interrupt per input fd. The
	inputs stay open and silent. @profile: under the host's perf record
	(profile_report() reads it).
	"""
	os.makedirs(rundir, exist_ok=True)
	console = os.path.join(rundir, 'console.log')
	ktap = os.path.join(rundir, 'ktap.log')
	ktap_r, ktap_w = os.pipe()
	in1_r, in1_w = os.pipe()
	cmd = [os.path.join(obj, 'linux'), 'mem=2G', 'initrd=' + image, 'con=null',
	       'con0=fd:0,fd:1', f'con1=fd:{in1_r},fd:{ktap_w}', 'ssl=null', 'panic=-1',
	       'printk.time=1', 'selftests=perf', f'selftest_timeout={timeout - 60}',
	       'selftest_out=/dev/tty1']
	if profile:
		cmd = ['perf', 'record', '-q', '-F', str(PROFILE_HZ), '-o',
		       os.path.join(rundir, 'perf.data'), '--'] + cmd
	with open(os.path.join(rundir, 'um.cmd'), 'w') as f:
		f.write(' '.join(cmd) + '\n')
	log(f'bench: booting User-mode Linux (timeout {timeout} s); '
	    f'logs in {os.path.relpath(rundir, st.ROOT)}/')
	start = time.monotonic()
	# Its own session: UML's helper processes go with it on a timeout.
	proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
				stderr=subprocess.STDOUT, pass_fds=(ktap_w, in1_r),
				start_new_session=True)
	os.close(ktap_w)
	os.close(in1_r)

	def drain(src, path):
		with open(path, 'wb') as out:
			for chunk in iter(lambda: os.read(src, 65536), b''):
				out.write(chunk)
				out.flush()

	readers = [threading.Thread(target=drain, args=(proc.stdout.fileno(), console)),
		   threading.Thread(target=drain, args=(ktap_r, ktap))]
	for t in readers:
		t.start()
	try:
		proc.wait(timeout=timeout)
		timed_out = False
	except subprocess.TimeoutExpired:
		os.killpg(proc.pid, 9)
		proc.wait()
		timed_out = True
	proc.stdin.close()
	os.close(in1_w)
	for t in readers:
		t.join(timeout=30)
	os.close(ktap_r)
	secs = time.monotonic() - start
	text = open(ktap, errors='replace').read()
	log_text = open(console, errors='replace').read()
	root = st.parse_ktap(text)
	results = list(root.children)
	if root.plan is None or root.plan != len(root.children):
		results.append(st.Test('KTAP plan from /init', ok=False,
				       diag=['# the image did not run its test'] +
				       ['# ' + l for l in log_text.splitlines()[-15:]]))
	if timed_out:
		results.append(st.Test('no timeout', ok=False, diag=[f'# killed after {timeout} s']))
	elif '# selftest: done' not in text:
		results.append(st.Test('clean power-off', ok=False,
				       diag=[f'# exit status {proc.returncode}'] +
				       ['# ' + l for l in log_text.splitlines()[-15:]]))
	results.append(st.check_kernel_log(log_text))
	return results, secs


# Samples per second of the UML process tree (its kernel is one host process).
PROFILE_HZ = 997
PROFILE_TOP = 40


def profile_report(rundir):
	"""Where the samples fell, from rundir/perf.data, into run/profile.txt.

	First the split between the host's kernel (UML's system calls, page
	faults and ptrace switches), the UML kernel binary and the guest's
	programs; then the UML kernel's functions, as shares of the samples in
	that binary (--dso linux). The guest's programs run in host processes
	whose code perf cannot name. QUIC and kTLS are built in
	(config.bench.um), so their functions have names.
	"""
	data = os.path.join(rundir, 'perf.data')
	split = st.run(['perf', 'report', '-i', data, '--stdio', '--no-children', '--sort', 'dso',
			'-q'])
	funcs = st.run(['perf', 'report', '-i', data, '--stdio', '--no-children', '--sort', 'sym',
			'--dso', 'linux', '--percentage', 'relative', '--percent-limit', '0.3',
			'-q'])
	with open(os.path.join(rundir, 'profile.txt'), 'w') as f:
		f.write('# all samples by binary\n' + split +
			'\n# the UML kernel binary, by function\n' + funcs)
	log(f'bench: profile (perf record -F {PROFILE_HZ} of the UML process tree), all samples '
	    'by binary:')
	for line in [l for l in split.splitlines() if l.strip()][:6]:
		log('bench: ' + line.strip())
	log(f'bench: the UML kernel binary by function, top {PROFILE_TOP} '
	    f'(all in {os.path.relpath(rundir, st.ROOT)}/profile.txt):')
	for line in [l for l in funcs.splitlines() if l.strip()][:PROFILE_TOP]:
		log('bench: ' + line.strip())


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
	ap.add_argument('--arch', default='x86_64', choices=sorted(ARCHES))
	ap.add_argument('--quick', action='store_true',
			help='one repeat, 1 s per run, 1 KiB and 64 KiB only (a smoke run)')
	ap.add_argument('--perf-args', default='',
			help='more options for perf (see perf --help), e.g. "--mtu-all --repeat 3"')
	ap.add_argument('--timeout', type=int, default=5400, help='limit for the boot, seconds')
	ap.add_argument('--profile', action='store_true',
			help='um only: record the kernel with the host\'s perf and print where '
			'its time went (use with --perf-args to pick the rows)')
	ap.add_argument('-v', '--verbose', action='store_true')
	args = ap.parse_args()
	if args.profile and args.arch != 'um':
		ap.error('--profile needs --arch=um (QEMU runs the guest where perf cannot see it)')
	st.VERBOSE = args.verbose
	arch, cfg = args.arch, ARCHES[args.arch]
	obj = os.path.join(st.BUILD, 'bench-' + arch)

	subprocess.run([os.path.join(st.ROOT, 'scripts', 'deps.sh')], check=True)
	st.apt_install(cfg['packages'])
	start = time.monotonic()
	os.makedirs(st.BUILD, exist_ok=True)
	with open(os.path.join(st.BUILD, f'kunit-{arch}.lock'), 'w') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		st.run([os.path.join(st.ROOT, 'scripts', 'prepare-tree.sh')])
		fragments = ['config.bench.um'] if arch == 'um' else \
			['config', 'config.bench', 'config.bench.' + arch]
		modroot = st.build_kernel(arch, cfg, obj, fragments)

	perf_args = (['--quick'] if args.quick else []) + shlex.split(args.perf_args)

	def extra(root, sysroots):
		# /init runs /tests/<name> without arguments: a wrapper adds them.
		tests = os.path.join(root, 'tests')
		os.rename(os.path.join(tests, 'perf'), os.path.join(tests, 'perf.bin'))
		with open(os.path.join(tests, 'perf'), 'w') as f:
			f.write('#!/bin/sh\nexec /tests/perf.bin ' +
				' '.join(shlex.quote(a) for a in perf_args) + '\n')
		os.chmod(os.path.join(tests, 'perf'), 0o755)
		add_download_programs(arch, cfg, obj, root)

	names = ['perf']
	image = st.build_image(arch, cfg, obj, modroot, names, extra=extra, name='bench')
	args.hostfwd, args.pcap = [], ''
	args.test_timeout = args.timeout - 120
	rundir = os.path.join(obj, 'run')
	if arch == 'um':
		results, secs = boot_um(obj, image, rundir, args.timeout, args.profile)
		if args.profile:
			profile_report(rundir)
	else:
		results, secs = st.boot(arch, cfg, obj, image, args, names, rundir=rundir)
	for t in results:
		st.report(t)

	text = open(os.path.join(rundir, 'ktap.log'), errors='replace').read()
	rows = parse_bench(text)
	where = 'User-mode Linux' if arch == 'um' else 'QEMU TCG'
	log(f'bench: {arch}, {where}, perf {" ".join(perf_args) or "(defaults)"}; '
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
