// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The socket calls the library makes, behind one table (struct quic_kops)
 * so that host tests can replace the kernel with an in-process fake.
 */

#include <sys/socket.h>

#include "internal.h"

static const struct quic_kops sys_kops = {
	.setsockopt	= setsockopt,
	.getsockopt	= getsockopt,
	.sendmsg	= sendmsg,
	.recvmsg	= recvmsg,
	.shutdown	= shutdown,
	.poll		= poll,
};

const struct quic_kops *quic_kops = &sys_kops;

/* Use @ops for every socket call from now on; NULL restores the kernel. */
void quic_kops_set(const struct quic_kops *ops)
{
	quic_kops = ops ? ops : &sys_kops;
}
