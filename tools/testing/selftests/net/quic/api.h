/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared parts of the "api" selftest (api.c and api_*.c): connections
 * through libquic on the namespace pair, the per-case resources that the
 * runner releases after each case, and the case and known-difference
 * tables.
 */

#ifndef __QUIC_SELFTEST_API_H__
#define __QUIC_SELFTEST_API_H__

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/quic.h>

#include "netns.h"

#define API_PORT_BASE	6100
#define API_TIMEO_S	5
#define API_HOSTNAME	"server.test"	/* the SAN of server.pem */
#define API_ALPN	"quic-selftest"
#define EV(t)		(1u << (t))

/* A case returns 1 when the behaviour matched, 0 when not, -1 when it
 * could not be set up (always a failure, listed or not).
 */
struct api_case {
	const char *name;
	int (*run)(void);
};

struct api_known {
	const char *name;
	const char *why;
};

extern const struct api_case api_cases[];
extern const unsigned int api_cases_nr;
extern const struct api_known api_known[];
extern const unsigned int api_known_nr;
extern struct netns_pair pair;

/* How conn_open() makes a connection; all zero: PSK, IPv4, defaults. */
struct conn_opts {
	int family;
	bool cert;			/* X.509 instead of the PSK */
	const char *cli_host;		/* X.509: the name checked, NULL: API_HOSTNAME */
	bool no_host;			/* X.509: pass no host name at all */
	const char *cli_alpn;		/* NULL: API_ALPN */
	const char *srv_alpn;
	uint16_t dgram;			/* max_datagram_frame_size, both sides */
	uint16_t srv_bidi;		/* the server's stream limits, 0: default */
	uint16_t srv_uni;
	uint64_t srv_stream_data;	/* its max_stream_data_bidi_remote */
	uint32_t srv_events;		/* EV() bits, on the listener */
	uint32_t cli_events;		/* EV() bits, before connect() */
	/* Hooks, each returning 0 or -1 with errno: the listener before
	 * bind(), the client before connect(), the accepted socket before
	 * its handshake.
	 */
	int (*lfd_tune)(int fd, void *arg);
	int (*cli_tune)(int fd, void *arg);
	int (*srv_tune)(int fd, void *arg);
	void *arg;
};

struct conn {
	int cli;
	int srv;
	int lfd;
	int port;
	int cli_ret;			/* what the client's handshake returned */
};

struct hello {
	gnutls_session_t s;
	gnutls_certificate_credentials_t cred;
	bool inited;
};

/* Resources: closed or freed by the runner after each case. */
int keep(int fd);
/* Print why a check failed (with errno) and return false. */
bool fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int new_port(void);
int socket_in(int side, int family, int type, int proto);
socklen_t side_addr(int side, int family, int port, struct sockaddr_storage *ss);
int listener(int family, int port, const char *alpn);
int client_to(int family, int port);
bool readable(int fd, int ms);
int event_on(int fd, uint8_t type, uint8_t on);
int tp_get(int fd, bool remote, struct quic_transport_param *tp);
int tp_update(int fd, void (*edit)(struct quic_transport_param *tp, void *arg), void *arg);
int cfg_get(int fd, struct quic_config *c);
int hello_send(int fd, const char *alpn, struct hello *h);
void hello_free(struct hello *h);
int conn_open(const struct conn_opts *o, struct conn *c);

ssize_t recv_info(int fd, void *buf, size_t len, int64_t *sid, uint32_t *flags, int rflags);
ssize_t read_stream(int fd, int64_t sid, void *buf, size_t want, bool *fin);
/* Stream data read by drain(), per stream ID below 16. */
struct streams {
	char data[16][64];
	size_t len[16];
	bool fin[16];
};

int drain(int fd, size_t total, struct streams *st);
ssize_t wait_event(int fd, uint8_t type, void *out, size_t len, int ms);
int collect_updates(int fd, int64_t id, uint8_t state, struct quic_stream_update *u, int max,
		    int ms);



/* A check of a case: on failure, say why and return 0 (not conforming). */
#define CHECK(cond, ...)	do { if (!(cond)) return fail(__VA_ARGS__); } while (0)
/* A step the checks rely on: on failure, say why and return -1. */
#define SETUP(cond, ...)	do { if (!(cond)) { fail(__VA_ARGS__); return -1; } } while (0)

