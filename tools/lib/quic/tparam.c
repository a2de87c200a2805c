// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The quic_transport_parameters TLS extension (0x39, RFC 9001 Section 8.2):
 * carried in the ClientHello and the EncryptedExtensions. The kernel
 * encodes ours (getsockopt QUIC_SOCKOPT_TRANSPORT_PARAM_EXT) and decodes
 * and validates the peer's (setsockopt of the same option); TLS only
 * carries and authenticates the bytes.
 */

#include <errno.h>
#include <string.h>

#include "internal.h"

/* gnutls_ext_send_func: put our encoded parameters in the message. */
static int tparam_send(gnutls_session_t session, gnutls_buffer_t extdata)
{
	struct quic_conn *conn = quic_conn_find(session);
	int ret;

	if (!conn)
		return GNUTLS_E_INTERNAL_ERROR;
	ret = gnutls_buffer_append_data(extdata, conn->tp, conn->tplen);
	return ret < 0 ? ret : (int)conn->tplen;
}

/*
 * gnutls_ext_recv_func: hand the peer's parameters to the kernel, which
 * refuses a malformed list (and closes with TRANSPORT_PARAMETER_ERROR).
 */
static int tparam_recv(gnutls_session_t session, const unsigned char *data, size_t len)
{
	struct quic_conn *conn = quic_conn_find(session);

	if (!conn)
		return GNUTLS_E_INTERNAL_ERROR;
	if (!len || len > QUIC_TP_MAX) {
		quic_err("peer's transport parameters: bad length %zu", len);
		return GNUTLS_E_RECEIVED_ILLEGAL_PARAMETER;
	}
	if (quic_kops->setsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT, data,
				  len)) {
		quic_err("the kernel refused the peer's transport parameters: %s",
			 strerror(errno));
		return GNUTLS_E_RECEIVED_ILLEGAL_PARAMETER;
	}
	conn->tp_received = true;
	/* A server's own parameters may have changed with the client's: the
	 * version it negotiated goes in its version_information (RFC 9368).
	 */
	if (!conn->client && quic_tparam_load(conn))
		return GNUTLS_E_INTERNAL_ERROR;
	return 0;
}

/*
 * Read our encoded transport parameters from the socket into @conn.
 * Returns 0 or a negative errno.
 */
int quic_tparam_load(struct quic_conn *conn)
{
	socklen_t len = sizeof(conn->tp);

	if (quic_kops->getsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_TRANSPORT_PARAM_EXT,
				  conn->tp, &len)) {
		int err = -errno;

		quic_err("reading our transport parameters: %s", strerror(errno));
		return err;
	}
	if (!len || len > sizeof(conn->tp))
		return -EINVAL;
	conn->tplen = len;
	return 0;
}

/*
 * Register the extension on @conn's session, for TLS (not DTLS), in the
 * ClientHello and the EncryptedExtensions. Returns 0 or a negative errno.
 */
int quic_tparam_register(struct quic_conn *conn)
{
	int ret;

	ret = gnutls_session_ext_register(conn->session, "quic_transport_parameters",
					  QUIC_EXT_TRANSPORT_PARAMS, GNUTLS_EXT_TLS,
					  tparam_recv, tparam_send, NULL, NULL, NULL,
					  GNUTLS_EXT_FLAG_TLS | GNUTLS_EXT_FLAG_CLIENT_HELLO |
					  GNUTLS_EXT_FLAG_EE);
	if (ret) {
		quic_err("registering the transport parameter extension: %s",
			 gnutls_strerror(ret));
		return ret == GNUTLS_E_ALREADY_REGISTERED ? -EALREADY : -EINVAL;
	}
	return 0;
}
