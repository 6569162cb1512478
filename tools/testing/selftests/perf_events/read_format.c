// SPDX-License-Identifier: GPL-2.0
/*
 * The layout of read(2) on a counting event.
 *
 * Covers: every combination of PERF_FORMAT_TOTAL_TIME_ENABLED, _RUNNING, _ID,
 * _LOST (6.0+) and _GROUP gives exactly the documented number of bytes, for a
 * single event and for a group with N siblings (and the size grows as
 * siblings join); a buffer smaller than that size is ENOSPC; unknown
 * read_format bits are EINVAL; field order (value, enabled, running, id,
 * lost); ids are unique and equal PERF_EVENT_IOC_ID; lost is 0 for a counting
 * event; time_running <= time_enabled, both grow while enabled and freeze
 * while disabled; a never-enabled event reads all zeros; an event on a task
 * that has exited is still readable with its final count.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define ALL_SINGLE_FORMATS	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
				 PERF_FORMAT_TOTAL_TIME_RUNNING | \
				 PERF_FORMAT_ID | PERF_FORMAT_LOST)

#define MAX_WORDS	64

/* Size read(2) must return, computed from the uapi layout comment. */
static size_t expected_size(__u64 rf, int nr_events)
{
	size_t hdr = 0, entry = 1;

	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		hdr++;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		hdr++;
	if (rf & PERF_FORMAT_ID)
		entry++;
	if (rf & PERF_FORMAT_LOST)
		entry++;
	if (!(rf & PERF_FORMAT_GROUP))
		return (hdr + entry) * sizeof(__u64);
	return (1 + hdr + nr_events * entry) * sizeof(__u64);
}

/* Open a page-fault counter on self with @rf; enabled unless it is a sibling. */
static int open_pf(__u64 rf, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = rf;
	if (group_fd >= 0)
		attr.disabled = 0;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

static int open_task_clock(__u64 rf, pid_t pid, bool disabled)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = rf;
	attr.disabled = disabled;
	return perfev_open(&attr, pid, -1, -1, 0);
}

TEST(single_read_size_every_combination)
{
	__u64 buf[MAX_WORDS], rf;
	size_t want;
	int fd;

	for (rf = 0; rf <= ALL_SINGLE_FORMATS; rf++) {
		if (rf & PERF_FORMAT_GROUP)
			continue;
		fd = open_pf(rf, -1);
		ASSERT_GE(fd, 0) TH_LOG("read_format %#llx: errno %d",
					(unsigned long long)rf, errno);
		want = expected_size(rf, 1);
		EXPECT_EQ((ssize_t)want, read(fd, buf, sizeof(buf)))
			TH_LOG("read_format %#llx", (unsigned long long)rf);
		/* Exactly the size is enough; one byte less is ENOSPC. */
		EXPECT_EQ((ssize_t)want, read(fd, buf, want));
		EXPECT_EQ(-1, read(fd, buf, want - 1));
		EXPECT_EQ(ENOSPC, errno);
		close(fd);
	}
}

TEST(group_read_size_every_combination)
{
	const int nr_sib = 3;
	__u64 buf[MAX_WORDS], rf;
	int leader, sib[3], i;
	size_t want;

	for (rf = PERF_FORMAT_GROUP; rf < PERF_FORMAT_GROUP * 4; rf++) {
		if (!(rf & PERF_FORMAT_GROUP))
			continue;
		leader = open_pf(rf, -1);
		ASSERT_GE(leader, 0) TH_LOG("read_format %#llx: errno %d",
					    (unsigned long long)rf, errno);
		for (i = 0; i < nr_sib; i++) {
			sib[i] = open_pf(rf, leader);
			ASSERT_GE(sib[i], 0);
		}
		want = expected_size(rf, nr_sib + 1);
		memset(buf, 0xff, sizeof(buf));
		EXPECT_EQ((ssize_t)want, read(leader, buf, sizeof(buf)))
			TH_LOG("read_format %#llx", (unsigned long long)rf);
		EXPECT_EQ((__u64)nr_sib + 1, buf[0]);
		/* A sibling with FORMAT_GROUP reads the whole group too. */
		EXPECT_EQ((ssize_t)want, read(sib[1], buf, sizeof(buf)));
		EXPECT_EQ((__u64)nr_sib + 1, buf[0]);
		EXPECT_EQ(-1, read(leader, buf, want - 1));
		EXPECT_EQ(ENOSPC, errno);
		for (i = 0; i < nr_sib; i++)
			close(sib[i]);
		close(leader);
	}
}

