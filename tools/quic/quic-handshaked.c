// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quic-handshaked: the TLS handshake agent for in-kernel QUIC sockets.
 *
 * A kernel consumer (an in-kernel client or server) that wants a QUIC
 * socket's handshake done asks net/handshake (tls_client_hello_*(),
 * tls_server_hello_*()); the kernel queues the request in the socket's
 * network namespace and announces it with HANDSHAKE_CMD_READY to the
 * "tlshd" group of the generic netlink family "handshake". This daemon
 * listens there, takes each request with HANDSHAKE_CMD_ACCEPT (which
 * installs the socket in our descriptor table) and runs the handshake
 * with libquic in a child process (hsd_child.c), which answers with
 * HANDSHAKE_CMD_DONE. At most max-children run at once; beyond that,
 * requests wait in the kernel's queue (hsd_admit.c). One daemon serves
 * the namespace it was started in.
 *
 * Two netlink sockets: one joined to the group, only read for wakeups
 * (notifications carry sequence number 0, so its sequence check is off),
 * and one for our own requests, whose replies are checked as usual.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <keyutils.h>
#include <netinet/quic.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <syslog.h>

#include "handshake_nl.h"
#include "hsd.h"

static bool log_to_syslog;
static bool log_verbose;

/* The command line, before the config file is merged in. */
struct cli {
	struct hsd_opts opts;
	const char *config;	/* -c, NULL: the default file if it exists */
	bool foreground;
	bool use_syslog;
	bool verbose;
};

struct daemon_state {
	struct hsd_opts opts;
	struct nl_sock *mon;	/* joined to "tlshd": READY notifications */
	struct nl_sock *req;	/* ACCEPT, and DONE when no child can send it */
	struct hsd_admit admit;	/* children running, and their bound */
	int family;
	int sigfd;
	sigset_t oldmask;	/* what children restore */
	pid_t pid;
};

/* One line to syslog, or to stderr as "quic-handshaked[pid]: message". */
void hsd_log(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (prio >= LOG_DEBUG && !log_verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_to_syslog)
		syslog(prio, "%s", msg);
	else
		fprintf(stderr, "%s[%d]: %s\n", HSD_PROG, (int)getpid(), msg);
}

/* libquic's messages; its levels are syslog priorities. */
static void lib_log(int level, const char *msg)
{
	hsd_log(level, "libquic: %s", msg);
}

static void usage(void)
{
	printf("Usage: %s [OPTIONS]\n"
"\n"
"Run the TLS 1.3 handshakes that in-kernel users of QUIC sockets request\n"
"through the generic netlink family \"handshake\" (net/handshake, handler\n"
"class tlshd), with libquic, for the network namespace it is started in.\n"
"Needs CAP_NET_ADMIN.\n"
"\n"
"Options:\n"
"  -f, --foreground   do not detach; log to stderr (unless --syslog)\n"
"  -c, --config FILE  config file; a missing FILE is an error (default:\n"
"                     %s, read if it exists)\n"
"      --cert FILE    server certificate chain (PEM), for X.509 server requests\n"
"                     that carry no certificate of their own\n"
"      --key FILE     the private key (PEM) of --cert\n"
"      --ca FILE      CA certificates (PEM) that servers are verified against\n"
"                     (default: the system's trust store)\n"
"      --timeout MS   time limit of a handshake whose request sets none\n"
"                     (default %d ms)\n"
"      --max-children N\n"
"                     handshakes running at once, 1 to %d (default %d);\n"
"                     further requests wait in the kernel's queue\n"
"  -v, --verbose      debugging messages, libquic's included\n"
"      --syslog       log to syslog also in the foreground\n"
"  -h, --help         show this text\n"
"\n"
"Config file: \"key = value\" lines with the keys cert, key, ca, timeout and\n"
"max-children, and comment lines starting with '#'. Options on the command\n"
"line win.\n"
"\n"
"Requests:\n"
"  PSK      the request's first peer identity is a key serial: the key's\n"
"           description is the PSK identity, its payload the raw key;\n"
"           client and server.\n"
"  X.509    server: the request's certificate and private key (keys whose\n"
"           payloads are PEM), else --cert and --key; client: the server's\n"
"           chain is verified against --ca and its name against the\n"
"           request's peer name (else its address); client certificates\n"
"           are refused (EOPNOTSUPP).\n"
"  unauth   a client handshake that still verifies the server.\n"
"Each request is completed with HANDSHAKE_CMD_DONE: 0, or the errno of the\n"
"failure (ETIMEDOUT at the time limit, ENOKEY for an unusable key, ...).\n"
"Only QUIC sockets are served: use tlshd for TLS over TCP.\n"
"\n"
"Exit status: 0 after SIGTERM or SIGINT, 1 for bad usage or an error.\n",
	       HSD_PROG, HSD_DEFAULT_CONFIG, HSD_DEFAULT_TIMEOUT_MS, HSD_MAX_CHILDREN_LIMIT,
	       HSD_DEFAULT_MAX_CHILDREN);
}

