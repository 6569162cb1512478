// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) and the event file (read, release, fasync; poll and
 * mmap are ring_buffer.c's).
 *
 * Owns: the argument, permission and group checks of the system call (with
 * the errno values of Linux 6.1), creating the event file, installing the
 * event in its context and recording the opener as its owner; the read()
 * format (perf_read_values()) and the wakeup of pollers and fasync
 * (perf_event_wakeup()).
 *
 * PMUs with PERF_PMU_CAP_EXCLUSIVE get no special treatment (none in our
 * configs).
 *
 * Locking: the open allocates the event first (a PMU's event_init may take
 * locks of its own, even the target's exec_update_lock), then takes the
 * target's exec_update_lock (read) around the permission check and the
 * install, then the context's ctx->mutex for the group checks and the
 * install; the opener's perf_event_mutex is taken alone afterwards to link
 * the event on its owner's list.  read() runs under perf_event_ctx_lock(),
 * but for an event alone that counts on the reader's CPU (no mutex:
 * perf_event_read_value_here()).
 * perf_event_wakeup() takes no sleeping lock.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>

#include "internal.h"

#define PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/* ---- read ---------------------------------------------------------------- */

/* The whole of a read() without PERF_FORMAT_GROUP: value, times, id, lost. */
#define PERF_READ_ONE_WORDS	5

static ssize_t perf_read_one(struct perf_event *event, char __user *buf, size_t size,
			     bool locked)
{
	u64 read_format = event->attr.read_format;
	u64 values[PERF_READ_ONE_WORDS], *p = values;
	u64 enabled, running;

	if (locked)
		values[0] = perf_event_read_value_locked(event, &enabled, &running);
	else if (!perf_event_read_value_here(event, values, &enabled, &running))
		return -EAGAIN;
	p++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*p++ = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*p++ = running;
	perf_put_id_lost(p, event, read_format);
	return copy_to_user(buf, values, size) ? -EFAULT : size;
}

/*
 * Reads of a group up to this many u64s (the record, and the members'
 * values apart when ids or lost counts come between them) need no
 * allocation.
 */
#define PERF_READ_ONSTACK	16

/* { nr, times, { value, id, lost } * nr }, the group read at one instant. */
static ssize_t perf_read_group(struct perf_event *event, char __user *buf, size_t size,
			       int nr)
{
	u64 read_format = event->attr.read_format;
	struct perf_event *leader = event->group_leader;
	bool apart = read_format & (PERF_FORMAT_ID | PERF_FORMAT_LOST);
	size_t words = size / sizeof(u64) + (apart ? nr : 0);
	u64 onstack[PERF_READ_ONSTACK];
	struct perf_event *sibling;
	u64 *values = onstack, *member, *p;
	u64 enabled, running;
	ssize_t ret;
	int i = 0;

	if (words > PERF_READ_ONSTACK) {
		values = kmalloc_array(words, sizeof(u64), GFP_KERNEL);
		if (!values)
			return -ENOMEM;
	}
	p = values + 1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		p++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		p++;
	/* the values go in place unless ids or lost counts come between them */
	member = apart ? values + size / sizeof(u64) : p;

	perf_group_read_values(leader, member, &enabled, &running);
	values[0] = nr;
	p = values + 1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*p++ = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*p++ = running;
	if (apart) {
		*p++ = member[i++];
		p = perf_put_id_lost(p, leader, read_format);
		for_each_sibling_event(sibling, leader) {
			*p++ = member[i++];
			p = perf_put_id_lost(p, sibling, read_format);
		}
	}

	ret = copy_to_user(buf, values, size) ? -EFAULT : size;
	if (values != onstack)
		kfree(values);
	return ret;
}

ssize_t perf_read_values(struct perf_event *event, char __user *buf, size_t count)
{
	u64 read_format = event->attr.read_format;
	int nr = 1;
	size_t size;

	if (read_format & PERF_FORMAT_GROUP)
		nr += event->group_leader->nr_siblings;
	size = perf_read_size(read_format, nr);
	if (count < size)
		return -ENOSPC;
	if (event->state == PERF_EVENT_STATE_ERROR)
		return 0;
	if (read_format & PERF_FORMAT_GROUP)
		return perf_read_group(event, buf, size, nr);
	return perf_read_one(event, buf, size, true);
}

