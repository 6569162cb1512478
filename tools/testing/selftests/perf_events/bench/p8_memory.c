// SPDX-License-Identifier: GPL-2.0
/*
 * P8: kernel memory per event and per context, from the Slab line of
 * /proc/meminfo.
 *   P8.mem-event       10,000 disabled task-clock events on one task (one
 *                      context), slab bytes per event;
 *   P8.mem-event+ctx   one such event on each of 1,000 sleeping tasks (1,000
 *                      task contexts), slab bytes per event and context.
 * Each round opens its 10,000 events from a fresh child, so that no
 * context grows beyond 10,000 events, and nothing is freed until the end:
 * the allocator would fill the holes a freed round leaves before it takes
 * new pages.  The deltas include what every open event costs outside the
 * core (struct file), the same on both cores, so only the ratio of the two
 * cores is meant.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define NR_EVENTS	10000
#define NR_TASKS	1000

static long slab_kb(void)
{
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");
	long kb = -1;

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		sscanf(line, "Slab: %ld", &kb);
	fclose(f);
	return kb;
}

/* Bytes of slab per event opened by @open_one, @n times. */
static double slab_per(int n, int (*open_one)(int i, void *arg), void *arg)
{
	long before, after;
	int i;

	/* let RCU-freed objects of earlier work go first */
	usleep(20000);
	before = slab_kb();
	for (i = 0; i < n; i++) {
		if (open_one(i, arg) < 0)
			die("event %d of %d", i, n);
	}
	after = slab_kb();
	return (after - before) * 1024.0 / n;
}

static struct perf_event_attr attr;

static int open_on_task(int i, void *arg)
{
	pid_t *kids = arg;

	return perf_open(&attr, kids[i], -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int open_on_self(int i, void *arg)
{
	return perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* A child opens NR_EVENTS events on itself and keeps them. */
static pid_t events_in_child(double *per_event)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		*per_event = slab_per(NR_EVENTS, open_on_self, NULL);
		if (write(p[1], per_event, sizeof(*per_event)) != sizeof(*per_event))
			_exit(1);
		for (;;)
			pause();
	}
	if (read(p[0], per_event, sizeof(*per_event)) != sizeof(*per_event))
		die("child %d", pid);
	close(p[0]);
	close(p[1]);
	return pid;
}

int main(int argc, char **argv)
{
	int r, i, nr_rounds;
	double ctx[16], ev[16];
	pid_t holders[16];
	pid_t *kids;

	bench_parse(argc, argv);
	nr_rounds = bench.rounds + 1;
	if (nr_rounds > 16)
		nr_rounds = 16;
	raise_nofile(NR_EVENTS + (long)nr_rounds * NR_TASKS + 1024);
	attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	kids = calloc((size_t)nr_rounds * NR_TASKS, sizeof(*kids));
	for (i = 0; i < nr_rounds * NR_TASKS; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			die("fork");
		if (!kids[i]) {
			for (;;)
				pause();
		}
	}
	/* round 0 is a warm-up */
	for (r = 0; r < nr_rounds; r++)
		ctx[r] = slab_per(NR_TASKS, open_on_task, kids + r * NR_TASKS);
	for (r = 0; r < nr_rounds; r++)
		holders[r] = events_in_child(&ev[r]);
	for (r = 1; r < nr_rounds; r++) {
		report("P8.mem-event", r - 1, ev[r], "B/event");
		report("P8.mem-event+ctx", r - 1, ctx[r], "B/ctx");
	}
	for (r = 0; r < nr_rounds; r++) {
		kill(holders[r], SIGKILL);
		waitpid(holders[r], NULL, 0);
	}
	for (i = 0; i < nr_rounds * NR_TASKS; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	return 0;
}
