// SPDX-License-Identifier: GPL-2.0
/*
 * The perf event fd ioctls.
 *
 * Covers: ENABLE/DISABLE (count and time_enabled freeze; repeating them is
 * harmless; on a sibling without PERF_IOC_FLAG_GROUP only that sibling,
 * with the flag the whole group via its leader); RESET (count to 0, time
 * kept; PERF_IOC_FLAG_GROUP from a sibling resets every member); REFRESH
 * (event_limit: a sampling event disables itself after N overflows and the
 * last SIGIO carries POLL_HUP; REFRESH 0 just enables without a limit; a
 * counting or inherited event is EINVAL); PERIOD (bad pointer EFAULT, 0,
 * bit 63, non-sampling event and freq above perf_event_max_sample_rate are
 * EINVAL; a new period applies from the next enable); SET_OUTPUT (samples go
 * to the target's ring, -1 detaches; itself, a target without a ring, other
 * task, other CPU, other clock, or an event that is mmapped itself: EINVAL;
 * a non-perf or closed fd: EBADF); SET_FILTER (bad pointer EFAULT, bad
 * syntax EINVAL, a common_pid filter selects the calling task); ID (equals
 * PERF_FORMAT_ID, bad pointer EFAULT); SET_BPF and QUERY_BPF (EOPNOTSUPP
 * without CONFIG_BPF_SYSCALL); PAUSE_OUTPUT (EINVAL without data pages;
 * paused samples are counted as lost and reported by PERF_RECORD_LOST and
 * PERF_FORMAT_LOST); MODIFY_ATTRIBUTES (EOPNOTSUPP for a software event,
 * type mismatch EINVAL, bad pointer EFAULT, bad size E2BIG); unknown ioctl
 * numbers (also a known number with another size) are ENOTTY.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <termios.h>
#include <linux/hw_breakpoint.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST	BIT(4)
#endif

#define KERNEL_ATTR_SIZE	128	/* sizeof(struct perf_event_attr) in 6.1 */

/* Page-fault event on self with the given read_format and sample period. */
static int open_pf(__u64 rf, __u64 period, bool disabled, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = rf;
	attr.sample_period = period;
	attr.disabled = disabled;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

static __u64 count_of(int fd)
{
	__u64 c = ~0ULL;

	if (perfev_read_count(fd, &c))
		return ~0ULL;
	return c;
}

static bool have_bpf_syscall(void)
{
	return !(syscall(__NR_bpf, -1, NULL, 0) < 0 && errno == ENOSYS);
}

TEST(enable_disable_freeze_count_and_time)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perfev_value v0, v1, v2;
	int fd;

	fd = open_pf(rf, 0, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	EXPECT_EQ(0ULL, v0.value);
	EXPECT_EQ(0ULL, v0.enabled);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));	/* already on: no-op */
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));	/* already off: no-op */
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, 64ULL);
	EXPECT_LT(v1.value, 64ULL + 200);
	EXPECT_GT(v1.enabled, 0ULL);
	EXPECT_EQ(v1.enabled, v1.running);
	ASSERT_EQ(0, perfev_touch_pages(64));
	usleep(2000);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(v1.running, v2.running);
	close(fd);
}