/*
 * Whether the group record of @event would fit in @words u64s, as the group
 * is now (a hint for the unlocked read; events are freed after an RCU grace
 * period, so the leader loaded stays readable).
 */
static bool perf_group_record_fits(struct perf_event *event, int words)
{
	struct perf_event *leader;
	int nr;

	rcu_read_lock();
	leader = READ_ONCE(event->group_leader);
	nr = READ_ONCE(leader->nr_siblings) + 1;
	rcu_read_unlock();
	return perf_read_size(event->attr.read_format, nr) <= words * sizeof(u64);
}

/*
 * The group record of @event without the mutex, when its group counts on
 * this CPU (perf_group_read_record_here()); -EAGAIN when it does not.  Out
 * of line: its buffer is not set up for the reads that never come here.
 */
static noinline ssize_t perf_read_group_here(struct perf_event *event, char __user *buf,
					     size_t count)
{
	u64 rec[PERF_READ_ONSTACK];
	size_t size = perf_group_read_record_here(event, rec, PERF_READ_ONSTACK) * sizeof(u64);

	if (!size)
		return -EAGAIN;
	if (count < size)
		return -ENOSPC;
	return copy_to_user(buf, rec, size) ? -EFAULT : size;
}

static ssize_t perf_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *ctx;
	ssize_t ret;

	ret = security_perf_event_read(event);
	if (ret)
		return ret;

	/* an event or group counting here: no mutex (event_read.c, *_here()) */
	if (!(event->attr.read_format & PERF_FORMAT_GROUP)) {
		size_t size = perf_read_size(event->attr.read_format, 1);

		if (count < size)
			return -ENOSPC;
		ret = perf_read_one(event, buf, size, false);
		if (ret != -EAGAIN)
			return ret;
	} else if (perf_group_record_fits(event, PERF_READ_ONSTACK)) {
		ret = perf_read_group_here(event, buf, count);
		if (ret != -EAGAIN)
			return ret;
	}
	ctx = perf_event_ctx_lock(event);
	ret = perf_read_values(event, buf, count);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}

/* ---- wakeup, fasync, release (poll and mmap: ring_buffer.c) ------------- */

void perf_event_wakeup(struct perf_event *event)
{
	/* pollers and fasync owners wait on the event of the file */
	struct perf_event *target = event->parent ? event->parent : event;

	wake_up_all(&target->waitq);
	/* and those of the events that SET_OUTPUT into the same buffer */
	perf_rb_wakeup(event);
	/*
	 * SIGIO only when an overflow asked for one (POLL_IN, or POLL_HUP
	 * when an event_limit ran out); a plain wakeup (exit) sends none.
	 */
	if (event->pending_kill) {
		kill_fasync(&target->fasync, SIGIO, event->pending_kill);
		event->pending_kill = 0;
	}
}

static int perf_fasync(int fd, struct file *file, int on)
{
	struct perf_event *event = file->private_data;
	struct inode *inode = file_inode(file);
	int ret;

	inode_lock(inode);
	ret = fasync_helper(fd, file, on, &event->fasync);
	inode_unlock(inode);
	return ret < 0 ? ret : 0;
}

static int perf_release(struct inode *inode, struct file *file)
{
	struct perf_event *event = file->private_data;

	/* NULL when the open failed after the file was made */
	if (event)
		perf_event_release(event);
	return 0;
}

const struct file_operations perf_fops = {
	.llseek			= no_llseek,
	.release		= perf_release,
	.read			= perf_read,
	.poll			= perf_poll,
	.unlocked_ioctl		= perf_ioctl,
	.compat_ioctl		= perf_compat_ioctl,
	.mmap			= perf_mmap,
	.fasync			= perf_fasync,
};

/* ---- perf_event_open(2) ---------------------------------------------------- */

