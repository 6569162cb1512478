// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records in the mmap ring buffer, field by field.
 *
 * Covers: PERF_RECORD_COMM (prctl(PR_SET_NAME), and execve with
 * PERF_RECORD_MISC_COMM_EXEC), MMAP for PROT_EXEC file mappings (pgoff in
 * bytes, file path), data mappings only with attr.mmap_data
 * (PERF_RECORD_MISC_MMAP_DATA), MMAP2 (maj/min/ino/prot/flags, "//anon",
 * build id with attr.build_id), FORK and EXIT of processes and threads
 * (pid/ppid/tid/ptid/time; a thread's EXIT names the process's parent),
 * no task records without attr.task, SWITCH (SWITCH_OUT, SWITCH_OUT_PREEMPT,
 * strict out/in alternation) and SWITCH_CPU_WIDE (next_prev_pid/tid, and
 * no record to a CPU-wide event that is still being opened),
 * NAMESPACES (on fork and unshare; 7 dev/inode pairs equal to stat() of
 * /proc/self/ns files; EACCES unprivileged), LOST (count of dropped records
 * matches PERF_FORMAT_LOST and the event count), CGROUP (on mkdir of a
 * cgroup2 directory: id and path), KSYMBOL and TEXT_POKE (x86 ftrace
 * trampoline of a tracing instance; text_poke needs privileges).
 * READ (an inherit_stat child leaving at exec with its own values).
 * PERF_RECORD_LOST_SAMPLES is not tested: 6.1 emits it only for x86 PEBS.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define EXEC_ENV	"PERFEV_RECORDS_EXEC_HOOK"

/* An execve() of this binary with EXEC_ENV set exits at once. */
static void __attribute__((constructor)) exec_hook(void)
{
	if (getenv(EXEC_ENV))
		_exit(0);
}

struct rec_fork {
	struct perf_event_header h;
	__u32 pid, ppid, tid, ptid;
	__u64 time;
};

struct rec_mmap {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 addr, len, pgoff;
	char filename[];
};

struct rec_mmap2 {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 addr, len, pgoff;
	union {
		struct {
			__u32 maj, min;
			__u64 ino, ino_generation;
		};
		struct {
			__u8 build_id_size, res1;
			__u16 res2;
			__u8 build_id[20];
		};
	};
	__u32 prot, flags;
	char filename[];
};

struct rec_ns {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 nr;
	struct { __u64 dev, ino; } link[];
};

static size_t page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Side-band dummy event, disabled, with time on CLOCK_MONOTONIC. */
static void sb_attr(struct perf_event_attr *a)
{
	perfev_attr_init(a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static int open_ring(struct perf_event_attr *a, pid_t pid, int cpu, struct perfev_ring *r,
		     unsigned int pages)
{
	int fd = perfev_open(a, pid, cpu, -1, 0);

	if (fd < 0)
		return -1;
	if (perfev_ring_map(r, fd, pages, false)) {
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned int ring_pages(void)
{
	unsigned int n = 1;

	while ((size_t)n * 2 * page_size() <= 262144)
		n *= 2;
	return n;
}

static void close_ring(int fd, struct perfev_ring *r)
{
	perfev_ring_unmap(r);
	close(fd);
}

/* A file of @pages pages in /tmp; returns the fd, path in @path. */
static int make_file(char *path, size_t len, size_t pages)
{
	char *buf;
	int fd;

	snprintf(path, len, "/tmp/perfev-records-%d-XXXXXX", getpid());
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	buf = calloc(pages, page_size());
	if (!buf || write(fd, buf, pages * page_size()) != (ssize_t)(pages * page_size())) {
		free(buf);
		close(fd);
		unlink(path);
		return -1;
	}
	free(buf);
	return fd;
}

/* ------------------------------------------------------------------ COMM */

TEST(comm_on_prctl_set_name)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	char old[16], name[16] = "perfev-comm-123";
	__u32 ids[2];
	int fd;

	ASSERT_EQ(0, prctl(PR_GET_NAME, old));
	sb_attr(&a);
	a.comm = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, prctl(PR_SET_NAME, name));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	prctl(PR_SET_NAME, old);
	h = perfev_ring_find(&r, PERF_RECORD_COMM);
	ASSERT_NE(NULL, h);
	/* 15 characters and the NUL fill exactly 16 bytes. */
	EXPECT_EQ(8 + 8 + 16, h->size);
	EXPECT_EQ(0, h->misc);
	memcpy(ids, h + 1, 8);
	EXPECT_EQ((__u32)getpid(), ids[0]);
	EXPECT_EQ((__u32)gettid_(), ids[1]);
	EXPECT_STREQ(name, (char *)(h + 1) + 8);
	EXPECT_EQ(NULL, perfev_ring_find(&r, PERF_RECORD_COMM));
	close_ring(fd, &r);
}

static void exec_self(void *arg)
{
	char *const argv[] = { "perfev-records", NULL };
	char *const envp[] = { EXEC_ENV "=1", NULL };

	execve("/proc/self/exe", argv, envp);
	_exit(3);
}

TEST(comm_exec_flag_on_execve)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_child c;
	struct perfev_ring r;
	__u32 ids[2];
	int fd, n = 0;

	ASSERT_EQ(0, perfev_child_start(&c, exec_self, NULL));
	sb_attr(&a);
	a.comm = 1;
	a.comm_exec = 1;
	a.disabled = 0;
	fd = open_ring(&a, c.pid, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));
	while ((h = perfev_ring_find(&r, PERF_RECORD_COMM))) {
		/* comm is the basename of the path given to execve(). */
		EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, h->misc);
		EXPECT_EQ(8 + 8 + 8, h->size);
		memcpy(ids, h + 1, 8);
		EXPECT_EQ((__u32)c.pid, ids[0]);
		EXPECT_EQ((__u32)c.pid, ids[1]);
		EXPECT_STREQ("exe", (char *)(h + 1) + 8);
		n++;
	}
	EXPECT_EQ(1, n);
	close_ring(fd, &r);
}

