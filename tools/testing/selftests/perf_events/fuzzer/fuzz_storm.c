// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: what programs do with inherited events.  The bugs users hit
 * live where tasks holding inherited events and groups fork, start
 * threads, exec and exit, so two kinds of operation build VALID inherited
 * groups (the kernel paths are reached, not EINVAL) and run tasks around
 * them:
 *
 *   GROUP  slot=first slot a0=open flags (bit 0: CLOEXEC) a1=enable (0 as
 *          created, 1 ioctl(ENABLE, GROUP), 2 prctl) a2=ring (0: none, n:
 *          map the leader with 2^(n-1) data pages when the group is per
 *          CPU, its AUX area when it has one, SET_OUTPUT of each member to
 *          the one before) blob=struct fuzz_group
 *   STORM  a0=plan (STORM_* below) a1=the storm's seed a2=budget in ms
 *          blob=struct fuzz_group
 *
 * struct fuzz_group is a compact description: 1-4 members (leader first)
 * of one PMU (hardware, perfev_test, software, tracepoints of a task's
 * life, breakpoints on the fuzzer's variable or function, perfev_aux,
 * perfev_aux2) or mixed with software events, inherit (almost always),
 * with inherit_stat, inherit_thread, remove_on_exec, enable_on_exec,
 * sigtrap, sampling periods and side-band records, per task on any CPU or
 * on one.  The attrs are built from it when the operation runs.
 *
 * GROUP leaves the group in the worker's slots: later FORK, THREAD, STORM
 * (fork of a task holding an inherited hardware group), READ, IOCTL,
 * CLOSE and MMAP operations find it.
 *
 * STORM forks a storm root, in a process group of its own, which opens
 * the group, maps its ring (per-CPU groups: the leader's data and AUX
 * areas, SET_OUTPUT chains through the members and an extra inherited
 * event), may route SIGIO to the storm's process group (O_ASYNC) and add a
 * signal:signal_generate sampler that sends its SIGIO to itself, enables
 * it before or between the thread rounds, then:
 *   - forks 0-4 children, which fork grandchildren (two levels, two each),
 *     start threads (joined or left running when they exit), read the
 *     group, ioctl it, close its fds, map its ring, exec the fuzzer
 *     binary (/proc/self/exe --storm-exec: remove_on_exec, enable_on_exec
 *     and the fds that survive exec), signal the process group, and exit
 *     at random points;
 *   - runs 1-4 rounds of 0-8 threads that read the group, map and unmap
 *     the ring and AUX area, fork, open events of their own, exec (rarely:
 *     the other threads die in exec), and are joined;
 *   - worker 0 (root) may take a CPU offline and online meanwhile;
 *   - stops and continues a child, reads the group (its size is an
 *     oracle), closes some members, reaps its children within the
 *     budget, reads again, closes everything and exits.
 * Every decision in the storm is drawn from a generator seeded with
 * fuzz_mix(a1, the task's role), so the log line determines the storm up
 * to scheduling.  Bounds: at most 4 + 2 children of the root, 2 each
 * below, 8 threads at once in the root and 3 in the others; every storm
 * task has an alarm of STORM_SECONDS.  The worker goes on with other
 * operations while a storm runs (at most FUZZ_STORMS at once: a new one
 * waits for the oldest), looks at its storms before every operation and
 * kills a storm's process group once its root exited or STORM_SECONDS + 2
 * after it started; the supervisor kills what is left of storms (stopped
 * tasks too) at the end of the round.  A root that is still there 10 s
 * after SIGKILL is stuck in the kernel: it is reported with its threads'
 * kernel stacks, and the supervisor's hung-task check finds it at the end
 * of the round.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fuzz.h"

#define STORM_MEMBERS		4
#define STORM_FDS		(STORM_MEMBERS + 1)	/* and the extra event */
#define STORM_SECONDS		6	/* alarm of every storm task */
#define STORM_DEPTH		2	/* root, children, grandchildren */
#define STORM_ROOT_FORKS	6	/* children of the root, threads' too */
#define STORM_FORKS		2	/* of any other storm process */
#define STORM_THREADS_MAX	8

/* STORM a0 */
#define STORM_CHILDREN(p)	((int)((p) & 7) % 5)
#define STORM_THREADS(p)	((int)((p) >> 3 & 15) % 9)
#define STORM_ROUNDS(p)		(1 + (int)((p) >> 7 & 3))
#define STORM_RING		(1ULL << 9)	/* map, SET_OUTPUT chain */
#define STORM_SIGIO		(1ULL << 10)	/* O_ASYNC to the storm */
#define STORM_HOTPLUG		(1ULL << 11)	/* a CPU offline and back */
#define STORM_EXTRA		(1ULL << 12)	/* an extra inherited event */
#define STORM_LATE_ENABLE	(1ULL << 13)	/* enable after round 1 */
#define STORM_CLOEXEC		(1ULL << 14)
#define STORM_STOP		(1ULL << 15)	/* SIGSTOP/SIGCONT a child */
#define STORM_PAGES(p)		((size_t)1 << ((p) >> 16 & 3))
#define STORM_SIGNAL_LOOP	(1ULL << 18)	/* a signal_generate sampler SIGIOs itself */

/* The attr's flag word (bit numbers of 6.1's struct perf_event_attr). */
#define AF(bit)			(1ULL << (bit))
#define AF_DISABLED		AF(0)
#define AF_INHERIT		AF(1)
#define AF_PINNED		AF(2)
#define AF_EXCL_USER		AF(4)
#define AF_EXCL_KERNEL		AF(5)
#define AF_EXCL_HV		AF(6)
#define AF_FREQ			AF(10)
#define AF_INHERIT_STAT		AF(11)
#define AF_ENABLE_ON_EXEC	AF(12)
#define AF_WRITE_BACKWARD	AF(27)
#define AF_INHERIT_THREAD	AF(35)
#define AF_REMOVE_ON_EXEC	AF(36)
#define AF_SIGTRAP		AF(37)
/*
 * side-band records: mmap comm task sample_id_all mmap2 comm_exec
 * context_switch namespaces
 */
static const unsigned int sideband_bits[] = { 8, 9, 13, 18, 23, 24, 26, 28 };

enum storm_pmu { SP_HW, SP_TEST, SP_SW, SP_TP, SP_BP, SP_AUX, SP_AUX2, SP_NR };

struct fuzz_member {
	uint32_t type;
	uint32_t period;	/* sample_period, or frequency; 0: counting */
	uint64_t config;	/* breakpoint: bp_type | len << 8 | fn << 16 */
	uint64_t flags;		/* the attr's flag word */
	uint64_t sample_type;
	uint64_t read_format;
};

struct fuzz_group {
	uint8_t nr;		/* members, 1..STORM_MEMBERS */
	uint8_t pmu;		/* enum storm_pmu of the group */
	uint16_t unused;
	int32_t cpu;		/* -1: per task on any CPU */
	struct fuzz_member m[STORM_MEMBERS];
};

_Static_assert(sizeof(struct fuzz_group) <= FUZZ_BLOB, "group spec too large");

/* A storm as each of its processes sees it (copied by fork). */
struct storm {
	struct fuzz_worker *w;
	const struct fuzz_op *op;
	struct fuzz_group g;
	uint64_t plan, seed;
	int fd[STORM_FDS];
	uint64_t rf[STORM_FDS];		/* read_format of each */
	size_t ring_pages;		/* data pages of the leader's ring, or 0 */
	bool aux;			/* the leader has an AUX area */
	void *ring, *ring_aux;		/* the root's mapping of them */
	int depth, forks_left;		/* forks_left: shared by a process's threads */
	double deadline;
};

/* A thread's argument, freed by the thread (its creator may be gone). */
struct storm_thread {
	struct storm *st;
	uint64_t role;
};

static long storm_page(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* ------------------------------------------------------- generation */

static enum storm_pmu pick_pmu(struct fuzz_rng *r, const struct fuzz_env *env)
{
	unsigned int weight[SP_NR] = {
		[SP_HW] = env->has_hw ? 30 : 4,
		[SP_TEST] = env->test_type >= 0 ? 22 : 0,
		[SP_SW] = 20,
		[SP_TP] = env->nr_tp || env->nr_life_tp ? 10 : 0,
		[SP_BP] = env->no_breakpoints ? 0 : 10,
		[SP_AUX] = env->aux_type >= 0 ? 8 : 0,
		[SP_AUX2] = env->aux2_type >= 0 ? 4 : 0,
	};
	unsigned int total = 0, pick, p;

	for (p = 0; p < SP_NR; p++)
		total += weight[p];
	pick = fuzz_below(r, total);
	for (p = 0; p < SP_NR; p++) {
		if (pick < weight[p])
			return p;
		pick -= weight[p];
	}
	return SP_SW;
}

/* Software, tracepoint and breakpoint events share the software context. */
static bool software_like(enum storm_pmu p)
{
	return p == SP_SW || p == SP_TP || p == SP_BP;
}

/* A software, tracepoint or breakpoint event, as the guest has them. */
static enum storm_pmu any_software(struct fuzz_rng *r, const struct fuzz_env *env)
{
	unsigned int dice = fuzz_below(r, 3);

	if (dice == 1 && (env->nr_tp || env->nr_life_tp))
		return SP_TP;
	if (dice == 2 && !env->no_breakpoints)
		return SP_BP;
	return SP_SW;
}

/* The PMU of member @i of a group of @pmu. */
static enum storm_pmu member_pmu(struct fuzz_rng *r, const struct fuzz_env *env,
				 enum storm_pmu pmu, int i)
{
	unsigned int dice = fuzz_below(r, 100);

	if (i == 0)	/* a software leader of hardware siblings moves */
		return dice < 12 && !software_like(pmu) ? SP_SW : pmu;
	if (pmu == SP_AUX || pmu == SP_AUX2)
		return dice < 10 ? pmu : SP_SW;
	if (software_like(pmu))
		return dice < 60 ? pmu : any_software(r, env);
	return dice < 65 ? pmu : SP_SW;
}

static uint32_t tp_id(struct fuzz_rng *r, const struct fuzz_env *env)
{
	if (env->nr_life_tp && (!env->nr_tp || fuzz_chance(r, 80)))
		return env->life_tp[fuzz_below(r, env->nr_life_tp)];
	return env->nr_tp ? env->tp_ids[fuzz_below(r, env->nr_tp)] : 0;
}

/* type, config and a plausible period (0 when counting) of @p. */
static void gen_event(struct fuzz_rng *r, const struct fuzz_env *env,
		      enum storm_pmu p, struct fuzz_member *m)
{
	static const uint64_t hw[] = { 0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 9 };
	static const uint64_t test[] = { 1, 2, 3, 0x10, 0x11, 0x30, 1, 2, 0x20 };
	static const uint64_t sw[] = { 0, 1, 1, 2, 3, 3, 4, 5, 9 };
	static const uint64_t bp[] = { HW_BREAKPOINT_W, HW_BREAKPOINT_W,
				       HW_BREAKPOINT_RW, HW_BREAKPOINT_X };
	bool sample = fuzz_chance(r, 40);

	switch (p) {
	case SP_HW:
		m->type = PERF_TYPE_HARDWARE;
		m->config = hw[fuzz_below(r, ARRAY_SIZE(hw))];
		/* TCG: shorter periods are NMI storms that starve other CPUs' IPIs */
		m->period = sample ? 200000 + fuzz_below(r, 2000000) : 0;
		break;
	case SP_TEST:
		m->type = env->test_type;
		/* 0x20 is the test PMU's event that cannot be inherited */
		m->config = test[fuzz_below(r, ARRAY_SIZE(test) - !fuzz_chance(r, 10))];
		m->period = sample ? 20000 + fuzz_below(r, 1000000) : 0;
		break;
	case SP_SW:
		m->type = PERF_TYPE_SOFTWARE;
		m->config = sw[fuzz_below(r, ARRAY_SIZE(sw))];
		if (m->config <= 1)
			m->period = sample ? 50000 + fuzz_below(r, 1000000) : 0;
		else
			m->period = sample ? 1 + fuzz_below(r, 20) : 0;
		break;
	case SP_TP:
		m->type = PERF_TYPE_TRACEPOINT;
		m->config = tp_id(r, env);
		m->period = fuzz_chance(r, 50) ? 1 + fuzz_below(r, 4) : 0;
		break;
	case SP_BP:
		m->type = PERF_TYPE_BREAKPOINT;
		m->config = bp[fuzz_below(r, ARRAY_SIZE(bp))];
		m->config |= (uint64_t)sizeof(long) << 8;
		if (m->config & HW_BREAKPOINT_X)
			m->config |= 1ULL << 16;
		m->period = fuzz_chance(r, 60) ? 1 + fuzz_below(r, 3) : 0;
		break;
	case SP_AUX:
	case SP_AUX2:	/* they only count */
		m->type = p == SP_AUX ? env->aux_type : env->aux2_type;
		m->config = fuzz_below(r, p == SP_AUX ? 4 : 2);
		m->period = 0;
		break;
	default:
		break;
	}
}

/* What a plausible program sets, for a member that may be @leader. */
static uint64_t gen_flags(struct fuzz_rng *r, const struct fuzz_worker *w,
			  enum storm_pmu p, const struct fuzz_member *m, bool leader)
{
	uint64_t f = fuzz_chance(r, 97) ? AF_INHERIT : 0;
	unsigned int i;

	if (leader ? fuzz_chance(r, 50) : fuzz_chance(r, 4))
		f |= AF_DISABLED;
	if (leader && fuzz_chance(r, 5))
		f |= AF_PINNED;
	/* the test PMU has no user/kernel split; nobody may not count the kernel */
	if (p != SP_TEST && (!w->privileged ? fuzz_chance(r, 90) : fuzz_chance(r, 25)))
		f |= AF_EXCL_KERNEL;
	if (fuzz_chance(r, 50))
		f |= AF_EXCL_HV;
	if (p != SP_TEST && fuzz_chance(r, 3))
		f |= AF_EXCL_USER;
	if (fuzz_chance(r, 40))
		f |= AF_INHERIT_STAT;
	if ((f & AF_INHERIT) && fuzz_chance(r, 25))
		f |= AF_INHERIT_THREAD;
	if (fuzz_chance(r, 25))
		f |= AF_REMOVE_ON_EXEC;
	else if (fuzz_chance(r, leader ? 20 : 5))
		f |= AF_ENABLE_ON_EXEC;
	if (m->period && fuzz_chance(r, 20))
		f = (f & ~AF_ENABLE_ON_EXEC) | AF_SIGTRAP | AF_REMOVE_ON_EXEC;
	if (m->period && m->period > 1000 && fuzz_chance(r, 15))
		f |= AF_FREQ;
	if (m->period && fuzz_chance(r, 3))
		f |= AF_WRITE_BACKWARD;
	for (i = 0; leader && i < ARRAY_SIZE(sideband_bits); i++)
		if (fuzz_chance(r, 25))
			f |= AF(sideband_bits[i]);
	return f;
}

static uint64_t gen_sample_type(struct fuzz_rng *r, enum storm_pmu p)
{
	static const uint64_t extra[] = {
		PERF_SAMPLE_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_ADDR,
		PERF_SAMPLE_IDENTIFIER,
	};
	uint64_t t = fuzz_chance(r, 80) ?
		     PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME : 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(extra); i++)
		if (fuzz_chance(r, 20))
			t |= extra[i];
	if (p == SP_TP && fuzz_chance(r, 40))
		t |= PERF_SAMPLE_RAW;
	return t;	/* never PERF_SAMPLE_READ: EINVAL with inherit */
}

static void gen_group(struct fuzz_worker *w, struct fuzz_group *g)
{
	struct fuzz_rng *r = &w->rng;
	const struct fuzz_env *env = w->env;
	unsigned int dice = fuzz_below(r, 100), i;

	memset(g, 0, sizeof(*g));
	g->pmu = pick_pmu(r, env);
	g->nr = dice < 15 ? 1 : dice < 60 ? 2 : dice < 85 ? 3 : 4;
	g->cpu = fuzz_chance(r, 65) ? -1 : (int)fuzz_below(r, env->nr_cpus);
	for (i = 0; i < g->nr; i++) {
		struct fuzz_member *m = &g->m[i];
		enum storm_pmu p = member_pmu(r, env, g->pmu, i);

		gen_event(r, env, p, m);
		m->flags = gen_flags(r, w, p, m, i == 0);
		if (m->flags & AF_FREQ)	/* within perf_event_max_sample_rate */
			m->period = 100 + fuzz_below(r, 4000);
		if (m->period)
			m->sample_type = gen_sample_type(r, p);
		m->read_format = fuzz_below(r, 0x20);
		if (i == 0 && fuzz_chance(r, 60))
			m->read_format |= PERF_FORMAT_GROUP;
	}
}

void fuzz_group_generate(struct fuzz_worker *w, struct fuzz_op *op)
{
	struct fuzz_rng *r = &w->rng;
	struct fuzz_group g;

	gen_group(w, &g);
	memset(op->blob, 0, sizeof(op->blob));
	memcpy(op->blob, &g, sizeof(g));
	op->len = sizeof(g);
	op->slot2 = -1;
	op->a[0] = fuzz_chance(r, 60);
	op->a[1] = fuzz_below(r, 3);
	op->a[2] = g.cpu >= 0 && fuzz_chance(r, 60) ? 1 + fuzz_below(r, 4) : 0;
	op->a[3] = 0;
}

void fuzz_storm_generate(struct fuzz_worker *w, struct fuzz_op *op)
{
	struct fuzz_rng *r = &w->rng;
	uint64_t plan = fuzz_rand(r) & ~STORM_HOTPLUG;

	fuzz_group_generate(w, op);
	op->slot = 0;
	/* hotplug as FOP_CPU: worker 0, as root */
	if (w->id == 0 && w->privileged && fuzz_chance(r, 30))
		plan |= STORM_HOTPLUG;
	op->a[0] = plan & 0xfffff;
	op->a[1] = fuzz_rand(r);
	op->a[2] = 100 + fuzz_below(r, 1400);
}

/* --------------------------------------------------------- the group */

static void member_attr(const struct fuzz_member *m, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = m->type;
	a->config = m->config;
	if (m->type == PERF_TYPE_BREAKPOINT) {
		a->config = 0;
		a->bp_type = m->config & 0xff;
		a->bp_len = m->config >> 8 & 0xff;
		a->bp_addr = m->config >> 16 & 1 ? (uintptr_t)fuzz_bp_function :
			     (uintptr_t)&fuzz_bp_target;
	}
	a->sample_period = m->period;
	a->sample_type = m->sample_type;
	a->read_format = m->read_format;
	a->wakeup_events = 1;
	a->sig_data = 0x5354524d;	/* "STRM" */
	memcpy((char *)a + offsetof(struct perf_event_attr, read_format) +
	       sizeof(a->read_format), &m->flags, sizeof(m->flags));
}

static void count_open(struct fuzz_worker *w, long fd)
{
	__atomic_fetch_add(&w->stats->group_opens, 1, __ATOMIC_RELAXED);
	if (fd >= 0)
		__atomic_fetch_add(&w->stats->group_opens_ok, 1, __ATOMIC_RELAXED);
}

/*
 * Open @g for this task: fds[i] (-1 where refused).  A sibling whose
 * leader was refused is opened on its own.  -1 when an oracle failed.
 */
static int group_open(struct fuzz_worker *w, const struct fuzz_op *op,
		      const struct fuzz_group *g, int *fds, uint64_t *rf,
		      unsigned long flags)
{
	struct perf_event_attr a;
	int i, ret = 0;
	long fd;

	for (i = 0; i < STORM_MEMBERS; i++)
		fds[i] = -1;
	for (i = 0; i < g->nr && i < STORM_MEMBERS; i++) {
		member_attr(&g->m[i], &a);
		fd = syscall(SYS_perf_event_open, &a, 0, g->cpu, i ? fds[0] : -1, flags);
		count_open(w, fd);
		if (fuzz_record(w, FC_GROUP_OPEN, fd, op))
			ret = -1;
		fds[i] = fd;
		rf[i] = a.read_format;
	}
	return ret;
}

/* mmap @fd's ring of @pages data pages, and its AUX area when @aux. */
static void *ring_map(struct fuzz_worker *w, const struct fuzz_op *op, int fd,
		      size_t pages, bool aux, void **aux_map)
{
	size_t len = (pages + 1) * storm_page();
	struct perf_event_mmap_page *pg;
	void *p, *q;

	*aux_map = NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fuzz_record(w, FC_MMAP, p == MAP_FAILED ? -1 : 0, op) || p == MAP_FAILED)
		return NULL;
	if (!aux)
		return p;
	pg = p;
	pg->aux_offset = len;
	pg->aux_size = pages * storm_page();
	q = mmap(NULL, pg->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, len);
	fuzz_record(w, FC_MMAP, q == MAP_FAILED ? -1 : 0, op);
	*aux_map = q == MAP_FAILED ? NULL : q;
	return p;
}

