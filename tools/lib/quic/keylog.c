// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NSS key log: with SSLKEYLOGFILE set in the environment, every secret the
 * handshake derives is appended to that file as
 * "LABEL <client random hex> <secret hex>", the format Wireshark reads.
 *
 * The file holds every traffic secret, so it is created readable by its
 * owner only, whatever the umask, and a set-user-ID or set-group-ID
 * program ignores the variable (secure_getenv()): whoever starts such a
 * program must not be able to make it write its secrets out.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* secure_getenv() */
#endif

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static pthread_mutex_t keylog_lock = PTHREAD_MUTEX_INITIALIZER;

static void put_hex(FILE *f, const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

/*
 * gnutls_keylog_func: append one line for @label. Returns 0; a file that
 * cannot be written is logged and otherwise ignored, it must not break
 * the handshake.
 */
int quic_keylog_func(gnutls_session_t session, const char *label, const gnutls_datum_t *secret)
{
	const char *path = secure_getenv("SSLKEYLOGFILE");
	gnutls_datum_t crandom, srandom;
	char buf[512];
	FILE *f = NULL;
	int fd;

	if (!path || !*path)
		return 0;
	gnutls_session_get_random(session, &crandom, &srandom);
	pthread_mutex_lock(&keylog_lock);
	fd = open(path, O_CREAT | O_APPEND | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0) {
		f = fdopen(fd, "a");
		if (!f)
			close(fd);
	}
	if (f) {
		/* Our buffer, not one stdio frees unwiped: it holds the secret. */
		setvbuf(f, buf, _IOFBF, sizeof(buf));
		fprintf(f, "%s ", label);
		put_hex(f, crandom.data, crandom.size);
		fputc(' ', f);
		put_hex(f, secret->data, secret->size);
		fputc('\n', f);
		if (fclose(f))
			quic_warn("writing the key log %s failed", path);
		explicit_bzero(buf, sizeof(buf));
	} else {
		quic_warn("cannot open the key log %s", path);
	}
	pthread_mutex_unlock(&keylog_lock);
	return 0;
}
