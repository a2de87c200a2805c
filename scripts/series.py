#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make series: our sources as a numbered patch series against the pristine
# linux-source-6.12 tree, as netdev would receive it.
#
#   scripts/series.py [--out=DIR] [--check]
#
# 1. builds the series in a scratch git repository (.build/series/work):
#    a first commit with the pristine copies of the kernel files we edit,
#    then one commit per entry of scripts/series_patches.py, each adding its
#    files and the net/quic/Makefile, net/quic/tests/Makefile and Kconfig
#    of that point (only what exists so far is built);
# 2. git format-patch writes it to .build/series/patches with a cover
#    letter (architecture, figures from docs/performance.md, the tests);
# 3. checks every file we own is in exactly one patch, and that the edits
#    made here add up to those scripts/prepare-tree.sh makes;
# 4. with --check: checkpatch.pl --strict on each patch, then
#    scripts/series-check.sh (git am onto a fresh tree, build after every
#    patch, the KUnit suites at the end).

import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from series_patches import PATCHES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = os.path.join(ROOT, '.build', 'linux')
ORIG = os.path.join(TREE, '.quic-orig')
AUTHOR = 'Seed 3f799ec8 maintainers <maintainers@users.noreply.a-seed-3f799ec8.example>'
DATE = '2026-12-07 00:00:00 +0000'

# The kernel files the series edits: the same edits as prepare-tree.sh
# (checked below to give the same result), and the documentation index.
EDIT_FILES = {
	'in.h': 'include/uapi/linux/in.h',
	'socket.h': 'include/linux/socket.h',
	'net-Kconfig': 'net/Kconfig',
	'net-Kconfig-handshake': 'net/Kconfig',
	'net-Makefile': 'net/Makefile',
	'doc-index': 'Documentation/networking/index.rst',
}


def edit(name, text):
	"""Apply edit @name to the kernel file's @text."""
	if name == 'in.h':
		return re.sub(r'(?m)^(#define IPPROTO_SMC\s.*\n)',
			      r'\1  IPPROTO_QUIC = 261,\t\t/* QUIC: UDP-based multiplexed secure '
			      r'transport */\n#define IPPROTO_QUIC\t\tIPPROTO_QUIC\n', text, count=1)
	if name == 'socket.h':
		return re.sub(r'(?m)^(#define SOL_VSOCK\s*287\n)', r'\1#define SOL_QUIC\t288\n', text,
			      count=1)
	if name == 'net-Kconfig':
		return re.sub(r'(?m)^(source "net/sctp/Kconfig"\n)', r'source "net/quic/Kconfig"\n\1',
			      text, count=1)
	if name == 'net-Kconfig-handshake':
		return re.sub(r'(?m)^(\tdepends on SUNRPC \|\| NVME_TARGET_TCP \|\| NVME_TCP)$',
			      r'\1 || IP_QUIC_SAMPLE', text, count=1)
	if name == 'net-Makefile':
		return re.sub(r'(?m)^(obj-\$\(CONFIG_IP_SCTP\).*\n)',
			      r'obj-$(CONFIG_IP_QUIC)\t\t+= quic/\n\1', text, count=1)
	if name == 'doc-index':
		return re.sub(r'(?m)^(   rds\n)', r'   quic\n\1', text, count=1)
	raise ValueError(name)


def owned_files():
	"""Every file of ours that belongs in a kernel tree, from git."""
	out = subprocess.run(['git', 'ls-files', 'net/quic', 'include', 'Documentation',
			      'tools/lib/quic', 'tools/quic', 'tools/testing/selftests/net/quic'],
			     cwd=ROOT, capture_output=True, text=True, check=True).stdout
	return out.split()


