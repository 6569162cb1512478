// SPDX-License-Identifier: GPL-2.0
/*
 * P5: fork() + exit() + waitpid() of a child that exits at once, with
 * 0 and 4 inherited counting software events on the parent (task-clock,
 * context-switches, page-faults, cpu-migrations).  One op = one child.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void fork_exit(void *arg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(0);
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
}

int main(int argc, char **argv)
{
	static const __u64 cfg[4] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
	};
	struct perf_event_attr attr;
	int nr, i, fds[4];
	char name[32];

	bench_parse(argc, argv);
	pin_cpu(0);
	for (nr = 0; nr <= 4; nr += 4) {
		snprintf(name, sizeof(name), "P5.fork-exit-inherit%d", nr);
		if (!want(name))
			continue;
		for (i = 0; i < nr; i++) {
			attr_init(&attr, PERF_TYPE_SOFTWARE, cfg[i]);
			attr.inherit = 1;
			fds[i] = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
			if (fds[i] < 0)
				die("inherited event %d", i);
		}
		bench_time(name, fork_exit, NULL);
		for (i = 0; i < nr; i++)
			close(fds[i]);
	}
	return 0;
}
