// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Credentials for quic_client_handshake() and quic_server_handshake():
 * X.509 (the client verifies the server's chain and name, RFC 9001
 * Section 4.4 "Peer Authentication") or a pre-shared key from a file of
 * "identity:hexkey" lines (the format of GnuTLS's psktool).
 */

#include <errno.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_mutex_t opt_lock = PTHREAD_MUTEX_INITIALIZER;
static char *opt_ca_file;
static int opt_insecure;
static int opt_allow_no_hostname;

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

/*
 * An X.509 client given no host name verifies the server's chain only and
 * logs a warning that the name was not checked. Nonzero @allow says the
 * caller chose that knowingly (its trust anchors identify the server by
 * themselves): the warning is no longer logged.
 */
QUIC_API void quic_set_allow_no_hostname(int allow)
{
	pthread_mutex_lock(&opt_lock);
	opt_allow_no_hostname = !!allow;
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

/*
 * Find @identity (NULL: the first entry) in the PSK file @path, lines of
 * "identity:hexkey". On success *@id and *@key are allocated with
 * gnutls_malloc(). Returns 0, -ENOENT for an unreadable file, -ENOKEY
 * when the identity is not there, or -EINVAL for a bad key.
 */
static int psk_lookup(const char *path, const char *identity, char **id, gnutls_datum_t *key)
{
	char *line = NULL, *sep, *end;
	gnutls_datum_t hex;
	size_t cap = 0;
	ssize_t len;
	int ret = -ENOKEY;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) >= 0) {
		end = line + len;
		while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
			*--end = '\0';
		sep = strchr(line, ':');
		if (*line == '#' || !sep || sep == line)
			continue;
		*sep = '\0';
		if (identity && strcmp(line, identity))
			continue;
		hex.data = (unsigned char *)sep + 1;
		hex.size = strlen(sep + 1);
		ret = -EINVAL;
		if (!hex.size || gnutls_hex_decode2(&hex, key))
			break;
		*id = gnutls_strdup(line);
		if (!*id) {
			gnutls_free(key->data);
			key->data = NULL;
			ret = -ENOMEM;
			break;
		}
		ret = 0;
		break;
	}
	fclose(f);
	if (line) {
		explicit_bzero(line, cap);
		free(line);
	}
	return ret;
}

/*
 * gnutls_psk_server_credentials_function: the key of @username, read from
 * the PSK file. An unknown identity is remembered so that the handshake
 * reports -ENOKEY.
 */
static int psk_server_key(gnutls_session_t session, const char *username,
			  gnutls_datum_t *key)
{
	struct quic_conn *conn = quic_conn_find(session);
	char *id = NULL;
	int ret;

	if (!conn || !conn->psk_file)
		return -1;
	ret = psk_lookup(conn->psk_file, username, &id, key);
	gnutls_free(id);
	if (ret) {
		quic_err("unknown PSK identity \"%s\"", username);
		conn->psk_unknown = true;
		return -1;
	}
	return 0;
}

/* The first entry of the PSK file @path into the client credentials. */
static int psk_client_load(struct quic_creds *creds, const char *path)
{
	gnutls_datum_t key = { NULL, 0 };
	char *id = NULL;
	int ret;

	ret = psk_lookup(path, NULL, &id, &key);
	if (ret) {
		quic_err("no usable pre-shared key in %s", path);
		return ret == -ENOKEY ? -EINVAL : ret;
	}
	ret = -ENOMEM;
	if (!gnutls_psk_allocate_client_credentials(&creds->psk_client))
		ret = gnutls_psk_set_client_credentials(creds->psk_client, id, &key,
							GNUTLS_PSK_KEY_RAW) ? -EINVAL : 0;
	if (key.data)
		explicit_bzero(key.data, key.size);
	gnutls_free(key.data);
	gnutls_free(id);
	return ret;
}

/* An IPv4 or IPv6 literal, which server_name may not carry (RFC 6066 3). */
static bool is_ip_literal(const char *host)
{
	unsigned char addr[16];

	return inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
}

/*
 * Client credentials for @session: a PSK from @pkey_file, or X.509 with
 * the server verified against the configured CAs and @hostname (also
 * sent as SNI unless it is an IP address, which is then matched against
 * the certificate's IP address names). Without @hostname the chain alone
 * is verified, as the socket API draft's examples and existing callers
 * expect (quic_client_handshake(fd, NULL, NULL, ...)): it proves only that
 * the server holds a certificate from a trusted CA, so a warning says the
 * name was not checked, unless the caller said it knows
 * (quic_set_allow_no_hostname()) or verification is off. Returns 0 or a
 * negative errno; @creds then holds what quic_creds_free() releases.
 */
int quic_creds_client(struct quic_creds *creds, gnutls_session_t session,
		      const char *pkey_file, const char *hostname)
{
	int ret, insecure, allow_no_hostname;

	if (hostname && !*hostname)
		hostname = NULL;
	if (hostname && !is_ip_literal(hostname) &&
	    gnutls_server_name_set(session, GNUTLS_NAME_DNS, hostname, strlen(hostname)))
		return -EINVAL;
	if (pkey_file) {
		ret = psk_client_load(creds, pkey_file);
		if (ret)
			return ret;
		return gnutls_credentials_set(session, GNUTLS_CRD_PSK, creds->psk_client) ?
		       -EINVAL : 0;
	}
	pthread_mutex_lock(&opt_lock);
	insecure = opt_insecure;
	allow_no_hostname = opt_allow_no_hostname;
	pthread_mutex_unlock(&opt_lock);
	if (!hostname && !insecure && !allow_no_hostname)
		quic_warn("no host name given: the server's certificate chain is verified, its name is not checked");
	if (gnutls_certificate_allocate_credentials(&creds->cert))
		return -ENOMEM;
	pthread_mutex_lock(&opt_lock);
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
		gnutls_session_set_verify_cert(session, hostname, 0);
	return gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, creds->cert) ?
	       -EINVAL : 0;
}

/*
 * Server credentials for @session: the certificate chain in @cert_file
 * with its key in @pkey_file, or (@cert_file NULL) the PSK file
 * @pkey_file, which the handshake must be told (quic_handshake_run()). Returns 0 or a negative errno (-ENOENT: unreadable file,
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
		FILE *f = fopen(pkey_file, "re");

		if (!f)
			return -errno;
		fclose(f);
		if (gnutls_psk_allocate_server_credentials(&creds->psk_server))
			return -ENOMEM;
		gnutls_psk_set_server_credentials_function(creds->psk_server, psk_server_key);
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