/* A command-line error: the message and a pointer to --help. Returns 1. */
static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", HSD_PROG);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", HSD_PROG);
	return 1;
}

/* Replace *@slot by a copy of the file name @arg. Returns 0 or 1. */
static int set_arg(char **slot, const char *opt, const char *arg)
{
	if (!*arg) {
		fprintf(stderr, "%s: %s: empty file name\n", HSD_PROG, opt);
		return 1;
	}
	free(*slot);
	*slot = strdup(arg);
	return *slot ? 0 : 1;
}

enum { OPT_CERT = 256, OPT_KEY, OPT_CA, OPT_TIMEOUT, OPT_MAX_CHILDREN, OPT_SYSLOG };

/* One option into @c. Returns 0, 1 (error, reported) or -1 (--help). */
static int parse_opt(int opt, const char *arg, struct cli *c)
{
	switch (opt) {
	case 'f':
		c->foreground = true;
		return 0;
	case 'c':
		c->config = arg;
		return 0;
	case OPT_CERT:
		return set_arg(&c->opts.cert, "--cert", arg);
	case OPT_KEY:
		return set_arg(&c->opts.key, "--key", arg);
	case OPT_CA:
		return set_arg(&c->opts.ca, "--ca", arg);
	case OPT_TIMEOUT:
		if (hsd_parse_timeout(arg, &c->opts.timeout_ms))
			return bad_usage("--timeout: milliseconds from 1 to 86400000, not '%s'", arg);
		return 0;
	case OPT_MAX_CHILDREN:
		if (hsd_parse_max_children(arg, &c->opts.max_children))
			return bad_usage("--max-children: from 1 to 4096, not '%s'", arg);
		return 0;
	case 'v':
		c->verbose = true;
		return 0;
	case OPT_SYSLOG:
		c->use_syslog = true;
		return 0;
	case 'h':
		usage();
		return -1;
	}
	return bad_usage("%s", "unknown option or missing argument");
}