/* ------------------------------------------------------------------ READ */

struct rec_read {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 value, enabled, running, id;
};

/*
 * A child that runs a little, then execs: its inherited task-clock event
 * (remove_on_exec) leaves at the exec.  The parent's event is per CPU
 * (an inherited per-task event cannot be mapped), the parent pinned.
 * Returns the number of PERF_RECORD_READ, the first in @rec.
 */
static int read_records_at_child_exec(struct __test_metadata *_metadata, bool inherit_stat,
				      struct rec_read *rec, pid_t *child, __u64 *id)
{
	struct perf_event_header *h;
	struct perf_event_attr a;
	struct perfev_child c;
	struct perfev_ring r;
	cpu_set_t orig;
	int fd, cpu, extra, n = 0;

	cpu = perfev_pin_here(&orig);
	if (cpu < 0)
		return -1;
	perfev_attr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	a.disabled = 0;
	a.inherit = 1;
	a.inherit_stat = inherit_stat;
	a.remove_on_exec = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID;
	fd = open_ring(&a, 0, cpu, &r, ring_pages());
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_ID, id) ||
	    perfev_child_start(&c, exec_self, NULL)) {
		perfev_unpin(&orig);
		return -1;
	}
	/*
	 * A change of the parent's context after the fork: 6.1 would
	 * otherwise swap the two (still equal) contexts when the parent
	 * sleeps and the child runs, so that the child holds the parent's
	 * own events when it execs, and removes those (no READ record).
	 * Ours never swaps contexts with inherit_stat events.
	 */
	extra = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1);
	EXPECT_LE(0, extra);
	*child = c.pid;
	perfev_burn(100000);
	EXPECT_EQ(0, perfev_child_go(&c));
	EXPECT_EQ(0, perfev_child_wait(&c));
	while ((h = perfev_ring_find(&r, PERF_RECORD_READ))) {
		if (!n++)
			memcpy(rec, h, h->size < sizeof(*rec) ? h->size : sizeof(*rec));
	}
	close_ring(fd, &r);
	close(extra);
	perfev_unpin(&orig);
	return n;
}

TEST(read_record_of_an_inherit_stat_child_at_exec)
{
	struct rec_read rec = {};
	pid_t child;
	__u64 id;

	ASSERT_EQ(1, read_records_at_child_exec(_metadata, true, &rec, &child, &id));
	EXPECT_EQ(sizeof(rec), rec.h.size);
	EXPECT_EQ((__u32)child, rec.pid);
	EXPECT_EQ((__u32)child, rec.tid);
	/*
	 * The child's own count: it ran (fork, exec).  Not bounded by
	 * time_enabled: task-clock reads its clock apart from the context
	 * time (6.1 too), and a guest vCPU preempted between the two reads
	 * puts it ahead by as much (0.9 ms seen on a busy host).
	 */
	EXPECT_LT(0ULL, rec.value);
	EXPECT_LT(0ULL, rec.enabled);
	EXPECT_EQ(rec.enabled, rec.running);
	/* its id is its parent's (PERF_FORMAT_ID is the opened event's id) */
	EXPECT_EQ(id, rec.id);

	/* no inherit_stat, no record */
	ASSERT_EQ(0, read_records_at_child_exec(_metadata, false, &rec, &child, &id));
}

/* ------------------------------------------------------------------ MMAP */

TEST(mmap_exec_file_mapping)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	struct rec_mmap *m;
	size_t pg = page_size();
	char path[128], real[PATH_MAX];
	int fd, ffd, n = 0;
	void *p;

	ffd = make_file(path, sizeof(path), 4);
	ASSERT_GE(ffd, 0);
	ASSERT_NE(NULL, realpath(path, real));
	sb_attr(&a);
	a.mmap = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, ffd, pg);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	while ((h = perfev_ring_find(&r, PERF_RECORD_MMAP))) {
		m = (struct rec_mmap *)h;
		if (m->addr != (__u64)(unsigned long)p)
			continue;
		n++;
		EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc);
		EXPECT_EQ((__u32)getpid(), m->pid);
		EXPECT_EQ((__u32)gettid_(), m->tid);
		EXPECT_EQ(2 * pg, m->len);
		/* pgoff is the file offset in bytes. */
		EXPECT_EQ(pg, m->pgoff);
		EXPECT_STREQ(real, m->filename);
		EXPECT_EQ(sizeof(*m) + align8(strlen(real) + 1), h->size);
	}
	EXPECT_EQ(1, n);
	munmap(p, 2 * pg);
	close(ffd);
	unlink(path);
	close_ring(fd, &r);
}

static int count_mmap_at(struct perfev_ring *r, void *p, __u16 *misc)
{
	struct perf_event_header *h;
	int n = 0;

	while ((h = perfev_ring_next(r))) {
		if (h->type != PERF_RECORD_MMAP ||
		    ((struct rec_mmap *)h)->addr != (__u64)(unsigned long)p)
			continue;
		*misc = h->misc;
		n++;
	}
	return n;
}

