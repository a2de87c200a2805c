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
 *   quit                       leave
 *
 * A key log travels as "keylog LEN" followed by LEN bytes. The endpoint's
 * own output goes to the console log under the case's name. Prints KTAP:
 * one result, that the host said quit after at least one command.
 */

#include <errno.h>
#include <fcntl.h>
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

#include "../ktap.h"

#define ENDPOINT	"/interop/endpoint.sh"
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

/* Run the endpoint script with the contract's environment; returns its pid. */
static pid_t endpoint_start(const char *role, const char *tcase, const char *alpn,
			    const char *port, const char *requests)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	setenv("ROLE", role, 1);
	setenv("TESTCASE", tcase, 1);
	setenv("ALPN", alpn, 1);
	setenv("WWW", WWW, 1);
	setenv("CERTS", CERTS, 1);
	setenv("DOWNLOADS", DOWNLOADS, 1);
	setenv("SSLKEYLOGFILE", KEYLOG, 1);
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
	execl("/bin/sh", "sh", ENDPOINT, (char *)NULL);
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
	if (system("rm -rf " DOWNLOADS " " KEYLOG " && mkdir -p " DOWNLOADS))
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
	pid = endpoint_start("client", tcase, alpn, NULL, urls);
	fprintf(ctrl, "exit %d\n", pid < 0 ? 126 : endpoint_wait(pid, CLIENT_LIMIT));
	send_downloads();
	send_file_raw("keylog", KEYLOG);
	fprintf(ctrl, "end\n");
}

/* Is a UDP socket (our server's tunnel) bound to @port? */
static bool udp_port_bound(int port)
{
	static const char *const tables[] = { "/proc/net/udp", "/proc/net/udp6" };
	char line[256], want[8];
	unsigned int i;
	bool found = false;
	FILE *f;

	snprintf(want, sizeof(want), ":%04X ", port);
	for (i = 0; i < ARRAY_SIZE(tables) && !found; i++) {
		f = fopen(tables[i], "r");
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
	server_pid = endpoint_start("server", tcase, alpn, port, NULL);
	/* Until it has bound its port (10 s at most); an unsupported case exits. */
	for (i = 0; i < 200 && !udp_port_bound(atoi(port)); i++) {
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
