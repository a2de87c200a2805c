// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC transport parameters: struct quic_params to and from the
 * (ID, Length, Value) list of RFC 9000 Section 18, and every rule on them.
 *
 * quic_param_validate() holds the range rules that the socket option
 * (QUIC_SOCKOPT_TRANSPORT_PARAM, socket.c) shares with the decoder. The
 * decoder adds the rules that only exist on the wire: value lengths,
 * duplicates, server-only parameters, the parameters that must be present,
 * stream counts up to 2^60 and the formats of the connection IDs,
 * preferred_address and version_information. quic_param_cid_auth() checks
 * the decoded connection IDs against those of the handshake packets.
 */

#include <linux/minmax.h>
#include <linux/string.h>

#include "family.h"
#include "param.h"

/* RFC 9000 Section 18.2 defaults of parameters that are not 0. */
#define QUIC_PARAM_DEF_ACK_DELAY_EXPONENT	QUIC_DEF_ACK_DELAY_EXPONENT
#define QUIC_PARAM_DEF_MAX_ACK_DELAY		QUIC_DEF_ACK_DELAY	/* 25 ms */
#define QUIC_PARAM_DEF_CONN_ID_LIMIT		QUIC_DEF_ACTIVE_CONN_ID_LIMIT
#define QUIC_PARAM_DEF_UDP_PAYLOAD		QUIC_MAX_UDP_PAYLOAD

#define QUIC_PARAM_VERSION_LEN		4

/* Largest millisecond count whose microsecond value fits in a u32. */
#define QUIC_PARAM_MAX_MSECS		(U32_MAX / USEC_PER_MSEC)

static bool quic_param_is_bool(u8 v)
{
	return v <= 1;
}

/**
 * quic_param_validate - check transport parameters against RFC 9000 18.2
 * @p: parameters from userspace (QUIC_SOCKOPT_TRANSPORT_PARAM) or decoded
 *	from the peer
 *
 * Return: 0, or -EINVAL for a value the RFC forbids: ack_delay_exponent
 * above 20, max_ack_delay of 2^14 ms or more, active_connection_id_limit
 * below 2, max_udp_payload_size outside 1200..65527, flow control limits
 * above 2^62 - 1, flags other than 0/1, or non-zero reserved bytes.
 */
int quic_param_validate(const struct quic_transport_param *p)
{
	if (!quic_param_is_bool(p->remote) || !quic_param_is_bool(p->disable_active_migration) ||
	    !quic_param_is_bool(p->grease_quic_bit) || !quic_param_is_bool(p->stateless_reset) ||
	    !quic_param_is_bool(p->disable_1rtt_encryption) ||
	    !quic_param_is_bool(p->disable_compatible_version))
		return -EINVAL;
	if (p->ack_delay_exponent > QUIC_MAX_ACK_DELAY_EXPONENT)
		return -EINVAL;
	if (p->max_ack_delay >= QUIC_MAX_ACK_DELAY)
		return -EINVAL;
	if (p->active_connection_id_limit < QUIC_DEF_ACTIVE_CONN_ID_LIMIT)
		return -EINVAL;
	if (p->max_udp_payload_size < QUIC_MIN_UDP_PAYLOAD ||
	    p->max_udp_payload_size > QUIC_MAX_UDP_PAYLOAD)
		return -EINVAL;
	if (p->max_data > QUIC_VARINT_MAX || p->max_stream_data_bidi_local > QUIC_VARINT_MAX ||
	    p->max_stream_data_bidi_remote > QUIC_VARINT_MAX ||
	    p->max_stream_data_uni > QUIC_VARINT_MAX)
		return -EINVAL;
	if (p->reserved)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_validate);

/* Duplicate detection: one bit per known ID. */
static int quic_param_bit(u64 id)
{
	if (id <= QUIC_TRANSPORT_PARAM_VERSION_INFORMATION)
		return id;
	switch (id) {
	case QUIC_TRANSPORT_PARAM_MAX_DATAGRAM_FRAME_SIZE:
		return QUIC_TRANSPORT_PARAM_VERSION_INFORMATION + 1;
	case QUIC_TRANSPORT_PARAM_GREASE_QUIC_BIT:
		return QUIC_TRANSPORT_PARAM_VERSION_INFORMATION + 2;
	case QUIC_TRANSPORT_PARAM_DISABLE_1RTT_ENCRYPTION:
		return QUIC_TRANSPORT_PARAM_VERSION_INFORMATION + 3;
	default:
		return -1;	/* unknown or reserved (31 * N + 27): ignored */
	}
}

