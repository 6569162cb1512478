// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: the supervisor.  A run is a sequence of rounds; round R uses
 * seed fuzz_mix(SEED, R) and forks WORKERS worker processes (worker W seeds
 * its generator with fuzz_mix(round seed, W)), each in its own process
 * group, logging every operation to DIR/fuzz-wW.log before running it.
 * Worker 0 may also take CPUs offline and online; worker 1 drops to nobody
 * when there are two or more workers; perf_event_paranoid cycles per round.
 *
 * The supervisor is a child subreaper: when a round ends it kills every
 * process group and waits for every descendant.  One that does not go away
 * within the grace period is stuck in the kernel: reported as HUNG (with
 * its kernel stack when /proc has it, and a sysrq-w dump) and the run ends.
 *
 *   perf_fuzz [-s SEED] [-t SECONDS] [-r ROUND_SECONDS] [-w WORKERS]
 *             [-n OPS_PER_WORKER] [-k ROUNDS] [-g GRACE] [-d LOGDIR]
 *             [-x function,tracepoint,breakpoint]   (leave those out)
 *   perf_fuzz -R LOG             replay one worker's log in this process
 *   perf_fuzz -M LOG [-T SECS]   minimise LOG to the ops that still fail
 *   perf_fuzz --storm-exec ...   what a storm task execs (fuzz_storm.c)
 *
 * Output lines start with "fuzz: "; the last is the summary.  Exit status:
 * 0 clean, 1 an oracle failed or a worker crashed, 2 a task hung.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <grp.h>

#include "fuzz.h"

struct fuzz_opts {
	uint64_t seed;
	long seconds, round_seconds, grace, ops, rounds;
	int workers;
	const char *logdir;
	const char *replay, *minimise;
	const char *exclude;
	long min_timeout;
};

/* Seconds on CLOCK_MONOTONIC (deadlines of rounds, workers and storms). */
double fuzz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz: ", stdout);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	/* best effort: a CPU that cannot go offline, a missing knob */
	if (write(fd, val, strlen(val)) < 0)
		errno = 0;
	close(fd);
}

static void all_cpus_online(const struct fuzz_env *env)
{
	char path[64];
	int cpu;

	for (cpu = 1; cpu < env->nr_cpus; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		write_file(path, "1");
	}
}

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		say("worker cannot drop privileges: %s\n", strerror(errno));
}

/* One worker's life: returns its exit status. */
static int worker_main(struct fuzz_worker *w, const struct fuzz_opts *o,
		       double deadline)
{
	struct fuzz_op op;
	char line[512];
	long i;
	int n, status = 0;

	fuzz_worker_init(w);
	for (i = 0; !o->ops || i < o->ops; i++) {
		if (!o->ops && fuzz_now() > deadline)
			break;
		fuzz_op_generate(w, &op);
		n = fuzz_op_format(&op, line, sizeof(line));
		if (w->log_fd >= 0 && write(w->log_fd, line, n) != n)
			w->log_fd = -1;
		if (fuzz_op_run(w, &op)) {
			__atomic_fetch_add(&w->stats->oracle_failures, 1, __ATOMIC_RELAXED);
			status = 3;
			break;
		}
	}
	fuzz_worker_finish(w);
	return status;
}

static pid_t start_worker(int id, uint64_t seed, const struct fuzz_opts *o,
			  const struct fuzz_env *env, struct fuzz_stats *stats,
			  double deadline)
{
	struct fuzz_worker w;
	char path[256];
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	setpgid(0, 0);
	memset(&w, 0, sizeof(w));
	w.id = id;
	w.env = env;
	w.stats = stats;
	w.privileged = geteuid() == 0;
	fuzz_rng_seed(&w.rng, seed);
	snprintf(path, sizeof(path), "%s/fuzz-w%d.log", o->logdir, id);
	w.log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (id == 2 && env->cgroup_fd >= 0) {
		char me[16];

		snprintf(me, sizeof(me), "%d", getpid());
		write_file(env->cgroup_procs, me);
	}
	if (id == 1 && o->workers > 1 && w.privileged) {
		drop_privileges();
		w.privileged = false;
	}
	_exit(worker_main(&w, o, deadline));
}

static void print_log_tail(const char *path, int lines)
{
	char buf[65536];
	int fd = open(path, O_RDONLY), i;
	ssize_t n;

	if (fd < 0)
		return;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (lseek(fd, 0, SEEK_END) > (off_t)sizeof(buf) - 1)
		n = pread(fd, buf, sizeof(buf) - 1, lseek(fd, 0, SEEK_END) - (sizeof(buf) - 1));
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (i = n - 1; i > 0 && lines > 0; i--)
		if (buf[i - 1] == '\n' && --lines == 0)
			break;
	say("last operations of %s:\n%s", path, buf + (i > 0 ? i : 0));
}

