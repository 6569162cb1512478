// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) input checking, as done by Linux 6.1.
 *
 * Covers: attr.size (0 means PERF_ATTR_SIZE_VER0, below VER0 or above
 * PAGE_SIZE is E2BIG with the kernel's size (128) written back, every
 * published size and odd sizes in between are accepted and bytes beyond
 * attr.size are never read, a larger struct is accepted with a zero tail and
 * E2BIG with a non-zero one, an unreadable attr is EFAULT); the reserved
 * fields; unknown sample_type, read_format, branch_sample_type and flags bits;
 * the checking order (flags before attr, attr before pid); unknown types and
 * bad configs per PMU type; pid/cpu combinations (ESRCH for missing and
 * zombie tasks); PERF_FLAG_PID_CGROUP fd checks; group_fd checks;
 * PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP and PERF_FLAG_FD_OUTPUT;
 * sample_freq against perf_event_max_sample_rate and period bit 63;
 * precise_ip and exclude_* on software events (and what they count);
 * sigtrap/remove_on_exec/enable_on_exec rules; inherit with PERF_SAMPLE_READ
 * vs. PERF_FORMAT_GROUP; clockid values and the NMI-safe clock rule; side
 * band bits; aux fields without an AUX PMU; branch stacks on software events;
 * sample_regs_user/intr masks; sample_stack_user; sample_max_stack;
 * WEIGHT together with WEIGHT_STRUCT.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

/* sizeof(struct perf_event_attr) in Linux 6.1 */
#define KERNEL_ATTR_SIZE	128

#ifndef CLOCK_TAI
#define CLOCK_TAI		11
#endif

#define MAX_SAMPLE_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"
#define MAX_STACK_PATH		"/proc/sys/kernel/perf_event_max_stack"

/* Open @pe on the calling thread; 0 on success (fd closed), else errno. */
static int open_err_on(struct perf_event_attr *pe, pid_t pid, int cpu,
		       int group_fd, unsigned long flags)
{
	int fd = perfev_open(pe, pid, cpu, group_fd, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int open_err(struct perf_event_attr *pe)
{
	return open_err_on(pe, 0, -1, -1, 0);
}

static void sw_attr(struct perf_event_attr *pe, __u64 config)
{
	perfev_attr_init(pe, PERF_TYPE_SOFTWARE, config);
}

/* Zeroed, page-aligned buffer of @len bytes followed by a PROT_NONE page. */
static void *guarded_buf(size_t len, size_t *map_len)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	size_t n = (len + pg - 1) / pg * pg;
	char *p;

	p = mmap(NULL, n + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + n, pg, PROT_NONE)) {
		munmap(p, n + pg);
		return NULL;
	}
	*map_len = n + pg;
	return p;
}

/* Enable @fd, run @work, disable, return the count (~0ULL on error). */
static __u64 count_work(int fd, void (*work)(void))
{
	__u64 count = ~0ULL;

	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_RESET, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return ~0ULL;
	work();
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || perfev_read_count(fd, &count))
		return ~0ULL;
	return count;
}

#define NR_PAGES	64
#define NR_ROUNDS	40

static void touch_pages_work(void)
{
	perfev_touch_pages(NR_PAGES);
}

/* Pipe round trips with the child on our CPU: each one blocks us. */
static void pingpong_work(void)
{
	cpu_set_t orig, one;

	if (sched_getaffinity(0, sizeof(orig), &orig))
		return;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	perfev_pipe_pingpong(NR_ROUNDS);
	sched_setaffinity(0, sizeof(orig), &orig);
}

static void burn_work(void)
{
	perfev_burn(3000000);
}

/* Highest PMU type listed in sysfs (at least PERF_TYPE_MAX - 1). */
static int max_sysfs_type(void)
{
	char path[300];
	struct dirent *de;
	long long t;
	int max = PERF_TYPE_MAX - 1;
	DIR *d;

	d = opendir("/sys/bus/event_source/devices");
	if (!d)
		return max;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
			 de->d_name);
		if (!perfev_read_int(path, &t) && t > max)
			max = (int)t;
	}
	closedir(d);
	return max;
}

/* Number of possible CPU ids (nr_cpu_ids), from /sys; -1 on error. */
static int nr_cpu_ids(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo, hi = -1, n;
	char sep;

	if (!f)
		return -1;
	/* "0", "0-7" or "0-3,5": the last number bounds the ids */
	while ((n = fscanf(f, "%d%c", &lo, &sep)) >= 1) {
		hi = lo;
		if (n == 1 || sep == '\n')
			break;
	}
	fclose(f);
	return hi < 0 ? -1 : hi + 1;
}

/* ---- attr.size ---------------------------------------------------------- */