/* RFC 9000 Section 18.2: parameters a client must not send. */
static bool quic_param_server_only(u64 id)
{
	return id == QUIC_TRANSPORT_PARAM_ORIGINAL_DESTINATION_CONNECTION_ID ||
	       id == QUIC_TRANSPORT_PARAM_STATELESS_RESET_TOKEN ||
	       id == QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS ||
	       id == QUIC_TRANSPORT_PARAM_RETRY_SOURCE_CONNECTION_ID;
}

/**
 * quic_param_init - set every parameter to its default (absent) value
 * @params: the parameters
 *
 * RFC 9000 Section 18.2: max_udp_payload_size 65527, ack_delay_exponent 3,
 * max_ack_delay 25 ms, active_connection_id_limit 2, everything else 0 or
 * absent (version_information too: @params->tp.disable_compatible_version
 * is set).
 */
void quic_param_init(struct quic_params *params)
{
	struct quic_transport_param *tp = &params->tp;

	memset(params, 0, sizeof(*params));
	tp->max_udp_payload_size = QUIC_PARAM_DEF_UDP_PAYLOAD;
	tp->ack_delay_exponent = QUIC_PARAM_DEF_ACK_DELAY_EXPONENT;
	tp->max_ack_delay = QUIC_PARAM_DEF_MAX_ACK_DELAY;
	tp->active_connection_id_limit = QUIC_PARAM_DEF_CONN_ID_LIMIT;
	tp->disable_compatible_version = 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_init);

/*
 * Integer parameters. The socket API keeps most of them in fields narrower
 * than a varint: values are saturated, which only makes a peer's limit
 * look smaller to us, and quic_param_validate() then refuses what is out
 * of range (a saturated ack_delay_exponent still is).
 */