/*
 * Is @pid a child of the supervisor (a worker, or a descendant reparented
 * to this subreaper)?  @stat gets its /proc/PID/stat line, @state its state.
 */
static bool my_child(pid_t pid, char *stat, size_t size, char *state)
{
	char path[64], *rp;
	int fd, ppid = 0;
	ssize_t n;

	if (pid <= 0 || pid == getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, stat, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	stat[n] = '\0';
	rp = strrchr(stat, ')');
	*state = '?';
	return rp && sscanf(rp + 2, "%c %d", state, &ppid) == 2 && ppid == getpid();
}

/*
 * SIGKILL every child of the supervisor: what is left of storms (their
 * own process groups) once their worker is gone, stopped ones included.
 */
static void kill_orphans(void)
{
	struct dirent *de;
	char buf[1024], state;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d)))
		if (my_child(atoi(de->d_name), buf, sizeof(buf), &state) && state != 'Z')
			kill(atoi(de->d_name), SIGKILL);
	if (d)
		closedir(d);
}

/* Every descendant still there after the grace period: report and dump. */
static int report_hung(void)
{
	struct dirent *de;
	char path[128], buf[4096], state;
	int hung = 0, fd;
	DIR *d;

	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		pid_t pid = atoi(de->d_name);
		ssize_t n;

		if (!my_child(pid, buf, sizeof(buf), &state))
			continue;
		say("HUNG task %d state %c: %s\n", pid, state, buf);
		hung++;
		snprintf(path, sizeof(path), "/proc/%d/stack", pid);
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			if (n > 0) {
				buf[n] = '\0';
				say("kernel stack of %d:\n%s", pid, buf);
			}
			close(fd);
		}
	}
	if (d)
		closedir(d);
	if (hung)
		write_file("/proc/sysrq-trigger", "w");
	return hung;
}

/* Kill what is left of a round and wait for all of it; false: hung. */
static bool end_round(pid_t *pids, int n, long grace)
{
	double limit = fuzz_now() + grace;
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(-pids[i], SIGKILL);
	for (;;) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			return true;
		if (pid > 0)
			continue;
		if (fuzz_now() > limit)
			return false;
		for (i = 0; i < n; i++)	/* forks racing with the kill */
			if (pids[i] > 0)
				kill(-pids[i], SIGKILL);
		kill_orphans();
		usleep(50000);
	}
}

struct run_result {
	int failures, hung, rounds;
};

static void run_round(int round, const struct fuzz_opts *o,
		      const struct fuzz_env *env, struct fuzz_stats *stats,
		      struct run_result *res)
{
	static const char *const paranoid[] = { "2", "1", "-1", "0" };
	uint64_t rseed = fuzz_mix(o->seed, round);
	double deadline = fuzz_now() + o->round_seconds;
	pid_t pids[64];
	int i, reaped = 0, status;
	bool bad = false;

	say("round %d seed %#llx\n", round, (unsigned long long)rseed);
	if (geteuid() == 0)
		write_file("/proc/sys/kernel/perf_event_paranoid", paranoid[round % 4]);
	for (i = 0; i < o->workers; i++)
		pids[i] = start_worker(i, fuzz_mix(rseed, i), o, env, stats, deadline);

	/* Workers stop by themselves at the deadline (or after -n ops). */
	while (reaped < o->workers) {
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid <= 0) {
			if (fuzz_now() > deadline + o->grace)
				break;
			usleep(20000);
			continue;
		}
		for (i = 0; i < o->workers; i++) {
			char path[256];

			if (pids[i] != pid)
				continue;
			reaped++;
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				break;
			snprintf(path, sizeof(path), "%s/fuzz-w%d.log", o->logdir, i);
			if (WIFSIGNALED(status))
				say("FAIL round %d seed %#llx: worker %d killed by signal %d\n",
				    round, (unsigned long long)rseed, i, WTERMSIG(status));
			else
				say("FAIL round %d seed %#llx: worker %d exit status %d (oracle)\n",
				    round, (unsigned long long)rseed, i, WEXITSTATUS(status));
			print_log_tail(path, 12);
			bad = true;
		}
	}
	if (reaped < o->workers)
		say("round %d: %d worker(s) still running %lds after the deadline\n",
		    round, o->workers - reaped, o->grace);
	if (!end_round(pids, o->workers, o->grace)) {
		say("FAIL round %d seed %#llx: tasks still there %lds after SIGKILL\n",
		    round, (unsigned long long)rseed, o->grace);
		report_hung();
		res->hung++;
		for (i = 0; i < o->workers; i++) {
			char path[256];

			snprintf(path, sizeof(path), "%s/fuzz-w%d.log", o->logdir, i);
			print_log_tail(path, 8);
		}
	}
	all_cpus_online(env);
	res->failures += bad;
	res->rounds++;
}

