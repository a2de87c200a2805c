/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bind(), connect(), listen() and accept() of QUIC sockets (connect.c).
 */

#ifndef __net_quic_connect_h__
#define __net_quic_connect_h__

struct proto_accept_arg;
struct sockaddr;
struct socket;
struct sock;

int quic_conn_bind(struct sock *sk, struct sockaddr *addr, int addr_len);
int quic_conn_connect(struct sock *sk, struct sockaddr *addr, int addr_len);
int quic_conn_listen(struct socket *sock, int backlog);
void quic_conn_listen_stop(struct sock *sk);
int quic_conn_update_params(struct sock *sk);
struct sock *quic_conn_accept(struct sock *sk, struct proto_accept_arg *arg);

#endif /* __net_quic_connect_h__ */