static void ring_unmap(void *p, size_t pages, void *aux)
{
	if (aux)
		munmap(aux, pages * storm_page());
	if (p)
		munmap(p, (pages + 1) * storm_page());
}

/* What a reader of the ring looks at: the user page, the newest data. */
static void ring_touch(void *p, size_t pages)
{
	struct perf_event_mmap_page *pg = p;
	volatile unsigned char sink;
	uint64_t head;

	if (!p)
		return;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	sink = ((unsigned char *)p)[storm_page() + head % (pages * storm_page())];
	(void)sink;
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

static bool is_aux(const struct fuzz_worker *w, const struct fuzz_member *m)
{
	return fuzz_env_aux_pmu(w->env, m->type) != FUZZ_NO_AUX;
}

/* SET_OUTPUT of fds[i] to fds[i - 1]: a chain into the leader's ring. */
static void output_chain(struct fuzz_worker *w, const struct fuzz_op *op,
			 const int *fds, int n)
{
	int i;

	for (i = 1; i < n; i++) {
		if (fds[i] < 0 || fds[i - 1] < 0)
			continue;
		fuzz_record(w, FC_IOC_SET_OUTPUT,
			    ioctl(fds[i], PERF_EVENT_IOC_SET_OUTPUT, fds[i - 1]), op);
	}
}

static void group_enable(struct fuzz_worker *w, const struct fuzz_op *op,
			 int leader, int how)
{
	if (how == 1 && leader >= 0)
		fuzz_record(w, FC_IOC_ENABLE, ioctl(leader, PERF_EVENT_IOC_ENABLE,
						    PERF_IOC_FLAG_GROUP), op);
	else if (how == 2)
		fuzz_record(w, FC_PRCTL, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0), op);
}

