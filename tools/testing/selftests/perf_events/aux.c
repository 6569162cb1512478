// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area of a ring buffer, with the testbed's "perfev_aux" PMU
 * (CONFIG_PERF_TEST_AUX_PMU, drivers/perf/perfev_aux_pmu.c): while its event
 * runs it writes 512-byte chunks of a known trace (u64 words AUX_WORD(n),
 * n = 0, 1, 2, ...) into the AUX area, one PERF_RECORD_AUX per chunk.
 *
 * Covers: the AUX mmap rules (a data mapping first; aux_offset/aux_size in
 * the user page, past the data pages, equal to the mapping's offset and
 * size, a power-of-two number of pages; a second mapping must match;
 * MAP_PRIVATE; aux_size near 2^64; EOPNOTSUPP for a PMU without an AUX
 * area; EPERM beyond the memory-lock limit), PERF_RECORD_ITRACE_START, the
 * trace bytes and PERF_RECORD_AUX offsets/sizes against aux_head, a full
 * area (TRUNCATED, the event disabled until user space catches up and
 * enables it again), overwrite mode (read-only AUX mapping: OVERWRITE
 * records, the latest trace kept), aux_watermark wakeups, the PARTIAL and
 * COLLISION flags, munmap of the AUX area while the event traces, and
 * aux_output (PERF_RECORD_AUX_OUTPUT_HW_ID, the member in ERROR once its
 * leader is gone) and aux_sample_size (PERF_SAMPLE_AUX snapshots) members,
 * and SET_OUTPUT between AUX events of two PMUs (with the second test PMU,
 * "perfev_aux2", whose area private data has another layout): refused;
 * the areas of a PMU that cannot scatter (perfev_aux2 too): one block in
 * overwrite mode, chunks otherwise.
 *
 * Every case SKIPs without the perfev_aux PMU.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define AUX_WORD(n)		((0x5041ULL << 48) | (n))
#define AUX_CHUNK		512ULL
#define CFG_PARTIAL		0x1
#define CFG_COLLISION		0x2
#define DATA_PAGES		8
/* room for what a slow guest writes past a test's target (64 chunks a page at 4 KiB) */
#define AUX_PAGES		64

#define REQUIRE_AUX_PMU(type)							\
	do {									\
		type = perfev_pmu_type("perfev_aux");				\
		if (type < 0)							\
			SKIP(return, "no perfev_aux PMU (CONFIG_PERF_TEST_AUX_PMU)"); \
	} while (0)

struct aux_buf {
	int fd;
	struct perfev_ring ring;
	void *aux;
	size_t aux_size;
};

