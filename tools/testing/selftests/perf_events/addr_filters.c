// SPDX-License-Identifier: GPL-2.0
/*
 * Address range filters (PERF_EVENT_IOC_SET_FILTER on an instruction-trace
 * PMU), with the testbed's "perfev_aux" PMU: two filters, "filter" and
 * "stop" actions as Intel PT.  Its timer writes a chunk of trace into the
 * AUX area at each tick (the event's count is the bytes written); with a
 * "filter" set, only when the interrupted instruction is inside a filter
 * range; after a tick inside a "stop" range, no more until the filters
 * change.  So the count shows where the core put each range.
 *
 * Covers: the filter syntax and its errors (errnos as 6.1's), the PMU's
 * veto, file ranges resolved against the task's mappings at SET_FILTER,
 * at a later mmap of the file and at exec, removal with an empty string,
 * the copy an inherited child gets, kernel ranges, and two 6.1 bugs:
 *  - 6.1 resolves a filter at mmap only while some event in the system
 *    asks for MMAP records (perf record always has one; a plain user of
 *    the trace PMU has not): the filter stays empty;
 *  - 6.1 counts a mapping that ends where the filter starts as a match
 *    (its overlap test is inclusive) and resolves the filter to an empty
 *    range at that mapping's end, even when the next mapping holds the
 *    filtered code.
 *
 * The traced functions are copied by the kernel where the test maps its
 * own executable again (a copy in /tmp): they are position-independent
 * loops.  Every case SKIPs without the perfev_aux PMU.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define SPIN_ALIGN	256	/* each loop alone in a range of this size */
#define COPY		"/tmp/perfev_addr_filters_exe"
#define SPIN_ENV	"PERFEV_ADDR_FILTERS_SPIN"
#define SPIN_MS		40

typedef void (*spin_fn)(unsigned long loops);

static __attribute__((noinline, aligned(SPIN_ALIGN))) void spin_inside(unsigned long loops)
{
	while (loops--)
		__asm__ __volatile__("/* inside */" : "+r"(loops));
}

static __attribute__((noinline, aligned(SPIN_ALIGN))) void spin_outside(unsigned long loops)
{
	while (loops--)
		__asm__ __volatile__("/* outside */" : "+r"(loops));
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run @fn for about @ms milliseconds. */
static void spin_for(spin_fn fn, int ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		fn(20000);
}

/* The exec'd copy: spin where the parent asked, then leave. */
static __attribute__((constructor)) void exec_body(void)
{
	const char *where = getenv(SPIN_ENV);

	if (!where)
		return;
	spin_for(!strcmp(where, "inside") ? spin_inside : spin_outside, SPIN_MS);
	_exit(0);
}

struct traced {
	int fd;
	struct perfev_ring ring;
	void *aux;
	size_t aux_size;
};

#define REQUIRE_AUX_PMU(type)							\
	do {									\
		type = perfev_pmu_type("perfev_aux");				\
		if (type < 0)							\
			SKIP(return, "no perfev_aux PMU (CONFIG_PERF_TEST_AUX_PMU)"); \
	} while (0)

/*
 * A disabled perfev_aux event on @pid/@cpu with an overwrite AUX area
 * (never full: the count keeps growing while it traces).  0 or errno.
 */
static int traced_open(struct traced *t, int type, pid_t pid, int cpu, bool inherit,
		       bool enable_on_exec)
{
	struct perf_event_attr attr;
	long pg = sysconf(_SC_PAGESIZE);

	memset(t, 0, sizeof(*t));
	perfev_attr_init(&attr, type, 0);
	attr.disabled = 1;
	attr.inherit = inherit;
	attr.enable_on_exec = enable_on_exec;
	t->fd = perfev_open(&attr, pid, cpu, -1, 0);
	if (t->fd < 0)
		return errno;
	if (perfev_ring_map(&t->ring, t->fd, 2, false))
		return errno;
	t->aux_size = 16 * pg;
	t->ring.page->aux_offset = t->ring.map_size;
	t->ring.page->aux_size = t->aux_size;
	t->aux = mmap(NULL, t->aux_size, PROT_READ, MAP_SHARED, t->fd, t->ring.map_size);
	if (t->aux == MAP_FAILED) {
		t->aux = NULL;
		return errno;
	}
	return 0;
}

static void traced_close(struct traced *t)
{
	if (t->aux)
		munmap(t->aux, t->aux_size);
	perfev_ring_unmap(&t->ring);
	if (t->fd >= 0)
		close(t->fd);
}

static __u64 traced_bytes(struct traced *t)
{
	__u64 count = ~0ULL;

	perfev_read_count(t->fd, &count);
	return count;
}

/* SET_FILTER: 0 or errno. */
static int set_filter(int fd, const char *fmt, ...)
{
	char str[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(str, sizeof(str), fmt, ap);
	va_end(ap);
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, str) ? errno : 0;
}

/* Bytes traced while @fn runs for SPIN_MS, the event enabled. */
static __u64 traced_during(struct traced *t, spin_fn fn)
{
	__u64 before = traced_bytes(t);

	ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0);
	spin_for(fn, SPIN_MS);
	ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0);
	return traced_bytes(t) - before;
}

