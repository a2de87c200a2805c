// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QUIC packet header codec: long headers (Initial, 0-RTT, Handshake,
 * Retry) in the QUIC v1 and v2 type encodings, the 1-RTT short header,
 * Version Negotiation packets and the splitting of coalesced packets.
 */

#include <linux/bits.h>
#include <linux/random.h>
#include <linux/string.h>

#include "packet.h"

/* Long Packet Type bits by &enum quic_packet_type (RFC 9000 Section 17.2,
 * RFC 9369 Section 3.2: v2 Initial 0b01, 0-RTT 0b10, Handshake 0b11,
 * Retry 0b00).
 */
static const u8 quic_packet_v1_types[] = {
	[QUIC_PACKET_INITIAL]	= 0x0,
	[QUIC_PACKET_0RTT]	= 0x1,
	[QUIC_PACKET_HANDSHAKE]	= 0x2,
	[QUIC_PACKET_RETRY]	= 0x3,
};

static const u8 quic_packet_v2_types[] = {
	[QUIC_PACKET_INITIAL]	= 0x1,
	[QUIC_PACKET_0RTT]	= 0x2,
	[QUIC_PACKET_HANDSHAKE]	= 0x3,
	[QUIC_PACKET_RETRY]	= 0x0,
};

/* The fixed part of a long header: first byte, Version, two ID lengths. */
#define QUIC_LONG_HDR_MIN_LEN	(1 + QUIC_VERSION_LEN + 1 + 1)

/**
 * quic_packet_version_supported - tell whether a version's packets can be parsed here
 * @version: Version field of a long header
 *
 * Return: true for QUIC v1 (RFC 9000) and v2 (RFC 9369).
 */
bool quic_packet_version_supported(u32 version)
{
	return version == QUIC_VERSION_V1 || version == QUIC_VERSION_V2;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_version_supported);

static const u8 *quic_packet_types(u32 version)
{
	if (version == QUIC_VERSION_V1)
		return quic_packet_v1_types;
	if (version == QUIC_VERSION_V2)
		return quic_packet_v2_types;
	return NULL;
}

/**
 * quic_packet_type_to_wire - Long Packet Type bits of a packet type
 * @version: QUIC_VERSION_V1 or QUIC_VERSION_V2
 * @type: QUIC_PACKET_INITIAL, _0RTT, _HANDSHAKE or _RETRY
 *
 * Return: the two-bit value, or -EINVAL for another version or type.
 */
int quic_packet_type_to_wire(u32 version, u8 type)
{
	const u8 *types = quic_packet_types(version);

	if (!types || type > QUIC_PACKET_RETRY)
		return -EINVAL;
	return types[type];
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_type_to_wire);

/*
 * The layout long header packets are built with. A client configured with
 * a version we do not speak sends its first packets in it only to make the
 * server answer with Version Negotiation (RFC 9000 Section 6.3: "Endpoints
 * MAY send packets with a reserved version to test that a peer correctly
 * discards the packet"; the interop runner's versionnegotiation case):
 * nothing but the invariant fields of those packets is ever read, and
 * they are laid out as version 1's.
 */
static u32 quic_packet_layout(u32 version)
{
	return version == QUIC_VERSION_V2 ? QUIC_VERSION_V2 : QUIC_VERSION_V1;
}

/**
 * quic_packet_type_from_wire - packet type of Long Packet Type bits
 * @version: QUIC_VERSION_V1 or QUIC_VERSION_V2
 * @bits: the two-bit Long Packet Type
 *
 * Return: the &enum quic_packet_type, or -EINVAL for another version or a
 * value over 3.
 */
int quic_packet_type_from_wire(u32 version, u8 bits)
{
	const u8 *types = quic_packet_types(version);
	int type;

	if (!types)
		return -EINVAL;
	for (type = QUIC_PACKET_INITIAL; type <= QUIC_PACKET_RETRY; type++)
		if (types[type] == bits)
			return type;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_type_from_wire);

/**
 * quic_packet_level - encryption level of a packet type
 * @type: &enum quic_packet_type
 *
 * Return: the &enum quic_crypto_level whose keys protect @type, or
 * QUIC_CRYPTO_MAX for Retry (which carries no frames) and unknown types.
 */