static size_t pgsz(void)
{
	return sysconf(_SC_PAGESIZE);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void aux_attr(struct perf_event_attr *attr, int type, __u64 config)
{
	perfev_attr_init(attr, type, config);
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

static int aux_open(int type, __u64 config)
{
	struct perf_event_attr attr;

	aux_attr(&attr, type, config);
	return perfev_open(&attr, 0, -1, -1, 0);
}

/* The AUX area of @aux_pages pages after the data pages; 0 or errno. */
static int aux_map_area(struct aux_buf *b, unsigned int aux_pages, int prot)
{
	b->aux_size = aux_pages * pgsz();
	b->ring.page->aux_offset = b->ring.map_size;
	b->ring.page->aux_size = b->aux_size;
	b->aux = mmap(NULL, b->aux_size, prot, MAP_SHARED, b->fd, b->ring.map_size);
	return b->aux == MAP_FAILED ? errno : 0;
}

static int aux_map(struct aux_buf *b, int fd, unsigned int aux_pages, bool overwrite)
{
	b->fd = fd;
	if (perfev_ring_map(&b->ring, fd, DATA_PAGES, false))
		return errno;
	return aux_map_area(b, aux_pages, overwrite ? PROT_READ : PROT_READ | PROT_WRITE);
}

static void aux_unmap(struct aux_buf *b)
{
	if (b->aux && b->aux != MAP_FAILED)
		munmap(b->aux, b->aux_size);
	perfev_ring_unmap(&b->ring);
}

static __u64 aux_head(struct aux_buf *b)
{
	return __atomic_load_n(&b->ring.page->aux_head, __ATOMIC_ACQUIRE);
}

/* Burn CPU until aux_head reaches @bytes or @secs pass; the final head. */
static __u64 burn_until(struct aux_buf *b, __u64 bytes, double secs)
{
	double end = now_s() + secs;

	/* small steps: a slow guest must not overshoot into a full area */
	while (aux_head(b) < bytes && now_s() < end)
		perfev_burn(10000);
	return aux_head(b);
}

struct aux_rec {
	struct perf_event_header header;
	__u64 offset;
	__u64 size;
	__u64 flags;
};

struct itrace_rec {
	struct perf_event_header header;
	__u32 pid;
	__u32 tid;
};

/* Print the AUX records not yet consumed (for a failure's log). */
static void dump_aux_records(struct __test_metadata *_metadata, struct aux_buf *b)
{
	struct perf_event_header *h;

	while ((h = perfev_ring_next(&b->ring))) {
		struct aux_rec *a = (void *)h;

		if (h->type == PERF_RECORD_AUX)
			TH_LOG("AUX offset %llu size %llu flags %llx",
			       (unsigned long long)a->offset, (unsigned long long)a->size,
			       (unsigned long long)a->flags);
		else
			TH_LOG("record type %u", h->type);
	}
	TH_LOG("aux_head %llu aux_tail %llu aux_size %llu",
	       (unsigned long long)b->ring.page->aux_head,
	       (unsigned long long)b->ring.page->aux_tail,
	       (unsigned long long)b->ring.page->aux_size);
}

static __u64 aux_word(struct aux_buf *b, __u64 pos)
{
	return *(__u64 *)((char *)b->aux + (pos & (b->aux_size - 1)));
}

TEST(aux_mmap_rules)
{
	size_t pg = pgsz();
	struct aux_buf b = {};
	void *p;
	int type, fd, sw;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	/* no data mapping yet */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);

	b.fd = fd;
	ASSERT_EQ(0, perfev_ring_map(&b.ring, fd, DATA_PAGES, false));
	/* aux_offset/aux_size still 0 */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	/* inside the data pages */
	b.ring.page->aux_offset = 2 * pg;
	b.ring.page->aux_size = 4 * pg;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 2 * pg));
	EXPECT_EQ(EINVAL, errno);
	/* not a power of two */
	b.ring.page->aux_offset = (1 + DATA_PAGES) * pg;
	b.ring.page->aux_size = 3 * pg;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	/* aux_size other than the mapping's, and near 2^64 */
	b.ring.page->aux_size = 8 * pg;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	b.ring.page->aux_size = ~0ULL - pg + 1;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	/* the mapping's offset other than aux_offset */
	b.ring.page->aux_size = 4 * pg;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (2 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);

	/* the right one, then a second mapping of the same area */
	ASSERT_EQ(0, aux_map_area(&b, 4, PROT_READ | PROT_WRITE));
	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (1 + DATA_PAGES) * pg);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 4 * pg);
	/* one that does not match it */
	b.ring.page->aux_size = 8 * pg;
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   (1 + DATA_PAGES) * pg));
	EXPECT_EQ(EINVAL, errno);
	aux_unmap(&b);
	close(fd);

	/* a PMU without an AUX area, geometry right */
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(sw, 0);
	memset(&b, 0, sizeof(b));
	b.fd = sw;
	ASSERT_EQ(0, perfev_ring_map(&b.ring, sw, DATA_PAGES, false));
	EXPECT_EQ(EOPNOTSUPP, aux_map_area(&b, 4, PROT_READ | PROT_WRITE));
	b.aux = NULL;
	aux_unmap(&b);
	close(sw);
}

static int aux_type_for_child;

/* Unprivileged, RLIMIT_MEMLOCK 0: AUX pages beyond perf_event_mlock_kb. */
static int map_big_aux_unprivileged(void *arg)
{
	struct rlimit rl = { 0, 0 };
	struct aux_buf b = {};
	struct perf_event_attr attr;
	int fd, err;

	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return 100;
	aux_attr(&attr, aux_type_for_child, 0);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 101;
	if (aux_map(&b, fd, 1024, false) == 0)
		return 0;
	err = errno;
	return err == EPERM ? 1 : 102;
}

