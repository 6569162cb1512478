// SPDX-License-Identifier: GPL-2.0
/*
 * The real perf tool (Debian's linux-perf in the guest) on the hardware
 * PMU: perf stat of instructions and cycles, of a group, of a group on a
 * command that forks and starts threads, of raw event codes, perf
 * record + perf report, and perf record -j any_call,u + perf script's
 * branch stacks (POWER10: calls into a known function, no kernel entry).
 *
 * The workload is this binary itself started as "perf_tool --spin N": a
 * loop of exactly two user instructions per iteration (powerpc: addi +
 * bdnz; x86: dec + jnz), so the difference between the counts of two runs
 * of different N is known.  Bounds: at least 90 % of the expected
 * difference, at most 130 % (exact counts are hw.c's and ppc_pmu.c's
 * business).  QEMU's POWER PMU ignores MMCR2, so ":u"
 * counts there also include the kernel's work during the run (now and
 * then millions of instructions): each count is the lowest of three runs.
 *
 * SKIP without /usr/bin/perf or without a hardware PMU.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define SPIN_SHORT	4000000UL
#define SPIN_LONG	12000000UL
#define PERF		"/usr/bin/perf"
#define OUT		"/tmp/perf_tool.out"
#define DATA		"/tmp/perf_tool.data"

static __attribute__((noinline)) void perf_tool_spin(unsigned long n)
{
	if (!n)
		return;
#if defined(__powerpc64__)
	asm volatile("mtctr %0\n"
		     "1:	addi 9,9,1\n"
		     "	bdnz 1b\n" : : "r" (n) : "ctr", "r9", "memory");
#elif defined(__x86_64__)
	asm volatile("1:	dec %0\n"
		     "	jnz 1b\n" : "+r" (n) : : "cc");
#endif
}

static void *perf_tool_spin_thread(void *arg)
{
	perf_tool_spin((unsigned long)arg);
	return NULL;
}

/*
 * "perf_tool --fork K N": spin N here and in K forked children, each of
 * which also spins N in a thread of its own (what "make" and its compilers
 * do to an inherited group: fork, clone, exit).
 */
static void perf_tool_fork(int k, unsigned long n)
{
	pthread_t t;
	int i, status;

	for (i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			exit(2);
		if (!pid) {
			if (pthread_create(&t, NULL, perf_tool_spin_thread, (void *)n))
				_exit(3);
			perf_tool_spin(n);
			_exit(pthread_join(t, NULL) ? 4 : 0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			exit(5);
	}
	perf_tool_spin(n);
}

/* A call target for the branch-stack record: the loop calls it N times. */
static __attribute__((noinline)) void perf_tool_callee(void)
{
	asm volatile("" ::: "memory");
}

static __attribute__((noinline)) void perf_tool_calls(unsigned long n)
{
	while (n--)
		perf_tool_callee();
}

/*
 * "perf_tool --spin N", "perf_tool --fork K N", "perf_tool --calls N": be
 * the workload, not the test.
 */
static void __attribute__((constructor)) perf_tool_workload(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--spin")) {
		perf_tool_spin(strtoul(argv[2], NULL, 0));
		exit(0);
	}
	if (argc == 3 && !strcmp(argv[1], "--calls")) {
		perf_tool_calls(strtoul(argv[2], NULL, 0));
		exit(0);
	}
	if (argc == 4 && !strcmp(argv[1], "--fork")) {
		perf_tool_fork(atoi(argv[2]), strtoul(argv[3], NULL, 0));
		exit(0);
	}
}

static char self_exe[256];

#define REQUIRE_PERF()								\
	do {									\
		if (access(PERF, X_OK))						\
			SKIP(return, "no %s in this guest", PERF);		\
		if (!perfev_have_hw())						\
			SKIP(return, "no hardware PMU");			\
		if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) <= 0)	\
			SKIP(return, "cannot find this binary");		\
	} while (0)

