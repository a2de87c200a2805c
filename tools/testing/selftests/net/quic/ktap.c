// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KTAP output for the QUIC selftests. Each nesting level indents by four
 * spaces; a level remembers its plan and how many results it printed so
 * that a short or long run is reported instead of silently accepted.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"

#define KTAP_MAX_DEPTH	4

struct ktap_level {
	unsigned int planned;
	unsigned int printed;
	unsigned int failed;
	bool has_plan;
};

static struct ktap_level levels[KTAP_MAX_DEPTH];
static int depth;

static void indent(void)
{
	int i;

	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

static void vline(const char *prefix, const char *fmt, va_list ap)
{
	indent();
	fputs(prefix, stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void ktap_plan(unsigned int nr)
{
	struct ktap_level *l = &levels[depth];

	if (!depth)
		setvbuf(stdout, NULL, _IOLBF, 0);
	indent();
	printf("KTAP version 1\n");
	indent();
	printf("1..%u\n", nr);
	fflush(stdout);
	l->planned = nr;
	l->has_plan = true;
}

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("# ", fmt, ap);
	va_end(ap);
}

static void vresult(const char *status, const char *directive, const char *fmt, va_list ap)
{
	struct ktap_level *l = &levels[depth];

	indent();
	printf("%s %u ", status, ++l->printed);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	fputc('\n', stdout);
	fflush(stdout);
}

bool ktap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(ok ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!ok)
		levels[depth].failed++;
	return ok;
}

void ktap_skip(const char *reason, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", reason);
	va_start(ap, fmt);
	vresult("ok", directive, fmt, ap);
	va_end(ap);
}

void ktap_subtest_begin(const char *name)
{
	if (depth + 1 >= KTAP_MAX_DEPTH) {
		fprintf(stderr, "ktap: subtests nested too deep\n");
		exit(2);
	}
	indent();
	printf("# Subtest: %s\n", name);
	depth++;
	memset(&levels[depth], 0, sizeof(levels[depth]));
}

/* A level passes when its plan was printed and met and nothing failed. */
static bool level_ok(const struct ktap_level *l)
{
	if (!l->has_plan) {
		ktap_diag("no plan printed");
		return false;
	}
	if (l->printed != l->planned) {
		ktap_diag("planned %u results, printed %u", l->planned, l->printed);
		return false;
	}
	return !l->failed;
}

bool ktap_subtest_end(const char *name)
{
	bool ok = level_ok(&levels[depth]);

	depth--;
	return ktap_result(ok, "%s", name);
}

int ktap_finish(void)
{
	struct ktap_level *l = &levels[0];

	while (depth)
		ktap_subtest_end("unterminated subtest");
	ktap_diag("totals: %u results, %u failed", l->printed, l->failed);
	return level_ok(l) ? 0 : 1;
}

const char *errno_name(int err)
{
	const char *name;

	if (!err)
		return "success";
	name = strerrorname_np(err);
	return name ? name : "unknown errno";
}

bool ktap_expect_errno(long ret, int err, int want, const char *fmt, ...)
{
	va_list ap;
	bool ok;

	if (want)
		ok = ret == -1 && err == want;
	else
		ok = ret >= 0;
	if (!ok) {
		if (ret >= 0)
			ktap_diag("returned %ld, expected %s", ret, errno_name(want));
		else
			ktap_diag("failed with %s, expected %s", errno_name(err), errno_name(want));
	}
	va_start(ap, fmt);
	vresult(ok ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!ok)
		levels[depth].failed++;
	return ok;
}