TEST(mmap_data_only_with_attr_mmap_data)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	size_t pg = page_size();
	char path[128];
	int fd, ffd;
	__u16 misc = 0xffff;
	void *p;

	ffd = make_file(path, sizeof(path), 2);
	ASSERT_GE(ffd, 0);
	/* attr.mmap alone: a non-executable mapping is not reported. */
	sb_attr(&a);
	a.mmap = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, ffd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, count_mmap_at(&r, p, &misc));
	munmap(p, pg);
	close_ring(fd, &r);

	/* attr.mmap_data: it is, flagged MMAP_DATA. */
	a.mmap = 0;
	a.mmap_data = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, ffd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(1, count_mmap_at(&r, p, &misc));
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, misc);
	munmap(p, pg);
	close_ring(fd, &r);

	/* mmap_data alone does not report executable mappings. */
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, ffd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, count_mmap_at(&r, p, &misc));
	munmap(p, pg);
	close_ring(fd, &r);
	close(ffd);
	unlink(path);
}

static struct rec_mmap2 *find_mmap2(struct perfev_ring *r, void *p)
{
	struct perf_event_header *h;

	while ((h = perfev_ring_find(r, PERF_RECORD_MMAP2)))
		if (((struct rec_mmap2 *)h)->addr == (__u64)(unsigned long)p)
			return (struct rec_mmap2 *)h;
	return NULL;
}

TEST(mmap2_file_fields)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	struct rec_mmap2 *m;
	size_t pg = page_size();
	char path[128], real[PATH_MAX];
	struct stat st;
	int fd, ffd;
	void *p, *q;

	ffd = make_file(path, sizeof(path), 4);
	ASSERT_GE(ffd, 0);
	ASSERT_NE(NULL, realpath(path, real));
	ASSERT_EQ(0, fstat(ffd, &st));
	sb_attr(&a);
	a.mmap = 1;
	a.mmap2 = 1;
	a.mmap_data = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, ffd, 2 * pg);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);

	m = find_mmap2(&r, p);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(PERF_RECORD_MISC_USER, m->h.misc);
	EXPECT_EQ(sizeof(*m) + align8(strlen(real) + 1), m->h.size);
	EXPECT_EQ((__u32)getpid(), m->pid);
	EXPECT_EQ((__u32)gettid_(), m->tid);
	EXPECT_EQ(pg, m->len);
	EXPECT_EQ(2 * pg, m->pgoff);
	EXPECT_EQ(major(st.st_dev), m->maj);
	EXPECT_EQ(minor(st.st_dev), m->min);
	EXPECT_EQ((__u64)st.st_ino, m->ino);
	EXPECT_EQ((__u32)(PROT_READ | PROT_EXEC), m->prot);
	EXPECT_EQ((__u32)MAP_PRIVATE, m->flags);
	EXPECT_STREQ(real, m->filename);

	close_ring(fd, &r);

	/* A shared writable data mapping (attr.mmap_data). */
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	q = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, ffd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, q);
	m = find_mmap2(&r, q);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, m->h.misc);
	EXPECT_EQ(0ULL, m->pgoff);
	EXPECT_EQ((__u32)(PROT_READ | PROT_WRITE), m->prot);
	EXPECT_EQ((__u32)MAP_SHARED, m->flags);
	EXPECT_EQ((__u64)st.st_ino, m->ino);
	munmap(p, pg);
	munmap(q, 2 * pg);
	close(ffd);
	unlink(path);
	close_ring(fd, &r);
}

TEST(mmap2_anonymous_fields)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	struct rec_mmap2 *m;
	size_t pg = page_size();
	int fd;
	void *p;

	sb_attr(&a);
	/* 6.1 only emits mmap records while some event has mmap or mmap_data. */
	a.mmap = 1;
	a.mmap2 = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	m = find_mmap2(&r, p);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(sizeof(*m) + 8, m->h.size);
	EXPECT_EQ(3 * pg, m->len);
	EXPECT_EQ(0U, m->maj);
	EXPECT_EQ(0U, m->min);
	EXPECT_EQ(0ULL, m->ino);
	EXPECT_EQ(0ULL, m->ino_generation);
	EXPECT_EQ((__u32)(PROT_READ | PROT_WRITE | PROT_EXEC), m->prot);
	EXPECT_EQ((__u32)MAP_PRIVATE, m->flags);
	EXPECT_STREQ("//anon", m->filename);
	munmap(p, 3 * pg);
	close_ring(fd, &r);
}

/* GNU build id of the ELF file @path from its PT_NOTE segments; size or 0. */
static int file_build_id(const char *path, unsigned char *id)
{
	unsigned char buf[8192];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph;
	ssize_t len;
	int fd, i;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < (ssize_t)sizeof(*eh) || memcmp(buf, ELFMAG, SELFMAG))
		return 0;
	for (i = 0; i < eh->e_phnum; i++) {
		size_t off, end;

		ph = (Elf64_Phdr *)(buf + eh->e_phoff + i * eh->e_phentsize);
		if ((unsigned char *)(ph + 1) > buf + len || ph->p_type != PT_NOTE)
			continue;
		off = ph->p_offset;
		end = off + ph->p_filesz;
		/* 6.1 build_id_parse() only looks at notes in the first page. */
		if (end > (size_t)len || end > page_size())
			continue;
		while (off + sizeof(Elf64_Nhdr) <= end) {
			Elf64_Nhdr *nh = (Elf64_Nhdr *)(buf + off);
			size_t name = off + sizeof(*nh);
			size_t desc = name + ((nh->n_namesz + 3) & ~3U);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(buf + name, "GNU", 4) && nh->n_descsz <= 20 &&
			    desc + nh->n_descsz <= end) {
				memcpy(id, buf + desc, nh->n_descsz);
				return nh->n_descsz;
			}
			off = desc + ((nh->n_descsz + 3) & ~3U);
		}
	}
	return 0;
}

