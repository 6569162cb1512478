// SPDX-License-Identifier: GPL-2.0
/*
 * Helper library shared by the perf_events conformance tests.
 * See perfev.h for the contract of each helper.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <linux/capability.h>

#include "perfev.h"

int perfev_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

void perfev_attr_init(struct perf_event_attr *attr, __u32 type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
}

int perfev_open_self(__u32 type, __u64 config, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	if (group_fd >= 0)
		attr.disabled = 0;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

int perfev_read_count(int fd, __u64 *count)
{
	ssize_t n = read(fd, count, sizeof(*count));

	if (n != sizeof(*count)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

int perfev_read_value(int fd, struct perfev_value *v)
{
	ssize_t n = read(fd, v, sizeof(*v));

	if (n != sizeof(*v)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

bool perfev_have_hw(void)
{
	static int cached = -1;
	int fd;

	if (cached >= 0)
		return cached;
	fd = perfev_open_self(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1);
	cached = fd >= 0;
	if (fd >= 0)
		close(fd);
	return cached;
}

int perfev_read_int(const char *path, long long *val)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -1;
	ret = fscanf(f, "%lld", val) == 1 ? 0 : -1;
	fclose(f);
	return ret;
}

int perfev_write_int(const char *path, long long val)
{
	char buf[32];
	int fd, len, ret;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%lld\n", val);
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

#define PERFEV_MAX_RATE		"/proc/sys/kernel/perf_event_max_sample_rate"
#define PERFEV_MAX_PERCENT	"/proc/sys/kernel/perf_cpu_time_max_percent"

int perfev_sample_limits_fix(struct perfev_sample_limits *saved)
{
	saved->rate = -1;
	saved->percent = -1;
	if (perfev_read_int(PERFEV_MAX_RATE, &saved->rate) ||
	    perfev_read_int(PERFEV_MAX_PERCENT, &saved->percent))
		return -1;
	/* the rate cannot be written while the heuristic is off: rate first */
	if (perfev_write_int(PERFEV_MAX_RATE, 100000) ||
	    perfev_write_int(PERFEV_MAX_PERCENT, 0)) {
		perfev_sample_limits_restore(saved);
		return -1;
	}
	return 0;
}

void perfev_sample_limits_restore(const struct perfev_sample_limits *saved)
{
	if (saved->percent >= 0)
		perfev_write_int(PERFEV_MAX_PERCENT, saved->percent);
	if (saved->rate > 0)
		perfev_write_int(PERFEV_MAX_RATE, saved->rate);
}

int perfev_pmu_type(const char *pmu)
{
	char path[256];
	long long type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (perfev_read_int(path, &type))
		return -1;
	return (int)type;
}

const char *perfev_tracefs(void)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (access(path, F_OK) == 0)
			return roots[i];
	}
	return NULL;
}

int perfev_tracepoint_id(const char *sys, const char *name)
{
	const char *root = perfev_tracefs();
	char path[256];
	long long id;

	if (!root)
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sys, name);
	if (perfev_read_int(path, &id))
		return -1;
	return (int)id;
}

int perfev_nr_cpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void perfev_burn(unsigned long loops)
{
	volatile unsigned long sink = 0;
	unsigned long i;

	for (i = 0; i < loops; i++)
		sink += i;
}

