// SPDX-License-Identifier: GPL-2.0
/*
 * The exact counting rules of the testbed's x86 PMU model (QEMU's tcg-pmu,
 * testbed/qemu/README.md "What is emulated"), checked through the x86
 * driver as a user sees it, so that a driver that programs the wrong
 * counter or event code gives a wrong number:
 *
 * - instructions, branches, core cycles and reference cycles of a loop
 *   are four different numbers: per iteration of "dec; jnz" exactly 2
 *   instructions, 1 branch and 2 + 2 * 1 cycles (a branch stalls the
 *   model CPU for two cycles); reference cycles follow the TSC;
 * - the counter mask, INV and EDGE of a raw event count the documented
 *   cycles;
 * - instructions retire up to an exception: the instructions before an
 *   INT3 (which retires), a UD2 (which does not), a page-faulting load
 *   and a PAUSE all count, and a REP MOVSB of a megabyte counts once;
 * - branch misses follow the model's static prediction (backward taken,
 *   forward not taken);
 * - Intel version 4 and 5: IA32_PERF_CAPABILITIES.FW_WRITE and the
 *   full-width counter aliases, IA32_PERF_GLOBAL_STATUS_SET and _INUSE,
 *   CPUID.0xA ECX's fixed-counter bitmap (through /dev/cpu/N/msr; on
 *   version 2 they raise #GP);
 * - AMD: the six core counters and their legacy aliases, 48-bit writes,
 *   PerfMonV2's global control and status (on the AMD model, taken
 *   branches stand in for reference cycles, which AMD lacks).
 *
 * Every count is user-only and taken as the difference of two runs that
 * differ only in the measured code, so the instructions around it cancel.
 * Everything SKIPs where the CPU is not the model (its brand string names
 * tcg-pmu) or the kernel drives no hardware PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

static bool is_amd;

#if defined(__x86_64__)
#include <cpuid.h>

/*
 * The version of the testbed's model (Intel: CPUID.0xA's, 2, 4 or 5; AMD:
 * 2 with PerfMonV2, else 1), or 0 on any other CPU; sets is_amd.
 */
static unsigned int model_version(void)
{
	unsigned int a, b, c, d, regs[12];
	int i;

	if (__get_cpuid_max(0x80000000, NULL) < 0x80000004)
		return 0;
	for (i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, regs[4 * i], regs[4 * i + 1],
			regs[4 * i + 2], regs[4 * i + 3]);
	if (!memmem(regs, sizeof(regs), "tcg-pmu", 7))
		return 0;
	__cpuid(0, a, b, c, d);
	is_amd = b == 0x68747541;	/* "Auth"enticAMD */
	if (is_amd) {
		if (__get_cpuid_max(0x80000000, NULL) < 0x80000022)
			return 1;
		__cpuid(0x80000022, a, b, c, d);
		return a & 1 ? 2 : 1;
	}
	__cpuid(0xa, a, b, c, d);
	return a & 0xff;
}

static unsigned int cpuid_0xa(int reg)
{
	unsigned int r[4];

	__cpuid(0xa, r[0], r[1], r[2], r[3]);
	return r[reg];
}

/* Exactly 2 * @n instructions, @n of them branches. */
static void loop2(unsigned long n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}

/*
 * Exactly 4 * @n instructions, 2 * @n branches, 2 * @n taken, and @n
 * forward taken branches: the mispredictions of the model's static
 * predictor (backward taken, forward not).
 */
static void loop_forward(unsigned long n)
{
	unsigned long zero = 0;

	asm volatile("1: test %1, %1\n\tjz 2f\n\tnop\n"
		     "2: dec %0\n\tjnz 1b" : "+r" (n) : "r" (zero) : "cc");
}