/* The command line into @c. Returns 0, 1 (error, reported) or -1 (--help). */
static int parse_args(int argc, char **argv, struct cli *c)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "config", required_argument, NULL, 'c' },
		{ "cert", required_argument, NULL, OPT_CERT },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "ca", required_argument, NULL, OPT_CA },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "max-children", required_argument, NULL, OPT_MAX_CHILDREN },
		{ "verbose", no_argument, NULL, 'v' },
		{ "syslog", no_argument, NULL, OPT_SYSLOG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "fc:vh", longopts, NULL)) != -1) {
		ret = parse_opt(opt, optarg, c);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

/* The config file into @o. Returns 0 or 1 (error, reported). */
static int load_config(const char *path, struct hsd_opts *o)
{
	const char *name = path ? path : HSD_DEFAULT_CONFIG;
	char err[256];
	FILE *f;
	int ret;

	f = fopen(name, "re");
	if (!f) {
		if (!path && errno == ENOENT)
			return 0;
		fprintf(stderr, "%s: config file %s: %s\n", HSD_PROG, name, strerror(errno));
		return 1;
	}
	ret = hsd_conf_parse(f, o, err, sizeof(err));
	fclose(f);
	if (ret) {
		fprintf(stderr, "%s: config file %s: %s\n", HSD_PROG, name, err);
		return 1;
	}
	return 0;
}

/* A relative file name made absolute: the daemon leaves its directory. */
static int absolute(char **path)
{
	char *cwd, *abs;
	int n;

	if (!*path || **path == '/')
		return 0;
	cwd = getcwd(NULL, 0);
	n = cwd ? asprintf(&abs, "%s/%s", cwd, *path) : -1;
	free(cwd);
	if (n < 0) {
		fprintf(stderr, "%s: %s: %s\n", HSD_PROG, *path, strerror(errno));
		return 1;
	}
	free(*path);
	*path = abs;
	return 0;
}

/* Settings from the config file and the command line. Returns 0 or 1. */
static int configure(struct cli *c, struct hsd_opts *o)
{
	if (load_config(c->config, o))
		return 1;
	hsd_opts_merge(o, &c->opts);
	if (!o->cert != !o->key)
		return bad_usage("%s", "a certificate and its key go together (cert and key)");
	if (absolute(&o->cert) || absolute(&o->key) || absolute(&o->ca))
		return 1;
	if (!o->timeout_ms)
		o->timeout_ms = HSD_DEFAULT_TIMEOUT_MS;
	if (!o->max_children)
		o->max_children = HSD_DEFAULT_MAX_CHILDREN;
	return 0;
}

/* Warn about configured files we cannot read now (they may appear later). */
static void check_files(const struct hsd_opts *o)
{
	const char *files[] = { o->cert, o->key, o->ca };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (files[i] && access(files[i], R_OK))
			hsd_log(LOG_WARNING, "%s: %s", files[i], strerror(errno));
}

/* A READY notification: only a wakeup, the accept loop finds the request. */
static int on_ready(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	(void)arg;
	if (genlmsg_valid_hdr(nlh, 0) && genlmsg_hdr(nlh)->cmd == HANDSHAKE_CMD_READY)
		hsd_log(LOG_DEBUG, "HANDSHAKE_CMD_READY");
	return NL_OK;
}

/*
 * A consumer's keyring (tls_handshake_args.ta_keyring) is linked into the
 * process keyring of the agent that accepts the request, and keys in it
 * may be readable only by a possessor. Children do not inherit a process
 * keyring but do share the session keyring, so the daemon starts a
 * session keyring of its own holding its process keyring: the children
 * then possess what the kernel links there. Best effort: keys readable
 * by our user need none of this.
 */
static void keyrings_setup(void)
{
	key_serial_t proc;

	proc = keyctl_get_keyring_ID(KEY_SPEC_PROCESS_KEYRING, 1);
	if (proc < 0 || keyctl_join_session_keyring(NULL) < 0 ||
	    keyctl_link(proc, KEY_SPEC_SESSION_KEYRING) < 0)
		hsd_log(LOG_WARNING, "keyrings: %s (keys readable only by their possessor will not be)",
			strerror(errno));
}

/* Resolve the family and its group, join the group. Returns 0 or -1. */
static int nl_setup(struct daemon_state *d)
{
	int grp, ret;

	d->mon = nl_socket_alloc();
	d->req = nl_socket_alloc();
	if (!d->mon || !d->req) {
		hsd_log(LOG_ERR, "netlink: out of memory");
		return -1;
	}
	ret = genl_connect(d->mon);
	if (!ret)
		ret = genl_connect(d->req);
	if (ret) {
		hsd_log(LOG_ERR, "cannot open a generic netlink socket: %s", nl_geterror(ret));
		return -1;
	}
	d->family = genl_ctrl_resolve(d->req, HANDSHAKE_FAMILY_NAME);
	if (d->family < 0) {
		hsd_log(LOG_ERR, "no generic netlink family \"%s\" (%s): the kernel needs CONFIG_NET_HANDSHAKE",
			HANDSHAKE_FAMILY_NAME, nl_geterror(d->family));
		return -1;
	}
	grp = genl_ctrl_resolve_grp(d->req, HANDSHAKE_FAMILY_NAME, HANDSHAKE_MCGRP_TLSHD);
	if (grp < 0) {
		hsd_log(LOG_ERR, "no multicast group \"%s\": %s", HANDSHAKE_MCGRP_TLSHD,
			nl_geterror(grp));
		return -1;
	}
	nl_socket_disable_seq_check(d->mon);
	nl_socket_modify_cb(d->mon, NL_CB_VALID, NL_CB_CUSTOM, on_ready, NULL);
	ret = nl_socket_add_membership(d->mon, grp);
	if (!ret)
		ret = nl_socket_set_nonblocking(d->mon);
	if (ret) {
		hsd_log(LOG_ERR, "joining \"%s\": %s", HANDSHAKE_MCGRP_TLSHD, nl_geterror(ret));
		return -1;
	}
	return 0;
}

/* What one ACCEPT exchange brought back. */
struct accept_ctx {
	struct hsd_request *req;
	int parse_err;		/* hsd_parse_accept() of the reply */
	int err;		/* the kernel's answer, a negative errno or 0 */
	bool got_reply;
	bool done;
};

static int on_accept_reply(struct nl_msg *msg, void *arg)
{
	struct accept_ctx *c = arg;

	c->got_reply = true;
	c->parse_err = hsd_parse_accept(nlmsg_hdr(msg), c->req);
	return NL_OK;
}

static int on_accept_ack(struct nl_msg *msg, void *arg)
{
	struct accept_ctx *c = arg;

	(void)msg;
	c->done = true;
	return NL_STOP;
}

static int on_accept_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct accept_ctx *c = arg;

	(void)nla;
	c->err = e->error;
	c->done = true;
	return NL_STOP;
}

