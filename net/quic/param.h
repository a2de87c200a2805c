/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QUIC transport parameter codec (RFC 9000 Section 18, with
 * max_datagram_frame_size from RFC 9221 Section 3, grease_quic_bit from
 * RFC 9287 Section 3 and version_information from RFC 9368 Section 3).
 *
 * The parameters travel as a list of (ID, Length, Value) triples inside the
 * TLS quic_transport_parameters extension. struct quic_params holds what an
 * endpoint announces: the integer and flag parameters in the socket API's
 * struct quic_transport_param (times in microseconds there, milliseconds on
 * the wire) and the connection IDs, stateless reset token, preferred
 * address and version information next to it.
 *
 * This component owns every rule on transport parameters: the ranges of
 * RFC 9000 Section 18.2 that the socket option shares
 * (quic_param_validate()), the wire format, the role and presence rules,
 * version_information (RFC 9368 Sections 3 and 4) and the connection ID
 * authentication of RFC 9000 Section 7.3 (quic_param_cid_auth()).
 *
 * Error convention: every check of the peer's parameters here returns
 * -EINVAL and only -EINVAL, and -EINVAL from them always means "close the
 * connection with TRANSPORT_PARAMETER_ERROR" (0x08). These errnos are not
 * frame decoder errnos: quic_frame_transport_error() maps -EINVAL to
 * INTERNAL_ERROR and must not be used on them.
 */

#ifndef __net_quic_param_h__
#define __net_quic_param_h__

#include <linux/types.h>
#include <linux/quic.h>

#include "common.h"
#include "frame.h"

/* Transport parameter IDs (RFC 9000 Section 18.2 and the RFCs above). */
enum quic_transport_param_id {
	QUIC_TRANSPORT_PARAM_ORIGINAL_DESTINATION_CONNECTION_ID		= 0x00,
	QUIC_TRANSPORT_PARAM_MAX_IDLE_TIMEOUT				= 0x01,
	QUIC_TRANSPORT_PARAM_STATELESS_RESET_TOKEN			= 0x02,
	QUIC_TRANSPORT_PARAM_MAX_UDP_PAYLOAD_SIZE			= 0x03,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_DATA				= 0x04,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_LOCAL		= 0x05,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_BIDI_REMOTE	= 0x06,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAM_DATA_UNI		= 0x07,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_BIDI			= 0x08,
	QUIC_TRANSPORT_PARAM_INITIAL_MAX_STREAMS_UNI			= 0x09,
	QUIC_TRANSPORT_PARAM_ACK_DELAY_EXPONENT				= 0x0a,
	QUIC_TRANSPORT_PARAM_MAX_ACK_DELAY				= 0x0b,
	QUIC_TRANSPORT_PARAM_DISABLE_ACTIVE_MIGRATION			= 0x0c,
	QUIC_TRANSPORT_PARAM_PREFERRED_ADDRESS				= 0x0d,
	QUIC_TRANSPORT_PARAM_ACTIVE_CONNECTION_ID_LIMIT			= 0x0e,
	QUIC_TRANSPORT_PARAM_INITIAL_SOURCE_CONNECTION_ID		= 0x0f,
	QUIC_TRANSPORT_PARAM_RETRY_SOURCE_CONNECTION_ID			= 0x10,
	QUIC_TRANSPORT_PARAM_VERSION_INFORMATION			= 0x11,
	QUIC_TRANSPORT_PARAM_MAX_DATAGRAM_FRAME_SIZE			= 0x20,
	QUIC_TRANSPORT_PARAM_GREASE_QUIC_BIT				= 0x2ab2,
	/* Not an RFC parameter: the in-kernel QUIC extension to run 1-RTT
	 * packets unprotected, the ID upstream implementations use.
	 */
	QUIC_TRANSPORT_PARAM_DISABLE_1RTT_ENCRYPTION			= 0xbaad,
};

/* Available Versions of a version_information parameter kept verbatim. */
#define QUIC_PARAM_MAX_VERSIONS		8

/* Bits of &quic_param_version_info.supported: the versions we implement. */
#define QUIC_PARAM_VERSION_V1		BIT(0)	/* QUIC_VERSION_V1, RFC 9000 */
#define QUIC_PARAM_VERSION_V2		BIT(1)	/* QUIC_VERSION_V2, RFC 9369 */