/* Exactly 3 * @n instructions: pause, dec, jnz. */
static void pause_loop(unsigned long n)
{
	asm volatile("1: pause\n\tdec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}

/* @n bytes by one REP MOVSB. */
static void rep_movsb(void *dst, const void *src, unsigned long n)
{
	asm volatile("cld\n\trep movsb" : "+D" (dst), "+S" (src), "+c" (n) : : "memory");
}

/*
 * 64 or 128 NOPs, then an INT3, a UD2 or a load from @p, in one
 * translation block each (no branch in between).
 */
#ifndef noinline
#define noinline __attribute__((noinline))
#endif
#define NOPS(n)	".rept " #n "\n\tnop\n\t.endr\n\t"

static noinline void nops64_int3(void)
{
	asm volatile(NOPS(64) "int3");
}

static noinline void nops128_int3(void)
{
	asm volatile(NOPS(128) "int3");
}

static noinline void nops64_ud2(void)
{
	asm volatile(NOPS(64) "ud2");
}

static noinline void nops128_ud2(void)
{
	asm volatile(NOPS(128) "ud2");
}

static noinline void nops64_load(const void *p)
{
	asm volatile(NOPS(64) "movb (%0), %%al" : : "r" (p) : "al");
}

static __u64 rdtsc(void)
{
	return __builtin_ia32_rdtsc();
}

static __u64 rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}

static void skip_ud2(int sig, siginfo_t *si, void *ctx)
{
	((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP] += 2;
}

static void ignore_trap(int sig)
{
}
#else
static unsigned int model_version(void)
{
	return 0;
}

static unsigned int cpuid_0xa(int reg)
{
	return 0;
}

static __u64 rdtsc(void) { return 0; }
static __u64 rdpmc(unsigned int counter) { return 0; }
static void loop2(unsigned long n) { }
static void loop_forward(unsigned long n) { }
static void pause_loop(unsigned long n) { }
static void rep_movsb(void *dst, const void *src, unsigned long n) { }
static void nops64_int3(void) { }
static void nops128_int3(void) { }
static void nops64_ud2(void) { }
static void nops128_ud2(void) { }
static void nops64_load(const void *p) { }
static void skip_ud2(int sig, siginfo_t *si, void *ctx) { }
static void ignore_trap(int sig) { }
#endif

#define REQUIRE_MODEL(v)							\
	do {									\
		v = model_version();						\
		if (!v)								\
			SKIP(return, "not the testbed's QEMU PMU model (tcg-pmu)"); \
		if (!perfev_have_hw())						\
			SKIP(return, "the kernel drives no hardware PMU");	\
	} while (0)

enum { INSNS, BRANCHES, CYCLES, REF, NR_EVENTS };

/* A group of the four events, user-only, pinned so that all count. */
struct four {
	int fd[NR_EVENTS];
};

/* On AMD, which has no reference cycles, the fourth is taken branches. */
#define AMD_RAW_TAKEN	0xc4

static int four_open(struct four *f)
{
	static const __u64 config[NR_EVENTS] = {
		[INSNS] = PERF_COUNT_HW_INSTRUCTIONS,
		[BRANCHES] = PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		[CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
		[REF] = PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	struct perf_event_attr a;
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		if (i == REF && is_amd)
			perfev_attr_init(&a, PERF_TYPE_RAW, AMD_RAW_TAKEN);
		else
			perfev_attr_init(&a, PERF_TYPE_HARDWARE, config[i]);
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.disabled = !i;
		a.pinned = !i;
		f->fd[i] = perfev_open(&a, 0, -1, i ? f->fd[0] : -1, 0);
		if (f->fd[i] < 0)
			return -1;
	}
	return 0;
}

static void four_close(struct four *f)
{
	int i;

	for (i = NR_EVENTS - 1; i >= 0; i--)
		close(f->fd[i]);
}

static void four_loop(struct four *f, unsigned long n, __u64 *v)
{
	int i;

	ioctl(f->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(f->fd[0], PERF_EVENT_IOC_ENABLE, 0);
	loop2(n);
	ioctl(f->fd[0], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < NR_EVENTS; i++)
		if (perfev_read_count(f->fd[i], &v[i]))
			v[i] = 0;
}

#define N1	100000UL
#define N2	300000UL

TEST(four_events_count_four_documented_quantities)
{
	__u64 a[NR_EVENTS], b[NR_EVENTS], d[NR_EVENTS];
	unsigned int version;
	struct four f;
	int i;

	REQUIRE_MODEL(version);
	ASSERT_EQ(0, four_open(&f));
	four_loop(&f, N1, a);
	four_loop(&f, N2, b);
	for (i = 0; i < NR_EVENTS; i++)
		d[i] = b[i] - a[i];
	TH_LOG("v%u, %lu more iterations: %llu instructions, %llu branches, %llu cycles, %llu ref",
	       version, N2 - N1, (unsigned long long)d[INSNS], (unsigned long long)d[BRANCHES],
	       (unsigned long long)d[CYCLES], (unsigned long long)d[REF]);
	EXPECT_EQ(2 * (N2 - N1), d[INSNS]);
	EXPECT_EQ(N2 - N1, d[BRANCHES]);
	/* one cycle an instruction, two more a branch */
	EXPECT_EQ(d[INSNS] + 2 * d[BRANCHES], d[CYCLES]);
	if (is_amd) {
		/* taken: all but the last of each call's */
		EXPECT_EQ(N2 - N1, d[REF]);
		four_close(&f);
		return;
	}
	/* the TSC: neither of the others, and it advanced */
	EXPECT_LT(0ULL, d[REF]);
	EXPECT_NE(d[REF], d[INSNS]);
	EXPECT_NE(d[REF], d[CYCLES]);
	EXPECT_NE(d[REF], d[BRANCHES]);
	four_close(&f);
}

/*
 * Reference cycles follow the TSC: a CPU-bound loop counted in user and
 * kernel mode gets about the TSC ticks it took (a pinned task that does
 * not sleep keeps the CPU out of HLT).
 */
TEST(reference_cycles_follow_the_tsc)
{
	struct perf_event_attr a;
	unsigned int version;
	__u64 t0, t1, ref;
	cpu_set_t orig;
	int fd;

	REQUIRE_MODEL(version);
	if (is_amd)
		SKIP(return, "AMD has no reference cycles event");
	ASSERT_LE(0, perfev_pin_here(&orig));
	perfev_attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
	fd = perfev_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t0 = rdtsc();
	loop2(20 * N2);
	t1 = rdtsc();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &ref));
	TH_LOG("%llu ref-cycles over %llu TSC ticks", (unsigned long long)ref,
	       (unsigned long long)(t1 - t0));
	EXPECT_GE(ref, (t1 - t0) * 7 / 10);
	EXPECT_LE(ref, (t1 - t0) * 13 / 10 + 1000000);
	close(fd);
	perfev_unpin(&orig);
}

/*
 * How the driver writes a sampling period: with full-width writes
 * (IA32_PERF_CAPABILITIES.FW_WRITE, Intel versions 4 and 5 here; AMD's
 * counters are always written whole) a period of 2^40 is loaded whole;
 * through Intel's legacy alias the driver caps it at 2^31 - 1.  Seen
 * through rdpmc, right after the event starts.
 */
TEST(long_period_loaded_through_the_full_width_alias)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr a;
	unsigned int version;
	__u64 raw, left;
	cpu_set_t orig;
	int fd;

	REQUIRE_MODEL(version);
	ASSERT_LE(0, perfev_pin_here(&orig));
	perfev_attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.sample_period = 1ULL << 40;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = perfev_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, pc);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	if (!pc->cap_user_rdpmc || !pc->index)
		SKIP(goto out, "no rdpmc (index %u)", pc->index);
	raw = rdpmc(pc->index - 1) & ((1ULL << pc->pmc_width) - 1);
	left = (1ULL << pc->pmc_width) - raw;
	TH_LOG("v%u: counter %#llx, %llu events to the overflow", version,
	       (unsigned long long)raw, (unsigned long long)left);
	if (version >= 4 || is_amd) {
		EXPECT_LT(1ULL << 39, left);
	} else {
		EXPECT_GE(1ULL << 31, left);
	}
out:
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
	perfev_unpin(&orig);
}

