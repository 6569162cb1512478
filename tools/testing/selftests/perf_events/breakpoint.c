// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_TYPE_BREAKPOINT (hardware breakpoints and watchpoints).
 *
 * Covers: an execute breakpoint (HW_BREAKPOINT_X, bp_len sizeof(long)) counts
 * calls exactly; write (HW_BREAKPOINT_W) and read/write (HW_BREAKPOINT_RW)
 * watchpoints of len 1/2/4/8 count user accesses exactly; bad bp_type, bad
 * bp_len, misaligned address -> EINVAL; more breakpoints than debug
 * registers -> ENOSPC (x86: 4); PERF_EVENT_IOC_MODIFY_ATTRIBUTES moves a
 * watchpoint (type mismatch -> EINVAL);
 * sigtrap=1 (requires remove_on_exec=1, else EINVAL) delivers SIGTRAP with
 * si_code TRAP_PERF, si_perf_data == attr.sig_data, si_perf_type == 5.
 *
 * ppc64le POWER9: data breakpoints are disabled by default (DAWR erratum,
 * hw_breakpoint_arch_parse -> ENODEV) and ppc has no execute breakpoint
 * slots (the PMU refuses the type: EOPNOTSUPP), so those cases SKIP there.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

/* u64-aligned scratch area the watchpoints look at */
static volatile __u64 watched[4] __attribute__((aligned(64)));

static void bp_attr(struct perf_event_attr *attr, __u32 bp_type, void *addr, __u64 len)
{
	perfev_attr_init(attr, PERF_TYPE_BREAKPOINT, 0);
	attr->bp_type = bp_type;
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = len;
	attr->sample_period = 1;
	/* only the test's own accesses: kernel accesses do not count */
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

static int open_bp(__u32 bp_type, void *addr, __u64 len)
{
	struct perf_event_attr attr;

	bp_attr(&attr, bp_type, addr, len);
	return perfev_open(&attr, 0, -1, -1, 0);
}

/*
 * Why a valid breakpoint may not open here, or NULL when it should have:
 * POWER9 turns data breakpoints off (ENODEV) and ppc has no execute
 * breakpoint slots (EOPNOTSUPP).
 */
static const char *bp_unsupported(int err, __u32 bp_type)
{
#ifdef __powerpc64__
	if (err == ENODEV)
		return "powerpc: data breakpoints disabled (POWER9 DAWR erratum)";
	if (err == EOPNOTSUPP && bp_type == HW_BREAKPOINT_X)
		return "powerpc: no execute breakpoint slots";
#endif
	if (err == ENOENT || err == EOPNOTSUPP)
		return "no hardware breakpoint support";
	return NULL;
}

#define OPEN_BP_OR_SKIP(fd, type, addr, len)					\
	do {									\
		__u64 __len = (len);						\
		int __fd = open_bp(type, addr, __len);				\
										\
		if (__fd < 0 && bp_unsupported(errno, type))			\
			SKIP(return, "%s", bp_unsupported(errno, type));	\
		ASSERT_GE(__fd, 0) TH_LOG("bp_type %d len %d: errno %d",	\
					  (int)(type), (int)__len, errno);	\
		(fd) = __fd;							\
	} while (0)

static __u64 disable_read(int fd)
{
	__u64 count = ~0ULL;

	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || perfev_read_count(fd, &count))
		return ~0ULL;
	return count;
}

static volatile int target_calls;

static __attribute__((noinline)) void bp_target(void)
{
	target_calls++;
	__asm__ __volatile__("" ::: "memory");
}

/* called through a volatile pointer so the call is real (ppc64le: global entry) */
static void (*volatile bp_target_ptr)(void) = bp_target;

TEST(execute_breakpoint_counts_calls)
{
	int fd, i;

#ifdef __powerpc64__
	/* powerpc has no instruction breakpoint slots: the PMU refuses the type */
	ASSERT_EQ(-1, open_bp(HW_BREAKPOINT_X, (void *)bp_target, sizeof(long)));
	ASSERT_EQ(EOPNOTSUPP, errno);
#endif
	OPEN_BP_OR_SKIP(fd, HW_BREAKPOINT_X, (void *)bp_target, sizeof(long));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 100; i++)
		bp_target_ptr();
	EXPECT_EQ(100ULL, disable_read(fd));
	/* disabled: no more hits */
	for (i = 0; i < 10; i++)
		bp_target_ptr();
	EXPECT_EQ(100ULL, disable_read(fd));
	close(fd);
}