/* The checks of the attr that 6.1 makes in the system call itself. */
static int perf_open_check_attr(struct perf_event_attr *attr)
{
	int err;

	/*
	 * Debian: perf_event_paranoid above 2 closes the syscall to all but
	 * CAP_SYS_ADMIN (CAP_PERFMON is not enough there).
	 */
	if (perf_paranoid_any() && !capable(CAP_SYS_ADMIN))
		return -EACCES;

	if (!attr->exclude_kernel) {
		err = perf_allow_kernel(attr);
		if (err)
			return err;
	}
	/* records that disclose kernel data */
	if (attr->text_poke) {
		err = perf_allow_kernel(attr);
		if (err)
			return err;
	}
	if (attr->namespaces && !perfmon_capable())
		return -EACCES;

	if (attr->freq) {
		if (attr->sample_freq > sysctl_perf_event_sample_rate)
			return -EINVAL;
	} else if (attr->sample_period & (1ULL << 63)) {
		return -EINVAL;
	}

	/* physical addresses are for those who may see the kernel */
	if (attr->sample_type & PERF_SAMPLE_PHYS_ADDR) {
		err = perf_allow_kernel(attr);
		if (err)
			return err;
	}
	/* interrupted registers may hold kernel data: a lockdown matter */
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
		err = security_locked_down(LOCKDOWN_PERF);
		if (err)
			return err;
	}

	return 0;
}

/*
 * PERF_FLAG_PID_CGROUP: @pid is an fd of a cgroup directory and @cpu a CPU.
 * The fd is checked here, before anything is allocated; perf_event_alloc()
 * attaches the event to the cgroup (cgroup.c).
 */
static int perf_open_cgroup(int cgroup_fd, int cpu)
{
#ifdef CONFIG_CGROUP_PERF
	struct cgroup *cgrp;

	if (cgroup_fd == -1 || cpu == -1)
		return -EINVAL;
	cgrp = cgroup_v1v2_get_from_fd(cgroup_fd);
	if (IS_ERR(cgrp))
		return PTR_ERR(cgrp);
	cgroup_put(cgrp);
	return 0;
#else
	return -EINVAL;
#endif
}

/*
 * May current observe @task?  CAP_PERFMON, or ptrace read access; sigtrap
 * sends signals to @task, so without CAP_KILL over it that needs ptrace
 * attach access unless it is our own process.
 */
static bool perf_open_task_allowed(struct perf_event_attr *attr, struct task_struct *task)
{
	unsigned int mode = PTRACE_MODE_READ_REALCREDS;
	bool capable = perfmon_capable();

	if (attr->sigtrap) {
		rcu_read_lock();
		capable = capable && ns_capable(__task_cred(task)->user_ns, CAP_KILL);
		rcu_read_unlock();
		if (!capable && !same_thread_group(current, task))
			mode = PTRACE_MODE_ATTACH_REALCREDS;
	}
	return capable || ptrace_may_access(task, mode);
}

/*
 * Where the event may go, once its PMU is known.  Every CPU-wide event,
 * a cgroup event too, watches every task of its CPU: that is the
 * CPU-event permission (perf_event_paranoid, CAP_PERFMON, the LSM hook).
 * A PMU without task contexts (uncore-style) takes CPU events only, and
 * no cgroup events either: its CPU is not where the cgroup's tasks run.
 */
static int perf_open_check_target(struct perf_event *event, struct task_struct *task)
{
	if (event->pmu->task_ctx_nr == perf_invalid_context &&
	    (task || perf_event_is_cgroup(event)))
		return -EINVAL;
	if (!task)
		return perf_allow_cpu(&event->attr);
	return 0;
}

static bool perf_same_clock(struct perf_event_attr *a, struct perf_event_attr *b)
{
	if (a->use_clockid != b->use_clockid)
		return false;
	return !a->use_clockid || a->clockid == b->clockid;
}

/*
 * May @event join the group of @leader in @ctx?  ctx->mutex held.  A
 * software event joins any group; a hardware event joins a group of its
 * own PMU or an all-software group (which is then scheduled with it).
 */