/* Run a shell command line; its exit status, -1 if it died. */
static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * perf stat -x, output (OUT): the count of the @nth event (0 = first, in
 * command-line order) and its "percent running" field; -1 if the event
 * was not counted ("<not counted>", "<not supported>") or is missing.
 * Fields: value,unit,event,run time,percent,...
 */
static long long stat_count(int nth, double *running)
{
	char line[512], *f[8], *p;
	long long v = -1;
	FILE *fp = fopen(OUT, "r");
	int n;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (line[0] == '#' || line[0] == '\n' || nth--)
			continue;
		if (line[0] < '0' || line[0] > '9')
			break;
		/* split at every comma, keeping empty fields */
		for (n = 0, p = line; p && n < 8; n++) {
			f[n] = p;
			p = strchr(p, ',');
			if (p)
				*p++ = '\0';
		}
		v = atoll(f[0]);
		if (running && n >= 5)
			*running = atof(f[4]);
		break;
	}
	fclose(fp);
	return v;
}

static void expect_spin_difference(struct __test_metadata *_metadata,
				   long long short_run, long long long_run)
{
	double expect = 2.0 * (SPIN_LONG - SPIN_SHORT);
	double diff = (double)(long_run - short_run);

	ASSERT_GT(short_run, 0);
	ASSERT_GT(long_run, 0);
	EXPECT_GE(diff, 0.90 * expect)
		TH_LOG("%lld - %lld: expected about %.0f", long_run, short_run, expect);
	EXPECT_LE(diff, 1.30 * expect)
		TH_LOG("%lld - %lld: expected about %.0f", long_run, short_run, expect);
}

#define TRIES	3

/*
 * The tests that run perf stat TRIES times for each of two spins: twelve
 * perf runs take longer than the harness's default 30 s on a debug kernel
 * (KASAN, lockdep) under TCG.
 */
FIXTURE(repeated) {};
FIXTURE_SETUP(repeated) {}
FIXTURE_TEARDOWN(repeated) {}
#define REPEATED_TIMEOUT	300

/* The lowest count of the @nth event over TRIES runs of perf stat @events. */
static long long lowest_count(const char *events, unsigned long spin, int nth)
{
	long long best = -1, v;
	int i;

	for (i = 0; i < TRIES; i++) {
		if (run(PERF " stat -x, -o " OUT " %s -- %s --spin %lu",
			events, self_exe, spin))
			return -1;
		v = stat_count(nth, NULL);
		if (v < 0)
			return -1;
		if (best < 0 || v < best)
			best = v;
	}
	return best;
}

TEST_F_TIMEOUT(repeated, stat_instructions_and_cycles, REPEATED_TIMEOUT)
{
	long long ins[2], cyc[2];
	unsigned long n[2] = { SPIN_SHORT, SPIN_LONG };
	int i;

	REQUIRE_PERF();
	for (i = 0; i < 2; i++) {
		ins[i] = lowest_count("-e instructions:u,cycles:u", n[i], 0);
		cyc[i] = stat_count(1, NULL);
		ASSERT_GT(cyc[i], 0);
	}
	/* (QEMU's POWER cycles are virtual-clock time: only "they count") */
	expect_spin_difference(_metadata, ins[0], ins[1]);
}

TEST(stat_group_counts_together)
{
	double run_ins = 0, run_cyc = 0;
	long long ins, cyc;

	REQUIRE_PERF();
	ASSERT_EQ(run(PERF " stat -x, -o " OUT " -e '{instructions:u,cycles:u}' -- %s --spin %lu",
		      self_exe, SPIN_SHORT), 0);
	ins = stat_count(0, &run_ins);
	cyc = stat_count(1, &run_cyc);
	EXPECT_GE(ins, (long long)(2 * SPIN_SHORT));
	EXPECT_GT(cyc, 0);
	/* a group that fits runs all the time: no multiplexing */
	EXPECT_EQ(run_ins, 100.0);
	EXPECT_EQ(run_cyc, 100.0);
}

