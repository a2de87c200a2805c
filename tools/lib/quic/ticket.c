// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Session tickets and 0-RTT (RFC 9001 Sections 4.5 and 4.6).
 *
 * Server: tickets are protected with the key the kernel keeps on the
 * listener (QUIC_SOCKOPT_SESSION_TICKET on the accepted socket), so any
 * connection of the listener, in any process, resumes the sessions of the
 * others. One NewSessionTicket goes out when the handshake completes; it
 * allows 0-RTT with max_early_data_size 0xffffffff, the only value QUIC
 * permits (Section 4.6.1). Early data is accepted once per ClientHello:
 * GnuTLS's anti-replay check (RFC 8446 Section 8.2) with a store of the
 * ClientHellos seen within its window (10 s). The store is shared with
 * the processes a server forks, and with any process on the machine that
 * names the same file with quic_set_replay_store().
 *
 * Client: the kernel keeps the NewSessionTicket messages that arrive after
 * the handshake and raises POLLPRI; they are given to GnuTLS here, when
 * the caller asks for the resumption data, or at the end of the handshake
 * when the socket's receive_session_ticket asks to wait for one.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "internal.h"

#define QUIC_TICKET_KEY_LEN	64	/* what gnutls_session_ticket_enable_server takes */
#define QUIC_TICKET_MSG_MAX	(4096 + 4)
#define QUIC_REPLAY_SLOTS	4096
#define QUIC_REPLAY_KEY_MAX	64

struct replay_slot {
	time_t expires;		/* 0: free */
	uint8_t len;
	uint8_t key[QUIC_REPLAY_KEY_MAX];
};

/* "QRS1": a store file made by quic_set_replay_store(), initialised. */
#define QUIC_REPLAY_MAGIC	0x51525331u

/* Shared with the processes a server forks per connection (MAP_SHARED):
 * a ClientHello replayed to another child is still caught. In a file, it
 * is shared by every process that maps it.
 */
struct replay_store {
	uint32_t magic;		/* QUIC_REPLAY_MAGIC once @lock is set up */
	pthread_mutex_t lock;	/* process-shared, robust */
	struct replay_slot slots[QUIC_REPLAY_SLOTS];
};

static gnutls_anti_replay_t replay;
static struct replay_store *replay_db;

