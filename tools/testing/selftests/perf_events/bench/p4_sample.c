// SPDX-License-Identifier: GPL-2.0
/*
 * P4: sampling throughput, the cost of one sample from the overflow to
 * the ring buffer.  A fixed workload runs twice per round: with the event
 * counting only, then with the same event sampling into a ring buffer the
 * task drains after every chunk.  Cost per sample = (sampling time -
 * counting time) / samples written.  Events:
 *   sw   page-faults, sample_period 1; workload: fault 64 fresh pages;
 *   tpmu the test PMU perfev_test (x86_64), config 0x01, period 10 us of
 *        counter time; its overflow is an hrtimer; workload: a busy loop;
 *   hw   the arch PMU (POWER, or the emulated x86 PMU) instructions,
 *        period 20000, user only;
 *        workload: a busy loop;
 * each without and with callchains (-cc: PERF_SAMPLE_CALLCHAIN).
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

#define FAULT_PAGES	64

static volatile unsigned long sink;

static __attribute__((noinline)) void fault_chunk(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, FAULT_PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		die("mmap");
	for (i = 0; i < FAULT_PAGES; i++)
		p[i * page] = 1;
	munmap(p, FAULT_PAGES * page);
}

static __attribute__((noinline)) void busy_chunk(void)
{
	unsigned long i;

	for (i = 0; i < 20000; i++)
		sink += i;
}

/* One pass of the workload; drains @r after each chunk when given. */
static uint64_t pass(void (*chunk)(void), long chunks, struct ring *r, long *samples, long *lost)
{
	uint64_t t0 = now_ns();
	long i;

	for (i = 0; i < chunks; i++) {
		chunk();
		if (r)
			*samples += ring_drain(r, lost);
	}
	return now_ns() - t0;
}

static void run(const char *name, __u32 type, __u64 config, __u64 period, int user_only,
		int callchain, void (*chunk)(void), long chunks)
{
	struct perf_event_attr attr;
	int cfd, sfd, r;
	struct ring ring;

	attr_init(&attr, type, config);
	attr.exclude_hv = 1;
	attr.exclude_kernel = user_only;
	cfd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (cfd < 0)
		die("%s: counting event", name);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_PERIOD;
	if (callchain)
		attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr.disabled = 1;
	sfd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (sfd < 0)
		die("%s: sampling event", name);
	if (ring_map(&ring, sfd, 128))
		die("%s: mmap", name);
	ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0);
	for (r = -1; r < bench.rounds; r++) {
		long samples = 0, lost = 0;
		uint64_t tc, ts;

		ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0);
		tc = pass(chunk, chunks, NULL, NULL, NULL);
		ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0);
		if (r >= 0)
			region_start();
		ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0);
		ts = pass(chunk, chunks, &ring, &samples, &lost);
		ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0);
		samples += ring_drain(&ring, &lost);
		if (r >= 0)
			region_end(name, samples);
		if (!samples)
			die("%s: no samples", name);
		if (lost)
			fprintf(stderr, "bench: %s: %ld samples lost\n", name, lost);
		if (r >= 0)
			report(name, r, (double)((int64_t)(ts - tc)) / samples, "ns/sample");
	}
	ring_unmap(&ring);
	close(sfd);
	close(cfd);
}

int main(int argc, char **argv)
{
	char name[48];
	int cc, type;

	bench_parse(argc, argv);
	pin_cpu(0);
	for (cc = 0; cc < 2; cc++) {
		snprintf(name, sizeof(name), "P4.sample-sw-pagefault%s", cc ? "-cc" : "");
		if (want(name))
			run(name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1, 0, cc,
			    fault_chunk, iters(100));
		type = pmu_type("perfev_test");
		snprintf(name, sizeof(name), "P4.sample-tpmu%s", cc ? "-cc" : "");
		if (type >= 0 && want(name))
			run(name, type, 0x01, 10000, 0, cc, busy_chunk, iters(400));
		snprintf(name, sizeof(name), "P4.sample-hw-insns%s", cc ? "-cc" : "");
		if (hw_available() && want(name))
			run(name, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 20000, 1, cc,
			    busy_chunk, iters(400));
	}
	return 0;
}
