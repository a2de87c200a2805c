/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC packet header codec (RFC 9000 Section 17, RFC 9369 Section 3.2,
 * RFC 9287 for the fixed bit, RFC 8999 invariants for Version Negotiation).
 *
 * This is the header only: no packet protection, no socket. A received
 * datagram is walked with quic_packet_parse(), which returns one packet's
 * header and moves the cursor to the next coalesced packet. The fields
 * under header protection (packet number length, packet number, reserved
 * bits, key phase) are reported as they are in the buffer: meaningful once
 * the caller removed header protection in place.
 *
 * Errors: -EINVAL for a packet to drop (malformed, truncated, connection
 * ID over 20 bytes, fixed bit 0 without greasing allowed), and
 * -EPROTONOSUPPORT for a long header of a version other than QUIC v1 and
 * v2, Version Negotiation included (quic_packet_peek() and
 * quic_packet_parse_vn() read those). Builders return -EINVAL for a header
 * that cannot be written and -ENOSPC when the output is too short, and
 * leave the cursor alone on failure.
 */

#ifndef __net_quic_packet_h__
#define __net_quic_packet_h__

#include <linux/types.h>
#include <linux/quic.h>

#include "common.h"

/* First byte (RFC 9000 Sections 17.2 and 17.3.1). */
#define QUIC_HDR_FORM_LONG		0x80
#define QUIC_HDR_FIXED_BIT		0x40
#define QUIC_HDR_LONG_TYPE_MASK		0x30
#define QUIC_HDR_LONG_TYPE_SHIFT	4
#define QUIC_HDR_LONG_RESERVED_MASK	0x0c
#define QUIC_HDR_LONG_RESERVED_SHIFT	2
#define QUIC_HDR_RETRY_UNUSED_MASK	0x0f
#define QUIC_HDR_SHORT_SPIN_BIT		0x20
#define QUIC_HDR_SHORT_RESERVED_MASK	0x18
#define QUIC_HDR_SHORT_RESERVED_SHIFT	3
#define QUIC_HDR_SHORT_KEY_PHASE_BIT	0x04
#define QUIC_HDR_PN_LEN_MASK		0x03

/* Version Negotiation (RFC 9000 Section 17.2.1): Version 0, IDs up to 255. */
#define QUIC_VERSION_NEGOTIATION	0
#define QUIC_VN_CONN_ID_MAX_LEN		255
#define QUIC_VERSION_LEN		4

/* RFC 9001 Section 5.8: Retry Integrity Tag (128). */
#define QUIC_RETRY_TAG_LEN		16

/* Packet types, the same numbers whatever the version's wire encoding. */
enum quic_packet_type {
	QUIC_PACKET_INITIAL,
	QUIC_PACKET_0RTT,
	QUIC_PACKET_HANDSHAKE,
	QUIC_PACKET_RETRY,
	QUIC_PACKET_1RTT,		/* short header */
	QUIC_PACKET_TYPE_MAX,
};

/**
 * struct quic_packet_hdr - the header of one QUIC v1 or v2 packet
 * @type: &enum quic_packet_type
 * @fixed: Fixed Bit (0 only when the peer allows greasing, RFC 9287)
 * @spin: 1-RTT: Spin Bit
 * @key_phase: 1-RTT: Key Phase
 * @reserved: Reserved Bits (must be 0 once protection is removed); for
 *	Retry the four Unused bits. The builder writes Reserved Bits as 0.
 * @pn_len: length of the Packet Number field, 1 to 4
 * @len_size: build: bytes to encode Length on (0: the shortest encoding);
 *	parse: bytes it took
 * @version: long header: QUIC_VERSION_V1 or QUIC_VERSION_V2
 * @dcid: Destination Connection ID (for 1-RTT, of the length the caller
 *	gives the parser)
 * @scid: Source Connection ID (long headers)
 * @token: Initial: Token; Retry: Retry Token. Points into the packet
 *	(parse) or at the bytes to write (build).
 * @token_len: length of @token
 * @tag: Retry: Retry Integrity Tag, %QUIC_RETRY_TAG_LEN bytes; on build,
 *	NULL leaves it to the caller to append
 * @pn: build: the full packet number, whose low @pn_len bytes are
 *	written; parse: the truncated value in the buffer (see
 *	quic_pn_decode())
 * @length: Length field (Initial, 0-RTT, Handshake): bytes of Packet
 *	Number and Payload; parse also sets it for 1-RTT (the rest of the
 *	datagram after the Destination Connection ID)
 * @pn_offset: parse: offset of the Packet Number from the packet start
 * @len: parse: total length of the packet within the datagram
 */
struct quic_packet_hdr {
	u8 type;
	u8 fixed;
	u8 spin;
	u8 key_phase;
	u8 reserved;
	u8 pn_len;
	u8 len_size;
	u32 version;
	struct quic_conn_id dcid;
	struct quic_conn_id scid;
	const u8 *token;
	u32 token_len;
	const u8 *tag;
	u64 pn;
	u32 length;
	u32 pn_offset;
	u32 len;
};

/**
 * struct quic_packet_invariant - the version-independent view (RFC 8999 Section 5)
 * @long_header: Header Form is 1
 * @version: long header: Version (0 for Version Negotiation)
 * @dcid: Destination Connection ID, in the packet
 * @dcid_len: its length, up to 255 in a long header
 * @scid: long header: Source Connection ID, in the packet
 * @scid_len: its length, up to 255
 * @rest: what follows the connection IDs, in the packet
 * @rest_len: its length
 */
struct quic_packet_invariant {
	u8 long_header;
	u32 version;
	const u8 *dcid;
	u8 dcid_len;
	const u8 *scid;
	u8 scid_len;
	const u8 *rest;
	u32 rest_len;
};

bool quic_packet_version_supported(u32 version);
int quic_packet_type_to_wire(u32 version, u8 type);
int quic_packet_type_from_wire(u32 version, u8 bits);
u8 quic_packet_level(u8 type);
u8 quic_packet_fixed_bit(bool grease);

int quic_packet_peek(const u8 *data, u32 len, u8 dcid_len, struct quic_packet_invariant *inv);
int quic_packet_parse(const u8 **pp, u32 *plen, u8 dcid_len, bool grease,
		      struct quic_packet_hdr *hdr);
int quic_packet_hdr_len(const struct quic_packet_hdr *hdr);
int quic_packet_build(u8 **pp, u32 *plen, const struct quic_packet_hdr *hdr);

int quic_packet_parse_vn(const u8 *data, u32 len, struct quic_packet_invariant *inv,
			 u32 *versions, u32 max);
int quic_packet_build_vn(u8 **pp, u32 *plen, const struct quic_packet_invariant *rcvd,
			 const u32 *versions, u32 count);

#endif /* __net_quic_packet_h__ */