/* The leader's ring in its slot, the members chained into it. */
static void group_ring(struct fuzz_worker *w, const struct fuzz_op *op,
		       const struct fuzz_group *g, const int *fds, int first)
{
	struct fuzz_slot *s = &w->slot[first];
	size_t pages = 1 << (op->a[2] - 1);
	void *aux;

	if (fds[0] < 0 || s->fd != fds[0])
		return;
	s->map = ring_map(w, op, fds[0], pages, is_aux(w, &g->m[0]), &aux);
	if (!s->map)
		return;
	s->map_len = (pages + 1) * storm_page();
	s->map_rw = true;
	s->aux = aux;
	s->aux_len = aux ? pages * storm_page() : 0;
	output_chain(w, op, fds, g->nr);
}

int fuzz_group_run(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_group g;
	uint64_t rf[STORM_MEMBERS];
	int fds[STORM_MEMBERS], i, ret;

	memcpy(&g, op->blob, sizeof(g));
	if (g.nr < 1 || g.nr > STORM_MEMBERS)
		return 0;
	ret = group_open(w, op, &g, fds, rf, op->a[0] & 1 ? PERF_FLAG_FD_CLOEXEC : 0);
	for (i = 0; i < g.nr; i++)
		if (fds[i] >= 0)
			fuzz_slot_put(w, (op->slot + i) % FUZZ_SLOTS, fds[i],
				      g.m[i].type, rf[i]);
	group_enable(w, op, fds[0], op->a[1]);
	if (op->a[2] > 0 && op->a[2] <= 8)
		group_ring(w, op, &g, fds, op->slot);
	return ret;
}

