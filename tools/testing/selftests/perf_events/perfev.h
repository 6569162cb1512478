/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helper library shared by the perf_events conformance tests.
 *
 * Owns: the raw perf_event_open() wrapper, attr builders, sysfs/tracefs/sysctl
 * lookups, controlled workloads and privilege helpers.  Tests include this
 * after "../kselftest_harness.h".  Nothing here asserts: helpers return -1 and
 * leave errno set, so the test decides what is a failure and what is a SKIP.
 */
#ifndef PERFEV_H
#define PERFEV_H

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifndef PERF_ATTR_SIZE_VER7
#define PERF_ATTR_SIZE_VER7	128
#endif

/* Kernel helpers missing in user space (kselftest.h has ARRAY_SIZE, not perfev.c) */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#endif
#ifndef BIT
#define BIT(nr)		(1UL << (nr))
#endif
#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

/* perf_event_open(2); returns the fd, or -1 with errno set. */
int perfev_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		unsigned long flags);

/* Zero @attr and fill type/config/size; the event starts disabled. */
void perfev_attr_init(struct perf_event_attr *attr, __u32 type, __u64 config);

/* Open a counting event on the calling thread (pid 0, any CPU), disabled. */
int perfev_open_self(__u32 type, __u64 config, int group_fd);

/* read(2) exactly one u64 count; returns -1 on a short or failed read. */
int perfev_read_count(int fd, __u64 *count);

/* Counting value with time_enabled/time_running (read_format TOTAL_TIMES). */
struct perfev_value {
	__u64 value;
	__u64 enabled;
	__u64 running;
};

int perfev_read_value(int fd, struct perfev_value *v);

/*
 * Hardware counters present?  True when PERF_TYPE_HARDWARE instructions can be
 * opened on the calling thread (false on x86_64 under QEMU TCG).
 */
bool perfev_have_hw(void);

/* Dynamic PMU type from /sys/bus/event_source/devices/@pmu/type, or -1. */
int perfev_pmu_type(const char *pmu);

/* Tracepoint id of @sys:@name from tracefs (or debugfs/tracing), or -1. */
int perfev_tracepoint_id(const char *sys, const char *name);

/* Is @sym a text symbol in /proc/kallsyms? */
bool perfev_have_ksym(const char *sym);

/*
 * File offset in /proc/self/exe of the code at run-time address @addr (for
 * uprobe_path/probe_offset), or -1.
 */
long perfev_exe_file_offset(unsigned long addr);

/* Path of the mounted tracefs root, or NULL. */
const char *perfev_tracefs(void);

/* Read/write an integer sysctl or sysfs file; -1 on error. */
int perfev_read_int(const char *path, long long *val);
int perfev_write_int(const char *path, long long val);

/*
 * The kernel lowers perf_event_max_sample_rate when PMIs take long, and
 * under TCG a preempted vCPU makes one look slow: the samples after it are
 * throttled.  A test of sample counts, not of that heuristic, fixes the
 * rate at 100000 Hz with the heuristic off (perf_cpu_time_max_percent 0)
 * and puts both back after.  0, or -1 when the sysctls cannot be set (not
 * root, or no perf_events sysctls): @saved then holds nothing to restore.
 */
struct perfev_sample_limits {
	long long rate;
	long long percent;
};

int perfev_sample_limits_fix(struct perfev_sample_limits *saved);
void perfev_sample_limits_restore(const struct perfev_sample_limits *saved);

/*
 * Pin the calling thread to the CPU it is running on; @orig receives the
 * previous affinity for perfev_unpin().  Returns the CPU, or -1.
 */
int perfev_pin_here(cpu_set_t *orig);
void perfev_unpin(const cpu_set_t *orig);

/* Number of online CPUs (sysconf). */
int perfev_nr_cpus(void);
/* The page allocator's number of orders (MAX_ORDER, /proc/buddyinfo's columns), or -1. */
int perfev_buddy_orders(void);

/* Controlled workloads. */
void perfev_burn(unsigned long loops);		/* pure user-space CPU work */
int perfev_touch_pages(size_t npages);		/* fresh anonymous pages, 1 write each */
int perfev_pipe_pingpong(int rounds);		/* round trips with a child, both on one CPU */

/*
 * Run @fn(arg) in a forked child with uid/gid 65534 and no capabilities;
 * returns fn's return value (0..255), or -1 if the child could not run.
 */
int perfev_run_unprivileged(int (*fn)(void *arg), void *arg);

/*
 * Run @fn(arg) in a forked child that keeps its uid but has exactly the
 * capabilities of the mask @caps (bit N: capability N), effective and
 * permitted; returns as perfev_run_unprivileged() (254: capset failed).
 */
int perfev_run_with_caps(int (*fn)(void *arg), void *arg, __u64 caps);

/*
 * Open the struct perf_event_attr at @attr on the calling thread and close
 * it again: 0, or the errno.  Made to be the @fn of perfev_run_unprivileged().
 */
int perfev_open_errno(void *attr);

/* Fork a child that waits on a pipe until perfev_child_go(); for pid targets. */
struct perfev_child {
	pid_t pid;
	int go_fd;
};

int perfev_child_start(struct perfev_child *c, void (*body)(void *arg), void *arg);
int perfev_child_go(struct perfev_child *c);	/* release it; body runs, then _exit(0) */
int perfev_child_wait(struct perfev_child *c);	/* waitpid; returns exit status or -1 */

#endif /* PERFEV_H */