/*
 * perf stat of a group on a command that forks and starts threads (perf
 * stat inherits by default): once a fork deadlock in our core.  Three
 * children with a thread each: seven spins of SPIN_SHORT in all.
 */
TEST(stat_group_of_forking_command)
{
	double run_ins = 0, run_cyc = 0;
	long long ins, cyc, spins = 7 * 2 * SPIN_SHORT;

	REQUIRE_PERF();
	ASSERT_EQ(run(PERF " stat -x, -o " OUT " -e '{cycles:u,instructions:u}' -- %s --fork 3 %lu",
		      self_exe, SPIN_SHORT), 0);
	cyc = stat_count(0, &run_cyc);
	ins = stat_count(1, &run_ins);
	EXPECT_GT(cyc, 0);
	EXPECT_GE(ins, (long long)(0.9 * spins)) TH_LOG("%lld instructions", ins);
	EXPECT_LE(ins, (long long)(1.3 * spins)) TH_LOG("%lld instructions", ins);
	EXPECT_EQ(run_ins, 100.0);
	EXPECT_EQ(run_cyc, 100.0);
}

#if defined(__powerpc64__)
/* PM_INST_CMPL on any PMC, and PM_RUN_INST_CMPL's PMC5 twin 0x500fa */
#define RAW_INS		"r2"
#define RAW_INS_PMU	"cpu/event=0x500fa/"
#else
/* INST_RETIRED.ANY_P (event 0xc0, umask 0) */
#define RAW_INS		"r00c0"
#define RAW_INS_PMU	"cpu/event=0xc0,umask=0x0/"
#endif

TEST_F_TIMEOUT(repeated, stat_raw_codes_count_instructions, REPEATED_TIMEOUT)
{
	long long raw[2], pmu[2];
	unsigned long n[2] = { SPIN_SHORT, SPIN_LONG };
	int i;

	REQUIRE_PERF();
	for (i = 0; i < 2; i++) {
		raw[i] = lowest_count("-e " RAW_INS ":u", n[i], 0);
		pmu[i] = lowest_count("-e " RAW_INS_PMU "u", n[i], 0);
	}
	expect_spin_difference(_metadata, raw[0], raw[1]);
	expect_spin_difference(_metadata, pmu[0], pmu[1]);
}

/*
 * Is this perf report line (--sort sym) the spin loop?  By name, or, where
 * the sample's mode is wrong so perf looks for a kernel symbol (QEMU's
 * POWER PMU never sets SIER[SIPR]: user samples look like kernel ones, on
 * 6.1's driver as on ours), by address: the binary is static, so the
 * workload's loop is at the same address as ours.
 */
static bool is_spin_line(const char *line)
{
	unsigned long at = (unsigned long)perf_tool_spin, addr;
	const char *p = strstr(line, "] 0x");

	if (strstr(line, "perf_tool_spin"))
		return true;
	if (!p)
		return false;
	addr = strtoul(p + 2, NULL, 16);
	return addr >= at && addr < at + 64;
}

/*
 * perf record -e instructions:u, then perf report: samples, one symbol.
 * Under TCG a PMI's time is host time: a preempted vCPU makes one look
 * slow and the kernel lowers perf_event_max_sample_rate until a tick's
 * samples are throttled.  That heuristic is not under test here: it is
 * switched off for the record (perfev_sample_limits_fix()).
 */