/* Raw event: event | umask << 8 | edge << 18 | inv << 23 | cmask << 24 */
#define RAW(ev, umask, edge, inv, cmask) \
	((ev) | (umask) << 8 | (__u64)(edge) << 18 | (__u64)(inv) << 23 | (__u64)(cmask) << 24)

/* One user-only event on this task, disabled. */
static int open_user(__u32 type, __u64 config)
{
	struct perf_event_attr a;

	perfev_attr_init(&a, type, config);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return perfev_open(&a, 0, -1, -1, 0);
}

/* What @fd counts over one call of @fn(@arg), from zero. */
static __u64 count_call(int fd, void (*fn)(const void *), const void *arg)
{
	__u64 c = ~0ULL;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	fn(arg);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perfev_read_count(fd, &c);
	return c;
}

static const unsigned long n1 = N1, n2 = N2;

static void call_loop2(const void *n) { loop2(*(const unsigned long *)n); }
static void call_loop_forward(const void *n) { loop_forward(*(const unsigned long *)n); }

static __u64 raw_loop_delta(__u64 config)
{
	__u64 c1, c2;
	int fd;

	fd = open_user(PERF_TYPE_RAW, config);
	if (fd < 0)
		return ~0ULL;
	c1 = count_call(fd, call_loop2, &n1);
	c2 = count_call(fd, call_loop2, &n2);
	close(fd);
	return c2 - c1;
}