int perfev_touch_pages(size_t npages)
{
	size_t pg = sysconf(_SC_PAGESIZE), i;
	volatile char *p;

	p = mmap(NULL, npages * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	for (i = 0; i < npages; i++)
		p[i * pg] = 1;
	return munmap((void *)p, npages * pg);
}

int perfev_pin_here(cpu_set_t *orig)
{
	cpu_set_t one;
	int cpu;

	if (sched_getaffinity(0, sizeof(*orig), orig))
		return -1;
	cpu = sched_getcpu();
	if (cpu < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
}

void perfev_unpin(const cpu_set_t *orig)
{
	sched_setaffinity(0, sizeof(*orig), orig);
}

int perfev_pipe_pingpong(int rounds)
{
	int to_child[2], to_parent[2], i, status, pinned;
	cpu_set_t saved;
	char c = 0;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent))
		return -1;
	/*
	 * Both ends on one CPU: every round then switches the parent out (it
	 * sleeps in read() or the woken child preempts it), never zero times
	 * because the reply came from another CPU before read() slept.
	 */
	pinned = perfev_pin_here(&saved) >= 0;
	pid = fork();
	if (pid < 0) {
		if (pinned)
			perfev_unpin(&saved);
		return -1;
	}
	if (pid == 0) {
		for (i = 0; i < rounds; i++) {
			if (read(to_child[0], &c, 1) != 1 ||
			    write(to_parent[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < rounds; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			break;
	}
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	if (pinned)
		perfev_unpin(&saved);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return (i == rounds && WIFEXITED(status) && !WEXITSTATUS(status)) ? 0 : -1;
}

int perfev_open_errno(void *attr)
{
	int fd = perfev_open(attr, 0, -1, -1, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* How a forked child gives up privilege before it runs the test body. */
struct perfev_drop {
	bool unprivileged;	/* uid/gid 65534, no capabilities */
	__u64 caps;		/* else: exactly these capabilities */
};

static int perfev_drop_privilege(const struct perfev_drop *d)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {
		{ .effective = (__u32)d->caps, .permitted = (__u32)d->caps },
		{ .effective = (__u32)(d->caps >> 32), .permitted = (__u32)(d->caps >> 32) },
	};

	if (d->unprivileged)
		return setgid(65534) || setuid(65534) ? 255 : 0;
	return syscall(SYS_capset, &hdr, data) ? 254 : 0;
}

/* Run @fn(arg) in a child with privilege dropped as @d says; its status. */
static int perfev_run_dropped(int (*fn)(void *arg), void *arg, const struct perfev_drop *d)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		status = perfev_drop_privilege(d);
		_exit(status ? status : fn(arg) & 0xff);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int perfev_run_unprivileged(int (*fn)(void *arg), void *arg)
{
	struct perfev_drop d = { .unprivileged = true };

	return perfev_run_dropped(fn, arg, &d);
}

int perfev_run_with_caps(int (*fn)(void *arg), void *arg, __u64 caps)
{
	struct perfev_drop d = { .caps = caps };

	return perfev_run_dropped(fn, arg, &d);
}

int perfev_child_start(struct perfev_child *c, void (*body)(void *arg), void *arg)
{
	int fds[2];
	char ch;

	if (pipe(fds))
		return -1;
	c->pid = fork();
	if (c->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (c->pid == 0) {
		close(fds[1]);
		if (read(fds[0], &ch, 1) != 1)
			_exit(2);
		if (body)
			body(arg);
		_exit(0);
	}
	close(fds[0]);
	c->go_fd = fds[1];
	return 0;
}

int perfev_child_go(struct perfev_child *c)
{
	char ch = 1;
	int ret = write(c->go_fd, &ch, 1) == 1 ? 0 : -1;

	close(c->go_fd);
	c->go_fd = -1;
	return ret;
}

int perfev_child_wait(struct perfev_child *c)
{
	int status;

	if (c->go_fd >= 0) {
		close(c->go_fd);
		c->go_fd = -1;
	}
	if (waitpid(c->pid, &status, 0) != c->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Is @sym a text symbol in /proc/kallsyms? */
bool perfev_have_ksym(const char *sym)
{
	char line[256], name[200], t;
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %c %199s", &t, name) == 2 &&
		    (t == 'T' || t == 't') && !strcmp(name, sym))
			found = true;
	fclose(f);
	return found;
}

/*
 * File offset of the code at run-time address @addr, from the program
 * headers of /proc/self/exe; works for ET_EXEC and (static-)PIE.
 */
long perfev_exe_file_offset(unsigned long addr)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	unsigned long bias = 0, phdr_vaddr = 0;
	long ret = -1;
	int fd, i, n;

	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	n = eh.e_phnum < 64 ? eh.e_phnum : 64;
	if (pread(fd, ph, n * sizeof(ph[0]), eh.e_phoff) != (ssize_t)(n * sizeof(ph[0])))
		goto out;
	if (eh.e_type == ET_DYN) {
		/* load bias = AT_PHDR - link-time address of the program headers */
		for (i = 0; i < n; i++)
			if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= eh.e_phoff &&
			    eh.e_phoff < ph[i].p_offset + ph[i].p_filesz)
				phdr_vaddr = ph[i].p_vaddr + eh.e_phoff - ph[i].p_offset;
		bias = getauxval(AT_PHDR) - phdr_vaddr;
	}
	addr -= bias;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
		    ph[i].p_vaddr <= addr && addr < ph[i].p_vaddr + ph[i].p_filesz)
			ret = addr - ph[i].p_vaddr + ph[i].p_offset;
out:
	close(fd);
	return ret;
}

int perfev_buddy_orders(void)
{
	char line[512], *p;
	int orders = -2;	/* "Node 0, zone DMA" */
	FILE *f = fopen("/proc/buddyinfo", "r");

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		for (p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"))
			orders++;
	fclose(f);
	return orders > 0 ? orders : -1;
}