TEST(disable_sibling_without_group_flag)
{
	__u64 l1, s1, l2, s2;
	int leader, sib;

	leader = open_pf(0, 0, false, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(0, 0, false, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(sib, PERF_EVENT_IOC_DISABLE, 0));
	l1 = count_of(leader);
	s1 = count_of(sib);
	EXPECT_GE(s1, 16ULL);
	ASSERT_EQ(0, perfev_touch_pages(64));
	l2 = count_of(leader);
	s2 = count_of(sib);
	EXPECT_EQ(s1, s2);		/* the sibling alone stopped */
	EXPECT_GE(l2, l1 + 64);		/* the leader kept counting */
	close(sib);
	close(leader);
}

TEST(disable_sibling_with_group_flag_stops_group)
{
	__u64 l1, s1;
	int leader, sib;

	leader = open_pf(0, 0, false, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(0, 0, false, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, perfev_touch_pages(16));
	/* PERF_IOC_FLAG_GROUP on a sibling acts on its leader's whole group. */
	ASSERT_EQ(0, ioctl(sib, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	l1 = count_of(leader);
	s1 = count_of(sib);
	EXPECT_GE(l1, 16ULL);
	EXPECT_GE(s1, 16ULL);
	ASSERT_EQ(0, perfev_touch_pages(64));
	EXPECT_EQ(l1, count_of(leader));
	EXPECT_EQ(s1, count_of(sib));
	close(sib);
	close(leader);
}

TEST(enable_sibling_with_group_flag_starts_group)
{
	int fds[3], i;
	__u64 c;

	fds[0] = open_pf(0, 0, true, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < 3; i++) {
		fds[i] = open_pf(0, 0, true, fds[0]);
		ASSERT_GE(fds[i], 0);
	}
	/* Without the flag, enabling a sibling of a disabled leader counts nothing. */
	ASSERT_EQ(0, ioctl(fds[2], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0ULL, count_of(fds[i]));
	ASSERT_EQ(0, ioctl(fds[2], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < 3; i++) {
		c = count_of(fds[i]);
		EXPECT_GE(c, 32ULL);
		EXPECT_LT(c, 32ULL + 200);
	}
	for (i = 2; i >= 0; i--)
		close(fds[i]);
}

TEST(reset_zeroes_count_keeps_time)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perfev_value v1, v2, v3;
	int fd;

	fd = open_pf(rf, 0, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, 64ULL);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_LT(v2.value, 8ULL);
	EXPECT_GE(v2.enabled, v1.enabled);	/* times are not reset */
	EXPECT_GE(v2.running, v1.running);
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v3));
	EXPECT_GE(v3.value, 16ULL);
	EXPECT_LT(v3.value, 16ULL + 100);
	/* Reset works on a disabled event too, and it stays at 0. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_EQ(0ULL, v1.value);
	EXPECT_EQ(v3.enabled, v1.enabled);
	close(fd);
}

TEST(reset_with_group_flag_from_sibling)
{
	int fds[3], i;

	fds[0] = open_pf(0, 0, true, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < 3; i++) {
		fds[i] = open_pf(0, 0, false, fds[0]);
		ASSERT_GE(fds[i], 0);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	/* Without the flag only the event itself. */
	ASSERT_EQ(0, ioctl(fds[1], PERF_EVENT_IOC_RESET, 0));
	EXPECT_GE(count_of(fds[0]), 32ULL);
	EXPECT_EQ(0ULL, count_of(fds[1]));
	EXPECT_GE(count_of(fds[2]), 32ULL);
	ASSERT_EQ(0, ioctl(fds[2], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0ULL, count_of(fds[i]));
	for (i = 2; i >= 0; i--)
		close(fds[i]);
}

/* Collect queued @sig siginfos (already pending) into @si; returns how many. */
static int collect_signals(int sig, siginfo_t *si, int max)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	sigset_t set;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, sig);
	while (n < max && sigtimedwait(&set, &si[n], &ts) == sig)
		n++;
	return n;
}

/* Route the event's SIGIO as @sig (blocked) to this process, with siginfo. */
static int setup_async(int fd, int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, sig))
		return -1;
	return fcntl(fd, F_SETFL, O_ASYNC);
}

/*
 * One fault per page with a short sleep after each: the disable that
 * event_limit requests is asynchronous (irq_work, or the next sched-out),
 * and the sleep makes it land before the next fault even when the emulated
 * timer interrupt is slow.
 */
static int touch_slowly(int pages)
{
	int i;

	for (i = 0; i < pages; i++) {
		if (perfev_touch_pages(1))
			return -1;
		usleep(200);
	}
	return 0;
}