struct raw_case {
	const char *what;
	__u64 config;
	unsigned int per_iter;
};

TEST(cmask_inv_edge_count_the_documented_cycles)
{
	/* per iteration of dec; jnz: 2 instructions, 1 branch, 4 cycles */
	static const struct raw_case intel[] = {
		{ "instructions", RAW(0xc0, 0, 0, 0, 0), 2 },
		{ "cycles with an instruction", RAW(0xc0, 0, 0, 0, 1), 2 },
		{ "cycles with 2 instructions", RAW(0xc0, 0, 0, 0, 2), 0 },
		{ "cycles without an instruction", RAW(0xc0, 0, 0, 1, 1), 2 },
		{ "cycles with fewer than 2", RAW(0xc0, 0, 0, 1, 2), 4 },
		{ "runs of retiring cycles", RAW(0xc0, 0, 1, 0, 1), 1 },
		{ "branches", RAW(0xc4, 0, 0, 0, 0), 1 },
		{ "cycles without a branch", RAW(0xc4, 0, 0, 1, 1), 3 },
		{ "cycles", RAW(0x3c, 0, 0, 0, 0), 4 },
		{ "cycles, inverted mask 1", RAW(0x3c, 0, 0, 1, 1), 0 },
		{ "cycles, edge", RAW(0x3c, 0, 1, 0, 1), 0 },
		{ "INV without a mask is ignored", RAW(0xc0, 0, 0, 1, 0), 2 },
		{ "an event the model lacks", RAW(0x2e, 0x4f, 0, 0, 0), 0 },
	};
	static const struct raw_case amd[] = {
		{ "instructions", RAW(0xc0, 0, 0, 0, 0), 2 },
		{ "cycles without an instruction", RAW(0xc0, 0, 0, 1, 1), 2 },
		{ "runs of retiring cycles", RAW(0xc0, 0, 1, 0, 1), 1 },
		{ "branches", RAW(0xc2, 0, 0, 0, 0), 1 },
		{ "cycles without a branch", RAW(0xc2, 0, 0, 1, 1), 3 },
		{ "cycles without a taken branch", RAW(0xc4, 0, 0, 1, 1), 3 },
		{ "cycles", RAW(0x76, 0, 0, 0, 0), 4 },
		{ "cycles with fewer than 2", RAW(0x76, 0, 0, 1, 2), 4 },
		{ "an event the model lacks", RAW(0x29, 0x07, 0, 0, 0), 0 },
	};
	const struct raw_case *table;
	unsigned int version, i, n;
	__u64 d;

	REQUIRE_MODEL(version);
	table = is_amd ? amd : intel;
	n = is_amd ? ARRAY_SIZE(amd) : ARRAY_SIZE(intel);
	for (i = 0; i < n; i++) {
		d = raw_loop_delta(table[i].config);
		TH_LOG("%s (%#llx): %llu for %lu iterations", table[i].what,
		       (unsigned long long)table[i].config, (unsigned long long)d, N2 - N1);
		EXPECT_EQ((__u64)table[i].per_iter * (N2 - N1), d);
	}
}

/*
 * Branch misses follow the model's static prediction: a loop's backward
 * branch misses once per call (when it does not jump), a forward branch
 * that is taken misses every time.
 */
