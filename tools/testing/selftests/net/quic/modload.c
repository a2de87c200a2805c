// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Load and unload the quic module 50 times with sockets created in between.
 * After every unload /proc/net/protocols and the set of slab caches must be
 * back to their baseline (the kernel boots with slab_nomerge, so QUIC's
 * caches are listed under their own names), and at the end kmemleak, where
 * the kernel has it, must find nothing new.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/quic.h>

#include "ktap.h"
#include "util.h"

#define CYCLES		50
#define SOCKS_PER_KIND	4
#define LIST_SIZE	65536
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

struct counts {
	unsigned int loaded, counted, released, unloaded, protocols, caches_seen, caches;
};

/* First column of every line after the header; blank-separated, sorted by the kernel. */
static int names(const char *path, int skip, char *out, size_t size)
{
	char *buf, *line, *save = NULL;
	size_t len = 0;
	char name[64];
	int n;

	buf = malloc(LIST_SIZE);
	if (!buf)
		return -ENOMEM;
	n = read_file(path, buf, LIST_SIZE);
	if (n < 0) {
		free(buf);
		return n;
	}
	out[0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (skip) {
			skip--;
			continue;
		}
		if (sscanf(line, "%63s", name) == 1 && len + strlen(name) + 2 < size)
			len += snprintf(out + len, size - len, "%s ", name);
	}
	free(buf);
	return 0;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && p[n] == ' ')
			return true;
		p += n;
	}
	return false;
}

/* Open sockets of every kind, give each some option state, close them. */
static bool use_sockets(void)
{
	static const int fam[] = { AF_INET, AF_INET6 };
	static const int type[] = { SOCK_STREAM, SOCK_DGRAM };
	int fds[2][2][SOCKS_PER_KIND];
	int f, t, i, in_use = 0;
	bool ok = true;

	for (f = 0; f < 2; f++)
		for (t = 0; t < 2; t++)
			for (i = 0; i < SOCKS_PER_KIND; i++) {
				fds[f][t][i] = socket(fam[f], type[t], IPPROTO_QUIC);
				if (fds[f][t][i] < 0) {
					ok = false;
					continue;
				}
				in_use++;
				setsockopt(fds[f][t][i], SOL_QUIC, QUIC_SOCKOPT_ALPN, "h3,hq", 5);
				setsockopt(fds[f][t][i], SOL_QUIC, QUIC_SOCKOPT_TOKEN, "token", 5);
			}
	if (proto_sockets("QUIC") + proto_sockets("QUICv6") != in_use)
		ok = false;
	for (f = 0; f < 2; f++)
		for (t = 0; t < 2; t++)
			for (i = 0; i < SOCKS_PER_KIND; i++)
				if (fds[f][t][i] >= 0)
					close(fds[f][t][i]);
	return ok && in_use == 2 * 2 * SOCKS_PER_KIND;
}

static void cycle(struct counts *c, const char *proto0, const char *slab0, char *now,
		  size_t size, int round)
{
	int err;

	err = module_load("quic");
	if (err || !module_present("quic")) {
		ktap_diag("round %d: modprobe quic: %s", round, strerror(-err));
		return;
	}
	c->loaded++;
	if (!names("/proc/slabinfo", 2, now, size) && has_word(now, "QUIC") &&
	    has_word(now, "QUICv6"))
		c->caches_seen++;
	if (use_sockets())
		c->counted++;
	else
		ktap_diag("round %d: sockets not all created or counted", round);
	if (!proto_sockets("QUIC") && !proto_sockets("QUICv6"))
		c->released++;

	err = module_unload("quic", 5000);
	if (err) {
		ktap_diag("round %d: delete_module(quic): %s", round, strerror(-err));
		return;
	}
	if (!module_present("quic"))
		c->unloaded++;
	if (!names("/proc/net/protocols", 1, now, size) && !strcmp(now, proto0))
		c->protocols++;
	else
		ktap_diag("round %d: /proc/net/protocols: %s", round, now);
	if (!names("/proc/slabinfo", 2, now, size) && !strcmp(now, slab0))
		c->caches++;
	else
		ktap_diag("round %d: slab caches now: %s", round, now);
}