TEST(refresh_limits_overflows_and_signals_hup)
{
	const int sig = SIGRTMIN + 1;
	siginfo_t si[16];
	__u64 c1, c2;
	int fd, n, i;

	fd = open_pf(0, 10, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, setup_async(fd, sig));
	/* Enables the event for 2 overflows (20 faults). */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_EQ(0, touch_slowly(40));
	c1 = count_of(fd);
	EXPECT_GE(c1, 20ULL);
	EXPECT_LT(c1, 30ULL);
	ASSERT_EQ(0, perfev_touch_pages(50));
	EXPECT_EQ(c1, count_of(fd));	/* disabled itself */
	n = collect_signals(sig, si, 16);
	ASSERT_GE(n, 1);
	EXPECT_LE(n, 2);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(fd, si[i].si_fd);
		EXPECT_EQ(i == n - 1 ? POLL_HUP : POLL_IN, si[i].si_code);
	}
	EXPECT_EQ(POLLHUP | POLLERR, si[n - 1].si_band);

	/*
	 * A new refresh re-arms: one more overflow, then off again.  The
	 * period keeps its progress across the disable, so the overflow comes
	 * at the next multiple of 10 faults.
	 */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(0, touch_slowly(30));
	c2 = count_of(fd);
	EXPECT_GE(c2, (c1 / 10 + 1) * 10);
	EXPECT_LT(c2, (c1 / 10 + 1) * 10 + 10);
	n = collect_signals(sig, si, 16);
	ASSERT_EQ(1, n);
	EXPECT_EQ(POLL_HUP, si[0].si_code);
	close(fd);
}

TEST(refresh_zero_enables_without_limit)
{
	const int sig = SIGRTMIN + 2;
	siginfo_t si[64];
	int fd, n, i;
	__u64 c;

	fd = open_pf(0, 10, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, setup_async(fd, sig));
	/* 6.1 adds 0 to event_limit (still "no limit") and enables. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 0));
	ASSERT_EQ(0, perfev_touch_pages(200));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c = count_of(fd);
	EXPECT_GE(c, 200ULL);
	EXPECT_LT(c, 400ULL);
	n = collect_signals(sig, si, 64);
	EXPECT_GE(n, 1);
	for (i = 0; i < n; i++)
		EXPECT_EQ(POLL_IN, si[i].si_code);
	close(fd);
}

TEST(refresh_counting_or_inherited_einval)
{
	struct perf_event_attr attr;
	int fd;

	fd = open_pf(0, 0, true, -1);	/* counting, not sampling */
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, perfev_touch_pages(16));
	EXPECT_EQ(0ULL, count_of(fd));	/* and it was not enabled */
	close(fd);

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 10;
	attr.inherit = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(period_bad_pointer_efault)
{
	int fd = open_pf(0, 0, true, -1);

	ASSERT_GE(fd, 0);
	/* The value is copied in before the event is looked at. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
	fd = open_pf(0, 100, true, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

TEST(period_invalid_values_einval)
{
	__u64 v;
	int fd;

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	v = 100;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));	/* not sampling */
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open_pf(0, 1000, true, -1);
	ASSERT_GE(fd, 0);
	v = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	v = 1ULL << 63;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	v = (1ULL << 63) - 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	v = 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}