TEST(size_zero_means_ver0_and_tail_is_ignored)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.size = 0;
	ASSERT_EQ(0, open_err(&pe));
	/* attr.size is not written back on success */
	EXPECT_EQ(0U, pe.size);

	/* size 0 reads only the first 64 bytes: garbage beyond is never seen */
	memset((char *)&pe + PERF_ATTR_SIZE_VER0, 0xff,
	       sizeof(pe) - PERF_ATTR_SIZE_VER0);
	EXPECT_EQ(0, open_err(&pe));

	/* the same garbage with a full size hits the reserved fields */
	pe.size = KERNEL_ATTR_SIZE;
	EXPECT_EQ(EINVAL, open_err(&pe));
}

TEST(size_below_ver0_e2big_and_size_written_back)
{
	static const __u32 sizes[] = { 1, 8, 32, PERF_ATTR_SIZE_VER0 - 1 };
	struct perf_event_attr pe;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
		pe.size = sizes[i];
		EXPECT_EQ(E2BIG, open_err(&pe)) TH_LOG("size %u", sizes[i]);
		EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, pe.size) TH_LOG("size %u", sizes[i]);
	}
}

TEST(every_published_size_accepted_and_bytes_beyond_ignored)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	};
	unsigned char buf[KERNEL_ATTR_SIZE];
	struct perf_event_attr *pe = (struct perf_event_attr *)buf;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		sw_attr(pe, PERF_COUNT_SW_PAGE_FAULTS);
		pe->size = sizes[i];
		EXPECT_EQ(0, open_err(pe)) TH_LOG("size %u", sizes[i]);
		/* bytes past attr.size (reserved fields too) are not read */
		memset(buf + sizes[i], 0xff, sizeof(buf) - sizes[i]);
		EXPECT_EQ(0, open_err(pe)) TH_LOG("size %u + garbage", sizes[i]);
		EXPECT_EQ(sizes[i], pe->size);
	}
}

TEST(odd_sizes_between_versions_accepted)
{
	static const __u32 sizes[] = { 65, 71, 100, 110, 127 };
	struct perf_event_attr pe;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
		pe.size = sizes[i];
		EXPECT_EQ(0, open_err(&pe)) TH_LOG("size %u", sizes[i]);
	}

	/* __reserved_2 is at bytes 110..111: checked only once covered by size */
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_2 = 0xffff;
	pe.size = 110;
	EXPECT_EQ(0, open_err(&pe));
	pe.size = 111;
	EXPECT_EQ(EINVAL, open_err(&pe));
}

TEST(larger_size_zero_tail_accepted_nonzero_tail_e2big)
{
	size_t pg = sysconf(_SC_PAGESIZE), map_len;
	static const __u32 bad_off[] = { 128, 135, 200, 255 };
	struct perf_event_attr *pe;
	unsigned char *buf;
	unsigned int i;

	buf = guarded_buf(pg, &map_len);
	ASSERT_NE(NULL, buf);
	pe = (struct perf_event_attr *)buf;

	sw_attr(pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe->size = 256;
	EXPECT_EQ(0, open_err(pe));
	EXPECT_EQ(256U, pe->size);

	/* a whole page of zero tail is still fine */
	pe->size = pg;
	EXPECT_EQ(0, open_err(pe));

	for (i = 0; i < ARRAY_SIZE(bad_off); i++) {
		sw_attr(pe, PERF_COUNT_SW_PAGE_FAULTS);
		pe->size = 256;
		buf[bad_off[i]] = 1;
		EXPECT_EQ(E2BIG, open_err(pe)) TH_LOG("non-zero byte %u", bad_off[i]);
		EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, pe->size);
		buf[bad_off[i]] = 0;
	}

	/* the last byte of a page-sized attr */
	sw_attr(pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe->size = pg;
	buf[pg - 1] = 0x80;
	EXPECT_EQ(E2BIG, open_err(pe));
	EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, pe->size);
	munmap(buf, map_len);
}

TEST(size_above_page_size_e2big)
{
	size_t pg = sysconf(_SC_PAGESIZE), map_len;
	struct perf_event_attr *pe;
	unsigned char *buf;

	buf = guarded_buf(2 * pg, &map_len);
	ASSERT_NE(NULL, buf);
	pe = (struct perf_event_attr *)buf;
	sw_attr(pe, PERF_COUNT_SW_PAGE_FAULTS);
	/* all-zero tail: rejected on size alone */
	pe->size = pg + 8;
	EXPECT_EQ(E2BIG, open_err(pe));
	EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, pe->size);
	pe->size = 0xffffffff;
	EXPECT_EQ(E2BIG, open_err(pe));
	EXPECT_EQ((__u32)KERNEL_ATTR_SIZE, pe->size);
	munmap(buf, map_len);
}