static uint32_t replay_hash(const uint8_t *p, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/*
 * gnutls_db_add_func for the anti-replay store: 0 when @key is new (it is
 * kept until @exp), GNUTLS_E_DB_ENTRY_EXISTS for a replay, another error
 * when the store is full (GnuTLS then rejects the early data).
 */
static int replay_add(void *ptr, time_t exp, const gnutls_datum_t *key,
		      const gnutls_datum_t *data)
{
	size_t len = key->size < QUIC_REPLAY_KEY_MAX ? key->size : QUIC_REPLAY_KEY_MAX;
	uint32_t h = replay_hash(key->data, key->size);
	struct replay_store *db = __atomic_load_n(&replay_db, __ATOMIC_ACQUIRE);
	struct replay_slot *s, *freeslot = NULL;
	time_t now = time(NULL);
	int i, ret = GNUTLS_E_DB_ERROR;

	(void)ptr;
	(void)data;
	/* A holder that died leaves the slots as they were: still usable. */
	if (pthread_mutex_lock(&db->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&db->lock);
	for (i = 0; i < 16; i++) {
		s = &db->slots[(h + i) % QUIC_REPLAY_SLOTS];
		if (s->expires && s->expires < now)
			s->expires = 0;
		if (!s->expires) {
			if (!freeslot)
				freeslot = s;
			continue;
		}
		if (s->len == len && !memcmp(s->key, key->data, len)) {
			ret = GNUTLS_E_DB_ENTRY_EXISTS;
			goto out;
		}
	}
	if (freeslot) {
		freeslot->expires = exp > now ? exp : now + 1;
		freeslot->len = len;
		memcpy(freeslot->key, key->data, len);
		ret = 0;
	}
out:
	pthread_mutex_unlock(&db->lock);
	return ret;
}

/*
 * Made when the library is loaded: GnuTLS refuses early data on tickets
 * issued before its anti-replay context was created, and a server that
 * forks per connection issues a ticket in one child and sees it come back
 * in another. Without it (no memory), servers accept no early data.
 */
/* A process-shared, robust mutex for a store; 0 or an errno. */
static int replay_lock_init(struct replay_store *db)
{
	pthread_mutexattr_t attr;
	int err;

	err = pthread_mutexattr_init(&attr);
	if (err)
		return err;
	err = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) ?:
	      pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST) ?:
	      pthread_mutex_init(&db->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (!err)
		db->magic = QUIC_REPLAY_MAGIC;
	return err;
}

__attribute__((constructor)) static void replay_init(void)
{
	void *p;

	p = mmap(NULL, sizeof(*replay_db), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return;
	replay_db = p;
	if (replay_lock_init(replay_db) || gnutls_anti_replay_init(&replay)) {
		munmap(p, sizeof(*replay_db));
		replay_db = NULL;
		replay = NULL;
		return;
	}
	gnutls_anti_replay_set_add_function(replay, replay_add);
}

/*
 * Map the store file at @fd, making it when it is new. The file is locked
 * while it is checked and set up, so that processes starting together
 * agree on one store.
 */
static struct replay_store *replay_map(int fd)
{
	struct replay_store *db = MAP_FAILED;
	struct stat st;
	int err = 0;

	if (flock(fd, LOCK_EX))
		return NULL;
	if (fstat(fd, &st)) {
		err = errno;
		goto out;
	}
	/* Another user's file, or one others may write, is not trusted. */
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 0077)) {
		err = EPERM;
		goto out;
	}
	if (st.st_size && st.st_size != sizeof(*db)) {
		err = EINVAL;
		goto out;
	}
	if (!st.st_size && ftruncate(fd, sizeof(*db))) {
		err = errno;
		goto out;
	}
	db = mmap(NULL, sizeof(*db), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (db == MAP_FAILED) {
		err = errno;
		goto out;
	}
	if (db->magic != QUIC_REPLAY_MAGIC) {
		memset(db, 0, sizeof(*db));
		err = replay_lock_init(db);
	}
out:
	flock(fd, LOCK_UN);
	if (err) {
		if (db != MAP_FAILED)
			munmap(db, sizeof(*db));
		errno = err;
		return NULL;
	}
	return db;
}

QUIC_API int quic_set_replay_store(const char *path)
{
	struct replay_store *db;
	int fd;

	if (!path || !*path)
		return -EINVAL;
	if (!replay)
		return -ENOMEM;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	db = replay_map(fd);
	if (!db) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	/* Handshakes after this one use the file; a store in use stays mapped. */
	__atomic_store_n(&replay_db, db, __ATOMIC_RELEASE);
	return 0;
}

__attribute__((destructor)) static void replay_exit(void)
{
	if (replay)
		gnutls_anti_replay_deinit(replay);
	if (replay_db)
		munmap(replay_db, sizeof(*replay_db));
	replay = NULL;
	replay_db = NULL;
}

/*
 * A server session: protect tickets with the listener's key, allow 0-RTT
 * once per ticket. Without a key (an old kernel, or a socket that did not
 * come from a listener) the session simply issues no tickets.
 */
void quic_ticket_server_setup(struct quic_conn *conn)
{
	uint8_t key[QUIC_TICKET_KEY_LEN];
	socklen_t len = sizeof(key);
	gnutls_datum_t d;

	if (quic_kops->getsockopt(conn->fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, key, &len) ||
	    len != sizeof(key))
		goto out;
	d.data = key;
	d.size = len;
	if (gnutls_session_ticket_enable_server(conn->session, &d)) {
		quic_warn("session tickets could not be enabled");
	} else {
		conn->tickets = true;
		gnutls_record_set_max_early_data_size(conn->session, 0xffffffffu);
		if (replay)
			gnutls_anti_replay_enable(conn->session, replay);
	}
out:
	/* Also after a short read: part of the key may have arrived. */
	explicit_bzero(key, sizeof(key));
}

/* A server whose handshake completed: queue one NewSessionTicket. */
void quic_ticket_server_send(struct quic_conn *conn)
{
	int ret;

	if (!conn->tickets)
		return;
	ret = gnutls_session_ticket_send(conn->session, 1, 0);
	if (ret)
		quic_warn("no session ticket sent: %s", gnutls_strerror(ret));
}

/*
 * Give GnuTLS the NewSessionTicket the kernel holds for the client socket
 * of @session: only a new one (POLLPRI), or with @any the one it holds
 * whether read before or not. Returns 0 (also when there is none) or a
 * negative errno.
 */
int quic_ticket_client_take(gnutls_session_t session, bool any)
{
	uint8_t *msg;
	socklen_t len = QUIC_TICKET_MSG_MAX;
	struct pollfd pfd;
	int fd, ret;

	fd = gnutls_transport_get_int(session);
	if (fd < 0)
		return 0;
	pfd.fd = fd;
	pfd.events = POLLPRI;
	pfd.revents = 0;
	if (!any && (quic_kops->poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLPRI)))
		return 0;
	msg = malloc(len);
	if (!msg)
		return -ENOMEM;
	ret = 0;
	if (quic_kops->getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_SESSION_TICKET, msg, &len)) {
		ret = -errno;
	} else if (len) {
		ret = gnutls_handshake_write(session, GNUTLS_ENCRYPTION_LEVEL_APPLICATION, msg, len);
		if (ret) {
			quic_warn("the session ticket was not taken: %s", gnutls_strerror(ret));
			ret = -EPROTO;
		}
	}
	explicit_bzero(msg, QUIC_TICKET_MSG_MAX);
	free(msg);
	return ret;
}

/*
 * A client whose socket asks for it (receive_session_ticket): wait up to
 * @timeout_ms for the server's first NewSessionTicket and take it.
 * Returns 0, -ETIMEDOUT, or a negative errno.
 */
int quic_ticket_client_wait(gnutls_session_t session, int timeout_ms)
{
	struct quic_config cfg;
	socklen_t len = sizeof(cfg);
	struct pollfd pfd;
	int fd, n;

	fd = gnutls_transport_get_int(session);
	if (quic_kops->getsockopt(fd, SOL_QUIC, QUIC_SOCKOPT_CONFIG, &cfg, &len) ||
	    !cfg.receive_session_ticket)
		return 0;
	pfd.fd = fd;
	pfd.events = POLLPRI;
	pfd.revents = 0;
	n = quic_kops->poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (!n)
		return -ETIMEDOUT;
	if (!(pfd.revents & POLLPRI))
		return -ECONNRESET;	/* error or hang-up before a ticket */
	return quic_ticket_client_take(session, false);
}