TEST(mmap2_build_id)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	struct rec_mmap2 *m;
	unsigned char id[20];
	char exe[PATH_MAX];
	int fd, efd, idlen;
	ssize_t n;
	void *p;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_GT(n, 0);
	exe[n] = 0;
	idlen = file_build_id(exe, id);
	if (!idlen)
		SKIP(return, "this binary has no GNU build id note in its first page");
	efd = open(exe, O_RDONLY);
	ASSERT_GE(efd, 0);
	sb_attr(&a);
	a.mmap = 1;
	a.mmap2 = 1;
	a.build_id = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	p = mmap(NULL, page_size(), PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(MAP_FAILED, p);
	m = find_mmap2(&r, p);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, m->h.misc);
	EXPECT_EQ(idlen, m->build_id_size);
	EXPECT_EQ(0, m->res1);
	EXPECT_EQ(0, m->res2);
	EXPECT_EQ(0, memcmp(id, m->build_id, idlen));
	EXPECT_EQ((__u32)(PROT_READ | PROT_EXEC), m->prot);
	EXPECT_EQ(sizeof(*m) + align8(strlen(exe) + 1), m->h.size);
	EXPECT_STREQ(exe, m->filename);
	munmap(p, page_size());
	close(efd);
	close_ring(fd, &r);
}

/* ------------------------------------------------------------ FORK, EXIT */

static struct rec_fork *find_task(struct perfev_ring *r, __u32 type, __u32 tid)
{
	struct perf_event_header *h;

	while ((h = perfev_ring_find(r, type)))
		if (((struct rec_fork *)h)->tid == tid)
			return (struct rec_fork *)h;
	return NULL;
}

TEST(fork_and_exit_of_child_process)
{
	struct perf_event_attr a;
	struct perfev_child c;
	struct perfev_ring r;
	struct rec_fork fork_rec, *f;
	cpu_set_t orig;
	__u64 t0, t1;
	int fd, cpu;

	/* Inherited (so the child reports its exit) and mmapped: per CPU. */
	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);
	sb_attr(&a);
	a.task = 1;
	a.inherit = 1;
	fd = open_ring(&a, 0, cpu, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t0 = mono_ns();
	ASSERT_EQ(0, perfev_child_start(&c, NULL, NULL));
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));
	t1 = mono_ns();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	perfev_unpin(&orig);

	f = find_task(&r, PERF_RECORD_FORK, c.pid);
	ASSERT_NE(NULL, f);
	fork_rec = *f;
	EXPECT_EQ(sizeof(*f), f->h.size);
	EXPECT_EQ((__u32)c.pid, f->pid);
	EXPECT_EQ((__u32)getpid(), f->ppid);
	EXPECT_EQ((__u32)gettid_(), f->ptid);
	EXPECT_GE(f->time, t0);
	EXPECT_LE(f->time, t1);

	f = find_task(&r, PERF_RECORD_EXIT, c.pid);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(sizeof(*f), f->h.size);
	EXPECT_EQ((__u32)c.pid, f->pid);
	EXPECT_EQ((__u32)getpid(), f->ppid);
	EXPECT_EQ((__u32)getpid(), f->ptid);
	EXPECT_GE(f->time, fork_rec.time);
	EXPECT_LE(f->time, t1);
	close_ring(fd, &r);
}

static void *thread_body(void *arg)
{
	*(pid_t *)arg = gettid_();
	return NULL;
}

TEST(fork_and_exit_of_thread)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	struct rec_fork *f;
	cpu_set_t orig;
	pthread_t th;
	pid_t tid = 0;
	int fd, cpu;

	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);
	sb_attr(&a);
	a.task = 1;
	a.inherit = 1;
	fd = open_ring(&a, 0, cpu, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_body, &tid));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	perfev_unpin(&orig);
	ASSERT_GT(tid, 0);

	f = find_task(&r, PERF_RECORD_FORK, tid);
	ASSERT_NE(NULL, f);
	EXPECT_EQ((__u32)getpid(), f->pid);
	EXPECT_EQ((__u32)getpid(), f->ppid);
	EXPECT_EQ((__u32)gettid_(), f->ptid);
	f = find_task(&r, PERF_RECORD_EXIT, tid);
	ASSERT_NE(NULL, f);
	EXPECT_EQ((__u32)getpid(), f->pid);
	/* A thread's real_parent is the parent of the whole process. */
	EXPECT_EQ((__u32)getppid(), f->ppid);
	EXPECT_EQ((__u32)getppid(), f->ptid);
	close_ring(fd, &r);
}

static int fork_records_with(struct perf_event_attr *a, struct perfev_ring *r, pid_t *child)
{
	struct perfev_child c;
	int fd, n;

	fd = open_ring(a, 0, -1, r, ring_pages());
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || perfev_child_start(&c, NULL, NULL) ||
	    perfev_child_go(&c) || perfev_child_wait(&c) ||
	    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0)) {
		close_ring(fd, r);
		return -1;
	}
	*child = c.pid;
	n = perfev_ring_count(r, PERF_RECORD_FORK);
	close_ring(fd, r);
	return n;
}

TEST(fork_records_for_comm_mmap_task_only)
{
	struct perf_event_attr a;
	struct perfev_ring r;
	pid_t child;

	/* FORK/EXIT go to events with comm, mmap, mmap2, mmap_data or task. */
	sb_attr(&a);
	a.comm = 1;
	EXPECT_EQ(1, fork_records_with(&a, &r, &child));
	sb_attr(&a);
	a.mmap = 1;
	EXPECT_EQ(1, fork_records_with(&a, &r, &child));
	sb_attr(&a);
	a.context_switch = 1;
	EXPECT_EQ(0, fork_records_with(&a, &r, &child));
	sb_attr(&a);
	a.cgroup = 1;
	EXPECT_EQ(0, fork_records_with(&a, &r, &child));
}

