// SPDX-License-Identifier: GPL-2.0
/*
 * A short, deterministic run of perf_fuzz (fuzzer/, installed in the guest
 * as /usr/bin/perf_fuzz): fixed seeds, a fixed number of operations per
 * worker, three workers (one unprivileged, one in a perf_event cgroup, one
 * taking CPU 1 offline and online), one round each.  No function-trace
 * events here: turning the function tracer on patches kernel text, which
 * waits for every CPU, and under TCG a CPU in a storm of PMU interrupts from
 * the fuzzer's sampling groups answers late enough for the soft-lockup
 * watchdog (seen twice in five runs); make fuzz keeps them.
 *
 * A case fails when the fuzzer reports an oracle failure (a kernel-internal
 * errno reaching user space, an invalid attr accepted, a read of the wrong
 * size), a worker crashes, a task is still there after SIGKILL (stuck in the
 * kernel), or the kernel no longer counts afterwards.  Kernel splats during
 * the run fail the whole `make check` through the console scan.  The long,
 * random runs are `make fuzz`.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define FUZZER		"/usr/bin/perf_fuzz"
#define OPS_PER_WORKER	"700"
#define WORKERS		3

#define MAX_SAMPLE_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define CPU_TIME_MAX	"/proc/sys/kernel/perf_cpu_time_max_percent"

FIXTURE(fuzz) {
	char dir[64];
	char out[96];
	long long max_rate, cpu_time;
};

FIXTURE_SETUP(fuzz)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/fuzz_smoke.%d", getpid());
	snprintf(self->out, sizeof(self->out), "%s/output", self->dir);
	mkdir(self->dir, 0777);
	chmod(self->dir, 0777);	/* the unprivileged worker logs here too */
	self->max_rate = -1;
	self->cpu_time = -1;
	perfev_read_int(MAX_SAMPLE_RATE, &self->max_rate);
	perfev_read_int(CPU_TIME_MAX, &self->cpu_time);
}

/*
 * The kernel lowers perf_event_max_sample_rate when samples take long (the
 * fuzzer's storms of sampling groups with callchains and stack dumps take
 * hundreds of us a sample under TCG: 250 Hz was left): the sampling tests
 * after this one get the limits they had.
 */
FIXTURE_TEARDOWN(fuzz)
{
	if (self->cpu_time >= 0)
		perfev_write_int(CPU_TIME_MAX, self->cpu_time);
	if (self->max_rate > 0)
		perfev_write_int(MAX_SAMPLE_RATE, self->max_rate);
}

/* Print the fuzzer's output into the TAP log (as diagnostics). */
static void show_output(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "fuzz: reached", 13))
			printf("# %s", line);
	if (f)
		fclose(f);
	fflush(stdout);
}

static unsigned long summary_iterations(const char *path)
{
	unsigned long it = 0;
	char line[1024], *p;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, "fuzz: summary ");
		p = p ? strstr(p, " iterations=") : NULL;
		if (p)
			it = strtoul(p + 12, NULL, 10);
	}
	if (f)
		fclose(f);
	return it;
}

static int run_fuzzer(const char *seed, const char *dir, const char *out)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(FUZZER, "perf_fuzz", "-s", seed, "-k", "1", "-n", OPS_PER_WORKER,
		      "-w", "3", "-r", "150", "-g", "120", "-d", dir, "-x", "function",
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* After the run: every CPU online and a software counter still counts. */
static int kernel_still_counts(void)
{
	__u64 count = 0;
	int fd, cpu;

	for (cpu = 1; cpu < perfev_nr_cpus(); cpu++) {
		char path[64];
		long long online = 1;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (!perfev_read_int(path, &online) && online != 1)
			return -1;
	}
	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	if (fd < 0)
		return -1;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	perfev_burn(2000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (perfev_read_count(fd, &count) || !count) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void smoke(struct __test_metadata *_metadata, const char *seed,
		  const char *dir, const char *out)
{
	int rc;

	if (access(FUZZER, X_OK))
		SKIP(return, FUZZER " is not installed");
	rc = run_fuzzer(seed, dir, out);
	if (rc)
		show_output(out);
	ASSERT_EQ(0, rc) TH_LOG("perf_fuzz -s %s exited %d (1: oracle or crash, 2: hung task)",
				seed, rc);
	/*
	 * A slow (debug) kernel may reach the 150 s round limit first: the
	 * workers are then stopped, which is no failure, but some must run.
	 */
	EXPECT_GE(summary_iterations(out), (unsigned long)WORKERS)
		TH_LOG("the fuzzer ran no operation");
	EXPECT_EQ(0, kernel_still_counts())
		TH_LOG("after the run a CPU stayed offline or task-clock no longer counts");
}

TEST_F_TIMEOUT(fuzz, seed_2, 900)
{
	smoke(_metadata, "2", self->dir, self->out);
}

TEST_F_TIMEOUT(fuzz, seed_3, 900)
{
	smoke(_metadata, "3", self->dir, self->out);
}

TEST_F_TIMEOUT(fuzz, seed_4, 900)
{
	smoke(_metadata, "4", self->dir, self->out);
}

TEST_HARNESS_MAIN
