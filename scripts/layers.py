#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The layering check of net/quic: reads the built objects and fails when a
# file calls a function of a layer above its own, or when files of one layer
# call each other in a circle. The layers are in scripts/quic-layers.conf.
#
#   scripts/layers.py [OBJDIR]     (default: .build/check-x86_64/net/quic)
#   scripts/layers.py -v [OBJDIR]  also lists every call between two files
#
# What counts as a call: a relocation against a global function of another
# object of ours, made from code (.text*). A reference from data (.data*,
# .rodata*) installs the function in an ops table (struct proto, timer or
# queue callbacks); upward ones are accepted only when the table names them
# in an "allow" line, so that each one is seen and justified. Static inline
# helpers of the headers leave no symbol and do not count.

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONF = os.path.join(ROOT, 'scripts', 'quic-layers.conf')


def read_conf():
	layers, rank, allow = [], {}, {}
	with open(CONF) as f:
		for raw in f:
			line = raw.split('#', 1)[0].strip()
			if not line:
				continue
			key, _, rest = line.partition(':')
			words = rest.split()
			if key == 'allow':
				allow[(words[0], words[1])] = raw.split('#', 1)[-1].strip()
				continue
			layers.append(key)
			for w in words:
				rank[w] = len(layers) - 1
	return layers, rank, allow


def symbols(obj):
	"""Global functions defined in @obj."""
	out = subprocess.run(['readelf', '-sW', obj], stdout=subprocess.PIPE, text=True,
			     check=True).stdout
	defs = set()
	for line in out.splitlines():
		f = line.split()
		if len(f) >= 8 and f[3] == 'FUNC' and f[4] == 'GLOBAL' and f[6] != 'UND':
			defs.add(f[7])
	return defs


def references(obj):
	"""(symbol, kind) pairs that @obj refers to; kind is 'call' or 'table'."""
	out = subprocess.run(['readelf', '-rW', obj], stdout=subprocess.PIPE, text=True,
			     check=True).stdout
	refs, kind = set(), None
	for line in out.splitlines():
		m = re.match(r"Relocation section '\.rela(\S+)'", line)
		if m:
			sec = m.group(1)
			if sec.startswith('.text') or sec.startswith('.init.text') or \
			   sec.startswith('.exit.text') or sec.startswith('.noinstr'):
				kind = 'call'
			elif sec.startswith('.data') or sec.startswith('.rodata'):
				kind = 'table'
			else:
				kind = None
			continue
		f = line.split()
		if kind and len(f) >= 5 and re.match(r'^[0-9a-f]+$', f[0]):
			refs.add((re.sub(r'[+-].*', '', f[4]), kind))
	return refs


def circles(edges, files):
	"""The groups of @files that reach each other through @edges (Tarjan)."""
	index, low, stack, on, groups = {}, {}, [], set(), []

	def visit(n):
		index[n] = low[n] = len(index)
		stack.append(n)
		on.add(n)
		for m in sorted(edges.get(n, {})):
			if m not in files:
				continue
			if m not in index:
				visit(m)
				low[n] = min(low[n], low[m])
			elif m in on:
				low[n] = min(low[n], index[m])
		if low[n] == index[n]:
			group = []
			while True:
				m = stack.pop()
				on.discard(m)
				group.append(m)
				if m == n:
					break
			if len(group) > 1:
				groups.append(sorted(group))

	for n in sorted(files):
		if n not in index:
			visit(n)
	return groups


def main(argv):
	verbose = '-v' in argv
	argv = [a for a in argv if a != '-v']
	objdir = argv[0] if argv else os.path.join(ROOT, '.build', 'check-x86_64', 'net', 'quic')
	layers, rank, allow = read_conf()
	srcs = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, 'net', 'quic'))
		      if f.endswith('.c') and f != 'sample.c')
	bad = []
	for s in srcs:
		if s not in rank:
			bad.append(f'{s}.c: in no layer of {os.path.relpath(CONF, ROOT)}')
	owner = {}
	for s in srcs:
		obj = os.path.join(objdir, s + '.o')
		if not os.path.exists(obj):
			bad.append(f'{s}.o: not built in {objdir}')
			continue
		for sym in symbols(obj):
			owner[sym] = s
	edges, used_allow = {}, set()
	for s in srcs:
		obj = os.path.join(objdir, s + '.o')
		if s not in rank or not os.path.exists(obj):
			continue
		for sym, kind in sorted(references(obj)):
			t = owner.get(sym)
			if not t or t == s or t not in rank:
				continue
			if verbose:
				print(f'{s} -> {t} {sym} ({kind})')
			if rank[t] < rank[s]:
				where = f'{s}.c -> {t}.c: {sym}() ({layers[rank[s]]} -> {layers[rank[t]]})'
				if kind == 'table' and (s, sym) in allow:
					used_allow.add((s, sym))
				elif kind == 'table':
					bad.append(f'{where}: installed in a table without an allow line')
				else:
					bad.append(f'{where}: upward call')
			elif kind == 'call':
				edges.setdefault(s, {}).setdefault(t, set()).add(sym)
	for key in sorted(set(allow) - used_allow):
		bad.append(f'allow {key[0]} {key[1]}: no such table reference upward (stale line)')
	for i, name in enumerate(layers):
		files = {s for s in srcs if rank.get(s) == i}
		for group in circles(edges, files):
			calls = [f'{a}.c -> {b}.c: {", ".join(f"{x}()" for x in sorted(edges[a][b]))}'
				 for a in group for b in sorted(edges.get(a, {})) if b in group]
			bad.append(f'{name}: files call each other in a circle: ' + '; '.join(calls))
	for b in bad:
		print(b)
	print(f'layers: {len(bad)} violations in {len(srcs)} files of {len(layers)} layers')
	return 1 if bad else 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