/* ---------------------------------------------------------------- SWITCH */

TEST(switch_per_task_alternates_out_and_in)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	int fd, i, outs = 0, ins = 0;
	bool expect_out = true;

	sb_attr(&a);
	a.context_switch = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 4; i++)
		usleep(2000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&r))) {
		EXPECT_NE((__u32)PERF_RECORD_SWITCH_CPU_WIDE, h->type);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		/* No payload without sample_id_all. */
		EXPECT_EQ(8, h->size);
		if (expect_out) {
			/* Blocked in nanosleep: not runnable, so no PREEMPT bit. */
			EXPECT_EQ(PERF_RECORD_MISC_SWITCH_OUT,
				  h->misc & ~PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
			outs++;
		} else {
			EXPECT_EQ(0, h->misc);
			ins++;
		}
		expect_out = !expect_out;
	}
	EXPECT_GE(outs, 4);
	EXPECT_GE(ins, 4);
	EXPECT_LE(outs - ins, 1);
	close_ring(fd, &r);
}

static void spin_forever(void *arg)
{
	volatile unsigned long x = 0;

	for (;;)
		x++;
}

TEST(switch_out_preempt_when_still_runnable)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_child c;
	struct perfev_ring r;
	volatile unsigned long spin = 0;
	cpu_set_t orig;
	int fd, i, cpu, preempt = 0, plain = 0;
	__u64 end;

	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);
	/* A spinning child on the same CPU. */
	ASSERT_EQ(0, perfev_child_start(&c, spin_forever, NULL));
	ASSERT_EQ(0, perfev_child_go(&c));
	sb_attr(&a);
	a.context_switch = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* Compete for the CPU until the scheduler has preempted us a few times. */
	end = mono_ns() + 2000000000ULL;
	while (perfev_ring_count(&r, PERF_RECORD_SWITCH) < 8 && mono_ns() < end)
		for (i = 0; i < 100000; i++)
			spin++;
	usleep(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	kill(c.pid, SIGKILL);
	perfev_child_wait(&c);
	perfev_unpin(&orig);
	while ((h = perfev_ring_next(&r))) {
		if (h->type != PERF_RECORD_SWITCH || !(h->misc & PERF_RECORD_MISC_SWITCH_OUT))
			continue;
		if (h->misc == (PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT))
			preempt++;
		else if (h->misc == PERF_RECORD_MISC_SWITCH_OUT)
			plain++;
		else
			EXPECT_EQ(PERF_RECORD_MISC_SWITCH_OUT, h->misc);
	}
	/* Preempted while runnable; the final usleep() blocks. */
	EXPECT_GE(preempt, 1);
	EXPECT_GE(plain, 1);
	close_ring(fd, &r);
}

/* Round trips with a child over pipes; returns the child's pid or -1. */
static pid_t pingpong(int rounds)
{
	int a[2], b[2], i, status;
	char ch = 0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		for (i = 0; i < rounds; i++)
			if (read(a[0], &ch, 1) != 1 || write(b[1], &ch, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < rounds; i++)
		if (write(a[1], &ch, 1) != 1 || read(b[0], &ch, 1) != 1)
			break;
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return i == rounds ? pid : -1;
}

TEST(switch_cpu_wide_next_prev)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	cpu_set_t orig;
	__u32 v[4];
	int fd, cpu, out_to_child = 0, in_from_child = 0, n = 0;
	pid_t child;

	cpu = perfev_pin_here(&orig);
	ASSERT_GE(cpu, 0);
	sb_attr(&a);
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID;
	fd = open_ring(&a, -1, cpu, &r, ring_pages());
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		perfev_unpin(&orig);
		SKIP(return, "CPU-wide events need privileges");
	}
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	child = pingpong(20);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	perfev_unpin(&orig);
	ASSERT_GT(child, 0);
	while ((h = perfev_ring_next(&r))) {
		EXPECT_NE((__u32)PERF_RECORD_SWITCH, h->type);
		if (h->type != PERF_RECORD_SWITCH_CPU_WIDE)
			continue;
		/* next_prev_pid, next_prev_tid, then the TID trailer. */
		ASSERT_EQ(8 + 8 + 8, h->size);
		memcpy(v, h + 1, sizeof(v));
		n++;
		if (v[2] != (__u32)getpid())
			continue;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT) {
			if (v[0] == (__u32)child && v[1] == (__u32)child)
				out_to_child++;
		} else if (v[0] == (__u32)child && v[1] == (__u32)child) {
			in_from_child++;
		}
	}
	EXPECT_GE(n, 40);
	/* Blocking in read() hands the CPU straight to the woken child. */
	EXPECT_GE(out_to_child, 1);
	EXPECT_GE(in_from_child, 1);
	close_ring(fd, &r);
}

/* ------------------------------------------------------------ NAMESPACES */

static const char * const ns_names[7] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