TEST(aux_mmap_beyond_mlock_limit_eperm)
{
	long long kb, paranoid;
	int type, ret;

	REQUIRE_AUX_PMU(type);
	if (perfev_read_int("/proc/sys/kernel/perf_event_mlock_kb", &kb) ||
	    perfev_read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid))
		SKIP(return, "no perf sysctls");
	if (paranoid > 2)
		SKIP(return, "perf_event_paranoid > 2");
	/* 1024 AUX pages exceed 516 KiB per CPU on guests of up to 7 CPUs */
	if ((long long)((1024 + DATA_PAGES + 1) * (pgsz() / 1024)) <= kb * perfev_nr_cpus())
		SKIP(return, "perf_event_mlock_kb too large for this check");
	aux_type_for_child = type;
	ret = perfev_run_unprivileged(map_big_aux_unprivileged, NULL);
	EXPECT_EQ(1, ret);
}

TEST(aux_trace_and_records_match_aux_head)
{
	struct aux_buf b = {};
	struct perf_event_header *h;
	struct perfev_value v;
	__u64 head, expect = 0, pos, itrace = 0;
	int type, fd, nr_aux = 0;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, AUX_PAGES, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_until(&b, 16 * AUX_CHUNK, 10);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = aux_head(&b);
	ASSERT_GE(head, 16 * AUX_CHUNK);
	ASSERT_LT(head, b.aux_size);

	/* the count is the trace bytes written */
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(head, v.value);

	while ((h = perfev_ring_next(&b.ring))) {
		if (h->type == PERF_RECORD_ITRACE_START) {
			struct itrace_rec *it = (void *)h;

			EXPECT_EQ((__u32)getpid(), it->pid);
			EXPECT_EQ((__u32)syscall(SYS_gettid), it->tid);
			/* before any trace of the task */
			if (!itrace)
				EXPECT_EQ(0, nr_aux);
			itrace++;
		} else if (h->type == PERF_RECORD_AUX) {
			struct aux_rec *a = (void *)h;

			EXPECT_EQ(expect, a->offset);
			EXPECT_EQ(0ULL, a->flags)
				TH_LOG("record %d: offset %llu size %llu, head %llu", nr_aux,
				       (unsigned long long)a->offset,
				       (unsigned long long)a->size, (unsigned long long)head);
			expect = a->offset + a->size;
			nr_aux++;
		}
	}
	EXPECT_GE(itrace, 1ULL);
	EXPECT_GE(nr_aux, 16);
	EXPECT_EQ(head, expect);
	for (pos = 0; pos < head; pos += 8) {
		if (aux_word(&b, pos) != AUX_WORD(pos / 8)) {
			EXPECT_EQ(AUX_WORD(pos / 8), aux_word(&b, pos))
				TH_LOG("AUX byte %llu", (unsigned long long)pos);
			break;
		}
	}
	aux_unmap(&b);
	close(fd);
}

/*
 * A full area: the chunk that does not fit is cut (TRUNCATED) and the event
 * is disabled; once user space moved aux_tail, ENABLE resumes the trace
 * where it stopped.  One byte of the area stays free, as in the data area.
 *
 * Differs from 6.1 on purpose: 6.1's perf_aux_output_end() (and _begin()
 * for an area without room) sets event->pending_disable to
 * smp_processor_id(), a flag since 6.1 made it one, so on CPU 0 the event
 * is never disabled and keeps its enabled time running with its trace
 * stopped (listed in testbed/expected as an upstream bug).
 */
TEST(aux_full_area_truncates_and_disables)
{
	struct aux_buf b = {};
	struct perf_event_header *h;
	struct perfev_value v1, v2;
	__u64 head, last_flags = 0, pos;
	int type, fd;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, 2, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	head = burn_until(&b, b.aux_size, 3);
	/* the largest whole-word fill that leaves one byte */
	EXPECT_EQ(b.aux_size - 8, head);
	while ((h = perfev_ring_next(&b.ring))) {
		if (h->type == PERF_RECORD_AUX)
			last_flags = ((struct aux_rec *)h)->flags;
	}
	EXPECT_EQ((__u64)PERF_AUX_FLAG_TRUNCATED, last_flags);

	/* disabled: time_enabled stands still */
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	perfev_burn(2000000);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(head, v2.value);

	/* consume it all and go on */
	__atomic_store_n(&b.ring.page->aux_tail, head, __ATOMIC_RELEASE);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_GE(burn_until(&b, head + 4 * AUX_CHUNK, 10), head + 4 * AUX_CHUNK);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	for (pos = head; pos < head + 4 * AUX_CHUNK; pos += 8)
		ASSERT_EQ(AUX_WORD(pos / 8), aux_word(&b, pos));
	aux_unmap(&b);
	close(fd);
}