u8 quic_packet_level(u8 type)
{
	switch (type) {
	case QUIC_PACKET_INITIAL:
		return QUIC_CRYPTO_INITIAL;
	case QUIC_PACKET_0RTT:
		return QUIC_CRYPTO_EARLY;
	case QUIC_PACKET_HANDSHAKE:
		return QUIC_CRYPTO_HANDSHAKE;
	case QUIC_PACKET_1RTT:
		return QUIC_CRYPTO_APP;
	default:
		return QUIC_CRYPTO_MAX;
	}
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_level);

/**
 * quic_packet_fixed_bit - Fixed Bit value for a packet to send
 * @grease: the peer sent grease_quic_bit (RFC 9287 Section 3), or the
 *	other conditions of RFC 9287 Section 3.1 for a client hold
 *
 * Return: 1, or an unpredictable 0 or 1 when greasing is allowed.
 */
u8 quic_packet_fixed_bit(bool grease)
{
	return grease ? get_random_u32_below(2) : 1;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_fixed_bit);

/**
 * quic_packet_peek - read the version-independent fields of a packet
 * @data: the packet, at the start of a datagram or of a coalesced packet
 * @len: bytes available
 * @dcid_len: Destination Connection ID length to assume for a short header
 * @inv: the fields, pointing into @data
 *
 * This never looks at the version, so it works for Version Negotiation and
 * for versions this stack does not speak (to answer them with a Version
 * Negotiation packet, RFC 9000 Section 6.1).
 *
 * Return: 0, or -EINVAL when @data ends before the connection IDs do.
 */
int quic_packet_peek(const u8 *data, u32 len, u8 dcid_len, struct quic_packet_invariant *inv)
{
	const u8 *p;
	u32 left;
	u64 v;

	memset(inv, 0, sizeof(*inv));
	if (!len)
		return -EINVAL;
	p = data + 1;
	left = len - 1;
	if (!(data[0] & QUIC_HDR_FORM_LONG)) {
		if (left < dcid_len)
			return -EINVAL;
		inv->dcid = p;
		inv->dcid_len = dcid_len;
		inv->rest = p + dcid_len;
		inv->rest_len = left - dcid_len;
		return 0;
	}

	if (quic_get_int(&p, &left, &v, QUIC_VERSION_LEN))
		return -EINVAL;
	inv->long_header = 1;
	inv->version = v;
	if (quic_get_int(&p, &left, &v, 1) || v > left)
		return -EINVAL;
	inv->dcid = p;
	inv->dcid_len = v;
	p += v;
	left -= v;
	if (quic_get_int(&p, &left, &v, 1) || v > left)
		return -EINVAL;
	inv->scid = p;
	inv->scid_len = v;
	inv->rest = p + v;
	inv->rest_len = left - v;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_peek);

static int quic_packet_parse_short(const u8 *start, u32 len,
				   const struct quic_packet_invariant *inv,
				   struct quic_packet_hdr *hdr)
{
	const u8 *p = inv->rest;
	u32 left = inv->rest_len;
	u8 first = start[0];

	if (inv->dcid_len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	hdr->type = QUIC_PACKET_1RTT;
	quic_conn_id_set(&hdr->dcid, inv->dcid, inv->dcid_len);
	hdr->spin = !!(first & QUIC_HDR_SHORT_SPIN_BIT);
	hdr->key_phase = !!(first & QUIC_HDR_SHORT_KEY_PHASE_BIT);
	hdr->reserved = (first & QUIC_HDR_SHORT_RESERVED_MASK) >> QUIC_HDR_SHORT_RESERVED_SHIFT;
	hdr->pn_len = (first & QUIC_HDR_PN_LEN_MASK) + 1;
	hdr->pn_offset = p - start;
	hdr->length = left;
	if (quic_get_int(&p, &left, &hdr->pn, hdr->pn_len))
		return -EINVAL;
	/* No Length field: the packet takes the rest of the datagram. */
	hdr->len = len;
	return 0;
}

static int quic_packet_parse_long(const u8 *start, const struct quic_packet_invariant *inv,
				  struct quic_packet_hdr *hdr)
{
	const u8 *p = inv->rest;
	u32 left = inv->rest_len;
	u8 first = start[0];
	int type;
	u64 v;