TEST(unreadable_attr_efault)
{
	size_t pg = sysconf(_SC_PAGESIZE), map_len;
	struct perf_event_attr *pe;
	unsigned char *buf;

	EXPECT_EQ(-1, perfev_open(NULL, 0, -1, -1, 0));
	EXPECT_EQ(EFAULT, errno);

	/* 64 readable bytes, then a PROT_NONE page */
	buf = guarded_buf(pg, &map_len);
	ASSERT_NE(NULL, buf);
	pe = (struct perf_event_attr *)(buf + pg - PERF_ATTR_SIZE_VER0);
	memset(pe, 0, PERF_ATTR_SIZE_VER0);
	pe->type = PERF_TYPE_SOFTWARE;
	pe->config = PERF_COUNT_SW_PAGE_FAULTS;
	pe->size = PERF_ATTR_SIZE_VER0;
	EXPECT_EQ(0, open_err(pe));
	pe->size = 0;
	EXPECT_EQ(0, open_err(pe));
	pe->size = KERNEL_ATTR_SIZE;
	EXPECT_EQ(EFAULT, open_err(pe));
	munmap(buf, map_len);
}

/* ---- reserved and unknown bits ------------------------------------------ */

TEST(reserved_fields_einval)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_1 = 1;			/* flags bit 38 */
	EXPECT_EQ(EINVAL, open_err(&pe));
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_1 = 1ULL << 25;		/* flags bit 63 */
	EXPECT_EQ(EINVAL, open_err(&pe));
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_2 = 1;
	EXPECT_EQ(EINVAL, open_err(&pe));
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_3 = 0x80000000u;
	EXPECT_EQ(EINVAL, open_err(&pe));
}

TEST(unknown_sample_type_and_read_format_bits_einval)
{
	struct perf_event_attr pe;
	__u64 buf[2];
	int fd;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_type = PERF_SAMPLE_MAX;		/* 1 << 25 */
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_type = 1ULL << 63;
	EXPECT_EQ(EINVAL, open_err(&pe));
	/* unknown bits are rejected even on a non-sampling event */
	pe.sample_type = PERF_SAMPLE_IP | (1ULL << 40);
	EXPECT_EQ(EINVAL, open_err(&pe));

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.read_format = PERF_FORMAT_MAX;		/* 1 << 5 */
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.read_format = ~0ULL;
	EXPECT_EQ(EINVAL, open_err(&pe));

	/* PERF_FORMAT_LOST (1 << 4) is valid in 6.1: value then lost == 0 */
	pe.read_format = PERF_FORMAT_LOST;
	fd = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0ULL, buf[0]);
	EXPECT_EQ(0ULL, buf[1]);
	EXPECT_EQ(-1, read(fd, buf, sizeof(__u64)));
	EXPECT_EQ(ENOSPC, errno);
	close(fd);
}

TEST(unknown_flags_einval_checked_before_attr)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, -1, 1UL << 4));
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, -1, 1UL << 31));
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, -1, ~0UL));
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, -1,
				      PERF_FLAG_FD_CLOEXEC | (1UL << 8)));

	/* bad flags win over an unreadable attr ... */
	EXPECT_EQ(-1, perfev_open(NULL, 0, -1, -1, 1UL << 4));
	EXPECT_EQ(EINVAL, errno);
	/* ... and attr errors win over a bad pid or cpu */
	pe.size = 8;
	EXPECT_EQ(E2BIG, open_err_on(&pe, INT_MAX, -1, -1, 0));
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.__reserved_2 = 1;
	EXPECT_EQ(EINVAL, open_err_on(&pe, INT_MAX, -1, -1, 0));
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_EQ(ESRCH, open_err_on(&pe, INT_MAX, -1, -1, 0));
}

/* ---- type and config ---------------------------------------------------- */

TEST(unknown_type_enoent)
{
	struct perf_event_attr pe;
	int unused = max_sysfs_type() + 1;

	perfev_attr_init(&pe, unused, 0);
	EXPECT_EQ(ENOENT, open_err(&pe)) TH_LOG("type %d", unused);
	perfev_attr_init(&pe, unused + 1000, 0);
	EXPECT_EQ(ENOENT, open_err(&pe));
	perfev_attr_init(&pe, 0x7fffffff, 0);
	EXPECT_EQ(ENOENT, open_err(&pe));
	perfev_attr_init(&pe, 0xffffffff, 0);
	EXPECT_EQ(ENOENT, open_err(&pe));
}

TEST(software_bad_config_enoent)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_MAX);
	EXPECT_EQ(ENOENT, open_err(&pe));
	sw_attr(&pe, 1ULL << 32);
	EXPECT_EQ(ENOENT, open_err(&pe));
	sw_attr(&pe, ~0ULL);
	EXPECT_EQ(ENOENT, open_err(&pe));
}

