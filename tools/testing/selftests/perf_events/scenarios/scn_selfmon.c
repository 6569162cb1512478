// SPDX-License-Identifier: GPL-2.0
/*
 * A self-monitoring reader, as PAPI's and rdpmc-style libraries are: it
 * opens more user-only hardware events than the PMU has counters (cycles
 * and instructions alternately, each its own group with its own mapped
 * user page), enables them, runs a known loop and reads every event
 * through the documented perf_event_mmap_page protocol:
 *
 *   do {
 *           seq = pc->lock; barrier();
 *           enabled = pc->time_enabled; running = pc->time_running;
 *           idx = pc->index; count = pc->offset;
 *           if (pc->cap_user_rdpmc && idx)
 *                   count += sign-extended rdpmc(idx - 1) of pc->pmc_width bits;
 *           barrier();
 *   } while (pc->lock != seq);
 *
 * idx == 0 (the event is not on a counter: multiplexed out) makes offset
 * the count itself; an event on a counter without user rdpmc (POWER) can
 * only be read with read().  Checks, over many rounds while the events
 * rotate: a page read lies between the read() values taken just before and
 * just after it; the page's times are consistent with read()'s; the events
 * were multiplexed (time_running < time_enabled for some, > 0 for all);
 * the scaled instruction counts of the loop are within 0.4 to 2.5 times
 * the known count; on
 * x86 the rdpmc path and on every arch the idx == 0 path were taken.
 *
 * Prints "# ..." diagnostics and one "selfmon: PASS|FAIL|SKIP: ..." line;
 * exit 0 pass, 1 fail, 4 skip (no hardware PMU).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#define NR_EVENTS	8
/* the measured loop: 2 instructions each, many rotations long */
#define SPIN_ITERS	30000000UL
#define ROUNDS		60
#define ROUND_ITERS	20000UL

static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

#define READ_ONCE(x)	(*(volatile typeof(x) *)&(x))

enum path { PATH_RDPMC, PATH_IDX0, PATH_READ, NR_PATHS };
static const char * const path_name[NR_PATHS] = { "rdpmc", "index==0", "read() fallback" };

struct counter {
	int fd;
	const char *name;
	struct perf_event_mmap_page *pc;
};

struct value {
	uint64_t count, enabled, running;
};

static int failures;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

/* the scenarios' counted loop: two instructions an iteration */
__attribute__((noinline)) static void spin(unsigned long n)
{
#if defined(__x86_64__)
	asm volatile("1:\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#elif defined(__powerpc64__)
	asm volatile("1:\taddic. %0,%0,-1\n\tbne 1b" : "+b"(n) : : "cr0", "xer");
#endif
}

#if defined(__x86_64__)
static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#else
static uint64_t rdpmc(uint32_t counter)
{
	return 0;	/* never called: no cap_user_rdpmc */
}

static uint64_t rdtsc(void)
{
	return 0;	/* never called: no cap_user_time */
}
#endif

static int read_fd(struct counter *c, struct value *v)
{
	uint64_t buf[3];

	if (read(c->fd, buf, sizeof(buf)) != sizeof(buf))
		return -1;
	v->count = buf[0];
	v->enabled = buf[1];
	v->running = buf[2];
	return 0;
}

/* One read of the user page by the protocol; which path gave the count. */
static enum path read_page(struct perf_event_mmap_page *pc, struct value *v)
{
	uint32_t seq, idx;
	enum path path;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		v->enabled = pc->time_enabled;
		v->running = pc->time_running;
		idx = pc->index;
		v->count = pc->offset;
		if (pc->cap_user_time && v->enabled != v->running) {
			uint64_t cyc = rdtsc(), quot, rem, delta;
			uint16_t shift = pc->time_shift;

			quot = cyc >> shift;
			rem = cyc & (((uint64_t)1 << shift) - 1);
			delta = pc->time_offset + quot * pc->time_mult +
				((rem * pc->time_mult) >> shift);
			v->enabled += delta;
			if (idx)
				v->running += delta;
		}
		if (pc->cap_user_rdpmc && idx) {
			int64_t pmc = rdpmc(idx - 1);

			pmc <<= 64 - pc->pmc_width;
			pmc >>= 64 - pc->pmc_width;
			v->count += pmc;
			path = PATH_RDPMC;
		} else {
			path = idx ? PATH_READ : PATH_IDX0;
		}
		barrier();
	} while (READ_ONCE(pc->lock) != seq || (seq & 1));
	return path;
}

static int open_counter(struct counter *c, int i, long page)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = i % 2 ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	c->name = i % 2 ? "instructions" : "cycles";
	c->fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (c->fd < 0)
		return -1;
	c->pc = mmap(NULL, page, PROT_READ, MAP_SHARED, c->fd, 0);
	if (c->pc == MAP_FAILED)
		return -2;
	return 0;
}

/* Tolerance of a times comparison: the page's times may run on the TSC. */
static uint64_t time_slack(uint64_t t)
{
	return t / 100 + 2000000;
}