TEST(branch_misses_follow_the_static_prediction)
{
	unsigned int version;
	__u64 c[4];
	int fd, i;

	REQUIRE_MODEL(version);
	fd = open_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	ASSERT_LE(0, fd);
	c[0] = count_call(fd, call_loop2, &n1);
	c[1] = count_call(fd, call_loop2, &n2);
	c[2] = count_call(fd, call_loop_forward, &n1);
	c[3] = count_call(fd, call_loop_forward, &n2);
	for (i = 0; i < 4; i++)
		ASSERT_NE(~0ULL, c[i]);	/* read() failed */
	TH_LOG("misses: backward loop %llu / %llu, forward-taken loop %llu / %llu",
	       (unsigned long long)c[0], (unsigned long long)c[1],
	       (unsigned long long)c[2], (unsigned long long)c[3]);
	EXPECT_EQ(c[0], c[1]);
	EXPECT_EQ(N2 - N1, c[3] - c[2]);
	close(fd);
}

static void call_int3_64(const void *p) { nops64_int3(); }
static void call_int3_128(const void *p) { nops128_int3(); }
static void call_ud2_64(const void *p) { nops64_ud2(); }
static void call_ud2_128(const void *p) { nops128_ud2(); }
static void call_load(const void *p) { nops64_load(p); }
static void call_pause_1(const void *p) { pause_loop(N1); }
static void call_pause_2(const void *p) { pause_loop(N2); }

static char rep_src[1 << 20], rep_dst[1 << 20];

static void call_rep_16(const void *p) { rep_movsb(rep_dst, rep_src, 16); }
static void call_rep_1m(const void *p) { rep_movsb(rep_dst, rep_src, sizeof(rep_dst)); }

TEST(instructions_before_an_exception_retire)
{
	struct sigaction ill = { .sa_sigaction = skip_ud2, .sa_flags = SA_SIGINFO };
	struct sigaction trap = { .sa_handler = ignore_trap };
	__u64 a, b, touched, fresh;
	unsigned int version;
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int fd;

	REQUIRE_MODEL(version);
	ASSERT_EQ(0, sigaction(SIGILL, &ill, NULL));
	ASSERT_EQ(0, sigaction(SIGTRAP, &trap, NULL));
	fd = open_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	ASSERT_LE(0, fd);

	/* INT3 retires, and the NOPs before it in its block */
	a = count_call(fd, call_int3_64, NULL);
	b = count_call(fd, call_int3_128, NULL);
	TH_LOG("int3 after 64 NOPs: %llu, after 128: %llu", (unsigned long long)a,
	       (unsigned long long)b);
	EXPECT_EQ(64ULL, b - a);

	/* UD2 faults: the NOPs before it retired */
	a = count_call(fd, call_ud2_64, NULL);
	b = count_call(fd, call_ud2_128, NULL);
	TH_LOG("ud2 after 64 NOPs: %llu, after 128: %llu", (unsigned long long)a,
	       (unsigned long long)b);
	EXPECT_EQ(64ULL, b - a);

	/* a load that page-faults counts as one that does not */
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	fresh = count_call(fd, call_load, p);
	touched = count_call(fd, call_load, p);
	TH_LOG("NOPs and a load: %llu with a page fault, %llu without",
	       (unsigned long long)fresh, (unsigned long long)touched);
	EXPECT_EQ(touched, fresh);
	munmap(p, 2 * page);

	/* PAUSE (which leaves QEMU's CPU loop) counts */
	a = count_call(fd, call_pause_1, NULL);
	b = count_call(fd, call_pause_2, NULL);
	TH_LOG("pause loop: %llu for %lu iterations, %llu for %lu", (unsigned long long)a, N1,
	       (unsigned long long)b, N2);
	EXPECT_EQ(3 * (N2 - N1), b - a);

	/* a REP string instruction counts once, however long */
	memset(rep_src, 1, sizeof(rep_src));
	a = count_call(fd, call_rep_16, NULL);
	b = count_call(fd, call_rep_1m, NULL);
	TH_LOG("rep movsb: %llu for 16 bytes, %llu for 1 MiB", (unsigned long long)a,
	       (unsigned long long)b);
	EXPECT_EQ(a, b);
	close(fd);
	signal(SIGILL, SIG_DFL);
	signal(SIGTRAP, SIG_DFL);
}

/*
 * The driver's boot line names what it found: Intel's full-width counters
 * from version 4 (IA32_PERF_CAPABILITIES.FW_WRITE), AMD's core counters;
 * and the version in the summary that follows it (the kernel log reads
 * them whatever the console's loglevel).
 */
