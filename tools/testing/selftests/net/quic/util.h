/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by the QUIC selftests: files under /proc and /sys,
 * module loading and unloading, and /proc/net/protocols.
 */

#ifndef __QUIC_SELFTEST_UTIL_H__
#define __QUIC_SELFTEST_UTIL_H__

#include <stdbool.h>
#include <sys/types.h>

/* Read a whole (small) file into @buf, NUL-terminated. Returns bytes or -errno. */
ssize_t read_file(const char *path, char *buf, size_t size);
/* Write @str in one write(). Returns 0 or -errno. */
int write_file(const char *path, const char *str);

/* Is the module listed under /sys/module (loaded, or built in)? */
bool module_present(const char *name);
/* "modprobe NAME" through busybox, as the kernel's request_module() does. */
int module_load(const char *name);
/* delete_module(2), retried while references drain; 0, or -errno. */
int module_unload(const char *name, int timeout_ms);

/* "sockets" column of /proc/net/protocols for @proto, or -1 when absent. */
int proto_sockets(const char *proto);

/* Run @argv (NULL-terminated) and wait; returns its exit status or -errno. */
int run_wait(char *const argv[]);

/* Where the test credentials are (/tests/certs unless a test changes it). */
extern const char *cert_dir;
/* @file under cert_dir; the last four results stay valid. */
const char *cert_path(const char *file);
/* SO_RCVTIMEO and SO_SNDTIMEO of @secs seconds on @fd. */
void sock_timeouts(int fd, int secs);

#endif /* __QUIC_SELFTEST_UTIL_H__ */
