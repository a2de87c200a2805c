// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest side of the interop harness (scripts/interop.py).
 *
 * The host runs the peer implementation; this agent runs our endpoint
 * (interop/endpoint.sh, the interop runner's endpoint contract) in the
 * guest when the host asks. It connects to the host's control port
 * (kernel command line interop_ctrl=PORT, reached as 10.0.2.2 through
 * QEMU user networking) and serves line commands:
 *
 *   client CASE ALPN URL...    run our client; answer "exit N", one
 *                              "file NAME SIZE SHA256" per download,
 *                              the key log and "end"
 *   server CASE ALPN PORT      start our server on PORT; answer "started"
 *   stop                       stop the server; answer "exit N", the key
 *                              log and "end"
 *   local OURS CASE ALPN PORT FILE...
 *                              both ends in the guest, for what QEMU's
 *                              user networking cannot carry (a second
 *                              server address, ECN marks): two network
 *                              namespaces joined by veth, the server on
 *                              192.0.2.2:PORT (and 192.0.2.3, offered as
 *                              preferred address), the client on
 *                              192.0.2.1; OURS (client, server or both)
 *                              says which ends are ours, the others run
 *                              the peer's endpoint script (interop/peer.sh).
 *                              Answer "exit N" (the client), "server N",
 *                              the downloads, both key logs, "pcap LEN" and
 *                              a capture of the server's veth, and "end"
 *   quit                       leave
 *
 * A key log travels as "keylog LEN" followed by LEN bytes. The endpoint's
 * own output goes to the console log under the case's name. Prints KTAP:
 * one result, that the host said quit after at least one command.
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "../ktap.h"
#include "../netns.h"

#ifndef VIRTIO_NET_HDR_GSO_UDP_L4
#define VIRTIO_NET_HDR_GSO_UDP_L4	5	/* Linux 6.2's uapi; Debian 12 has 6.1's */
#endif

#define ENDPOINT	"/interop/endpoint.sh"
#define PEER		"/interop/peer.sh"
#define CAPTURE		"/tmp/capture.pcap"
#define KEYLOG_PEER	"/tmp/keys-peer.log"
#define LOCAL_SERVER	"192.0.2.2"
#define LOCAL_PREFERRED	"192.0.2.3"
#define WWW		"/interop/www"
#define CERTS		"/interop/certs"
#define DOWNLOADS	"/tmp/downloads"
#define KEYLOG		"/tmp/keys.log"
#define CLIENT_LIMIT	300	/* seconds one client run may take */

static FILE *ctrl;	/* answers to the host */
static pid_t server_pid;
static unsigned int cases;

/* Connect to the harness on the host, retrying while it comes up. */
static int ctrl_connect(void)
{
	const char *port = getenv("interop_ctrl");
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd, i;

	if (!port)
		return -1;
	sin.sin_port = htons(atoi(port));
	inet_pton(AF_INET, "10.0.2.2", &sin.sin_addr);
	for (i = 0; i < 100; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fd;
		close(fd);
		usleep(200000);
	}
	return -1;
}

/* One endpoint to run: whose script, where, and the contract's values. */
struct endpoint {
	const char *script;	/* ENDPOINT (ours) or PEER */
	int netns;		/* namespace to run in, or -1 for the agent's */
	const char *keylog;
	const char *addr;	/* extension: the server's address, or NULL */
	const char *preferred;	/* extension: its preferred address, or NULL */
};

static const struct endpoint ours_here = { ENDPOINT, -1, KEYLOG, NULL, NULL };

/* Run an endpoint script with the contract's environment; returns its pid. */
static pid_t endpoint_start(const struct endpoint *ep, const char *role, const char *tcase,
			    const char *alpn, const char *port, const char *requests)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	if (ep->netns >= 0 && setns(ep->netns, CLONE_NEWNET))
		_exit(126);
	if (ep->addr)
		setenv("ADDR", ep->addr, 1);
	if (ep->preferred)
		setenv("PREFERRED_ADDR", ep->preferred, 1);
	setenv("ROLE", role, 1);
	setenv("TESTCASE", tcase, 1);
	setenv("ALPN", alpn, 1);
	setenv("WWW", WWW, 1);
	setenv("CERTS", CERTS, 1);
	setenv("DOWNLOADS", DOWNLOADS, 1);
	setenv("SSLKEYLOGFILE", ep->keylog, 1);
	if (port)
		setenv("PORT", port, 1);
	if (requests)
		setenv("REQUESTS", requests, 1);
	/* The console shows what the endpoint printed, the KTAP stream does not. */
	fd = open("/dev/console", O_WRONLY);
	if (fd > STDERR_FILENO) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	execl("/bin/sh", "sh", ep->script, (char *)NULL);
	_exit(126);
}

