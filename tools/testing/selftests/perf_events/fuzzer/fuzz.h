/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_fuzz: a seeded syscall fuzzer for perf_events.
 *
 * Layout: fuzz_rng.c (the generator), fuzz_env.c (what the guest offers:
 * PMUs, the AUX test PMUs, tracepoints, CPUs, a cgroup, where the fuzzer's
 * code is in its file), fuzz_attr.c (mostly-plausible
 * perf_event_attr), fuzz_ops.c (one operation: generate, print, parse, run),
 * fuzz_storm.c (valid inherited groups and the fork/clone/exec/exit storms
 * of tasks that hold them), fuzz_main.c (rounds, workers, watchdog,
 * replay, minimisation, summary).
 *
 * An operation is a plain struct fuzz_op, generated from the seed, written
 * to the worker's log as one text line *before* it runs, and re-run verbatim
 * by --replay.  Operations name file descriptors by slot, never by number,
 * so a replayed log means the same thing in a fresh process.
 *
 * Each worker is one process; statistics go to a shared anonymous mapping
 * the supervisor reads.  Nothing here is thread-safe beyond that: the only
 * threads a worker starts run a fixed body that touches no worker state.
 * A storm runs in processes of its own (a process group per storm) that
 * share nothing with the worker but the statistics; every storm task has
 * an alarm, and the worker kills the storm's process group when its time
 * is up, so none outlives the worker by more than a few seconds.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#define FUZZ_SLOTS		24	/* fds a worker juggles */
#define FUZZ_MMAP_AUX		7	/* FOP_MMAP a[2]: map the AUX area */
#define FUZZ_FILTER_LONG	0x4c4f4e47ULL	/* FOP_IOCTL a[3] >> 32: a long filter */
#define FUZZ_FILTER_MAX		(1 << 18)	/* its longest length */
#define FUZZ_CHILDREN		6	/* live children per worker */
#define FUZZ_STORMS		2	/* storms a worker runs at once */
#define FUZZ_BLOB		192	/* attr bytes or a filter string */
#define FUZZ_MAX_TP		2048	/* tracepoint ids remembered */
#define FUZZ_MAX_PMU		16
#define FUZZ_ERRNO_MAX		600	/* outcomes table: errno 0..599 */
#define FUZZ_MAX_WORKERS	64
#define FUZZ_LIFE_TP		8	/* fork/exec/exit/switch tracepoints */
#define FUZZ_STORM_EXEC		"--storm-exec"	/* argv[1] of a storm's exec */

/* What the generator can do; the order is the log's vocabulary. */
enum fuzz_kind {
	FOP_OPEN, FOP_CLOSE, FOP_READ, FOP_WRITE, FOP_IOCTL, FOP_POLL,
	FOP_MMAP, FOP_MUNMAP, FOP_MREMAP, FOP_TOUCH, FOP_PRCTL, FOP_FORK,
	FOP_THREAD, FOP_DUP, FOP_FCNTL, FOP_PASSFD, FOP_KILL, FOP_WORK,
	FOP_CPU, FOP_GROUP, FOP_STORM, FOP_NR
};

/* Syscalls counted for coverage (one entry per ioctl command too). */
enum fuzz_call {
	FC_OPEN, FC_CLOSE, FC_READ, FC_WRITE, FC_POLL, FC_MMAP, FC_MUNMAP,
	FC_MREMAP, FC_PRCTL, FC_FORK, FC_THREAD, FC_EXECVE, FC_DUP, FC_FCNTL,
	FC_SENDMSG, FC_RECVMSG, FC_KILL, FC_CPU_ONLINE,
	FC_IOC_ENABLE, FC_IOC_DISABLE, FC_IOC_REFRESH, FC_IOC_RESET,
	FC_IOC_PERIOD, FC_IOC_SET_OUTPUT, FC_IOC_SET_FILTER, FC_IOC_ID,
	FC_IOC_SET_BPF, FC_IOC_PAUSE_OUTPUT, FC_IOC_QUERY_BPF,
	FC_IOC_MODIFY_ATTRIBUTES, FC_IOC_OTHER, FC_GROUP_OPEN, FC_STORM,
	FC_NR
};

struct fuzz_op {
	enum fuzz_kind kind;
	int slot;		/* the fd operated on */
	int slot2;		/* group leader, output or destination slot; -1 */
	long long a[4];		/* per-kind arguments, see fuzz_ops.c */
	unsigned int len;	/* bytes used in blob */
	unsigned char blob[FUZZ_BLOB];
};

struct fuzz_rng {
	uint64_t s;
};

struct fuzz_pmu {
	char name[48];
	int type;
};

/* The test PMUs with an AUX area (drivers/perf/perfev_aux_pmu.c). */
enum fuzz_aux_pmu { FUZZ_NO_AUX, FUZZ_AUX, FUZZ_AUX2 };