/* A read-only AUX mapping: the trace wraps and the latest of it stays. */
TEST(aux_overwrite_mode_keeps_the_latest_trace)
{
	struct aux_buf b = {};
	struct perf_event_header *h;
	struct perfev_value v1, v2;
	__u64 head, pos, prev = 0;
	int type, fd, nr_aux = 0;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, 2, true));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	head = burn_until(&b, 3 * b.aux_size, 10);
	ASSERT_GE(head, 3 * b.aux_size);
	/* still tracing: not disabled by a full area */
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	perfev_burn(2000000);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GT(v2.enabled, v1.enabled);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = aux_head(&b);
	for (pos = head - b.aux_size; pos < head; pos += 8)
		ASSERT_EQ(AUX_WORD(pos / 8), aux_word(&b, pos));

	/* records say OVERWRITE and where the head went */
	while ((h = perfev_ring_next(&b.ring))) {
		struct aux_rec *a = (void *)h;

		if (h->type != PERF_RECORD_AUX)
			continue;
		EXPECT_EQ((__u64)PERF_AUX_FLAG_OVERWRITE, a->flags);
		EXPECT_EQ(AUX_CHUNK, a->size);
		EXPECT_GT(a->offset, prev);
		prev = a->offset;
		nr_aux++;
	}
	EXPECT_GE((unsigned long long)nr_aux, 3 * b.aux_size / AUX_CHUNK);
	EXPECT_LE(prev, head);
	aux_unmap(&b);
	close(fd);
}

TEST(aux_watermark_wakes_the_poller)
{
	struct perf_event_attr attr;
	struct aux_buf b = {};
	struct pollfd pfd;
	double end;
	int type, fd, n = 0;

	REQUIRE_AUX_PMU(type);
	aux_attr(&attr, type, 0);
	attr.aux_watermark = 4 * AUX_CHUNK;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, 16, false));
	/* nothing traced: no wakeup */
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	end = now_s() + 10;
	while (now_s() < end) {
		perfev_burn(100000);
		n = poll(&pfd, 1, 0);
		if (n)
			break;
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(1, n);
	EXPECT_TRUE(pfd.revents & POLLIN);
	EXPECT_GE(aux_head(&b), 4 * AUX_CHUNK);
	aux_unmap(&b);
	close(fd);
}

TEST(aux_record_flags_come_from_the_driver)
{
	struct aux_buf b = {};
	struct perf_event_header *h;
	int type, fd, nr_aux = 0;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, CFG_PARTIAL | CFG_COLLISION);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, AUX_PAGES, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_until(&b, 4 * AUX_CHUNK, 10);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&b.ring))) {
		if (h->type != PERF_RECORD_AUX)
			continue;
		EXPECT_EQ((__u64)(PERF_AUX_FLAG_PARTIAL | PERF_AUX_FLAG_COLLISION),
			  ((struct aux_rec *)h)->flags);
		nr_aux++;
	}
	EXPECT_GE(nr_aux, 4);
	aux_unmap(&b);
	close(fd);
}

/*
 * munmap() of the AUX area while its event traces on this CPU: the writer
 * is stopped before the pages go (a debug kernel would catch a write into
 * freed pages); a new AUX mapping gets the trace again after a reschedule.
 */