static void check_ns(struct __test_metadata *_metadata, struct rec_ns *ns, const char *proc)
{
	char path[64];
	struct stat st;
	int i;

	ASSERT_EQ(7ULL, ns->nr);
	ASSERT_EQ(8 + 16 + 7 * 16, ns->h.size);
	for (i = 0; i < 7; i++) {
		snprintf(path, sizeof(path), "%s/ns/%s", proc, ns_names[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
		EXPECT_EQ((__u64)st.st_dev, ns->link[i].dev) TH_LOG("%s dev", ns_names[i]);
		EXPECT_EQ((__u64)st.st_ino, ns->link[i].ino) TH_LOG("%s ino", ns_names[i]);
	}
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct sb_churn {
	int cpu;
	int stop;		/* set by the main thread (atomic accesses) */
	int opened;
};

/* Open and close CPU-wide switch-record events on one CPU, as fast as it can. */
static void *sb_churn_open(void *arg)
{
	struct sb_churn *c = arg;
	struct perf_event_attr attr;
	cpu_set_t set;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.disabled = 0;
	attr.context_switch = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		fd = perfev_open(&attr, -1, c->cpu, -1, 0);
		if (fd >= 0) {
			c->opened++;
			close(fd);
		}
	}
	return NULL;
}

/*
 * A CPU-wide event that asked for switch records is listed for its CPU's
 * records from its allocation on, but has no context until perf_event_open
 * installs it; the opener can sleep (and switch) in between.  Two threads on
 * one CPU open and close such events (contending the CPU context's mutex,
 * so openers sleep there) while a third switches on that CPU: the writers
 * must skip the half-made events.  Found by perf_fuzz (x86_64 DEBUG=1, seed
 * 20261125): a NULL event->ctx dereference in the SWITCH record writer.
 */
TEST(switch_records_while_cpu_wide_events_are_opened)
{
	struct sb_churn c = { .cpu = 0 };
	pthread_t t[2];
	cpu_set_t set, orig;
	int i, fd;
	double end;

	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1);
	ASSERT_GE(fd, 0);
	close(fd);
	{
		struct perf_event_attr attr;

		perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
		fd = perfev_open(&attr, -1, 0, -1, 0);
		if (fd < 0)
			SKIP(return, "CPU-wide events need privileges");
		close(fd);
	}
	sched_getaffinity(0, sizeof(orig), &orig);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, sb_churn_open, &c));
	CPU_ZERO(&set);
	CPU_SET(c.cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (end = mono_s() + 2; mono_s() < end;)
		sched_yield();
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	sched_setaffinity(0, sizeof(orig), &orig);
	EXPECT_GT(c.opened, 100);
}

TEST(namespaces_on_fork)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_child c;
	struct perfev_ring r;
	struct rec_ns *ns = NULL;
	int fd;

	sb_attr(&a);
	a.namespaces = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	if (fd < 0 && errno == EACCES)
		SKIP(return, "attr.namespaces needs CAP_PERFMON");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_child_start(&c, NULL, NULL));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_find(&r, PERF_RECORD_NAMESPACES))) {
		ns = (struct rec_ns *)h;
		if (ns->tid == (__u32)c.pid)
			break;
		ns = NULL;
	}
	ASSERT_NE(NULL, ns);
	EXPECT_EQ((__u32)c.pid, ns->pid);
	EXPECT_EQ(0, ns->h.misc);
	/* The child shares every namespace with this process. */
	check_ns(_metadata, ns, "/proc/self");
	perfev_child_go(&c);
	perfev_child_wait(&c);
	close_ring(fd, &r);
}

TEST(namespaces_on_unshare)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	struct rec_ns *ns = NULL;
	struct stat before, after;
	int fd, ret;

	sb_attr(&a);
	a.namespaces = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	if (fd < 0 && errno == EACCES)
		SKIP(return, "attr.namespaces needs CAP_PERFMON");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, stat("/proc/self/ns/uts", &before));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* The harness runs each test in its own process: unsharing is local. */
	ret = unshare(CLONE_NEWUTS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	if (ret && errno == EPERM) {
		close_ring(fd, &r);
		SKIP(return, "unshare(CLONE_NEWUTS) needs CAP_SYS_ADMIN");
	}
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, stat("/proc/self/ns/uts", &after));
	ASSERT_NE(before.st_ino, after.st_ino);
	h = perfev_ring_find(&r, PERF_RECORD_NAMESPACES);
	ASSERT_NE(NULL, h);
	ns = (struct rec_ns *)h;
	EXPECT_EQ((__u32)getpid(), ns->pid);
	EXPECT_EQ((__u32)gettid_(), ns->tid);
	check_ns(_metadata, ns, "/proc/self");
	EXPECT_EQ((__u64)after.st_ino, ns->link[1].ino);
	close_ring(fd, &r);
}

TEST(namespaces_unprivileged_eacces)
{
	struct perf_event_attr a;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop privileges");
	sb_attr(&a);
	a.namespaces = 1;
	a.exclude_kernel = 1;
	EXPECT_EQ(EACCES, perfev_run_unprivileged(perfev_open_errno, &a));
}

/* ------------------------------------------------------------------ LOST */