/* Send ACCEPT and read its reply and acknowledgment into @c. */
static int accept_exchange(struct daemon_state *d, struct accept_ctx *c)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct nl_msg *msg = nlmsg_alloc();
	int ret = -NLE_NOMEM;

	if (!cb || !msg)
		goto out;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, d->family, 0, 0, HANDSHAKE_CMD_ACCEPT,
			 HANDSHAKE_FAMILY_VERSION) ||
	    nla_put_u32(msg, HANDSHAKE_A_ACCEPT_HANDLER_CLASS, HANDSHAKE_HANDLER_CLASS_TLSHD))
		goto out;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_accept_reply, c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_accept_ack, c);
	nl_cb_err(cb, NL_CB_CUSTOM, on_accept_error, c);
	ret = nl_send_auto(d->req, msg);
	while (ret >= 0 && !c->done)
		ret = nl_recvmsgs(d->req, cb);
out:
	nlmsg_free(msg);
	nl_cb_put(cb);
	return c->done ? 0 : ret;
}

/*
 * Take the next pending request. Returns 0 with @req filled in, -EAGAIN
 * when none is pending, or another negative errno; after a malformed
 * reply @req->fd may still hold the request's socket.
 */
static int accept_one(struct daemon_state *d, struct hsd_request *req)
{
	struct accept_ctx c = { .req = req };
	int ret;

	memset(req, 0, sizeof(*req));
	req->fd = -1;
	ret = accept_exchange(d, &c);
	if (ret < 0) {
		hsd_log(LOG_ERR, "HANDSHAKE_CMD_ACCEPT: %s", nl_geterror(ret));
		return -EIO;
	}
	if (c.err) {
		/* The kernel installs the socket only when it acknowledges. */
		req->fd = -1;
		return c.err;
	}
	return c.got_reply ? c.parse_err : -EINVAL;
}