static int quic_param_get_int(u64 id, u64 v, struct quic_transport_param *tp)
{
	switch (id) {
	case QUIC_TRANSPORT_PARAM_MAX_IDLE_TIMEOUT:
		tp->max_idle_timeout = min_t(u64, v, QUIC_PARAM_MAX_MSECS) * USEC_PER_MSEC;
		break;
	case QUIC_TRANSPORT_PARAM_MAX_UDP_PAYLOAD_SIZE:
		tp->max_udp_payload_size = min_t(u64, v, QUIC_MAX_UDP_PAYLOAD);
		break;
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_DATA:
		tp->max_data = v;
		break;
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_LOCAL:
		tp->max_stream_data_bidi_local = v;
		break;
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_REMOTE:
		tp->max_stream_data_bidi_remote = v;
		break;
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_UNI:
		tp->max_stream_data_uni = v;
		break;
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_BIDI:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_UNI:
		/* RFC 9000 Section 4.6: above 2^60 is TRANSPORT_PARAMETER_ERROR. */
		if (v > QUIC_FRAME_MAX_STREAMS)
			return -EINVAL;
		if (id == QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_BIDI)
			tp->max_streams_bidi = min_t(u64, v, U16_MAX);
		else
			tp->max_streams_uni = min_t(u64, v, U16_MAX);
		break;
	case QUIC_TRANSPORT_PARAM_ACK_DELAY_EXPONENT:
		tp->ack_delay_exponent = min_t(u64, v, U8_MAX);
		break;
	case QUIC_TRANSPORT_PARAM_MAX_ACK_DELAY:
		tp->max_ack_delay = min_t(u64, v, QUIC_PARAM_MAX_MSECS) * USEC_PER_MSEC;
		break;
	case QUIC_TRANSPORT_PARAM_ACTIVE_CONNECTION_ID_LIMIT:
		tp->active_connection_id_limit = min_t(u64, v, U8_MAX);
		break;
	case QUIC_TRANSPORT_PARAM_MAX_DATAGRAM_FRAME_SIZE:
		tp->max_datagram_frame_size = min_t(u64, v, U16_MAX);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int quic_param_get_cid(const u8 *v, u32 vlen, struct quic_conn_id *id)
{
	return quic_conn_id_set(id, v, vlen);	/* -EINVAL beyond 20 bytes */
}

static int quic_param_get_pref_addr(struct sock *sk, const u8 *v, u32 vlen,
				    struct quic_param_pref_addr *pref)
{
	u64 cid_len;

	if (sk) {
		if (quic_get_pref_addr(sk, &pref->addr, &v, &vlen))
			return -EINVAL;
	} else {
		if (vlen < QUIC_PREF_ADDR_LEN)
			return -EINVAL;
		v += QUIC_PREF_ADDR_LEN;
		vlen -= QUIC_PREF_ADDR_LEN;
	}
	/* A zero-length connection ID is a TRANSPORT_PARAMETER_ERROR. */
	if (quic_get_int(&v, &vlen, &cid_len, 1) || !cid_len || cid_len > QUIC_CONN_ID_MAX_LEN ||
	    vlen != cid_len + QUIC_FRAME_TOKEN_LEN)
		return -EINVAL;
	quic_conn_id_set(&pref->cid, v, cid_len);
	memcpy(pref->token, v + cid_len, QUIC_FRAME_TOKEN_LEN);
	return 0;
}

/* QUIC_PARAM_VERSION_* bit of a version we implement, 0 for any other. */
static u32 quic_param_version_bit(u32 version)
{
	switch (version) {
	case QUIC_VERSION_V1:
		return QUIC_PARAM_VERSION_V1;
	case QUIC_VERSION_V2:
		return QUIC_PARAM_VERSION_V2;
	default:
		return 0;
	}
}

/*
 * RFC 9368 Section 4: a length that is not a positive multiple of 4, a
 * zero version anywhere, or (at a server) a Chosen Version missing from
 * the Available Versions is a parsing failure. The whole list is walked;
 * its length is bounded by the parameter's, so by the extension's.
 */
static int quic_param_get_version_info(bool is_serv, const u8 *v, u32 vlen,
				       struct quic_param_version_info *vi)
{
	bool listed = false;
	u64 ver;

	if (!vlen || vlen % QUIC_PARAM_VERSION_LEN)
		return -EINVAL;
	quic_get_int(&v, &vlen, &ver, QUIC_PARAM_VERSION_LEN);
	if (!ver)
		return -EINVAL;
	vi->chosen = ver;
	vi->count = 0;
	vi->total = 0;
	vi->supported = 0;
	while (vlen) {
		quic_get_int(&v, &vlen, &ver, QUIC_PARAM_VERSION_LEN);
		if (!ver)
			return -EINVAL;
		if (ver == vi->chosen)
			listed = true;
		vi->supported |= quic_param_version_bit(ver);
		if (vi->count < QUIC_PARAM_MAX_VERSIONS)
			vi->available[vi->count++] = ver;
		vi->total++;
	}
	return is_serv && !listed ? -EINVAL : 0;
}

/**
 * quic_param_version_listed - is a version among the Available Versions
 * @vi: version_information, decoded from the peer or filled in by us
 * @version: the version asked about
 *
 * A peer's list is known whole for the versions we implement
 * (QUIC_VERSION_V1, QUIC_VERSION_V2) and for its first
 * %QUIC_PARAM_MAX_VERSIONS entries. That is all compatible version
 * negotiation needs: a server only selects, and a client only checks the
 * server's list for, versions it implements (RFC 9368 Sections 2.3 and 4).
 * An unimplemented version past those entries reads as not listed.
 *
 * Return: true if @version is listed.
 */
bool quic_param_version_listed(const struct quic_param_version_info *vi, u32 version)
{
	u32 i;

	for (i = 0; i < min_t(u32, vi->count, QUIC_PARAM_MAX_VERSIONS); i++)
		if (vi->available[i] == version)
			return true;
	return !!(vi->supported & quic_param_version_bit(version));
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_version_listed);

static int quic_param_get_one(struct sock *sk, bool is_serv, u64 id, const u8 **pp, u32 *plen,
			      struct quic_params *params)
{
	struct quic_transport_param *tp = &params->tp;
	const u8 *v;
	u64 vlen;

	switch (id) {
	case QUIC_TRANSPORT_PARAM_MAX_IDLE_TIMEOUT:
	case QUIC_TRANSPORT_PARAM_MAX_UDP_PAYLOAD_SIZE:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_DATA:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_LOCAL:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_REMOTE:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_UNI:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_BIDI:
	case QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_UNI:
	case QUIC_TRANSPORT_PARAM_ACK_DELAY_EXPONENT:
	case QUIC_TRANSPORT_PARAM_MAX_ACK_DELAY:
	case QUIC_TRANSPORT_PARAM_ACTIVE_CONNECTION_ID_LIMIT:
	case QUIC_TRANSPORT_PARAM_MAX_DATAGRAM_FRAME_SIZE:
		/* Length must be exactly one varint. */
		if (quic_get_param(pp, plen, &vlen))
			return -EINVAL;
		return quic_param_get_int(id, vlen, tp);
	}

	if (quic_get_var(pp, plen, &vlen) || vlen > *plen)
		return -EINVAL;
	v = *pp;
	*pp += vlen;
	*plen -= vlen;

	switch (id) {
	case QUIC_TRANSPORT_PARAM_ORIGINAL_DESTINATION_CONNECTION_ID:
		params->present |= QUIC_PARAM_HAS_ORIG_DCID;
		return quic_param_get_cid(v, vlen, &params->orig_dcid);
	case QUIC_TRANSPORT_PARAM_INITIAL_SOURCE_CONNECTION_ID:
		params->present |= QUIC_PARAM_HAS_INIT_SCID;
		return quic_param_get_cid(v, vlen, &params->init_scid);
	case QUIC_TRANSPORT_PARAM_RETRY_SOURCE_CONNECTION_ID:
		params->present |= QUIC_PARAM_HAS_RETRY_SCID;
		return quic_param_get_cid(v, vlen, &params->retry_scid);
	case QUIC_TRANSPORT_PARAM_STATELESS_RESET_TOKEN:
		if (vlen != QUIC_FRAME_TOKEN_LEN)
			return -EINVAL;
		memcpy(params->reset_token, v, QUIC_FRAME_TOKEN_LEN);
		tp->stateless_reset = 1;
		return 0;
	case QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS:
		params->present |= QUIC_PARAM_HAS_PREF_ADDR;
		return quic_param_get_pref_addr(sk, v, vlen, &params->pref);
	case QUIC_TRANSPORT_PARAM_VERSION_INFORMATION:
		tp->disable_compatible_version = 0;
		return quic_param_get_version_info(is_serv, v, vlen, &params->vi);
	case QUIC_TRANSPORT_PARAM_DISABLE_ACTIVE_MIGRATION:
		tp->disable_active_migration = 1;
		break;
	case QUIC_TRANSPORT_PARAM_GREASE_QUIC_BIT:
		tp->grease_quic_bit = 1;
		break;
	case QUIC_TRANSPORT_PARAM_DISABLE_1RTT_ENCRYPTION:
		tp->disable_1rtt_encryption = 1;
		break;
	default:
		return -EINVAL;
	}
	/* Flags: RFC 9000 Section 18.2 and RFC 9287 Section 3, a zero-length value. */
	return vlen ? -EINVAL : 0;
}

/**
 * quic_param_decode - decode the peer's transport parameters
 * @sk: socket whose address families select the preferred_address kept
 *	(quic_get_pref_addr()); NULL leaves &quic_param_pref_addr.addr empty
 * @is_serv: the local endpoint is the server, so the list came from a
 *	client and server-only parameters are refused
 * @data: the quic_transport_parameters extension data
 * @len: its length
 * @params: the result: defaults (quic_param_init()) for every parameter
 *	absent, @params->tp.remote set. Undefined on failure.
 *
 * Parameters of unknown ID, the reserved 31 * N + 27 ones included, are
 * skipped (RFC 9000 Sections 7.4.2 and 18.1). Everything else must be
 * well formed, appear at most once, be allowed for the sender's role and
 * pass quic_param_validate(). RFC 9000 Sections 7.3 and 18.2 also make
 * these a TRANSPORT_PARAMETER_ERROR: initial_source_connection_id absent
 * (from either role); from a server, original_destination_connection_id
 * absent, or a preferred_address while its initial_source_connection_id
 * (the connection ID it chose) is empty. Whether retry_source_connection_id
 * belongs depends on the handshake: quic_param_cid_auth() checks it.
 *
 * Return: 0, or -EINVAL: close the connection with
 * TRANSPORT_PARAMETER_ERROR.
 */
int quic_param_decode(struct sock *sk, bool is_serv, const u8 *data, u32 len,
		      struct quic_params *params)
{
	u32 seen = 0;
	u64 id, vlen;
	int bit;

	quic_param_init(params);
	params->tp.remote = 1;
	while (len) {
		if (quic_get_var(&data, &len, &id))
			return -EINVAL;
		bit = quic_param_bit(id);
		if (bit < 0) {
			if (quic_get_var(&data, &len, &vlen) || vlen > len)
				return -EINVAL;
			data += vlen;
			len -= vlen;
			continue;
		}
		if (seen & BIT(bit))
			return -EINVAL;	/* RFC 9000 Section 7.4: duplicate */
		seen |= BIT(bit);
		if (is_serv && quic_param_server_only(id))
			return -EINVAL;
		if (quic_param_get_one(sk, is_serv, id, &data, &len, params))
			return -EINVAL;
	}
	if (!(params->present & QUIC_PARAM_HAS_INIT_SCID))
		return -EINVAL;
	if (!is_serv) {
		if (!(params->present & QUIC_PARAM_HAS_ORIG_DCID))
			return -EINVAL;
		/* "A server that chooses a zero-length connection ID MUST NOT
		 * provide a preferred address" (RFC 9000 Section 18.2).
		 */
		if ((params->present & QUIC_PARAM_HAS_PREF_ADDR) && !params->init_scid.len)
			return -EINVAL;
	}
	return quic_param_validate(&params->tp) ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_decode);

static bool quic_param_cid_matches(const struct quic_params *peer, u32 bit,
				   const struct quic_conn_id *param,
				   const struct quic_conn_id *seen)
{
	return (peer->present & bit) && seen && quic_conn_id_equal(param, seen);
}

/**
 * quic_param_cid_auth - authenticate the handshake's connection IDs
 * @peer: the peer's parameters, from quic_param_decode()
 * @is_serv: the local endpoint is the server
 * @seen: the connection IDs the handshake packets carried
 *
 * RFC 9000 Section 7.3: the peer's initial_source_connection_id must equal
 * the Source Connection ID of its first Initial packet (@seen->peer_scid).
 * At a client, the server's original_destination_connection_id must equal
 * the Destination Connection ID of the client's first Initial
 * (@seen->odcid), and retry_source_connection_id must be present and equal
 * the Retry's Source Connection ID after a Retry (@seen->retry_scid), and
 * absent without one. At a server, a client sent none of the server-only
 * connection IDs (RFC 9000 Section 18.2). Absence of a parameter counts
 * as a mismatch, and so does a NULL @seen->peer_scid or (at a client)
 * @seen->odcid. Pure: no socket state is read or changed.
 *
 * Return: 0, or -EINVAL: close the connection with
 * TRANSPORT_PARAMETER_ERROR (the error RFC 9000 Section 7.3 allows for
 * every case here; PROTOCOL_VIOLATION is not used).
 */
int quic_param_cid_auth(const struct quic_params *peer, bool is_serv,
			const struct quic_param_cids *seen)
{
	if (!quic_param_cid_matches(peer, QUIC_PARAM_HAS_INIT_SCID, &peer->init_scid,
				    seen->peer_scid))
		return -EINVAL;
	if (is_serv)
		return peer->present & (QUIC_PARAM_HAS_ORIG_DCID | QUIC_PARAM_HAS_RETRY_SCID) ?
		       -EINVAL : 0;

	if (!quic_param_cid_matches(peer, QUIC_PARAM_HAS_ORIG_DCID, &peer->orig_dcid,
				    seen->odcid))
		return -EINVAL;
	if (!seen->retry_scid)
		return peer->present & QUIC_PARAM_HAS_RETRY_SCID ? -EINVAL : 0;
	if (!quic_param_cid_matches(peer, QUIC_PARAM_HAS_RETRY_SCID, &peer->retry_scid,
				    seen->retry_scid))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_cid_auth);

/* Output cursor of the encoder; the first error sticks. */
struct quic_param_out {
	u8 *p;
	u32 len;
	int err;
};

static void quic_param_put_int(struct quic_param_out *o, u64 id, u64 val, u64 def)
{
	if (!o->err && val != def)
		o->err = quic_put_param(&o->p, &o->len, id, val);
}

/* An ID and a Length followed by @n raw bytes (@n may be 0: a flag). */
static void quic_param_put_bytes(struct quic_param_out *o, u64 id, const void *data, u32 n)
{
	if (o->err)
		return;
	o->err = quic_put_var(&o->p, &o->len, id);
	if (!o->err)
		o->err = quic_put_var(&o->p, &o->len, n);
	if (!o->err)
		o->err = quic_put_data(&o->p, &o->len, data, n);
}

static void quic_param_put_flag(struct quic_param_out *o, u64 id, bool set)
{
	if (set)
		quic_param_put_bytes(o, id, NULL, 0);
}

static void quic_param_put_cid(struct quic_param_out *o, u64 id, const struct quic_conn_id *cid,
			       bool set)
{
	if (!set)
		return;
	if (cid->len > QUIC_CONN_ID_MAX_LEN)
		o->err = o->err ?: -EINVAL;
	else
		quic_param_put_bytes(o, id, cid->data, cid->len);
}

static void quic_param_put_pref_addr(struct quic_param_out *o, struct sock *sk,
				     const struct quic_param_pref_addr *pref)
{
	u8 cid_len = pref->cid.len;

	if (o->err)
		return;
	if (!sk || !cid_len || cid_len > QUIC_CONN_ID_MAX_LEN) {
		o->err = -EINVAL;
		return;
	}
	o->err = quic_put_var(&o->p, &o->len, QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS);
	if (!o->err)
		o->err = quic_put_var(&o->p, &o->len,
				      QUIC_PREF_ADDR_LEN + 1 + cid_len + QUIC_FRAME_TOKEN_LEN);
	if (!o->err)
		o->err = quic_set_pref_addrs(&o->p, &o->len, &pref->addr, &pref->addr2);
	if (!o->err)
		o->err = quic_put_int(&o->p, &o->len, cid_len, 1);
	if (!o->err)
		o->err = quic_put_data(&o->p, &o->len, pref->cid.data, cid_len);
	if (!o->err)
		o->err = quic_put_data(&o->p, &o->len, pref->token, QUIC_FRAME_TOKEN_LEN);
	if (o->err == -EAFNOSUPPORT)
		o->err = -EINVAL;
}

static void quic_param_put_version_info(struct quic_param_out *o,
					const struct quic_param_version_info *vi)
{
	u32 i;

	if (o->err)
		return;
	if (!vi->chosen || vi->count > QUIC_PARAM_MAX_VERSIONS) {
		o->err = -EINVAL;
		return;
	}
	for (i = 0; i < vi->count; i++) {
		if (!vi->available[i]) {
			o->err = -EINVAL;
			return;
		}
	}
	o->err = quic_put_var(&o->p, &o->len, QUIC_TRANSPORT_PARAM_VERSION_INFORMATION);
	if (!o->err)
		o->err = quic_put_var(&o->p, &o->len, (vi->count + 1) * QUIC_PARAM_VERSION_LEN);
	if (!o->err)
		o->err = quic_put_int(&o->p, &o->len, vi->chosen, QUIC_PARAM_VERSION_LEN);
	for (i = 0; i < vi->count && !o->err; i++)
		o->err = quic_put_int(&o->p, &o->len, vi->available[i], QUIC_PARAM_VERSION_LEN);
}

/**
 * quic_param_encode - encode our transport parameters
 * @sk: the socket; needed only for a preferred_address
 * @is_serv: the local endpoint is the server (a client may not send
 *	original_destination_connection_id, stateless_reset_token,
 *	preferred_address or retry_source_connection_id)
 * @params: the parameters; integers equal to their default are left out
 * @pp: output cursor; advanced past the list on success
 * @plen: room left; reduced on success
 *
 * Parameters are written in ascending ID order. max_idle_timeout is
 * rounded up to whole milliseconds (so a non-zero timeout stays non-zero),
 * max_ack_delay rounded down.
 *
 * Return: 0, -EINVAL for parameters that quic_param_validate() refuses,
 * that @is_serv does not allow, or a server's preferred_address next to an
 * empty initial_source_connection_id (RFC 9000 Section 18.2), -ENOSPC when
 * the output is too short. The
 * cursor is unchanged on failure (the bytes at it may have been written).
 */
int quic_param_encode(struct sock *sk, bool is_serv, const struct quic_params *params,
		      u8 **pp, u32 *plen)
{
	const struct quic_transport_param *tp = &params->tp;
	struct quic_param_out o = { .p = *pp, .len = *plen };
	u32 present = params->present;

	if (quic_param_validate(tp))
		return -EINVAL;
	if (!is_serv && (tp->stateless_reset || (present & (QUIC_PARAM_HAS_ORIG_DCID |
							    QUIC_PARAM_HAS_RETRY_SCID |
							    QUIC_PARAM_HAS_PREF_ADDR))))
		return -EINVAL;
	if ((present & QUIC_PARAM_HAS_PREF_ADDR) && (present & QUIC_PARAM_HAS_INIT_SCID) &&
	    !params->init_scid.len)
		return -EINVAL;

	quic_param_put_cid(&o, QUIC_TRANSPORT_PARAM_ORIGINAL_DESTINATION_CONNECTION_ID,
			   &params->orig_dcid, present & QUIC_PARAM_HAS_ORIG_DCID);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_MAX_IDLE_TIMEOUT,
			   DIV_ROUND_UP_ULL(tp->max_idle_timeout, USEC_PER_MSEC), 0);
	if (tp->stateless_reset)
		quic_param_put_bytes(&o, QUIC_TRANSPORT_PARAM_STATELESS_RESET_TOKEN,
				     params->reset_token, QUIC_FRAME_TOKEN_LEN);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_MAX_UDP_PAYLOAD_SIZE,
			   tp->max_udp_payload_size, QUIC_PARAM_DEF_UDP_PAYLOAD);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_DATA, tp->max_data, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_LOCAL,
			   tp->max_stream_data_bidi_local, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_REMOTE,
			   tp->max_stream_data_bidi_remote, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_UNI,
			   tp->max_stream_data_uni, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_BIDI,
			   tp->max_streams_bidi, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_UNI,
			   tp->max_streams_uni, 0);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_ACK_DELAY_EXPONENT,
			   tp->ack_delay_exponent, QUIC_PARAM_DEF_ACK_DELAY_EXPONENT);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_MAX_ACK_DELAY,
			   tp->max_ack_delay / USEC_PER_MSEC,
			   QUIC_PARAM_DEF_MAX_ACK_DELAY / USEC_PER_MSEC);
	quic_param_put_flag(&o, QUIC_TRANSPORT_PARAM_DISABLE_ACTIVE_MIGRATION,
			    tp->disable_active_migration);
	if (present & QUIC_PARAM_HAS_PREF_ADDR)
		quic_param_put_pref_addr(&o, sk, &params->pref);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_ACTIVE_CONNECTION_ID_LIMIT,
			   tp->active_connection_id_limit, QUIC_PARAM_DEF_CONN_ID_LIMIT);
	quic_param_put_cid(&o, QUIC_TRANSPORT_PARAM_INITIAL_SOURCE_CONNECTION_ID,
			   &params->init_scid, present & QUIC_PARAM_HAS_INIT_SCID);
	quic_param_put_cid(&o, QUIC_TRANSPORT_PARAM_RETRY_SOURCE_CONNECTION_ID,
			   &params->retry_scid, present & QUIC_PARAM_HAS_RETRY_SCID);
	if (!tp->disable_compatible_version)
		quic_param_put_version_info(&o, &params->vi);
	quic_param_put_int(&o, QUIC_TRANSPORT_PARAM_MAX_DATAGRAM_FRAME_SIZE,
			   tp->max_datagram_frame_size, 0);
	quic_param_put_flag(&o, QUIC_TRANSPORT_PARAM_GREASE_QUIC_BIT, tp->grease_quic_bit);
	quic_param_put_flag(&o, QUIC_TRANSPORT_PARAM_DISABLE_1RTT_ENCRYPTION,
			    tp->disable_1rtt_encryption);
	if (o.err)
		return o.err;

	*pp = o.p;
	*plen = o.len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_param_encode);
