// SPDX-License-Identifier: GPL-2.0
/*
 * The measured operations of P1, P2 and P3, shared with P6 (the same
 * loops with unrelated events open): open + close of a task-clock event,
 * read() of one event, and a pipe ping-pong of two tasks on CPU 0 with
 * events of their own.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void open_close(void *arg)
{
	int fd = perf_open(arg, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		die("perf_event_open");
	close(fd);
}

void bench_open_close(const char *name)
{
	struct perf_event_attr attr;

	attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	bench_time(name, open_close, &attr);
}

struct reader {
	int fd;
	size_t len;
	__u64 buf[64];
};

static void do_read(void *arg)
{
	struct reader *rd = arg;

	if (read(rd->fd, rd->buf, rd->len) != (ssize_t)rd->len)
		die("read");
}

void bench_read(const char *name, int fd, int nr_values)
{
	struct reader rd = { .fd = fd, .len = nr_values * sizeof(__u64) };

	if (nr_values > 64)
		die("%d values", nr_values);
	bench_time(name, do_read, &rd);
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t rdpmc(unsigned int counter)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return (uint64_t)hi << 32 | lo;
}

static volatile uint64_t rdpmc_sink;

/* The documented user-page protocol: retry while the kernel updates it. */
static void do_rdpmc(void *arg)
{
	volatile struct perf_event_mmap_page *pc = arg;
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		asm volatile("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			int64_t pmc = rdpmc(idx - 1);

			pmc <<= 64 - pc->pmc_width;
			pmc >>= 64 - pc->pmc_width;
			count += pmc;
		}
		asm volatile("" ::: "memory");
	} while (pc->lock != seq);
	rdpmc_sink += count;
}

void bench_rdpmc(const char *name, int fd)
{
	struct perf_event_mmap_page *pc;

	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED)
		die("%s: mmap", name);
	if (!pc->cap_user_rdpmc || !pc->index)
		die("%s: no rdpmc (cap_user_rdpmc %d, index %u)", name,
		    (int)pc->cap_user_rdpmc, pc->index);
	bench_time(name, do_rdpmc, pc);
	munmap(pc, getpagesize());
}
#else
void bench_rdpmc(const char *name, int fd)
{
	die("%s: no rdpmc on this arch", name);
}
#endif

static void open_events_inherit(int nr, __u32 type, __u64 config, int *fds, bool inherit)
{
	struct perf_event_attr attr;
	int i;

	attr_init(&attr, type, config);
	attr.exclude_hv = 1;
	attr.inherit = inherit;
	for (i = 0; i < nr; i++) {
		fds[i] = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0)
			die("event %d of %d (type %u config %llu)", i, nr, type,
			    (unsigned long long)config);
	}
}

static void open_events(int nr, __u32 type, __u64 config, int *fds)
{
	open_events_inherit(nr, type, config, fds, false);
}

static void close_events(int nr, int *fds)
{
	while (nr--)
		close(fds[nr]);
}

struct pingpong {
	int to_child, from_child;
};

static void round_trip(void *arg)
{
	struct pingpong *pp = arg;
	char c = 0;

	if (write(pp->to_child, &c, 1) != 1 || read(pp->from_child, &c, 1) != 1)
		die("ping-pong");
}

/*
 * Ping-pong with @nr events per task: each task's own (the child opens its
 * events, then says it is ready), or with @inherit the parent's, opened
 * before the fork, so that the child holds copies of them.  The caller is
 * pinned on CPU 0 (pin_cpu).
 */
static void pingpong(const char *name, int nr, __u32 type, __u64 config, bool inherit)
{
	int p2c[2], c2p[2], ready[2], fds[64];
	struct pingpong pp;
	char c = 0;
	pid_t child;

	if (nr > 64)
		die("%d events", nr);
	if (inherit)
		open_events_inherit(nr, type, config, fds, true);
	if (pipe(p2c) || pipe(c2p) || pipe(ready))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		close(p2c[1]);
		close(c2p[0]);
		if (!inherit)
			open_events(nr, type, config, fds);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		while (read(p2c[0], &c, 1) == 1) {
			if (write(c2p[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(p2c[0]);
	close(c2p[1]);
	if (!inherit)
		open_events(nr, type, config, fds);
	if (read(ready[0], &c, 1) != 1)
		die("child not ready");
	pp.to_child = p2c[1];
	pp.from_child = c2p[0];
	bench_time(name, round_trip, &pp);
	close(p2c[1]);
	close(c2p[0]);
	close(ready[0]);
	close(ready[1]);
	waitpid(child, NULL, 0);
	close_events(nr, fds);
}

void bench_pingpong(const char *name, int nr, __u32 type, __u64 config)
{
	pingpong(name, nr, type, config, false);
}

void bench_pingpong_inherit(const char *name, int nr, __u32 type, __u64 config)
{
	pingpong(name, nr, type, config, true);
}