def assign(files):
	"""[(patch, [files])]: each file in the first patch whose globs match it."""
	left = list(files)
	out = []
	for p in PATCHES:
		mine = []
		for f in list(left):
			if any(fnmatch.fnmatchcase(f, g) and f.count('/') == g.count('/')
			       for g in p['files']):
				mine.append(f)
				left.remove(f)
		if not mine:
			raise SystemExit(f'series: no file for "{p["subject"]}"')
		out.append((p, sorted(mine)))
	if left:
		raise SystemExit('series: files in no patch: ' + ' '.join(left))
	# A header comes with the first patch whose files include it (through
	# other headers too): socket.h, which gathers every component's state,
	# is needed long before socket.c.
	where = {f: i for i, (_, fs) in enumerate(out) for f in fs}
	hoisted = [[] for _ in out]
	for i, (_, fs) in enumerate(out):
		todo, seen = list(fs), set()
		while todo:
			f = todo.pop()
			for inc in local_includes(f):
				if inc in seen or inc not in where:
					continue
				seen.add(inc)
				todo.append(inc)
				if where[inc] > i:
					out[where[inc]][1].remove(inc)
					fs.append(inc)
					hoisted[i].append(inc)
					where[inc] = i
		fs.sort()
	return [(dict(p, hoisted=sorted(h)), fs) for (p, fs), h in zip(out, hoisted)]


def local_includes(f):
	"""The files @f includes with #include "...", as tree paths."""
	if not f.endswith(('.c', '.h')):
		return []
	d = os.path.dirname(f)
	text = open(os.path.join(ROOT, f)).read()
	return [os.path.normpath(os.path.join(d, m)) for m in re.findall(r'#include\s+"([^"]+)"', text)]


def logical_lines(text):
	"""Makefile lines with their backslash continuations joined, each with
	its text as written."""
	lines, cur, raw = [], '', []
	for line in text.splitlines():
		raw.append(line)
		if line.endswith('\\'):
			cur += line[:-1] + ' '
			continue
		lines.append((cur + line, '\n'.join(raw)))
		cur, raw = '', []
	return lines


def makefile_at(text, built, tests):
	"""@text (a Makefile of ours) with only the objects in @built: a
	composite object (quic.o) stays when one of its parts does, tests/
	when @tests; a line keeping all its objects stays as written, and a
	comment block goes with the line it introduces."""
	parts = {}
	for line, _ in logical_lines(text):
		m = re.match(r'^(\S+)-y\s*(?::=|\+=)\s*(.*)$', line)
		if m:
			parts.setdefault(m.group(1) + '.o', set()).update(m.group(2).split())

	def kept(o):
		if o == 'tests/':
			return tests
		if o in parts:
			return any(kept(x) for x in parts[o])
		return o in built

	out, comments = [], []
	for line, raw in logical_lines(text):
		if line.startswith('#') or not line.strip():
			comments.append(raw)
			continue
		m = re.match(r'^(\S+)\s*(:=|\+=)\s*(.*)$', line)
		if not m:
			out += comments + [raw]
			comments = []
			continue
		target, op, objs = m.groups()
		keep = [o for o in objs.split() if kept(o)]
		if not keep:
			# Its comment goes with it; a blank line before stays.
			comments = [c for c in comments if not c.strip()][:1]
			continue
		first = target.endswith('-y') and op == '+=' and not any(
			re.match(re.escape(target) + r'\s*:=', l) for l, _ in logical_lines('\n'.join(out)))
		out += comments
		comments = []
		if keep == objs.split() and not first:
			out.append(raw)
			continue
		cur = f'{target} {":=" if first else op}'
		for o in keep:
			if len(cur.expandtabs()) + len(o) + 1 > 78 and ' ' in cur.strip():
				out.append(cur + ' \\')
				cur = '\t\t' + o
			else:
				cur += ' ' + o
		out.append(cur)
	out += [c for c in comments if c.strip()]
	while out and not out[-1].strip():
		out.pop()
	return '\n'.join(out) + '\n'


def kconfig_at(text, have_sample):
	"""net/quic/Kconfig without the sample's entry until sample.c exists."""
	if have_sample:
		return text
	return re.sub(r'(?ms)^config IP_QUIC_SAMPLE\n.*?(?=^\S|\Z)', '', text).replace(
		'\n\n\nendif', '\n\nendif')