/* Wait for @pid at most @secs seconds, then kill it; returns its exit code. */
static int endpoint_wait(pid_t pid, int secs)
{
	time_t end = time(NULL) + secs;
	int status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (time(NULL) > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return 124;
		}
		usleep(50000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static void send_file_raw(const char *tag, const char *path)
{
	char buf[4096];
	struct stat st;
	size_t n, left;
	FILE *f = fopen(path, "r");

	if (!f || fstat(fileno(f), &st)) {
		fprintf(ctrl, "%s 0\n", tag);
		if (f)
			fclose(f);
		return;
	}
	fprintf(ctrl, "%s %lld\n", tag, (long long)st.st_size);
	for (left = st.st_size; left; left -= n) {
		n = fread(buf, 1, left < sizeof(buf) ? left : sizeof(buf), f);
		if (!n) {
			/* The length is promised: pad what vanished. */
			memset(buf, 0, sizeof(buf));
			n = left < sizeof(buf) ? left : sizeof(buf);
		}
		fwrite(buf, 1, n, ctrl);
	}
	fclose(f);
}

/* "file NAME SIZE SHA256" for every download, hashed by busybox. */
static void send_downloads(void)
{
	char cmd[512], line[512], hash[80], name[256];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(DOWNLOADS);
	FILE *p;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(name))
			continue;
		snprintf(cmd, sizeof(cmd), DOWNLOADS "/%s", de->d_name);
		if (stat(cmd, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(cmd, sizeof(cmd), "sha256sum '" DOWNLOADS "/%s'", de->d_name);
		p = popen(cmd, "r");
		if (!p)
			continue;
		if (fgets(line, sizeof(line), p) && sscanf(line, "%79s", hash) == 1)
			fprintf(ctrl, "file %s %lld %s\n", de->d_name, (long long)st.st_size, hash);
		pclose(p);
	}
	closedir(d);
}

static void fresh_case(void)
{
	if (system("rm -rf " DOWNLOADS " " KEYLOG " " KEYLOG_PEER " " CAPTURE
		   " && mkdir -p " DOWNLOADS))
		ktap_diag("could not reset " DOWNLOADS);
	cases++;
}

/* "client CASE ALPN URL...": run our client to the end. */
static void cmd_client(char *args)
{
	char *tcase = strtok(args, " "), *alpn = strtok(NULL, " ");
	char *urls = strtok(NULL, "");
	pid_t pid;

	if (!tcase || !alpn || !urls) {
		fprintf(ctrl, "error bad client command\n");
		return;
	}
	fresh_case();
	pid = endpoint_start(&ours_here, "client", tcase, alpn, NULL, urls);
	fprintf(ctrl, "exit %d\n", pid < 0 ? 126 : endpoint_wait(pid, CLIENT_LIMIT));
	send_downloads();
	send_file_raw("keylog", KEYLOG);
	fprintf(ctrl, "end\n");
}

/* Is a UDP socket (a server's, or our server's tunnel) bound to @port in
 * the namespace of @proc ("/proc" for ours, "/proc/PID" for a process's)?
 */
static bool udp_port_bound(const char *proc, int port)
{
	static const char *const tables[] = { "net/udp", "net/udp6" };
	char line[256], want[8], path[64];
	unsigned int i;
	bool found = false;
	FILE *f;

	snprintf(want, sizeof(want), ":%04X ", port);
	for (i = 0; i < ARRAY_SIZE(tables) && !found; i++) {
		snprintf(path, sizeof(path), "%s/%s", proc, tables[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* "sl local_address rem_address ...": the local port ends field 2. */
		while (!found && fgets(line, sizeof(line), f)) {
			char *local = strchr(line, ':');

			local = local ? strchr(local + 1, ':') : NULL;
			found = local && !strncmp(local, want, strlen(want));
		}
		fclose(f);
	}
	return found;
}

/* "server CASE ALPN PORT": start our server; it runs until "stop". */
static void cmd_server(char *args)
{
	char *tcase = strtok(args, " "), *alpn = strtok(NULL, " "), *port = strtok(NULL, " ");
	int status, i;

	if (!tcase || !alpn || !port || server_pid > 0) {
		fprintf(ctrl, "error bad server command\n");
		return;
	}
	fresh_case();
	server_pid = endpoint_start(&ours_here, "server", tcase, alpn, port, NULL);
	/* Until it has bound its port (10 s at most); an unsupported case exits. */
	for (i = 0; i < 200 && !udp_port_bound("/proc", atoi(port)); i++) {
		if (waitpid(server_pid, &status, WNOHANG) == server_pid) {
			server_pid = 0;
			fprintf(ctrl, "exit %d\n",
				WIFEXITED(status) ? WEXITSTATUS(status) : 128);
			return;
		}
		usleep(50000);
	}
	fprintf(ctrl, "started\n");
}

static void cmd_stop(void)
{
	int rc = 0;

	if (server_pid > 0) {
		kill(server_pid, SIGTERM);
		rc = endpoint_wait(server_pid, 10);
		/* A server stopped by SIGTERM as asked has done its job. */
		if (rc == 128 + SIGTERM)
			rc = 0;
		server_pid = 0;
	}
	fprintf(ctrl, "exit %d\n", rc);
	send_file_raw("keylog", KEYLOG);
	fprintf(ctrl, "end\n");
}

/* pcap (libpcap's file format): a global header, then one record per frame. */
struct pcap_file_hdr {
	uint32_t magic, version;	/* 0xa1b2c3d4, 2.4 */
	int32_t thiszone;
	uint32_t sigfigs, snaplen, linktype;	/* 1: Ethernet */
};

struct pcap_rec_hdr {
	uint32_t sec, usec, caplen, len;
};

static volatile sig_atomic_t capture_stop;

static int pcap_write(FILE *f, const struct timeval *tv, const void *frame, size_t len)
{
	struct pcap_rec_hdr rh = { tv->tv_sec, tv->tv_usec, len, len };

	return fwrite(&rh, sizeof(rh), 1, f) == 1 && fwrite(frame, len, 1, f) == 1 ? 0 : -1;
}

/*
 * A UDP GSO frame (RFC 9000 senders batch datagrams of one size with
 * UDP_SEGMENT, ours and ngtcp2 alike) is seen by the tap before it is
 * split, on veth as on the wire side: write it as the datagrams the
 * receiver gets, each with the Ethernet, IP and UDP headers and its own
 * lengths (checksums are left as they are; tshark does not check them).
 */
static int pcap_write_split(FILE *f, const struct timeval *tv, const struct virtio_net_hdr *vh,
			    unsigned char *frame, size_t len)
{
	static unsigned char seg[ETH_HLEN + 40 + 8 + 65536];
	size_t l3 = ETH_HLEN, l4, hdrs, off, n;
	struct ethhdr *eth = (struct ethhdr *)frame;
	struct udphdr *uh;

	if (vh->gso_type != VIRTIO_NET_HDR_GSO_UDP_L4 || !vh->gso_size || len < ETH_HLEN)
		return pcap_write(f, tv, frame, len);
	if (eth->h_proto == htons(ETH_P_IP) && len >= l3 + sizeof(struct iphdr))
		l4 = l3 + ((struct iphdr *)(frame + l3))->ihl * 4;
	else if (eth->h_proto == htons(ETH_P_IPV6))
		l4 = l3 + sizeof(struct ip6_hdr);
	else
		return pcap_write(f, tv, frame, len);
	hdrs = l4 + sizeof(*uh);
	if (len <= hdrs)
		return pcap_write(f, tv, frame, len);
	for (off = hdrs; off < len; off += n) {
		n = len - off < vh->gso_size ? len - off : vh->gso_size;
		memcpy(seg, frame, hdrs);
		memcpy(seg + hdrs, frame + off, n);
		uh = (struct udphdr *)(seg + l4);
		uh->len = htons(sizeof(*uh) + n);
		if (eth->h_proto == htons(ETH_P_IP))
			((struct iphdr *)(seg + l3))->tot_len = htons(hdrs - l3 + n);
		else
			((struct ip6_hdr *)(seg + l3))->ip6_plen = htons(sizeof(*uh) + n);
		if (pcap_write(f, tv, seg, hdrs + n))
			return -1;
	}
	return 0;
}

static void on_capture_stop(int sig)
{
	(void)sig;
	capture_stop = 1;
}

/*
 * Capture every frame of @ifname in namespace @netns, both directions,
 * into CAPTURE until SIGTERM. The socket is bound before this returns,
 * so nothing sent afterwards is missed. Returns the capturing child.
 */
static pid_t capture_start(const struct netns_pair *p, int side)
{
	struct pcap_file_hdr fh = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	struct timeval tv = { 0, 200000 };
	static unsigned char buf[sizeof(struct virtio_net_hdr) + 65536];
	struct sigaction sa = {};
	int fd, on = 1;
	pid_t pid;
	FILE *f;

	if (netns_enter(p, side))
		return -1;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	sll.sll_ifindex = if_nametoindex(p->ifname[side]);
	/* Each frame comes with its GSO description, to be split. */
	if (fd >= 0 && (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &on, sizeof(on)) ||
			!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)))) {
		close(fd);
		fd = -1;
	}
	netns_enter(p, -1);
	if (fd < 0)
		return -1;
	pid = fork();
	if (pid) {
		close(fd);
		return pid;
	}
	sa.sa_handler = on_capture_stop;
	sigaction(SIGTERM, &sa, NULL);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	f = fopen(CAPTURE, "w");
	if (!f || fwrite(&fh, sizeof(fh), 1, f) != 1)
		_exit(1);
	while (!capture_stop) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < (ssize_t)sizeof(struct virtio_net_hdr))
			continue;	/* the timeout, or SIGTERM */
		gettimeofday(&tv, NULL);
		if (pcap_write_split(f, &tv, (struct virtio_net_hdr *)buf,
				     buf + sizeof(struct virtio_net_hdr),
				     n - sizeof(struct virtio_net_hdr)))
			_exit(1);
	}
	_exit(fclose(f) ? 1 : 0);
}