TEST(aux_munmap_while_tracing)
{
	struct aux_buf b = {};
	struct perfev_value v1, v2;
	__u64 head;
	int type, fd, round;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, aux_map(&b, fd, AUX_PAGES, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (round = 0; round < 3; round++) {
		head = aux_head(&b);
		if (burn_until(&b, head + 2 * AUX_CHUNK, 10) < head + 2 * AUX_CHUNK) {
			dump_aux_records(_metadata, &b);
			ASSERT_TRUE(0) TH_LOG("round %d: no trace after %llu", round,
					      (unsigned long long)head);
		}
		ASSERT_EQ(0, munmap(b.aux, b.aux_size));
		b.aux = NULL;
		/* no area: nothing more is written */
		ASSERT_EQ(0, perfev_read_value(fd, &v1));
		perfev_burn(2000000);
		ASSERT_EQ(0, perfev_read_value(fd, &v2));
		EXPECT_EQ(v1.value, v2.value);
		__atomic_store_n(&b.ring.page->aux_tail, aux_head(&b), __ATOMIC_RELEASE);
		ASSERT_EQ(0, aux_map_area(&b, AUX_PAGES, PROT_READ | PROT_WRITE));
		/*
		 * A slow (debug) guest may have filled the area before the
		 * munmap, which disables the event: enable it (nothing
		 * happens to an enabled one).  A reschedule restarts the
		 * writer that the munmap stopped.
		 */
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		usleep(10000);
	}
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	head = aux_head(&b);
	EXPECT_GE(burn_until(&b, head + 2 * AUX_CHUNK, 10), head + 2 * AUX_CHUNK);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GT(v2.value, v1.value);
	aux_unmap(&b);
	close(fd);
}

/* aux_output members: checks at open, the hw id record, ERROR without a leader. */
TEST(aux_output_member)
{
	struct perf_event_attr attr;
	struct perfev_ring ring;
	struct aux_buf b = {};
	struct perf_event_header *h;
	int type, ptp, fd, member, sw, nr_id = 0;
	char buf[64];

	REQUIRE_AUX_PMU(type);
	ptp = perfev_pmu_type("perfev_test");
	if (ptp < 0)
		SKIP(return, "no perfev_test PMU (CONFIG_PERF_TEST_PMU)");
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1);
	ASSERT_GE(sw, 0);

	perfev_attr_init(&attr, ptp, 0x01);
	attr.aux_output = 1;
	/* no leader, a leader without an AUX area, both aux fields */
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, sw, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.aux_sample_size = 64;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.aux_sample_size = 0;
	/* software events cannot be aux_output members at all */
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.aux_output = 1;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, fd, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);

	perfev_attr_init(&attr, ptp, 0x01);
	attr.aux_output = 1;
	attr.disabled = 0;
	member = perfev_open(&attr, 0, -1, fd, 0);
	ASSERT_GE(member, 0);
	ASSERT_EQ(0, perfev_ring_map(&ring, member, DATA_PAGES, false));
	ASSERT_EQ(0, aux_map(&b, fd, 16, false));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_until(&b, 2 * AUX_CHUNK, 10);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&ring))) {
		if (h->type != PERF_RECORD_AUX_OUTPUT_HW_ID)
			continue;
		EXPECT_LT(((__u64 *)(h + 1))[0], 4ULL);
		nr_id++;
	}
	EXPECT_GE(nr_id, 1);

	/* its leader gone, the member is in ERROR: read() gives 0 bytes */
	aux_unmap(&b);
	close(fd);
	EXPECT_EQ(0, read(member, buf, sizeof(buf)));
	perfev_ring_unmap(&ring);
	close(member);
	close(sw);
}

