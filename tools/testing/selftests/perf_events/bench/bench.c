// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers of the perf_events micro-benchmarks: options, timing,
 * result lines, event opening, the P6 "unrelated events" and ring-buffer
 * draining.  See bench.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

struct bench_opts bench = { .rounds = 3, .scale = 1.0 };

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (errno %d: %s)\n", errno, strerror(errno));
	va_end(ap);
	exit(1);
}

void bench_parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "r:s:u:c:")) != -1) {
		switch (c) {
		case 'r':
			bench.rounds = atoi(optarg);
			break;
		case 's':
			bench.scale = atof(optarg);
			break;
		case 'u':
			bench.unrelated = optarg;
			break;
		case 'c':
			bench.only = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-r rounds] [-s scale] [-u self|task|cpu:N] [-c case,...]\n",
				argv[0]);
			exit(2);
		}
	}
	if (bench.rounds < 1)
		bench.rounds = 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

long iters(long base)
{
	long n = base * bench.scale;

	return n < 1 ? 1 : n;
}

static long timed_ops(void (*op)(void *), void *arg, uint64_t min_ns, uint64_t *ns)
{
	uint64_t t0 = now_ns(), t;
	long n = 0, i, batch = 1;

	for (;;) {
		for (i = 0; i < batch; i++)
			op(arg);
		n += batch;
		t = now_ns() - t0;
		/* at least 100 ops: a slow case's round is not a handful of ops */
		if (t >= min_ns && n >= 100)
			break;
		/* check the clock about every 1/64 of a round */
		if (t < min_ns / 64)
			batch *= 2;
	}
	*ns = t;
	return n;
}

/*
 * kprof's markers: no-op instructions that compilers never emit
 * (testbed/profile/kprof.c); the profiler acts on their execution.
 */
void region_start(void)
{
#if defined(__x86_64__)
	asm volatile(".byte 0x0f, 0x1f, 0x80, 0x42, 0x52, 0x50, 0x4b" ::: "memory");
#elif defined(__powerpc64__)
	asm volatile("xori 12, 12, 0" ::: "memory");
#endif
}

void region_end(const char *name, long ops)
{
#if defined(__x86_64__)
	asm volatile(".byte 0x0f, 0x1f, 0x80, 0x45, 0x52, 0x50, 0x4b" ::: "memory");
#elif defined(__powerpc64__)
	asm volatile("xoris 12, 12, 0" ::: "memory");
#endif
	printf("BENCH-OPS %s%s %ld\n", name, unrelated_suffix(), ops);
}

void bench_time(const char *name, void (*op)(void *), void *arg)
{
	uint64_t target = BENCH_ROUND_NS * bench.scale, ns;
	long n;
	int r;

	/*
	 * What the setup left to do (RCU callbacks freeing the thousands of
	 * events of the previous case, kworkers) runs now, while the CPU
	 * idles, not in the first round; under -icount sleep=off an idle
	 * guest skips ahead, so this costs no wall time.
	 */
	usleep(200000);
	/* a full round of warm-up: the scheduler and the allocators settle */
	timed_ops(op, arg, target, &ns);
	for (r = 0; r < bench.rounds; r++) {
		region_start();
		n = timed_ops(op, arg, target, &ns);
		region_end(name, n);
		report(name, r, (double)ns / n, "ns/op");
	}
}

/* -c NAME[,NAME...]: only these cases (exact names) */
int want(const char *name)
{
	size_t len = strlen(name);
	const char *p = bench.only;

	if (!p)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == bench.only || p[-1] == ',') && (p[len] == 0 || p[len] == ','))
			return 1;
		p += len;
	}
	return 0;
}

void report(const char *name, int round, double value, const char *unit)
{
	printf("BENCH %s%s %d %.2f %s\n", name, unrelated_suffix(), round, value, unit);
}

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, flags);
}

void attr_init(struct perf_event_attr *attr, __u32 type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

int open_sw(__u64 config, int group, int disabled)
{
	struct perf_event_attr attr;
	int fd;

	attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = disabled;
	fd = perf_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open(software %llu)", (unsigned long long)config);
	return fd;
}

static long read_number(const char *path)
{
	char buf[64];
	long v = -1;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		v = strtol(buf, NULL, 0);
	}
	close(fd);
	return v;
}