/* Offset in this executable of @fn's code. */
static long file_offset(spin_fn fn)
{
	return perfev_exe_file_offset((unsigned long)fn);
}

/* A copy of this executable at COPY (ranges in it are not in ours). */
static int make_copy(void)
{
	char buf[65536];
	int in, out, ret = -1;
	ssize_t n;

	in = open("/proc/self/exe", O_RDONLY);
	out = open(COPY ".tmp", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		goto out;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n)
			goto out;
	}
	if (n == 0 && !fsync(out) && !rename(COPY ".tmp", COPY))
		ret = 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

/* Map the whole copy with exec rights: its base, or NULL. */
static void *map_copy(size_t *len)
{
	struct stat st;
	void *base;
	int fd = open(COPY, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	*len = st.st_size;
	base = mmap(NULL, *len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	return base == MAP_FAILED ? NULL : base;
}

TEST(nr_addr_filters_in_sysfs)
{
	long long nr = -1;
	int type;

	REQUIRE_AUX_PMU(type);
	ASSERT_EQ(0, perfev_read_int("/sys/bus/event_source/devices/perfev_aux/nr_addr_filters",
				     &nr));
	EXPECT_EQ(2, nr);
	/* a PMU without filters has no such file */
	if (perfev_pmu_type("perfev_aux2") >= 0)
		EXPECT_NE(0, access("/sys/bus/event_source/devices/perfev_aux2/nr_addr_filters",
				    F_OK));
}

TEST(filter_strings_and_their_errors)
{
	static const struct {
		const char *str;
		int err;
	} cases[] = {
		{ "", 0 },				/* no filters */
		{ "filter 0x1000/0x100", 0 },
		{ "filter 0x1000/0x100 stop 0x3000", 0 },
		{ "filter 0x1000/0x100,stop 0x3000/0x10", 0 },
		{ "\nfilter 4096/256\n\nstop 12288\n", 0 },
		{ "filter 0x1000/0x100@/proc/self/exe", 0 },
		{ "filter", EINVAL },			/* no range */
		{ "filter 0x1000", EINVAL },		/* "filter" needs a size */
		{ "filter 0x1000/0", EINVAL },
		{ "filer 0x1000/0x100", EINVAL },
		{ "0x1000/0x100", EINVAL },		/* no action */
		{ "filter filter 0x1000/0x100", EINVAL },
		{ "filter zzz/0x100", EINVAL },
		{ "filter 0x1000/0x100@/no/such/file", ENOENT },
		{ "filter 0x1000/0x100@/", EINVAL },	/* not a regular file */
		{ "start 0x1000/0x100", EOPNOTSUPP },	/* the PMU's veto */
		{ "filter 0x1000/0x10 filter 0x2000/0x10 stop 0x3000", EOPNOTSUPP },
	};
	struct perf_event_attr attr;
	char *big;
	unsigned int i;
	int type, fd, sw, cpu_fd;

	REQUIRE_AUX_PMU(type);
	perfev_attr_init(&attr, type, 0);
	attr.disabled = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = ioctl(fd, PERF_EVENT_IOC_SET_FILTER, cases[i].str) ? errno : 0;

		EXPECT_EQ(cases[i].err, err)
			TH_LOG("\"%s\": %s", cases[i].str, strerror(err));
	}
	/* the string is copied from user space first: bad pointer, too long */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (char *)8));
	EXPECT_EQ(EFAULT, errno);
	big = malloc(2 * 65536 + 1);
	ASSERT_NE(NULL, big);
	memset(big, ' ', 2 * 65536);
	big[2 * 65536] = '\0';
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, big));
	EXPECT_EQ(EINVAL, errno);
	free(big);
	close(fd);

	/* a CPU-wide event: kernel ranges only (a file is mapped per task) */
	cpu_fd = perfev_open(&attr, -1, 0, -1, 0);
	ASSERT_LE(0, cpu_fd);
	EXPECT_EQ(EOPNOTSUPP, set_filter(cpu_fd, "filter 0x1000/0x100@/proc/self/exe"));
	EXPECT_EQ(0, set_filter(cpu_fd, "filter 0x1000/0x100"));
	close(cpu_fd);

	/* PMUs without address filters */
	sw = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, -1);
	ASSERT_LE(0, sw);
	EXPECT_EQ(EINVAL, set_filter(sw, "filter 0x1000/0x100"));
	close(sw);
	type = perfev_pmu_type("perfev_aux2");
	if (type >= 0) {
		perfev_attr_init(&attr, type, 0);
		fd = perfev_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd);
		EXPECT_EQ(EINVAL, set_filter(fd, "filter 0x1000/0x100"));
		close(fd);
	}
}

