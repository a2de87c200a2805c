// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host tests of the application protocols (hq.c, h3.c with the real
 * nghttp3, sniff.c): a client and a server talk through a fake transport
 * in one process, no QUIC kernel needed. The fake behaves like the
 * kernel's stream API as the tools use it (docs/connection.md):
 *
 * - send() takes at most a random budget of bytes per round and reports
 *   -EAGAIN once it is spent (a full send buffer), so writes are short;
 * - open() hands out stream IDs in order (RFC 9000 Section 2.1) and
 *   -EAGAIN at the peer's stream limit; a client's bidirectional limit
 *   grows by one each time the server ends a response (the kernel does
 *   so when a stream is released), so a limit below the number of
 *   requests is exercised;
 * - the receiver gets each stream's bytes in order, cut into random
 *   pieces, streams interleaved, FIN on the last piece;
 * - stream resets are -EOPNOTSUPP, as in this kernel today.
 *
 * It also flags misuse: writing after FIN, on a stream not opened, or on
 * the peer's unidirectional stream.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common.h"
#include "tests.h"

#define MAX_SIDS	4096

struct chunk {
	struct chunk *next;
	int64_t sid;
	bool fin;
	size_t len;
	uint8_t data[];
};

struct end {
	struct qt_io io;	/* first: the protocols see this */
	struct end *peer;
	struct chunk *head, **tail;	/* on their way to the peer */
	size_t budget, piece;	/* bytes send() takes this round, per call */
	uint64_t opened[2], max[2];	/* [0] bidi, [1] uni */
	bool fin[MAX_SIDS];	/* FIN sent, by sid >> 2 and type */
	int violations;
};

static const char *dir;
static unsigned int seed = 1;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245 + 12345;
	return n ? (seed >> 8) % n : 0;
}

static struct end *to_end(struct qt_io *io)
{
	return (struct end *)io;
}

static bool *fin_slot(struct end *e, int64_t sid)
{
	uint64_t i = (uint64_t)sid >> 2;

	return i < MAX_SIDS / 4 ? &e->fin[i * 4 + (sid & 3)] : NULL;
}

static void violation(struct end *e, const char *what, int64_t sid)
{
	printf("# %s: %s (stream %lld)\n", e->io.server ? "server" : "client", what,
	       (long long)sid);
	e->violations++;
}