/* hsd_admit_ops.accept: the next request; a malformed one is logged. */
static int admit_accept(void *ctx, struct hsd_request *req)
{
	int ret = accept_one(ctx, req);

	if (ret && ret != -EAGAIN && req->fd >= 0)
		hsd_log(LOG_ERR, "malformed ACCEPT reply: %s", strerror(-ret));
	return ret;
}

/*
 * hsd_admit_ops.refuse: complete a request the daemon cannot hand to a
 * child with the failure @err, and close it.
 */
static void admit_refuse(void *ctx, const struct hsd_request *req, int err)
{
	struct daemon_state *d = ctx;
	struct nl_msg *msg = hsd_done_msg(d->family, req->fd, hsd_done_status(err), NULL, 0);
	int ret = msg ? nl_send_sync(d->req, msg) : -NLE_NOMEM;

	if (ret < 0)
		hsd_log(LOG_ERR, "HANDSHAKE_CMD_DONE: %s", nl_geterror(ret));
	close(req->fd);
}

/* In a new child: no daemon state, die with the daemon. */
static void child_prepare(struct daemon_state *d)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != d->pid)
		_exit(1);	/* the daemon died before prctl() */
	nl_socket_free(d->mon);
	nl_socket_free(d->req);
	close(d->sigfd);
	sigprocmask(SIG_SETMASK, &d->oldmask, NULL);
}

/*
 * hsd_admit_ops.start: hand @req to a new child; the daemon keeps no copy
 * of the socket. Returns 0 or -EAGAIN (no process could be made).
 */
static int admit_start(void *ctx, const struct hsd_request *req)
{
	struct daemon_state *d = ctx;
	pid_t pid = fork();

	if (!pid) {
		child_prepare(d);
		hsd_child_run(&d->opts, d->family, req);
	}
	if (pid < 0) {
		hsd_log(LOG_ERR, "fork: %s", strerror(errno));
		return -EAGAIN;
	}
	hsd_log(LOG_DEBUG, "%s %s request: process %d", hsd_msg_type_name(req->msg_type),
		hsd_auth_mode_name(req->auth_mode), (int)pid);
	close(req->fd);
	return 0;
}

static const struct hsd_admit_ops admit_ops = {
	.accept	= admit_accept,
	.start	= admit_start,
	.refuse	= admit_refuse,
};

/*
 * Accept until nothing is pending or max-children run. Returns 0 or the
 * error that stopped it.
 */
static int drain(struct daemon_state *d)
{
	bool backlog = d->admit.backlog;
	int ret;

	ret = hsd_admit_drain(&d->admit, &admit_ops, d);
	if (ret) {
		hsd_log(LOG_ERR, "HANDSHAKE_CMD_ACCEPT failed: %s%s", strerror(-ret),
			ret == -EPERM ? " (CAP_NET_ADMIN is needed)" : "");
		return ret;
	}
	if (d->admit.backlog && !backlog)
		hsd_log(LOG_WARNING,
			"%u handshakes, max-children: further requests wait in the kernel's queue",
			d->admit.running);
	else if (backlog && !d->admit.backlog)
		hsd_log(LOG_INFO, "every waiting request taken (%u handshakes running)",
			d->admit.running);
	return 0;
}

/* Read what the group sent: the contents do not matter, only that it came. */
static void read_notifications(struct daemon_state *d)
{
	int i, ret;

	for (i = 0; i < 64; i++) {
		ret = nl_recvmsgs_default(d->mon);
		if (ret == -NLE_AGAIN || !ret)
			return;
		if (ret < 0)	/* e.g. an overrun: the accept loop catches up */
			hsd_log(LOG_DEBUG, "notifications: %s", nl_geterror(ret));
	}
}

/*
 * Collect ended children; one killed by a signal never completed its
 * request. Returns true when requests may wait for the room freed.
 */
static bool reap(struct daemon_state *d)
{
	unsigned int n = 0;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		n++;
		if (WIFSIGNALED(st))
			hsd_log(LOG_ERR, "process %d killed by signal %d", (int)pid, WTERMSIG(st));
		else
			hsd_log(LOG_DEBUG, "process %d exited with %d", (int)pid, WEXITSTATUS(st));
	}
	return hsd_admit_ended(&d->admit, n);
}