/* The guest as discovered once by the supervisor, inherited by workers. */
struct fuzz_env {
	int nr_cpus;
	int nr_tp;
	int tp_ids[FUZZ_MAX_TP];
	int function_tp;	/* ftrace:function id, or -1 */
	int nr_pmus;
	struct fuzz_pmu pmus[FUZZ_MAX_PMU];
	int aux_type;		/* perfev_aux (address filters), or -1 */
	int aux2_type;		/* perfev_aux2 (another AUX layout), or -1 */
	/* the fuzzer's own code in its file, for address filters */
	char exe_path[64];	/* its binary, or "" */
	unsigned long exe_text_off, exe_text_len;
	unsigned long exe_fn_off;	/* fuzz_bp_function()'s offset */
	int cgroup_fd;		/* a perf_event cgroup directory, or -1 */
	char cgroup_procs[128];	/* its cgroup.procs file */
	bool no_breakpoints;	/* -x breakpoint: no PERF_TYPE_BREAKPOINT */
	bool has_hw;		/* a hardware PMU ("cpu" in sysfs) */
	int test_type;		/* the perfev_test PMU, or -1 */
	int nr_life_tp;		/* tracepoints of task life, ids */
	int life_tp[FUZZ_LIFE_TP];
	int signal_tp;		/* signal:signal_generate, or -1 */
};

/* Shared between the supervisor and its workers (MAP_SHARED). */
struct fuzz_stats {
	unsigned long iterations;
	unsigned long calls[FC_NR];
	/* outcome[c][e]: call c returned errno e (0: success) at least once */
	unsigned char outcome[FC_NR][FUZZ_ERRNO_MAX];
	unsigned long oracle_failures;
	/* storms (fuzz_storm.c) */
	unsigned long storms, storm_tasks, group_opens, group_opens_ok;
	unsigned long storm_failures[FUZZ_MAX_WORKERS];	/* oracles in storms */
};

struct fuzz_slot {
	int fd;			/* -1: empty */
	bool event;		/* fd came from perf_event_open (or a copy of one) */
	uint32_t type;		/* the event's attr.type */
	uint64_t read_format;
	void *map;
	size_t map_len;
	bool map_rw;
	void *aux;		/* the AUX area, mapped after map */
	size_t aux_len;
};

struct fuzz_worker {
	int id;
	bool privileged;
	const struct fuzz_env *env;
	struct fuzz_stats *stats;
	struct fuzz_rng rng;
	struct fuzz_slot slot[FUZZ_SLOTS];
	pid_t child[FUZZ_CHILDREN];
	pid_t storm[FUZZ_STORMS];	/* storm roots (fuzz_storm.c) */
	double storm_kill[FUZZ_STORMS];	/* when their process group dies */
	unsigned long storm_fails;	/* storm_failures[id] seen so far */
	int log_fd;		/* -1: no log */
	bool quiet;
};

/* fuzz_rng.c */
void fuzz_rng_seed(struct fuzz_rng *r, uint64_t seed);
uint64_t fuzz_rand(struct fuzz_rng *r);
uint64_t fuzz_below(struct fuzz_rng *r, uint64_t n);	/* 0..n-1 */
bool fuzz_chance(struct fuzz_rng *r, unsigned int percent);
uint64_t fuzz_mix(uint64_t a, uint64_t b);

/* fuzz_env.c */
void fuzz_env_discover(struct fuzz_env *env, bool want_cgroup);
void fuzz_env_release(struct fuzz_env *env);
enum fuzz_aux_pmu fuzz_env_aux_pmu(const struct fuzz_env *env, uint32_t type);

/* fuzz_attr.c: fills blob with an attr of op->len bytes */
void fuzz_attr_generate(struct fuzz_rng *r, const struct fuzz_env *env,
			struct fuzz_op *op);
extern volatile unsigned long fuzz_bp_target;
void fuzz_bp_function(void);

/* fuzz_ops.c */
void fuzz_worker_init(struct fuzz_worker *w);
void fuzz_worker_finish(struct fuzz_worker *w);
void fuzz_op_generate(struct fuzz_worker *w, struct fuzz_op *op);
int fuzz_op_format(const struct fuzz_op *op, char *buf, size_t size);
int fuzz_op_parse(const char *line, struct fuzz_op *op);
/* Returns 0, or -1 when an oracle failed (already reported). */
int fuzz_op_run(struct fuzz_worker *w, const struct fuzz_op *op);
const char *fuzz_call_name(enum fuzz_call c);
int fuzz_record(struct fuzz_worker *w, enum fuzz_call c, long ret,
		const struct fuzz_op *op);
void fuzz_slot_put(struct fuzz_worker *w, int slot, int fd, uint32_t type,
		   uint64_t read_format);
void fuzz_work(long what, long amount);
void fuzz_count_signal(int sig);

/* fuzz_storm.c */
void fuzz_group_generate(struct fuzz_worker *w, struct fuzz_op *op);
void fuzz_storm_generate(struct fuzz_worker *w, struct fuzz_op *op);
int fuzz_group_run(struct fuzz_worker *w, const struct fuzz_op *op);
int fuzz_storm_run(struct fuzz_worker *w, const struct fuzz_op *op);
int fuzz_storm_poll(struct fuzz_worker *w);
void fuzz_storm_finish(struct fuzz_worker *w);
int fuzz_storm_exec_main(int argc, char **argv);

/* fuzz_main.c: seconds on CLOCK_MONOTONIC */
double fuzz_now(void);

#endif /* FUZZ_H */
