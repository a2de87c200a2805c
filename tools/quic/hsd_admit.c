// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-handshaked: how many handshakes run at once.
 *
 * Each request the daemon accepts costs a process until its handshake
 * ends, and a kernel server's requests are started by whoever connects
 * to it, so the number running is bounded (max-children). At the bound
 * the daemon simply stops sending HANDSHAKE_CMD_ACCEPT: further requests
 * stay in the kernel's queue, which net/handshake bounds itself (a few
 * dozen per network namespace; beyond that tls_*_hello_*() fails with
 * -EAGAIN at once). Each child ends within its time limit, and when one
 * does the daemon accepts again. A request is thus either started, or
 * waits in a bounded queue, or is refused to its caller, never lost.
 *
 * The loop is here, apart from netlink and fork(), so that the host
 * tests run it against a fake queue (tests/test_hsd.c).
 */

#include <errno.h>

#include "hsd.h"

/**
 * hsd_admit_drain - start pending requests while there is room
 * @a: the admission state
 * @ops: how to accept, start and refuse a request
 * @ctx: passed to @ops
 *
 * Accepts requests until the kernel has none left or @a->max run. A
 * request that cannot be started (malformed, or the child could not be
 * made) is completed at once through @ops->refuse and takes no room.
 * Stopping at the bound sets @a->backlog; finding the kernel's queue
 * empty clears it.
 *
 * Return: 0, or the negative errno of an accept that failed, which
 * stops the loop.
 */
int hsd_admit_drain(struct hsd_admit *a, const struct hsd_admit_ops *ops, void *ctx)
{
	struct hsd_request req;
	int ret;

	for (;;) {
		if (a->running >= a->max) {
			a->backlog = true;
			return 0;
		}
		ret = ops->accept(ctx, &req);
		if (ret == -EAGAIN) {
			a->backlog = false;
			return 0;
		}
		if (ret && req.fd >= 0) {
			ops->refuse(ctx, &req, ret);
			continue;
		}
		if (ret)
			return ret;
		ret = ops->start(ctx, &req);
		if (ret) {
			ops->refuse(ctx, &req, ret);
			continue;
		}
		a->running++;
	}
}

/**
 * hsd_admit_ended - account for children that ended
 * @a: the admission state
 * @n: how many ended
 *
 * Return: true when requests may be waiting in the kernel for the room
 * that just freed up, so that hsd_admit_drain() is to run now.
 */
bool hsd_admit_ended(struct hsd_admit *a, unsigned int n)
{
	a->running = n < a->running ? a->running - n : 0;
	return n && a->backlog;
}
