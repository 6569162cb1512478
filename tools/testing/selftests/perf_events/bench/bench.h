/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the perf_events micro-benchmarks (make bench).
 *
 * Every benchmark prints one line per case and round:
 *
 *   BENCH <case> <round> <value> <unit>
 *
 * which testbed/bench.sh collects from the guest console.  Time is read
 * with clock_gettime(CLOCK_MONOTONIC): under QEMU -icount the guest clock
 * follows the number of instructions executed, so a value is a count of
 * (scaled) instructions, not a wall-clock time on real hardware.
 */
#ifndef PERFEV_BENCH_H
#define PERFEV_BENCH_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct bench_opts {
	int rounds;		/* -r: rounds per case (spread) */
	double scale;		/* -s: multiplier of the time per round */
	const char *unrelated;	/* -u KIND:N: unrelated events (P6) */
	const char *only;	/* -c NAME,...: run only these cases */
};

extern struct bench_opts bench;

void bench_parse(int argc, char **argv);
uint64_t now_ns(void);
long iters(long base);
/*
 * Run @op repeatedly for a warm-up, then for bench.rounds rounds of at
 * least BENCH_ROUND_NS * scale each, reporting ns per op for each round.
 */
#define BENCH_ROUND_NS	30000000ULL
void bench_time(const char *name, void (*op)(void *), void *arg);
int want(const char *name);
/*
 * A measured stretch for testbed/profile's kprof (make bench PROFILE=1):
 * the kernel instructions between region_start() and region_end() count
 * toward @name's @ops operations ("BENCH-OPS <name> <ops>"; several
 * regions of one name add up).  Without the profiler, two no-ops.
 */
void region_start(void);
void region_end(const char *name, long ops);
void report(const char *name, int round, double value, const char *unit);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags);
void attr_init(struct perf_event_attr *attr, __u32 type, __u64 config);
int open_sw(__u64 config, int group, int disabled);
int pmu_type(const char *name);
bool hw_available(void);
int tracepoint_id(const char *name);
void pin_cpu(int cpu);
void raise_nofile(long n);

/* P6: unrelated events, opened before the measured loop. */
const char *unrelated_open(void);
void unrelated_close(void);
/* The case-name suffix for the unrelated events ("" or "@KIND:N"). */
const char *unrelated_suffix(void);

/* ops.c: the loops of P1, P2 and P3, also run by P6 */
void bench_open_close(const char *name);
void bench_read(const char *name, int fd, int nr_values);
/* Self-monitoring read through the mmap'ed user page and rdpmc (x86). */
void bench_rdpmc(const char *name, int fd);
void bench_pingpong(const char *name, int nr, __u32 type, __u64 config);
/* The same, with @nr events the parent opened with inherit before the fork. */
void bench_pingpong_inherit(const char *name, int nr, __u32 type, __u64 config);

/* Ring buffer of a sampling event. */
struct ring {
	struct perf_event_mmap_page *meta;
	char *data;
	size_t size;
	size_t len;
};

int ring_map(struct ring *r, int fd, int data_pages);
void ring_unmap(struct ring *r);
/* Consume every record; returns the number of PERF_RECORD_SAMPLE ones. */
long ring_drain(struct ring *r, long *lost);

#endif