TEST(group_read_size_grows_with_each_sibling)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	__u64 buf[MAX_WORDS];
	int leader, sib[5], i;

	leader = open_pf(rf, -1);
	ASSERT_GE(leader, 0);
	EXPECT_EQ((ssize_t)expected_size(rf, 1), read(leader, buf, sizeof(buf)));
	for (i = 0; i < 5; i++) {
		sib[i] = open_pf(rf, leader);
		ASSERT_GE(sib[i], 0);
		EXPECT_EQ((ssize_t)expected_size(rf, i + 2), read(leader, buf, sizeof(buf)));
		EXPECT_EQ((__u64)i + 2, buf[0]);
	}
	/* Closing a sibling shrinks the group again. */
	close(sib[4]);
	EXPECT_EQ((ssize_t)expected_size(rf, 5), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(5ULL, buf[0]);
	for (i = 0; i < 4; i++)
		close(sib[i]);
	close(leader);
}

TEST(small_buffers_enospc)
{
	__u64 buf[MAX_WORDS];
	int fd;

	fd = open_pf(0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, read(fd, buf, 7));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, read(fd, buf, 0));
	EXPECT_EQ(ENOSPC, errno);
	/* A larger buffer is fine; read returns only the format's size. */
	EXPECT_EQ(8, read(fd, buf, sizeof(buf)));
	close(fd);
}

TEST(unknown_read_format_bit_einval)
{
	struct perf_event_attr attr;
	int bit;

	for (bit = 5; bit < 64; bit += 29) {
		perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
		attr.read_format = 1ULL << bit;
		EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0)) TH_LOG("bit %d", bit);
		EXPECT_EQ(EINVAL, errno);
	}
}

TEST(single_field_order_and_values)
{
	__u64 buf[5], id;
	int fd;

	fd = open_pf(ALL_SINGLE_FORMATS, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(40, read(fd, buf, sizeof(buf)));
	EXPECT_GE(buf[0], 32ULL);		/* value */
	EXPECT_LT(buf[0], 32ULL + 1000);
	EXPECT_GT(buf[1], 0ULL);		/* time_enabled */
	EXPECT_GT(buf[2], 0ULL);		/* time_running */
	EXPECT_LE(buf[2], buf[1]);
	EXPECT_EQ(id, buf[3]);			/* id */
	EXPECT_EQ(0ULL, buf[4]);		/* lost */
	close(fd);
}

TEST(group_ids_unique_and_match_ioc_id)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 buf[MAX_WORDS], ids[4];
	int fds[4], i, j;

	for (i = 0; i < 4; i++) {
		fds[i] = open_pf(rf, i ? fds[0] : -1);
		ASSERT_GE(fds[i], 0);
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &ids[i]));
		for (j = 0; j < i; j++)
			EXPECT_NE(ids[j], ids[i]);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	/* nr, enabled, running, then {value, id, lost} leader first, join order. */
	ASSERT_EQ((ssize_t)expected_size(rf, 4), read(fds[0], buf, sizeof(buf)));
	EXPECT_EQ(4ULL, buf[0]);
	EXPECT_LE(buf[2], buf[1]);
	EXPECT_GT(buf[2], 0ULL);
	for (i = 0; i < 4; i++) {
		EXPECT_GE(buf[3 + 3 * i], 16ULL);
		EXPECT_EQ(ids[i], buf[3 + 3 * i + 1]);
		EXPECT_EQ(0ULL, buf[3 + 3 * i + 2]);
	}
	for (i = 3; i >= 0; i--)
		close(fds[i]);
}