/* ------------------------------------------------------ storm tasks */

static void storm_fail(struct storm *st)
{
	__atomic_fetch_add(&st->w->stats->storm_failures[st->w->id % FUZZ_MAX_WORKERS],
			   1, __ATOMIC_RELAXED);
}

static void storm_record(struct storm *st, enum fuzz_call c, long ret)
{
	if (fuzz_record(st->w, c, ret, st->op))
		storm_fail(st);
}

static int storm_fd(struct storm *st, struct fuzz_rng *r)
{
	return st->fd[fuzz_below(r, STORM_FDS)];
}

static void storm_read(struct storm *st, struct fuzz_rng *r)
{
	uint64_t buf[64];
	int fd = storm_fd(st, r);

	if (fd >= 0)
		storm_record(st, FC_READ, read(fd, buf, sizeof(buf)));
}

/* Enable, disable, reset (the group or one event), a new period. */
static void storm_ioctl(struct storm *st, struct fuzz_rng *r)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE, PERF_EVENT_IOC_RESET,
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_PERIOD,
	};
	static const enum fuzz_call calls[] = {
		FC_IOC_ENABLE, FC_IOC_DISABLE, FC_IOC_RESET, FC_IOC_ENABLE,
		FC_IOC_PERIOD,
	};
	unsigned int c = fuzz_below(r, ARRAY_SIZE(cmds));
	uint64_t period = 10000 + fuzz_below(r, 100000);
	unsigned long arg = fuzz_chance(r, 50) ? PERF_IOC_FLAG_GROUP : 0;
	int fd = storm_fd(st, r);

	if (fd < 0)
		return;
	if (cmds[c] == PERF_EVENT_IOC_PERIOD)
		arg = (unsigned long)&period;
	storm_record(st, calls[c], ioctl(fd, cmds[c], arg));
}