	/* RFC 9000 Section 17.2: v1 (and v2) IDs longer than 20 bytes: drop. */
	if (inv->dcid_len > QUIC_CONN_ID_MAX_LEN || inv->scid_len > QUIC_CONN_ID_MAX_LEN)
		return -EINVAL;
	type = quic_packet_type_from_wire(inv->version,
					  (first & QUIC_HDR_LONG_TYPE_MASK) >>
					  QUIC_HDR_LONG_TYPE_SHIFT);
	if (type < 0)
		return type;
	hdr->type = type;
	hdr->version = inv->version;
	quic_conn_id_set(&hdr->dcid, inv->dcid, inv->dcid_len);
	quic_conn_id_set(&hdr->scid, inv->scid, inv->scid_len);

	if (type == QUIC_PACKET_RETRY) {
		/* RFC 9000 Section 17.2.5.2: a Retry without a token is dropped. */
		if (left <= QUIC_RETRY_TAG_LEN)
			return -EINVAL;
		hdr->reserved = first & QUIC_HDR_RETRY_UNUSED_MASK;
		hdr->token = p;
		hdr->token_len = left - QUIC_RETRY_TAG_LEN;
		hdr->tag = p + hdr->token_len;
		hdr->len = p + left - start;
		return 0;
	}

	if (type == QUIC_PACKET_INITIAL) {
		if (quic_get_var(&p, &left, &v) || v > left)
			return -EINVAL;
		hdr->token = p;
		hdr->token_len = v;
		p += v;
		left -= v;
	}
	hdr->len_size = left;
	if (quic_get_var(&p, &left, &v) || v > left)
		return -EINVAL;
	hdr->len_size -= left;
	hdr->length = v;
	hdr->reserved = (first & QUIC_HDR_LONG_RESERVED_MASK) >> QUIC_HDR_LONG_RESERVED_SHIFT;
	hdr->pn_len = (first & QUIC_HDR_PN_LEN_MASK) + 1;
	if (hdr->length < hdr->pn_len)
		return -EINVAL;
	hdr->pn_offset = p - start;
	quic_get_int(&p, &left, &hdr->pn, hdr->pn_len);
	hdr->len = hdr->pn_offset + hdr->length;
	return 0;
}

/**
 * quic_packet_parse - parse the header of the packet at a cursor
 * @pp: cursor at the packet's first byte; advanced past the whole packet
 *	on success, to the next coalesced packet if any
 * @plen: bytes left in the datagram; reduced on success
 * @dcid_len: length of our connection IDs, for a short header
 * @grease: we sent grease_quic_bit, so a Fixed Bit of 0 is accepted
 *	(RFC 9287 Section 3)
 * @hdr: the header; @hdr->token and @hdr->tag point into the packet
 *
 * Coalesced packets (RFC 9000 Section 12.2) are split by calling this
 * again while bytes are left: a long header's Length field bounds its
 * packet, and Retry and 1-RTT packets take the rest of the datagram.
 * Checks that depend on the connection (Initial token from a server,
 * connection IDs of later coalesced packets, reserved bits after header
 * protection removal) are the caller's.
 *
 * Return: 0, -EINVAL for a packet to drop, -EPROTONOSUPPORT for a long
 * header of a version other than v1 and v2 (including Version
 * Negotiation). The cursor is unchanged on failure.
 */
int quic_packet_parse(const u8 **pp, u32 *plen, u8 dcid_len, bool grease,
		      struct quic_packet_hdr *hdr)
{
	struct quic_packet_invariant inv;
	const u8 *start = *pp;
	int err;

	err = quic_packet_peek(start, *plen, dcid_len, &inv);
	if (err)
		return err;
	if (inv.long_header && !quic_packet_version_supported(inv.version))
		return -EPROTONOSUPPORT;

	memset(hdr, 0, sizeof(*hdr));
	hdr->fixed = !!(start[0] & QUIC_HDR_FIXED_BIT);
	/* RFC 9000 Section 17.2: a Fixed Bit of 0 is dropped, unless greased. */
	if (!hdr->fixed && !grease)
		return -EINVAL;
	if (inv.long_header)
		err = quic_packet_parse_long(start, &inv, hdr);
	else
		err = quic_packet_parse_short(start, *plen, &inv, hdr);
	if (err)
		return err;