TEST(hardware_bad_config)
{
	struct perf_event_attr pe;

	perfev_attr_init(&pe, PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX);
	if (!perfev_have_hw()) {
		/* no PMU claims PERF_TYPE_HARDWARE at all */
		EXPECT_EQ(ENOENT, open_err(&pe));
		perfev_attr_init(&pe, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		EXPECT_EQ(ENOENT, open_err(&pe));
		return;
	}
#if defined(__powerpc64__)
	/* power_pmu_event_init: beyond n_generic */
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
	perfev_attr_init(&pe, PERF_TYPE_HARDWARE, 1000);
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
#elif defined(__x86_64__)
	EXPECT_EQ(EINVAL, open_err(&pe));
#else
	SKIP(return, "expected errno for this architecture not known");
#endif
}

TEST(hw_cache_bad_type_op_result)
{
	static const __u64 bad[] = {
		PERF_COUNT_HW_CACHE_MAX,			/* cache id */
		PERF_COUNT_HW_CACHE_OP_MAX << 8,		/* op */
		PERF_COUNT_HW_CACHE_RESULT_MAX << 16,		/* result */
		0xff | (0xffULL << 8) | (0xffULL << 16),
	};
	struct perf_event_attr pe;
	unsigned int i;
	int want;

	if (!perfev_have_hw())
		want = ENOENT;	/* nobody handles PERF_TYPE_HW_CACHE */
	else
#if defined(__powerpc64__) || defined(__x86_64__)
		want = EINVAL;
#else
		SKIP(return, "expected errno for this architecture not known");
#endif
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		perfev_attr_init(&pe, PERF_TYPE_HW_CACHE, bad[i]);
		EXPECT_EQ(want, open_err(&pe)) TH_LOG("config 0x%llx",
						      (unsigned long long)bad[i]);
	}
}

TEST(tracepoint_bad_id_einval)
{
	struct perf_event_attr pe;

	perfev_attr_init(&pe, PERF_TYPE_TRACEPOINT, 1ULL << 40);
	EXPECT_EQ(EINVAL, open_err(&pe));
	perfev_attr_init(&pe, PERF_TYPE_TRACEPOINT, ~0ULL);
	EXPECT_EQ(EINVAL, open_err(&pe));
	perfev_attr_init(&pe, PERF_TYPE_TRACEPOINT, 0x7fffffff);
	EXPECT_EQ(EINVAL, open_err(&pe));
}

/* ---- pid / cpu ---------------------------------------------------------- */

TEST(cpu_argument_checks)
{
	struct perf_event_attr pe;
	int ids = nr_cpu_ids();

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	/* neither a task nor a CPU */
	EXPECT_EQ(EINVAL, open_err_on(&pe, -1, -1, -1, 0));
	/* negative CPUs other than -1 */
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -2, -1, 0));
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, INT_MIN, -1, 0));
	EXPECT_EQ(EINVAL, open_err_on(&pe, -1, -2, -1, 0));
	ASSERT_GT(ids, 0);
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, ids, -1, 0));
	EXPECT_EQ(EINVAL, open_err_on(&pe, -1, ids, -1, 0));
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, INT_MAX, -1, 0));
	/* a task on one CPU and the CPU alone are fine */
	EXPECT_EQ(0, open_err_on(&pe, 0, 0, -1, 0));
	EXPECT_EQ(0, open_err_on(&pe, -1, 0, -1, 0));
}

TEST(missing_and_zombie_pid_esrch)
{
	struct perf_event_attr pe;
	siginfo_t si;
	pid_t pid;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	EXPECT_EQ(ESRCH, open_err_on(&pe, INT_MAX, -1, -1, 0));
	/* any pid other than -1 is looked up: -2 is no task */
	EXPECT_EQ(ESRCH, open_err_on(&pe, -2, -1, -1, 0));
	EXPECT_EQ(ESRCH, open_err_on(&pe, INT_MIN, 0, -1, 0));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	/* wait for it to die but leave the zombie */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(ESRCH, open_err_on(&pe, pid, -1, -1, 0));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* reaped: no such task */
	EXPECT_EQ(ESRCH, open_err_on(&pe, pid, -1, -1, 0));
}

