/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A C library whose <sys/socket.h> knows SOL_QUIC (see netinet/in.h). */
#include_next <sys/socket.h>

#ifndef UAPI_LIBC_SYS_SOCKET_H
#define UAPI_LIBC_SYS_SOCKET_H
#define SOL_QUIC	288
#endif
