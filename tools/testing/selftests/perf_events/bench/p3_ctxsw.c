// SPDX-License-Identifier: GPL-2.0
/*
 * P3: context switches.  Two tasks pinned on CPU 0 ping-pong one byte
 * through two pipes; each task has 0, 1, 16 or 64 enabled counting
 * events of its own (no inheritance): software (task-clock) and, where
 * a PMU is there, "hardware" ones: instructions on the arch's PMU (POWER,
 * or the testbed's emulated x86 PMU), else the test PMU perfev_test (4
 * counters); 16 and 64 events multiplex on either.  One op = one round trip = two context switches.
 * The loop is bench_pingpong() in ops.c.  inherit4: 4 task-clock
 * events the parent opened with inherit before forking its partner, so
 * both hold copies of the same events (perf stat of a workload whose
 * processes switch to each other): bench_pingpong_inherit().
 */
#include <stdio.h>

#include "bench.h"

/*
 * 16 and 64 events per task: a 30 ms round holds only a few multiplexing
 * rotations (and ticks), whose place in the round spread the rounds by
 * about 3 %; four times longer rounds.
 */
static double round_scale(double scale, int nr)
{
	return nr >= 16 ? 4 * scale : scale;
}

int main(int argc, char **argv)
{
	static const int nrs[] = { 0, 1, 16, 64 };
	double scale;
	char name[48];
	int i, type;

	bench_parse(argc, argv);
	pin_cpu(0);
	scale = bench.scale;
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "P3.ctxsw-sw%d", nrs[i]);
		bench.scale = round_scale(scale, nrs[i]);
		if (want(name))
			bench_pingpong(name, nrs[i], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	}
	bench.scale = scale;
	if (want("P3.ctxsw-inherit4"))
		bench_pingpong_inherit("P3.ctxsw-inherit4", 4, PERF_TYPE_SOFTWARE,
				       PERF_COUNT_SW_TASK_CLOCK);
	/* "Hardware": the arch's PMU, else the test PMU. */
	type = pmu_type("perfev_test");
	if (hw_available())
		type = PERF_TYPE_HARDWARE;
	for (i = 1; i < 4 && type >= 0; i++) {
		snprintf(name, sizeof(name), "P3.ctxsw-hw%d", nrs[i]);
		bench.scale = round_scale(scale, nrs[i]);
		if (want(name))
			bench_pingpong(name, nrs[i], type,
				       type == PERF_TYPE_HARDWARE ?
				       PERF_COUNT_HW_INSTRUCTIONS : 0x01);
	}
	bench.scale = scale;
	return 0;
}
