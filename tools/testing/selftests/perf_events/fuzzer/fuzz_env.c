// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: what the guest offers, discovered once by the supervisor before
 * the workers fork: CPUs, dynamic PMU types from sysfs (and, by name, the
 * testbed's AUX PMUs perfev_aux and perfev_aux2, the test PMU perfev_test
 * and whether a hardware PMU is there, however many PMUs there are),
 * tracepoint ids from tracefs (by name too: the ones of a task's life, for
 * storms), the file offsets of the fuzzer's own
 * text (for address filters on it), and (as root) a perf_event cgroup v1
 * hierarchy with one child group for PERF_FLAG_PID_CGROUP, removed again by
 * fuzz_env_release().
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "fuzz.h"

#define FUZZ_CG_ROOT	"/tmp/perf_fuzz_cgroup"
#define FUZZ_CG_CHILD	FUZZ_CG_ROOT "/fuzz"

static int read_int_file(const char *path)
{
	char buf[32];
	int fd, n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

static void discover_pmus(struct fuzz_env *env)
{
	const char *dir = "/sys/bus/event_source/devices";
	struct dirent *de;
	char path[512];
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && env->nr_pmus < FUZZ_MAX_PMU) {
		struct fuzz_pmu *p = &env->pmus[env->nr_pmus];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, de->d_name);
		p->type = read_int_file(path);
		if (p->type < 0)
			continue;
		snprintf(p->name, sizeof(p->name), "%.47s", de->d_name);
		env->nr_pmus++;
	}
	closedir(d);
}

static void discover_aux_pmus(struct fuzz_env *env)
{
	env->aux_type = read_int_file("/sys/bus/event_source/devices/perfev_aux/type");
	env->aux2_type = read_int_file("/sys/bus/event_source/devices/perfev_aux2/type");
	env->test_type = read_int_file("/sys/bus/event_source/devices/perfev_test/type");
	env->has_hw = !access("/sys/bus/event_source/devices/cpu", F_OK);
}

/* The tracepoints a task's life fires (fork, exec, exit, switch, signals). */
static void discover_life_tracepoints(struct fuzz_env *env, const char *root)
{
	static const char *const names[FUZZ_LIFE_TP] = {
		"sched/sched_process_fork", "sched/sched_process_exec",
		"sched/sched_process_exit", "sched/sched_switch",
		"task/task_newtask", "sched/sched_process_free",
		"signal/signal_generate", "sched/sched_wakeup_new",
	};
	char path[512];
	unsigned int i;
	int id;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s/id", root, names[i]);
		id = read_int_file(path);
		if (id >= 0)
			env->life_tp[env->nr_life_tp++] = id;
		if (id >= 0 && !strcmp(names[i], "signal/signal_generate"))
			env->signal_tp = id;
	}
}

enum fuzz_aux_pmu fuzz_env_aux_pmu(const struct fuzz_env *env, uint32_t type)
{
	if (env->aux_type >= 0 && type == (uint32_t)env->aux_type)
		return FUZZ_AUX;
	if (env->aux2_type >= 0 && type == (uint32_t)env->aux2_type)
		return FUZZ_AUX2;
	return FUZZ_NO_AUX;
}

/* The mapping of the fuzzer's text (the one with fuzz_bp_function()). */
static void discover_exe(struct fuzz_env *env)
{
	unsigned long fn = (unsigned long)fuzz_bp_function, lo, hi, off;
	char line[512], path[256];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s", &lo, &hi, &off, path) < 3 ||
		    fn < lo || fn >= hi)
			continue;
		env->exe_text_off = off;
		env->exe_text_len = hi - lo;
		env->exe_fn_off = fn - lo + off;
		if (path[0] == '/' && strlen(path) < sizeof(env->exe_path))
			memcpy(env->exe_path, path, strlen(path) + 1);
		break;
	}
	fclose(f);
}

static void discover_tracepoints(struct fuzz_env *env)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	struct dirent *sys, *ev;
	char path[768];
	unsigned int i;
	DIR *d, *s;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		d = opendir(roots[i]);
		if (d)
			break;
	}
	if (!d)
		return;
	snprintf(path, sizeof(path), "%s/ftrace/function/id", roots[i]);
	env->function_tp = read_int_file(path);
	discover_life_tracepoints(env, roots[i]);
	while ((sys = readdir(d)) && env->nr_tp < FUZZ_MAX_TP) {
		/* ftrace's function event is function_tp's (perf_fuzz -x function) */
		if (sys->d_name[0] == '.' || !strcmp(sys->d_name, "ftrace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", roots[i], sys->d_name);
		s = opendir(path);
		if (!s)
			continue;
		while ((ev = readdir(s)) && env->nr_tp < FUZZ_MAX_TP) {
			int id;

			if (ev->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s/id", roots[i],
				 sys->d_name, ev->d_name);
			id = read_int_file(path);
			if (id >= 0)
				env->tp_ids[env->nr_tp++] = id;
		}
		closedir(s);
	}
	closedir(d);
}

static void setup_cgroup(struct fuzz_env *env)
{
	mkdir(FUZZ_CG_ROOT, 0755);
	if (mount("cgroup", FUZZ_CG_ROOT, "cgroup", 0, "perf_event") &&
	    access(FUZZ_CG_ROOT "/cgroup.procs", F_OK))
		return;
	mkdir(FUZZ_CG_CHILD, 0755);
	env->cgroup_fd = open(FUZZ_CG_CHILD, O_RDONLY | O_DIRECTORY);
	if (env->cgroup_fd >= 0)
		snprintf(env->cgroup_procs, sizeof(env->cgroup_procs), "%s",
			 FUZZ_CG_CHILD "/cgroup.procs");
}

void fuzz_env_discover(struct fuzz_env *env, bool want_cgroup)
{
	memset(env, 0, sizeof(*env));
	env->function_tp = -1;
	env->signal_tp = -1;
	env->cgroup_fd = -1;
	env->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (env->nr_cpus < 1)
		env->nr_cpus = 1;
	discover_pmus(env);
	discover_aux_pmus(env);
	discover_exe(env);
	discover_tracepoints(env);
	if (want_cgroup)
		setup_cgroup(env);
}

void fuzz_env_release(struct fuzz_env *env)
{
	if (env->cgroup_fd < 0)
		return;
	close(env->cgroup_fd);
	env->cgroup_fd = -1;
	rmdir(FUZZ_CG_CHILD);
	umount2(FUZZ_CG_ROOT, MNT_DETACH);
	rmdir(FUZZ_CG_ROOT);
}