static ssize_t fake_send(struct qt_io *io, int64_t sid, const struct iovec *iov, int iovcnt,
			 bool fin)
{
	struct end *e = to_end(io);
	bool local = !!(sid & QT_SID_SERVER) == io->server;
	bool uni = sid & QT_SID_UNI;
	size_t total = 0, n, off = 0;
	struct chunk *c;
	bool *done;
	int i;

	if (local && (uint64_t)(sid >> 2) >= e->opened[uni])
		violation(e, "write on a stream not opened", sid);
	if (!local && uni)
		violation(e, "write on the peer's unidirectional stream", sid);
	done = fin_slot(e, sid);
	if (!done)
		return -ENOSPC;
	if (*done) {
		violation(e, "write after FIN", sid);
		return -EPIPE;
	}
	for (i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	if (!e->budget)
		return -EAGAIN;
	n = total < e->budget ? total : e->budget;
	if (n > e->piece)
		n = e->piece;
	e->budget -= n;
	c = malloc(sizeof(*c) + n);
	if (!c)
		return -ENOMEM;
	c->next = NULL;
	c->sid = sid;
	c->len = n;
	c->fin = fin && n == total;
	for (i = 0; i < iovcnt && off < n; i++) {
		size_t take = iov[i].iov_len < n - off ? iov[i].iov_len : n - off;

		memcpy(c->data + off, iov[i].iov_base, take);
		off += take;
	}
	*e->tail = c;
	e->tail = &c->next;
	if (c->fin) {
		*done = true;
		/* A response ended: the client gets a stream back. */
		if (io->server && QT_SID_CLIENT_BIDI(sid))
			e->peer->max[0]++;
	}
	return (ssize_t)n;
}

static int fake_open(struct qt_io *io, bool uni, int64_t *sid)
{
	struct end *e = to_end(io);

	if (e->opened[uni] >= e->max[uni])
		return -EAGAIN;
	*sid = (int64_t)(e->opened[uni]++ << 2) | (io->server ? QT_SID_SERVER : 0) |
	       (uni ? QT_SID_UNI : 0);
	return 0;
}

static int fake_reset(struct qt_io *io, int64_t sid, uint64_t code)
{
	(void)io;
	(void)sid;
	(void)code;
	return -EOPNOTSUPP;
}

static const struct qt_io_ops fake_ops = {
	.send	= fake_send,
	.open	= fake_open,
	.reset	= fake_reset,
	.stop	= fake_reset,
};

static void end_init(struct end *e, bool server, struct end *peer, uint64_t bidi, uint64_t uni)
{
	memset(e, 0, sizeof(*e));
	e->io.ops = &fake_ops;
	e->io.server = server;
	e->io.local_max_bidi = 100;
	e->peer = peer;
	e->tail = &e->head;
	e->max[0] = bidi;
	e->max[1] = uni;
}

static void end_free(struct end *e)
{
	struct chunk *c;

	while ((c = e->head)) {
		e->head = c->next;
		free(c);
	}
}

/* Hand what @from sent to @app in random pieces. Returns bytes moved or -errno. */
static long deliver(struct end *from, struct qt_app *app)
{
	long moved = 0;
	struct chunk *c;
	size_t off, n;
	int ret;

	while ((c = from->head)) {
		from->head = c->next;
		if (!from->head)
			from->tail = &from->head;
		off = 0;
		do {
			n = c->len - off;
			if (n > 1)
				n = 1 + rnd((unsigned int)n);
			ret = app->ops->recv(app, c->sid, c->data + off, n,
					     c->fin && off + n == c->len);
			off += n;
		} while (!ret && off < c->len);
		moved += (long)c->len + 1;
		free(c);
		if (ret)
			return ret;
	}
	return moved;
}

/*
 * Run @cli against @srv until the client is done. Budgets per round are
 * random up to @budget bytes, each send() call up to @piece bytes.
 * Returns 0, or -1 when something failed or stalled.
 */
static int pump(struct end *c, struct end *s, struct qt_app *cli, struct qt_app *srv,
		unsigned int budget, unsigned int piece)
{
	int round, idle = 0, wc, ws;
	long a, b;

	for (round = 0; round < 500000; round++) {
		c->budget = 1 + rnd(budget);
		s->budget = 1 + rnd(budget);
		c->piece = s->piece = 1 + rnd(piece);
		wc = cli->ops->flush(cli);
		ws = srv->ops->flush(srv);
		if (wc < 0 || ws < 0) {
			printf("# flush failed: client %d, server %d\n", wc, ws);
			return -1;
		}
		a = deliver(c, srv);
		b = deliver(s, cli);
		if (a < 0 || b < 0) {
			printf("# recv failed: server %ld, client %ld\n", a, b);
			return -1;
		}
		if (cli->ops->done(cli)) {
			if (getenv("QT_TEST_VERBOSE"))
				printf("# done after %d rounds\n", round);
			return 0;
		}
		if (a || b || (wc & QT_WANT_WRITE) || (ws & QT_WANT_WRITE))
			idle = 0;
		else if (++idle > 3) {
			printf("# stalled after %d rounds (client wants %d, server %d)\n",
			       round, wc, ws);
			return -1;
		}
	}
	printf("# still running after %d rounds\n", round);
	return -1;
}

/* ---- fixtures ---- */

#define NFILES	48

struct fixture {
	char root[512], out[512];
	char names[NFILES][32];
	size_t sizes[NFILES];
	int rootfd;
};

static void fill(uint8_t *p, size_t n, unsigned int k)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31 + k * 7 + (i >> 9));
}

static int fixture_init(struct fixture *f)
{
	static const size_t big[] = { 0, 1, 1000, 65535, 65536, 65537, 300001, 1500000 };
	char path[1024];
	uint8_t *buf;
	size_t i;
	int fd;

	snprintf(f->root, sizeof(f->root), "%s/www", dir);
	snprintf(f->out, sizeof(f->out), "%s/downloads", dir);
	mkdir(dir, 0755);
	mkdir(f->root, 0755);
	mkdir(f->out, 0755);
	snprintf(path, sizeof(path), "%s/secret", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "secret\n", 7) != 7)
		return -1;
	close(fd);
	buf = malloc(1500000);
	if (!buf)
		return -1;
	for (i = 0; i < NFILES; i++) {
		f->sizes[i] = i < 8 ? big[i] : 2048 + i;
		snprintf(f->names[i], sizeof(f->names[i]), "f%02zu.bin", i);
		snprintf(path, sizeof(path), "%s/%s", f->root, f->names[i]);
		fill(buf, f->sizes[i], (unsigned int)i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || qt_write_all(fd, buf, f->sizes[i])) {
			free(buf);
			return -1;
		}
		close(fd);
	}
	free(buf);
	/* A link out of the root: RESOLVE_BENEATH must refuse it. */
	snprintf(path, sizeof(path), "%s/link", f->root);
	unlink(path);
	if (symlink("../secret", path))
		return -1;
	f->rootfd = open(f->root, O_RDONLY | O_DIRECTORY);
	return f->rootfd < 0 ? -1 : 0;
}