static int perf_open_check_group(struct perf_event *event, struct perf_event *leader,
				 struct perf_event_context *ctx)
{
	if (!perf_event_is_leader(leader))
		return -EINVAL;
	if (READ_ONCE(leader->ctx) != ctx || !(leader->attach_state & PERF_ATTACH_CONTEXT))
		return -EINVAL;
	if (leader->cpu != event->cpu)
		return -EINVAL;
	if (event->attr.pinned || event->attr.exclusive)
		return -EINVAL;
	if (!perf_same_clock(&leader->attr, &event->attr))
		return -EINVAL;
	if (ctx->task && leader->attr.inherit != event->attr.inherit)
		return -EINVAL;
	if (!is_software_event(event) && !(leader->group_caps & PERF_EV_CAP_SOFTWARE) &&
	    (!leader->ctx_pmu || leader->ctx_pmu->pmu != event->pmu))
		return -EINVAL;
	return 0;
}

/* The group members' record and read sizes after a change (ctx->mutex). */
static void perf_group_update_sizes(struct perf_event *leader)
{
	struct perf_event *sibling;

	perf_event__header_size(leader);
	for_each_sibling_event(sibling, leader)
		perf_event__header_size(sibling);
}

/* What perf_event_open(2) gathers before it allocates the event. */
struct perf_open_req {
	struct perf_event_attr	attr;
	struct fd		group;		/* group_fd, if any */
	struct perf_event	*group_leader;	/* NULL: a group of its own */
	struct perf_event	*output_event;	/* PERF_FLAG_FD_OUTPUT */
	struct task_struct	*task;		/* with a reference, or NULL */
	int			cpu;
	int			cgroup_fd;	/* -1: not a cgroup event */
	int			f_flags;
};

/* Step 1: flags, the attr and its checks, and the cgroup form of @pid. */
static int perf_open_parse(struct perf_open_req *req, struct perf_event_attr __user *uattr,
			   pid_t *pid, unsigned long flags)
{
	int err;

	if (flags & ~PERF_FLAG_ALL)
		return -EINVAL;
	err = perf_copy_attr(uattr, &req->attr);
	if (err)
		return err;
	err = security_perf_event_open(&req->attr, PERF_SECURITY_OPEN);
	if (err)
		return err;
	err = perf_open_check_attr(&req->attr);
	if (err)
		return err;

	req->cgroup_fd = -1;
	if (flags & PERF_FLAG_PID_CGROUP) {
		err = perf_open_cgroup(*pid, req->cpu);
		if (err)
			return err;
		req->cgroup_fd = *pid;
		*pid = -1;
	}
	req->f_flags = O_RDWR | ((flags & PERF_FLAG_FD_CLOEXEC) ? O_CLOEXEC : 0);
	return 0;
}

/* Step 2: the group leader and output event named by @group_fd. */
static int perf_open_group(struct perf_open_req *req, int group_fd, unsigned long flags)
{
	if (group_fd == -1)
		return 0;
	req->group = fdget(group_fd);
	req->group_leader = perf_file_event(req->group.file);
	if (!req->group_leader)
		return -EBADF;
	if (flags & PERF_FLAG_FD_OUTPUT)
		req->output_event = req->group_leader;
	if (flags & PERF_FLAG_FD_NO_GROUP)
		req->group_leader = NULL;
	return 0;
}

/* Step 3: the target task (a reference) and the rules on task and CPU. */
static int perf_open_target(struct perf_open_req *req, pid_t pid)
{
	int cpu = req->cpu;

	if (pid == 0) {
		req->task = get_task_struct(current);
	} else if (pid != -1) {
		req->task = find_get_task_by_vpid(pid);
		if (!req->task)
			return -ESRCH;
	}
	/* a CPU, or -1 with a task */
	if (cpu < -1 || (cpu >= 0 && cpu >= nr_cpu_ids) || (cpu == -1 && !req->task))
		return -EINVAL;
	if (req->attr.sigtrap && !req->task)
		return -EINVAL;
	if (req->group_leader && req->task &&
	    req->group_leader->attr.inherit != req->attr.inherit)
		return -EINVAL;
	return 0;
}

/* Step 4: what only the allocated event tells (its PMU, its caps). */
static int perf_open_check_event(struct perf_open_req *req, struct perf_event *event)
{
	if (!req->group_leader && (event->event_caps & PERF_EV_CAP_SIBLING))
		return -EINVAL;
	/* aux_output / aux_sample_size: a link to the AUX group leader */
	return perf_aux_link(event, req->group_leader);
}