/* A mapping of the leader's ring of its own (and AUX area), unmapped. */
static void storm_map(struct storm *st, struct fuzz_rng *r)
{
	size_t pages = st->ring_pages ? st->ring_pages : STORM_PAGES(st->plan);
	void *p, *aux;
	int i;

	if (st->fd[0] < 0 || (st->g.cpu < 0 && fuzz_chance(r, 80)))
		return;
	p = ring_map(st->w, st->op, st->fd[0], pages, st->aux, &aux);
	for (i = 0; p && i < 3; i++) {
		fuzz_work(fuzz_below(r, 8), fuzz_below(r, 300));
		ring_touch(p, pages);
	}
	ring_unmap(p, pages, aux);
}

/* An inherited software event of the task's own, enabled, maybe closed. */
static void storm_own_event(struct storm *st, struct fuzz_rng *r)
{
	struct fuzz_member m = {
		.type = PERF_TYPE_SOFTWARE,
		.config = fuzz_below(r, 6),
		.flags = AF_INHERIT | AF_EXCL_KERNEL |
			 (fuzz_chance(r, 30) ? AF_INHERIT_STAT : 0),
		.read_format = fuzz_below(r, 0x20) & ~PERF_FORMAT_GROUP,
	};
	struct perf_event_attr a;
	uint64_t buf[8];
	long fd;

	member_attr(&m, &a);
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	count_open(st->w, fd);
	storm_record(st, FC_GROUP_OPEN, fd);
	if (fd < 0)
		return;
	fuzz_work(fuzz_below(r, 8), fuzz_below(r, 300));
	storm_record(st, FC_READ, read(fd, buf, sizeof(buf)));
	if (fuzz_chance(r, 70))
		close(fd);	/* or left to exit */
}

/* exec the fuzzer binary, which does a little and exits. */
static void storm_exec(struct storm *st, struct fuzz_rng *r)
{
	char seed[24], fd[12], depth[4];

	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)fuzz_rand(r));
	snprintf(fd, sizeof(fd), "%d", storm_fd(st, r));
	snprintf(depth, sizeof(depth), "%d", 0);
	__atomic_fetch_add(&st->w->stats->calls[FC_EXECVE], 1, __ATOMIC_RELAXED);
	execl("/proc/self/exe", "perf_fuzz", FUZZ_STORM_EXEC, seed, fd, depth,
	      (char *)NULL);
	st->w->stats->outcome[FC_EXECVE][errno < FUZZ_ERRNO_MAX ? errno : 0] = 1;
}

static bool storm_take_fork(struct storm *st)
{
	if (st->depth >= STORM_DEPTH)
		return false;
	return __atomic_sub_fetch(&st->forks_left, 1, __ATOMIC_RELAXED) >= 0;
}

static void storm_process(struct storm *st, uint64_t role) __attribute__((noreturn));

/* A child process in role @role (fork from the process or one of its threads). */
static void storm_fork(struct storm *st, uint64_t role)
{
	pid_t pid;

	if (!storm_take_fork(st))
		return;
	pid = fork();
	storm_record(st, FC_FORK, pid);
	if (pid == 0) {
		st->depth++;
		st->forks_left = STORM_FORKS;
		storm_process(st, role);
	}
	if (pid > 0)
		__atomic_fetch_add(&st->w->stats->storm_tasks, 1, __ATOMIC_RELAXED);
}

static void storm_signal(struct storm *st, struct fuzz_rng *r)
{
	static const int sigs[] = { SIGUSR1, SIGIO, SIGUSR2, SIGCHLD };

	/* the storm's process group, or this process */
	storm_record(st, FC_KILL, kill(fuzz_chance(r, 50) ? 0 : getpid(),
				       sigs[fuzz_below(r, ARRAY_SIZE(sigs))]));
}

static void *storm_thread_body(void *p);

/*
 * @n threads (at most STORM_THREADS_MAX, roles from @role), joined when
 * @join; otherwise detached, and the process may exit under them.
 */
static void storm_threads(struct storm *st, uint64_t role, int n, bool join)
{
	pthread_t th[STORM_THREADS_MAX];
	pthread_attr_t pa;
	int i, started = 0, err;

	pthread_attr_init(&pa);
	pthread_attr_setstacksize(&pa, 256 * 1024);
	if (!join)
		pthread_attr_setdetachstate(&pa, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < n && i < STORM_THREADS_MAX; i++) {
		struct storm_thread *t = malloc(sizeof(*t));

		if (!t)
			break;
		t->st = st;
		t->role = fuzz_mix(role, 1000 + i);
		err = pthread_create(&th[started], &pa, storm_thread_body, t);
		errno = err;
		storm_record(st, FC_THREAD, err ? -1 : 0);
		if (err) {
			free(t);
			break;
		}
		__atomic_fetch_add(&st->w->stats->storm_tasks, 1, __ATOMIC_RELAXED);
		started++;
	}
	pthread_attr_destroy(&pa);
	for (i = 0; join && i < started; i++)
		pthread_join(th[i], NULL);
}

/* Owner of the SIGIO of the leader: this thread (it may exit first). */
static void storm_own_sigio(struct storm *st)
{
	struct f_owner_ex owner = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };

	if (st->fd[0] >= 0)
		storm_record(st, FC_FCNTL, fcntl(st->fd[0], F_SETOWN_EX, &owner));
}

/* One step a thread of a storm process takes. */
static void thread_step(struct storm *st, struct fuzz_rng *r, uint64_t role)
{
	unsigned int dice = fuzz_below(r, 100);

	if (dice < 35)
		storm_read(st, r);
	else if (dice < 55)
		fuzz_work(fuzz_below(r, 8), fuzz_below(r, 300));
	else if (dice < 62)
		sched_yield();
	else if (dice < 72)
		storm_map(st, r);
	else if (dice < 79)
		storm_fork(st, fuzz_mix(role, dice));
	else if (dice < 86)
		storm_own_event(st, r);
	else if (dice < 93)
		storm_ioctl(st, r);
	else if (dice < 96)
		storm_own_sigio(st);
	else if (dice < 98 && st->depth > 0)
		storm_exec(st, r);	/* de_thread(): the siblings die */
	else
		storm_signal(st, r);
}

