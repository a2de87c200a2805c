// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compatible version negotiation between QUIC v1 and v2 (RFC 9368 Section
 * 2.3, RFC 9369 Section 4) and version downgrade prevention (RFC 9368
 * Section 4).
 *
 * A client starts in its configured version (the original version) and
 * lists the other one after it in its version_information, unless
 * disable_compatible_version is set. A server whose listener is configured
 * with v2 and that finds v2 in a v1 client's list answers in it (the
 * negotiated version): Initial packets from then on, Handshake and 1-RTT
 * packets always. The client learns it from the Version field of the
 * first Initial of the server that differs from the original version.
 *
 * The Initial keys of the other version are derived in process context
 * ahead of time (the client at connect() and after a Retry, the server
 * when it takes the client's transport parameters); the receive path only
 * swaps them in. The server keeps the original version's Initial keys to
 * read the client's Initial packets sent before it switched, until the
 * Initial keys go. 0-RTT stays in the original version (RFC 9369 Section
 * 4).
 *
 * Both ends check the other's version_information (Section 4): the
 * client's Chosen Version must be the version of its first packets, the
 * server's the version in use. A mismatch closes the connection with
 * VERSION_NEGOTIATION_ERROR.
 */

#include <linux/slab.h>
#include <net/sock.h>

#include "connid.h"
#include "crypto.h"
#include "inqueue.h"
#include "packet.h"
#include "param.h"
#include "path.h"
#include "socket.h"
#include "version.h"

/**
 * quic_version_other - the version compatible with another one
 * @version: QUIC_VERSION_V1 or QUIC_VERSION_V2
 *
 * Return: the other of the two (RFC 9369 Section 4: each is compatible
 * with the other), or 0 for any other version.
 */
u32 quic_version_other(u32 version)
{
	if (version == QUIC_VERSION_V1)
		return QUIC_VERSION_V2;
	if (version == QUIC_VERSION_V2)
		return QUIC_VERSION_V1;
	return 0;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_version_other);

/**
 * quic_version_select - the server's choice of the negotiated version
 * @original: the version of the client's first packets
 * @preferred: the version the listener is configured with
 * @vi: the client's version_information (Chosen Version checked already)
 *
 * RFC 9368 Section 2.3: a version the server supports, compatible with the
 * original one, among the client's Available Versions. The choice is the
 * server's; ours only ever moves up, from v1 to v2 (RFC 9369, whose point
 * is to exercise version negotiation): a listener configured with v2
 * moves v1 clients that offer v2, and a client that starts in v2 stays
 * there whatever the listener's version, which is v1 by default.
 *
 * Return: @preferred when all that holds, otherwise @original.
 */
u32 quic_version_select(u32 original, u32 preferred, const struct quic_param_version_info *vi)
{
	if (original != QUIC_VERSION_V1 || preferred != QUIC_VERSION_V2)
		return original;
	return quic_param_version_listed(vi, preferred) ? preferred : original;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_version_select);

/**
 * quic_version_check_client - a server validates the client's version_information
 * @original: the version of the client's first packets
 * @vi: the client's version_information
 *
 * RFC 9368 Section 4: the client's Chosen Version must match the version
 * in use when it was sent, the original one.
 *
 * Return: 0, or -EPROTO (VERSION_NEGOTIATION_ERROR).
 */
int quic_version_check_client(u32 original, const struct quic_param_version_info *vi)
{
	return vi->chosen == original ? 0 : -EPROTO;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_version_check_client);

/**
 * quic_version_check_server - a client validates the server's version_information
 * @in_use: the version the connection uses (original or negotiated, both
 *	versions the client listed)
 * @vi: the server's version_information
 *
 * RFC 9368 Section 4: the server's Chosen Version must be one the client
 * sent in its Available Versions, and equal to the negotiated version,
 * which a forged long header Version field cannot then change.
 *
 * Return: 0, or -EPROTO (VERSION_NEGOTIATION_ERROR).
 */
int quic_version_check_server(u32 in_use, const struct quic_param_version_info *vi)
{
	return vi->chosen == in_use ? 0 : -EPROTO;
}
EXPORT_SYMBOL_IF_QUIC_KUNIT(quic_version_check_server);

/**
 * quic_version_fill - our version_information
 * @sk: the socket, owned by the caller
 * @vi: out
 *
 * Chosen Version: the version in use (a client's original version, a
 * server's negotiated one). Available Versions: it, then the other one
 * unless compatible version negotiation is disabled.
 */
void quic_version_fill(struct sock *sk, struct quic_param_version_info *vi)
{
	u32 other = quic_version_other(quic_config(sk)->version);

	memset(vi, 0, sizeof(*vi));
	vi->chosen = quic_config(sk)->version;
	vi->available[vi->count++] = vi->chosen;
	if (other && !quic_local_param(sk)->disable_compatible_version)
		vi->available[vi->count++] = other;
}

/**
 * quic_version_free - drop the Initial keys of the other version
 * @sk: the socket, owned by the caller
 *
 * Context: process context.
 */
void quic_version_free(struct sock *sk)
{
	struct quic_sock *qs = quic_sk(sk);

	if (!qs->initial_alt)
		return;
	quic_crypto_destroy(qs->initial_alt);
	kfree(qs->initial_alt);
	qs->initial_alt = NULL;
}

/* Initial keys of @version for @dcid in a new quic_crypto. */
static struct quic_crypto *quic_version_keys(const struct quic_conn_id *dcid, u32 version,
					     bool is_serv)
{
	struct quic_crypto *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	if (quic_crypto_initial_keys_install(c, dcid, version, is_serv)) {
		quic_crypto_destroy(c);
		kfree(c);
		return NULL;
	}
	return c;
}

/**
 * quic_version_prepare - a client gets the other version's Initial keys ready
 * @sk: the socket, owned by the caller, connecting
 *
 * Derived from the Destination Connection ID the current Initial keys came
 * from (the first one, or a Retry's); replaced after a Retry. Nothing is
 * prepared when compatible version negotiation is disabled.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int quic_version_prepare(struct sock *sk)
{
	struct quic_conn_id_entry *dcid = quic_conn_id_active(quic_dest(sk));
	u32 other = quic_version_other(quic_config(sk)->version);

	sock_owned_by_me(sk);
	quic_version_free(sk);
	if (!other || !dcid || quic_local_param(sk)->disable_compatible_version)
		return 0;
	quic_sk(sk)->initial_alt = quic_version_keys(&dcid->id, other, false);
	return quic_sk(sk)->initial_alt ? 0 : -ENOMEM;
}

/**
 * quic_version_switch - a client takes the version of the server's Initial
 * @sk: the socket, owned (softirq with the spinlock)
 * @version: the Version field of an Initial packet of the server
 *
 * RFC 9369 Section 4: the first server packet whose version differs from
 * the original one gives the negotiated version; only a version we
 * offered, and only until CRYPTO data of the server came in the original
 * version (which makes it the negotiated one). An acknowledgment-only
 * Initial of the original version may come first.
 *
 * Return: true when the connection now uses @version (its Initial keys are
 * in place), false when the packet is to be dropped.
 */
bool quic_version_switch(struct sock *sk, u32 version)
{
	struct quic_sock *qs = quic_sk(sk);
	struct quic_crypto *alt = qs->initial_alt;

	if (quic_paths(sk)->serv || !alt || alt->version != version ||
	    version == qs->orig_version ||
	    quic_inq_crypto_offset(quic_inq(sk), QUIC_CRYPTO_INITIAL))
		return false;
	swap(qs->crypto[QUIC_CRYPTO_INITIAL], *alt);
	quic_config(sk)->version = version;
	return true;
}

/**
 * quic_version_negotiate - a server takes the client's version_information
 * @sk: the socket, owned by the caller, in the handshake
 * @vi: the client's version_information (absent: disable_compatible_version)
 *
 * Validates it and, when the listener prefers the other version and the
 * client offers it, switches the connection to it: new Initial keys, the
 * original version's kept to read the client's first flight.
 *
 * Context: process context.
 * Return: 0; -EPROTO (VERSION_NEGOTIATION_ERROR), -ENOMEM.
 */
int quic_version_negotiate(struct sock *sk, const struct quic_param_version_info *vi)
{
	struct quic_path_group *paths = quic_paths(sk);
	struct quic_sock *qs = quic_sk(sk);
	struct quic_crypto *alt;
	u32 version;

	sock_owned_by_me(sk);
	if (quic_version_check_client(qs->orig_version, vi))
		return -EPROTO;
	version = quic_version_select(qs->orig_version, qs->pref_version, vi);
	if (version == quic_config(sk)->version ||
	    quic_local_param(sk)->disable_compatible_version)
		return 0;
	alt = quic_version_keys(paths->retry ? &paths->retry_dcid : &paths->orig_dcid, version,
				true);
	if (!alt)
		return -ENOMEM;
	quic_version_free(sk);
	swap(qs->crypto[QUIC_CRYPTO_INITIAL], *alt);
	qs->initial_alt = alt;
	quic_config(sk)->version = version;
	return 0;
}

/**
 * quic_version_rx_crypto - the keys for a long header packet of another version
 * @sk: the socket, owned (softirq with the spinlock)
 * @type: the packet type (QUIC_PACKET_*)
 * @version: its Version field, not the version in use
 *
 * A server reads the client's Initial packets of the original version with
 * the keys it kept, and 0-RTT packets of the original version (RFC 9369
 * Section 4); a client switches on the server's first Initial. Anything
 * else of another version is dropped.
 *
 * Return: the keys, or NULL to drop the packet.
 */
struct quic_crypto *quic_version_rx_crypto(struct sock *sk, u8 type, u32 version)
{
	struct quic_sock *qs = quic_sk(sk);

	if (quic_paths(sk)->serv) {
		if (version != qs->orig_version)
			return NULL;
		if (type == QUIC_PACKET_0RTT)
			return quic_crypto(sk, QUIC_CRYPTO_EARLY);
		if (type == QUIC_PACKET_INITIAL && qs->initial_alt)
			return qs->initial_alt;
		return NULL;
	}
	if (type == QUIC_PACKET_INITIAL && quic_version_switch(sk, version))
		return quic_crypto(sk, QUIC_CRYPTO_INITIAL);
	return NULL;
}