def wrap(text):
	"""@text's last paragraph wrapped at 72 columns."""
	head, _, last = text.rpartition('\n\n')
	return (head + '\n\n' if head else '') + textwrap.fill(last, 72, break_on_hyphens=False)


def git(work, *args, env=None):
	return subprocess.run(['git', '-C', work] + list(args), capture_output=True, text=True,
			      check=True, env=env).stdout


def build_series(out):
	work = os.path.join(os.path.dirname(out), 'work')
	shutil.rmtree(work, ignore_errors=True)
	shutil.rmtree(out, ignore_errors=True)
	os.makedirs(work)
	env = dict(os.environ, GIT_AUTHOR_NAME=AUTHOR.split(' <')[0],
		   GIT_AUTHOR_EMAIL=AUTHOR.split('<')[1][:-1], GIT_AUTHOR_DATE=DATE,
		   GIT_COMMITTER_NAME=AUTHOR.split(' <')[0],
		   GIT_COMMITTER_EMAIL=AUTHOR.split('<')[1][:-1], GIT_COMMITTER_DATE=DATE)
	git(work, 'init', '-q')
	# The pristine kernel files the series edits.
	pristine = {}
	for rel in sorted(set(EDIT_FILES.values())):
		src = os.path.join(ORIG, rel)
		if not os.path.exists(src):
			src = os.path.join(TREE, rel)
		pristine[rel] = open(src).read()
		dst = os.path.join(work, rel)
		os.makedirs(os.path.dirname(dst), exist_ok=True)
		with open(dst, 'w') as f:
			f.write(pristine[rel])
	git(work, 'add', '-A')
	git(work, 'commit', '-q', '-m', 'pristine linux-source-6.12 files the series edits',
	    env=env)
	base = git(work, 'rev-parse', 'HEAD').strip()

	plan = assign(owned_files())
	current = dict(pristine)
	present = set()
	built = set()
	held = set()
	final_mk = open(os.path.join(ROOT, 'net/quic/Makefile')).read()
	final_tmk = open(os.path.join(ROOT, 'net/quic/tests/Makefile')).read()
	final_kc = open(os.path.join(ROOT, 'net/quic/Kconfig')).read()
	for p, files in plan:
		for name in p.get('edits', []):
			rel = EDIT_FILES[name]
			new = edit(name, current[rel])
			if new == current[rel]:
				raise SystemExit(f'series: edit {name} no longer applies to {rel}')
			current[rel] = new
			with open(os.path.join(work, rel), 'w') as f:
				f.write(new)
		for rel in files:
			dst = os.path.join(work, rel)
			os.makedirs(os.path.dirname(dst), exist_ok=True)
			shutil.copy2(os.path.join(ROOT, rel), dst)
			present.add(rel)
		objs = {os.path.basename(f)[:-2] + '.o' for f in files
			if f.startswith('net/quic/') and f.endswith('.c')}
		if p.get('build') == 'with-later':
			held |= objs
		else:
			built |= objs | held
			held = set()
		if 'net/quic/Makefile' in present:
			tests = 'net/quic/tests/Makefile' in present
			with open(os.path.join(work, 'net/quic/Makefile'), 'w') as f:
				f.write(makefile_at(final_mk, built, tests))
			with open(os.path.join(work, 'net/quic/Kconfig'), 'w') as f:
				f.write(kconfig_at(final_kc, 'net/quic/sample.c' in present))
		if 'net/quic/tests/Makefile' in present:
			with open(os.path.join(work, 'net/quic/tests/Makefile'), 'w') as f:
				f.write(makefile_at(final_tmk, built, False))
		git(work, 'add', '-A')
		body = p['body'].rstrip()
		if p['hoisted']:
			body += ('\n\nThe headers these files include come with them, ahead of their code: ' +
				 ', '.join(os.path.basename(h) for h in p['hoisted']) + '.')
			body = wrap(body)
		msg = p['subject'] + '\n' + body + '\n\nSigned-off-by: ' + AUTHOR + '\n'
		subprocess.run(['git', '-C', work, 'commit', '-q', '-F', '-'], input=msg, text=True,
			       check=True, env=env, capture_output=True)
	# What the series ends with is what the tree is.
	for rel, text in current.items():
		glued = open(os.path.join(TREE, rel)).read()
		if rel != EDIT_FILES['doc-index'] and text != glued:
			raise SystemExit(f'series: its edits of {rel} differ from prepare-tree.sh\'s')
	for rel in ('net/quic/Makefile', 'net/quic/tests/Makefile', 'net/quic/Kconfig'):
		if open(os.path.join(work, rel)).read() != open(os.path.join(ROOT, rel)).read():
			raise SystemExit(f'series: {rel} at the end differs from ours')

	n = len(plan)
	subprocess.run(['git', '-C', work, 'format-patch', '-q', '--cover-letter', '--no-signature',
			'--subject-prefix=PATCH net-next', '-o', out, f'{base}..HEAD'], check=True,
		       env=env)
	write_cover(out, n, plan)
	return work, base, n, plan


