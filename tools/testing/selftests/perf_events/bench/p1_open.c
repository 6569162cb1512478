// SPDX-License-Identifier: GPL-2.0
/*
 * P1: perf_event_open() + close() of an enabled, counting software event
 * (task-clock) on the calling task.  One op = one open and one close.
 * The task has no other event, so each op also creates and frees its
 * perf context.  The loop is bench_open_close() in ops.c.
 */
#include "bench.h"

int main(int argc, char **argv)
{
	bench_parse(argc, argv);
	bench_open_close("P1.open-close");
	return 0;
}
