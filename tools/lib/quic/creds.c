// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Credentials for quic_client_handshake() and quic_server_handshake():
 * X.509 (the client verifies the server's chain and name, RFC 9001
 * Section 4.4 "Peer Authentication") or a pre-shared key from a file of
 * "identity:hexkey" lines (the format of GnuTLS's psktool).
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_mutex_t opt_lock = PTHREAD_MUTEX_INITIALIZER;
static char *opt_ca_file;
static int opt_insecure;

/* Trust only @ca_file's CAs from now on (NULL: the system's). 0 or -ENOMEM. */
QUIC_API int quic_set_ca_file(const char *ca_file)
{
	char *copy = NULL;

	if (ca_file) {
		copy = strdup(ca_file);
		if (!copy)
			return -ENOMEM;
	}
	pthread_mutex_lock(&opt_lock);
	free(opt_ca_file);
	opt_ca_file = copy;
	pthread_mutex_unlock(&opt_lock);
	return 0;
}

/* Nonzero @insecure: the client no longer verifies the server (tests). */
QUIC_API void quic_set_insecure(int insecure)
{
	pthread_mutex_lock(&opt_lock);
	opt_insecure = !!insecure;
	pthread_mutex_unlock(&opt_lock);
}

static int file_error(int gerr)
{
	if (gerr == GNUTLS_E_FILE_ERROR)
		return -ENOENT;
	return gerr == GNUTLS_E_MEMORY_ERROR ? -ENOMEM : -ENOKEY;
}

/* Release what quic_creds_client()/quic_creds_server() allocated. */
void quic_creds_free(struct quic_creds *creds)
{
	if (creds->cert)
		gnutls_certificate_free_credentials(creds->cert);
	if (creds->psk_client)
		gnutls_psk_free_client_credentials(creds->psk_client);
	if (creds->psk_server)
		gnutls_psk_free_server_credentials(creds->psk_server);
	memset(creds, 0, sizeof(*creds));
}

/* The first "identity:hexkey" line of @path into the client credentials. */
static int psk_client_load(struct quic_creds *creds, const char *path)
{
	char *line = NULL, *sep, *end;
	gnutls_datum_t key;
	size_t cap = 0;
	ssize_t len;
	int ret = -EINVAL;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) >= 0) {
		end = line + len;
		while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
			*--end = '\0';
		if (*line && *line != '#')
			break;
	}
	fclose(f);
	if (len < 0 || !(sep = strchr(line, ':')) || sep == line || !sep[1])
		goto out;
	*sep = '\0';
	key.data = (unsigned char *)sep + 1;
	key.size = strlen(sep + 1);
	if (gnutls_psk_allocate_client_credentials(&creds->psk_client)) {
		ret = -ENOMEM;
		goto out;
	}
	if (gnutls_psk_set_client_credentials(creds->psk_client, line, &key,
					      GNUTLS_PSK_KEY_HEX))
		goto out;
	ret = 0;
out:
	if (line) {
		explicit_bzero(line, cap);
		free(line);
	}
	if (ret)
		quic_err("no usable pre-shared key in %s", path);
	return ret;
}

/*
 * Client credentials for @session: a PSK from @pkey_file, or X.509 with
 * the server verified against the configured CAs and @hostname (also
 * sent as SNI). Returns 0 or a negative errno; @creds then holds what
 * quic_creds_free() releases.
 */
int quic_creds_client(struct quic_creds *creds, gnutls_session_t session,
		      const char *pkey_file, const char *hostname)
{
	int ret, insecure;

	if (hostname && *hostname &&
	    gnutls_server_name_set(session, GNUTLS_NAME_DNS, hostname, strlen(hostname)))
		return -EINVAL;
	if (pkey_file) {
		ret = psk_client_load(creds, pkey_file);
		if (ret)
			return ret;
		return gnutls_credentials_set(session, GNUTLS_CRD_PSK, creds->psk_client) ?
		       -EINVAL : 0;
	}
	if (gnutls_certificate_allocate_credentials(&creds->cert))
		return -ENOMEM;
	pthread_mutex_lock(&opt_lock);
	insecure = opt_insecure;
	if (opt_ca_file)
		ret = gnutls_certificate_set_x509_trust_file(creds->cert, opt_ca_file,
							     GNUTLS_X509_FMT_PEM);
	else
		ret = gnutls_certificate_set_x509_system_trust(creds->cert);
	pthread_mutex_unlock(&opt_lock);
	if (ret < 0) {
		quic_err("loading trust anchors: %s", gnutls_strerror(ret));
		return file_error(ret);
	}
	if (!insecure)
		gnutls_session_set_verify_cert(session, hostname && *hostname ? hostname : NULL,
					       0);
	return gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, creds->cert) ?
	       -EINVAL : 0;
}

/*
 * Server credentials for @session: the certificate chain in @cert_file
 * with its key in @pkey_file, or (@cert_file NULL) the PSK file
 * @pkey_file. Returns 0 or a negative errno (-ENOENT: unreadable file,
 * -ENOKEY: no usable key); @creds then holds what quic_creds_free()
 * releases.
 */
int quic_creds_server(struct quic_creds *creds, gnutls_session_t session,
		      const char *pkey_file, const char *cert_file)
{
	int ret;

	if (!pkey_file)
		return -EINVAL;
	if (!cert_file) {
		if (gnutls_psk_allocate_server_credentials(&creds->psk_server))
			return -ENOMEM;
		ret = gnutls_psk_set_server_credentials_file(creds->psk_server, pkey_file);
		if (ret < 0)
			return file_error(ret);
		return gnutls_credentials_set(session, GNUTLS_CRD_PSK, creds->psk_server) ?
		       -EINVAL : 0;
	}
	if (gnutls_certificate_allocate_credentials(&creds->cert))
		return -ENOMEM;
	ret = gnutls_certificate_set_x509_key_file(creds->cert, cert_file, pkey_file,
						   GNUTLS_X509_FMT_PEM);
	if (ret < 0) {
		quic_err("loading %s and %s: %s", cert_file, pkey_file, gnutls_strerror(ret));
		return file_error(ret);
	}
	return gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, creds->cert) ?
	       -EINVAL : 0;
}
