// SPDX-License-Identifier: GPL-2.0
/*
 * Threads of one process with an inherited event, the way threaded
 * programs under "perf stat" run: their contexts are copies of one
 * another, which the core swaps at context switches instead of
 * scheduling each out and in.
 *
 * Covers: readers read the inherited event without a pause (so its
 * context's mutex is mostly held) while other threads yield, open
 * task-clock events on themselves, sleep, close them and exit, round
 * after round, with inherit_stat on and off, of a software and (where
 * there is one) a hardware event.  Our core once let a context that was
 * being changed (open, exit) be swapped to a sibling thread while it
 * slept on that mutex: the event opened on one thread then went into,
 * and counted, another, and an exiting thread tore down a sibling's
 * context and left its own on the CPU (a WARN in the context switch
 * with the runqueue lock held, then a hung guest).  Each thread's own
 * events (context switches; user instructions where a hardware PMU is)
 * must count that thread only, which sleeps while the readers switch
 * and burn; every read must succeed, and the inherited count must hold
 * every thread's work.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define BURN		2000000UL

/* ---- threads swapping, opening and exiting ------------------------------ */

#define NR_READERS	4
#define NR_EXITERS	32
#define EXITERS_AT_ONCE	4
#define STRESS_ROUNDS	8
#define OPENS_PER_EXITER 8
#define READER_BURN	20000UL	/* loops between reads: 100k instructions or so */
#define OWN_MAX_INSNS	20000ULL

struct stress {
	int fd;			/* the inherited event */
	int stop;		/* readers: the round is over */
	int bad_read;		/* a read() of fd failed */
	int open_failed;
	bool hw;		/* own events count instructions too */
	pthread_mutex_t lock;	/* worst_* */
	__u64 worst_switches;	/* most switches an own event counted beyond its thread's */
	__u64 worst_insns;	/* most user instructions an own event counted */
};

/*
 * Read the inherited event without a pause: its context's mutex (the
 * root context's, wherever swaps took it) is then mostly held, so a
 * sibling that changes its own context (open, exit) sleeps on it.
 */
static void *stress_reader(void *arg)
{
	struct stress *s = arg;
	__u64 count;

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		if (perfev_read_count(s->fd, &count))
			__atomic_store_n(&s->bad_read, 1, __ATOMIC_RELAXED);
		perfev_burn(READER_BURN);
		sched_yield();
	}
	return NULL;
}

/* An event of this thread alone, enabled; -1 on failure. */
static int open_own(__u32 type, __u64 config)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.exclude_kernel = type == PERF_TYPE_HARDWARE;
	attr.disabled = 0;
	return perfev_open(&attr, 0, -1, -1, 0);
}

static void note_worst(struct stress *s, __u64 *worst, int fd)
{
	__u64 v;

	if (fd < 0 || perfev_read_count(fd, &v))
		return;
	pthread_mutex_lock(&s->lock);
	if (v > *worst)
		*worst = v;
	pthread_mutex_unlock(&s->lock);
}

/* This thread's context switches so far, voluntary and not. */
static __u64 thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/*
 * Record how many switches the event @fd of this thread, opened after
 * thread_switches() gave @before, counted beyond the thread's own since.
 * The scheduler counts a switch in the thread's rusage and to its events
 * at the same point (prev != next), and the event is read before the
 * rusage: the excess of an event that counts this thread only is 0.
 */
static void note_own_switches(struct stress *s, int fd, __u64 before)
{
	__u64 v, own;

	if (fd < 0 || perfev_read_count(fd, &v))
		return;
	own = thread_switches() - before;
	v = v > own ? v - own : 0;
	pthread_mutex_lock(&s->lock);
	if (v > s->worst_switches)
		s->worst_switches = v;
	pthread_mutex_unlock(&s->lock);
}

/*
 * Burn, yield to a sibling (a swap), then a few times: open events on this
 * thread alone and sleep.  Asleep, this thread runs a few hundred user
 * instructions and switches once, plus the preemptions a loaded guest
 * gives it - all of which its own rusage counts, so the event may count
 * no more; a reader, whose context an event may have been installed into
 * by mistake, switches and burns without pause.  Then exit, while the
 * readers go on.
 */
