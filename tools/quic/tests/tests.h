/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host test suites of tools/quic, run by tests/main.c. */

#ifndef __QUIC_TOOLS_TESTS_H__
#define __QUIC_TOOLS_TESTS_H__

#include <stdbool.h>

void result(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int test_url_count(void);
void test_url(void);
int test_proto_count(void);
void test_proto(const char *scratch);
int test_hsd_count(void);
void test_hsd(void);

#endif /* __QUIC_TOOLS_TESTS_H__ */