static void *storm_thread_body(void *p)
{
	struct storm_thread *t = p;
	struct storm *st = t->st;
	uint64_t role = t->role;
	struct fuzz_rng r;
	int i, n;

	free(t);
	fuzz_rng_seed(&r, role);
	n = 1 + fuzz_below(&r, 6);
	for (i = 0; i < n; i++)
		thread_step(st, &r, fuzz_mix(role, i));
	return NULL;
}

/* Wait for this process's children until @deadline; true: all gone. */
static bool storm_reap(double deadline)
{
	for (;;) {
		pid_t pid = waitpid(-1, NULL, WNOHANG | __WALL);

		if (pid < 0 && errno == ECHILD)
			return true;
		if (pid > 0)
			continue;
		if (fuzz_now() > deadline)
			return false;
		usleep(2000);
	}
}

/* Close one of the storm's fds in this process (the event may live on). */
static void storm_close(struct storm *st, struct fuzz_rng *r)
{
	int i = fuzz_below(r, STORM_FDS);

	if (st->fd[i] < 0)
		return;
	storm_record(st, FC_CLOSE, close(st->fd[i]));
	st->fd[i] = -1;
}

/*
 * One step of a child or grandchild; false when the process is done
 * (exit, or an exec that failed).
 */
static bool process_step(struct storm *st, struct fuzz_rng *r, uint64_t role,
			 int step)
{
	unsigned int dice = fuzz_below(r, 100);

	if (dice < 18)
		fuzz_work(fuzz_below(r, 8), fuzz_below(r, 600));
	else if (dice < 32)
		storm_read(st, r);
	else if (dice < 44)
		storm_fork(st, fuzz_mix(role, 16 + step));
	else if (dice < 58)
		storm_threads(st, fuzz_mix(role, 32 + step), 1 + fuzz_below(r, 3),
			      fuzz_chance(r, 70));
	else if (dice < 66)
		storm_close(st, r);
	else if (dice < 72)
		storm_ioctl(st, r);
	else if (dice < 76)
		storm_map(st, r);
	else if (dice < 80)
		storm_record(st, FC_PRCTL, prctl(fuzz_chance(r, 50) ?
			     PR_TASK_PERF_EVENTS_DISABLE : PR_TASK_PERF_EVENTS_ENABLE,
			     0, 0, 0, 0));
	else if (dice < 84)
		storm_signal(st, r);
	else if (dice < 93)
		storm_exec(st, r);
	else
		return false;
	return true;
}

/* A child or grandchild: steps, then reap (or not) and exit. */
static void storm_process(struct storm *st, uint64_t role)
{
	struct fuzz_rng r;
	int i, n;

	alarm(STORM_SECONDS);
	fuzz_rng_seed(&r, role);
	n = 1 + fuzz_below(&r, 6);
	for (i = 0; i < n; i++)
		if (!process_step(st, &r, role, i))
			break;
	if (fuzz_chance(&r, 70))
		storm_reap(st->deadline);
	_exit(0);
}

/* ----------------------------------------------------- the storm root */

static size_t group_read_size(uint64_t rf, int members)
{
	size_t per = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	size_t head = 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			   !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));

	if (rf & PERF_FORMAT_GROUP)
		return 8 + head + members * per;
	return head + per;
}

/*
 * The leader's read while every member the root opened is in its group:
 * the size read_format gives for that many members or fewer (a member
 * with remove_on_exec leaves the group when a child execs holding the
 * root's own context, swapped to it as a twin: 6.1 does the same), or 0
 * (error state).  -1 when it is not.
 */
static int storm_read_oracle(struct storm *st)
{
	uint64_t buf[64];
	int i, members = 0;
	size_t expect;
	long ret;

	if (st->fd[0] < 0)
		return 0;
	for (i = 0; i < st->g.nr; i++)
		members += st->fd[i] >= 0;
	if (members != st->g.nr)
		return 0;	/* a refused sibling was opened on its own */
	expect = group_read_size(st->rf[0], members);
	ret = read(st->fd[0], buf, sizeof(buf));
	storm_record(st, FC_READ, ret);
	for (i = members; i > 0 && ret > 0; i--)
		if ((size_t)ret == group_read_size(st->rf[0], i))
			return 0;
	if (ret <= 0)
		return 0;
	fprintf(stderr, "fuzz: ORACLE worker %d: storm read of a group of %d gave %ld bytes, read_format %#llx wants %zu\n",
		st->w->id, members, ret, (unsigned long long)st->rf[0], expect);
	storm_fail(st);
	return -1;
}

/* The extra event: inherited software, chained into the group's ring. */
static void storm_extra(struct storm *st)
{
	struct fuzz_member m = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
		.period = 200000, .flags = AF_INHERIT | AF_EXCL_KERNEL,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	};
	struct perf_event_attr a;
	long fd;
	int i;

	member_attr(&m, &a);
	fd = syscall(SYS_perf_event_open, &a, 0, st->g.cpu, -1, PERF_FLAG_FD_CLOEXEC);
	count_open(st->w, fd);
	storm_record(st, FC_GROUP_OPEN, fd);
	st->fd[STORM_MEMBERS] = fd;
	st->rf[STORM_MEMBERS] = 0;
	for (i = STORM_MEMBERS - 1; fd >= 0 && i >= 0; i--) {
		if (st->fd[i] < 0)
			continue;
		storm_record(st, FC_IOC_SET_OUTPUT,
			     ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, st->fd[i]));
		break;
	}
}

/*
 * Core review 2's defect 2, as a program meets it: a sampler of
 * signal:signal_generate on this task, with a ring, O_ASYNC to this
 * process and sigtrap.  Each SIGTRAP (and SIGIO) its irq_work sends is a
 * signal_generate hit of the same event, which queues the irq_work again:
 * without the software-event recursion guard around it the CPU never
 * leaves the interrupt (testbed/regressions/irq-work-livelock.patch); with
 * it, each signal the storm's tasks get makes one sample and one SIGTRAP.
 */
