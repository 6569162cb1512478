// SPDX-License-Identifier: GPL-2.0
/*
 * P6: scale.  P1 (open + close), P2 (read) and P3 (ping-pong, one
 * task-clock event per task) with N unrelated events open, -u KIND:N:
 *   self:N  N disabled events on the measuring task,
 *   task:N  N enabled events on another, sleeping task,
 *   cpu:N   N enabled CPU-wide events on CPU 0;
 * all of them CPU-migration software events, which never fire on the
 * one-CPU guest.  The goal is a cost that does not grow with N.
 */
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	int fd;

	bench_parse(argc, argv);
	pin_cpu(0);
	unrelated_open();
	if (want("P6.open-close"))
		bench_open_close("P6.open-close");
	if (want("P6.read")) {
		fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1, 0);
		bench_read("P6.read", fd, 1);
		close(fd);
	}
	if (want("P6.ctxsw-sw1"))
		bench_pingpong("P6.ctxsw-sw1", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	unrelated_close();
	return 0;
}