/* Stop @pid with SIGTERM, at most @secs seconds; returns its exit code,
 * 0 when it ended of that SIGTERM as asked.
 */
static int endpoint_stop(pid_t pid, int secs)
{
	int rc;

	if (pid <= 0)
		return 0;
	kill(pid, SIGTERM);
	rc = endpoint_wait(pid, secs);
	return rc == 128 + SIGTERM ? 0 : rc;
}

/* Append file @from to @to (key logs of the two ends). */
static void append_file(const char *to, const char *from)
{
	char buf[4096];
	FILE *in = fopen(from, "r"), *out;
	size_t n;

	if (!in)
		return;
	out = fopen(to, "a");
	while (out && (n = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	fclose(in);
}

/* "local OURS CASE ALPN PORT FILE...": both ends in the guest. */
static void cmd_local(char *args)
{
	char *ours = strtok(args, " "), *tcase = strtok(NULL, " "), *alpn = strtok(NULL, " ");
	char *port = strtok(NULL, " "), *files = strtok(NULL, ""), *name;
	char requests[8192], preferred[32], proc[32];
	struct in_addr pref_addr;
	struct netns_pair p;
	pid_t cap, server, client;
	int rc = 126, server_rc = 0, status, i;
	size_t off = 0;

	if (!ours || !tcase || !alpn || !port || !files ||
	    (strcmp(ours, "client") && strcmp(ours, "server") && strcmp(ours, "both"))) {
		fprintf(ctrl, "error bad local command\n");
		return;
	}
	fresh_case();
	snprintf(preferred, sizeof(preferred), LOCAL_PREFERRED ":%s", port);
	inet_pton(AF_INET, LOCAL_PREFERRED, &pref_addr);
	if (netns_pair_create(&p)) {
		fprintf(ctrl, "exit 126\nserver 0\nend\n");
		return;
	}
	if (netns_addr_add(&p, 1, AF_INET, &pref_addr, 24)) {
		ktap_diag("local: cannot add %s", LOCAL_PREFERRED);
		goto out;
	}
	for (name = strtok(files, " "); name && off < sizeof(requests) - 1;
	     name = strtok(NULL, " "))
		off += snprintf(requests + off, sizeof(requests) - off, "%shttps://%s:%s/%s",
				off ? " " : "", LOCAL_SERVER, port, name);

	cap = capture_start(&p, 1);
	if (cap < 0) {
		ktap_diag("local: no capture on %s", p.ifname[1]);
		goto out;
	}
	{
		bool ours_srv = strcmp(ours, "client");
		bool ours_cli = strcmp(ours, "server");
		struct endpoint srv = { ours_srv ? ENDPOINT : PEER, p.ns[1],
					ours_srv ? KEYLOG : KEYLOG_PEER, LOCAL_SERVER, preferred };
		struct endpoint cli = { ours_cli ? ENDPOINT : PEER, p.ns[0],
					ours_cli ? KEYLOG : KEYLOG_PEER, NULL, NULL };

		/* Both ours: the second key log would be the same file. */
		if (ours_srv && ours_cli)
			srv.keylog = KEYLOG_PEER;
		server = endpoint_start(&srv, "server", tcase, alpn, port, NULL);
		snprintf(proc, sizeof(proc), "/proc/%d", (int)server);
		for (i = 0; i < 200 && !udp_port_bound(proc, atoi(port)); i++) {
			if (waitpid(server, &status, WNOHANG) == server) {
				server = 0;
				server_rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
				break;
			}
			usleep(50000);
		}
		if (server > 0) {
			client = endpoint_start(&cli, "client", tcase, alpn, NULL, requests);
			rc = client < 0 ? 126 : endpoint_wait(client, CLIENT_LIMIT);
			server_rc = endpoint_stop(server, 10);
		} else {
			/* The server said unsupported (127) or failed: so is the case. */
			rc = server_rc;
		}
	}
	endpoint_stop(cap, 5);
out:
	netns_pair_destroy(&p);
	fprintf(ctrl, "exit %d\nserver %d\n", rc, server_rc);
	send_downloads();
	append_file(KEYLOG, KEYLOG_PEER);
	send_file_raw("keylog", KEYLOG);
	send_file_raw("pcap", CAPTURE);
	fprintf(ctrl, "end\n");
}

int main(void)
{
	char line[65536];
	bool quit = false;
	FILE *in;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	ktap_plan(1);
	fd = ctrl_connect();
	if (fd < 0) {
		ktap_result(false, "connected to the harness on the host");
		return ktap_finish();
	}
	/* One stream per direction: stdio cannot turn a socket stream around. */
	in = fdopen(fd, "r");
	ctrl = fdopen(dup(fd), "w");
	if (!in || !ctrl) {
		ktap_result(false, "connected to the harness on the host");
		return ktap_finish();
	}
	setvbuf(ctrl, NULL, _IOFBF, 1 << 16);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "client ", 7))
			cmd_client(line + 7);
		else if (!strncmp(line, "server ", 7))
			cmd_server(line + 7);
		else if (!strncmp(line, "local ", 6))
			cmd_local(line + 6);
		else if (!strcmp(line, "stop"))
			cmd_stop();
		else if (!strcmp(line, "quit"))
			quit = true;
		else
			fprintf(ctrl, "error unknown command\n");
		fflush(ctrl);
		if (quit)
			break;
	}
	if (server_pid > 0)
		cmd_stop();
	ktap_diag("%u cases run for the host", cases);
	ktap_result(quit && cases, "the host ran its cases and said quit");
	fclose(ctrl);
	fclose(in);
	return ktap_finish();
}