TEST(record_and_report_instructions)
{
	struct perfev_sample_limits limits;
	char line[512];
	double top = 0;
	long samples = -1;
	int rc;
	FILE *fp;

	REQUIRE_PERF();
	if (perfev_sample_limits_fix(&limits))
		SKIP(return, "cannot set the sample-rate sysctls (not root?)");
	rc = run(PERF " record -q -e instructions:u -c 100003 -o " DATA " -- %s --spin %lu",
		 self_exe, SPIN_LONG);
	perfev_sample_limits_restore(&limits);
	ASSERT_EQ(rc, 0);
	ASSERT_EQ(run(PERF " report --stdio -i " DATA " --sort sym > " OUT " 2>/dev/null"), 0);

	fp = fopen(OUT, "r");
	ASSERT_NE(fp, NULL);
	while (fgets(line, sizeof(line), fp)) {
		char *p = strstr(line, "of event");

		/* "# Samples: 241  of event 'instructions:u'" */
		if (p && !strncmp(line, "# Samples:", 10))
			samples = atol(line + 10);
		if (line[0] != '#' && is_spin_line(line))
			top += atof(line);
	}
	fclose(fp);
	/* 24M loop instructions / 100003: about 240, plus the startup's */
	EXPECT_GE(samples, 230);
	EXPECT_LE(samples, 400);
	EXPECT_GE(top, 80.0) TH_LOG("perf_tool_spin has %.2f%% of the samples", top);
}

/*
 * perf record -j any_call,u (a branch stack of user calls), then perf
 * script's brstack: most samples hold calls into perf_tool_callee, at
 * least two entries in three are such calls (the filter: the loop's
 * returns and branches are not recorded), and no entry has a kernel
 * address.  QEMU keeps a BHRB for POWER10 only (user
 * branches); elsewhere perf record -j fails or the PMU is another model:
 * SKIP.
 */
TEST(record_branch_stack_of_user_calls)
{
	unsigned long callee = (unsigned long)perf_tool_callee;
	long samples = 0, with_call = 0, empty = 0, kernel = 0;
	long entries = 0, to_callee = 0;
	char model[32] = "", line[8192];
	FILE *fp;
	int rc;

	REQUIRE_PERF();
	fp = fopen("/sys/bus/event_source/devices/cpu/caps/pmu_name", "r");
	if (fp) {
		if (!fgets(model, sizeof(model), fp))
			model[0] = 0;
		fclose(fp);
	}
	if (strncmp(model, "POWER10", 7))
		SKIP(return, "QEMU keeps a BHRB for POWER10 only (PMU '%s')", model);
	rc = run(PERF " record -q -e cycles:u -j any_call,u -c 100003 -o " DATA
		 " -- %s --calls %lu", self_exe, SPIN_SHORT);
	ASSERT_EQ(rc, 0);
	ASSERT_EQ(run(PERF " script -i " DATA " -F brstack > " OUT " 2>/dev/null"), 0);

	fp = fopen(OUT, "r");
	ASSERT_NE(fp, NULL);
	while (fgets(line, sizeof(line), fp)) {
		bool call = false;
		char *p = line;

		samples++;
		empty += !strstr(line, "0x");
		/* entries "0xFROM/0xTO/P/-/-/0" separated by blanks */
		while ((p = strstr(p, "0x"))) {
			unsigned long from = strtoul(p, &p, 16), to = 0;

			if (*p == '/' && !strncmp(p + 1, "0x", 2))
				to = strtoul(p + 1, &p, 16);
			entries++;
			if (from >= 0xc000000000000000UL || to >= 0xc000000000000000UL)
				kernel++;
			if (to >= callee && to < callee + 16) {
				call = true;
				to_callee++;
			}
		}
		with_call += call;
	}
	fclose(fp);
	TH_LOG("%ld samples: %ld with a call into perf_tool_callee, %ld without entries",
	       samples, with_call, empty);
	TH_LOG("%ld entries: %ld calls into perf_tool_callee, %ld kernel",
	       entries, to_callee, kernel);
	EXPECT_GE(samples, 10);
	/* the startup and exit, and a BHRB cleared at a switch, hold none */
	EXPECT_GE(with_call * 4, samples);
	/* any_call: no returns or loop branches (those would be 2 in 3) */
	EXPECT_GE(to_callee * 3, entries * 2);
	EXPECT_EQ(kernel, 0);
}

TEST_HARNESS_MAIN
