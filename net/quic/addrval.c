// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Address validation (RFC 9000 Section 8.1): Retry packets and tokens.
 *
 * A server whose listener sets validate_peer_address (QUIC_SOCKOPT_CONFIG)
 * answers a client's first Initial without a valid token with a Retry
 * (Section 17.2.5) carrying a token that binds the client's address and
 * the Destination Connection ID it chose; the client's next Initial brings
 * the token back, which proves the address, and the connection is set up
 * with that ID as original_destination_connection_id and the Retry's
 * Source Connection ID as retry_source_connection_id (Section 7.3). After
 * the handshake the server sends a NEW_TOKEN (Section 8.1.3) that a later
 * connection from the same address presents to skip the Retry and the
 * amplification limit.
 *
 * The token format and its MAC are crypto.c's; the key is drawn at module
 * load, so tokens do not outlive the module. Retry integrity tags need the
 * per-version Retry key of RFC 9001 Section 5.8: a transform per version is
 * set up at module load, as the receive path cannot allocate one.
 *
 * A client takes at most one Retry, before any Initial of the server, with
 * a valid integrity tag; its Initial keys must be derived again for the new
 * Destination Connection ID, which may sleep, so the rest is done by a work
 * item (quic_addrval_retry_work()).
 */

#include <crypto/utils.h>
#include <linux/random.h>
#include <net/sock.h>

#include "addrval.h"
#include "close.h"
#include "connection.h"
#include "crypto.h"
#include "packet.h"
#include "receive.h"
#include "request.h"
#include "socket.h"
#include "token.h"
#include "transmit.h"
#include "version.h"

/* Token lifetimes, seconds: a Retry token is used at once (Section 8.1.2). */
#define QUIC_RETRY_TOKEN_LIFETIME	10
#define QUIC_NEW_TOKEN_LIFETIME		(24 * 3600)

static struct quic_crypto quic_addrval_retry[2];	/* v1, v2 */

static struct quic_crypto *quic_addrval_retry_crypto(u32 version)
{
	if (version == QUIC_VERSION_V1)
		return &quic_addrval_retry[0];
	if (version == QUIC_VERSION_V2)
		return &quic_addrval_retry[1];
	return NULL;
}

/**
 * quic_addrval_net_init - key the MAC of a namespace's address tokens
 * @net: the namespace
 *
 * Each namespace has its own key: a token one namespace's listener issued
 * is refused by another's.
 *
 * Context: pernet init (process context).
 * Return: 0 or a negative errno from the crypto API.
 */
int quic_addrval_net_init(struct net *net)
{
	return quic_crypto_mac_init_random(&quic_net(net)->token_mac);
}

/**
 * quic_addrval_net_exit - free the MAC of a namespace's address tokens
 * @net: the namespace
 */
void quic_addrval_net_exit(struct net *net)
{
	quic_crypto_mac_free(&quic_net(net)->token_mac);
}

/**
 * quic_addrval_init - set up the Retry transforms
 *
 * Context: module init (process context).
 * Return: 0 or a negative errno.
 */
int quic_addrval_init(void)
{
	struct quic_conn_id any = { .len = 8 };
	int err;

	/* Only the Retry transform of these Initial states is used. */
	err = quic_crypto_initial_keys_install(&quic_addrval_retry[0], &any, QUIC_VERSION_V1,
					       true);
	if (!err)
		err = quic_crypto_initial_keys_install(&quic_addrval_retry[1], &any,
						       QUIC_VERSION_V2, true);
	if (err)
		quic_addrval_exit();
	return err;
}

/**
 * quic_addrval_exit - free what quic_addrval_init() set up
 */
void quic_addrval_exit(void)
{
	quic_crypto_destroy(&quic_addrval_retry[0]);
	quic_crypto_destroy(&quic_addrval_retry[1]);
}

static u64 quic_addrval_now(void)
{
	return ktime_get_real_seconds();
}

/**
 * quic_addrval_check - validate the token of a client's first Initial
 * @net: the namespace of the listener that received it
 * @addr: the address the Initial came from
 * @token: the token
 * @len: its length
 * @req: out: @req->validated, and for a Retry token @req->retry and
 *	@req->odcid
 *
 * Return: 0 for a valid token, or why it is not (see
 * quic_crypto_token_verify()); the connection then goes on unvalidated.
 */