TEST(boot_line_names_the_model)
{
	static char buf[1 << 20];
	unsigned int version;
	char *line, *end, want[48];
	int n;

	REQUIRE_MODEL(version);
	n = klogctl(3, buf, sizeof(buf) - 1);	/* SYSLOG_ACTION_READ_ALL */
	if (n < 0)
		SKIP(return, "no kernel log: %s", strerror(errno));
	buf[n] = 0;
	line = strstr(buf, "Performance Events: ");
	if (!line)
		SKIP(return, "the boot line left the kernel log buffer");
	/*
	 * The line is built with pr_cont(): another CPU's message can split
	 * it (seen on a debug kernel), so its parts are looked for up to the
	 * driver's name.
	 */
	end = strstr(line, " PMU driver.");
	ASSERT_NE(NULL, end);
	*end = 0;
	TH_LOG("%s PMU driver.", line);
	if (is_amd) {
		EXPECT_NE(NULL, strstr(line, "core perfctr"));
		EXPECT_NE(NULL, strstr(line, "AMD"));
	} else {
		EXPECT_EQ(version >= 4, strstr(line, "full-width counters") != NULL);
	}
	*end = ' ';
	/* 6.1 reports no version for AMD before PerfMonV2 */
	snprintf(want, sizeof(want), "version:                %u\n",
		 is_amd && version < 2 ? 0 : version);
	EXPECT_NE(NULL, strstr(line, want));
}

/* ------------------------------------------------------ version 4 and 5 */

#define MSR_IA32_PMC0_LEGACY	0xc1
#define MSR_IA32_PERFEVTSEL0	0x186
#define MSR_PERF_CAPABILITIES	0x345
#define MSR_GLOBAL_STATUS	0x38e
#define MSR_GLOBAL_CTRL		0x38f
#define MSR_GLOBAL_OVF_CTRL	0x390
#define MSR_GLOBAL_STATUS_SET	0x391
#define MSR_GLOBAL_INUSE	0x392
#define MSR_IA32_PMC0_FULL	0x4c1
#define EVTSEL_EN		BIT_ULL(22)	/* IA32_PERFEVTSELx.EN */
#define PERF_CAP_FW_WRITE	BIT_ULL(13)

static int msr_read(int fd, unsigned int msr, __u64 *val)
{
	return pread(fd, val, 8, msr) == 8 ? 0 : errno;
}

static int msr_write(int fd, unsigned int msr, __u64 val)
{
	return pwrite(fd, &val, 8, msr) == 8 ? 0 : errno;
}

/*
 * /dev/cpu/N/msr of this CPU, pinned to it, and the last general counter
 * in *i, which must be idle when @idle (the driver fills counters from 0);
 * -1 with errno (EBUSY: the counter is in use) and unpinned otherwise.
 * An event select with the enable bit clear is what an earlier event left
 * (drivers do not zero it when an event goes): no event is on the counter,
 * and a driver writes the whole select when it puts one there, so it is
 * zeroed here.
 */
static int counter_msrs(unsigned int *i, bool idle, cpu_set_t *orig)
{
	char path[64];
	__u64 sel;
	int cpu, fd;

	cpu = perfev_pin_here(orig);
	if (cpu < 0)
		return -1;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perfev_unpin(orig);
		return -1;
	}
	*i = ((cpuid_0xa(0) >> 8) & 0xff) - 1;
	if (!idle)
		return fd;
	if (msr_read(fd, MSR_IA32_PERFEVTSEL0 + *i, &sel) || (sel & EVTSEL_EN) ||
	    (sel && msr_write(fd, MSR_IA32_PERFEVTSEL0 + *i, 0))) {
		ksft_print_msg("CPU %d counter %u: event select %#llx\n", cpu, *i,
			       (unsigned long long)sel);
		close(fd);
		perfev_unpin(orig);
		errno = EBUSY;
		return -1;
	}
	return fd;
}