/* The cases (api_calls.c, api_more.c, api_appx.c). */
int c_connect_silent(void);
int c_accept_queues_hello(void);
int c_socket_kinds(void);
int c_socket_inet_v4_only(void);
int c_socket_inet6_takes_v4(void);
int c_bind_twice(void);
int c_bind_shared(void);
int c_bind_ephemeral(void);
int c_bind_wildcard(void);
int c_bind_by_connect(void);
int c_bind_not_listening(void);
int c_listen_backlog(void);
int c_listen_zero(void);
int c_listen_alpn_route(void);
int c_listen_no_alpn(void);
int c_accept_addr(void);
int c_connect_first(void);
int c_close_sends_close(void);
int c_close_info(void);
int c_close_then_ebadf(void);
int c_shut_wr(void);
int c_shut_rdwr(void);
int c_shut_rd_discards(void);
int c_shut_wr_again(void);
int c_shut_unblocks_recv(void);
int c_shut_unblocks_accept(void);
int c_shut_unblocks_send(void);
int c_sendmsg_count(void);
int c_sendmsg_iov_one(void);
int c_sendmsg_name_ignored(void);
int c_sendmsg_msgflags_ignored(void);
int c_msg_more(void);
int c_msg_dontwait_send(void);
int c_sendmsg_flag_dgram(void);
int c_recv_dontwait(void);
int c_recv_flag_dgram(void);
int c_recv_flag_notification(void);
int c_recv_eor(void);
int c_recv_eor_pieces(void);
int c_recv_event_pieces(void);
int c_recv_fin_in_msg_flags(void);
int c_send_new(void);
int c_send_new_uni(void);
int c_send_fin(void);
int c_send_latest_own(void);
int c_send_latest_peer(void);
int c_send_dgram(void);
int c_recv_plain(void);
int c_recv_handshake_einval(void);
int c_read_write(void);
int c_getsockname(void);
int c_getpeername(void);
int c_getname_truncated(void);
int c_qsend_stream(void);
int c_qsend_msg_flags(void);
int c_qsend_unknown(void);
int c_qrecv_unknown(void);
int c_qrecv_info(void);
int c_hs_psk(void);
int c_hs_cert(void);
int c_hs_wrong_name(void);
int c_hs_alpn_list(void);
int c_si_new_bidi(void);
int c_si_new_uni(void);
int c_si_latest(void);
int c_si_server_bit(void);
int c_si_fin_closes(void);
int c_si_dontwait(void);
int c_si_reserved(void);
int c_hi_draft_len(void);
int c_hi_reserved(void);
int c_anc_one_only(void);
int c_anc_other_level(void);
int c_ev_default_off(void);
int c_ev_format(void);
int c_ev_any_nonzero(void);
int c_ev_zero_disables(void);
int c_su_send_recvd(void);
int c_su_only_listed(void);
int c_su_reset_sent(void);
int c_su_reset_recvd(void);
int c_su_no_reset_sent_own(void);
int c_su_recv_recv(void);
int c_su_recv_recvd(void);
int c_su_recv_reset(void);
int c_md_event(void);
int c_md_enospc(void);
int c_ms_event(void);
int c_ms_limit(void);
int c_ms_retry(void);
int c_cid_event_option(void);
int c_cid_event_peer(void);
int c_close_event(void);
int c_close_event_layout(void);
int c_migration_event(void);
int c_key_update_event(void);
int c_new_token_event(void);
int c_ticket_event(void);
int c_tp_defaults(void);
int c_tp_default_cid_limit(void);
int c_tp_default_max_data(void);
int c_tp_partial(void);
int c_tp_draft_size(void);
int c_tp_after_connect(void);
int c_tp_accepted(void);
int c_tp_remote_set(void);
int c_tp_remote_get(void);
int c_cfg_defaults(void);
int c_cfg_partial(void);
int c_cfg_draft_size(void);
int c_cfg_reserved(void);
int c_cfg_listener(void);
int c_cfg_after_connect(void);
int c_cfg_accepted(void);
int c_cfg_v2(void);
int c_cfg_vn(void);
int c_cfg_vn_then_v1(void);
int c_cfg_plpmtud(void);
int c_cfg_rtt_low(void);
int c_cfg_rtt_high(void);
int c_cfg_rtt_range(void);
int c_cfg_cc(void);
int c_cfg_cipher(void);
int c_cfg_ticket_secs(void);
int c_cfg_cert_require(void);
int c_cfg_validate(void);
int c_cid_get(void);
int c_cid_dest_switch(void);
int c_cid_source_active(void);
int c_cid_reserved(void);
int c_cc_defaults(void);
int c_cc_frame(void);
int c_cc_layout(void);
int c_token_default(void);
int c_token_client_get(void);
int c_token_server_einval(void);
int c_token_server_issue(void);
int c_alpn_default(void);
int c_alpn_list(void);
int c_ticket_key(void);
int c_ticket_client(void);
int c_secret_get(void);
int c_secret_layout(void);
int c_tpext_get(void);
int c_open_bidi(void);
int c_open_uni(void);
int c_open_id(void);
int c_open_dontwait(void);
int c_peeloff(void);
int c_peeloff_calls(void);
int c_reset_option(void);
int c_errinfo_reserved(void);
int c_migration_option(void);
int c_sec_alpn(void);
int c_sec_token(void);
int c_sec_ticket(void);
int c_sec_phrase(void);
int c_sec_cid_bits(void);
int c_sec_event_type(void);
int c_appendix_a(void);
int c_appendix_b(void);
int c_appendix_c(void);
int c_appendix_d(void);
int c_appendix_a_no_host(void);
int c_recv_kinds(void);
int c_si_sndblock(void);
int c_migration_peer_event(void);
int c_ticket_set_get(void);
int c_migration_preferred(void);
int c_opt_direction(void);

/* struct quic_connection_close as the draft lays it out: phrase at 8. */
struct draft_close {
	uint32_t errcode;
	uint8_t frame;
	uint8_t reserved[3];
	char phrase[24];
};

/* Helpers of api_more.c that api_opts.c uses too. */
int udp_peer(int port);
int open_stream(int fd, int64_t id, uint32_t flags, int64_t *out);
int cid_set(int fd, uint8_t dest, uint32_t active, uint32_t prior_to);
int cid_get(int fd, uint8_t dest, struct quic_connection_id_info *i);
int conn_warm(const struct conn_opts *o, struct conn *c);

#endif /* __QUIC_SELFTEST_API_H__ */