/* Step 6: into the context, under its mutex; nothing is undone after this. */
static int perf_open_install(struct perf_open_req *req, struct perf_event *event,
			     struct perf_event_context *ctx)
{
	int err;

	lockdep_assert_held(&ctx->mutex);
	if (ctx->task == TASK_TOMBSTONE)
		return -ESRCH;
	if (!req->task && !per_cpu(perf_cpu_ctx, event->cpu).online)
		return -ENODEV;
	if (req->group_leader) {
		err = perf_open_check_group(event, req->group_leader, ctx);
		if (err)
			return err;
	}
	/* an event of its own always fits: its sizes are those of its alloc */
	if (req->group_leader && !perf_event_validate_size(event))
		return -E2BIG;
	err = perf_install_in_context(ctx, event, event->cpu);
	if (err)
		return err;
	if (req->group_leader)
		perf_group_update_sizes(event->group_leader);
	return 0;
}

/* The opener owns the event: prctl(PR_TASK_PERF_EVENTS_*) reaches it. */
static void perf_event_set_owner(struct perf_event *event)
{
	event->owner = current;
	mutex_lock(&current->perf_event_mutex);
	list_add_tail(&event->owner_entry, &current->perf_event_list);
	mutex_unlock(&current->perf_event_mutex);
}

SYSCALL_DEFINE5(perf_event_open, struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_open_req req = { .cpu = cpu };
	struct perf_event_context *ctx;
	struct task_struct *task;
	struct perf_event *event;
	struct file *event_file;
	bool exec_locked = false;
	int event_fd;
	int err;

	err = perf_open_parse(&req, attr_uptr, &pid, flags);
	if (err)
		return err;
	event_fd = get_unused_fd_flags(req.f_flags);
	if (event_fd < 0)
		return event_fd;
	err = perf_open_group(&req, group_fd, flags);
	if (err)
		goto err_group;
	err = perf_open_target(&req, pid);
	task = req.task;
	if (err)
		goto err_task;

	/* Step 5: the event, then the checks that need its PMU */
	event = perf_event_alloc(&req.attr, cpu, task, req.group_leader, NULL, NULL, NULL,
				 req.cgroup_fd);
	if (IS_ERR(event)) {
		err = PTR_ERR(event);
		goto err_task;
	}
	err = perf_open_check_event(&req, event);
	if (err)
		goto err_event;
	/*
	 * After the allocation, as in 6.1: a PMU's event_init may itself take
	 * the target's exec_update_lock (a uprobe on /proc/self/exe).
	 */
	if (task) {
		err = down_read_interruptible(&task->signal->exec_update_lock);
		if (err)
			goto err_event;
		exec_locked = true;
		if (!perf_open_task_allowed(&req.attr, task)) {
			err = -EACCES;
			goto err_event;
		}
	}
	err = perf_open_check_target(event, task);
	if (err)
		goto err_event;

	ctx = perf_find_get_context(task, event->cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto err_event;
	}
	if (req.output_event) {
		err = perf_event_set_output(event, req.output_event);
		if (err)
			goto err_unhold;
	}
	event_file = anon_inode_getfile("[perf_event]", &perf_fops, event, req.f_flags);
	if (IS_ERR(event_file)) {
		err = PTR_ERR(event_file);
		goto err_unhold;
	}

	mutex_lock(&ctx->mutex);
	err = perf_open_install(&req, event, ctx);
	mutex_unlock(&ctx->mutex);
	if (task)
		perf_task_ctx_unhold(ctx);
	if (err) {
		/* the file never owned the event: its release must not see it */
		event_file->private_data = NULL;
		fput(event_file);
		goto err_ctx;
	}

	if (exec_locked)
		up_read(&task->signal->exec_update_lock);
	if (task)
		put_task_struct(task);
	perf_event_set_owner(event);
	fdput(req.group);
	fd_install(event_fd, event_file);
	return event_fd;

err_unhold:
	if (task)
		perf_task_ctx_unhold(ctx);
err_ctx:
	perf_ctx_put(ctx);
err_event:
	perf_free_event(event);
	if (exec_locked)
		up_read(&task->signal->exec_update_lock);
err_task:
	if (task)
		put_task_struct(task);
err_group:
	fdput(req.group);
	put_unused_fd(event_fd);
	return err;
}