/* Do @n reads and @n writes (separate instructions) of the @len-byte object at @p. */
static void access_len(volatile void *p, int len, int n)
{
	__u64 v;
	int i;

	for (i = 0; i < n; i++) {
		switch (len) {
		case 1:
			v = *(volatile __u8 *)p;
			break;
		case 2:
			v = *(volatile __u16 *)p;
			break;
		case 4:
			v = *(volatile __u32 *)p;
			break;
		default:
			v = *(volatile __u64 *)p;
			break;
		}
		__asm__ __volatile__("" : "+r"(v) :: "memory");
		switch (len) {
		case 1:
			*(volatile __u8 *)p = v + 1;
			break;
		case 2:
			*(volatile __u16 *)p = v + 1;
			break;
		case 4:
			*(volatile __u32 *)p = v + 1;
			break;
		default:
			*(volatile __u64 *)p = v + 1;
			break;
		}
	}
}

static void watch_len(struct __test_metadata *_metadata, __u32 type, int len)
{
	int fd;

	OPEN_BP_OR_SKIP(fd, type, (void *)&watched[1], len);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	access_len(&watched[1], len, 50);	/* 50 reads + 50 writes */
	access_len(&watched[3], 8, 20);		/* elsewhere: not counted */
	EXPECT_EQ(type == HW_BREAKPOINT_W ? 50ULL : 100ULL, disable_read(fd))
		TH_LOG("bp_type %u len %d", type, len);
	close(fd);
}

TEST(write_watchpoint_counts_writes_len_1_2_4_8)
{
	int len;

	for (len = 1; len <= 8; len *= 2)
		watch_len(_metadata, HW_BREAKPOINT_W, len);
}

TEST(rw_watchpoint_counts_reads_and_writes_len_1_2_4_8)
{
	int len;

	for (len = 1; len <= 8; len *= 2)
		watch_len(_metadata, HW_BREAKPOINT_RW, len);
}

TEST(bad_bp_type_is_einval)
{
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_EMPTY, (void *)&watched[0], 8));
#ifdef __powerpc64__
	/* a type without R/W needs an instruction slot; powerpc has none */
	EXPECT_EQ(EOPNOTSUPP, errno);
#else
	EXPECT_EQ(EINVAL, errno);
#endif
#ifdef __x86_64__
	/* x86 has no read-only and no combined execute+data breakpoints */
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_R, (void *)&watched[0], 8));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_X | HW_BREAKPOINT_W, (void *)bp_target, 8));
	EXPECT_EQ(EINVAL, errno);
	/* execute breakpoints need bp_len == sizeof(long) */
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_X, (void *)bp_target, 1));
	EXPECT_EQ(EINVAL, errno);
#endif
}

TEST(bad_len_and_misaligned_address_are_einval)
{
	char *base = (char *)&watched[0];

	/* len 0: EINVAL on every arch (ppc rejects it before the DAWR check) */
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_W, base, 0));
	EXPECT_EQ(EINVAL, errno);
#ifdef __x86_64__
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_W, base, 3));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_W, base, 5));
	EXPECT_EQ(EINVAL, errno);
	/* x86 watchpoints must be naturally aligned */
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_W, base + 1, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_W, base + 2, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_RW, base + 4, 8));
	EXPECT_EQ(EINVAL, errno);
#else
	SKIP(return, "length/alignment rules checked on x86_64 only");
#endif
}