TEST(version_4_full_width_writes)
{
	unsigned int version, i;
	__u64 caps, v;
	cpu_set_t orig;
	int fd;

	REQUIRE_MODEL(version);
	if (is_amd)
		SKIP(return, "Intel's MSRs and CPUID leaf");
	/* version 2 writes nothing that takes: any counter will do */
	fd = counter_msrs(&i, version >= 4, &orig);
	if (fd < 0)
		SKIP(return, "no /dev/cpu/N/msr or no idle counter: %s", strerror(errno));
	if (version < 4) {
		/* no PDCM: no IA32_PERF_CAPABILITIES, no full-width alias */
		EXPECT_EQ(EIO, msr_read(fd, MSR_PERF_CAPABILITIES, &caps));
		EXPECT_EQ(EIO, msr_write(fd, MSR_IA32_PMC0_FULL + i, 0));
		close(fd);
		perfev_unpin(&orig);
		return;
	}
	ASSERT_EQ(0, msr_read(fd, MSR_PERF_CAPABILITIES, &caps));
	EXPECT_NE(0ULL, caps & PERF_CAP_FW_WRITE);
	EXPECT_EQ(EIO, msr_write(fd, MSR_PERF_CAPABILITIES, caps));
	/* the full-width alias writes bit 31 as it is ... */
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PMC0_FULL + i, 0x80000000ULL));
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PMC0_LEGACY + i, &v));
	EXPECT_EQ(0x80000000ULL, v);
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PMC0_FULL + i, 0x123456789abULL));
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PMC0_FULL + i, &v));
	EXPECT_EQ(0x123456789abULL, v);
	/* ... the legacy one sign-extends it, and bits past 48 are reserved */
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PMC0_LEGACY + i, 0x80000000ULL));
	ASSERT_EQ(0, msr_read(fd, MSR_IA32_PMC0_FULL + i, &v));
	EXPECT_EQ(0xffff80000000ULL, v);
	EXPECT_EQ(EIO, msr_write(fd, MSR_IA32_PMC0_FULL + i, 1ULL << 48));
	msr_write(fd, MSR_IA32_PMC0_FULL + i, 0);
	close(fd);
	perfev_unpin(&orig);
}

TEST(version_4_status_set_and_inuse)
{
	unsigned int version, i;
	__u64 status, inuse;
	cpu_set_t orig;
	int fd;

	REQUIRE_MODEL(version);
	if (is_amd)
		SKIP(return, "Intel's MSRs and CPUID leaf");
	if (version < 4)
		SKIP(return, "version %u: no GLOBAL_STATUS_SET or GLOBAL_INUSE", version);
	fd = counter_msrs(&i, true, &orig);
	if (fd < 0)
		SKIP(return, "no /dev/cpu/N/msr or no idle counter: %s", strerror(errno));
	/* STATUS_SET sets a counter's overflow bit; STATUS_RESET clears it */
	ASSERT_EQ(0, msr_write(fd, MSR_GLOBAL_STATUS_SET, 1ULL << i));
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_STATUS, &status));
	EXPECT_NE(0ULL, status & 1ULL << i);
	ASSERT_EQ(0, msr_write(fd, MSR_GLOBAL_OVF_CTRL, 1ULL << i));
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_STATUS, &status));
	EXPECT_EQ(0ULL, status & 1ULL << i);
	/* bit 31 is reserved in both */
	EXPECT_EQ(EIO, msr_write(fd, MSR_GLOBAL_STATUS_SET, 1ULL << 31));
	EXPECT_EQ(EIO, msr_write(fd, MSR_GLOBAL_OVF_CTRL, 1ULL << 31));

	/* INUSE: the counter is in use while its event select is set */
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_INUSE, &inuse));
	EXPECT_EQ(0ULL, inuse & 1ULL << i);
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PERFEVTSEL0 + i, 0xc0));
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_INUSE, &inuse));
	EXPECT_NE(0ULL, inuse & 1ULL << i);
	EXPECT_EQ(EIO, msr_write(fd, MSR_GLOBAL_INUSE, 0));
	ASSERT_EQ(0, msr_write(fd, MSR_IA32_PERFEVTSEL0 + i, 0));
	ASSERT_EQ(0, msr_read(fd, MSR_GLOBAL_INUSE, &inuse));
	EXPECT_EQ(0ULL, inuse & 1ULL << i);
	close(fd);
	perfev_unpin(&orig);
}

