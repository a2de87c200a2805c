/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by the QUIC selftests: files under /proc and /sys,
 * module loading and unloading, and /proc/net/protocols.
 */

#ifndef __QUIC_SELFTEST_UTIL_H__
#define __QUIC_SELFTEST_UTIL_H__

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Read a whole (small) file into @buf, NUL-terminated. Returns bytes or -errno. */
ssize_t read_file(const char *path, char *buf, size_t size);
/* Write @str in one write(). Returns 0 or -errno. */
int write_file(const char *path, const char *str);

/* Is the module listed under /sys/module (loaded, or built in)? */
bool module_present(const char *name);
/* "modprobe NAME" through busybox, as the kernel's request_module() does. */
int module_load(const char *name);
/* The file of module @name ("quic_sample") under /lib/modules/<release>/:
 * where a kernel tree installs it (kernel/net/quic/) or where an out-of-tree
 * build or DKMS does (updates/, updates/dkms/, extra/). 0, or -ENOENT.
 */
int module_file(const char *name, char *path, size_t size);
/* delete_module(2), retried while references drain; 0, or -errno. */
int module_unload(const char *name, int timeout_ms);

/* "sockets" column of /proc/net/protocols for @proto, or -1 when absent. */
int proto_sockets(const char *proto);
/* "memory" column (pages charged, all namespaces) for @proto, or -1. */
long proto_pages(const char *proto);
/* The QUIC version QUIC_SOCKOPT_CONFIG reports on @fd, 0 when it cannot. */
uint32_t quic_version_of(int fd);

/* /sys/module/@name/refcnt: the module's reference count, or -1. */
int module_refs(const char *name);

/* CLOCK_MONOTONIC in milliseconds. */
long long mono_ms(void);

/*
 * Polling instead of a fixed sleep: @cond(@arg) is tried at once, then
 * every 10 ms until it holds or @timeout_ms have passed. Returns whether it
 * held at the last try.
 */
bool wait_until(bool (*cond)(void *arg), void *arg, int timeout_ms);

/*
 * Read @read_now() at once, then every 10 ms, until it returns @want or
 * @timeout_ms have passed. Returns the last value read.
 */
int wait_value(int (*read_now)(void), int want, int timeout_ms);

/* Run @argv (NULL-terminated) and wait; returns its exit status or -errno. */
int run_wait(char *const argv[]);

/* Where the test credentials are (/tests/certs unless a test changes it). */
extern const char *cert_dir;
/* @file under cert_dir; the last four results stay valid. */
const char *cert_path(const char *file);
/* SO_RCVTIMEO and SO_SNDTIMEO of @secs seconds on @fd. */
void sock_timeouts(int fd, int secs);

#endif /* __QUIC_SELFTEST_UTIL_H__ */