TEST(period_freq_above_max_sample_rate_einval)
{
	struct perf_event_attr attr;
	long long rate;
	__u64 v;
	int fd;

	ASSERT_EQ(0, perfev_read_int("/proc/sys/kernel/perf_event_max_sample_rate", &rate));
	ASSERT_GT(rate, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 10;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	v = rate + 1;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	v = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	EXPECT_EQ(EINVAL, errno);
	v = 100;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}

TEST(period_change_takes_effect)
{
	struct perfev_ring r;
	int fd, samples;
	__u64 v, c;

	fd = open_pf(0, 1000000, true, -1);	/* sample_type 0: header-only samples */
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 16, false));
	v = 10;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(200));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c = count_of(fd);
	samples = perfev_ring_count(&r, PERF_RECORD_SAMPLE);
	EXPECT_GE(c, 200ULL);
	EXPECT_LT(c, 400ULL);
	/* One sample per 10 faults from the enable on. */
	EXPECT_LE((__u64)samples, c / 10);
	EXPECT_GE((__u64)samples + 1, c / 10);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(set_output_redirects_and_detaches)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct perfev_ring ra, rb;
	int a, b, n = 0, bad = 0;
	__u64 id_b;

	a = open_pf(0, 0, true, -1);
	ASSERT_GE(a, 0);
	ASSERT_EQ(0, perfev_ring_map(&ra, a, 8, false));
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ID;
	b = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ID, &id_b));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(20));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&ra))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		if (h->size != 16 || *(__u64 *)(h + 1) != id_b)
			bad++;
	}
	EXPECT_GE(n, 20);
	EXPECT_LT(n, 200);
	EXPECT_EQ(0, bad);

	/* -1 detaches: later samples no longer reach a's ring. */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(20));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0ULL, perfev_ring_pending(&ra));
	/* and b can have a ring of its own again */
	ASSERT_EQ(0, perfev_ring_map(&rb, b, 4, false));
	perfev_ring_unmap(&rb);
	perfev_ring_unmap(&ra);
	close(b);
	close(a);
}

TEST(set_output_self_or_target_without_ring_einval)
{
	int a, b;

	a = open_pf(0, 0, true, -1);
	ASSERT_GE(a, 0);
	b = open_pf(0, 0, true, -1);
	ASSERT_GE(b, 0);
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	/* a has no ring buffer to share */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	/* detaching an event without any output is fine */
	EXPECT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	close(b);
	close(a);
}

TEST(set_output_other_task_or_cpu_einval)
{
	struct perfev_child child;
	struct perf_event_attr attr;
	struct perfev_ring r1, r2;
	int a, b, c;

	ASSERT_EQ(0, perfev_child_start(&child, NULL, NULL));
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	a = perfev_open(&attr, child.pid, -1, -1, 0);	/* on the child */
	ASSERT_GE(a, 0);
	ASSERT_EQ(0, perfev_ring_map(&r1, a, 2, false));
	b = open_pf(0, 0, true, -1);
	ASSERT_GE(b, 0);
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	/* Same task, but bound to CPU 0 vs any CPU. */
	c = perfev_open(&attr, 0, 0, -1, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(0, perfev_ring_map(&r2, c, 2, false));
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, c));
	EXPECT_EQ(EINVAL, errno);

	perfev_ring_unmap(&r2);
	perfev_ring_unmap(&r1);
	close(c);
	close(b);
	close(a);
	ASSERT_EQ(0, perfev_child_go(&child));
	EXPECT_EQ(0, perfev_child_wait(&child));
}

TEST(set_output_non_perf_fd_ebadf)
{
	int fd, p[2];

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EBADF, errno);
	close(p[0]);
	close(p[1]);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));	/* closed */
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, 1000000));
	EXPECT_EQ(EBADF, errno);
	close(fd);
}

TEST(set_output_from_mmapped_event_einval)
{
	struct perfev_ring ra, rb;
	int a, b;

	a = open_pf(0, 0, true, -1);
	ASSERT_GE(a, 0);
	b = open_pf(0, 0, true, -1);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, perfev_ring_map(&ra, a, 2, false));
	ASSERT_EQ(0, perfev_ring_map(&rb, b, 2, false));
	/* 6.1: an active mmap of the event itself -> EINVAL (not EBUSY) */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	EXPECT_EQ(EINVAL, errno);
	perfev_ring_unmap(&rb);
	/* once unmapped, redirecting works */
	EXPECT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	perfev_ring_unmap(&ra);
	close(b);
	close(a);
}

