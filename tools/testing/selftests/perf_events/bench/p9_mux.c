// SPDX-License-Identifier: GPL-2.0
/*
 * P9: multiplexing accuracy.  More counting events than the PMU has
 * counters, on workloads whose true counts are known, and how good the
 * estimates count * time_enabled / time_running are.
 *
 * Every event counts the same thing, user instructions (instructions with
 * exclude_kernel on the arch's PMU; the test PMU's ns event where there is
 * none), so the true count of each is the count of one such event alone on
 * the same workload, measured in the same round.  Workloads, each about
 * 200 ms of guest time (instructions, under -icount), the phased ones 800 ms:
 *   steady  a user loop;
 *   phased  8 ms periods of the clock: 1 ms of getppid() calls (few user
 *           instructions per ms), then 7 ms of the user loop (many), so
 *           that a 4 ms rotation aliases with it (its true count, from a
 *           run alone, includes the time the kernel spent multiplexing in
 *           the measured run: a floor of the error, the same for both
 *           cores);
 *   phased9 the same with 9 ms periods (1 ms of calls, 8 ms of the loop):
 *           a 4 ms rotation cycle that happens to cover whole 8 ms periods
 *           (4 intervals of a group on, 16 ms) does not cover these;
 *   bursty  2 ms of the user loop, then 3 ms asleep, repeated.
 * Event sets (n = the counters these events can use, found by opening them
 * one by one until one stops running all the time):
 *   k1      n + 1 single events;   k2  2n;   k4  4n;
 *   big     a group of n events beside 3 single ones;
 *   pinned  one pinned event and 2n flexible singles;
 *   cpu     n + 1 CPU-wide singles on CPU 0 and 2 singles of the task.
 * Cases, per workload and set, P9.<workload>-<set>.<metric>:
 *   mae     mean absolute relative error of the estimates, %;
 *   worst   largest relative error, %;
 *   share   smallest share of time_running / time_enabled of a group, %;
 *   starved groups that never ran (estimate 0; counted as 100 % error).
 * Lower is better for mae, worst and starved; ours / upstream is the ratio.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

#define MAX_EVENTS	128
#define RUN_NS		200000000ULL	/* one workload run, guest ns */
/*
 * The phased workload runs longer: the error of estimates whose turns fall
 * at random phases shrinks with the number of turns, 6.1's aliasing does not.
 */
#define PHASED_RUNS	4

static struct perf_event_attr ev_attr;
static long loop_per_ms, calls_per_ms;
static unsigned long sink;

static void user_loop(long n)
{
	unsigned long x = sink;
	long i;

	for (i = 0; i < n; i++) {
		x = x * 3 + i;
		/* the loop stays a loop */
		__asm__ __volatile__("" : "+r" (x));
	}
	sink = x;
}

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* Iterations of @fn per guest ms (deterministic under -icount). */
static long calibrate(void (*fn)(long))
{
	long n = 1000;
	uint64_t t;

	for (;;) {
		t = now_ns();
		fn(n);
		t = now_ns() - t;
		if (t >= 5000000)
			return n * 1000000 / t > 0 ? n * 1000000 / t : 1;
		n *= 2;
	}
}

enum workload { STEADY, PHASED, PHASED9, BURSTY, NR_WORKLOADS };
static const char *const wl_names[] = { "steady", "phased", "phased9", "bursty" };

/* 1 ms of getppid() calls, then the loop, until @period_ns is over; repeated */
static void run_phased(uint64_t period_ns)
{
	uint64_t end = now_ns() + PHASED_RUNS * RUN_NS * bench.scale, t;

	while ((t = now_ns()) < end) {
		if (t % period_ns < 1000000)
			calls(calls_per_ms / 64 + 1);
		else
			user_loop(loop_per_ms / 64 + 1);
	}
}