TEST(too_many_breakpoints_is_enospc)
{
	int fds[16], n = 0, i;

	OPEN_BP_OR_SKIP(fds[0], HW_BREAKPOINT_W, (void *)&watched[0], 8);
	for (n = 1; n < 16; n++) {
		fds[n] = open_bp(HW_BREAKPOINT_W, (void *)&watched[n % 4], 8);
		if (fds[n] < 0)
			break;
	}
	ASSERT_LT(n, 16) TH_LOG("16 task breakpoints opened");
	EXPECT_EQ(ENOSPC, errno);
#ifdef __x86_64__
	EXPECT_EQ(4, n);	/* DR0..DR3 */
#endif
	/* freeing one slot makes room again */
	close(fds[n - 1]);
	fds[n - 1] = open_bp(HW_BREAKPOINT_W, (void *)&watched[0], 8);
	EXPECT_GE(fds[n - 1], 0);
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

TEST(modify_attributes_moves_watchpoint)
{
	struct perf_event_attr attr;
	int fd;

	OPEN_BP_OR_SKIP(fd, HW_BREAKPOINT_W, (void *)&watched[0], 8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	access_len(&watched[0], 8, 10);
	access_len(&watched[2], 8, 7);
	EXPECT_EQ(10ULL, disable_read(fd));

	bp_attr(&attr, HW_BREAKPOINT_W, (void *)&watched[2], 8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr)) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	access_len(&watched[0], 8, 10);
	access_len(&watched[2], 8, 7);
	EXPECT_EQ(7ULL, disable_read(fd));

	/* the type must stay PERF_TYPE_BREAKPOINT */
	attr.type = PERF_TYPE_SOFTWARE;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

static volatile int trap_count, trap_code, trap_ptype;
static volatile unsigned long trap_data;

static void on_sigtrap(int sig, siginfo_t *info, void *uc)
{
	/* kernel siginfo: _sigfault { void *addr; union { struct { long data; u32 type; } } } */
	unsigned char *sf = (unsigned char *)&info->si_addr;
	unsigned long data;
	__u32 type;

	memcpy(&data, sf + sizeof(void *), sizeof(data));
	memcpy(&type, sf + sizeof(void *) + sizeof(long), sizeof(type));
	trap_count++;
	trap_code = info->si_code;
	trap_data = data;
	trap_ptype = type;
}

TEST(sigtrap_requires_remove_on_exec)
{
	struct perf_event_attr attr;

	bp_attr(&attr, HW_BREAKPOINT_W, (void *)&watched[0], 8);
	attr.sigtrap = 1;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * MODIFY_ATTRIBUTES may change sig_data of any event (6.1 copies it before
 * the breakpoint's own check that nothing else changed).
 */
TEST(modify_attributes_changes_sig_data)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr(&attr, HW_BREAKPOINT_W, (void *)&watched[0], 8);
	attr.sample_period = 0;		/* counting is enough here */
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0x1111;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && bp_unsupported(errno, HW_BREAKPOINT_W))
		SKIP(return, "%s", bp_unsupported(errno, HW_BREAKPOINT_W));
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	attr.sig_data = 0x2222;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr)) TH_LOG("errno %d", errno);
	/* with the address too */
	bp_attr(&attr, HW_BREAKPOINT_W, (void *)&watched[2], 8);
	attr.sample_period = 0;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0x3333;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr)) TH_LOG("errno %d", errno);
	/* anything else that differs is still refused */
	attr.exclude_kernel = 0;
	attr.exclude_hv = 0;
	attr.sigtrap = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(sigtrap_delivers_trap_perf_with_sig_data)
{
	struct perf_event_attr attr;
	struct sigaction sa = { 0 }, old;
	int fd;

	bp_attr(&attr, HW_BREAKPOINT_W, (void *)&watched[0], 8);
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0x1234abcdUL;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && bp_unsupported(errno, HW_BREAKPOINT_W))
		SKIP(return, "%s", bp_unsupported(errno, HW_BREAKPOINT_W));
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);

	sa.sa_sigaction = on_sigtrap;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, &old));
	trap_count = 0;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	watched[0] = 1;
	watched[0] = 2;
	watched[0] = 3;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	sigaction(SIGTRAP, &old, NULL);
	close(fd);

	EXPECT_EQ(3, trap_count);
	EXPECT_EQ(TRAP_PERF, trap_code);
	EXPECT_EQ(0x1234abcdUL, trap_data);
	EXPECT_EQ(PERF_TYPE_BREAKPOINT, trap_ptype);
}

TEST_HARNESS_MAIN
