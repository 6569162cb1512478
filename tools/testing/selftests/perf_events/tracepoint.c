// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_TRACEPOINT and the kprobe/uprobe dynamic PMUs.
 *
 * Covers: tracepoint ids read from tracefs; counting sched:sched_switch and
 * syscalls:sys_enter_getppid/sys_exit_getppid against a workload the test
 * controls (the syscall counts are exact); an id no event has -> EINVAL
 * (6.1 perf_trace_init); PERF_SAMPLE_RAW layout of a tracepoint sample
 * (u32 size, then the raw data, padded so the record stays u64 aligned;
 * common_type == the tracepoint id, common_pid == the thread);
 * PERF_EVENT_IOC_SET_FILTER (a filter on a syscall argument reduces the
 * count to the matching calls; unknown field -> EINVAL; a second filter ->
 * EEXIST; a software event -> EINVAL); the kprobe PMU (config1 = function
 * name) and the uprobe PMU (config1 = path, config2 = file offset) count
 * calls exactly.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define NR_CALLS	1000

static void do_getppid(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(__NR_getppid);
}

/* Open tracepoint @sys:@name on self (disabled); SKIPs are the caller's job. */
static int open_tp(const char *sys, const char *name, int *id)
{
	struct perf_event_attr attr;

	*id = perfev_tracepoint_id(sys, name);
	if (*id < 0)
		return -1;
	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, *id);
	return perfev_open(&attr, 0, -1, -1, 0);
}

/* Enable @fd, run @fn(@n), disable and return the count (~0 on error). */
static __u64 count_around(int fd, void (*fn)(int), int n)
{
	__u64 count = ~0ULL;

	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return ~0ULL;
	fn(n);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || perfev_read_count(fd, &count))
		return ~0ULL;
	return count;
}

TEST(tracepoint_ids_are_positive_and_distinct)
{
	int sw = perfev_tracepoint_id("sched", "sched_switch");
	int enter = perfev_tracepoint_id("syscalls", "sys_enter_getppid");
	int exit = perfev_tracepoint_id("syscalls", "sys_exit_getppid");

	if (sw < 0)
		SKIP(return, "tracefs or sched:sched_switch not available");
	EXPECT_GT(sw, 0);
	if (enter < 0 || exit < 0)
		SKIP(return, "syscall tracepoints not available (FTRACE_SYSCALLS)");
	EXPECT_GT(enter, 0);
	EXPECT_GT(exit, 0);
	EXPECT_NE(sw, enter);
	EXPECT_NE(sw, exit);
	EXPECT_NE(enter, exit);
}

TEST(sched_switch_counts_pipe_pingpong)
{
	const int rounds = 200;
	__u64 count;
	int fd, id;

	fd = open_tp("sched", "sched_switch", &id);
	if (id < 0)
		SKIP(return, "sched:sched_switch not in tracefs");
	ASSERT_GE(fd, 0) TH_LOG("open sched_switch (id %d): errno %d", id, errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_pipe_pingpong(rounds));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	/* parent and child share one CPU: every round switches this task out */
	EXPECT_GE(count, (__u64)rounds);
	EXPECT_LT(count, (__u64)rounds * 4 + 100);
	close(fd);
}

TEST(sys_enter_getppid_counts_exactly)
{
	int fd, id;

	fd = open_tp("syscalls", "sys_enter_getppid", &id);
	if (id < 0)
		SKIP(return, "syscalls:sys_enter_getppid not in tracefs");
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	EXPECT_EQ((__u64)NR_CALLS, count_around(fd, do_getppid, NR_CALLS));
	/* disabled: no further counting */
	do_getppid(10);
	EXPECT_EQ((__u64)NR_CALLS, count_around(fd, do_getppid, 0));
	close(fd);
}

TEST(sys_exit_getppid_counts_exactly)
{
	int fd, id;

	fd = open_tp("syscalls", "sys_exit_getppid", &id);
	if (id < 0)
		SKIP(return, "syscalls:sys_exit_getppid not in tracefs");
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	EXPECT_EQ(37ULL, count_around(fd, do_getppid, 37));
	close(fd);
}

TEST(unknown_tracepoint_id_is_einval)
{
	struct perf_event_attr attr;
	__u64 bad[] = { 0, 0x7fffffff, 0xffffffffULL };
	unsigned int i;

	if (!perfev_tracefs())
		SKIP(return, "no tracefs");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, bad[i]);
		EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0))
			TH_LOG("id 0x%llx opened", (unsigned long long)bad[i]);
		EXPECT_EQ(EINVAL, errno);
	}
}