TEST(ioc_id_differs_between_events)
{
	__u64 id1, id2;
	int fd1, fd2;

	fd1 = open_pf(0, -1);
	ASSERT_GE(fd1, 0);
	fd2 = open_pf(0, -1);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ioctl(fd1, PERF_EVENT_IOC_ID, &id1));
	ASSERT_EQ(0, ioctl(fd2, PERF_EVENT_IOC_ID, &id2));
	EXPECT_NE(id1, id2);
	/* The id is stable. */
	ASSERT_EQ(0, ioctl(fd1, PERF_EVENT_IOC_ID, &id2));
	EXPECT_EQ(id1, id2);
	close(fd1);
	close(fd2);
}

TEST(never_enabled_event_reads_all_zero)
{
	struct perfev_value v;
	int fd;

	fd = open_task_clock(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
			     0, true);
	ASSERT_GE(fd, 0);
	perfev_burn(100000);
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0ULL, v.value);
	EXPECT_EQ(0ULL, v.enabled);
	EXPECT_EQ(0ULL, v.running);
	close(fd);
}

TEST(times_grow_while_enabled_running_le_enabled)
{
	struct perfev_value a, b;
	int fd;

	fd = open_task_clock(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
			     0, false);
	ASSERT_GE(fd, 0);
	perfev_burn(200000);
	ASSERT_EQ(0, perfev_read_value(fd, &a));
	perfev_burn(200000);
	ASSERT_EQ(0, perfev_read_value(fd, &b));
	EXPECT_GT(a.value, 0ULL);
	EXPECT_GT(b.value, a.value);
	EXPECT_GT(b.enabled, a.enabled);
	EXPECT_GT(b.running, a.running);
	EXPECT_LE(a.running, a.enabled);
	EXPECT_LE(b.running, b.enabled);
	close(fd);
}

TEST(disabled_event_times_frozen)
{
	struct perfev_value a, b;
	int fd;

	fd = open_task_clock(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
			     0, false);
	ASSERT_GE(fd, 0);
	perfev_burn(200000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &a));
	perfev_burn(200000);
	usleep(10000);
	ASSERT_EQ(0, perfev_read_value(fd, &b));
	EXPECT_GT(a.value, 0ULL);
	EXPECT_GT(a.enabled, 0ULL);
	EXPECT_EQ(a.value, b.value);
	EXPECT_EQ(a.enabled, b.enabled);
	EXPECT_EQ(a.running, b.running);
	close(fd);
}

static void child_burn(void *arg)
{
	perfev_burn(500000);
	perfev_touch_pages(64);
}

TEST(read_after_target_task_exited)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			 PERF_FORMAT_ID;
	struct perfev_child c;
	__u64 a[4], b[4], id;
	int fd;

	ASSERT_EQ(0, perfev_child_start(&c, child_burn, NULL));
	fd = open_task_clock(rf, c.pid, false);
	if (fd < 0)
		kill(c.pid, SIGKILL);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));
	/* The final count stays readable, with the full layout, and frozen. */
	ASSERT_EQ(32, read(fd, a, sizeof(a)));
	usleep(5000);
	ASSERT_EQ(32, read(fd, b, sizeof(b)));
	EXPECT_GT(a[0], 0ULL);
	EXPECT_GT(a[1], 0ULL);
	EXPECT_LE(a[2], a[1]);
	EXPECT_EQ(id, a[3]);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	close(fd);
}

TEST(sibling_without_group_format_reads_only_itself)
{
	__u64 buf[MAX_WORDS], id;
	int leader, sib;

	leader = open_pf(PERF_FORMAT_GROUP, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(PERF_FORMAT_ID, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(sib, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(16, read(sib, buf, sizeof(buf)));
	EXPECT_GE(buf[0], 16ULL);
	EXPECT_EQ(id, buf[1]);
	/* The leader's group read has the sibling's value, no id. */
	ASSERT_EQ(24, read(leader, buf + 2, sizeof(buf) - 16));
	EXPECT_EQ(2ULL, buf[2]);
	EXPECT_EQ(buf[0], buf[4]);
	close(sib);
	close(leader);
}

TEST_HARNESS_MAIN