TEST(lost_records_account_for_dropped_samples)
{
	const size_t stack = 1024, rec = 8 + 24 + 8 + stack + 8, n = 24;
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	__u64 v[2], lr[2], id, samples = 0, lost = 0, lost_recs = 0, fits;
	size_t pg = page_size(), i;
	volatile char *m;
	int fd;

	perfev_attr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_IP | PERF_SAMPLE_TIME |
			PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = stack;
	a.exclude_kernel = 1;
	a.read_format = PERF_FORMAT_LOST;
	/* One data page holds only a few of these large samples. */
	fd = open_ring(&a, 0, -1, &r, 1);
	ASSERT_GE(fd, 0);
	fits = pg / rec;
	ASSERT_LT(fits, (__u64)n);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	/* Fault the ring's pages in now: those faults would be sampled too. */
	perfev_ring_drain(&r);
	EXPECT_EQ(NULL, perfev_ring_next(&r));
	i = *(volatile char *)r.data;
	m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < n; i++)
		m[i * pg] = 1;
	/* Make room; the next record written is preceded by PERF_RECORD_LOST. */
	while ((h = perfev_ring_next(&r))) {
		EXPECT_EQ((__u32)PERF_RECORD_SAMPLE, h->type);
		samples += h->type == PERF_RECORD_SAMPLE;
	}
	EXPECT_EQ(fits, samples);
	m[pg] = 2;	/* present: no fault */
	m[n * pg - 1] = 2;
	ASSERT_EQ(0, munmap((void *)m, n * pg));
	m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	m[0] = 1;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = perfev_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			ASSERT_EQ(rec, h->size);
			/* The LOST record comes first. */
			EXPECT_EQ(1ULL, lost_recs);
			samples++;
		} else if (h->type == PERF_RECORD_LOST) {
			ASSERT_EQ(8 + 16, h->size);
			memcpy(lr, h + 1, sizeof(lr));
			EXPECT_EQ(id, lr[0]);
			lost += lr[1];
			lost_recs++;
		} else {
			EXPECT_EQ((__u32)PERF_RECORD_SAMPLE, h->type) TH_LOG("throttled?");
		}
	}
	ASSERT_EQ((ssize_t)sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(1ULL, lost_recs);
	EXPECT_GE(lost, n - fits);
	/* Every fault is either in the ring or counted as lost. */
	EXPECT_GE(v[0], n + 1);
	EXPECT_LE(v[0], n + 4);
	EXPECT_EQ(v[0], samples + lost);
	/* PERF_FORMAT_LOST counts the same drops. */
	EXPECT_EQ(lost, v[1]);
	munmap((void *)m, pg);
	close_ring(fd, &r);
}

/* ---------------------------------------------------------------- CGROUP */

/* perf_event's line of /proc/cgroups: hierarchy id and number of cgroups. */
static int perf_event_hierarchy(int *nr_cgroups)
{
	char line[256], name[64];
	int hier, nr, en;
	FILE *f = fopen("/proc/cgroups", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %d %d %d", name, &hier, &nr, &en) == 4 &&
		    !strcmp(name, "perf_event")) {
			fclose(f);
			*nr_cgroups = nr;
			return hier;
		}
	fclose(f);
	return -1;
}

/*
 * Unmount the temporary v1 perf_event hierarchy so that perf_event returns to
 * cgroup2: only happens when the root has no children left, and a removed
 * cgroup leaves its parent's list asynchronously, so wait for that first.
 */
static int v1_perf_event_unmount(const char *mnt)
{
	int i, nr = 0;

	for (i = 0; i < 200; i++) {
		if (perf_event_hierarchy(&nr) <= 0 || nr <= 1)
			break;
		usleep(10000);
	}
	if (umount(mnt))
		return -1;
	rmdir(mnt);
	for (i = 0; i < 200; i++) {
		if (perf_event_hierarchy(&nr) == 0)
			return 0;
		usleep(10000);
	}
	return -1;
}

TEST(cgroup_record_on_mkdir)
{
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	char mnt[256] = "", dir[512], name[64], line[1024];
	bool mounted = false;
	struct stat st;
	__u64 id = 0;
	FILE *f;
	int fd, n = 0;

	if (geteuid() != 0)
		SKIP(return, "needs root to create a cgroup");
	f = fopen("/proc/self/mounts", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		char dev[256], path[256], type[64];

		if (sscanf(line, "%255s %255s %63s", dev, path, type) == 3 &&
		    !strcmp(type, "cgroup2")) {
			snprintf(mnt, sizeof(mnt), "%s", path);
			break;
		}
	}
	fclose(f);
	if (!mnt[0]) {
		/*
		 * Nothing mounted: until cgroup.subtree_control is written once,
		 * 6.1's cgroup2 root does not propagate the implicit perf_event
		 * controller to new children (no css, no css_online, no record).
		 * A v1 hierarchy with perf_event does, and gives it back to
		 * cgroup2 when unmounted.
		 */
		snprintf(mnt, sizeof(mnt), "/tmp/perfev-cg-%d", getpid());
		ASSERT_EQ(0, mkdir(mnt, 0700));
		if (mount("cgroup", mnt, "cgroup", 0, "perf_event")) {
			rmdir(mnt);
			SKIP(return, "cannot mount a perf_event cgroup hierarchy");
		}
		mounted = true;
	}
	snprintf(name, sizeof(name), "perfev-rec-%d", getpid());
	snprintf(dir, sizeof(dir), "%s/%s", mnt, name);

	sb_attr(&a);
	a.cgroup = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, stat(dir, &st));
	rmdir(dir);
	if (mounted)
		EXPECT_EQ(0, v1_perf_event_unmount(mnt));
	while ((h = perfev_ring_find(&r, PERF_RECORD_CGROUP))) {
		memcpy(&id, h + 1, 8);
		n++;
		/* The kernfs inode number is the cgroup id. */
		EXPECT_EQ((__u64)st.st_ino, id);
		/* The path is relative to the cgroup2 root. */
		EXPECT_EQ('/', *((char *)(h + 1) + 8));
		EXPECT_STREQ(name, (char *)(h + 1) + 9);
		EXPECT_EQ(8 + 8 + align8(strlen(name) + 2), h->size);
	}
	EXPECT_EQ(1, n);
	close_ring(fd, &r);
}

/* ------------------------------------------------------ KSYMBOL, TEXT_POKE */

static int tracefs_write(const char *file, const char *val)
{
	int fd = open(file, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static __u64 kallsyms_addr(const char *sym)
{
	char line[512], name[256], type;
	unsigned long long addr;
	__u64 ret = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, sym) && (type == 't' || type == 'T')) {
			ret = addr;
			break;
		}
	fclose(f);
	return ret;
}