TEST(filter_traces_only_inside_and_an_empty_string_removes_it)
{
	struct traced t;
	long off = file_offset(spin_inside);
	int type;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	EXPECT_LT(0ULL, traced_during(&t, spin_outside)) TH_LOG("no trace without filters");

	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#x@/proc/self/exe", off, SPIN_ALIGN));
	EXPECT_EQ(0ULL, traced_during(&t, spin_outside));
	EXPECT_LT(0ULL, traced_during(&t, spin_inside));

	ASSERT_EQ(0, set_filter(t.fd, ""));
	EXPECT_LT(0ULL, traced_during(&t, spin_outside));
	traced_close(&t);
}

TEST(filter_set_while_the_event_traces_takes_effect_at_once)
{
	struct traced t;
	long off = file_offset(spin_inside);
	__u64 before, during;
	int type;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	ioctl(t.fd, PERF_EVENT_IOC_ENABLE, 0);
	spin_for(spin_outside, SPIN_MS);
	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#x@/proc/self/exe", off, SPIN_ALIGN));
	before = traced_bytes(&t);
	spin_for(spin_outside, SPIN_MS);
	during = traced_bytes(&t) - before;
	ioctl(t.fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_LT(0ULL, before);
	EXPECT_EQ(0ULL, during);
	traced_close(&t);
}

TEST(stop_range_stops_the_trace_until_the_filters_change)
{
	struct traced t;
	long off = file_offset(spin_inside);
	int type;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	ASSERT_EQ(0, set_filter(t.fd, "stop %#lx/%#x@/proc/self/exe", off, SPIN_ALIGN));
	/* no "filter": everything is traced until the code reaches the stop range */
	EXPECT_LT(0ULL, traced_during(&t, spin_outside));
	traced_during(&t, spin_inside);
	EXPECT_EQ(0ULL, traced_during(&t, spin_outside));
	/* new filters, new start */
	ASSERT_EQ(0, set_filter(t.fd, "stop %#lx/%#x@/proc/self/exe", off, SPIN_ALIGN));
	EXPECT_LT(0ULL, traced_during(&t, spin_outside));
	traced_close(&t);
}

TEST(kernel_range_filters_kernel_code)
{
	unsigned long stext = 0, etext = 0, a;
	char line[256], name[128], kind;
	__u64 user, kernel;
	struct traced t;
	double end;
	FILE *f;
	int type, i;

	REQUIRE_AUX_PMU(type);
	f = fopen("/proc/kallsyms", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &a, &kind, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			stext = a;
		else if (!strcmp(name, "_etext"))
			etext = a;
	}
	fclose(f);
	if (!stext || etext <= stext)
		SKIP(return, "no kernel text addresses in /proc/kallsyms");
	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#lx", stext, etext - stext));
	/*
	 * Unfiltered, both loops trace about the same.  The user loop's
	 * share is its interrupts' kernel code: under TCG a debug kernel
	 * (lockdep in every interrupt) took a quarter of the syscall loop's
	 * (41472 against 147968 bytes on POWER9), so the bound is a half.
	 * A burst of interrupt work (softirqs, RCU) in one 40 ms window can
	 * still swamp it there (72704 user against 51200 on an x86_64 debug
	 * kernel): three tries.  A filter that passed everything or nothing
	 * fails all three.
	 */
	for (i = 0; i < 3; i++) {
		/* user code: only the odd tick that lands in an interrupt's kernel code */
		user = traced_during(&t, spin_outside);

		a = traced_bytes(&t);
		ioctl(t.fd, PERF_EVENT_IOC_ENABLE, 0);
		for (end = now_ms() + SPIN_MS; now_ms() < end;)
			getppid();
		ioctl(t.fd, PERF_EVENT_IOC_DISABLE, 0);
		kernel = traced_bytes(&t) - a;
		if (2 * user < kernel)
			break;
		ksft_print_msg("try %d: %llu bytes in user code, %llu in system calls\n", i,
			       (unsigned long long)user, (unsigned long long)kernel);
	}
	EXPECT_LT(2 * user, kernel) TH_LOG("%llu bytes in user code, %llu in system calls",
					   (unsigned long long)user, (unsigned long long)kernel);
	traced_close(&t);
}

/*
 * A file not mapped yet: the filter holds nothing (no trace anywhere);
 * once the task maps it, the range is where the mapping put the code.
 * With @mmap_records an event asks for MMAP records meanwhile, as perf
 * record has; without, 6.1 never resolves the filter.
 */
static void filter_resolved_at_mmap(struct __test_metadata *_metadata, bool mmap_records)
{
	long off = file_offset(spin_inside), off_out = file_offset(spin_outside);
	struct traced t;
	size_t len;
	int type, dummy = -1;
	char *base;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, make_copy());
	if (mmap_records) {
		struct perf_event_attr attr;

		perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
		attr.mmap = 1;
		dummy = perfev_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, dummy);
	}
	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#x@" COPY, off, SPIN_ALIGN));
	EXPECT_EQ(0ULL, traced_during(&t, spin_inside));

	base = map_copy(&len);
	ASSERT_NE(NULL, base);
	EXPECT_LT(0ULL, traced_during(&t, (spin_fn)(base + off)));
	EXPECT_EQ(0ULL, traced_during(&t, (spin_fn)(base + off_out)));
	EXPECT_EQ(0ULL, traced_during(&t, spin_inside));
	munmap(base, len);
	traced_close(&t);
	if (dummy >= 0)
		close(dummy);
}