TEST(set_output_clock_mismatch_einval)
{
	struct perf_event_attr attr;
	struct perfev_ring r;
	int a, b, c;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	a = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(a, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, a, 2, false));
	c = perfev_open(&attr, 0, -1, -1, 0);	/* same clock */
	ASSERT_GE(c, 0);
	b = open_pf(0, 0, true, -1);		/* default perf clock */
	ASSERT_GE(b, 0);
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, a));
	perfev_ring_unmap(&r);
	close(c);
	close(b);
	close(a);
}

static int open_getppid_tp(void)
{
	struct perf_event_attr attr;
	int id = perfev_tracepoint_id("syscalls", "sys_enter_getppid");

	if (id < 0)
		return -2;
	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	return perfev_open(&attr, 0, -1, -1, 0);
}

TEST(set_filter_bad_pointer_efault)
{
	int fd;

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
	fd = open_getppid_tp();
	if (fd == -2)
		SKIP(return, "syscalls:sys_enter_getppid not in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

TEST(set_filter_tracepoint_syntax_and_common_pid)
{
	static const char * const bad[] = {
		"common_pid ==", "common_pid == 1 &&", "common_pid ~ 1",
		"no_such_field == 1", "()",
	};
	char filter[64];
	unsigned int i;
	__u64 c;
	int fd, other;

	fd = open_getppid_tp();
	if (fd == -2)
		SKIP(return, "syscalls:sys_enter_getppid not in tracefs");
	ASSERT_GE(fd, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, bad[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("filter '%s'", bad[i]);
	}
	snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
	other = open_getppid_tp();
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_SET_FILTER, "common_pid == 1"));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 100; i++)
		syscall(__NR_getppid);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	c = count_of(fd);
	EXPECT_EQ(100ULL, c);
	EXPECT_EQ(0ULL, count_of(other));
	close(other);
	close(fd);
}

TEST(set_filter_unbalanced_leaks_parser_codes)
{
	int fd;

	fd = open_getppid_tp();
	if (fd == -2)
		SKIP(return, "syscalls:sys_enter_getppid not in tracefs");
	ASSERT_GE(fd, 0);
	/*
	 * 6.1 calc_stack() returns -1/-2/-3 and process_preds() passes them
	 * through as errnos: too many ')' EPERM, too many '(' ENOENT, an
	 * unterminated quote ESRCH.
	 */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid == 1)"));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "((common_pid == 1)"));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid == \"1"));
	EXPECT_EQ(ESRCH, errno);
	/* none of them installed a filter: a valid one still goes in */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"));
	close(fd);
}

TEST(id_matches_read_format_id)
{
	__u64 id1, id2, buf[2];
	int fd1, fd2;

	fd1 = open_pf(PERF_FORMAT_ID, 0, true, -1);
	ASSERT_GE(fd1, 0);
	fd2 = open_pf(PERF_FORMAT_ID, 0, true, -1);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ioctl(fd1, PERF_EVENT_IOC_ID, &id1));
	ASSERT_EQ(0, ioctl(fd2, PERF_EVENT_IOC_ID, &id2));
	EXPECT_NE(id1, id2);
	ASSERT_EQ(16, read(fd1, buf, sizeof(buf)));
	EXPECT_EQ(id1, buf[1]);
	ASSERT_EQ(16, read(fd2, buf, sizeof(buf)));
	EXPECT_EQ(id2, buf[1]);
	EXPECT_EQ(-1, ioctl(fd1, PERF_EVENT_IOC_ID, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd1, PERF_EVENT_IOC_ID, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(fd2);
	close(fd1);
}

TEST(set_bpf_and_query_bpf_errno)
{
	int fd, p[2];
	char buf[64];

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(p));
	memset(buf, 0, sizeof(buf));
	if (!have_bpf_syscall()) {
		/* !CONFIG_BPF_SYSCALL: bpf_prog_get() and the query are stubs. */
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, p[0]));
		EXPECT_EQ(EOPNOTSUPP, errno);
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, -1));
		EXPECT_EQ(EOPNOTSUPP, errno);
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, buf));
		EXPECT_EQ(EOPNOTSUPP, errno);
	} else {
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, p[0]));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, -1));
		EXPECT_EQ(EBADF, errno);
		/* only tracepoint events have a prog array */
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, buf));
		EXPECT_EQ(EINVAL, errno);
	}
	close(p[0]);
	close(p[1]);
	close(fd);
}