static int cgroup_child(void)
{
	char dir[] = "/tmp/perfev-cgXXXXXX";
	struct perf_event_attr pe;
	int cg, procs, p[2], fd, bad = 0;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(dir))
		return 100;
	if (mount("none", dir, "cgroup2", 0, NULL)) {
		rmdir(dir);
		return 101;
	}
	cg = open(dir, O_RDONLY | O_DIRECTORY);
	procs = openat(cg, "cgroup.procs", O_RDONLY);
	if (cg < 0 || procs < 0 || pipe(p))
		return 102;

	sw_attr(&pe, PERF_COUNT_SW_CPU_CLOCK);
	/* the root cgroup directory works as the pid argument */
	fd = perfev_open(&pe, cg, 0, -1, PERF_FLAG_PID_CGROUP);
	if (fd < 0)
		bad |= 1;
	else
		close(fd);
	/* a file inside cgroupfs that is not a directory: EBADF */
	if (perfev_open(&pe, procs, 0, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EBADF)
		bad |= 2;
	/* not on cgroupfs at all */
	if (perfev_open(&pe, p[0], 0, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EBADF)
		bad |= 4;
	/* a directory that is not a cgroup */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	if (perfev_open(&pe, fd, 0, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EBADF)
		bad |= 8;
	close(fd);
	/* a closed fd */
	if (perfev_open(&pe, 1000, 0, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EBADF)
		bad |= 16;
	/* cgroup mode needs a cgroup fd and a CPU */
	if (perfev_open(&pe, cg, -1, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EINVAL)
		bad |= 32;
	if (perfev_open(&pe, -1, 0, -1, PERF_FLAG_PID_CGROUP) != -1 || errno != EINVAL)
		bad |= 64;
	close(procs);
	close(cg);
	umount(dir);
	rmdir(dir);
	return bad;
}

TEST(pid_cgroup_fd_checks)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(cgroup_child());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) >= 100)
		SKIP(return, "cannot mount cgroup2 in a private mount namespace (%d)",
		     WEXITSTATUS(status));
	/* bit n set: check n failed (see cgroup_child) */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* ---- group_fd and PERF_FLAG_FD_* ---------------------------------------- */

TEST(group_fd_closed_or_bogus_ebadf)
{
	struct perf_event_attr pe;
	int fd, p[2];

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	fd = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	EXPECT_EQ(EBADF, open_err_on(&pe, 0, -1, fd, 0));
	EXPECT_EQ(EBADF, open_err_on(&pe, 0, -1, 100000, 0));
	EXPECT_EQ(EBADF, open_err_on(&pe, 0, -1, -2, 0));
	/* FD_NO_GROUP still requires group_fd to be a perf event */
	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(EBADF, open_err_on(&pe, 0, -1, p[0], PERF_FLAG_FD_NO_GROUP));
	EXPECT_EQ(EBADF, open_err_on(&pe, 0, -1, p[0], PERF_FLAG_FD_OUTPUT));
	close(p[0]);
	close(p[1]);
	/* group_fd == -1 ignores FD_NO_GROUP and FD_OUTPUT */
	EXPECT_EQ(0, open_err_on(&pe, 0, -1, -1,
				 PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT));
}

TEST(fd_cloexec_flag)
{
	struct perf_event_attr pe;
	int fd;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	fd = perfev_open(&pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
	close(fd);

	fd = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
	close(fd);
}

TEST(fd_no_group_makes_a_standalone_event)
{
	struct perf_event_attr pe;
	int leader, fd;
	__u64 buf[4];

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.read_format = PERF_FORMAT_GROUP;
	leader = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);

	/* a pinned event can only be a leader: allowed with FD_NO_GROUP */
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.pinned = 1;
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, leader, 0));
	fd = perfev_open(&pe, 0, -1, leader, PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(fd, 0);

	/* the leader still has no siblings */
	EXPECT_EQ((ssize_t)(2 * sizeof(__u64)), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(1ULL, buf[0]);
	close(fd);
	close(leader);
}

static int open_sampler(int group_fd, unsigned long flags, int cpu)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1;
	pe.sample_type = PERF_SAMPLE_TID;
	return perfev_open(&pe, cpu == -1 ? 0 : -1, cpu, group_fd, flags);
}

TEST(fd_output_needs_a_mapped_buffer_on_the_same_cpu)
{
	const unsigned long fl = PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP;
	struct perfev_ring *ring;
	struct perf_event_attr pe;
	struct perf_event_header *h;
	int target, fd, n = 0;
	__u32 *pidtid;
	__u64 count;

	ring = calloc(1, sizeof(*ring));
	ASSERT_NE(NULL, ring);
	sw_attr(&pe, PERF_COUNT_SW_DUMMY);
	pe.disabled = 0;
	target = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(target, 0);

	/* not mmapped yet: nothing to redirect into */
	fd = open_sampler(target, fl, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, perfev_ring_map(ring, target, 8, false));
	/* a CPU-wide event cannot write into a per-task buffer */
	fd = open_sampler(target, fl, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);

	fd = open_sampler(target, fl, -1);
	ASSERT_GE(fd, 0);
	perfev_ring_drain(ring);
	count = count_work(fd, touch_pages_work);
	EXPECT_GE(count, (__u64)NR_PAGES);
	EXPECT_NE(~0ULL, count);
	while ((h = perfev_ring_find(ring, PERF_RECORD_SAMPLE))) {
		pidtid = (__u32 *)(h + 1);
		EXPECT_EQ(sizeof(*h) + 8, h->size);
		EXPECT_EQ((__u32)getpid(), pidtid[0]);
		n++;
	}
	/* the redirected samples landed in the target's ring */
	EXPECT_GE(n, NR_PAGES);
	close(fd);
	perfev_ring_unmap(ring);
	close(target);
	free(ring);
}

/* ---- sampling parameters ------------------------------------------------ */

TEST(sample_freq_above_max_sample_rate_einval)
{
	struct perf_event_attr pe;
	long long max;

	if (perfev_read_int(MAX_SAMPLE_RATE_PATH, &max))
		SKIP(return, "no %s", MAX_SAMPLE_RATE_PATH);
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.freq = 1;
	pe.sample_freq = max + 1;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_freq = ~0ULL;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_freq = 1;
	EXPECT_EQ(0, open_err(&pe));
	/* freq with sample_freq 0: a plain counting event */
	pe.sample_freq = 0;
	EXPECT_EQ(0, open_err(&pe));

	/* without freq the same value is a period: no limit but bit 63 */
	pe.freq = 0;
	pe.sample_period = max + 1;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_period = 1ULL << 63;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_period = (1ULL << 63) - 1;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(precise_ip_on_software_events_accepted)
{
	struct perf_event_attr pe;
	unsigned int p;
	__u64 count;
	int fd;

	for (p = 0; p <= 3; p++) {
		sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
		pe.precise_ip = p;
		fd = perfev_open(&pe, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("precise_ip %u: errno %d", p, errno);
		count = count_work(fd, touch_pages_work);
		EXPECT_GE(count, (__u64)NR_PAGES);
		EXPECT_LT(count, (__u64)NR_PAGES + 1000);
		close(fd);
	}
}

static int open_excl(__u64 config, bool user, bool kernel)
{
	struct perf_event_attr pe;

	sw_attr(&pe, config);
	pe.exclude_user = user;
	pe.exclude_kernel = kernel;
	return perfev_open(&pe, 0, -1, -1, 0);
}

TEST(exclude_user_kernel_on_page_faults)
{
	__u64 all, kernel_only, user_only;
	int fd;

	fd = open_excl(PERF_COUNT_SW_PAGE_FAULTS, false, false);
	all = count_work(fd, touch_pages_work);
	close(fd);
	fd = open_excl(PERF_COUNT_SW_PAGE_FAULTS, true, false);
	kernel_only = count_work(fd, touch_pages_work);
	close(fd);
	fd = open_excl(PERF_COUNT_SW_PAGE_FAULTS, false, true);
	user_only = count_work(fd, touch_pages_work);
	close(fd);

	/* page faults are attributed to the faulting mode: user here */
	EXPECT_GE(all, (__u64)NR_PAGES);
	EXPECT_LT(all, (__u64)NR_PAGES + 1000);
	EXPECT_GE(user_only, (__u64)NR_PAGES);
	EXPECT_LT(user_only, (__u64)NR_PAGES + 1000);
	EXPECT_LE(kernel_only, 4ULL);
}

TEST(exclude_kernel_hides_context_switches)
{
	__u64 all, user_only;
	int fd;

	fd = open_excl(PERF_COUNT_SW_CONTEXT_SWITCHES, false, false);
	all = count_work(fd, pingpong_work);
	close(fd);
	/* context switches are counted with kernel-mode caller regs */
	fd = open_excl(PERF_COUNT_SW_CONTEXT_SWITCHES, false, true);
	user_only = count_work(fd, pingpong_work);
	close(fd);
	EXPECT_GE(all, (__u64)NR_ROUNDS);
	EXPECT_NE(~0ULL, all);
	EXPECT_EQ(0ULL, user_only);
}

TEST(exclude_bits_do_not_stop_task_clock_counting)
{
	__u64 plain, excl;
	int fd;

	fd = open_excl(PERF_COUNT_SW_TASK_CLOCK, false, false);
	plain = count_work(fd, burn_work);
	close(fd);
	/* both modes excluded: the clock still counts (no sampling here) */
	fd = open_excl(PERF_COUNT_SW_TASK_CLOCK, true, true);
	excl = count_work(fd, burn_work);
	close(fd);
	ASSERT_NE(~0ULL, plain);
	ASSERT_NE(~0ULL, excl);
	EXPECT_GT(plain, 100000ULL);		/* > 100 us */
	EXPECT_GT(excl, plain / 10);
}

TEST(exec_related_flag_combinations)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sigtrap = 1;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.remove_on_exec = 1;
	EXPECT_EQ(0, open_err(&pe));
	/* sigtrap needs a task to signal */
	EXPECT_EQ(EINVAL, open_err_on(&pe, -1, 0, -1, 0));

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.remove_on_exec = 1;
	pe.enable_on_exec = 1;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.remove_on_exec = 0;
	EXPECT_EQ(0, open_err(&pe));
	pe.enable_on_exec = 0;
	pe.remove_on_exec = 1;
	EXPECT_EQ(0, open_err(&pe));
	EXPECT_EQ(0, open_err_on(&pe, -1, 0, -1, 0));
}

TEST(inherit_sample_read_einval_group_format_allowed)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.inherit = 1;
	pe.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.inherit = 0;
	EXPECT_EQ(0, open_err(&pe));
	/* not checked for counting-only events either */
	pe.inherit = 1;
	pe.sample_period = 0;
	EXPECT_EQ(EINVAL, open_err(&pe));
}

TEST(clockid_values)
{
	static const int good[] = {
		CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, CLOCK_TAI,
	};
	static const int bad[] = {
		CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, CLOCK_MONOTONIC_COARSE,
		CLOCK_REALTIME_COARSE, -1, 100, INT_MIN,
	};
	struct perf_event_attr pe;
	unsigned int i;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.use_clockid = 1;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		pe.clockid = good[i];
		EXPECT_EQ(0, open_err(&pe)) TH_LOG("clock %d", good[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		pe.clockid = bad[i];
		EXPECT_EQ(EINVAL, open_err(&pe)) TH_LOG("clock %d", bad[i]);
	}
	/* clockid is ignored without use_clockid */
	pe.use_clockid = 0;
	pe.clockid = -1;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(clock_not_nmi_safe_rejected_on_tracepoint_pmu)
{
	struct perf_event_attr pe;
	int id = perfev_tracepoint_id("sched", "sched_switch");

	if (id < 0)
		SKIP(return, "no sched:sched_switch tracepoint");
	perfev_attr_init(&pe, PERF_TYPE_TRACEPOINT, id);
	pe.use_clockid = 1;
	/* the tracepoint PMU lacks PERF_PMU_CAP_NO_NMI */
	pe.clockid = CLOCK_MONOTONIC;
	EXPECT_EQ(0, open_err(&pe));
	pe.clockid = CLOCK_MONOTONIC_RAW;
	EXPECT_EQ(0, open_err(&pe));
	pe.clockid = CLOCK_REALTIME;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.clockid = CLOCK_BOOTTIME;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.clockid = CLOCK_TAI;
	EXPECT_EQ(EINVAL, open_err(&pe));
}

TEST(group_members_need_the_same_clock)
{
	struct perf_event_attr pe;
	int leader;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.use_clockid = 1;
	pe.clockid = CLOCK_MONOTONIC;
	leader = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	pe.clockid = CLOCK_MONOTONIC_RAW;
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, leader, 0));
	pe.use_clockid = 0;
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, leader, 0));
	pe.use_clockid = 1;
	pe.clockid = CLOCK_MONOTONIC;
	EXPECT_EQ(0, open_err_on(&pe, 0, -1, leader, 0));
	close(leader);
}