/* Does the ftrace filter file @file hold exactly @func? */
static bool filter_is(const char *file, const char *func)
{
	char buf[256];
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return !strcmp(buf, func);
}

TEST(text_poke_needs_kernel_privilege)
{
	struct perf_event_attr a;
	long long paranoid;

	ASSERT_EQ(0, perfev_read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid));
	if (paranoid <= 1)
		SKIP(return, "perf_event_paranoid %lld lets everyone see the kernel", paranoid);
	if (geteuid() != 0)
		SKIP(return, "needs root to drop privileges");
	sb_attr(&a);
	a.text_poke = 1;
	a.exclude_kernel = 1;
	EXPECT_EQ(EACCES, perfev_run_unprivileged(perfev_open_errno, &a));
	EXPECT_EQ(0, perfev_open_errno(&a));
}

TEST(ksymbol_and_text_poke_for_ftrace_trampoline)
{
	static const char * const funcs[] = {
		"__x64_sys_getppid\n", "ksys_read\n", "vfs_read\n",
	};
	const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	struct perf_event_attr a;
	struct perf_event_header *h;
	struct perfev_ring r;
	char inst[256], file[320], name[64];
	const char *root = perfev_tracefs();
	__u64 func = 0, tramp = 0, addr;
	__u32 tramp_len = 0, len;
	__u16 ktype, kflags, old_len, new_len;
	unsigned char *bytes;
	int fd, i, reg = 0, unreg = 0, site_on = 0, site_off = 0, tramp_in = 0, tramp_out = 0;
	__s32 rel;

#ifndef __x86_64__
	SKIP(return, "6.1 creates ftrace trampolines (ksymbol/text_poke) only on x86");
#endif
	if (!root || geteuid() != 0)
		SKIP(return, "needs root and tracefs");
	snprintf(inst, sizeof(inst), "%s/instances/perfev-rec-%d", root, getpid());
	if (mkdir(inst, 0755))
		SKIP(return, "cannot create a tracing instance");
	snprintf(file, sizeof(file), "%s/set_ftrace_filter", inst);
	/* A single function (with the newline, as echo writes it). */
	for (i = 0; i < 3 && !func; i++) {
		snprintf(name, sizeof(name), "%s", funcs[i]);
		name[strcspn(name, "\n")] = 0;
		if (!tracefs_write(file, funcs[i]) && filter_is(file, name))
			func = kallsyms_addr(name);
	}
	if (!func) {
		rmdir(inst);
		SKIP(return, "no traceable getppid function with a kallsyms address");
	}
	sb_attr(&a);
	a.ksymbol = 1;
	a.text_poke = 1;
	fd = open_ring(&a, 0, -1, &r, ring_pages());
	ASSERT_GE(fd, 0);
	snprintf(file, sizeof(file), "%s/current_tracer", inst);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	i = tracefs_write(file, "function");
	if (!i)
		i = tracefs_write(file, "nop");
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	rmdir(inst);
	ASSERT_EQ(0, i);
	while ((h = perfev_ring_next(&r))) {
		EXPECT_NE((__u32)PERF_RECORD_LOST, h->type);
		if (h->type == PERF_RECORD_KSYMBOL) {
			memcpy(&addr, h + 1, 8);
			memcpy(&len, (char *)(h + 1) + 8, 4);
			memcpy(&ktype, (char *)(h + 1) + 12, 2);
			memcpy(&kflags, (char *)(h + 1) + 14, 2);
			snprintf(name, sizeof(name), "%s", (char *)(h + 1) + 16);
			EXPECT_EQ(0, h->misc);
			EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_OOL, ktype);
			EXPECT_STREQ("ftrace_trampoline", name);
			EXPECT_EQ(8 + 16 + align8(strlen("ftrace_trampoline") + 1), h->size);
			EXPECT_NE(0ULL, addr >> 63);
			if (kflags == 0) {
				tramp = addr;
				tramp_len = len;
				reg++;
			} else {
				EXPECT_EQ(PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, kflags);
				EXPECT_EQ(tramp, addr);
				EXPECT_EQ(tramp_len, len);
				unreg++;
			}
		} else if (h->type == PERF_RECORD_TEXT_POKE) {
			memcpy(&addr, h + 1, 8);
			memcpy(&old_len, (char *)(h + 1) + 8, 2);
			memcpy(&new_len, (char *)(h + 1) + 10, 2);
			bytes = (unsigned char *)(h + 1) + 12;
			EXPECT_EQ(PERF_RECORD_MISC_KERNEL, h->misc);
			EXPECT_EQ(16 + align8(4 + old_len + new_len), h->size);
			if (addr == func && old_len == 5 && new_len == 5) {
				if (!memcmp(bytes, nop5, 5) && bytes[5] == 0xe8) {
					/* nop5 becomes a call into the trampoline. */
					memcpy(&rel, bytes + 6, 4);
					EXPECT_EQ(tramp, func + 5 + rel);
					site_on++;
				} else if (bytes[0] == 0xe8 && !memcmp(bytes + 5, nop5, 5)) {
					site_off++;
				}
			} else if (tramp && addr == tramp) {
				if (!old_len && new_len == tramp_len)
					tramp_in++;
				else if (old_len == tramp_len && !new_len)
					tramp_out++;
			}
		}
	}
	EXPECT_EQ(1, reg);
	EXPECT_EQ(1, unreg);
	EXPECT_EQ(1, tramp_in);
	EXPECT_EQ(1, tramp_out);
	EXPECT_EQ(1, site_on);
	EXPECT_EQ(1, site_off);
	close_ring(fd, &r);
}

TEST_HARNESS_MAIN
