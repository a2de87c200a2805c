// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Resumption data (RFC 9001 Section 4.5): the client keeps what GnuTLS
 * learnt from a NewSessionTicket and offers it on the next connection.
 */

#include <errno.h>
#include <string.h>

#include "internal.h"

/* Has GnuTLS taken a NewSessionTicket on this (client) session? */
static bool ticket_received(gnutls_session_t session)
{
	return gnutls_session_get_flags(session) & GNUTLS_SFLAGS_SESSION_TICKET;
}

/*
 * Copy @session's resumption data into @data. On entry *@size is the
 * room in @data, on return the data's length. Returns 0, with *@size 0
 * when there is nothing to resume with yet (no session ticket has come);
 * -ENOSPC when @data is too small (*@size then tells how much is needed;
 * a NULL @data just asks); another negative errno when the kernel's
 * ticket could not be read or taken.
 */
QUIC_API int quic_session_get_data(gnutls_session_t session, void *data, size_t *size)
{
	gnutls_datum_t d = { NULL, 0 };
	int ret;

	if (!session || !size)
		return -EINVAL;
	/* A ticket that came after the handshake is still in the kernel: a new
	 * one first; if GnuTLS has none, the kernel's latest even if read.
	 */
	ret = quic_ticket_client_take(session, false);
	if (!ret && !ticket_received(session))
		ret = quic_ticket_client_take(session, true);
	if (ret)
		return ret;
	/* Without a ticket GnuTLS still returns data (four zero bytes in
	 * TLS 1.3) that resumes nothing: report none.
	 */
	if (!ticket_received(session) || gnutls_session_get_data2(session, &d) || !d.size) {
		gnutls_free(d.data);
		*size = 0;
		return 0;
	}
	if (!data) {
		*size = d.size;
	} else if (*size < d.size) {
		*size = d.size;
		ret = -ENOSPC;
	} else {
		memcpy(data, d.data, d.size);
		*size = d.size;
	}
	/* Resumption data holds the ticket's secret: wipe GnuTLS's copy. */
	explicit_bzero(d.data, d.size);
	gnutls_free(d.data);
	return ret;
}

/*
 * Give a client @session the resumption data (@size bytes) saved from an
 * earlier connection. Returns 0 or -EINVAL.
 */
QUIC_API int quic_session_set_data(gnutls_session_t session, const void *data, size_t size)
{
	if (!session || !data || !size)
		return -EINVAL;
	return gnutls_session_set_data(session, data, size) ? -EINVAL : 0;
}