TEST(pause_output_needs_data_pages)
{
	struct perfev_ring r;
	int fd;

	fd = open_pf(0, 1, true, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 0, false));	/* user page only */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(EINVAL, errno);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(pause_output_counts_lost_samples)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct perfev_ring r;
	__u64 buf[3], id, lost_rec = 0;
	int fd, before_lost = 0;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 16, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(30));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0ULL, perfev_ring_pending(&r));	/* nothing written */
	ASSERT_EQ(24, read(fd, buf, sizeof(buf)));
	EXPECT_GE(buf[0], 30ULL);
	EXPECT_EQ(id, buf[1]);
	EXPECT_EQ(buf[0], buf[2]);		/* every sample was lost */
	/* Resume: the next output is preceded by PERF_RECORD_LOST. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = perfev_ring_next(&r);
	ASSERT_NE(NULL, h);
	ASSERT_EQ((__u32)PERF_RECORD_LOST, h->type);
	ASSERT_EQ(24, (int)h->size);			/* header, id, lost */
	EXPECT_EQ(id, ((__u64 *)(h + 1))[0]);
	lost_rec = ((__u64 *)(h + 1))[1];
	EXPECT_EQ(buf[2], lost_rec);
	while ((h = perfev_ring_next(&r)))
		if (h->type == PERF_RECORD_SAMPLE)
			before_lost++;
	EXPECT_GE(before_lost, 4);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(modify_attributes_software_and_type_mismatch)
{
	struct perf_event_attr attr;
	int fd;

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	/* Only breakpoints can be modified in 6.1. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	perfev_attr_init(&attr, PERF_TYPE_BREAKPOINT, 0);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&attr;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	/* attr is validated like at open: reserved bits -> EINVAL */
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = 1ULL << 40;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	/*
	 * ...but only by what perf_copy_attr() checks: the period, frequency
	 * and inherit rules are the open's, so such an attr is a software
	 * event that cannot be modified.
	 */
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 1ULL << 40;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1ULL << 63;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
}

TEST(modify_attributes_bad_pointer_and_size)
{
	union {
		struct perf_event_attr attr;
		unsigned char raw[256];
	} u;
	int fd;

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL));
	EXPECT_EQ(EFAULT, errno);
	memset(&u, 0, sizeof(u));
	u.attr.type = PERF_TYPE_SOFTWARE;
	u.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	u.attr.size = 32;	/* below PERF_ATTR_SIZE_VER0 */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &u.attr));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, u.attr.size);	/* written back */
	u.attr.size = 200;	/* larger than the kernel's, non-zero tail */
	u.raw[190] = 1;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &u.attr));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, u.attr.size);
	/* zero tail beyond the kernel's size is accepted; size 0 means VER0 */
	u.attr.size = 200;
	u.raw[190] = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &u.attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	u.attr.size = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &u.attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
}

TEST(unknown_ioctl_enotty)
{
	struct termios t;
	__u64 v = 0;
	int fd;

	fd = open_pf(0, 0, true, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0x7f), 0));
	EXPECT_EQ(ENOTTY, errno);
	/* the full command (with size) selects the ioctl, not just the number */
	EXPECT_EQ(-1, ioctl(fd, _IOW('$', 0, __u32), &v));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOR('$', 7, __u32), &v));	/* ID with a u32 */
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, TCGETS, &t));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

TEST_HARNESS_MAIN
