// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Application protocols (ALPN, RFC 9001 Section 8.1), written as the
 * kernel's QUIC_SOCKOPT_ALPN writes them: "name1,name2".
 */

#include <errno.h>
#include <string.h>

#include "internal.h"

#define ALPN_MAX_NAMES	16

/*
 * Offer (client) or accept (server) the protocols in @alpns (@len bytes,
 * no NUL needed), spaces around each name ignored as the kernel ignores
 * them ("smbd, h3" is "smbd" and "h3"). A server insists on one of them:
 * with no overlap the handshake fails with no_application_protocol; the
 * client side check is done when the handshake completes (handshake.c).
 * Returns 0 or -EINVAL.
 */
int quic_alpn_apply(gnutls_session_t session, const char *alpns, size_t len)
{
	gnutls_datum_t names[ALPN_MAX_NAMES];
	size_t start = 0, end, i;
	unsigned int n = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && alpns[i] != ',')
			continue;
		end = i;
		while (start < end && alpns[start] == ' ')
			start++;
		while (end > start && alpns[end - 1] == ' ')
			end--;
		if (end == start || end - start > 255 || n == ALPN_MAX_NAMES)
			return -EINVAL;
		names[n].data = (unsigned char *)alpns + start;
		names[n].size = end - start;
		n++;
		start = i + 1;
	}
	if (gnutls_alpn_set_protocols(session, names, n, GNUTLS_ALPN_MANDATORY))
		return -EINVAL;
	return 0;
}

/*
 * Copy the socket's QUIC_SOCKOPT_ALPN list into @buf as a string. Returns
 * its length (0: none configured) or a negative errno.
 */
int quic_alpn_from_socket(int fd, char *buf, size_t size)
{
	socklen_t len = size - 1;

	if (quic_kops->getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_ALPN, buf, &len))
		return errno == ENOPROTOOPT ? 0 : -errno;
	if (len >= size)
		return -EINVAL;
	buf[len] = '\0';
	return strlen(buf);
}

/*
 * Copy the negotiated protocol into @data. On entry *@size is the room in
 * @data; on return the protocol's length. Returns 0, -ENOSPC when @data
 * is too small (*@size then tells how much is needed), -ENOENT when no
 * protocol was negotiated; a NULL @data only reports the length.
 */
QUIC_API int quic_session_get_alpn(gnutls_session_t session, void *data, size_t *size)
{
	gnutls_datum_t proto;

	if (!session || !size)
		return -EINVAL;
	if (gnutls_alpn_get_selected_protocol(session, &proto))
		return -ENOENT;
	if (!data) {
		*size = proto.size;
		return 0;
	}
	if (*size < proto.size) {
		*size = proto.size;
		return -ENOSPC;
	}
	memcpy(data, proto.data, proto.size);
	*size = proto.size;
	return 0;
}

/*
 * Set the protocols a session offers (client) or accepts (server), in the
 * "name1,name2" form, @size bytes. Returns 0 or -EINVAL.
 */
QUIC_API int quic_session_set_alpn(gnutls_session_t session, const void *data, size_t size)
{
	if (!session || !data || !size)
		return -EINVAL;
	return quic_alpn_apply(session, data, size);
}

static bool take(const uint8_t **p, size_t *left, size_t n)
{
	if (*left < n)
		return false;
	*p += n;
	*left -= n;
	return true;
}

static size_t be(const uint8_t *p, int n)
{
	size_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/*
 * Does the ClientHello @msg (a whole handshake message, @len bytes) carry
 * the ALPN extension (16)? Used by a client to know it must insist on a
 * protocol (RFC 9001 Section 8.1). Returns false for anything malformed.
 */
bool quic_alpn_offered(const uint8_t *msg, size_t len)
{
	const uint8_t *p = msg;
	size_t left = len, n;

	/* header, legacy_version, random */
	if (!take(&p, &left, 4 + 2 + 32))
		return false;
	/* legacy_session_id, cipher_suites, legacy_compression_methods */
	if (!left || !take(&p, &left, 1 + p[0]))
		return false;
	if (left < 2 || !take(&p, &left, 2 + be(p, 2)))
		return false;
	if (!left || !take(&p, &left, 1 + p[0]))
		return false;
	if (left < 2)
		return false;
	n = be(p, 2);
	if (!take(&p, &left, 2) || n > left)
		return false;
	left = n;
	while (left >= 4) {
		size_t type = be(p, 2), elen = be(p + 2, 2);

		if (type == 16)
			return true;
		if (!take(&p, &left, 4 + elen))
			return false;
	}
	return false;
}