int quic_addrval_check(struct net *net, const union quic_addr *addr, const u8 *token, u32 len,
		       struct quic_request *req)
{
	struct quic_conn_id odcid = {};
	u8 flags = 0;
	int err;

	err = quic_crypto_token_verify(&quic_net(net)->token_mac, addr, req->version, token, len,
				       quic_addrval_now(), &flags, &odcid);
	if (err)
		return err;
	req->validated = 1;
	if (flags & QUIC_TOKEN_FLAG_RETRY) {
		req->retry = 1;
		req->odcid = odcid;
	}
	return 0;
}

/**
 * quic_addrval_send_retry - answer a client's Initial with a Retry
 * @sk: the listener, owned (softirq)
 * @req: the client's addresses (@req->daddr is the client), the IDs of its
 *	Initial and its version
 *
 * RFC 9000 Section 17.2.5: the Retry goes to the client's Source Connection
 * ID from a new Source Connection ID of ours, which the client's next
 * Initial uses as its Destination; the token binds the client's address
 * and its first Destination Connection ID.
 *
 * Return: 0 when sent, or a negative errno.
 */
int quic_addrval_send_retry(struct sock *sk, const struct quic_request *req)
{
	struct quic_crypto *crypto = quic_addrval_retry_crypto(req->version);
	u8 token[QUIC_ADDR_TOKEN_MAX_LEN], tag[QUIC_TAG_LEN];
	struct quic_packet_hdr hdr = {};
	u32 tokenlen = sizeof(token), headroom, room, left;
	struct sk_buff *skb;
	u8 *p;
	int err;

	sock_owned_by_me(sk);
	if (!crypto)
		return -EINVAL;
	err = quic_crypto_token_generate(&quic_net(sock_net(sk))->token_mac, &req->daddr,
					 req->version, &req->dcid,
					 quic_addrval_now(), QUIC_RETRY_TOKEN_LIFETIME, token,
					 &tokenlen);
	if (err)
		return err;

	hdr.type = QUIC_PACKET_RETRY;
	hdr.fixed = 1;
	hdr.version = req->version;
	hdr.dcid = req->scid;
	quic_conn_id_generate(&hdr.scid, QUIC_CONN_ID_OWN_LEN);
	hdr.reserved = get_random_u8() & QUIC_HDR_RETRY_UNUSED_MASK;
	hdr.token = token;
	hdr.token_len = tokenlen;

	headroom = MAX_HEADER + sizeof(struct ipv6hdr) + sizeof(struct udphdr);
	room = 64 + tokenlen + QUIC_TAG_LEN;
	skb = alloc_skb(headroom + room, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, headroom);
	p = skb->data;
	left = room;
	err = quic_packet_build(&p, &left, &hdr);
	if (!err)
		err = quic_crypto_retry_tag(crypto, skb->data, p - skb->data, &req->dcid, tag);
	if (err) {
		kfree_skb(skb);
		return err;
	}
	memcpy(p, tag, QUIC_TAG_LEN);
	skb_put(skb, p - skb->data + QUIC_TAG_LEN);
	return quic_xmit_stateless(sk, skb, &req->daddr, &req->saddr);
}

/**
 * quic_addrval_new_token - give the client a token for its next connection
 * @sk: a server's connection, owned, its handshake confirmed
 *
 * Return: 0, or a negative errno (the connection goes on without it).
 */
int quic_addrval_new_token(struct sock *sk)
{
	struct quic_frame f = { .type = QUIC_FRAME_NEW_TOKEN };
	u8 token[QUIC_ADDR_TOKEN_MAX_LEN];
	u32 len = sizeof(token);
	int err;

	sock_owned_by_me(sk);
	/* Bound to the version negotiated (RFC 9369 Section 5). */
	err = quic_crypto_token_generate(&quic_net(sock_net(sk))->token_mac,
					 quic_path_daddr(quic_paths(sk), 0),
					 quic_config(sk)->version, NULL, quic_addrval_now(),
					 QUIC_NEW_TOKEN_LIFETIME, token, &len);
	if (err)
		return err;
	f.data.data = token;
	f.data.len = len;
	return quic_outq_ctrl_append(quic_outq(sk), QUIC_CRYPTO_APP, &f, GFP_ATOMIC);
}