static void run_workload(enum workload wl)
{
	long periods, i;
	double s = bench.scale;

	switch (wl) {
	case STEADY:
		user_loop(loop_per_ms * (long)(RUN_NS / 1000000 * s));
		break;
	case PHASED:
		/* phases by the clock, as a periodic workload has them */
		run_phased(8000000);
		break;
	case PHASED9:
		run_phased(9000000);
		break;
	case BURSTY:
		periods = RUN_NS / 5000000 * s;
		for (i = 0; i < periods; i++) {
			user_loop(loop_per_ms * 2);
			usleep(3000);
		}
		break;
	default:
		break;
	}
}

struct mux_event {
	int fd;
	int group;	/* index of its group (leader's slot) */
	bool cpu_wide;
};

struct mux_set {
	struct mux_event ev[MAX_EVENTS];
	int nr, nr_groups;
};

static int open_one(struct mux_set *set, int group_fd, bool cpu_wide, bool pinned)
{
	struct perf_event_attr attr = ev_attr;
	struct mux_event *e;

	if (set->nr >= MAX_EVENTS)
		die("too many events");
	attr.disabled = 1;
	attr.pinned = pinned;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e = &set->ev[set->nr];
	e->fd = perf_open(&attr, cpu_wide ? -1 : 0, cpu_wide ? 0 : -1,
			  group_fd, PERF_FLAG_FD_CLOEXEC);
	if (e->fd < 0)
		die("perf_event_open (event %d)", set->nr);
	e->cpu_wide = cpu_wide;
	if (group_fd < 0) {
		e->group = set->nr;
		set->nr_groups++;
	} else {
		e->group = set->ev[set->nr - 1].group;
	}
	return set->ev[set->nr++].fd;
}

static void close_set(struct mux_set *set)
{
	int i;

	for (i = 0; i < set->nr; i++)
		close(set->ev[i].fd);
	set->nr = 0;
	set->nr_groups = 0;
}

struct reading {
	unsigned long long count, enabled, running;
};

static void read_one(int fd, struct reading *r)
{
	if (read(fd, r, sizeof(*r)) != sizeof(*r))
		die("read");
}

static void measure(struct mux_set *set, enum workload wl, struct reading *out)
{
	int i;

	prctl(PR_TASK_PERF_EVENTS_ENABLE);
	run_workload(wl);
	prctl(PR_TASK_PERF_EVENTS_DISABLE);
	for (i = 0; i < set->nr; i++)
		read_one(set->ev[i].fd, &out[i]);
}

/* The true count of a task event (or a CPU-wide one) on @wl: one alone. */
static double truth(enum workload wl, bool cpu_wide)
{
	struct mux_set set = { 0 };
	struct reading r;

	open_one(&set, -1, cpu_wide, false);
	measure(&set, wl, &r);
	close_set(&set);
	if (r.running != r.enabled)
		die("a lone event did not run all the time");
	return r.count;
}

/* Counters the events can use: open singles until one waits. */
static int find_counters(void)
{
	struct mux_set set = { 0 };
	struct reading r[MAX_EVENTS];
	int n, i;

	for (n = 1; n < 32; n++) {
		open_one(&set, -1, false, false);
		prctl(PR_TASK_PERF_EVENTS_ENABLE);
		user_loop(loop_per_ms * 20);
		prctl(PR_TASK_PERF_EVENTS_DISABLE);
		for (i = 0; i < set.nr; i++) {
			read_one(set.ev[i].fd, &r[i]);
			if (r[i].running != r[i].enabled) {
				close_set(&set);
				return n - 1;
			}
		}
	}
	die("no multiplexing with 32 events");
}

enum set_kind { K1, K2, K4, BIG, PINNED, CPU, NR_SETS };
static const char *const set_names[] = { "k1", "k2", "k4", "big", "pinned", "cpu" };