static void *stress_exiter(void *arg)
{
	struct stress *s = arg;
	int cs, insns = -1, i;
	__u64 before;

	perfev_burn(BURN / 50);
	sched_yield();
	for (i = 0; i < OPENS_PER_EXITER; i++) {
		before = thread_switches();
		cs = open_own(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
		if (s->hw)
			insns = open_own(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		if (cs < 0 || (s->hw && insns < 0)) {
			__atomic_store_n(&s->open_failed, 1, __ATOMIC_RELAXED);
			break;
		}
		usleep(2000);
		note_worst(s, &s->worst_insns, insns);
		note_own_switches(s, cs, before);
		close(cs);
		if (insns >= 0)
			close(insns);
	}
	perfev_burn(BURN / 50);
	return NULL;
}

static int open_stress_event(bool hw, bool inherit_stat)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
			 hw ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.inherit_stat = inherit_stat;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	return perfev_open(&attr, 0, -1, -1, 0);
}

FIXTURE(threads) {};
FIXTURE_SETUP(threads) {}
FIXTURE_TEARDOWN(threads) {}

TEST_F_TIMEOUT(threads, swap_open_exit_stress, 300)
{
	bool hw = perfev_have_hw();
	pthread_t r[NR_READERS], x[NR_EXITERS];
	int round, i;

	for (round = 0; round < STRESS_ROUNDS; round++) {
		struct stress s = { .lock = PTHREAD_MUTEX_INITIALIZER };
		__u64 count;

		s.hw = hw;
		s.fd = open_stress_event(hw && (round & 2), round & 1);
		ASSERT_GE(s.fd, 0);
		ASSERT_EQ(0, ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0));
		for (i = 0; i < NR_READERS; i++)
			ASSERT_EQ(0, pthread_create(&r[i], NULL, stress_reader, &s));
		for (i = 0; i < NR_EXITERS; i++) {
			if (i >= EXITERS_AT_ONCE)
				ASSERT_EQ(0, pthread_join(x[i - EXITERS_AT_ONCE], NULL));
			ASSERT_EQ(0, pthread_create(&x[i], NULL, stress_exiter, &s));
		}
		for (i = NR_EXITERS - EXITERS_AT_ONCE; i < NR_EXITERS; i++)
			ASSERT_EQ(0, pthread_join(x[i], NULL));
		__atomic_store_n(&s.stop, 1, __ATOMIC_RELAXED);
		for (i = 0; i < NR_READERS; i++)
			ASSERT_EQ(0, pthread_join(r[i], NULL));

		ASSERT_EQ(0, perfev_read_count(s.fd, &count));
		close(s.fd);
		EXPECT_EQ(0, s.bad_read);
		EXPECT_EQ(0, s.open_failed);
		/* every exiter's work is in the inherited count */
		if (hw && (round & 2)) {
			EXPECT_GE(count, NR_EXITERS * 2 * (BURN / 50))
				TH_LOG("round %d: %llu instructions", round,
				       (unsigned long long)count);
		} else {
			EXPECT_GT(count, 0ULL);
		}
		/* its own switches only, and the libc's few instructions */
		EXPECT_EQ(0ULL, s.worst_switches)
			TH_LOG("round %d: a thread's own event counted %llu switches more than the thread made",
			       round, (unsigned long long)s.worst_switches);
		EXPECT_LE(s.worst_insns, OWN_MAX_INSNS)
			TH_LOG("round %d: a thread's own event counted %llu instructions",
			       round, (unsigned long long)s.worst_insns);
	}
}

/* ---- an open that sleeps on the root context's mutex ---------------------- */

/*
 * Line up, deterministically, what the stress above only hits by chance.
 * The main thread M (CPU 0) holds the root context: its inherited event E
 * was opened before any thread that copies it.  H, a thread without
 * events, read()s E into a page that userfaultfd leaves missing: the
 * copy-out faults with E's context mutex held, and stays there.  T, a
 * copy of M's context (a twin) made before that (a fork takes the mutex
 * too), parked on CPU 1, is moved to CPU 0 where it runs only when M does
 * not (SCHED_IDLE).  M opens a task-clock event on itself: the open sleeps on
 * the held mutex, and CPU 0 switches M to T.  T runs a little, then sleeps
 * a while (so that nothing switches it back to M), then spins.  R, on
 * CPU 1, lets H's fault through after 100 ms; M's open goes on, and M
 * sleeps 200 ms.  M's new event must have counted M: almost nothing.  A
 * core that swapped the held context to T at that switch installed the
 * event into T's context, where it counted T's spinning.
 */
#include <fcntl.h>
#include <poll.h>
#include <linux/userfaultfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

struct lineup {
	int event_fd;		/* E */
	int uffd;
	char *page;		/* registered, missing */
	int go_h[2], go_r[2];	/* pipes: start H's read, R's resolve, */
	int go_t[2];		/* T's run */
	int stop_t;
};

static void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *lineup_h(void *arg)
{
	struct lineup *l = arg;
	char c;

	pin_self(1);
	if (read(l->go_h[0], &c, 1) != 1)
		return NULL;
	/* blocks in the fault, E's context mutex held, until R copies the page */
	read(l->event_fd, l->page, sizeof(__u64));
	return NULL;
}