/* Does @path hold file @i's bytes? */
static bool same(const char *path, size_t size, unsigned int k)
{
	uint8_t *want, *got;
	struct stat st;
	bool ok = false;
	int fd;

	if (stat(path, &st) || (size_t)st.st_size != size)
		return false;
	want = malloc(size + 1);
	got = malloc(size + 1);
	fd = open(path, O_RDONLY);
	if (want && got && fd >= 0 && read(fd, got, size + 1) == (ssize_t)size) {
		fill(want, size, k);
		ok = !memcmp(want, got, size);
	}
	if (fd >= 0)
		close(fd);
	free(want);
	free(got);
	return ok;
}

static bool why_is(const struct qt_request *r, const char *why)
{
	return r->state == QT_REQ_FAILED && r->why && !strcmp(r->why, why);
}

enum server_kind { SRV_HQ, SRV_H3, SRV_SNIFF };
enum { EXTRA_MISSING, EXTRA_DOTDOT, EXTRA_ESCAPED, EXTRA_LINK, NEXTRA };

static const char *const extras[NEXTRA] = {
	"/missing.bin", "/../secret", "/%2e%2e/secret?x", "/link",
};

/*
 * Fetch every fixture file plus the refused ones with @h3 (else hq),
 * from a server of @kind, and check the outcome of each request.
 */
static void run_case(struct fixture *f, const char *name, bool h3, enum server_kind kind,
		     uint64_t max_bidi, unsigned int budget, unsigned int piece)
{
	struct qt_request reqs[NFILES + NEXTRA];
	char targets[NFILES + NEXTRA][64];
	struct qt_app *cli, *srv;
	struct end c, s;
	size_t i, n = 0, good = 0;
	bool extra_ok = true;
	int ret;

	for (i = 0; i < NFILES; i++) {
		snprintf(targets[n], sizeof(targets[n]), "/%s", f->names[i]);
		qt_req_init(&reqs[n++], targets[i], targets[i], NULL);
	}
	for (i = 0; i < NEXTRA; i++, n++) {
		snprintf(targets[n], sizeof(targets[n]), "%s", extras[i]);
		qt_req_init(&reqs[n], extras[i], targets[n], NULL);
	}
	for (i = 0; i < n; i++) {
		char base[64];

		qt_path_basename(targets[i], base, sizeof(base));
		if (asprintf(&reqs[i].out, "%s/%zu-%s", f->out, i, base) < 0)
			return;
		unlink(reqs[i].out);
	}

	end_init(&c, false, &s, max_bidi, 3);
	end_init(&s, true, &c, 0, 3);
	s.io.local_max_bidi = max_bidi;
	cli = h3 ? qt_h3_client_new(&c.io, "server.test", reqs, n) :
	      qt_hq_client_new(&c.io, reqs, n);
	srv = kind == SRV_HQ ? qt_hq_server_new(&s.io, f->rootfd) :
	      kind == SRV_H3 ? qt_h3_server_new(&s.io, f->rootfd) :
	      qt_sniff_server_new(&s.io, f->rootfd, true, true);
	if (!cli || !srv) {
		result(false, "%s: setup", name);
		goto out;
	}
	ret = pump(&c, &s, cli, srv, budget, piece);
	result(!ret, "%s: every request finished", name);
	for (i = 0; i < NFILES; i++)
		if (reqs[i].state == QT_REQ_DONE && same(reqs[i].out, f->sizes[i], (unsigned int)i))
			good++;
	result(good == NFILES, "%s: %zu of %d files arrived byte-identical", name, good, NFILES);
	for (i = NFILES; i < n; i++) {
		struct qt_request *r = &reqs[i];
		bool ok;

		/* hq-interop without stream resets: an empty stream. */
		if (h3)
			ok = r->state == QT_REQ_FAILED && access(r->out, F_OK);
		else
			ok = r->state == QT_REQ_DONE && same(r->out, 0, 0);
		if (!ok) {
			printf("# %s: state %d (%s), %llu bytes\n", r->target, r->state,
			       r->why ? r->why : "", (unsigned long long)r->bytes);
			extra_ok = false;
		}
	}
	result(extra_ok, "%s: missing and outside-the-root files refused (%s)", name,
	       h3 ? "404/403, no file saved" : "empty answer");
	if (h3) {
		result(why_is(&reqs[NFILES + EXTRA_MISSING], "status 404") &&
		       why_is(&reqs[NFILES + EXTRA_DOTDOT], "status 403") &&
		       why_is(&reqs[NFILES + EXTRA_ESCAPED], "status 403") &&
		       why_is(&reqs[NFILES + EXTRA_LINK], "status 403"),
		       "%s: status 404 for a missing file, 403 for \"..\" and a link out", name);
	}
	result(!c.violations && !s.violations, "%s: no stream misuse (%d client, %d server)",
	       name, c.violations, s.violations);
out:
	if (cli)
		cli->ops->free(cli);
	if (srv)
		srv->ops->free(srv);
	for (i = 0; i < n; i++) {
		if (reqs[i].fd >= 0)
			close(reqs[i].fd);
		free(reqs[i].out);
	}
	end_free(&c);
	end_free(&s);
}