TEST(side_band_bits_accepted_on_software_events)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_DUMMY);
	pe.mmap = 1;
	pe.mmap2 = 1;
	pe.mmap_data = 1;
	pe.comm = 1;
	pe.comm_exec = 1;
	pe.task = 1;
	pe.namespaces = 1;
	pe.cgroup = 1;
	pe.ksymbol = 1;
	pe.bpf_event = 1;
	pe.text_poke = 1;
	pe.build_id = 1;
	pe.context_switch = 1;
	pe.sample_id_all = 1;
	pe.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CGROUP;
	EXPECT_EQ(0, open_err(&pe));
	EXPECT_EQ(0, open_err_on(&pe, -1, 0, -1, 0));
}

TEST(aux_fields_without_an_aux_pmu)
{
	struct perf_event_attr pe;
	int leader;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.aux_output = 1;
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));

	/* aux_sample_size needs an AUX group leader */
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_AUX;
	pe.aux_sample_size = 4096;
	EXPECT_EQ(EINVAL, open_err(&pe));
	sw_attr(&pe, PERF_COUNT_SW_DUMMY);
	leader = perfev_open(&pe, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.aux_sample_size = 4096;
	EXPECT_EQ(EINVAL, open_err_on(&pe, 0, -1, leader, 0));
	close(leader);

	/* aux_watermark alone means nothing without an AUX area */
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.aux_watermark = 12345;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(branch_stack_checks)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_BRANCH_STACK;
	/* software PMUs do no branch sampling */
	pe.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
	pe.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
	/* undefined bits, or no branch type at all, fail earlier */
	pe.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | (1ULL << 62);
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.branch_sample_type = 0;
	EXPECT_EQ(EINVAL, open_err(&pe));
	/* branch_sample_type is ignored without PERF_SAMPLE_BRANCH_STACK */
	pe.sample_type = PERF_SAMPLE_IP;
	pe.branch_sample_type = ~0ULL;
	EXPECT_EQ(0, open_err(&pe));

	/* the tracepoint PMU refuses branch stacks too */
	if (perfev_tracepoint_id("sched", "sched_switch") > 0) {
		perfev_attr_init(&pe, PERF_TYPE_TRACEPOINT,
				 perfev_tracepoint_id("sched", "sched_switch"));
		pe.sample_period = 1;
		pe.sample_type = PERF_SAMPLE_BRANCH_STACK;
		pe.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
	}
}

