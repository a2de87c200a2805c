// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A server offering both h3 and hq-interop must learn which one the
 * handshake agreed on. Our libquic leaves the agreed protocol in the
 * accepted socket's QUIC_SOCKOPT_ALPN; when the socket still reports a
 * list (a handshake library that does not record it), the choice is read
 * from the first stream data instead:
 *
 * - anything on a client unidirectional stream is HTTP/3 (its control
 *   and QPACK streams; hq-interop uses none);
 * - a request stream starting with 'G' ("GET /...") is hq-interop;
 *   an HTTP/3 request stream starts with a frame type, 0x01 (HEADERS)
 *   in practice, never 0x47;
 * - anything else is HTTP/3.
 *
 * The protocol is then created and fed everything, starting with these
 * bytes. A client that negotiated one protocol and speaks the other gets
 * errors, as it would anyway.
 */

#include <errno.h>
#include <stdlib.h>

#include "common.h"

struct sniff {
	struct qt_app app;
	struct qt_app *real;	/* NULL until the client spoke */
	int rootfd;
	bool hq, h3;		/* the protocols offered */
};

static int sniff_recv(struct qt_app *app, int64_t sid, const uint8_t *data, size_t len,
		      bool fin)
{
	struct sniff *sn = (struct sniff *)app;
	bool h3;

	if (!sn->real) {
		if (!sn->hq || !sn->h3)
			h3 = sn->h3;
		else if (sid & QT_SID_UNI)
			h3 = true;
		else if (!len)
			h3 = false;	/* a bare FIN is no HTTP/3 request */
		else
			h3 = data[0] != 'G';
		qt_debug("the client speaks %s", h3 ? "h3" : "hq-interop");
		sn->real = h3 ? qt_h3_server_new(app->io, sn->rootfd) :
			   qt_hq_server_new(app->io, sn->rootfd);
		if (!sn->real)
			return -ENOMEM;
	}
	return sn->real->ops->recv(sn->real, sid, data, len, fin);
}

static int sniff_flush(struct qt_app *app)
{
	struct sniff *sn = (struct sniff *)app;

	return sn->real ? sn->real->ops->flush(sn->real) : 0;
}

static uint64_t sniff_close_code(const struct qt_app *app)
{
	const struct sniff *sn = (const struct sniff *)app;

	return sn->real ? sn->real->ops->close_code(sn->real) : 0;
}

static void sniff_free(struct qt_app *app)
{
	struct sniff *sn = (struct sniff *)app;

	if (sn->real)
		sn->real->ops->free(sn->real);
	free(sn);
}

static const struct qt_app_ops sniff_ops = {
	.recv		= sniff_recv,
	.flush		= sniff_flush,
	.close_code	= sniff_close_code,
	.free		= sniff_free,
};

/**
 * qt_sniff_server_new - serve whichever of hq-interop and h3 the client speaks
 * @io: the connection
 * @rootfd: the served directory
 * @hq: hq-interop was offered
 * @h3: h3 was offered
 *
 * Return: the application, or NULL when out of memory.
 */
struct qt_app *qt_sniff_server_new(struct qt_io *io, int rootfd, bool hq, bool h3)
{
	struct sniff *sn = calloc(1, sizeof(*sn));

	if (!sn)
		return NULL;
	sn->app.ops = &sniff_ops;
	sn->app.io = io;
	sn->rootfd = rootfd;
	sn->hq = hq;
	sn->h3 = h3;
	return &sn->app;
}
