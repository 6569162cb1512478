// SPDX-License-Identifier: GPL-2.0
/*
 * P2: read() of one enabled software event (task-clock) on the calling
 * task; P2g: read() of a group of 1, 8 and 32 events with
 * PERF_FORMAT_GROUP (a task-clock leader and context-switches siblings).
 * One op = one read().  The loop is bench_read() in ops.c.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	static const int sizes[] = { 1, 8, 32 };
	struct perf_event_attr attr;
	int fds[32], s, i;
	char name[32];

	bench_parse(argc, argv);
	if (want("P2.read")) {
		fds[0] = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1, 0);
		bench_read("P2.read", fds[0], 1);
		close(fds[0]);
	}
	for (s = 0; s < 3; s++) {
		snprintf(name, sizeof(name), "P2g.read-group%d", sizes[s]);
		if (!want(name))
			continue;
		attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
		attr.read_format = PERF_FORMAT_GROUP;
		fds[0] = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[0] < 0)
			die("group leader");
		attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
		for (i = 1; i < sizes[s]; i++) {
			fds[i] = perf_open(&attr, 0, -1, fds[0], PERF_FLAG_FD_CLOEXEC);
			if (fds[i] < 0)
				die("group sibling %d", i);
		}
		/* nr, then one value per event */
		bench_read(name, fds[0], 1 + sizes[s]);
		for (i = sizes[s] - 1; i >= 0; i--)
			close(fds[i]);
	}
	return 0;
}
