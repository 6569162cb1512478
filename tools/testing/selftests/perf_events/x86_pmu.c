// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 architectural PMU (Intel, CPUID leaf 0xA version 2 or later), as
 * the x86 driver uses it: on the testbed the CPU is QEMU's tcg-pmu model
 * (testbed/qemu/README.md), and every check holds on real Intel hardware.
 *
 * Covers: CPUID.0xA describes at least two 48-or-narrower general counters
 * and the fixed counters version 2 guarantees; the generic events that
 * CPUID.0xA.EBX marks unavailable do not open (ENOENT, 6.1's x86 driver
 * zeroes their event map) and the others do; rdpmc from user space, with
 * the index, offset and width of the mmap'ed page, reads what read()
 * reports; branch instructions of a loop count its branches; the PMU MSRs
 * raise #GP (EIO through /dev/cpu/N/msr) where the SDM says: counters and
 * event selects beyond CPUID's count, writes to the read-only
 * IA32_PERF_GLOBAL_STATUS, reserved bits of IA32_PERF_GLOBAL_OVF_CTRL and
 * IA32_PERFEVTSELx; IA32_PERF_GLOBAL_CTRL has no bit beyond the counters.
 * Failing MSR writes change nothing, so the driver's state is safe.  And by
 * hand, on the idle last general counter: the legacy counter alias
 * sign-extends bit 31, USR counts exactly the 2N instructions of a loop
 * (plus the few around the MSR writes) and OS not the loop, a counter that
 * wraps sets its IA32_PERF_GLOBAL_STATUS bit (no PMI: INT is clear) and
 * IA32_PERF_GLOBAL_OVF_CTRL clears it; everything is put back after.
 * The "rdpmc" knob of the cpu PMU (Intel and AMD): 0 takes rdpmc from
 * every task and from new events' user pages, 1 gives it to tasks with
 * an event mapped, 2 to every task, other values are EINVAL.  SysRq-p
 * (show registers) dumps every general counter's select, count and last
 * period, as 6.1's driver does.
 *
 * Everything else SKIPs on other CPUs (ppc64le, AMD, x86 without a PMU).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define LOOPS		1000000UL

struct arch_pmu {
	unsigned int version, gp, width, ebx_len, ebx, fixed, fixed_width;
};

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* CPUID.0xA of a GenuineIntel CPU with an architectural PMU v2+. */
static bool arch_pmu(struct arch_pmu *p)
{
	unsigned int a, b, c, d;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d) || a < 0xa)
		return false;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	if (strcmp(vendor, "GenuineIntel"))
		return false;
	__cpuid(0xa, a, b, c, d);
	p->version = a & 0xff;
	p->gp = (a >> 8) & 0xff;
	p->width = (a >> 16) & 0xff;
	p->ebx_len = a >> 24;
	p->ebx = b;
	p->fixed = d & 0x1f;
	p->fixed_width = (d >> 5) & 0xff;
	return p->version >= 2 && p->gp >= 2;
}

static __u64 rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}

/* Exactly 2 * @n instructions, @n of them branches. */
static void loop2(unsigned long n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}
#else
static bool arch_pmu(struct arch_pmu *p)
{
	return false;
}

static __u64 rdpmc(unsigned int counter)
{
	return 0;
}

static void loop2(unsigned long n)
{
}
#endif

#define REQUIRE_ARCH_PMU(p)							\
	do {									\
		if (!arch_pmu(p))						\
			SKIP(return, "not an Intel CPU with architectural perfmon v2+"); \
		if (!perfev_have_hw())						\
			SKIP(return, "the kernel drives no hardware PMU");	\
	} while (0)

#define MSR_IA32_PMC0_LEGACY	0xc1
#define MSR_IA32_PERFEVTSEL0	0x186
#define MSR_FIXED_CTR0		0x309
#define MSR_GLOBAL_STATUS	0x38e
#define MSR_GLOBAL_CTRL		0x38f
#define MSR_GLOBAL_OVF_CTRL	0x390

#define EVTSEL_INSTRUCTIONS	0xc0ULL
#define EVTSEL_USR		BIT_ULL(16)
#define EVTSEL_OS		BIT_ULL(17)
#define EVTSEL_EN		BIT_ULL(22)