static void summary(const struct fuzz_opts *o, const struct fuzz_stats *st,
		    const struct run_result *res, double secs)
{
	int c, e, calls = 0, outcomes = 0;
	char line[4096];
	int n;

	for (c = 0; c < FC_NR; c++) {
		calls += st->calls[c] != 0;
		n = snprintf(line, sizeof(line), "%-26s %9lu ", fuzz_call_name(c),
			     st->calls[c]);
		for (e = 0; e < FUZZ_ERRNO_MAX; e++) {
			if (!st->outcome[c][e])
				continue;
			outcomes++;
			n += snprintf(line + n, sizeof(line) - n, " %s",
				      e ? strerrorname_np(e) ? strerrorname_np(e) : "?" : "ok");
			if (n > (int)sizeof(line) - 32)
				break;
		}
		say("reached %s\n", line);
	}
	say("summary seed=%#llx rounds=%d workers=%d iterations=%lu syscalls=%d/%d "
	    "outcomes=%d oracle_failures=%lu failed_rounds=%d hung=%d seconds=%.0f "
	    "storms=%lu storm_tasks=%lu group_opens=%lu/%lu\n",
	    (unsigned long long)o->seed, res->rounds, o->workers, st->iterations,
	    calls, FC_NR, outcomes, st->oracle_failures, res->failures, res->hung,
	    secs, st->storms, st->storm_tasks, st->group_opens_ok, st->group_opens);
}

/* ------------------------------------------------ replay and minimise */

static int read_log(const char *path, char ***lines)
{
	char *buf = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f = fopen(path, "r");

	*lines = NULL;
	if (!f)
		return -1;
	while (getline(&buf, &cap, f) > 0) {
		*lines = realloc(*lines, (n + 1) * sizeof(char *));
		(*lines)[n++] = strdup(buf);
	}
	free(buf);
	fclose(f);
	return n;
}

static int replay_lines(char **lines, int n, struct fuzz_stats *stats,
			const struct fuzz_env *env)
{
	struct fuzz_worker w;
	struct fuzz_op op;
	int i, status = 0;

	memset(&w, 0, sizeof(w));
	w.env = env;
	w.stats = stats;
	w.privileged = geteuid() == 0;
	w.log_fd = -1;
	fuzz_worker_init(&w);
	for (i = 0; i < n; i++) {
		if (fuzz_op_parse(lines[i], &op))
			continue;
		if (fuzz_op_run(&w, &op)) {
			status = 3;
			break;
		}
	}
	fuzz_worker_finish(&w);
	return status;
}

static int count_splats(void)
{
	static const char *const marks[] = {
		"WARNING:", "BUG:", "Oops", "circular locking", "KASAN",
		"general protection", "Unable to handle",
	};
	int size = klogctl(10, NULL, 0), n, count = 0;
	unsigned int i;
	char *buf, *p;

	if (size <= 0)
		return 0;
	buf = malloc(size + 1);
	n = klogctl(3, buf, size);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (i = 0; i < ARRAY_SIZE(marks); i++)
		for (p = buf; (p = strstr(p, marks[i])); p++)
			count++;
	free(buf);
	return count;
}

enum verdict { V_PASS, V_ORACLE, V_HANG, V_SPLAT };

static enum verdict try_lines(char **lines, int n, struct fuzz_stats *stats,
			      const struct fuzz_env *env, long timeout)
{
	int before = count_splats(), status;
	double limit = fuzz_now() + timeout;
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		_exit(replay_lines(lines, n, stats, env));
	}
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (fuzz_now() > limit) {
			kill(-pid, SIGKILL);
			return V_HANG;
		}
		usleep(20000);
	}
	kill(-pid, SIGKILL);
	if (count_splats() > before)
		return V_SPLAT;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return V_ORACLE;
	return V_PASS;
}