TEST(version_5_lists_the_fixed_counters)
{
	unsigned int version;

	REQUIRE_MODEL(version);
	if (is_amd)
		SKIP(return, "Intel's MSRs and CPUID leaf");
	if (version < 5) {
		EXPECT_EQ(0U, cpuid_0xa(2));
		SKIP(return, "version %u: no fixed-counter bitmap", version);
	}
	/* three fixed counters, listed in ECX and counted in EDX[4:0] */
	EXPECT_EQ(0x7U, cpuid_0xa(2));
	EXPECT_EQ(3U, cpuid_0xa(3) & 0x1f);
}

/* ------------------------------------------------------------------ AMD */

#define MSR_K7_PERFCTR0		0xc0010004
#define MSR_F15H_PERF_CTL0	0xc0010200
#define MSR_AMD_STATUS		0xc0000300
#define MSR_AMD_CTL		0xc0000301
#define MSR_AMD_STATUS_CLR	0xc0000302
#define MSR_AMD_STATUS_SET	0xc0000303

/*
 * AMD: the six core counters at 0xc0010200 + 2n, the first four also at
 * the legacy addresses; counters are 48 bits, written whole; PerfMonV2's
 * global control, status, clear and set (version 2).  On the idle last
 * counter, by hand.
 */
TEST(amd_core_counters_and_perfmon_v2)
{
	unsigned int version, i = 5;
	__u64 v, ctl;
	cpu_set_t orig;
	char path[64];
	int cpu, fd;

	REQUIRE_MODEL(version);
	if (!is_amd)
		SKIP(return, "AMD's MSRs");
	cpu = perfev_pin_here(&orig);
	ASSERT_LE(0, cpu);
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perfev_unpin(&orig);
		SKIP(return, "no %s: %s", path, strerror(errno));
	}
	/* a select without the enable bit is what an earlier event left */
	ASSERT_EQ(0, msr_read(fd, MSR_F15H_PERF_CTL0 + 2 * i, &v));
	if (v & EVTSEL_EN) {
		close(fd);
		perfev_unpin(&orig);
		SKIP(return, "counter %u is in use (%#llx)", i, (unsigned long long)v);
	}
	/* counter 0 is one counter at both addresses */
	ASSERT_EQ(0, msr_read(fd, MSR_F15H_PERF_CTL0 + 1, &v));
	ASSERT_EQ(0, msr_read(fd, MSR_K7_PERFCTR0, &ctl));
	EXPECT_EQ(v, ctl);
	/* 48 bits written whole; bit 48 is reserved */
	ASSERT_EQ(0, msr_write(fd, MSR_F15H_PERF_CTL0 + 2 * i + 1, 0x876543210fedULL));
	ASSERT_EQ(0, msr_read(fd, MSR_F15H_PERF_CTL0 + 2 * i + 1, &v));
	EXPECT_EQ(0x876543210fedULL, v);
	EXPECT_EQ(EIO, msr_write(fd, MSR_F15H_PERF_CTL0 + 2 * i + 1, 1ULL << 48));
	msr_write(fd, MSR_F15H_PERF_CTL0 + 2 * i + 1, 0);
	if (version < 2) {
		EXPECT_EQ(EIO, msr_read(fd, MSR_AMD_CTL, &v));
		goto out;
	}
	/* PerfMonV2: a control bit per counter, status set and cleared */
	ASSERT_EQ(0, msr_read(fd, MSR_AMD_CTL, &ctl));
	EXPECT_EQ(0ULL, ctl & ~0x3fULL);
	EXPECT_EQ(EIO, msr_write(fd, MSR_AMD_CTL, ctl | 1ULL << 6));
	ASSERT_EQ(0, msr_write(fd, MSR_AMD_STATUS_SET, 1ULL << i));
	ASSERT_EQ(0, msr_read(fd, MSR_AMD_STATUS, &v));
	EXPECT_NE(0ULL, v & 1ULL << i);
	EXPECT_EQ(EIO, msr_write(fd, MSR_AMD_STATUS, 0));
	/* the clear ignores bits that are not there: Linux clears with ~0 */
	ASSERT_EQ(0, msr_write(fd, MSR_AMD_STATUS_CLR, 1ULL << i | 1ULL << 40));
	ASSERT_EQ(0, msr_read(fd, MSR_AMD_STATUS, &v));
	EXPECT_EQ(0ULL, v & 1ULL << i);
out:
	close(fd);
	perfev_unpin(&orig);
}

TEST_HARNESS_MAIN