static void *lineup_r(void *arg)
{
	struct lineup *l = arg;
	static char src[65536] __attribute__((aligned(65536)));
	struct uffdio_copy copy = {
		.dst = (unsigned long)l->page,
		.src = (unsigned long)src,
		.len = sysconf(_SC_PAGESIZE),
	};
	char c;

	pin_self(1);
	if (read(l->go_r[0], &c, 1) != 1)
		return NULL;
	usleep(100000);
	ioctl(l->uffd, UFFDIO_COPY, &copy);
	return NULL;
}

static void *lineup_t(void *arg)
{
	struct lineup *l = arg;
	double t0;
	char c;

	if (read(l->go_t[0], &c, 1) != 1)
		return NULL;
	/* first run on CPU 0: M just went to sleep on the mutex */
	t0 = mono_s();
	while (mono_s() - t0 < 0.005)
		;
	usleep(150000);
	while (!__atomic_load_n(&l->stop_t, __ATOMIC_RELAXED))
		;
	return NULL;
}

static int uffd_missing_page(struct lineup *l)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	size_t pg = sysconf(_SC_PAGESIZE);

	l->uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (l->uffd < 0)
		return -1;
	if (ioctl(l->uffd, UFFDIO_API, &api))
		return -1;
	l->page = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l->page == MAP_FAILED)
		return -1;
	reg.range.start = (unsigned long)l->page;
	reg.range.len = pg;
	return ioctl(l->uffd, UFFDIO_REGISTER, &reg);
}

TEST_F_TIMEOUT(threads, open_behind_a_held_root_context_counts_self, 60)
{
	struct pollfd pfd = { .events = POLLIN };
	struct lineup l = { 0 };
	struct uffd_msg msg;
	struct sched_param sp = { 0 };
	pthread_attr_t ta;
	pthread_t h, r, t;
	cpu_set_t cpu;
	__u64 own = ~0ULL;
	int fd;

	if (perfev_nr_cpus() < 2)
		SKIP(return, "needs two CPUs");
	if (uffd_missing_page(&l))
		SKIP(return, "no userfaultfd (CONFIG_USERFAULTFD): %s", strerror(errno));
	ASSERT_EQ(0, pipe(l.go_h));
	ASSERT_EQ(0, pipe(l.go_r));
	ASSERT_EQ(0, pipe(l.go_t));
	pin_self(0);
	/* H and R exist before E: they hold no copy of it */
	ASSERT_EQ(0, pthread_create(&h, NULL, lineup_h, &l));
	ASSERT_EQ(0, pthread_create(&r, NULL, lineup_r, &l));

	l.event_fd = open_stress_event(false, false);
	ASSERT_GE(l.event_fd, 0);
	ASSERT_EQ(0, ioctl(l.event_fd, PERF_EVENT_IOC_ENABLE, 0));

	/*
	 * T: M's twin, made now (a fork takes E's context mutex), parked on
	 * CPU 1 until M's open; then on CPU 0 only while M sleeps.
	 */
	CPU_ZERO(&cpu);
	CPU_SET(1, &cpu);
	pthread_attr_init(&ta);
	pthread_attr_setaffinity_np(&ta, sizeof(cpu), &cpu);
	pthread_attr_setinheritsched(&ta, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&ta, SCHED_IDLE);
	pthread_attr_setschedparam(&ta, &sp);
	ASSERT_EQ(0, pthread_create(&t, &ta, lineup_t, &l));
	pthread_attr_destroy(&ta);

	ASSERT_EQ(1, write(l.go_h[1], "g", 1));
	/* H is in the fault: E's context mutex is held */
	pfd.fd = l.uffd;
	if (poll(&pfd, 1, 5000) != 1) {
		/* let everyone go, whatever they wait for, before giving up */
		ASSERT_EQ(1, write(l.go_r[1], "g", 1));
		ASSERT_EQ(1, write(l.go_t[1], "g", 1));
		__atomic_store_n(&l.stop_t, 1, __ATOMIC_RELAXED);
		pthread_join(h, NULL);
		pthread_join(r, NULL);
		pthread_join(t, NULL);
		SKIP(return, "the read's copy-out did not wait in userfaultfd");
	}
	ASSERT_EQ((ssize_t)sizeof(msg), read(l.uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	ASSERT_EQ(0, pthread_setaffinity_np(t, sizeof(cpu), &cpu));
	ASSERT_EQ(1, write(l.go_t[1], "g", 1));
	ASSERT_EQ(1, write(l.go_r[1], "g", 1));
	fd = open_own(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_GE(fd, 0);
	usleep(200000);
	ASSERT_EQ(0, perfev_read_count(fd, &own));
	__atomic_store_n(&l.stop_t, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	pthread_join(h, NULL);
	pthread_join(r, NULL);
	/* M slept 200 ms of it; T spun about 150 ms */
	EXPECT_LT(own, 20000000ULL)
		TH_LOG("M's own task-clock counted %llu ns while M slept", (unsigned long long)own);
	close(fd);
	close(l.event_fd);
	close(l.uffd);
}

TEST_HARNESS_MAIN