/* Which of the optional parameters of struct quic_params are present. */
#define QUIC_PARAM_HAS_ORIG_DCID	BIT(0)	/* original_destination_connection_id */
#define QUIC_PARAM_HAS_INIT_SCID	BIT(1)	/* initial_source_connection_id */
#define QUIC_PARAM_HAS_RETRY_SCID	BIT(2)	/* retry_source_connection_id */
#define QUIC_PARAM_HAS_PREF_ADDR	BIT(3)	/* preferred_address */

/**
 * struct quic_param_pref_addr - a server's preferred_address (RFC 9000 Section 18.2)
 * @addr: the address to migrate to; when decoding, the one the socket can
 *	use (sa_family 0 when neither family offered is usable), see
 *	quic_get_pref_addr()
 * @addr2: when encoding, an address of the other IP version than @addr to
 *	announce too, or unset (sa_family 0); left unset when decoding
 * @cid: Connection ID, sequence number 1, 1 to 20 bytes
 * @token: Stateless Reset Token of @cid
 */
struct quic_param_pref_addr {
	union quic_addr addr;
	union quic_addr addr2;
	struct quic_conn_id cid;
	u8 token[QUIC_FRAME_TOKEN_LEN];
};

/**
 * struct quic_param_version_info - version_information (RFC 9368 Section 3)
 * @chosen: Chosen Version
 * @count: number of entries in @available (what the encoder writes)
 * @available: Available Versions, in the order received. A peer's list may
 *	be longer: it is validated whole, its first %QUIC_PARAM_MAX_VERSIONS
 *	entries are kept here and @total and @supported describe the rest.
 * @total: number of Available Versions the peer sent (decoder only)
 * @supported: QUIC_PARAM_VERSION_* bits of the versions we implement that
 *	appear anywhere in the peer's list (decoder only)
 *
 * Compatible version negotiation (RFC 9368 Section 2.3) and downgrade
 * prevention (Section 4) only ask whether a version we implement is among
 * the peer's Available Versions: quic_param_version_listed() answers that
 * for a list of any length.
 */
struct quic_param_version_info {
	u32 chosen;
	u32 count;
	u32 available[QUIC_PARAM_MAX_VERSIONS];
	u32 total;
	u32 supported;
};

/**
 * struct quic_param_cids - connection IDs seen in the handshake packets
 * @odcid: at a client, the Destination Connection ID of the first Initial
 *	it sent; not used at a server
 * @peer_scid: the Source Connection ID of the peer's first Initial packet
 *	(at a client: of the server's first Initial or Handshake packet)
 * @retry_scid: at a client, the Source Connection ID of the Retry packet
 *	it processed, NULL when there was none; not used at a server
 */
struct quic_param_cids {
	const struct quic_conn_id *odcid;
	const struct quic_conn_id *peer_scid;
	const struct quic_conn_id *retry_scid;
};

/**
 * struct quic_params - the transport parameters of one endpoint
 * @tp: integer and flag parameters. @tp.stateless_reset says whether
 *	stateless_reset_token is present, @tp.disable_compatible_version
 *	whether version_information is absent.
 * @orig_dcid: original_destination_connection_id
 * @init_scid: initial_source_connection_id
 * @retry_scid: retry_source_connection_id
 * @reset_token: stateless_reset_token
 * @pref: preferred_address
 * @vi: version_information
 * @present: QUIC_PARAM_HAS_* bits for the connection IDs and @pref
 */
struct quic_params {
	struct quic_transport_param tp;
	struct quic_conn_id orig_dcid;
	struct quic_conn_id init_scid;
	struct quic_conn_id retry_scid;
	u8 reset_token[QUIC_FRAME_TOKEN_LEN];
	struct quic_param_pref_addr pref;
	struct quic_param_version_info vi;
	u32 present;
};

struct sock;

int quic_param_validate(const struct quic_transport_param *p);
void quic_param_init(struct quic_params *params);
int quic_param_encode(struct sock *sk, bool is_serv, const struct quic_params *params,
		      u8 **pp, u32 *plen);
int quic_param_decode(struct sock *sk, bool is_serv, const u8 *data, u32 len,
		      struct quic_params *params);
bool quic_param_version_listed(const struct quic_param_version_info *vi, u32 version);
int quic_param_cid_auth(const struct quic_params *peer, bool is_serv,
			const struct quic_param_cids *seen);

#endif /* __net_quic_param_h__ */
