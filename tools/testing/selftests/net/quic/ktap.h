/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KTAP output for the QUIC selftests (Documentation/dev-tools/ktap.rst),
 * with nested subtests, plus the constants that libc does not have yet.
 *
 * A program calls ktap_plan() once with the number of results it will
 * print, one ktap_result()/ktap_skip() per case (or a subtest framed by
 * ktap_subtest_begin()/ktap_subtest_end()), and returns ktap_finish(),
 * which is 0 only when every case passed and the plan was met.
 */

#ifndef __QUIC_SELFTEST_KTAP_H__
#define __QUIC_SELFTEST_KTAP_H__

#include <stdbool.h>
#include <sys/socket.h>
#include <netinet/in.h>

#ifndef IPPROTO_QUIC
#define IPPROTO_QUIC	261
#endif
#ifndef SOL_QUIC
#define SOL_QUIC	288
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

void ktap_plan(unsigned int nr);
void ktap_diag(const char *fmt, ...) __printf(1, 2);
bool ktap_result(bool ok, const char *fmt, ...) __printf(2, 3);
void ktap_skip(const char *reason, const char *fmt, ...) __printf(2, 3);
void ktap_subtest_begin(const char *name);
bool ktap_subtest_end(const char *name);
int ktap_finish(void);

/*
 * ktap_expect_errno - record one case comparing a system call's outcome
 * @ret: what the call returned
 * @err: errno saved right after the call
 * @want: the errno expected, or 0 when the call must succeed (ret >= 0)
 *
 * Prints "ok"/"not ok" with the formatted name and, on a mismatch, a
 * diagnostic line with what came back. Returns true when it matched.
 */
bool ktap_expect_errno(long ret, int err, int want, const char *fmt, ...) __printf(4, 5);

const char *errno_name(int err);

#endif /* __QUIC_SELFTEST_KTAP_H__ */