TEST(sample_regs_masks)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_REGS_USER;
	pe.sample_regs_user = 0;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_regs_user = 1;
	EXPECT_EQ(0, open_err(&pe));
#if defined(__x86_64__)
	/* bits 24..31 are reserved, DS/ES/FS/GS (12..15) unsupported */
	pe.sample_regs_user = 1 | (1ULL << 24);
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_regs_user = 1 | (1ULL << 12);
	EXPECT_EQ(EINVAL, open_err(&pe));
	/* XMM registers (32..63) are extended regs: software PMU says no */
	pe.sample_regs_user = 1 | (1ULL << 32);
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
	/* without the sample bit the mask is not validated ... */
	pe.sample_type = PERF_SAMPLE_IP;
	pe.sample_regs_user = 1ULL << 24;
	pe.sample_regs_intr = 1ULL << 24;
	EXPECT_EQ(0, open_err(&pe));
	/* ... but extended regs are still refused by a PMU without them */
	pe.sample_regs_user = 0;
	pe.sample_regs_intr = 1ULL << 32;
	EXPECT_EQ(EOPNOTSUPP, open_err(&pe));
#elif defined(__powerpc64__)
	/* bits above the last PMU SPR are reserved */
	pe.sample_regs_user = 1 | (1ULL << 63);
	EXPECT_EQ(EINVAL, open_err(&pe));
	/* without the sample bit the mask is not validated */
	pe.sample_type = PERF_SAMPLE_IP;
	pe.sample_regs_user = 1ULL << 63;
	pe.sample_regs_intr = 1ULL << 63;
	EXPECT_EQ(0, open_err(&pe));