/* kmemleak never reports an object younger than this (MSECS_MIN_AGE). */
#define KMEMLEAK_MIN_AGE_MS	5000
#define KMEMLEAK_SCANS		5

static bool aged(void *p)
{
	return mono_ms() >= *(long long *)p + KMEMLEAK_MIN_AGE_MS;
}

/* One scan, then the number of objects reported unreferenced, or -1. */
static int kmemleak_scan(char *buf, bool show)
{
	char *line, *save = NULL;
	int leaks = 0;

	if (write_file(KMEMLEAK, "scan") || read_file(KMEMLEAK, buf, LIST_SIZE) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "unreferenced object"))
			leaks++;
		if (show && leaks && leaks <= 3)
			ktap_diag("%s", line);
	}
	return leaks;
}

/*
 * Leak reports about objects allocated since "clear", printed as
 * diagnostics. @last_ms: when the last cycle ended.
 */
static void check_kmemleak(bool ready, long long last_ms)
{
	int i, prev = -1, leaks = -1;
	char *buf;

	if (!ready) {
		ktap_skip("kmemleak absent or disabled", "kmemleak finds no leak");
		return;
	}
	/* Until the last cycle's objects are old enough to be reported. */
	wait_until(aged, &last_ms, KMEMLEAK_MIN_AGE_MS + 1000);
	/*
	 * kmemleak reports an object only once a scan found it unchanged
	 * since the one before: scan until two scans in a row agree.
	 */
	buf = malloc(LIST_SIZE);
	for (i = 0; buf && i < KMEMLEAK_SCANS; i++) {
		leaks = kmemleak_scan(buf, false);
		if (leaks < 0 || (i && leaks == prev))
			break;
		prev = leaks;
	}
	if (leaks > 0)
		kmemleak_scan(buf, true);
	free(buf);
	ktap_result(leaks == 0, "kmemleak finds no leak (%d reported)", leaks);
}

int main(void)
{
	char *proto0, *slab0, *now;
	struct counts c = {};
	long long last_ms;
	bool kmemleak;
	int err, i;

	ktap_plan(8);
	proto0 = malloc(LIST_SIZE);
	slab0 = malloc(LIST_SIZE);
	now = malloc(LIST_SIZE);
	if (!proto0 || !slab0 || !now)
		return 1;

	/*
	 * One warm-up cycle first: modules quic depends on stay loaded after
	 * it leaves, and belong in the baseline.
	 */
	err = module_load("quic");
	if (!err)
		use_sockets();
	err = module_unload("quic", 5000);
	if (err)
		ktap_diag("warm-up delete_module(quic): %s", strerror(-err));
	ktap_result(!err && !module_present("quic") &&
		    !names("/proc/net/protocols", 1, proto0, LIST_SIZE) &&
		    !names("/proc/slabinfo", 2, slab0, LIST_SIZE),
		    "baseline taken with quic unloaded after a warm-up cycle");
	ktap_diag("baseline protocols: %s", proto0);

	/*
	 * Forget what boot left behind so that only our cycles get reported.
	 * Writes fail when kmemleak is disabled (kmemleak=off).
	 */
	kmemleak = !write_file(KMEMLEAK, "scan") && !write_file(KMEMLEAK, "clear");

	for (i = 1; i <= CYCLES; i++)
		cycle(&c, proto0, slab0, now, LIST_SIZE, i);
	last_ms = mono_ms();

	ktap_result(c.loaded == CYCLES, "modprobe quic succeeds %u/%d times", c.loaded, CYCLES);
	ktap_result(c.caches_seen == CYCLES, "slab caches QUIC and QUICv6 exist while loaded");
	ktap_result(c.counted == CYCLES,
		    "%d sockets per cycle are created and counted in /proc/net/protocols",
		    4 * SOCKS_PER_KIND);
	ktap_result(c.released == CYCLES, "closed sockets leave the protocol counters at zero");
	ktap_result(c.unloaded == CYCLES, "delete_module succeeds %u/%d times", c.unloaded,
		    CYCLES);
	ktap_result(c.protocols == CYCLES && c.caches == CYCLES,
		    "/proc/net/protocols and slab caches back to baseline after every unload");
	check_kmemleak(kmemleak, last_ms);

	free(proto0);
	free(slab0);
	free(now);
	return ktap_finish();
}
