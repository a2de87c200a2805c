/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing packets as the server of a live connection: see rx_util.c.
 */

#ifndef __net_quic_tests_rx_util_h__
#define __net_quic_tests_rx_util_h__

#include <kunit/test.h>

#include "../common.h"
#include "conn_util.h"

struct quic_crypto;
struct proto;

/* Room for a packet of the largest payload the suites write. */
#define RX_PAYLOAD_MAX		1200
#define RX_PKT_MAX		(RX_PAYLOAD_MAX + 64)

/**
 * struct rx_conn - a connection one end of which takes packets the suite writes
 * @test: the case
 * @c: addresses, version and cipher
 * @port: the listener's port
 * @p: the connection
 * @sk: the receiver under test: the client's socket (the server's after
 *	rx_conn_open_server() or rx_conn_accept())
 * @tx: the peer's send keys, derived again from the test secret
 * @pn: next packet number the suite sends as the peer
 * @pkt: packet under construction (kmalloc'ed: it goes to a scatterlist)
 * @dcid: the connection ID of @sk's the packets carry
 * @scid: the Source Connection ID of the suite's long header packets
 * @conns: connections opened
 * @max_datagram: both ends' max_datagram_frame_size for the next
 *	rx_conn_open() (0: no DATAGRAM frames)
 *
 * rx_conn_connect() and rx_conn_accept() leave a connection in its
 * handshake instead: @sk takes Initial packets protected with @tx from
 * @scid to @dcid (rx_conn_send_initial()).
 */
struct rx_conn {
	struct kunit *test;
	const struct conn_case *c;
	u16 port;
	struct conn_pair p;
	struct sock *sk;
	struct quic_crypto *tx;
	s64 pn;
	u8 *pkt;
	struct quic_conn_id dcid;
	struct quic_conn_id scid;
	u32 conns;
	u16 max_datagram;
};

/**
 * struct rx_buf - a payload under construction, one frame after another
 * @data: the bytes
 * @len: how many are written; writes past @data stop at its end
 */
struct rx_buf {
	u8 data[RX_PAYLOAD_MAX];
	u32 len;
};

void rx_buf_var(struct rx_buf *b, u64 v);
void rx_buf_bytes(struct rx_buf *b, const void *src, u32 n);
void rx_buf_fill(struct rx_buf *b, u8 c, u32 n);

void rx_conn_setup(struct kunit *test, struct rx_conn *rc, const struct conn_case *c, u16 port);
void rx_conn_open(struct rx_conn *rc);
void rx_conn_open_server(struct rx_conn *rc);
void rx_conn_early_keys(struct rx_conn *rc);
void rx_conn_connect(struct rx_conn *rc);
void rx_conn_accept(struct rx_conn *rc);
void rx_conn_close(struct rx_conn *rc);
void rx_conn_pick_dcid(struct rx_conn *rc);
u8 rx_conn_min_pn_len(struct rx_conn *rc);
u32 rx_conn_protect(struct rx_conn *rc, const u8 *payload, u32 len, u8 first, u8 pn_len);
u32 rx_conn_protect_long(struct rx_conn *rc, u8 type, const u8 *token, u32 token_len,
			 const u8 *payload, u32 len, u32 size);
void rx_conn_inject(struct rx_conn *rc, const u8 *data, u32 len);
void rx_conn_send(struct rx_conn *rc, const u8 *payload, u32 len);
void rx_conn_send_initial(struct rx_conn *rc, const u8 *token, u32 token_len,
			  const u8 *payload, u32 len, u32 size);
void rx_sock_inject(struct kunit *test, struct sock *sk, const u8 *data, u32 len);
bool rx_conn_closed(struct rx_conn *rc, u64 *code);
long rx_memory_charged(const struct proto *prot);
void rx_expect_released(struct kunit *test, const struct proto *prot, s64 socks_before,
			long mem_before);
u32 rx_conn_sent(void);

#endif /* __net_quic_tests_rx_util_h__ */