#endif
	pe.sample_type = PERF_SAMPLE_REGS_INTR;
	pe.sample_regs_user = 0;
	pe.sample_regs_intr = 0;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_regs_intr = 1;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(sample_stack_user_size)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_STACK_USER;
	pe.sample_stack_user = 7;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_stack_user = 4100;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_stack_user = 65535;		/* USHRT_MAX */
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_stack_user = 65536;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_stack_user = 65528;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_stack_user = 0;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_stack_user = 8192;
	EXPECT_EQ(0, open_err(&pe));
	/* ignored without PERF_SAMPLE_STACK_USER */
	pe.sample_type = PERF_SAMPLE_IP;
	pe.sample_stack_user = 7;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(sample_max_stack_above_sysctl_eoverflow)
{
	struct perf_event_attr pe;
	long long max;

	if (perfev_read_int(MAX_STACK_PATH, &max))
		SKIP(return, "no %s", MAX_STACK_PATH);
	if (max >= 0xffff)
		SKIP(return, "perf_event_max_stack %lld does not fit sample_max_stack", max);
	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_CALLCHAIN;
	pe.sample_max_stack = max + 1;
	EXPECT_EQ(EOVERFLOW, open_err(&pe));
	pe.sample_max_stack = max;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_max_stack = 0;		/* 0: the sysctl value */
	EXPECT_EQ(0, open_err(&pe));
	/* only callchain events are checked */
	pe.sample_type = PERF_SAMPLE_IP;
	pe.sample_max_stack = 0xffff;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(weight_and_weight_struct_einval)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.sample_period = 1000;
	pe.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	EXPECT_EQ(EINVAL, open_err(&pe));
	pe.sample_type = PERF_SAMPLE_WEIGHT;
	EXPECT_EQ(0, open_err(&pe));
	pe.sample_type = PERF_SAMPLE_WEIGHT_STRUCT;
	EXPECT_EQ(0, open_err(&pe));
}

TEST(unused_fields_ignored_on_software_events)
{
	struct perf_event_attr pe;

	sw_attr(&pe, PERF_COUNT_SW_PAGE_FAULTS);
	pe.config1 = ~0ULL;
	pe.config2 = ~0ULL;
	pe.bp_type = ~0U;
	pe.watermark = 1;
	pe.wakeup_watermark = ~0U;
	pe.exclude_hv = 1;
	pe.exclude_idle = 1;
	pe.exclude_host = 1;
	pe.exclude_guest = 1;
	pe.exclude_callchain_kernel = 1;
	pe.exclude_callchain_user = 1;
	pe.sig_data = ~0ULL;
	EXPECT_EQ(0, open_err(&pe));
	/* exclusive/pinned on a software leader are accepted */
	pe.pinned = 1;
	pe.exclusive = 1;
	EXPECT_EQ(0, open_err(&pe));
}

TEST_HARNESS_MAIN
