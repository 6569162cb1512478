// SPDX-License-Identifier: GPL-2.0
/*
 * Run a command with a time limit: scn_watchdog SECONDS COMMAND [ARGS...]
 *
 * The command runs in a process group of its own.  When it outlives the
 * limit, the watchdog raises the console log level and asks the kernel for
 * its blocked tasks ('w'), every task's stack ('t') and the running CPUs'
 * backtraces ('l') through /proc/sysrq-trigger, so that the console shows
 * where the command hangs, then kills the whole group and exits 124.
 * Otherwise it exits with the command's status (128 + signal when killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, s, strlen(s)) < 0)
		fprintf(stderr, "scn_watchdog: %s: %s\n", path, strerror(errno));
	close(fd);
}

/* Wait up to @secs for @pid; its wait status, or -1 when it is still there. */
static int wait_for(pid_t pid, double secs)
{
	double end = now() + secs;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now() >= end)
			return -1;
		nanosleep(&tick, NULL);
	}
}

static void dump_tasks(const char *cmd, int secs)
{
	char msg[256], level[16] = "4";
	FILE *f;

	snprintf(msg, sizeof(msg), "scn_watchdog: '%s' still runs after %d s: task dump\n",
		 cmd, secs);
	write_file("/dev/kmsg", msg);
	/* sysrq prints the stacks at KERN_INFO: let them reach the console */
	f = fopen("/proc/sys/kernel/printk", "r");
	if (f) {
		if (fscanf(f, "%15s", level) != 1)
			strcpy(level, "4");
		fclose(f);
	}
	write_file("/proc/sys/kernel/printk", "8");
	write_file("/proc/sysrq-trigger", "w");
	write_file("/proc/sysrq-trigger", "t");
	write_file("/proc/sysrq-trigger", "l");
	sleep(2);
	write_file("/proc/sys/kernel/printk", level);
}

int main(int argc, char **argv)
{
	int secs, status;
	pid_t pid;

	secs = argc < 3 ? 0 : atoi(argv[1]);
	if (secs <= 0) {
		fprintf(stderr, "usage: %s SECONDS COMMAND [ARGS...]\n", argv[0]);
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (!pid) {
		setpgid(0, 0);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "scn_watchdog: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	status = wait_for(pid, secs);
	if (status == -1) {
		fprintf(stderr, "scn_watchdog: TIMEOUT: '%s' hangs after %d s\n", argv[2], secs);
		dump_tasks(argv[2], secs);
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		if (wait_for(pid, 10) == -1)
			fprintf(stderr, "scn_watchdog: '%s' survives SIGKILL\n", argv[2]);
		return 124;
	}
	/* what the group left behind (children of a killed perf) goes too */
	kill(-pid, SIGKILL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