/* Zeller's ddmin over the log's lines, for the failure the whole log shows. */
static int minimise(const struct fuzz_opts *o, struct fuzz_stats *stats,
		    const struct fuzz_env *env)
{
	char **lines, **cand, path[512];
	int n = read_log(o->minimise, &lines), chunks = 2, i, j, k;
	enum verdict want;
	FILE *f;

	if (n <= 0) {
		say("cannot read %s\n", o->minimise);
		return 1;
	}
	want = try_lines(lines, n, stats, env, o->min_timeout);
	say("minimise: %d operations, verdict %d\n", n, want);
	if (want == V_PASS)
		return 1;
	cand = malloc(n * sizeof(char *));
	while (n >= 2) {
		bool reduced = false;

		for (i = 0; i < chunks && !reduced; i++) {
			int lo = i * n / chunks, hi = (i + 1) * n / chunks;

			for (j = 0, k = 0; j < n; j++)
				if (j < lo || j >= hi)
					cand[k++] = lines[j];
			if (k && try_lines(cand, k, stats, env, o->min_timeout) == want) {
				memcpy(lines, cand, k * sizeof(char *));
				n = k;
				chunks = chunks > 2 ? chunks - 1 : 2;
				reduced = true;
			}
		}
		if (!reduced) {
			if (chunks >= n)
				break;
			chunks = chunks * 2 < n ? chunks * 2 : n;
		}
		say("minimise: %d operations left\n", n);
	}
	snprintf(path, sizeof(path), "%s.min", o->minimise);
	f = fopen(path, "w");
	for (i = 0; f && i < n; i++)
		fputs(lines[i], f);
	if (f)
		fclose(f);
	say("minimised to %d operations: %s\n", n, path);
	for (i = 0; i < n; i++)
		fputs(lines[i], stdout);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: perf_fuzz [-s seed] [-t seconds] [-r round_seconds] [-w workers]\n"
		"                 [-n ops_per_worker] [-k rounds] [-g grace] [-d logdir]\n"
		"                 [-x function,tracepoint,breakpoint]\n"
		"       perf_fuzz -R log | -M log [-T seconds]\n");
	exit(64);
}

int main(int argc, char **argv)
{
	struct fuzz_opts o = {
		.seed = (uint64_t)time(NULL), .seconds = 60, .round_seconds = 10,
		.grace = 120, .workers = 3, .logdir = "/tmp", .min_timeout = 30,
	};
	struct run_result res = { 0 };
	struct fuzz_stats *stats;
	struct fuzz_env env;
	double start = fuzz_now();
	char paranoid[16] = "2";
	int opt, round, fd;

	if (argc > 1 && !strcmp(argv[1], FUZZ_STORM_EXEC))
		return fuzz_storm_exec_main(argc, argv);
	while ((opt = getopt(argc, argv, "s:t:r:w:n:k:g:d:R:M:T:x:")) != -1) {
		switch (opt) {
		case 's':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			o.seconds = atol(optarg);
			break;
		case 'r':
			o.round_seconds = atol(optarg);
			break;
		case 'w':
			o.workers = atoi(optarg);
			break;
		case 'n':
			o.ops = atol(optarg);
			break;
		case 'k':
			o.rounds = atol(optarg);
			break;
		case 'g':
			o.grace = atol(optarg);
			break;
		case 'd':
			o.logdir = optarg;
			break;
		case 'R':
			o.replay = optarg;
			break;
		case 'M':
			o.minimise = optarg;
			break;
		case 'x':
			o.exclude = optarg;
			break;
		case 'T':
			o.min_timeout = atol(optarg);
			break;
		default:
			usage();
		}
	}
	if (o.workers < 1 || o.workers > 64 || o.round_seconds < 1)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, paranoid, sizeof(paranoid) - 1);

		paranoid[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	fuzz_env_discover(&env, geteuid() == 0 && !o.replay && !o.minimise);
	/* -x function,breakpoint,tracepoint: leave event kinds out (bisecting) */
	if (o.exclude && strstr(o.exclude, "function"))
		env.function_tp = -1;
	if (o.exclude && strstr(o.exclude, "tracepoint")) {
		env.nr_tp = 0;
		env.nr_life_tp = 0;
		env.signal_tp = -1;
	}
	if (o.exclude && strstr(o.exclude, "breakpoint"))
		env.no_breakpoints = true;
	say("start seed=%#llx workers=%d cpus=%d pmus=%d aux_pmus=%d tracepoints=%d "
	    "function=%d cgroup=%s\n",
	    (unsigned long long)o.seed, o.workers, env.nr_cpus, env.nr_pmus,
	    (env.aux_type >= 0) + (env.aux2_type >= 0), env.nr_tp, env.function_tp,
	    env.cgroup_fd >= 0 ? "yes" : "no");

	if (o.replay) {
		char **lines;
		int n = read_log(o.replay, &lines), status;

		if (n < 0)
			usage();
		status = replay_lines(lines, n, stats, &env);
		end_round(NULL, 0, o.grace);
		say("replayed %d operations: %s\n", n, status ? "oracle failed" : "ok");
		return status ? 1 : 0;
	}
	if (o.minimise)
		return minimise(&o, stats, &env);

	for (round = 0; !o.rounds || round < o.rounds; round++) {
		if (!o.rounds && fuzz_now() - start >= o.seconds)
			break;
		run_round(round, &o, &env, stats, &res);
		if (res.hung)
			break;
	}
	if (geteuid() == 0)
		write_file("/proc/sys/kernel/perf_event_paranoid", paranoid);
	fuzz_env_release(&env);
	summary(&o, stats, &res, fuzz_now() - start);
	return res.hung ? 2 : res.failures ? 1 : 0;
}