TEST(filter_resolved_when_the_file_is_mapped_later)
{
	filter_resolved_at_mmap(_metadata, false);
}

TEST(filter_resolved_when_the_file_is_mapped_later_with_mmap_records)
{
	filter_resolved_at_mmap(_metadata, true);
}

/*
 * The page before the traced code mapped read-only right below the page
 * holding it (executable): the filter starts where the first mapping
 * ends.  It resolves to the code in the second one.
 */
TEST(filter_starting_where_a_mapping_ends_resolves_to_the_next)
{
	long pg = sysconf(_SC_PAGESIZE), off = file_offset(spin_inside), page;
	struct traced t;
	char *area;
	int type, fd;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	page = off & ~(pg - 1);
	if (page < pg || off + SPIN_ALIGN > page + pg)
		SKIP(return, "the traced code is in the first page of the file");
	ASSERT_EQ(0, make_copy());
	fd = open(COPY, O_RDONLY);
	ASSERT_LE(0, fd);
	area = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, area);
	ASSERT_NE(MAP_FAILED, mmap(area, pg, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, page - pg));
	ASSERT_NE(MAP_FAILED, mmap(area + pg, pg, PROT_READ | PROT_EXEC,
				   MAP_PRIVATE | MAP_FIXED, fd, page));
	close(fd);

	ASSERT_EQ(0, traced_open(&t, type, 0, -1, false, false));
	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#lx@" COPY, page, pg));
	EXPECT_LT(0ULL, traced_during(&t, (spin_fn)(area + pg + (off - page))))
		TH_LOG("the filter did not resolve to the executable mapping");
	EXPECT_EQ(0ULL, traced_during(&t, spin_inside));
	traced_close(&t);
	munmap(area, 2 * pg);
}