/* /dev/cpu/@cpu/msr opened on that CPU's behalf, or -1 (errno). */
static int msr_open(int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* 0, or the errno of rdmsr (EIO: #GP). */
static int msr_read(int fd, unsigned int msr, __u64 *val)
{
	return pread(fd, val, 8, msr) == 8 ? 0 : errno;
}

static int msr_write(int fd, unsigned int msr, __u64 val)
{
	return pwrite(fd, &val, 8, msr) == 8 ? 0 : errno;
}

TEST(cpuid_leaf_0xa_describes_the_counters)
{
	struct arch_pmu p;

	REQUIRE_ARCH_PMU(&p);
	TH_LOG("version %u, %u counters of %u bits, %u fixed of %u bits, EBX %#x/%u",
	       p.version, p.gp, p.width, p.fixed, p.fixed_width, p.ebx, p.ebx_len);
	EXPECT_GE(p.width, 32U);
	EXPECT_LE(p.width, 64U);
	/* the 7 architectural events of version 2 */
	EXPECT_GE(p.ebx_len, 7U);
	/* version 2 has fixed counters 0-2 (instructions, cycles, ref cycles) */
	EXPECT_GE(p.fixed, 3U);
	EXPECT_GE(p.fixed_width, 32U);
	/* the core counts instructions and cycles at least */
	EXPECT_EQ(0U, p.ebx & 3);
}

TEST(events_cpuid_marks_unavailable_do_not_open)
{
	static const __u64 by_bit[7] = {
		PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS,
		PERF_COUNT_HW_REF_CPU_CYCLES, PERF_COUNT_HW_CACHE_REFERENCES,
		PERF_COUNT_HW_CACHE_MISSES, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		PERF_COUNT_HW_BRANCH_MISSES,
	};
	struct arch_pmu p;
	int bit, fd;

	REQUIRE_ARCH_PMU(&p);
	for (bit = 0; bit < 7; bit++) {
		fd = perfev_open_self(PERF_TYPE_HARDWARE, by_bit[bit], -1);
		if (bit < (int)p.ebx_len && (p.ebx & BIT(bit))) {
			EXPECT_EQ(-1, fd) TH_LOG("CPUID bit %d marks it unavailable", bit);
			EXPECT_EQ(ENOENT, errno);
		} else if (bit != 2) {
			/* ref-cycles goes to fixed counter 2 only: may not open alone */
			EXPECT_LE(0, fd) TH_LOG("generic event %llu: %s",
						(unsigned long long)by_bit[bit], strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
}

TEST(rdpmc_reads_what_read_reports)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr a;
	struct arch_pmu p;
	__u64 before, after, val = 0;
	__u32 seq, idx = 0;
	int fd, tries;
	cpu_set_t orig;

	REQUIRE_ARCH_PMU(&p);
	ASSERT_LE(0, perfev_pin_here(&orig));
	perfev_attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = perfev_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, pc);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(LOOPS);
	ASSERT_EQ(0, perfev_read_count(fd, &before));
	for (tries = 0; tries < 100; tries++) {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		idx = pc->index;
		if (pc->cap_user_rdpmc && idx) {
			__s64 raw = rdpmc(idx - 1);
			unsigned int shift = 64 - pc->pmc_width;

			val = pc->offset + (__u64)((raw << shift) >> shift);
		}
		if (__atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE) == seq)
			break;
	}
	ASSERT_EQ(0, perfev_read_count(fd, &after));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (!pc->cap_user_rdpmc) {
		munmap(pc, sysconf(_SC_PAGESIZE));
		close(fd);
		perfev_unpin(&orig);
		SKIP(return, "cap_user_rdpmc is 0 (/sys/bus/event_source/devices/cpu/rdpmc)");
	}
	TH_LOG("index %u width %u: read %llu, rdpmc %llu, read %llu", idx,
	       pc->pmc_width, (unsigned long long)before, (unsigned long long)val,
	       (unsigned long long)after);
	EXPECT_NE(0U, idx);
	EXPECT_EQ(p.width, pc->pmc_width);
	EXPECT_GE(before, LOOPS);
	EXPECT_GE(val, before);
	EXPECT_LE(val, after);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
	perfev_unpin(&orig);
}

#define RDPMC_KNOB	"/sys/bus/event_source/devices/cpu/rdpmc"

static int rdpmc_knob(void)
{
	FILE *f = fopen(RDPMC_KNOB, "r");
	int val = -1;

	if (f) {
		if (fscanf(f, "%d", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

/* 0, or the errno of writing @val to the knob */
static int set_rdpmc_knob(const char *val)
{
	int fd = open(RDPMC_KNOB, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* Whether rdpmc faults in a new process that has no event mapped. */
static bool rdpmc_faults_in_a_new_process(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		rdpmc(0);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

/* cap_user_rdpmc of a new event's user page (-1: no event) */
static int new_event_offers_rdpmc(void)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr a;
	int fd, cap;

	perfev_attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		close(fd);
		return -1;
	}
	cap = pc->cap_user_rdpmc;
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
	return cap;
}

TEST(rdpmc_knob_gives_and_takes_user_rdpmc)
{
	char saved[16];
	int old;

	/* the knob exists only where the x86 PMU driver runs */
	old = rdpmc_knob();
	if (old < 0 || !perfev_have_hw())
		SKIP(return, "no %s (no x86 hardware PMU)", RDPMC_KNOB);
	snprintf(saved, sizeof(saved), "%d", old);

	EXPECT_EQ(EINVAL, set_rdpmc_knob("3"));
	EXPECT_EQ(old, rdpmc_knob());

	/* only EXPECTs below: the knob is put back whatever fails */
	/* 1: only for tasks with an event mapped */
	EXPECT_EQ(0, set_rdpmc_knob("1"));
	EXPECT_EQ(1, new_event_offers_rdpmc());
	EXPECT_TRUE(rdpmc_faults_in_a_new_process());

	/* 2: for every task */
	EXPECT_EQ(0, set_rdpmc_knob("2"));
	EXPECT_EQ(2, rdpmc_knob());
	EXPECT_FALSE(rdpmc_faults_in_a_new_process());
	EXPECT_EQ(1, new_event_offers_rdpmc());

	/* 0: for nobody, and new events say so */
	EXPECT_EQ(0, set_rdpmc_knob("0"));
	EXPECT_TRUE(rdpmc_faults_in_a_new_process());
	EXPECT_EQ(0, new_event_offers_rdpmc());

	/* and back */
	EXPECT_EQ(0, set_rdpmc_knob("1"));
	EXPECT_EQ(1, new_event_offers_rdpmc());
	EXPECT_TRUE(rdpmc_faults_in_a_new_process());
	EXPECT_EQ(0, set_rdpmc_knob(saved));
}

TEST(sysrq_p_dumps_every_general_counter)
{
	char rec[1024], want[64];
	struct arch_pmu p;
	int kmsg, fd, i, found = 0;
	ssize_t n;

	REQUIRE_ARCH_PMU(&p);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0)
		SKIP(return, "no /dev/kmsg");
	lseek(kmsg, 0, SEEK_END);
	fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		close(kmsg);
		SKIP(return, "no /proc/sysrq-trigger");
	}
	ASSERT_EQ(1, write(fd, "p", 1));
	close(fd);

	/* one record per read; the dump is of the CPU that took the write */
	for (i = 0; i < 4096; i++) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		snprintf(want, sizeof(want), "gen-PMC%d ctrl:", found);
		if (strstr(rec, want))
			found++;
	}
	close(kmsg);
	EXPECT_EQ((int)p.gp, found);
}

TEST(branch_instructions_count_the_loop_branches)
{
	struct arch_pmu p;
	__u64 count;
	int fd;

	REQUIRE_ARCH_PMU(&p);
	if (p.ebx_len > 5 && (p.ebx & BIT(5)))
		SKIP(return, "CPUID marks branch instructions unavailable");
	fd = perfev_open_self(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(LOOPS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	TH_LOG("%llu branches for %lu iterations", (unsigned long long)count, LOOPS);
	/* one loop branch per iteration; user and kernel around it */
	EXPECT_GE(count, LOOPS);
	EXPECT_LE(count, 2 * LOOPS);
	close(fd);
}

TEST(pmu_msrs_raise_gp_where_the_sdm_says)
{
	struct arch_pmu p;
	__u64 v, known;
	int fd;

	REQUIRE_ARCH_PMU(&p);
	fd = msr_open(0);
	if (fd < 0)
		SKIP(return, "no /dev/cpu/0/msr (CONFIG_X86_MSR): %s", strerror(errno));

	/* counters and event selects past CPUID's count do not exist */
	if (p.gp < 8) {
		EXPECT_EQ(EIO, msr_read(fd, MSR_IA32_PMC0_LEGACY + p.gp, &v));
		EXPECT_EQ(EIO, msr_read(fd, MSR_IA32_PERFEVTSEL0 + p.gp, &v));
	}
	EXPECT_EQ(0, msr_read(fd, MSR_IA32_PMC0_LEGACY + p.gp - 1, &v));
	if (p.version == 2 && p.fixed == 3)
		EXPECT_EQ(EIO, msr_read(fd, MSR_FIXED_CTR0 + p.fixed, &v));
	EXPECT_EQ(0, msr_read(fd, MSR_FIXED_CTR0 + p.fixed - 1, &v));

	/* IA32_PERF_GLOBAL_CTRL: an enable bit per counter, nothing else */
	known = ((1ULL << p.gp) - 1) | (((1ULL << p.fixed) - 1) << 32);
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_CTRL, &v));
	EXPECT_EQ(0ULL, v & ~known);

	/* IA32_PERF_GLOBAL_STATUS is read-only; OVF_CTRL bit 31 is reserved */
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_STATUS, &v));
	EXPECT_EQ(EIO, msr_write(fd, MSR_GLOBAL_STATUS, v));
	EXPECT_EQ(EIO, msr_write(fd, MSR_GLOBAL_OVF_CTRL, 1ULL << 31));

	/* IA32_PERFEVTSELx bit 63 is reserved: the write is refused whole */
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PERFEVTSEL0 + p.gp - 1, &v));
	EXPECT_EQ(EIO, msr_write(fd, MSR_IA32_PERFEVTSEL0 + p.gp - 1, v | 1ULL << 63));
	close(fd);
}

