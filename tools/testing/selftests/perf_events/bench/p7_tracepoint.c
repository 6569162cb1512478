// SPDX-License-Identifier: GPL-2.0
/*
 * P7: a tracepoint event on a hot tracepoint, syscalls:sys_enter_getppid.
 *   P7.tp-base      getppid() without any event (reference);
 *   P7.tp-count     getppid() with the tracepoint counting on self;
 *   P7.tp-sample    cost per sample: sample_period 1 (IP, TID, TIME,
 *                   RAW) into a drained ring buffer, minus the time of
 *                   the same loop without any event: the whole cost of a
 *                   sampled hit (a core whose counting path is cheaper
 *                   must not look slower at sampling for it).
 * ns/op is per getppid() call.
 */
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

#define CHUNK	100

static uint64_t loop(long n, struct ring *r, long *samples)
{
	uint64_t t0 = now_ns();
	long i, j;

	for (i = 0; i < n; i += CHUNK) {
		for (j = 0; j < CHUNK; j++)
			syscall(SYS_getppid);
		if (r)
			*samples += ring_drain(r, NULL);
	}
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long n = iters(4000) / CHUNK * CHUNK;
	int id, cfd, sfd, r;
	struct ring ring;

	bench_parse(argc, argv);
	pin_cpu(0);
	id = tracepoint_id("syscalls:sys_enter_getppid");
	if (id < 0)
		die("no tracepoint syscalls:sys_enter_getppid");
	attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.disabled = 1;
	cfd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	sfd = perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (cfd < 0 || sfd < 0)
		die("tracepoint events");
	if (ring_map(&ring, sfd, 128))
		die("mmap");
	for (r = -1; r < bench.rounds; r++) {
		uint64_t tb, tc, ts;
		long samples = 0;

		tb = loop(n, NULL, NULL);
		if (r >= 0)
			region_start();
		ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0);
		tc = loop(n, NULL, NULL);
		ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0);
		if (r >= 0) {
			region_end("P7.tp-count", n);
			region_start();
		}
		ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0);
		ts = loop(n, &ring, &samples);
		ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0);
		samples += ring_drain(&ring, NULL);
		if (r < 0)
			continue;
		region_end("P7.tp-sample", samples);
		if (samples < n)
			die("%ld samples for %ld calls", samples, n);
		report("P7.tp-base", r, (double)tb / n, "ns/op");
		report("P7.tp-count", r, (double)tc / n, "ns/op");
		report("P7.tp-sample", r, (double)((int64_t)(ts - tb)) / samples, "ns/sample");
	}
	ring_unmap(&ring);
	close(sfd);
	close(cfd);
	return 0;
}