/* aux_sample_size members: PERF_SAMPLE_AUX holds the latest trace. */
TEST(aux_sample_snapshot)
{
	struct perf_event_attr attr;
	struct perfev_ring ring;
	struct aux_buf b = {};
	struct perf_event_header *h;
	int type, fd, sampler, i, nr = 0, good = 0;

	REQUIRE_AUX_PMU(type);
	fd = aux_open(type, 0);
	ASSERT_GE(fd, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.sample_period = 1000000;		/* 1 ms of task clock */
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_AUX;
	attr.aux_sample_size = 250;		/* rounded down to 248 */
	/* a leader without snapshots */
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	sampler = perfev_open(&attr, 0, -1, fd, 0);
	ASSERT_GE(sampler, 0);
	ASSERT_EQ(0, perfev_ring_map(&ring, sampler, DATA_PAGES, false));
	ASSERT_EQ(0, aux_map(&b, fd, 16, true));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_until(&b, 40 * AUX_CHUNK, 10);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	while ((h = perfev_ring_next_unthrottled(&ring))) {
		__u64 *w = (__u64 *)(h + 1);
		__u64 size;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		nr++;
		size = w[1];
		ASSERT_EQ(248ULL, size);
		ASSERT_EQ(sizeof(*h) + 16 + size, h->size);
		/* consecutive trace words, or zeros before there were enough */
		if ((w[2] >> 48) != 0x5041)
			continue;
		for (i = 1; i < 31; i++)
			ASSERT_EQ(w[2] + i, w[2 + i]);
		good++;
	}
	EXPECT_GE(nr, 1);
	EXPECT_GE(good, 1);
	perfev_ring_unmap(&ring);
	aux_unmap(&b);
	close(sampler);
	close(fd);
}

/* perf_event_open() of @attr with PERF_FLAG_FD_OUTPUT to @out_fd: 0 or errno. */
static int open_fd_output_errno(struct perf_event_attr *attr, int out_fd)
{
	int fd = perfev_open(attr, 0, -1, out_fd, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * An AUX area's private data comes from the PMU that set it up: an AUX
 * event of another PMU must not write into it.  As in 6.1, SET_OUTPUT
 * (and PERF_FLAG_FD_OUTPUT at open) between AUX events of different PMUs
 * is EINVAL, either way; between AUX events of one PMU, or from an event
 * without an AUX area, it works, and the redirected event traces into the
 * area of the buffer it writes into.  (No event runs while one could be
 * in the other PMU's buffer: a kernel without the check would crash.)
 */
TEST(aux_set_output_across_aux_pmus_einval)
{
	struct perf_event_attr attr;
	struct aux_buf ba = {}, bb = {};
	int type, type2, a, a2, b, b2, sw;

	REQUIRE_AUX_PMU(type);
	type2 = perfev_pmu_type("perfev_aux2");
	if (type2 < 0)
		SKIP(return, "no perfev_aux2 PMU (CONFIG_PERF_TEST_AUX_PMU)");
	a = aux_open(type, 0);
	ASSERT_GE(a, 0);
	a2 = aux_open(type, 0);
	ASSERT_GE(a2, 0);
	b = aux_open(type2, 0);
	ASSERT_GE(b, 0);
	b2 = aux_open(type2, 0);
	ASSERT_GE(b2, 0);
	ASSERT_EQ(0, aux_map(&ba, a, 16, false));
	ASSERT_EQ(0, aux_map(&bb, b, 16, false));

	/* into the other PMU's buffer, both ways */
	EXPECT_EQ(-1, ioctl(b2, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(a2, PERF_EVENT_IOC_SET_OUTPUT, b));
	EXPECT_EQ(EINVAL, errno);
	/* nor at open */
	aux_attr(&attr, type2, 0);
	EXPECT_EQ(EINVAL, open_fd_output_errno(&attr, a));
	aux_attr(&attr, type, 0);
	EXPECT_EQ(EINVAL, open_fd_output_errno(&attr, b));

	/* the same PMU, and an event without an AUX area: fine */
	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_SET_OUTPUT, a));
	ASSERT_EQ(0, ioctl(b2, PERF_EVENT_IOC_SET_OUTPUT, b));
	EXPECT_EQ(0, open_fd_output_errno(&attr, a));
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1);
	ASSERT_GE(sw, 0);
	EXPECT_EQ(0, ioctl(sw, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(0, ioctl(sw, PERF_EVENT_IOC_SET_OUTPUT, b));

	/* the redirected events run with their own PMU's area */
	ASSERT_EQ(0, ioctl(b2, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(1000000);
	ASSERT_EQ(0, ioctl(b2, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_GE(burn_until(&ba, 4 * AUX_CHUNK, 10), 4 * AUX_CHUNK);
	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_DISABLE, 0));

	/* once redirected, still not across */
	EXPECT_EQ(-1, ioctl(a2, PERF_EVENT_IOC_SET_OUTPUT, b));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(b2, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	close(sw);
	close(b2);
	close(a2);
	aux_unmap(&bb);
	aux_unmap(&ba);
	close(b);
	close(a);
}

/*
 * SET_OUTPUT's check sees the two events it links, not a third's buffer:
 * AUX events of two PMUs may both write into a software event's buffer,
 * and one of them then sets up the AUX area there (mapped through its own
 * fd).  The area's private data is that PMU's: the other PMU's event must
 * get no AUX handle on it (perfev_aux2 warns when handed another PMU's
 * data, and 6.1 hands it over: testbed/expected lists that warning for
 * 6.1), while the area's own PMU traces into it as usual.
 */
TEST(aux_area_of_another_pmu_gives_no_handle)
{
	struct aux_buf b = {};
	int type, type2, a, a2, sw;

	REQUIRE_AUX_PMU(type);
	type2 = perfev_pmu_type("perfev_aux2");
	if (type2 < 0)
		SKIP(return, "no perfev_aux2 PMU (CONFIG_PERF_TEST_AUX_PMU)");
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1);
	ASSERT_GE(sw, 0);
	a = aux_open(type, 0);
	ASSERT_GE(a, 0);
	a2 = aux_open(type2, 0);
	ASSERT_GE(a2, 0);
	/* the software event's ring; the AUX area through perfev_aux's fd */
	ASSERT_EQ(0, perfev_ring_map(&b.ring, sw, DATA_PAGES, false));
	ASSERT_EQ(0, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, sw));
	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_SET_OUTPUT, sw));
	b.fd = a;
	ASSERT_EQ(0, aux_map_area(&b, 16, PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(1000000);
	ASSERT_EQ(0, ioctl(a2, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0ULL, aux_head(&b));

	ASSERT_EQ(0, ioctl(a, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_GE(burn_until(&b, 4 * AUX_CHUNK, 10), 4 * AUX_CHUNK);
	ASSERT_EQ(0, ioctl(a, PERF_EVENT_IOC_DISABLE, 0));

	aux_unmap(&b);
	close(a2);
	close(a);
	close(sw);
}

/*
 * An AUX event writing into another event's buffer (SET_OUTPUT) is moved
 * to a third one while it traces: it stops before it changes buffers, as
 * in 6.1, so the old area gets nothing more once the ioctl returns (ours
 * once closed its open handle there at its next chunk).  It resumes on
 * the new buffer when it is next scheduled in.
 */
TEST(aux_writer_moved_by_set_output_leaves_the_old_area_alone)
{
	struct aux_buf b1 = {}, b2 = {};
	int type, writer, owner1, owner2;
	__u64 head;

	REQUIRE_AUX_PMU(type);
	owner1 = aux_open(type, 0);
	owner2 = aux_open(type, 0);
	writer = aux_open(type, 0);
	ASSERT_GE(owner1, 0);
	ASSERT_GE(owner2, 0);
	ASSERT_GE(writer, 0);
	/* overwrite areas: never full, the writer never stops by itself */
	ASSERT_EQ(0, aux_map(&b1, owner1, 16, true));
	ASSERT_EQ(0, aux_map(&b2, owner2, 16, true));
	ASSERT_EQ(0, ioctl(writer, PERF_EVENT_IOC_SET_OUTPUT, owner1));
	ASSERT_EQ(0, ioctl(writer, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_GE(burn_until(&b1, 4 * AUX_CHUNK, 10), 4 * AUX_CHUNK);

	ASSERT_EQ(0, ioctl(writer, PERF_EVENT_IOC_SET_OUTPUT, owner2));
	head = aux_head(&b1);
	perfev_burn(2000000);
	EXPECT_EQ(head, aux_head(&b1));
	ASSERT_EQ(0, ioctl(writer, PERF_EVENT_IOC_DISABLE, 0));

	close(writer);
	aux_unmap(&b2);
	aux_unmap(&b1);
	close(owner2);
	close(owner1);
}

/*
 * A PMU that cannot scatter (PERF_PMU_CAP_AUX_NO_SG, perfev_aux2) needs
 * its overwrite area in one physically contiguous block, as in 6.1: one
 * larger than the allocator's largest block is ENOMEM, a small one is one
 * block (the driver checks).  A writable area it gets in chunks, however
 * large: our core once wanted one block there too, so that any area past
 * the largest block failed.
 */
TEST(aux_no_sg_pmu_chunks_unless_overwrite)
{
	struct aux_buf b = {};
	int orders = perfev_buddy_orders();
	long block = orders > 0 ? 1L << (orders - 1) : -1;
	int type2, fd;

	type2 = perfev_pmu_type("perfev_aux2");
	if (type2 < 0)
		SKIP(return, "no perfev_aux2 PMU (CONFIG_PERF_TEST_AUX_PMU)");
	ASSERT_GT(block, 0);

	fd = aux_open(type2, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, aux_map(&b, fd, 2 * block, false))
		TH_LOG("a writable area of %ld pages", 2 * block);
	aux_unmap(&b);
	close(fd);

	memset(&b, 0, sizeof(b));
	fd = aux_open(type2, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(ENOMEM, aux_map(&b, fd, 2 * block, true))
		TH_LOG("an overwrite area of %ld pages", 2 * block);
	aux_unmap(&b);
	close(fd);

	memset(&b, 0, sizeof(b));
	fd = aux_open(type2, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, aux_map(&b, fd, 16, true));
	aux_unmap(&b);
	close(fd);
}

TEST_HARNESS_MAIN