static void build_set(struct mux_set *set, enum set_kind kind, int n)
{
	int i, lead;

	switch (kind) {
	case K1:
	case K2:
	case K4:
		for (i = 0; i < (kind == K1 ? n + 1 : kind == K2 ? 2 * n : 4 * n); i++)
			open_one(set, -1, false, false);
		break;
	case BIG:
		lead = open_one(set, -1, false, false);
		for (i = 1; i < n; i++)
			open_one(set, lead, false, false);
		for (i = 0; i < 3; i++)
			open_one(set, -1, false, false);
		break;
	case PINNED:
		open_one(set, -1, false, true);
		for (i = 0; i < 2 * n; i++)
			open_one(set, -1, false, false);
		break;
	case CPU:
		for (i = 0; i < n + 1; i++)
			open_one(set, -1, true, false);
		for (i = 0; i < 2; i++)
			open_one(set, -1, false, false);
		break;
	default:
		break;
	}
}

static void one_case(enum workload wl, enum set_kind kind, int n, int round)
{
	struct reading r[MAX_EVENTS];
	struct mux_set set = { 0 };
	double true_task, true_cpu, err, sum = 0, worst = 0, share, min_share = 1e9;
	char name[64];
	int i, starved = 0;

	true_task = truth(wl, false);
	true_cpu = kind == CPU ? truth(wl, true) : 0;
	build_set(&set, kind, n);
	measure(&set, wl, r);
	for (i = 0; i < set.nr; i++) {
		double truth_i = set.ev[i].cpu_wide ? true_cpu : true_task;
		double est = r[i].running ? (double)r[i].count * r[i].enabled / r[i].running : 0;

		err = est > truth_i ? est - truth_i : truth_i - est;
		err = truth_i > 0 ? err / truth_i * 100 : 0;
		sum += err;
		if (err > worst)
			worst = err;
		if (set.ev[i].group != i)
			continue;
		share = r[i].enabled ? 100.0 * r[i].running / r[i].enabled : 0;
		if (share < min_share)
			min_share = share;
		if (!r[i].running)
			starved++;
	}
	close_set(&set);
	snprintf(name, sizeof(name), "P9.%s-%s.mae", wl_names[wl], set_names[kind]);
	report(name, round, sum / i, "%");
	snprintf(name, sizeof(name), "P9.%s-%s.worst", wl_names[wl], set_names[kind]);
	report(name, round, worst, "%");
	snprintf(name, sizeof(name), "P9.%s-%s.share", wl_names[wl], set_names[kind]);
	report(name, round, min_share, "%");
	snprintf(name, sizeof(name), "P9.%s-%s.starved", wl_names[wl], set_names[kind]);
	report(name, round, starved, "groups");
}

static int wanted(enum workload wl, enum set_kind kind)
{
	static const char *const metric[] = { "mae", "worst", "share", "starved" };
	char name[64];
	int m;

	for (m = 0; m < 4; m++) {
		snprintf(name, sizeof(name), "P9.%s-%s.%s",
			 wl_names[wl], set_names[kind], metric[m]);
		if (want(name))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n, r, wl, kind, type;

	bench_parse(argc, argv);
	pin_cpu(0);
	raise_nofile(4096);
	if (hw_available()) {
		attr_init(&ev_attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		ev_attr.exclude_kernel = 1;
		ev_attr.exclude_hv = 1;
	} else {
		type = pmu_type("perfev_test");
		if (type < 0) {
			printf("P9: no PMU with counters to multiplex\n");
			return 0;
		}
		attr_init(&ev_attr, type, 0x01);
	}
	loop_per_ms = calibrate(user_loop);
	calls_per_ms = calibrate(calls);
	n = find_counters();
	printf("P9: %d counters, %ld loop iterations and %ld getppid() per ms\n",
	       n, loop_per_ms, calls_per_ms);
	for (r = 0; r < bench.rounds; r++) {
		for (wl = 0; wl < NR_WORKLOADS; wl++) {
			for (kind = 0; kind < NR_SETS; kind++) {
				if (wanted(wl, kind))
					one_case(wl, kind, n, r);
			}
		}
	}
	return 0;
}