/*
 * A child that, once released, execs the copy, which spins @where: the
 * filter names the copy, which the child does not map before its exec.
 */
static __u64 traced_across_exec(struct __test_metadata *_metadata, int type, const char *where)
{
	long off = file_offset(spin_inside);
	struct perf_event_attr attr;
	struct traced t;
	int go[2], status, dummy;
	__u64 bytes;
	pid_t pid;
	char c;

	if (off <= 0 || make_copy() || pipe(go))
		return ~0ULL;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { COPY, NULL };

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		setenv(SPIN_ENV, where, 1);
		execv(COPY, argv);
		_exit(3);
	}
	close(go[0]);
	/* as perf record: side-band from a dummy event */
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.mmap = 1;
	dummy = perfev_open(&attr, pid, -1, -1, 0);
	EXPECT_LE(0, dummy);
	EXPECT_EQ(0, traced_open(&t, type, pid, -1, false, true));
	EXPECT_EQ(0, set_filter(t.fd, "filter %#lx/%#x@" COPY, off, SPIN_ALIGN));
	EXPECT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	bytes = traced_bytes(&t);
	traced_close(&t);
	if (dummy >= 0)
		close(dummy);
	return bytes;
}

TEST(file_filter_resolved_in_the_exec_image)
{
	int type;

	REQUIRE_AUX_PMU(type);
	EXPECT_LT(0ULL, traced_across_exec(_metadata, type, "inside"));
	EXPECT_EQ(0ULL, traced_across_exec(_metadata, type, "outside"));
}

/*
 * An inherited child traces where its parent's filter says.  Inherited
 * per-task events cannot be mapped: one per CPU, the task pinned there.
 */
TEST(inherited_child_uses_the_filters)
{
	long off = file_offset(spin_inside);
	struct traced t;
	cpu_set_t orig;
	__u64 before;
	int type, status, cpu;
	pid_t pid;

	REQUIRE_AUX_PMU(type);
	ASSERT_LT(0, off);
	cpu = perfev_pin_here(&orig);
	ASSERT_LE(0, cpu);
	ASSERT_EQ(0, traced_open(&t, type, 0, cpu, true, false));
	ASSERT_EQ(0, set_filter(t.fd, "filter %#lx/%#x@/proc/self/exe", off, SPIN_ALIGN));
	ioctl(t.fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 2; i++) {
		before = traced_bytes(&t);
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			spin_for(i ? spin_outside : spin_inside, SPIN_MS);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (i) {
			EXPECT_EQ(before, traced_bytes(&t));
		} else {
			EXPECT_LT(before, traced_bytes(&t));
		}
	}
	ioctl(t.fd, PERF_EVENT_IOC_DISABLE, 0);
	traced_close(&t);
	perfev_unpin(&orig);
}

TEST_HARNESS_MAIN
