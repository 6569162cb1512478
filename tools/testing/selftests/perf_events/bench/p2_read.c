// SPDX-License-Identifier: GPL-2.0
/*
 * P2: read() of one enabled software event (task-clock) on the calling
 * task; P2g: read() of a group of 1, 8 and 32 events with
 * PERF_FORMAT_GROUP (a task-clock leader and context-switches siblings).
 * Where the arch's PMU counts: read() of a hardware event (instructions,
 * P2.read-hw) and, on x86, its self-monitoring read with rdpmc through
 * the mmap'ed user page (P2.rdpmc-hw: no system call, so the kernel's
 * part is keeping the page right).  One op = one read.  The loops are
 * bench_read() and bench_rdpmc() in ops.c.
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
	if (hw_available() && want("P2.read-hw")) {
		attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_hv = 1;
		fds[0] = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[0] < 0)
			die("P2.read-hw");
		bench_read("P2.read-hw", fds[0], 1);
		close(fds[0]);
	}
#if defined(__x86_64__)
	if (hw_available() && want("P2.rdpmc-hw")) {
		attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_hv = 1;
		attr.exclude_kernel = 1;
		fds[0] = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[0] < 0)
			die("P2.rdpmc-hw");
		bench_rdpmc("P2.rdpmc-hw", fds[0]);
		close(fds[0]);
	}
#endif
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