/*
 * Program the last general counter by hand (it is idle: the suite runs one
 * test at a time and the x86 driver fills counters from 0), count a loop of
 * exactly 2 * N user instructions through IA32_PERFEVTSELx, and let it wrap
 * into IA32_PERF_GLOBAL_STATUS; then put everything back.
 */
#define MSR_LOOPS	200000UL

static __u64 count_with_evtsel(int fd, unsigned int i, __u64 sel, __u64 start)
{
	__u64 v = ~0ULL;

	if (msr_write(fd, MSR_IA32_PMC0_LEGACY + i, start) ||
	    msr_write(fd, MSR_IA32_PERFEVTSEL0 + i, sel))
		return ~0ULL;
	loop2(MSR_LOOPS);
	if (msr_write(fd, MSR_IA32_PERFEVTSEL0 + i, 0) ||
	    msr_read(fd, MSR_IA32_PMC0_LEGACY + i, &v))
		return ~0ULL;
	return v;
}

TEST(pmu_msrs_count_and_overflow_as_documented)
{
	__u64 v, mask, ctrl, status, user, kernel, wrapped;
	struct arch_pmu p;
	cpu_set_t orig;
	unsigned int i;
	int cpu, fd;

	REQUIRE_ARCH_PMU(&p);
	cpu = perfev_pin_here(&orig);
	ASSERT_LE(0, cpu);
	fd = msr_open(cpu);
	if (fd < 0) {
		perfev_unpin(&orig);
		SKIP(return, "no /dev/cpu/%d/msr (CONFIG_X86_MSR): %s", cpu, strerror(errno));
	}
	i = p.gp - 1;
	mask = p.width == 64 ? ~0ULL : (1ULL << p.width) - 1;
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PERFEVTSEL0 + i, &v));
	if (v & EVTSEL_EN) {
		close(fd);
		perfev_unpin(&orig);
		SKIP(return, "counter %u is in use (event select %#llx)", i, (unsigned long long)v);
	}
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_CTRL, &ctrl));
	ASSERT_EQ(0, msr_write(fd, MSR_GLOBAL_CTRL, ctrl | 1ULL << i));

	/* the legacy alias writes bits 0-31 and sign-extends bit 31 */
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PMC0_LEGACY + i, 0xffffffffULL));
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PMC0_LEGACY + i, &v));
	EXPECT_EQ(mask, v);
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PMC0_LEGACY + i, 0x12345ULL));
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PMC0_LEGACY + i, &v));
	EXPECT_EQ(0x12345ULL, v);

	/* USR: the loop's 2N instructions and the few around the syscalls */
	user = count_with_evtsel(fd, i, EVTSEL_INSTRUCTIONS | EVTSEL_USR | EVTSEL_EN, 0);
	/* OS: the kernel's side of the two MSR writes, not the loop */
	kernel = count_with_evtsel(fd, i, EVTSEL_INSTRUCTIONS | EVTSEL_OS | EVTSEL_EN, 0);
	/* started 2N/2 below the wrap: it wraps during the loop */
	wrapped = count_with_evtsel(fd, i, EVTSEL_INSTRUCTIONS | EVTSEL_USR | EVTSEL_EN,
				    (__u64)-(long long)MSR_LOOPS & 0xffffffffULL);
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_STATUS, &status));
	TH_LOG("counter %u: user %llu, kernel %llu, wrapped to %llu, status %#llx",
	       i, (unsigned long long)user, (unsigned long long)kernel,
	       (unsigned long long)wrapped, (unsigned long long)status);
	EXPECT_GE(user, 2 * MSR_LOOPS);
	EXPECT_LE(user, 2 * MSR_LOOPS + 20000);
	EXPECT_LT(kernel, MSR_LOOPS / 2);
	EXPECT_GE(wrapped, MSR_LOOPS);
	EXPECT_LE(wrapped, MSR_LOOPS + 20000);
	EXPECT_NE(0ULL, status & 1ULL << i);
	/* IA32_PERF_GLOBAL_OVF_CTRL clears the status bit */
	EXPECT_EQ(0, msr_write(fd, MSR_GLOBAL_OVF_CTRL, 1ULL << i));
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_STATUS, &status));
	EXPECT_EQ(0ULL, status & 1ULL << i);

	msr_write(fd, MSR_IA32_PMC0_LEGACY + i, 0);
	msr_write(fd, MSR_GLOBAL_CTRL, ctrl);
	close(fd);
	perfev_unpin(&orig);
}

TEST_HARNESS_MAIN
