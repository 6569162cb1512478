// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: one operation.  fuzz_op_generate() draws it from the worker's
 * generator, fuzz_op_format()/fuzz_op_parse() turn it into a log line and
 * back, fuzz_op_run() performs it against the worker's slots.
 *
 * Arguments per kind (a[0..3], slot, slot2, blob):
 *   OPEN    slot=dest slot2=group a0=pid mode a1=cpu a2=flags a3=pid value
 *           blob=attr
 *   CLOSE   slot
 *   READ    slot a0=length a1=buffer (0 ok, 1 NULL, 2 kernel address,
 *           3 read-only page)
 *   WRITE   slot a0=length
 *   IOCTL   slot slot2=SET_OUTPUT target a0=command a1=value a2=pointer
 *           mode blob=filter string or attr; SET_FILTER a3=0, or
 *           FUZZ_FILTER_LONG << 32 | length: blob is PREFIX\0UNIT\0SUFFIX,
 *           the string PREFIX, UNIT repeated, SUFFIX, cut at length bytes
 *   POLL    a0=slot bitmap a1=timeout ms a2=events
 *   MMAP    slot a0=pages a1=writable a2=page offset
 *   MUNMAP  slot a0=0 all, 1 first page, 2 last page
 *   MREMAP  slot a0=new pages
 *   TOUCH   slot a0=what (user page, consume, set tail, read data) a1=value
 *   PRCTL   a0=enable
 *   FORK    a0=child body (see child_body()) a1=child index a2=loops
 *           blob=attr
 *   THREAD  a0=thread body (3: a2 readers of the slot's fd that open, yield, exit)
 *           a1=loops blob=attr
 *   DUP     slot -> slot2
 *   FCNTL   slot a0=what a1=signal
 *   PASSFD  slot -> slot2 over a socketpair; a0=1 closes it in flight
 *   KILL    a0=child index a1=signal
 *   WORK    a0=what (8, 9: map a file executable, see map_exec()) a1=amount
 *   CPU     a0=cpu a1=online
 *   GROUP   an inherited group into the worker's slots, STORM a storm of
 *           tasks around one (arguments in fuzz_storm.c)
 *
 * Oracles (a failure is printed with the op and makes the worker exit 3):
 * no kernel-internal errno (>= 512) reaches user space; perf_event_open
 * refuses unknown flags, bad sizes and reserved bits with the errno 6.1
 * gives; a successful CLOEXEC open is close-on-exec; a read of an event
 * without PERF_FORMAT_GROUP returns exactly its read_format size, 0 (error
 * state) or ENOSPC for a short buffer.  The size oracles assume the running
 * kernel's struct perf_event_attr is the one of the headers built against
 * (6.1's 128 bytes): a newer kernel knows more of the "tail".
 *
 * Generation leans towards the testbed's AUX PMUs (perfev_aux, perfev_aux2)
 * where they are: their events get data and then AUX areas mapped, address
 * filters (perfev_aux has two) and SET_OUTPUT to an event of the other
 * one, which the core must refuse while both have AUX support.  Address
 * filters are resolved at exec mappings of files: WORK maps files
 * executable, FORK execs (children with inherited events).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fuzz.h"

#define PERF_FLAG_ALL_6_1	0xfUL
#define KERNEL_ADDRESS		((void *)(uintptr_t)0xffff880000000000ULL)

static const char *const kind_names[FOP_NR] = {
	"open", "close", "read", "write", "ioctl", "poll", "mmap", "munmap",
	"mremap", "touch", "prctl", "fork", "thread", "dup", "fcntl",
	"passfd", "kill", "work", "cpu", "group", "storm",
};

static const char *const call_names[FC_NR] = {
	"perf_event_open", "close", "read", "write", "poll", "mmap", "munmap",
	"mremap", "prctl", "fork", "clone(thread)", "execve", "dup", "fcntl",
	"sendmsg", "recvmsg", "kill", "cpu online/offline",
	"ioctl(ENABLE)", "ioctl(DISABLE)", "ioctl(REFRESH)", "ioctl(RESET)",
	"ioctl(PERIOD)", "ioctl(SET_OUTPUT)", "ioctl(SET_FILTER)", "ioctl(ID)",
	"ioctl(SET_BPF)", "ioctl(PAUSE_OUTPUT)", "ioctl(QUERY_BPF)",
	"ioctl(MODIFY_ATTRIBUTES)", "ioctl(other)", "perf_event_open(group)",
	"storm",
};

/* Relative weights of the kinds; CPU only for the hotplug worker. */
static const unsigned int kind_weight[FOP_NR] = {
	[FOP_OPEN] = 22, [FOP_CLOSE] = 9, [FOP_READ] = 9, [FOP_WRITE] = 1,
	[FOP_IOCTL] = 18, [FOP_POLL] = 3, [FOP_MMAP] = 6, [FOP_MUNMAP] = 2,
	[FOP_MREMAP] = 1, [FOP_TOUCH] = 4, [FOP_PRCTL] = 2, [FOP_FORK] = 4,
	[FOP_THREAD] = 2, [FOP_DUP] = 3, [FOP_FCNTL] = 2, [FOP_PASSFD] = 1,
	[FOP_KILL] = 2, [FOP_WORK] = 6, [FOP_CPU] = 1, [FOP_GROUP] = 3,
	[FOP_STORM] = 1,
};

const char *fuzz_call_name(enum fuzz_call c)
{
	return call_names[c];
}

static long page_size(void)
{
	static long ps;

	if (!ps)
		ps = sysconf(_SC_PAGESIZE);
	return ps;
}

/* ---------------------------------------------------------------- log */

int fuzz_op_format(const struct fuzz_op *op, char *buf, size_t size)
{
	int n;
	unsigned int i;

	n = snprintf(buf, size, "%s s=%d t=%d a=%llx:%llx:%llx:%llx b=",
		     kind_names[op->kind], op->slot, op->slot2,
		     (unsigned long long)op->a[0], (unsigned long long)op->a[1],
		     (unsigned long long)op->a[2], (unsigned long long)op->a[3]);
	for (i = 0; i < op->len && n + 3 < (int)size; i++)
		n += snprintf(buf + n, size - n, "%02x", op->blob[i]);
	if (n + 2 < (int)size)
		n += snprintf(buf + n, size - n, "\n");
	return n;
}

int fuzz_op_parse(const char *line, struct fuzz_op *op)
{
	unsigned long long a0, a1, a2, a3;
	char name[16];
	const char *hex;
	int k;

	memset(op, 0, sizeof(*op));
	if (sscanf(line, "%15s s=%d t=%d a=%llx:%llx:%llx:%llx", name, &op->slot,
		   &op->slot2, &a0, &a1, &a2, &a3) != 7)
		return -1;
	for (k = 0; k < FOP_NR; k++)
		if (!strcmp(name, kind_names[k]))
			break;
	if (k == FOP_NR || op->slot < 0 || op->slot >= FUZZ_SLOTS ||
	    op->slot2 < -1 || op->slot2 >= FUZZ_SLOTS)
		return -1;
	op->kind = k;
	op->a[0] = a0;
	op->a[1] = a1;
	op->a[2] = a2;
	op->a[3] = a3;
	hex = strstr(line, " b=");
	if (!hex)
		return -1;
	for (hex += 3; hex[0] && hex[1] && hex[0] != '\n' &&
	     op->len < FUZZ_BLOB; hex += 2) {
		unsigned int byte;

		if (sscanf(hex, "%2x", &byte) != 1)
			return -1;
		op->blob[op->len++] = byte;
	}
	return 0;
}

/* ------------------------------------------------------------ outcome */

static int record(struct fuzz_worker *w, enum fuzz_call c, long ret,
		  const struct fuzz_op *op)
{
	int e = ret < 0 ? errno : 0;

	__atomic_fetch_add(&w->stats->calls[c], 1, __ATOMIC_RELAXED);
	if (e >= 0 && e < FUZZ_ERRNO_MAX)
		w->stats->outcome[c][e] = 1;
	if (e >= 512) {
		char line[512];

		fuzz_op_format(op, line, sizeof(line));
		fprintf(stderr, "fuzz: ORACLE worker %d: %s gave kernel-internal errno %d: %s",
			w->id, call_names[c], e, line);
		return -1;
	}
	return 0;
}

int fuzz_record(struct fuzz_worker *w, enum fuzz_call c, long ret,
		const struct fuzz_op *op)
{
	return record(w, c, ret, op);
}

static int oracle_fail(struct fuzz_worker *w, const struct fuzz_op *op,
		       const char *what, long ret, int err)
{
	char line[512];

	fuzz_op_format(op, line, sizeof(line));
	fprintf(stderr, "fuzz: ORACLE worker %d: %s (returned %ld, errno %d): %s",
		w->id, what, ret, err, line);
	return -1;
}

/* ----------------------------------------------------------- slots */

static void slot_unmap(struct fuzz_slot *s)
{
	if (s->aux)
		munmap(s->aux, s->aux_len);
	s->aux = NULL;
	s->aux_len = 0;
	if (s->map)
		munmap(s->map, s->map_len);
	s->map = NULL;
	s->map_len = 0;
}

static void slot_clear(struct fuzz_slot *s)
{
	slot_unmap(s);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->event = false;
	s->type = 0;
	s->read_format = 0;
}

static void slot_copy_fd(struct fuzz_slot *dst, const struct fuzz_slot *src,
			 int fd)
{
	slot_clear(dst);
	dst->fd = fd;
	dst->event = src->event;
	dst->type = src->type;
	dst->read_format = src->read_format;
}

/* @fd, an event of @type, into @slot (what was there is closed). */
void fuzz_slot_put(struct fuzz_worker *w, int slot, int fd, uint32_t type,
		   uint64_t read_format)
{
	struct fuzz_slot *s = &w->slot[slot];

	slot_clear(s);
	s->fd = fd;
	s->event = true;
	s->type = type;
	s->read_format = read_format;
}

static void reap_children(struct fuzz_worker *w)
{
	pid_t pid;
	int i;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (i = 0; i < FUZZ_CHILDREN; i++)
			if (w->child[i] == pid)
				w->child[i] = 0;
}

static void kill_child(struct fuzz_worker *w, int i)
{
	if (w->child[i] <= 0)
		return;
	kill(w->child[i], SIGKILL);
	waitpid(w->child[i], NULL, 0);
	w->child[i] = 0;
}

void fuzz_count_signal(int sig)
{
	(void)sig;
}

void fuzz_worker_init(struct fuzz_worker *w)
{
	static const int sigs[] = { SIGIO, SIGTRAP, SIGUSR1, SIGUSR2, SIGPIPE,
				    SIGALRM, SIGCHLD };
	struct sigaction sa;
	int i, p[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fuzz_count_signal;
	for (i = 0; i < (int)ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sigaction(SIGRTMIN, &sa, NULL);
	for (i = 0; i < FUZZ_SLOTS; i++) {
		memset(&w->slot[i], 0, sizeof(w->slot[i]));
		w->slot[i].fd = -1;
	}
	memset(w->child, 0, sizeof(w->child));
	memset(w->storm, 0, sizeof(w->storm));
	/* the storm oracle failures of earlier rounds are not this one's */
	w->storm_fails = w->stats->storm_failures[w->id % FUZZ_MAX_WORKERS];
	if (!pipe2(p, O_NONBLOCK)) {
		w->slot[FUZZ_SLOTS - 1].fd = p[0];
		w->slot[FUZZ_SLOTS - 2].fd = p[1];
	}
}

void fuzz_worker_finish(struct fuzz_worker *w)
{
	int i;

	for (i = 0; i < FUZZ_CHILDREN; i++)
		kill_child(w, i);
	fuzz_storm_finish(w);
}

/* ---------------------------------------------------------- busy work */

static void work(long what, long amount)
{
	long i, n = amount % 2000 + 1;
	long ps = page_size();
	char *p;

	switch (what % 8) {
	case 0:
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		break;
	case 1:
		n = n % 32 + 1;
		p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		for (i = 0; i < n; i++)
			p[i * ps] = 1;
		munmap(p, n * ps);
		break;
	case 2:
		for (i = 0; i < n % 50 + 1; i++)
			sched_yield();
		break;
	case 3:
		usleep(n % 2000 + 1);
		break;
	case 4:
		for (i = 0; i < n; i++)
			fuzz_bp_target++;
		break;
	case 5:
		for (i = 0; i < n; i++)
			fuzz_bp_function();
		break;
	case 6:
		for (i = 0; i < n * 100; i++)
			__asm__ __volatile__("" ::: "memory");
		break;
	default:
		for (i = 0; i < n % 20 + 1; i++) {
			int fd = open("/proc/self/stat", O_RDONLY);

			if (fd >= 0)
				close(fd);
		}
		break;
	}
}

void fuzz_work(long what, long amount)
{
	work(what, amount);
}

/*
 * Map a file executable, as a program loads code, which resolves address
 * filters on that file (perf_event_mmap() of an exec mapping): @what 8
 * mmap()s it PROT_EXEC, 9 maps it readable and mprotect()s it executable.
 * @amount picks the file, and the whole of it or some pages; nothing runs
 * there, and it is unmapped again at once.
 */
static void map_exec(long what, long amount)
{
	static const char *const files[] = {
		"/proc/self/exe", "/bin/busybox", "/bin/true",
	};
	long ps = page_size(), pages;
	struct stat st;
	size_t len;
	off_t off;
	void *p;
	int fd;

	fd = open(files[amount % 3], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return;
	}
	pages = (st.st_size + ps - 1) / ps;
	if (amount / 3 % 4 == 0) {
		off = 0;
		len = pages * ps;
	} else {
		off = amount / 12 % pages * ps;
		len = (1 + amount / 7 % 16) * ps;
	}
	p = mmap(NULL, len, PROT_READ | (what == 8 ? PROT_EXEC : 0), MAP_PRIVATE, fd, off);
	close(fd);
	if (p == MAP_FAILED)
		return;
	if (what != 8)
		mprotect(p, len, PROT_READ | PROT_EXEC);
	munmap(p, len);
}

/* -------------------------------------------------------- generation */

static int random_slot(struct fuzz_worker *w, bool prefer_event)
{
	int i, s = fuzz_below(&w->rng, FUZZ_SLOTS);

	if (!prefer_event || fuzz_chance(&w->rng, 10))
		return s;
	for (i = 0; i < FUZZ_SLOTS; i++) {
		int t = (s + i) % FUZZ_SLOTS;

		if (w->slot[t].event)
			return t;
	}
	return s;
}

/* A slot with a mapping, for the kinds that need one (or any slot). */
static int mapped_slot(struct fuzz_worker *w, int fallback)
{
	int i, s = fuzz_below(&w->rng, FUZZ_SLOTS);

	for (i = 0; i < FUZZ_SLOTS; i++)
		if (w->slot[(s + i) % FUZZ_SLOTS].map)
			return (s + i) % FUZZ_SLOTS;
	return fallback;
}

static enum fuzz_kind random_kind(struct fuzz_worker *w)
{
	unsigned int total = 0, pick, k;

	for (k = 0; k < FOP_NR; k++)
		if (k != FOP_CPU || (w->id == 0 && w->privileged))
			total += kind_weight[k];
	pick = fuzz_below(&w->rng, total);
	for (k = 0; k < FOP_NR; k++) {
		if (k == FOP_CPU && !(w->id == 0 && w->privileged))
			continue;
		if (pick < kind_weight[k])
			return k;
		pick -= kind_weight[k];
	}
	return FOP_WORK;
}

/* Which AUX test PMU the event in @slot is of. */
static enum fuzz_aux_pmu slot_aux_pmu(const struct fuzz_worker *w, int slot)
{
	const struct fuzz_slot *s = &w->slot[slot];

	return s->fd >= 0 && s->event ? fuzz_env_aux_pmu(w->env, s->type) : FUZZ_NO_AUX;
}

/*
 * A slot with an event of the AUX test PMU @pmu, or -1.  @mapped 0 prefers
 * one without a mapping, 1 one with an AUX area, 2 takes any.
 */
static int aux_slot(struct fuzz_worker *w, enum fuzz_aux_pmu pmu, unsigned int mapped)
{
	int i, s = fuzz_below(&w->rng, FUZZ_SLOTS), other = -1;

	for (i = 0; i < FUZZ_SLOTS; i++) {
		int t = (s + i) % FUZZ_SLOTS;

		if (slot_aux_pmu(w, t) != pmu)
			continue;
		if (mapped == 2 || (mapped == 0 && !w->slot[t].map) ||
		    (mapped == 1 && w->slot[t].aux))
			return t;
		if (other < 0)
			other = t;
	}
	return other;
}

static uint32_t op_attr_type(const struct fuzz_op *op)
{
	uint32_t type;

	memcpy(&type, op->blob, sizeof(type));
	return type;
}

/* ------------------------------------------------------------ filters */

/* Tracepoint filter expressions (for events of any PMU). */
static const char *const tp_filters[] = {
	"common_pid != 0", "prev_pid == 1 || next_pid == 1",
	"ip == 0", "( ( (", "filter 0x1000/0x100@/bin/true",
	"start 0x1000@/bin/true", "common_pid > 0 && common_pid < 100000",
	"", "ret == 0",
};

/* perfev_aux refuses "start" (EOPNOTSUPP), as Intel PT */
static const char *const filter_actions[] = {
	"filter", "filter", "filter", "filter", "stop", "stop", "stop", "start",
};

/* Append to the string in @buf (@size bytes), cut at its end. */
static void addf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void addf(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strnlen(buf, size);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

/* @v in one of the notations of kstrtoul(.., 0, ..). */
static void add_num(struct fuzz_rng *r, char *buf, size_t size, uint64_t v)
{
	unsigned int dice = fuzz_below(r, 10);

	if (dice < 7)
		addf(buf, size, "%#llx", (unsigned long long)v);
	else if (dice < 9)
		addf(buf, size, "%llu", (unsigned long long)v);
	else
		addf(buf, size, "0%llo", (unsigned long long)v);
}

static const char *filter_sep(struct fuzz_rng *r)
{
	static const char *const seps[] = {
		" ", " ", " ", ",", "\n", "  ", ", ", ",,", " \n ", "\n\n",
	};

	return seps[fuzz_below(r, ARRAY_SIZE(seps))];
}

/*
 * "/SIZE" after a range at @addr, or nothing: small, @typical, zero, huge,
 * random, or one that takes the range past 2^64.  A "filter" (@need) gets
 * one that is not zero, mostly.
 */
static void add_size(struct fuzz_rng *r, char *buf, size_t size, uint64_t addr,
		     uint64_t typical, bool need)
{
	unsigned int dice = fuzz_below(r, 100);
	uint64_t v;

	if (dice < 10) {
		if (!need || fuzz_chance(r, 10))
			return;		/* ADDR alone */
		v = 1 + fuzz_below(r, 0x1000);
	} else if (dice < 20) {
		v = 0;
	} else if (dice < 45) {
		v = 1 + fuzz_below(r, 0x1000);
	} else if (dice < 55) {
		v = (1 + fuzz_below(r, 16)) * page_size();
	} else if (dice < 70) {
		v = typical ? typical : 0x100;
	} else if (dice < 78) {
		v = fuzz_chance(r, 50) ? 1ULL << 63 : ~0ULL;
	} else if (dice < 90) {
		v = -addr + 1 + fuzz_below(r, 0x10000);	/* addr + size wraps */
	} else {
		v = fuzz_rand(r);
	}
	if (!v && need && fuzz_chance(r, 90))
		v = 1;
	addf(buf, size, "/");
	add_num(r, buf, size, v);
}

/* A kernel range: ADDR[/SIZE]. */
static void add_kernel_range(struct fuzz_rng *r, char *buf, size_t size, bool need)
{
	static const uint64_t kernel[] = {
		0xffffffff81000000ULL, 0xffff800008000000ULL, 0xc000000000000000ULL,
		0xffffffffff600000ULL, 0x8000000000000000ULL,
	};
	uint64_t addr;

	switch (fuzz_below(r, 8)) {
	case 0:
	case 1:	/* code the fuzzer runs: the test PMU compares IPs */
		addr = (uintptr_t)fuzz_bp_function;
		break;
	case 2:
		addr = (uintptr_t)fuzz_bp_function & ~0xfffULL;
		break;
	case 3:
		addr = kernel[fuzz_below(r, ARRAY_SIZE(kernel))];
		break;
	case 4:
		addr = fuzz_below(r, 0x10000);
		break;
	case 5:
		addr = ~0ULL - fuzz_below(r, 0x1000);
		break;
	case 6:
		addr = 0;
		break;
	default:
		addr = fuzz_rand(r);
		break;
	}
	add_num(r, buf, size, addr);
	add_size(r, buf, size, addr, 0x400, need);
}

/*
 * A file range: ADDR[/SIZE]@PATH.  The fuzzer's own binary (by
 * /proc/self/exe or by name) with offsets in its text, around code it runs
 * most of the time; busybox (what children exec); a directory, a device,
 * a proc file, nothing there.
 */
static void add_file_range(struct fuzz_worker *w, char *buf, size_t size, bool need)
{
	static const char *const paths[] = {
		"/proc/self/exe", "/proc/self/exe", "/proc/self/exe", NULL, NULL,
		"/bin/busybox", "/bin/busybox", "/bin/true", "/", "/nonexistent",
		"/dev/null", "/proc/self/maps", "/tmp",
	};
	const struct fuzz_env *env = w->env;
	struct fuzz_rng *r = &w->rng;
	const char *path = paths[fuzz_below(r, ARRAY_SIZE(paths))];
	bool exe = !path || !strcmp(path, "/proc/self/exe");
	uint64_t off, typical = 0x1000;
	unsigned int dice = fuzz_below(r, 100);

	if (!path)
		path = env->exe_path[0] ? env->exe_path : "/proc/self/exe";
	if (exe && dice < 40) {
		off = env->exe_fn_off - fuzz_below(r, 64);
		typical = 64 + fuzz_below(r, 512);
	} else if (exe && dice < 70) {
		off = env->exe_text_off + fuzz_below(r, env->exe_text_len);
		typical = env->exe_text_len;
	} else if (dice < 80) {
		off = 0;
	} else if (dice < 90) {
		off = fuzz_below(r, 256) * page_size() + fuzz_below(r, 2) * fuzz_below(r, 4096);
	} else if (dice < 95) {
		off = ~0ULL - fuzz_below(r, 0x1000);
	} else {
		off = fuzz_rand(r);
	}
	add_num(r, buf, size, off);
	add_size(r, buf, size, off, typical, need);
	addf(buf, size, "@%s", path);
}

/* 1-3 filters "ACTION RANGE", kernel or file ranges, any separators. */
static void gen_addr_filters(struct fuzz_worker *w, char *buf, size_t size)
{
	struct fuzz_rng *r = &w->rng;
	unsigned int i, dice = fuzz_below(r, 100), n = dice < 45 ? 1 : dice < 85 ? 2 : 3;
	bool mixed = fuzz_chance(r, 40);
	const char *sep = filter_sep(r);

	buf[0] = '\0';
	if (fuzz_chance(r, 10))
		addf(buf, size, "%s", filter_sep(r));
	for (i = 0; i < n; i++) {
		const char *act = filter_actions[fuzz_below(r, ARRAY_SIZE(filter_actions))];
		bool need = !strcmp(act, "filter");

		if (i)
			addf(buf, size, "%s", mixed ? filter_sep(r) : sep);
		addf(buf, size, "%s%s", act, mixed ? filter_sep(r) : sep);
		if (fuzz_chance(r, 55))
			add_file_range(w, buf, size, need);
		else
			add_kernel_range(r, buf, size, need);
	}
	if (fuzz_chance(r, 10))
		addf(buf, size, "%s", filter_sep(r));
}

/* Address filters the parser must refuse (mostly EINVAL). */
static void gen_bad_filter(struct fuzz_worker *w, char *buf, size_t size)
{
	static const char *const bad[] = {
		"filter", "stop", "filter 0x1000/0x100 stop", "stop 0x1000,filter",
		"trace 0x1000/0x100", "FILTER 0x1000/0x100", "filter filter 0x1000/0x100",
		"filter zzz/0x100", "filter 0x1000/0xg", "filter -1/0x10", "stop +0x10",
		"filter 0x1000//0x10", "filter 18446744073709551616/1",
		"stop 0x1/99999999999999999999", "filter /0x100", "filter 0x1000/",
		"stop @/bin/busybox", "filter 0x1000/0x10@", "stop 0x1000@", "stop 0@@",
		"filter 0x1000@/bin/busybox/0x10", "filter 0x10/0x10@/bin@/true",
		"filter 0x1000/0x10@/dev/null", "filter 0x1000/0x10@/proc/self",
		"stop 0x1000 0x2000", "/0x10 filter", "filter\t0x1000/0x10",
		"filter 0x1000/0x10;stop 0x2000", "filter 0x1000/0x10 @/bin/true",
		"stop 0x1000/0x10@/nonexistent/", "filter 0x1000/0x10@bin/busybox",
	};
	struct fuzz_rng *r = &w->rng;
	size_t n, at;

	if (fuzz_chance(r, 50)) {
		snprintf(buf, size, "%s", bad[fuzz_below(r, ARRAY_SIZE(bad))]);
		return;
	}
	/* or a good one spoilt */
	gen_addr_filters(w, buf, size);
	n = strlen(buf);
	at = fuzz_below(r, n + 1);
	switch (fuzz_below(r, 5)) {
	case 0:		/* cut anywhere: no range, half a number, no path */
		buf[at] = '\0';
		break;
	case 1:		/* one character changed */
		if (at < n)
			buf[at] = 0x21 + fuzz_below(r, 94);
		break;
	case 2:		/* a trailing ACTION without a RANGE */
		addf(buf, size, "%s%s", filter_sep(r),
		     filter_actions[fuzz_below(r, ARRAY_SIZE(filter_actions))]);
		break;
	case 3:		/* an '@' somewhere */
		if (n + 1 < size) {
			memmove(buf + at + 1, buf + at, n - at + 1);
			buf[at] = '@';
		}
		break;
	default:	/* an unknown ACTION */
		addf(buf, size, "%sjump%s0x1000/0x10", filter_sep(r), filter_sep(r));
		break;
	}
}

/*
 * A filter string of about a page (strndup_user() takes up to PAGE_SIZE
 * bytes with the NUL), or several: PREFIX, UNIT repeated, SUFFIX (see the
 * IOCTL arguments).  Hundreds of filters, a good list with a long run of
 * separators, long paths, long numbers, one long word, separators alone.
 */
static void gen_long_filter(struct fuzz_worker *w, struct fuzz_op *op)
{
	static const char *const path_units[] = { "a/", "./", "/", "../" };
	static const char *const path_ends[] = { "", "proc/self/exe", "bin/busybox", "bin" };
	struct fuzz_rng *r = &w->rng;
	char prefix[112] = "", unit[40] = "", suffix[32] = "";
	long ps = page_size();
	uint64_t len, lens[] = {
		4000, 4094, 4095, 4096, 4097, 8192, ps - 2, ps - 1, ps, ps + 1,
	};
	size_t n, i, ulen;

	switch (fuzz_below(r, 7)) {
	case 0:		/* many kernel filters */
		snprintf(unit, sizeof(unit), "%s%s0x1000/0x100%s",
			 filter_actions[fuzz_below(r, ARRAY_SIZE(filter_actions))],
			 filter_sep(r), filter_sep(r));
		break;
	case 1:		/* many file filters: a path lookup each */
		snprintf(unit, sizeof(unit), "stop %#lx@/proc/self/exe%s",
			 w->env->exe_fn_off, filter_sep(r));
		break;
	case 2:		/* a good list, a long run of separators, maybe another */
		gen_addr_filters(w, prefix, sizeof(prefix));
		snprintf(unit, sizeof(unit), "%s", filter_sep(r));
		if (fuzz_chance(r, 50))
			snprintf(suffix, sizeof(suffix), "stop 0x1000/0x10");
		break;
	case 3:		/* a long path */
		snprintf(prefix, sizeof(prefix), "filter %#lx/0x100@/", w->env->exe_fn_off);
		snprintf(unit, sizeof(unit), "%s", path_units[fuzz_below(r, 4)]);
		snprintf(suffix, sizeof(suffix), "%s", path_ends[fuzz_below(r, 4)]);
		break;
	case 4:		/* a long number: leading zeros, or too many digits */
		snprintf(prefix, sizeof(prefix), "%s", fuzz_chance(r, 50) ? "filter 0x" : "stop 1");
		snprintf(unit, sizeof(unit), "%s", fuzz_chance(r, 70) ? "0" : "9");
		snprintf(suffix, sizeof(suffix), "%s", fuzz_chance(r, 50) ? "1000/0x100" : "");
		break;
	case 5:		/* one long word of anything but NUL */
		ulen = 1 + fuzz_below(r, sizeof(unit) - 1);
		for (i = 0; i < ulen; i++)
			unit[i] = 1 + fuzz_below(r, 255);
		break;
	default:	/* separators alone: no filters at all */
		snprintf(unit, sizeof(unit), "%s", filter_sep(r));
		break;
	}
	len = fuzz_chance(r, 80) ? lens[fuzz_below(r, ARRAY_SIZE(lens))] :
	      1 + fuzz_below(r, 3 * ps);
	if (len > FUZZ_FILTER_MAX)
		len = FUZZ_FILTER_MAX;
	op->a[3] = FUZZ_FILTER_LONG << 32 | len;
	memset(op->blob, 0, sizeof(op->blob));
	n = strlen(prefix) + 1;
	memcpy(op->blob, prefix, n);
	memcpy(op->blob + n, unit, strlen(unit) + 1);
	n += strlen(unit) + 1;
	memcpy(op->blob + n, suffix, strlen(suffix) + 1);
	op->len = n + strlen(suffix) + 1;
}

/*
 * A SET_FILTER string: a tracepoint expression, address filters (@addr:
 * mostly, the event's PMU has them), address filters that are wrong, a
 * long one, or garbage (maybe unterminated: the run adds the NUL).
 */
static void gen_filter(struct fuzz_worker *w, struct fuzz_op *op, bool addr)
{
	struct fuzz_rng *r = &w->rng;
	char *s = (char *)op->blob;
	unsigned int i, n, dice = fuzz_below(r, 100);

	memset(op->blob, 0, sizeof(op->blob));
	op->a[3] = 0;
	if (dice < (addr ? 8U : 40U)) {
		snprintf(s, FUZZ_BLOB, "%s", tp_filters[fuzz_below(r, ARRAY_SIZE(tp_filters))]);
	} else if (dice < 72) {
		gen_addr_filters(w, s, FUZZ_BLOB);
	} else if (dice < 84) {
		gen_bad_filter(w, s, FUZZ_BLOB);
	} else if (dice < 92) {
		gen_long_filter(w, op);
		return;
	} else {
		n = fuzz_below(r, FUZZ_BLOB);
		for (i = 0; i < n; i++)
			op->blob[i] = 1 + fuzz_below(r, 255);
		op->len = FUZZ_BLOB;
		return;
	}
	op->len = strlen(s) + 1;
}

/*
 * An mmap of an AUX test PMU's event: its data pages first (writable,
 * mostly), then its AUX area (writable, or overwrite mode).
 */
static void gen_mmap_aux_pmu(struct fuzz_worker *w, struct fuzz_op *op)
{
	struct fuzz_rng *r = &w->rng;
	enum fuzz_aux_pmu pmu = 1 + fuzz_below(r, 2);
	int s = aux_slot(w, pmu, 2);
	struct fuzz_slot *sl;

	if (s < 0)
		s = aux_slot(w, FUZZ_AUX + FUZZ_AUX2 - pmu, 2);
	if (s < 0)
		return;
	op->slot = s;
	sl = &w->slot[s];
	if (!sl->map || !sl->map_rw || (sl->aux && fuzz_chance(r, 30))) {
		op->a[0] = (1ULL << fuzz_below(r, 4)) + 1;
		op->a[1] = fuzz_chance(r, 90);
		op->a[2] = 0;
	} else if (!sl->aux) {
		op->a[0] = 1ULL << fuzz_below(r, 5);
		op->a[1] = fuzz_chance(r, 50);
		op->a[2] = FUZZ_MMAP_AUX;
	}
}

/*
 * SET_OUTPUT between events of the AUX test PMUs, mostly from one to the
 * other (EINVAL: an AUX area's private data is its PMU's), either side
 * with or without its data and AUX areas mapped.
 */
static void gen_set_output_aux(struct fuzz_worker *w, struct fuzz_op *op)
{
	struct fuzz_rng *r = &w->rng;
	enum fuzz_aux_pmu from = 1 + fuzz_below(r, 2);
	enum fuzz_aux_pmu to = fuzz_chance(r, 80) ? FUZZ_AUX + FUZZ_AUX2 - from : from;
	int s = aux_slot(w, from, fuzz_below(r, 3));
	int t = aux_slot(w, to, fuzz_below(r, 3));

	if (s >= 0 && t >= 0) {
		op->slot = s;
		op->slot2 = t;
	}
}

void fuzz_op_generate(struct fuzz_worker *w, struct fuzz_op *op)
{
	struct fuzz_rng *r = &w->rng;
	int i;

	memset(op, 0, sizeof(*op));
	op->kind = random_kind(w);
	op->slot = random_slot(w, op->kind != FOP_OPEN);
	if (op->kind == FOP_MUNMAP || op->kind == FOP_MREMAP || op->kind == FOP_TOUCH)
		op->slot = mapped_slot(w, op->slot);
	op->slot2 = fuzz_chance(r, 50) ? -1 : random_slot(w, true);
	for (i = 0; i < 4; i++)
		op->a[i] = fuzz_rand(r);

	switch (op->kind) {
	case FOP_OPEN:
		fuzz_attr_generate(r, w->env, op);
		op->a[0] = fuzz_below(r, 100);
		op->a[1] = fuzz_chance(r, 50) ? -1 :
			   fuzz_chance(r, 90) ? (long long)fuzz_below(r, w->env->nr_cpus) :
			   fuzz_chance(r, 50) ? w->env->nr_cpus : (int)fuzz_rand(r);
		op->a[2] = fuzz_chance(r, 85) ?
			   (fuzz_chance(r, 50) ? PERF_FLAG_FD_CLOEXEC : 0) :
			   fuzz_chance(r, 80) ? 1UL << fuzz_below(r, 4) : fuzz_rand(r) & 0xff;
		if (fuzz_chance(r, 55))
			op->slot2 = -1;
		/* per task, any CPU: what file filters and SET_OUTPUT pairs need */
		if (fuzz_env_aux_pmu(w->env, op_attr_type(op)) && fuzz_chance(r, 50)) {
			op->a[0] = fuzz_below(r, 45);
			op->a[1] = -1;
		}
		break;
	case FOP_READ:
		op->a[0] = fuzz_chance(r, 70) ? 8 * fuzz_below(r, 8) :
			   fuzz_below(r, 9000);
		op->a[1] = fuzz_chance(r, 88) ? 0 : 1 + fuzz_below(r, 3);
		break;
	case FOP_WRITE:
		op->a[0] = fuzz_below(r, 64);
		break;
	case FOP_IOCTL:
		op->a[0] = fuzz_below(r, 13);
		op->a[1] = fuzz_chance(r, 70) ? fuzz_below(r, 4) : fuzz_rand(r);
		op->a[2] = fuzz_chance(r, 85) ? 0 : 1 + fuzz_below(r, 2);
		if (op->a[0] == 5 && fuzz_chance(r, 60))
			gen_set_output_aux(w, op);
		if (op->a[0] == 6) {
			if (fuzz_chance(r, 40)) {
				int s = aux_slot(w, FUZZ_AUX, 2);

				if (s >= 0)
					op->slot = s;
			}
			gen_filter(w, op, slot_aux_pmu(w, op->slot) == FUZZ_AUX);
		} else if (op->a[0] == 11)
			fuzz_attr_generate(r, w->env, op);
		break;
	case FOP_POLL:
		op->a[0] &= (1ULL << FUZZ_SLOTS) - 1;
		op->a[1] = fuzz_below(r, 3) * 5;
		break;
	case FOP_MMAP:
		op->a[0] = fuzz_chance(r, 80) ? (1ULL << fuzz_below(r, 5)) + 1 :
			   fuzz_below(r, 40);
		op->a[1] = fuzz_chance(r, 75);
		op->a[2] = fuzz_chance(r, 80) ? 0 :
			   fuzz_chance(r, 50) ? FUZZ_MMAP_AUX : fuzz_below(r, 4);
		if (op->a[2] == FUZZ_MMAP_AUX && fuzz_chance(r, 10))
			op->a[0] |= 0x40;	/* an aux_offset off the mapping's */
		if (fuzz_chance(r, 50))
			gen_mmap_aux_pmu(w, op);
		break;
	case FOP_MUNMAP:
		op->a[0] = fuzz_below(r, 3);
		break;
	case FOP_MREMAP:
		op->a[0] = 1 + fuzz_below(r, 17);
		break;
	case FOP_TOUCH:
		op->a[0] = fuzz_below(r, 4);
		break;
	case FOP_PRCTL:
		op->a[0] = fuzz_below(r, 2);
		break;
	case FOP_FORK:
		op->a[0] = fuzz_below(r, 8);
		op->a[1] = fuzz_below(r, FUZZ_CHILDREN);
		op->a[2] = fuzz_below(r, 3000);
		if (op->a[0] == 3 || op->a[0] == 6)
			fuzz_attr_generate(r, w->env, op);
		break;
	case FOP_THREAD:
		op->a[0] = fuzz_below(r, 4);
		op->a[1] = fuzz_below(r, 3000);
		op->a[2] = 1 + fuzz_below(r, 8);
		if (op->a[0])
			fuzz_attr_generate(r, w->env, op);
		break;
	case FOP_DUP:
	case FOP_PASSFD:
		if (op->slot2 < 0)
			op->slot2 = fuzz_below(r, FUZZ_SLOTS);
		op->a[0] = fuzz_below(r, 8) == 0;
		break;
	case FOP_FCNTL:
		op->a[0] = fuzz_below(r, 5);
		op->a[1] = fuzz_below(r, 4);
		break;
	case FOP_KILL:
		op->a[0] = fuzz_below(r, FUZZ_CHILDREN);
		op->a[1] = fuzz_below(r, 5);
		break;
	case FOP_WORK:
		op->a[0] = fuzz_below(r, 10);
		op->a[1] = fuzz_below(r, 5000);
		break;
	case FOP_CPU:
		op->a[0] = w->env->nr_cpus > 1 ? 1 + fuzz_below(r, w->env->nr_cpus - 1) : 0;
		op->a[1] = fuzz_below(r, 2);
		break;
	case FOP_GROUP:
		fuzz_group_generate(w, op);
		break;
	case FOP_STORM:
		fuzz_storm_generate(w, op);
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------- execution */

static int slot_fd(struct fuzz_worker *w, int slot)
{
	return slot >= 0 ? w->slot[slot].fd : -1;
}

static uint64_t op_attr_u64(const struct fuzz_op *op, size_t off)
{
	uint64_t v;

	memcpy(&v, op->blob + off, sizeof(v));
	return v;
}

static int check_open(struct fuzz_worker *w, const struct fuzz_op *op,
		      long fd, int err)
{
	struct perf_event_attr a;
	unsigned long flags = op->a[2];
	uint64_t flagword;
	bool tail = false;
	unsigned int i;

	memcpy(&a, op->blob, sizeof(a));
	flagword = op_attr_u64(op, offsetof(struct perf_event_attr, read_format) + 8);
	for (i = sizeof(a); i < a.size && i < op->len; i++)
		tail |= op->blob[i] != 0;

	if (flags & ~PERF_FLAG_ALL_6_1) {
		if (fd >= 0 || (err != EINVAL && err != EACCES))
			return oracle_fail(w, op, "open with unknown flags", fd, err);
		return 0;
	}
	if ((a.size && a.size < PERF_ATTR_SIZE_VER0) || tail) {
		if (fd >= 0 || (err != E2BIG && err != EACCES))
			return oracle_fail(w, op, "open with a bad attr size", fd, err);
		return 0;
	}
	if (flagword >> 38 || (a.size >= 112 && a.__reserved_2) ||
	    (a.size >= 120 && a.__reserved_3)) {
		if (fd >= 0)
			return oracle_fail(w, op, "open with reserved bits", fd, err);
		return 0;
	}
	if (fd >= 0 && (flags & PERF_FLAG_FD_CLOEXEC) &&
	    !(fcntl(fd, F_GETFD) & FD_CLOEXEC))
		return oracle_fail(w, op, "CLOEXEC open is not close-on-exec", fd, 0);
	return 0;
}

static pid_t open_pid(struct fuzz_worker *w, const struct fuzz_op *op,
		      unsigned long *flags)
{
	long mode = op->a[0];

	if (mode < 45)
		return 0;
	if (mode < 60)
		return -1;
	if (mode < 70)
		return w->child[op->a[3] % FUZZ_CHILDREN];
	if (mode < 75)
		return getppid();
	if (mode < 78)
		return 1;
	if (mode < 82)
		return (pid_t)op->a[3];
	if (mode < 90 || w->env->cgroup_fd < 0)
		return getpid();
	*flags |= PERF_FLAG_PID_CGROUP;
	return w->env->cgroup_fd;
}

static int run_open(struct fuzz_worker *w, const struct fuzz_op *op)
{
	unsigned long flags = op->a[2];
	pid_t pid = open_pid(w, op, &flags);
	int group = op->slot2 >= 0 ? slot_fd(w, op->slot2) : -1;
	struct perf_event_attr a;
	long fd;
	int err;

	fd = syscall(SYS_perf_event_open, op->blob, pid, (int)op->a[1], group, flags);
	err = errno;
	if (record(w, FC_OPEN, fd, op) || check_open(w, op, fd, err)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fd < 0)
		return 0;
	memcpy(&a, op->blob, sizeof(a));
	slot_clear(&w->slot[op->slot]);
	w->slot[op->slot].fd = fd;
	w->slot[op->slot].event = true;
	w->slot[op->slot].type = a.type;
	w->slot[op->slot].read_format = a.read_format;
	return 0;
}

static int run_read(struct fuzz_worker *w, const struct fuzz_op *op)
{
	static char *ro_page;
	struct fuzz_slot *s = &w->slot[op->slot];
	size_t len = op->a[0];
	char buf[9000];
	void *p = buf;
	long ret, expect;
	int err;

	switch (op->a[1]) {
	case 1:
		p = NULL;
		break;
	case 2:
		p = KERNEL_ADDRESS;
		break;
	case 3:
		if (!ro_page)
			ro_page = mmap(NULL, page_size(), PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p = ro_page;
		if (len > (size_t)page_size())
			len = page_size();
		break;
	}
	ret = read(s->fd, p, len);
	err = errno;
	if (record(w, FC_READ, ret, op))
		return -1;
	if (!s->event || op->a[1] || (s->read_format & PERF_FORMAT_GROUP) ||
	    (s->read_format & ~0x1fULL))
		return 0;
	expect = 8 * (1 + __builtin_popcountll(s->read_format & 0x17));
	if (ret == 0 || ret == expect)
		return 0;
	if (ret < 0 && err == ENOSPC && (long)len < expect)
		return 0;
	if (ret < 0 && (err == EINTR || err == EAGAIN))
		return 0;
	return oracle_fail(w, op, "read size differs from read_format", ret, err);
}

/* A part of a long filter's blob: its string, then past its NUL. */
static const char *blob_part(const char **cur, const char *end, size_t *len)
{
	const char *s = *cur;

	*len = strnlen(s, end - s);
	*cur = s + *len < end ? s + *len + 1 : end;
	return s;
}

/* The string of a long SET_FILTER (see gen_long_filter()), or NULL. */
static char *long_filter(const struct fuzz_op *op)
{
	const char *cur = (const char *)op->blob, *end = cur + op->len;
	size_t len = (uint32_t)op->a[3], plen, ulen, slen, n, i;
	const char *prefix, *unit, *suffix;
	char *s;

	if (len > FUZZ_FILTER_MAX)
		len = FUZZ_FILTER_MAX;
	prefix = blob_part(&cur, end, &plen);
	unit = blob_part(&cur, end, &ulen);
	suffix = blob_part(&cur, end, &slen);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	for (n = 0; n < plen && n < len; n++)
		s[n] = prefix[n];
	for (i = 0; ulen && n + slen < len; i++)
		s[n++] = unit[i % ulen];
	for (i = 0; i < slen && n < len; i++)
		s[n++] = suffix[i];
	s[n] = '\0';
	return s;
}

static int run_ioctl(struct fuzz_worker *w, const struct fuzz_op *op)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_REFRESH, PERF_EVENT_IOC_RESET,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
		PERF_EVENT_IOC_SET_FILTER, PERF_EVENT_IOC_ID,
		PERF_EVENT_IOC_SET_BPF, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_QUERY_BPF, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
	};
	unsigned int c = op->a[0] % 13;
	unsigned long cmd, arg = op->a[1];
	uint64_t value = op->a[1], query[4] = { 4 };
	char filter[FUZZ_BLOB + 1], *big = NULL;
	long ret;
	void *ptr;

	if (c == 12)	/* an unknown command near the perf ones */
		cmd = _IOC(op->a[1] & 3, '$', op->a[3] % 32, op->a[3] >> 8 & 0xff);
	else
		cmd = cmds[c];
	switch (c) {
	case 2: case 9:
		arg = op->a[1];
		break;
	case 0: case 1: case 3:
		arg = op->a[1] & 1 ? PERF_IOC_FLAG_GROUP : op->a[1] & ~3ULL;
		break;
	case 5:
		arg = op->slot2 >= 0 ? (unsigned long)slot_fd(w, op->slot2) : -1UL;
		break;
	case 8:
		arg = slot_fd(w, op->slot2 >= 0 ? op->slot2 : op->slot);
		break;
	default:
		ptr = c == 4 ? (void *)&value :
		      c == 6 ? (void *)filter :
		      c == 10 ? (void *)query :
		      c == 11 ? (void *)op->blob : (void *)&value;
		if (c == 6) {
			memcpy(filter, op->blob, op->len);
			filter[op->len] = '\0';
			if ((uint64_t)op->a[3] >> 32 == FUZZ_FILTER_LONG)
				big = long_filter(op);
			if (big)
				ptr = big;
		}
		if (op->a[2] == 1)
			ptr = NULL;
		else if (op->a[2] == 2)
			ptr = KERNEL_ADDRESS;
		arg = (unsigned long)ptr;
		break;
	}
	ret = ioctl(slot_fd(w, op->slot), cmd, arg);
	if (big) {
		int err = errno;

		free(big);
		errno = err;
	}
	return record(w, c == 12 ? FC_IOC_OTHER : FC_IOC_ENABLE + c, ret, op);
}

static int run_poll(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct pollfd pfd[FUZZ_SLOTS];
	int i, n = 0;
	long ret;

	for (i = 0; i < FUZZ_SLOTS; i++) {
		if (!(op->a[0] & (1LL << i)) || w->slot[i].fd < 0)
			continue;
		pfd[n].fd = w->slot[i].fd;
		pfd[n].events = POLLIN | POLLHUP | (op->a[2] & POLLOUT);
		n++;
	}
	ret = poll(pfd, n, op->a[1]);
	return record(w, FC_POLL, ret, op);
}

/*
 * An AUX area after the slot's data mapping (a[2] == FUZZ_MMAP_AUX): the
 * user page says where (usually right after the data pages, sometimes
 * elsewhere), a[0] pages, read-only (overwrite mode) or writable.
 */
static int run_mmap_aux(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_slot *s = &w->slot[op->slot];
	struct perf_event_mmap_page *pg = s->map;
	uint64_t pages = op->a[0] & 0x3f, off = s->map_len;
	size_t len;
	void *p;

	if (!pg || !s->map_rw || s->aux)
		return 0;
	/* the data mapping's 2^n + 1 pages make a 2^n-page area */
	if (pages > 2 && (pages & 1))
		pages--;
	len = pages * page_size();
	if (op->a[0] & 0x40)
		off += (op->a[0] & 3) * page_size();
	pg->aux_offset = off;
	pg->aux_size = len;
	p = mmap(NULL, len, PROT_READ | (op->a[1] ? PROT_WRITE : 0), MAP_SHARED, s->fd, off);
	if (record(w, FC_MMAP, p == MAP_FAILED ? -1 : 0, op))
		return -1;
	if (p != MAP_FAILED) {
		s->aux = p;
		s->aux_len = len;
	}
	return 0;
}

static int run_mmap(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_slot *s = &w->slot[op->slot];
	size_t len = op->a[0] * page_size();
	int prot = PROT_READ | (op->a[1] ? PROT_WRITE : 0);
	void *p;

	if (op->a[2] == FUZZ_MMAP_AUX)
		return run_mmap_aux(w, op);
	slot_unmap(s);
	p = mmap(NULL, len, prot, MAP_SHARED, s->fd, op->a[2] * page_size());
	if (record(w, FC_MMAP, p == MAP_FAILED ? -1 : 0, op))
		return -1;
	if (p == MAP_FAILED)
		return 0;
	s->map = p;
	s->map_len = len;
	s->map_rw = op->a[1];
	return 0;
}

static int run_munmap(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_slot *s = &w->slot[op->slot];
	long ret, ps = page_size();

	if (!s->map)
		return 0;
	if (op->a[0] == 0 || s->map_len <= (size_t)ps) {
		ret = munmap(s->map, s->map_len);
	} else if (op->a[0] == 1) {
		ret = munmap(s->map, ps);	/* the rest goes at exit */
	} else {
		ret = munmap((char *)s->map + s->map_len - ps, ps);
	}
	s->map = NULL;
	s->map_len = 0;
	return record(w, FC_MUNMAP, ret, op);
}

static int run_mremap(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_slot *s = &w->slot[op->slot];
	size_t len = op->a[0] * page_size();
	void *p;

	if (!s->map)
		return 0;
	p = mremap(s->map, s->map_len, len, MREMAP_MAYMOVE);
	if (record(w, FC_MREMAP, p == MAP_FAILED ? -1 : 0, op))
		return -1;
	if (p != MAP_FAILED) {
		s->map = p;
		s->map_len = len;
	}
	return 0;
}

static void run_touch(struct fuzz_worker *w, const struct fuzz_op *op)
{
	struct fuzz_slot *s = &w->slot[op->slot];
	struct perf_event_mmap_page *pg = s->map;
	volatile unsigned char sink;
	uint64_t head;

	if (!pg || s->map_len < (size_t)page_size())
		return;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	sink = pg->lock + pg->index + pg->offset + pg->time_enabled;
	if (s->map_len >= 2 * (size_t)page_size())
		sink = ((unsigned char *)s->map)[page_size() + head % (s->map_len - page_size())];
	(void)sink;
	if (!s->map_rw)
		return;
	if (op->a[0] == 1)
		__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	else if (op->a[0] == 2)
		__atomic_store_n(&pg->data_tail, (uint64_t)op->a[1], __ATOMIC_RELEASE);
	else if (op->a[0] == 3)
		pg->aux_offset = op->a[1] & ~0xfffULL, pg->aux_size = 4096;
}

/*
 * What a child does (a[0]): 0 exit, 1 work, 2 exec /bin/true (busybox),
 * 3 open and enable the blob's event, work, 4 sleep until killed, 5 orphan
 * a grandchild that works, 6 as 3 with a grandchild inheriting the event,
 * 7 map a file executable and exec the fuzzer's own binary, which exits at
 * once (usage, its messages to /dev/null).  2 and 7 drop or re-resolve the
 * file ranges of the events the child inherited.
 */
static void child_body(const struct fuzz_op *op)
{
	int fd;

	switch (op->a[0]) {
	case 0:
		break;
	case 1:
		work(op->a[2], op->a[2]);
		work(1, op->a[2]);
		break;
	case 2:
		execl("/bin/true", "true", (char *)NULL);
		break;
	case 3:
	case 6:
		fd = syscall(SYS_perf_event_open, op->blob, 0, -1, -1, 0);
		if (fd >= 0)
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		if (op->a[0] == 6 && fork() == 0) {
			work(0, op->a[2]);
			_exit(0);
		}
		work(op->a[2], op->a[2]);
		work(5, op->a[2]);
		break;
	case 4:
		for (;;)
			pause();
	case 7:
		map_exec(8 + (op->a[2] & 1), op->a[2]);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 2);
		execl("/proc/self/exe", "perf_fuzz", "-w", "0", (char *)NULL);
		break;
	default:
		if (fork() == 0) {
			work(0, op->a[2]);
			work(1, op->a[2]);
		}
		break;
	}
	_exit(0);
}

static int run_fork(struct fuzz_worker *w, const struct fuzz_op *op)
{
	int i = op->a[1] % FUZZ_CHILDREN;
	pid_t pid;

	kill_child(w, i);
	pid = fork();
	if (pid == 0)
		child_body(op);
	w->child[i] = pid > 0 ? pid : 0;
	return record(w, op->a[0] == 2 || op->a[0] == 7 ? FC_EXECVE : FC_FORK, pid, op);
}

struct thread_arg {
	long body, loops;
	int fd;			/* body 3: a dup of the slot's fd, or -1 */
	unsigned char attr[FUZZ_BLOB];
};

/*
 * Body 3, what threaded programs do with an inherited event: read it
 * (its context's mutex), yield to a sibling (a context swap between
 * twins), open an event of its own, exit while siblings still read.
 */
static void thread_reader(struct thread_arg *t)
{
	unsigned long long buf[64];
	int i, fd;

	for (i = 0; i < 4; i++) {
		if (t->fd >= 0 && read(t->fd, buf, sizeof(buf)) < 0)
			break;
		work(t->loops / 4, t->loops / 4);
		sched_yield();
	}
	fd = syscall(SYS_perf_event_open, t->attr, 0, -1, -1, 0);
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		sched_yield();
		read(fd, buf, sizeof(buf));
		close(fd);
	}
}

static void *thread_body(void *p)
{
	struct thread_arg *t = p;
	int fd = -1;

	if (t->body == 3) {
		thread_reader(t);
		if (t->fd >= 0)
			close(t->fd);
		free(t);
		return NULL;
	}
	if (t->body)
		fd = syscall(SYS_perf_event_open, t->attr, 0, -1, -1, 0);
	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(t->loops, t->loops);
	if (fd >= 0 && t->body == 1)
		close(fd);	/* body 2 leaves it open past the thread's exit */
	free(t);
	return NULL;
}

static int run_thread(struct fuzz_worker *w, const struct fuzz_op *op)
{
	int i, n = op->a[0] == 3 ? op->a[2] : 1, ret = 0;
	pthread_attr_t pa;
	pthread_t th;

	pthread_attr_init(&pa);
	pthread_attr_setdetachstate(&pa, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < n && !ret; i++) {
		struct thread_arg *t = calloc(1, sizeof(*t));
		int fd = slot_fd(w, op->slot);

		if (!t)
			break;
		t->body = op->a[0];
		t->loops = op->a[1];
		t->fd = t->body == 3 && fd >= 0 ? dup(fd) : -1;
		memcpy(t->attr, op->blob, sizeof(t->attr));
		ret = pthread_create(&th, &pa, thread_body, t);
		if (ret) {
			if (t->fd >= 0)
				close(t->fd);
			free(t);
			errno = ret;
		}
	}
	pthread_attr_destroy(&pa);
	return record(w, FC_THREAD, ret ? -1 : 0, op);
}

static int run_passfd(struct fuzz_worker *w, const struct fuzz_op *op)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	int sv[2], fd = slot_fd(w, op->slot);
	long ret;

	if (fd < 0 || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 0;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	ret = sendmsg(sv[0], &msg, 0);
	if (record(w, FC_SENDMSG, ret, op))
		goto out;
	if (ret < 0 || op->a[0])	/* close with the fd still in flight */
		goto out;
	msg.msg_controllen = sizeof(cbuf);
	ret = recvmsg(sv[1], &msg, 0);
	if (record(w, FC_RECVMSG, ret, op))
		goto out;
	cm = CMSG_FIRSTHDR(&msg);
	if (ret >= 0 && cm && cm->cmsg_type == SCM_RIGHTS) {
		int nfd;

		memcpy(&nfd, CMSG_DATA(cm), sizeof(int));
		slot_copy_fd(&w->slot[op->slot2], &w->slot[op->slot], nfd);
	}
out:
	close(sv[0]);
	close(sv[1]);
	return 0;
}

static int run_fcntl(struct fuzz_worker *w, const struct fuzz_op *op)
{
	static const int sigs[] = { 0, SIGIO, SIGUSR1, SIGTRAP };
	int fd = slot_fd(w, op->slot);
	struct f_owner_ex owner;
	long ret;

	switch (op->a[0]) {
	case 0:
		ret = fcntl(fd, F_SETOWN, getpid());
		break;
	case 1:
		ret = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC | O_NONBLOCK);
		break;
	case 2:
		ret = fcntl(fd, F_SETSIG, sigs[op->a[1] % 4]);
		break;
	case 3:
		owner.type = F_OWNER_TID;
		owner.pid = syscall(SYS_gettid);
		ret = fcntl(fd, F_SETOWN_EX, &owner);
		break;
	default:
		ret = fcntl(fd, F_SETFL, 0);
		break;
	}
	return record(w, FC_FCNTL, ret, op);
}

static int run_cpu(struct fuzz_worker *w, const struct fuzz_op *op)
{
	char path[64];
	long ret = -1;
	int fd;

	if (op->a[0] <= 0)
		return 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%lld/online", op->a[0]);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return 0;
	ret = write(fd, op->a[1] ? "1" : "0", 1);
	close(fd);
	return record(w, FC_CPU_ONLINE, ret, op);
}

int fuzz_op_run(struct fuzz_worker *w, const struct fuzz_op *op)
{
	static const int sigs[] = { SIGKILL, SIGSTOP, SIGCONT, SIGTERM, SIGUSR1 };
	int fd = slot_fd(w, op->slot), nfd;
	char buf[64] = { 0 };
	long ret;

	if (fuzz_storm_poll(w))		/* before reap_children(): see there */
		return -1;
	reap_children(w);
	__atomic_fetch_add(&w->stats->iterations, 1, __ATOMIC_RELAXED);
	switch (op->kind) {
	case FOP_OPEN:
		return run_open(w, op);
	case FOP_CLOSE:
		slot_unmap(&w->slot[op->slot]);
		ret = close(fd);
		w->slot[op->slot].fd = -1;
		w->slot[op->slot].event = false;
		return record(w, FC_CLOSE, ret, op);
	case FOP_READ:
		return run_read(w, op);
	case FOP_WRITE:
		ret = write(fd, buf, op->a[0] % sizeof(buf));
		return record(w, FC_WRITE, ret, op);
	case FOP_IOCTL:
		return run_ioctl(w, op);
	case FOP_POLL:
		return run_poll(w, op);
	case FOP_MMAP:
		return run_mmap(w, op);
	case FOP_MUNMAP:
		return run_munmap(w, op);
	case FOP_MREMAP:
		return run_mremap(w, op);
	case FOP_TOUCH:
		run_touch(w, op);
		return 0;
	case FOP_PRCTL:
		ret = prctl(op->a[0] ? PR_TASK_PERF_EVENTS_ENABLE :
			    PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		return record(w, FC_PRCTL, ret, op);
	case FOP_FORK:
		return run_fork(w, op);
	case FOP_THREAD:
		return run_thread(w, op);
	case FOP_DUP:
		nfd = dup(fd);
		if (nfd >= 0 && op->slot2 >= 0)
			slot_copy_fd(&w->slot[op->slot2], &w->slot[op->slot], nfd);
		else if (nfd >= 0)
			close(nfd);
		return record(w, FC_DUP, nfd, op);
	case FOP_FCNTL:
		return run_fcntl(w, op);
	case FOP_PASSFD:
		return run_passfd(w, op);
	case FOP_KILL:
		if (w->child[op->a[0] % FUZZ_CHILDREN] <= 0)
			return 0;
		if (sigs[op->a[1] % 5] == SIGKILL) {
			kill_child(w, op->a[0] % FUZZ_CHILDREN);
			return 0;
		}
		ret = kill(w->child[op->a[0] % FUZZ_CHILDREN], sigs[op->a[1] % 5]);
		return record(w, FC_KILL, ret, op);
	case FOP_WORK:
		if (op->a[0] == 8 || op->a[0] == 9)
			map_exec(op->a[0], op->a[1]);
		else
			work(op->a[0], op->a[1]);
		return 0;
	case FOP_CPU:
		return run_cpu(w, op);
	case FOP_GROUP:
		return fuzz_group_run(w, op);
	case FOP_STORM:
		return fuzz_storm_run(w, op);
	default:
		return 0;
	}
}