def write_cover(out, n, plan):
	cover = [f for f in os.listdir(out) if f.startswith('0000-')][0]
	path = os.path.join(out, cover)
	text = open(path).read()
	# The first table of the latest whole-matrix section of the benchmark.
	perf = '(no figures: docs/performance.md has no "whole matrix" section)'
	perf_md = os.path.join(ROOT, 'docs', 'performance.md')
	if os.path.exists(perf_md):
		sections = re.split(r'(?m)^### ', open(perf_md).read())
		whole = [x for x in sections if x.startswith('The whole matrix')]
		if whole:
			title = whole[-1].splitlines()[0]
			rows = []
			for line in whole[-1].splitlines()[1:]:
				if line.startswith('|'):
					rows.append(line)
				elif rows:
					break
			perf = title + ', median of 3 runs (Mbit/s unless said):\n\n' + '\n'.join(rows)
	suites = 0
	for f in os.listdir(os.path.join(ROOT, 'net', 'quic', 'tests')):
		if f.endswith('_kunit.c'):
			suites += len(re.findall(r'^static struct kunit_suite ',
						 open(os.path.join(ROOT, 'net', 'quic', 'tests', f)).read(),
						 re.M))
	progs = len(subprocess.run(['make', '-s', '-C',
				    os.path.join(ROOT, 'tools', 'testing', 'selftests', 'net', 'quic'),
				    'list'], capture_output=True, text=True).stdout.split())
	rows = [('tests', 'x86_64', 'arm64'),
		(f'KUnit ({suites} suites)', 'QEMU, KASAN+UBSAN+lockdep', 'QEMU'),
		(f'booted tests ({progs} programs)', 'the same, and kmemleak', 'QEMU'),
		('interop, ngtcp2 0.12', 'guest against the host', '-'),
		("booted tests, Debian's 6.12", 'stock kernel, QUIC module', 'the same, cross-built'),
		('this series', 'git am, build per patch', '-')]
	matrix = '\n'.join('  ' + a.ljust(30) + b.ljust(27) + c for a, b, c in rows)
	blurb = f'''This series adds QUIC (RFC 9000, 9001, 9002, with RFC 9221 datagrams, RFC
9287 greasing, RFC 9368 compatible version negotiation and RFC 9369 QUIC
v2) as a kernel transport:

  socket(AF_INET or AF_INET6, SOCK_STREAM or SOCK_DGRAM, IPPROTO_QUIC)

The TLS 1.3 handshake messages are made in userspace (libquic, tools/lib/
quic, over GnuTLS) or, for kernel users, by an agent reached through
net/handshake; they travel through sendmsg() and recvmsg(), and the
secrets come back through SOL_QUIC socket options. Everything else runs
in the kernel: packets, frames, streams, flow control, loss recovery and
congestion control, packet protection, path validation, migration and
PLPMTUD.

The code is layered, calls going down only: the socket interface
(socket.c, sockmsg.c, protocol.c), the connection layer (connection.c,
receive.c, close.c, migrate.c, ...), the engine (transmit.c), and the
components, each named for its RFC concept with its own KUnit suite
(frame.c, packet.c, crypto.c, cong.c, stream.c, ...). The series adds
the components first, each patch calling only what earlier ones added,
so every prefix builds; the connection layer's files call each other
and come in three patches built together from the third.

Tests: {sum(1 for _, fs in plan if any(f.endswith('_kunit.c') for f in fs))} patches carry KUnit suites (the RFC's vectors, and live
connections between two kernel sockets: loss patterns explored from
seeds, hostile peers, receive-path fuzzing); the selftests boot a kernel
in QEMU and check the socket interface against
draft-lxin-quic-socket-apis, handshakes, bad networks, a concurrent
system call fuzzer, the kernel consumer (the sample module), and interop
with ngtcp2 in both roles. Where each runs:

{matrix}

Throughput against TCP, kTLS and ngtcp2 (docs/performance.md of the tree
this series comes from; User-mode Linux, one host, two cores):

{perf}

Patches:
''' + ''.join(f'  {i + 1:2d}. {p["subject"]}\n' for i, (p, _) in enumerate(plan))
	text = text.replace('*** SUBJECT HERE ***', 'net: introduce QUIC, a native kernel transport')
	text = text.replace('*** BLURB HERE ***', blurb)
	with open(path, 'w') as f:
		f.write(text)