/*
 * Handle pending signals; *@resume tells that children ended while
 * requests may be waiting. Returns true when the daemon is to stop.
 */
static bool handle_signals(struct daemon_state *d, bool *resume)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			*resume |= reap(d);
			continue;
		}
		hsd_log(LOG_INFO, "signal %u: stopping", si.ssi_signo);
		return true;
	}
	return false;
}

/* SIGCHLD, SIGTERM and SIGINT through a descriptor. Returns 0 or -1. */
static int signals_setup(struct daemon_state *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	signal(SIGPIPE, SIG_IGN);
	if (sigprocmask(SIG_BLOCK, &set, &d->oldmask))
		return -1;
	d->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return d->sigfd < 0 ? -1 : 0;
}

/* Serve requests until SIGTERM or SIGINT. Returns the exit status. */
static int serve(struct daemon_state *d)
{
	struct pollfd pfd[2] = {
		{ .fd = d->sigfd, .events = POLLIN },
		{ .fd = nl_socket_get_fd(d->mon), .events = POLLIN },
	};
	bool resume;

	/* Requests queued before we joined the group got no READY for us. */
	if (drain(d) == -EPERM)
		return 1;
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			hsd_log(LOG_ERR, "poll: %s", strerror(errno));
			return 1;
		}
		resume = false;
		if (pfd[0].revents && handle_signals(d, &resume))
			return 0;
		if (pfd[1].revents)
			read_notifications(d);
		/* A READY, or room for a request the bound held back. */
		if (pfd[1].revents || resume)
			drain(d);
	}
}

/* The log line that says what this daemon serves. */
static void log_start(const struct hsd_opts *o)
{
	char ns[64] = "";
	ssize_t n;

	n = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);
	ns[n > 0 ? n : 0] = '\0';
	hsd_log(LOG_INFO, "serving %s: cert %s, key %s, ca %s, timeout %u ms, at most %u at once",
		*ns ? ns : "this network namespace", o->cert ?: "-", o->key ?: "-",
		o->ca ?: "system trust", o->timeout_ms, o->max_children);
}

/* Set up, detach unless told not to, serve. Returns the exit status. */
static int run(struct cli *c, struct daemon_state *d)
{
	/* Until it detaches, the daemon reports setup errors on stderr. */
	log_to_syslog = c->use_syslog;
	openlog(HSD_PROG, LOG_PID, LOG_DAEMON);
	quic_set_log_func(lib_log);
	quic_set_log_level(log_verbose ? QUIC_LOG_DEBUG : QUIC_LOG_WARN);
	if (quic_set_ca_file(d->opts.ca))
		return 1;
	check_files(&d->opts);
	if (nl_setup(d))
		return 1;
	keyrings_setup();
	if (!c->foreground) {
		if (daemon(0, 0)) {
			hsd_log(LOG_ERR, "daemon: %s", strerror(errno));
			return 1;
		}
		log_to_syslog = true;
	}
	if (signals_setup(d)) {
		hsd_log(LOG_ERR, "signals: %s", strerror(errno));
		return 1;
	}
	d->pid = getpid();
	d->admit.max = d->opts.max_children;
	log_start(&d->opts);
	return serve(d);
}

int main(int argc, char **argv)
{
	struct daemon_state d = { .sigfd = -1 };
	struct cli c = { 0 };
	int ret;

	ret = parse_args(argc, argv, &c);
	if (!ret)
		ret = configure(&c, &d.opts);
	log_verbose = c.verbose;
	if (!ret)
		ret = run(&c, &d);
	hsd_opts_free(&c.opts);
	hsd_opts_free(&d.opts);
	nl_socket_free(d.mon);
	nl_socket_free(d.req);
	if (d.sigfd >= 0)
		close(d.sigfd);
	return ret < 0 ? 0 : ret;
}