TEST(raw_sample_layout_and_common_type)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct perfev_ring ring;
	int fd, id, n = 0;

	id = perfev_tracepoint_id("syscalls", "sys_enter_getppid");
	if (id < 0)
		SKIP(return, "syscalls:sys_enter_getppid not in tracefs");
	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, perfev_ring_map(&ring, fd, 8, false));
	EXPECT_EQ(5ULL, count_around(fd, do_getppid, 5));

	while ((h = perfev_ring_next(&ring))) {
		unsigned char *p = (unsigned char *)(h + 1);
		__u32 size;
		__u16 type;
		__s32 pid, nr;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		memcpy(&size, p, 4);
		/* header + u32 size + data, padded to a u64 multiple */
		EXPECT_EQ(sizeof(*h) + 4 + size, h->size);
		EXPECT_EQ(0U, (4 + size) % 8);
		/* common_type(2) flags(1) preempt(1) pid(4) __syscall_nr(4) */
		ASSERT_GE(size, 12U);
		memcpy(&type, p + 4, 2);
		memcpy(&pid, p + 4 + 4, 4);
		memcpy(&nr, p + 4 + 8, 4);
		EXPECT_EQ(id, type);
		EXPECT_EQ(gettid(), pid);
		EXPECT_EQ(__NR_getppid, nr);
	}
	EXPECT_EQ(5, n);
	perfev_ring_unmap(&ring);
	close(fd);
}

static void do_close_bad(int n)
{
	int i;

	/* 777 and 778 are not open: close() fails with EBADF, still traced */
	for (i = 0; i < n; i++) {
		close(777);
		close(778);
		close(778);
	}
}

TEST(set_filter_counts_only_matching_calls)
{
	int fd, id;

	fd = open_tp("syscalls", "sys_enter_close", &id);
	if (id < 0)
		SKIP(return, "syscalls:sys_enter_close not in tracefs");
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	/* unfiltered: every close counts */
	EXPECT_EQ(300ULL, count_around(fd, do_close_bad, 100));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "fd == 777"));
	EXPECT_EQ(100ULL, count_around(fd, do_close_bad, 100));
	close(fd);
}

TEST(set_filter_errors)
{
	int fd, sw, id;

	fd = open_tp("syscalls", "sys_enter_close", &id);
	if (id < 0)
		SKIP(return, "syscalls:sys_enter_close not in tracefs");
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	/* unknown field */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"));
	EXPECT_EQ(EINVAL, errno);
	/* a second filter on the same event: EEXIST (6.1 ftrace_profile_set_filter) */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "fd == 1"));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "fd == 2"));
	EXPECT_EQ(EEXIST, errno);
	close(fd);

	/* not a tracing event and no address filters */
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(sw, 0);
	EXPECT_EQ(-1, ioctl(sw, PERF_EVENT_IOC_SET_FILTER, "fd == 1"));
	EXPECT_EQ(EINVAL, errno);
	close(sw);
}

TEST(kprobe_pmu_counts_calls_exactly)
{
	static const char * const syms[] = { "__x64_sys_getppid", "sys_getppid" };
	const char *sym = NULL;
	struct perf_event_attr attr;
	unsigned int i;
	int type, fd;

	type = perfev_pmu_type("kprobe");
	if (type < 0)
		SKIP(return, "no kprobe PMU");
	for (i = 0; i < ARRAY_SIZE(syms) && !sym; i++)
		if (perfev_have_ksym(syms[i]))
			sym = syms[i];
	if (!sym)
		SKIP(return, "no getppid syscall entry symbol in /proc/kallsyms");
	perfev_attr_init(&attr, type, 0);
	attr.config1 = (__u64)(unsigned long)sym;	/* kprobe_func */
	attr.config2 = 0;				/* offset */
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("kprobe on %s: errno %d", sym, errno);
	EXPECT_EQ((__u64)NR_CALLS, count_around(fd, do_getppid, NR_CALLS));
	close(fd);

	/* retprobe (config bit 0) counts returns just as exactly */
	attr.config = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("kretprobe on %s: errno %d", sym, errno);
	EXPECT_EQ(123ULL, count_around(fd, do_getppid, 123));
	close(fd);
}

static volatile int probed_calls;

static __attribute__((noinline)) void probed_function(void)
{
	probed_calls++;
	__asm__ __volatile__("" ::: "memory");
}

/* Called through a volatile pointer: on ppc64le this enters at the global entry. */
static void (*volatile probed_ptr)(void) = probed_function;

static void call_probed(int n)
{
	int i;

	for (i = 0; i < n; i++)
		probed_ptr();
}

TEST(uprobe_pmu_counts_calls_exactly)
{
	static const char path[] = "/proc/self/exe";
	struct perf_event_attr attr;
	long off;
	int type, fd;

	type = perfev_pmu_type("uprobe");
	if (type < 0)
		SKIP(return, "no uprobe PMU");
	off = perfev_exe_file_offset((unsigned long)probed_function);
	ASSERT_GT(off, 0) TH_LOG("cannot locate probed_function in /proc/self/exe");
	perfev_attr_init(&attr, type, 0);
	attr.config1 = (__u64)(unsigned long)path;	/* uprobe_path */
	attr.config2 = off;				/* probe_offset */
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("uprobe at 0x%lx: errno %d", off, errno);
	probed_calls = 0;
	EXPECT_EQ(1000ULL, count_around(fd, call_probed, 1000));
	EXPECT_EQ(1000, probed_calls);
	/* disabled: calls are not counted */
	call_probed(50);
	EXPECT_EQ(1000ULL, count_around(fd, call_probed, 0));
	close(fd);
}

TEST_HARNESS_MAIN
