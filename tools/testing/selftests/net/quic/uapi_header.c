// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * include/uapi/linux/quic.h compiled standalone in userspace, as C and as
 * C++ with -Wall -Wextra -Werror, by the host side of `make selftest`
 * (never run, only compiled). The sizes are the ones net/quic/socket.c pins
 * on the kernel side: userspace must see the same layout on every arch.
 */

#include <linux/quic.h>

#ifdef __cplusplus
#define QUIC_ASSERT_SIZE(type, size)	static_assert(sizeof(type) == (size), #type)
#else
#define QUIC_ASSERT_SIZE(type, size)	_Static_assert(sizeof(type) == (size), #type)
#endif

QUIC_ASSERT_SIZE(struct quic_handshake_info, 1);
QUIC_ASSERT_SIZE(struct quic_stream_info, 16);
QUIC_ASSERT_SIZE(struct quic_transport_param, 64);
QUIC_ASSERT_SIZE(struct quic_config, 24);
QUIC_ASSERT_SIZE(struct quic_crypto_secret, 56);
QUIC_ASSERT_SIZE(struct quic_errinfo, 16);
QUIC_ASSERT_SIZE(struct quic_connection_id_info, 12);
QUIC_ASSERT_SIZE(struct quic_event_option, 2);
QUIC_ASSERT_SIZE(struct quic_stream_update, 24);
QUIC_ASSERT_SIZE(struct quic_stream_max_data, 16);
QUIC_ASSERT_SIZE(struct quic_connection_close, 8);
QUIC_ASSERT_SIZE(union quic_event, 24);

int main(void)
{
	struct quic_event_option ev = { QUIC_EVENT_STREAM_UPDATE, 1 };

	return ev.on == 1 && QUIC_SOCKOPT_TRANSPORT_PARAM_EXT == 14 ? 0 : 1;
}