/* Dynamic PMU type from sysfs; -1 when the PMU is absent. */
int pmu_type(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	return read_number(path);
}

/*
 * Whether the arch's PMU counts hardware events here (POWER, or the
 * testbed's emulated x86 PMU; not a QEMU without one).
 */
bool hw_available(void)
{
	struct perf_event_attr attr;
	int fd;

	attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_hv = 1;
	fd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Tracepoint id of "group:name"; -1 when absent. */
int tracepoint_id(const char *name)
{
	char path[256], grp[64];
	const char *colon = strchr(name, ':');

	if (!colon || colon - name >= (long)sizeof(grp))
		return -1;
	memcpy(grp, name, colon - name);
	grp[colon - name] = 0;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id", grp, colon + 1);
	return read_number(path);
}

void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(%d)", cpu);
}

void raise_nofile(long n)
{
	struct rlimit rl = { n, n };

	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE, %ld)", n);
}

/*
 * P6's unrelated events, of a software type that never fires on a
 * one-CPU guest (CPU migrations):
 *   self:N  N disabled events on the measuring task,
 *   task:N  N enabled events on another (sleeping) task,
 *   cpu:N   N enabled CPU-wide events on CPU 0.
 */
static int *unrel_fds;
static long unrel_n;
static pid_t unrel_child;
static char unrel_name[64];

const char *unrelated_suffix(void)
{
	return unrel_name;
}

const char *unrelated_open(void)
{
	struct perf_event_attr attr;
	char kind[16];
	pid_t pid = 0;
	int cpu = -1;
	long i;

	if (!bench.unrelated || !*bench.unrelated)
		return "";
	if (sscanf(bench.unrelated, "%15[a-z]:%ld", kind, &unrel_n) != 2 || unrel_n < 0)
		die("bad -u %s", bench.unrelated);
	raise_nofile(unrel_n + 1024);
	attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	if (!strcmp(kind, "self")) {
		attr.disabled = 1;
	} else if (!strcmp(kind, "task")) {
		unrel_child = fork();
		if (unrel_child < 0)
			die("fork");
		if (!unrel_child) {
			for (;;)
				pause();
		}
		pid = unrel_child;
	} else if (!strcmp(kind, "cpu")) {
		pid = -1;
		cpu = 0;
	} else {
		die("bad -u kind %s", kind);
	}
	unrel_fds = calloc(unrel_n ? unrel_n : 1, sizeof(int));
	for (i = 0; i < unrel_n; i++) {
		unrel_fds[i] = perf_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (unrel_fds[i] < 0)
			die("unrelated event %ld of %ld (%s)", i, unrel_n, kind);
	}
	snprintf(unrel_name, sizeof(unrel_name), "@%s:%ld", kind, unrel_n);
	return unrel_name;
}

void unrelated_close(void)
{
	long i;

	for (i = 0; i < unrel_n; i++)
		close(unrel_fds[i]);
	free(unrel_fds);
	unrel_fds = NULL;
	unrel_n = 0;
	if (unrel_child > 0) {
		kill(unrel_child, SIGKILL);
		waitpid(unrel_child, NULL, 0);
		unrel_child = 0;
	}
}

int ring_map(struct ring *r, int fd, int data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	r->size = (size_t)data_pages * page;
	r->len = r->size + page;
	p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->meta = p;
	r->data = (char *)p + page;
	return 0;
}

void ring_unmap(struct ring *r)
{
	munmap(r->meta, r->len);
}

long ring_drain(struct ring *r, long *lost)
{
	__u64 head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->meta->data_tail;
	long samples = 0;

	while (tail < head) {
		struct perf_event_header *h = (void *)(r->data + (tail & (r->size - 1)));

		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else if (h->type == PERF_RECORD_LOST && lost)
			/* header, id, then the number of lost records */
			*lost += *(__u64 *)(r->data + ((tail + 16) & (r->size - 1)));
		if (!h->size)
			break;
		tail += h->size;
	}
	__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
	return samples;
}