/* The server must not serve a request before its line is complete. */
static void test_hq_partial_line(struct fixture *f)
{
	static const char req[] = "GET /f02.bin\r\n";
	struct qt_app *srv;
	struct end c, s;
	size_t i;
	int w;

	end_init(&c, false, &s, 10, 3);
	end_init(&s, true, &c, 0, 3);
	s.budget = s.piece = 1 << 20;
	srv = qt_hq_server_new(&s.io, f->rootfd);
	if (!srv) {
		result(false, "hq server: setup");
		return;
	}
	for (i = 0; i + 1 < sizeof(req) - 1; i++)
		srv->ops->recv(srv, 0, (const uint8_t *)req + i, 1, false);
	w = srv->ops->flush(srv);
	result(!s.head && !w, "hq server: nothing sent before the request line ends");
	srv->ops->recv(srv, 0, (const uint8_t *)req + i, 1, false);
	w = srv->ops->flush(srv);
	result(s.head && s.head->len == 1000 && s.head->fin && !w,
	       "hq server: the file and FIN once \"\\n\" arrived (FIN from the client later)");
	srv->ops->recv(srv, 0, NULL, 0, true);
	srv->ops->recv(srv, 4, (const uint8_t *)"GET /f02.bin", 12, true);
	end_free(&s);
	s.head = NULL;
	s.tail = &s.head;
	w = srv->ops->flush(srv);
	result(s.head && s.head->sid == 4 && s.head->len == 1000 && s.head->fin && !w,
	       "hq server: a request line without \"\\r\\n\" ended by FIN is served");
	srv->ops->free(srv);
	end_free(&c);
	end_free(&s);
}

/* How many results test_proto() reports. */
int test_proto_count(void)
{
	return 3 + 4 * 4 + 5 * 4;
}

/* Run the protocol tests with files in the scratch directory @scratch. */
void test_proto(const char *scratch)
{
	struct fixture f;

	dir = scratch;
	if (fixture_init(&f)) {
		result(false, "protocol fixture in %s: %s", scratch, strerror(errno));
		return;
	}
	test_hq_partial_line(&f);
	/* name, h3, server, client's bidi limit, budget per round, per call */
	run_case(&f, "hq", false, SRV_HQ, 100, 200000, 70000);
	run_case(&f, "hq, stream limit 4, small writes", false, SRV_HQ, 4, 3000, 500);
	run_case(&f, "hq via the sniffer", false, SRV_SNIFF, 16, 50000, 20000);
	run_case(&f, "hq, tiny writes", false, SRV_HQ, 100, 300, 300);
	run_case(&f, "h3", true, SRV_H3, 100, 200000, 70000);
	run_case(&f, "h3, stream limit 3, small writes", true, SRV_H3, 3, 3000, 700);
	run_case(&f, "h3 via the sniffer", true, SRV_SNIFF, 16, 50000, 20000);
	run_case(&f, "h3, tiny writes", true, SRV_H3, 100, 300, 300);
	close(f.rootfd);
}