/**
 * quic_addrval_retry_rcv - a client received a Retry packet
 * @sk: the client, owned (softirq or process context)
 * @skb: the datagram, skb->data at the Retry packet (it takes the rest)
 * @hdr: its parsed header
 *
 * RFC 9000 Section 17.2.5.2: discarded after a first Retry, once an
 * Initial of the server was processed, when its Source Connection ID is
 * the Destination ID we used, or when its integrity tag (RFC 9001 Section
 * 5.8) does not check out. Otherwise its Source Connection ID becomes our
 * Destination Connection ID, its token goes into our Initials, and the
 * work item derives the Initial keys again and sends the Initial data anew.
 *
 * Return: true when the Retry was taken.
 */
bool quic_addrval_retry_rcv(struct sock *sk, struct sk_buff *skb,
			    const struct quic_packet_hdr *hdr)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_sock *qs = quic_sk(sk);
	struct quic_conn_id_entry *cur;
	u8 tag[QUIC_TAG_LEN];

	sock_owned_by_me(sk);
	cur = quic_conn_id_active(quic_dest(sk));
	if (paths->serv || paths->retry || qs->peer_scid_set || !quic_is_establishing(sk) ||
	    !cur || !hdr->tag || !hdr->scid.len || quic_conn_id_equal(&hdr->scid, &cur->id))
		return false;
	/* quic_rcv() made the datagram linear: @hdr points into it. */
	if (hdr->len <= QUIC_TAG_LEN ||
	    quic_crypto_retry_tag(quic_crypto(sk, QUIC_CRYPTO_INITIAL), skb->data,
				  hdr->len - QUIC_TAG_LEN, &paths->orig_dcid, tag) ||
	    crypto_memneq(tag, hdr->tag, QUIC_TAG_LEN))
		return false;
	if (quic_data_dup(quic_token(sk), hdr->token, hdr->token_len, GFP_ATOMIC))
		return false;

	paths->retry = 1;
	paths->retry_dcid = hdr->scid;
	quic_conn_id_set_free(quic_dest(sk));
	if (quic_conn_id_add(quic_dest(sk), &hdr->scid, 0, NULL, GFP_ATOMIC)) {
		quic_rcv_conn_error(sk, QUIC_TRANSPORT_ERROR_INTERNAL, 0);
		return true;
	}
	sock_hold(sk);
	if (!schedule_work(&qs->retry_work))
		sock_put(sk);
	return true;
}

/**
 * quic_addrval_retry_work - finish taking a Retry in process context
 * @work: &quic_sock.retry_work
 *
 * RFC 9001 Section 5.2: the Initial keys come from the new Destination
 * Connection ID. RFC 9002 Section 6.3: the Initial packets sent so far
 * leave the congestion window without a loss; their frames are sent again
 * in new Initial packets, whose numbers go on from the last one.
 */
void quic_addrval_retry_work(struct work_struct *work)
{
	struct quic_sock *qs = container_of(work, struct quic_sock, retry_work);
	struct sock *sk = &qs->inet.sk;
	struct quic_conn_id_entry *dcid;
	int err;

	lock_sock(sk);
	dcid = quic_conn_id_active(quic_dest(sk));
	if (!quic_is_establishing(sk) || !dcid)
		goto out;
	quic_crypto_destroy(quic_crypto(sk, QUIC_CRYPTO_INITIAL));
	err = quic_crypto_initial_keys_install(quic_crypto(sk, QUIC_CRYPTO_INITIAL), &dcid->id,
					       quic_config(sk)->version, false);
	/* The other version's Initial keys follow the new ID too. */
	if (!err)
		err = quic_version_prepare(sk);
	if (err) {
		quic_conn_closed(sk, -err);
		goto out;
	}
	quic_outq_retry(quic_outq(sk));
	quic_xmit(sk);
out:
	release_sock(sk);
	sock_put(sk);
}