static void check_round(struct counter *c, int round, unsigned long *paths)
{
	struct value before, page, after;
	enum path path;

	if (read_fd(c, &before)) {
		fail("%s: read(): %s", c->name, strerror(errno));
		return;
	}
	path = read_page(c->pc, &page);
	if (read_fd(c, &after)) {
		fail("%s: read(): %s", c->name, strerror(errno));
		return;
	}
	paths[path]++;
	if (path == PATH_READ)
		page.count = after.count;	/* a counter user space cannot read */
	if (page.count < before.count || page.count > after.count)
		fail("round %d %s via %s: page count %llu outside read()'s [%llu, %llu]",
		     round, c->name, path_name[path], (unsigned long long)page.count,
		     (unsigned long long)before.count, (unsigned long long)after.count);
	if (page.running > page.enabled + time_slack(page.enabled) ||
	    page.enabled > after.enabled + time_slack(after.enabled) ||
	    page.running > after.running + time_slack(after.running))
		fail("round %d %s via %s: page times enabled %llu running %llu, read() %llu %llu",
		     round, c->name, path_name[path], (unsigned long long)page.enabled,
		     (unsigned long long)page.running, (unsigned long long)after.enabled,
		     (unsigned long long)after.running);
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct counter c[NR_EVENTS];
	unsigned long paths[NR_PATHS] = { 0 };
	uint64_t want = 2 * SPIN_ITERS;
	int i, r, multiplexed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < NR_EVENTS; i++) {
		r = open_counter(&c[i], i, page);
		if (r == -1 && i == 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
					  errno == ENODEV || errno == EINVAL)) {
			printf("selfmon: SKIP: no hardware PMU (perf_event_open: %s)\n",
			       strerror(errno));
			return 4;
		}
		if (r) {
			printf("selfmon: FAIL: event %d (%s): %s: %s\n", i, c[i].name,
			       r == -1 ? "perf_event_open" : "mmap", strerror(errno));
			return 1;
		}
	}
	printf("# %d user-only events, cap_user_rdpmc=%d cap_user_time=%d pmc_width=%d\n",
	       NR_EVENTS, c[0].pc->cap_user_rdpmc, c[0].pc->cap_user_time,
	       c[0].pc->pmc_width);
	/* how long each enable takes (an event that does not fit rotates) */
	printf("# enable ioctl (us):");
	for (i = 0; i < NR_EVENTS; i++) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		ioctl(c[i].fd, PERF_EVENT_IOC_ENABLE, 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf(" %ld", (t1.tv_sec - t0.tv_sec) * 1000000 +
		       (t1.tv_nsec - t0.tv_nsec) / 1000);
	}
	printf("\n");
	spin(SPIN_ITERS);
	for (i = 0; i < NR_EVENTS; i++)
		ioctl(c[i].fd, PERF_EVENT_IOC_DISABLE, 0);

	/* the loop's counts, scaled as every multiplexing client scales them */
	for (i = 0; i < NR_EVENTS; i++) {
		struct value v;
		uint64_t scaled;

		if (read_fd(&c[i], &v)) {
			fail("%s: read(): %s", c[i].name, strerror(errno));
			continue;
		}
		scaled = v.running ? (uint64_t)((double)v.count * v.enabled / v.running) : 0;
		printf("# loop %d %-12s count %llu enabled %llu running %llu scaled %llu\n",
		       i, c[i].name, (unsigned long long)v.count, (unsigned long long)v.enabled,
		       (unsigned long long)v.running, (unsigned long long)scaled);
		if (!v.running)
			fail("%s %d never ran (no rotation)", c[i].name, i);
		if (v.running < v.enabled)
			multiplexed++;
		/*
		 * time-based scaling under TCG: the guest clock runs on while
		 * the vCPU does not, hence the wide bounds
		 */
		if (i % 2 && (scaled < want * 2 / 5 || scaled > want * 5 / 2))
			fail("%s %d: scaled %llu is not near the loop's %llu", c[i].name, i,
			     (unsigned long long)scaled, (unsigned long long)want);
		if (!(i % 2) && !scaled)
			fail("cycles %d: scaled count 0", i);
	}
	if (!multiplexed)
		fail("no event was multiplexed (time_running == time_enabled for all %d)",
		     NR_EVENTS);

	/* the user page against read(), while the events rotate */
	for (i = 0; i < NR_EVENTS; i++)
		ioctl(c[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	for (r = 0; r < ROUNDS && failures < 10; r++) {
		spin(ROUND_ITERS);
		for (i = 0; i < NR_EVENTS; i++)
			check_round(&c[i], r, paths);
	}
	printf("# page reads: %lu via rdpmc, %lu via index==0, %lu via read() fallback\n",
	       paths[PATH_RDPMC], paths[PATH_IDX0], paths[PATH_READ]);
	if (c[0].pc->cap_user_rdpmc && !paths[PATH_RDPMC])
		fail("cap_user_rdpmc is set but no page read had an index");
	if (!paths[PATH_IDX0])
		fail("no page read saw index 0 though events are multiplexed");
	if (failures) {
		printf("selfmon: FAIL: %d check(s) failed\n", failures);
		return 1;
	}
	printf("selfmon: PASS: %d events, %d multiplexed\n", NR_EVENTS, multiplexed);
	return 0;
}