	*pp += hdr->len;
	*plen -= hdr->len;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_parse);

/**
 * quic_packet_hdr_len - number of bytes quic_packet_build() would write
 * @hdr: the header
 *
 * Return: the length (for Retry: the whole packet, tag included when
 * @hdr->tag is set), or -EINVAL for a header that cannot be built.
 */
int quic_packet_hdr_len(const struct quic_packet_hdr *hdr)
{
	u32 n, lsz;

	if (hdr->dcid.len > QUIC_CONN_ID_MAX_LEN || hdr->fixed > 1)
		return -EINVAL;
	if (hdr->type != QUIC_PACKET_RETRY &&
	    (hdr->pn_len < 1 || hdr->pn_len > 4 || hdr->pn > QUIC_VARINT_MAX))
		return -EINVAL;
	if (hdr->type == QUIC_PACKET_1RTT) {
		if (hdr->spin > 1 || hdr->key_phase > 1)
			return -EINVAL;
		return 1 + hdr->dcid.len + hdr->pn_len;
	}

	if (quic_packet_type_to_wire(quic_packet_layout(hdr->version), hdr->type) < 0 ||
	    hdr->scid.len > QUIC_CONN_ID_MAX_LEN || hdr->token_len > QUIC_MAX_UDP_PAYLOAD)
		return -EINVAL;
	n = QUIC_LONG_HDR_MIN_LEN + hdr->dcid.len + hdr->scid.len;
	switch (hdr->type) {
	case QUIC_PACKET_RETRY:
		if (!hdr->token_len || hdr->reserved > QUIC_HDR_RETRY_UNUSED_MASK)
			return -EINVAL;
		return n + hdr->token_len + (hdr->tag ? QUIC_RETRY_TAG_LEN : 0);
	case QUIC_PACKET_INITIAL:
		n += quic_var_len(hdr->token_len) + hdr->token_len;
		break;
	default:
		if (hdr->token_len)
			return -EINVAL;
		break;
	}

	lsz = hdr->len_size ?: quic_var_len(hdr->length);
	if (hdr->length < hdr->pn_len || (lsz != 1 && lsz != 2 && lsz != 4 && lsz != 8) ||
	    quic_var_len(hdr->length) > lsz)
		return -EINVAL;
	return n + lsz + hdr->pn_len;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_hdr_len);

/**
 * quic_packet_build - write a packet header
 * @pp: output cursor; advanced past the header on success
 * @plen: room left; reduced on success
 * @hdr: the header. @hdr->pn_len is the caller's choice, normally
 *	quic_pn_encode_len(pn, largest_acked) (RFC 9000 Section 17.1).
 *
 * Writes everything up to and including the Packet Number, Reserved Bits
 * as 0; for Retry, the whole packet but the tag when @hdr->tag is NULL.
 * Header protection is applied afterwards by the caller.
 *
 * Return: 0, -EINVAL when quic_packet_hdr_len() refuses @hdr, -ENOSPC
 * when it does not fit; nothing is written on failure.
 */
int quic_packet_build(u8 **pp, u32 *plen, const struct quic_packet_hdr *hdr)
{
	u32 left = *plen;
	u8 *p = *pp;
	int n, wire;
	u8 first;

	n = quic_packet_hdr_len(hdr);
	if (n < 0)
		return n;
	if (n > left)
		return -ENOSPC;

	if (hdr->type == QUIC_PACKET_1RTT) {
		first = (hdr->fixed ? QUIC_HDR_FIXED_BIT : 0) |
			(hdr->spin ? QUIC_HDR_SHORT_SPIN_BIT : 0) |
			(hdr->key_phase ? QUIC_HDR_SHORT_KEY_PHASE_BIT : 0) | (hdr->pn_len - 1);
		quic_put_int(&p, &left, first, 1);
		quic_put_data(&p, &left, hdr->dcid.data, hdr->dcid.len);
		goto pn;
	}

	wire = quic_packet_type_to_wire(quic_packet_layout(hdr->version), hdr->type);
	first = QUIC_HDR_FORM_LONG | (hdr->fixed ? QUIC_HDR_FIXED_BIT : 0) |
		(wire << QUIC_HDR_LONG_TYPE_SHIFT);
	first |= hdr->type == QUIC_PACKET_RETRY ? hdr->reserved : hdr->pn_len - 1;
	quic_put_int(&p, &left, first, 1);
	quic_put_int(&p, &left, hdr->version, QUIC_VERSION_LEN);
	quic_put_int(&p, &left, hdr->dcid.len, 1);
	quic_put_data(&p, &left, hdr->dcid.data, hdr->dcid.len);
	quic_put_int(&p, &left, hdr->scid.len, 1);
	quic_put_data(&p, &left, hdr->scid.data, hdr->scid.len);
	if (hdr->type == QUIC_PACKET_RETRY) {
		quic_put_data(&p, &left, hdr->token, hdr->token_len);
		if (hdr->tag)
			quic_put_data(&p, &left, hdr->tag, QUIC_RETRY_TAG_LEN);
		goto out;
	}
	if (hdr->type == QUIC_PACKET_INITIAL) {
		quic_put_var(&p, &left, hdr->token_len);
		quic_put_data(&p, &left, hdr->token, hdr->token_len);
	}
	quic_put_var_fixed(&p, &left, hdr->length, hdr->len_size ?: quic_var_len(hdr->length));
pn:
	quic_put_int(&p, &left, hdr->pn & GENMASK_ULL(hdr->pn_len * 8 - 1, 0), hdr->pn_len);
out:
	*pp = p;
	*plen = left;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_build);

/**
 * quic_packet_parse_vn - parse a Version Negotiation packet
 * @data: the datagram (a Version Negotiation packet is never coalesced)
 * @len: its length
 * @inv: the connection IDs (up to 255 bytes each) and the version list,
 *	pointing into @data
 * @versions: receives the first @max Supported Versions
 * @max: size of @versions
 *
 * Return: the number of Supported Versions in the packet (which may be
 * more than @max), or -EINVAL when @data is not a Version Negotiation
 * packet or its version list is empty or not a multiple of 4 bytes.
 */
int quic_packet_parse_vn(const u8 *data, u32 len, struct quic_packet_invariant *inv,
			 u32 *versions, u32 max)
{
	const u8 *p;
	u32 left, i;
	u64 v;

	if (quic_packet_peek(data, len, 0, inv) || !inv->long_header ||
	    inv->version != QUIC_VERSION_NEGOTIATION)
		return -EINVAL;
	if (!inv->rest_len || inv->rest_len % QUIC_VERSION_LEN)
		return -EINVAL;

	p = inv->rest;
	left = inv->rest_len;
	for (i = 0; i < max && left; i++) {
		quic_get_int(&p, &left, &v, QUIC_VERSION_LEN);
		versions[i] = v;
	}
	return inv->rest_len / QUIC_VERSION_LEN;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_parse_vn);

/**
 * quic_packet_build_vn - write a Version Negotiation packet in reply to a packet
 * @pp: output cursor; advanced past the packet on success
 * @plen: room left; reduced on success
 * @rcvd: the received packet's long header (quic_packet_peek()); its
 *	Source Connection ID is echoed as Destination and the other way
 *	round (RFC 9000 Section 17.2.1)
 * @versions: Supported Versions, none of them 0
 * @count: number of @versions, 1 to 256
 *
 * The Unused bits are random but for 0x40, which is set so the packet
 * looks like QUIC to demultiplexers (RFC 9000 Section 17.2.1).
 *
 * Return: 0, -EINVAL for a short header, an empty or oversized list or a
 * zero version, -ENOSPC when the packet does not fit.
 */
int quic_packet_build_vn(u8 **pp, u32 *plen, const struct quic_packet_invariant *rcvd,
			 const u32 *versions, u32 count)
{
	u32 left = *plen, need, i;
	u8 *p = *pp;

	if (!rcvd->long_header || !count || count > 256)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (versions[i] == QUIC_VERSION_NEGOTIATION)
			return -EINVAL;
	need = QUIC_LONG_HDR_MIN_LEN + rcvd->scid_len + rcvd->dcid_len + count * QUIC_VERSION_LEN;
	if (need > left)
		return -ENOSPC;

	quic_put_int(&p, &left, QUIC_HDR_FORM_LONG | QUIC_HDR_FIXED_BIT |
		     (get_random_u8() & (QUIC_HDR_FIXED_BIT - 1)), 1);
	quic_put_int(&p, &left, QUIC_VERSION_NEGOTIATION, QUIC_VERSION_LEN);
	quic_put_int(&p, &left, rcvd->scid_len, 1);
	quic_put_data(&p, &left, rcvd->scid, rcvd->scid_len);
	quic_put_int(&p, &left, rcvd->dcid_len, 1);
	quic_put_data(&p, &left, rcvd->dcid, rcvd->dcid_len);
	for (i = 0; i < count; i++)
		quic_put_int(&p, &left, versions[i], QUIC_VERSION_LEN);
	*pp = p;
	*plen = left;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_packet_build_vn);