static void storm_signal_loop(struct storm *st)
{
	struct fuzz_member m = {
		.type = PERF_TYPE_TRACEPOINT, .config = st->w->env->signal_tp,
		.period = 1, .flags = AF_INHERIT | AF_SIGTRAP | AF_REMOVE_ON_EXEC,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	};
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	int cpu = st->g.cpu >= 0 ? st->g.cpu : sched_getcpu();
	void *ring;
	long fd;

	if (st->w->env->signal_tp < 0 || cpu < 0)
		return;
	member_attr(&m, &a);
	fd = syscall(SYS_perf_event_open, &a, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	count_open(st->w, fd);
	storm_record(st, FC_GROUP_OPEN, fd);
	if (fd < 0)
		return;
	/* the mapping and the fd live as long as this process */
	ring = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	storm_record(st, FC_MMAP, ring == MAP_FAILED ? -1 : 0);
	storm_record(st, FC_FCNTL, fcntl(fd, F_SETOWN, getpid()));
	storm_record(st, FC_FCNTL, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
}

/* SIGIO of the leader to the storm's process group (or the root). */
static void storm_sigio(struct storm *st, struct fuzz_rng *r)
{
	int fd = st->fd[0];

	if (fd < 0)
		return;
	storm_record(st, FC_FCNTL, fcntl(fd, F_SETOWN, fuzz_chance(r, 60) ?
					 -getpgrp() : getpid()));
	storm_record(st, FC_FCNTL, fcntl(fd, F_SETSIG, fuzz_chance(r, 50) ? 0 : SIGUSR2));
	storm_record(st, FC_FCNTL, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
}

struct storm_hotplug {
	struct storm *st;
	int cpu;
	long usec;
	pthread_t th;
};

static void cpu_online(struct storm *st, int cpu, bool online)
{
	char path[64];
	long ret;
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	ret = write(fd, online ? "1" : "0", 1);
	close(fd);
	storm_record(st, FC_CPU_ONLINE, ret);
}

static void *storm_hotplug_body(void *p)
{
	struct storm_hotplug *h = p;

	usleep(h->usec);
	cpu_online(h->st, h->cpu, false);
	usleep(h->usec);
	cpu_online(h->st, h->cpu, true);
	return NULL;
}

/* The group, its ring and chain, the extra event, SIGIO, as planned. */
static void storm_setup(struct storm *st, struct fuzz_rng *r)
{
	unsigned long flags = st->plan & STORM_CLOEXEC ? PERF_FLAG_FD_CLOEXEC : 0;

	if (group_open(st->w, st->op, &st->g, st->fd, st->rf, flags))
		storm_fail(st);
	st->aux = st->fd[0] >= 0 && is_aux(st->w, &st->g.m[0]);
	if (st->plan & STORM_RING && st->g.cpu >= 0 && st->fd[0] >= 0) {
		st->ring_pages = STORM_PAGES(st->plan);
		st->ring = ring_map(st->w, st->op, st->fd[0], st->ring_pages,
				    st->aux, &st->ring_aux);
		output_chain(st->w, st->op, st->fd, st->g.nr);
	}
	if (st->plan & STORM_EXTRA)
		storm_extra(st);
	if (st->plan & STORM_SIGIO)
		storm_sigio(st, r);
	if (st->plan & STORM_SIGNAL_LOOP && st->plan & STORM_SIGIO)
		storm_signal_loop(st);
}

/* The thread rounds: start, read, join, repeat (bug 2's program). */
static void storm_rounds(struct storm *st, struct fuzz_rng *r)
{
	int i, n = STORM_THREADS(st->plan);

	for (i = 0; i < STORM_ROUNDS(st->plan); i++) {
		storm_threads(st, fuzz_mix(st->seed, 100 + i), n, true);
		if (i == 0 && st->plan & STORM_LATE_ENABLE)
			group_enable(st->w, st->op, st->fd[0], 1);
		storm_read(st, r);
	}
}

static void storm_start_hotplug(struct storm *st, struct storm_hotplug *h,
				long budget_ms)
{
	h->th = 0;
	if (!(st->plan & STORM_HOTPLUG) || st->w->id != 0 || !st->w->privileged ||
	    st->w->env->nr_cpus < 2)
		return;
	h->st = st;
	h->cpu = 1 + st->seed % (st->w->env->nr_cpus - 1);
	h->usec = budget_ms * 250;
	if (pthread_create(&h->th, NULL, storm_hotplug_body, h))
		h->th = 0;
}

/* Stop a child for a while (it holds its events, its parent goes on). */
static pid_t storm_stop_child(struct storm *st, pid_t *kids, int n)
{
	pid_t pid;

	if (!(st->plan & STORM_STOP) || !n || kids[st->seed % n] <= 0)
		return 0;
	pid = kids[st->seed % n];
	storm_record(st, FC_KILL, kill(pid, SIGSTOP));
	return pid;
}

static void storm_root(struct fuzz_worker *w, const struct fuzz_op *op)
	__attribute__((noreturn));
static void storm_root(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct storm st = { .w = w, .op = op, .plan = op->a[0], .seed = op->a[1] };
	long budget_ms = op->a[2] % 5000;
	struct storm_hotplug hp;
	struct fuzz_rng r;
	pid_t kids[5] = { 0 }, stopped;
	int i, nc;

	signal(SIGALRM, SIG_DFL);
	alarm(STORM_SECONDS);
	memcpy(&st.g, op->blob, sizeof(st.g));
	if (st.g.nr > STORM_MEMBERS)
		st.g.nr = STORM_MEMBERS;
	st.deadline = fuzz_now() + budget_ms / 1000.0;
	st.forks_left = STORM_ROOT_FORKS;
	for (i = 0; i < STORM_FDS; i++)
		st.fd[i] = -1;
	fuzz_rng_seed(&r, st.seed);
	storm_setup(&st, &r);
	if (!(st.plan & STORM_LATE_ENABLE))
		group_enable(w, op, st.fd[0], 1 + fuzz_chance(&r, 20));
	storm_start_hotplug(&st, &hp, budget_ms);
	nc = STORM_CHILDREN(st.plan);
	for (i = 0; i < nc; i++) {
		/* the child's pid, for a stop: fork here rather than in storm_fork() */
		if (!storm_take_fork(&st))
			break;
		kids[i] = fork();
		storm_record(&st, FC_FORK, kids[i]);
		if (kids[i] == 0) {
			st.depth = 1;
			st.forks_left = STORM_FORKS;
			storm_process(&st, fuzz_mix(st.seed, 1 + i));
		}
		__atomic_fetch_add(&w->stats->storm_tasks, 1, __ATOMIC_RELAXED);
	}
	stopped = storm_stop_child(&st, kids, nc);
	storm_rounds(&st, &r);
	if (storm_read_oracle(&st))
		_exit(3);
	if (stopped > 0)
		kill(stopped, SIGCONT);
	for (i = 1; i < STORM_FDS; i++)
		if (fuzz_chance(&r, 30))
			storm_close(&st, &r);
	if (st.ring && fuzz_chance(&r, 50)) {	/* children may still write */
		ring_touch(st.ring, st.ring_pages);
		ring_unmap(st.ring, st.ring_pages, st.ring_aux);
	}
	storm_reap(st.deadline);
	storm_read(&st, &r);
	if (hp.th)
		pthread_join(hp.th, NULL);
	_exit(0);
}

/*
 * Wait up to @secs for @pid to exit, leaving it a zombie (its pid, the
 * storm's process group id, cannot be reused yet); true when it exited.
 */
static bool wait_exit(pid_t pid, double secs)
{
	double limit = fuzz_now() + secs;
	siginfo_t info;

	for (;;) {
		info.si_pid = 0;
		if (waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
			return errno != EINTR;
		if (info.si_pid == pid)
			return true;
		if (fuzz_now() > limit)
			return false;
		usleep(2000);
	}
}

/* Print @path (a /proc file) after @what, on one line per line of it. */
static void print_proc(const char *what, const char *path)
{
	char buf[2048];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	fprintf(stderr, "fuzz: %s %s", what, buf);
}

/* Where the threads of a storm root that SIGKILL did not end are. */
static void storm_dump(pid_t pid)
{
	char path[96], what[48];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(what, sizeof(what), "storm task %d/%.8s:", pid, de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%.8s/stat", pid, de->d_name);
		print_proc(what, path);
		snprintf(path, sizeof(path), "/proc/%d/task/%.8s/stack", pid, de->d_name);
		print_proc(what, path);
	}
	if (d)
		closedir(d);
}

/*
 * End storm @i: a root that has not exited is killed with its process
 * group and given 10 s (then reported, its threads' kernel stacks shown);
 * what is left of the group is killed, the root reaped.  The root is
 * reaped last, so its pid, the group's id, is not reused before.
 */
static void storm_end(struct fuzz_worker *w, int i)
{
	pid_t pid = w->storm[i];

	if (!wait_exit(pid, 0)) {
		kill(-pid, SIGKILL);
		if (!wait_exit(pid, 10)) {
			fprintf(stderr, "fuzz: worker %d: storm root %d still there 10 s after SIGKILL (stuck in the kernel?)\n",
				w->id, pid);
			storm_dump(pid);
		}
	}
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, WNOHANG);
	w->storm[i] = 0;
}

/*
 * The storms that ended or ran out of time end; -1 when a storm task
 * failed an oracle (it printed which) since the last look.  Called before
 * every operation, before the worker's waitpid(-1) can reap a root (which
 * is harmless: wait_exit() then sees ECHILD).
 */
int fuzz_storm_poll(struct fuzz_worker *w)
{
	unsigned long fails = __atomic_load_n(&w->stats->storm_failures[w->id % FUZZ_MAX_WORKERS],
					      __ATOMIC_RELAXED);
	int i;

	for (i = 0; i < FUZZ_STORMS; i++)
		if (w->storm[i] > 0 && (wait_exit(w->storm[i], 0) ||
					fuzz_now() > w->storm_kill[i]))
			storm_end(w, i);
	if (fails == w->storm_fails)
		return 0;
	w->storm_fails = fails;
	return -1;
}

void fuzz_storm_finish(struct fuzz_worker *w)
{
	int i;

	for (i = 0; i < FUZZ_STORMS; i++)
		if (w->storm[i] > 0)
			kill(-w->storm[i], SIGKILL);
	for (i = 0; i < FUZZ_STORMS; i++)
		if (w->storm[i] > 0)
			storm_end(w, i);
}

/* A free storm slot: the one that ends first is waited for if need be. */
static int storm_slot(struct fuzz_worker *w)
{
	int i, first = 0;

	for (i = 0; i < FUZZ_STORMS; i++) {
		if (w->storm[i] <= 0)
			return i;
		if (w->storm_kill[i] < w->storm_kill[first])
			first = i;
	}
	wait_exit(w->storm[first], w->storm_kill[first] - fuzz_now());
	storm_end(w, first);
	return first;
}

/*
 * Start a storm and go on: it runs while the worker does other things
 * (CPU hotplug among them) until it ends or its time is up.
 */
int fuzz_storm_run(struct fuzz_worker *w, const struct fuzz_op *op)
{
	int i = storm_slot(w);
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		storm_root(w, op);
	}
	if (fuzz_record(w, FC_STORM, pid, op))
		return -1;
	if (pid < 0)
		return 0;
	setpgid(pid, pid);
	__atomic_fetch_add(&w->stats->storms, 1, __ATOMIC_RELAXED);
	w->storm[i] = pid;
	w->storm_kill[i] = fuzz_now() + STORM_SECONDS + 2;
	return 0;
}

/* ----------------------------------------------- after a storm's exec */

/*
 * perf_fuzz --storm-exec SEED FD DEPTH: the image a storm task execs.
 * Its events are what exec left (remove_on_exec gone, enable_on_exec on);
 * it makes them count (syscalls, the breakpoint variable and function,
 * page faults), reads and enables FD if it survived exec, forks once,
 * execs once more at depth 0, and exits.
 */
int fuzz_storm_exec_main(int argc, char **argv)
{
	static const int sigs[] = { SIGIO, SIGTRAP, SIGUSR1, SIGUSR2 };
	struct fuzz_rng r;
	uint64_t buf[32];
	int i, fd, depth;

	for (i = 0; i < (int)ARRAY_SIZE(sigs); i++)
		signal(sigs[i], fuzz_count_signal);
	if (argc < 5)
		return 64;
	fuzz_rng_seed(&r, strtoull(argv[2], NULL, 0));
	fd = atoi(argv[3]);
	depth = atoi(argv[4]);
	for (i = 0; i < 4; i++)
		fuzz_work(fuzz_below(&r, 8), fuzz_below(&r, 1000));
	if (fd >= 0 && read(fd, buf, sizeof(buf)) > 0 && fuzz_chance(&r, 50))
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (fuzz_chance(&r, 30) && fork() == 0) {
		fuzz_work(4, 100);
		_exit(0);
	}
	if (depth == 0 && fuzz_chance(&r, 20)) {
		char seed[24];

		snprintf(seed, sizeof(seed), "%llu", (unsigned long long)fuzz_rand(&r));
		execl("/proc/self/exe", "perf_fuzz", FUZZ_STORM_EXEC, seed, argv[3],
		      "1", (char *)NULL);
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	return 0;
}