def checkpatch(out, plan):
	"""checkpatch.pl --strict on each patch; returns the kernel patches it
	found something in (findings in tools/ are listed, not counted)."""
	bad = []
	names = sorted(n for n in os.listdir(out) if n.endswith('.patch') and
		       not n.startswith('0000-'))
	for name, (p, files) in zip(names, plan):
		ignore = ['FILE_PATH_CHANGES'] + p.get('checkpatch_ignore', [])
		proc = subprocess.run([os.path.join(TREE, 'scripts', 'checkpatch.pl'), '--strict',
				       '--no-tree', '--terse', '--max-line-length=100', '--show-types',
				       '--ignore', ','.join(ignore), os.path.join(out, name)],
				      capture_output=True, text=True)
		lines = [l.replace(os.path.join(out, name) + ':', '')
			 for l in proc.stdout.splitlines() if not l.startswith('total:')]
		userspace = all(f.startswith('tools/') for f in files)
		if not lines:
			print(f'ok - checkpatch --strict {name}')
		elif userspace:
			print(f'ok - checkpatch --strict {name} # userspace: {len(lines)} '
			      'findings listed, not counted')
		else:
			print(f'not ok - checkpatch --strict {name}')
			bad.append(name)
		for l in lines[:10]:
			print('#   ' + l)
	return bad


def main():
	ap = argparse.ArgumentParser(description='Write our sources as a patch series.')
	ap.add_argument('--out', default=os.path.join(ROOT, '.build', 'series', 'patches'))
	ap.add_argument('--check', action='store_true',
			help='checkpatch each patch, then apply and build it patch by patch')
	args = ap.parse_args()
	subprocess.run([os.path.join(ROOT, 'scripts', 'prepare-tree.sh')], check=True)
	work, base, n, plan = build_series(os.path.abspath(args.out))
	print(f'series: {n} patches and a cover letter in {os.path.relpath(args.out, ROOT)}/')
	if not args.check:
		return 0
	bad = checkpatch(args.out, plan)
	rc = subprocess.run([os.path.join(ROOT, 'scripts', 'series-check.sh'), args.out]).returncode
	return 1 if bad or rc else 0


if __name__ == '__main__':
	sys.exit(main())
