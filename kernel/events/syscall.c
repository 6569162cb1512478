// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) and the event file (read, poll, release, fasync, mmap).
 *
 * Owns: the argument, permission and group checks of the system call (with
 * the errno values of Linux 6.1), creating the event file, installing the
 * event in its context and recording the opener as its owner; the read()
 * format (perf_read_values()), poll and the wakeup of pollers and fasync
 * (perf_event_wakeup()).
 *
 * Part 1 limits: there is no ring buffer yet.  mmap() of an event is
 * ENODEV, poll() reports EPOLLHUP (what 6.1 says for an event without a
 * buffer), and sampling events opened from user space (sample_period or
 * sample_freq non-zero) are refused with EOPNOTSUPP, which is what 6.1
 * answers for a PMU that cannot sample.  PMUs with
 * PERF_PMU_CAP_EXCLUSIVE get no special treatment (none in our configs).
 *
 * Locking: the open allocates the event first (a PMU's event_init may take
 * locks of its own, even the target's exec_update_lock), then takes the
 * target's exec_update_lock (read) around the permission check and the
 * install, then the context's ctx->mutex for the group checks and the
 * install; the opener's perf_event_mutex is taken alone afterwards to link
 * the event on its owner's list.  read() runs under perf_event_ctx_lock().
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

/* The id user space sees: an inherited child reports its parent's. */
static u64 perf_event_user_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/* ---- read ---------------------------------------------------------------- */

/* Bytes a read() of @event returns for @nr group members. */
static size_t perf_read_size(u64 read_format, int nr)
{
	size_t per_value = sizeof(u64);
	size_t header = 0;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		header += sizeof(u64);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		header += sizeof(u64);
	if (read_format & PERF_FORMAT_ID)
		per_value += sizeof(u64);
	if (read_format & PERF_FORMAT_LOST)
		per_value += sizeof(u64);

	if (read_format & PERF_FORMAT_GROUP)
		return sizeof(u64) + header + nr * per_value;
	return header + per_value;
}

/* Append one member's value, [id] and [lost] at @p; returns the next slot. */
static u64 *perf_put_member(u64 *p, struct perf_event *event, u64 read_format,
			    u64 value)
{
	*p++ = value;
	if (read_format & PERF_FORMAT_ID)
		*p++ = perf_event_user_id(event);
	if (read_format & PERF_FORMAT_LOST)
		*p++ = atomic64_read(&event->lost_samples);
	return p;
}

ssize_t perf_read_values(struct perf_event *event, char __user *buf, size_t count)
{
	u64 read_format = event->attr.read_format;
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	u64 enabled, running, value;
	u64 *values, *p;
	size_t size;
	ssize_t ret;
	int nr = 1;

	if (read_format & PERF_FORMAT_GROUP)
		nr += leader->nr_siblings;
	size = perf_read_size(read_format, nr);
	if (count < size)
		return -ENOSPC;
	if (event->state == PERF_EVENT_STATE_ERROR)
		return 0;

	values = kzalloc(size, GFP_KERNEL);
	if (!values)
		return -ENOMEM;
	p = values;

	if (read_format & PERF_FORMAT_GROUP) {
		/* bring the whole group current at once, then sum the children */
		perf_event_read(leader, true);
		value = perf_event_read_value_locked(leader, &enabled, &running);
		*p++ = nr;
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			*p++ = enabled;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			*p++ = running;
		p = perf_put_member(p, leader, read_format, value);
		for_each_sibling_event(sibling, leader) {
			u64 e, r;

			value = perf_event_read_value_locked(sibling, &e, &r);
			p = perf_put_member(p, sibling, read_format, value);
		}
	} else {
		value = perf_event_read_value_locked(event, &enabled, &running);
		*p++ = value;
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			*p++ = enabled;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			*p++ = running;
		if (read_format & PERF_FORMAT_ID)
			*p++ = perf_event_user_id(event);
		if (read_format & PERF_FORMAT_LOST)
			*p++ = atomic64_read(&event->lost_samples);
	}

	ret = copy_to_user(buf, values, size) ? -EFAULT : size;
	kfree(values);
	return ret;
}

static ssize_t perf_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *ctx;
	ssize_t ret;

	ret = security_perf_event_read(event);
	if (ret)
		return ret;

	ctx = perf_event_ctx_lock(event);
	ret = perf_read_values(event, buf, count);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}

/* ---- poll, wakeup, fasync, mmap, release ------------------------------- */

static __poll_t perf_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;

	poll_wait(file, &event->waitq, wait);
	/*
	 * Part 1: no event has a ring buffer, and 6.1 reports EPOLLHUP for an
	 * event without one.
	 */
	return EPOLLHUP;
}

void perf_event_wakeup(struct perf_event *event)
{
	/* pollers and fasync owners wait on the event of the file */
	struct perf_event *target = event->parent ? event->parent : event;

	wake_up_all(&target->waitq);
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

static int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	/* Part 1: no ring buffer. */
	return -ENODEV;
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
static int perf_open_check_attr(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int err;

	/* Debian: perf_event_paranoid above 2 closes the syscall to users */
	if (perf_paranoid_any() && !perfmon_capable())
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
	/* CPU-wide events see every task */
	if (pid == -1 && cpu != -1) {
		err = perf_allow_cpu(attr);
		if (err)
			return err;
	}

	if (attr->freq) {
		if (attr->sample_freq > sysctl_perf_event_sample_rate)
			return -EINVAL;
	} else if (attr->sample_period & (1ULL << 63)) {
		return -EINVAL;
	}

	if (attr->sample_type & (PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_REGS_INTR)) {
		err = perf_allow_kernel(attr);
		if (err)
			return err;
	}

	/* a per-child PERF_SAMPLE_READ cannot be summed into the parent */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ))
		return -EINVAL;

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

/* attr.use_clockid: pick the clock; a PMU that samples in NMI needs a safe one. */
static int perf_open_set_clock(struct perf_event *event)
{
	bool nmi_safe = false;

	if (!event->attr.use_clockid) {
		if (!event->clock)
			event->clock = local_clock;
		return 0;
	}

	switch (event->attr.clockid) {
	case CLOCK_MONOTONIC:
		event->clock = ktime_get_mono_fast_ns;
		nmi_safe = true;
		break;
	case CLOCK_MONOTONIC_RAW:
		event->clock = ktime_get_raw_fast_ns;
		nmi_safe = true;
		break;
	case CLOCK_REALTIME:
		event->clock = ktime_get_real_ns;
		break;
	case CLOCK_BOOTTIME:
		event->clock = ktime_get_boottime_ns;
		break;
	case CLOCK_TAI:
		event->clock = ktime_get_clocktai_ns;
		break;
	default:
		return -EINVAL;
	}
	if (!nmi_safe && !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;
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

SYSCALL_DEFINE5(perf_event_open, struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_event *group_leader = NULL, *output_event = NULL;
	struct perf_event_context *ctx = NULL;
	struct task_struct *task = NULL;
	struct perf_event *event;
	struct perf_event_attr attr;
	struct file *event_file;
	struct fd group = { NULL, 0 };
	bool exec_locked = false;
	int f_flags = O_RDWR;
	int cgroup_fd = -1;
	int event_fd;
	int err;

	if (flags & ~PERF_FLAG_ALL)
		return -EINVAL;

	err = perf_copy_attr(attr_uptr, &attr);
	if (err)
		return err;

	err = security_perf_event_open(&attr, PERF_SECURITY_OPEN);
	if (err)
		return err;

	err = perf_open_check_attr(&attr, pid, cpu);
	if (err)
		return err;

	if (flags & PERF_FLAG_PID_CGROUP) {
		err = perf_open_cgroup(pid, cpu);
		if (err)
			return err;
		cgroup_fd = pid;
		pid = -1;
	}

	if (flags & PERF_FLAG_FD_CLOEXEC)
		f_flags |= O_CLOEXEC;

	event_fd = get_unused_fd_flags(f_flags);
	if (event_fd < 0)
		return event_fd;

	if (group_fd != -1) {
		group = fdget(group_fd);
		group_leader = perf_file_event(group.file);
		if (!group_leader) {
			err = -EBADF;
			goto err_fd;
		}
		if (flags & PERF_FLAG_FD_OUTPUT)
			output_event = group_leader;
		if (flags & PERF_FLAG_FD_NO_GROUP)
			group_leader = NULL;
	}

	if (pid != -1) {
		if (pid == 0) {
			task = current;
			get_task_struct(task);
		} else {
			task = find_get_task_by_vpid(pid);
			if (!task) {
				err = -ESRCH;
				goto err_group;
			}
		}
	}

	/* a CPU, or -1 with a task */
	if (cpu < -1 || (cpu >= 0 && cpu >= nr_cpu_ids) || (cpu == -1 && !task)) {
		err = -EINVAL;
		goto err_task;
	}
	if (attr.sigtrap && !task) {
		err = -EINVAL;
		goto err_task;
	}
	if (group_leader && task && group_leader->attr.inherit != attr.inherit) {
		err = -EINVAL;
		goto err_task;
	}

	event = perf_event_alloc(&attr, cpu, task, group_leader, NULL, NULL, NULL, cgroup_fd);
	if (IS_ERR(event)) {
		err = PTR_ERR(event);
		goto err_task;
	}

	err = perf_open_set_clock(event);
	if (err)
		goto err_event;

	/* no AUX PMU in part 1: aux_output/aux_sample_size need an AUX leader */
	if ((attr.aux_output || attr.aux_sample_size) &&
	    !(group_leader && has_aux(group_leader))) {
		err = -EINVAL;
		goto err_event;
	}
	if (!group_leader && (event->event_caps & PERF_EV_CAP_SIBLING)) {
		err = -EINVAL;
		goto err_event;
	}

	/*
	 * After the allocation, as in 6.1: a PMU's event_init may itself take
	 * the target's exec_update_lock (a uprobe on /proc/self/exe).
	 */
	if (task) {
		err = down_read_interruptible(&task->signal->exec_update_lock);
		if (err)
			goto err_event;
		exec_locked = true;
		if (!perf_open_task_allowed(&attr, task)) {
			err = -EACCES;
			goto err_event;
		}
	}

	ctx = perf_find_get_context(task, event->cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		ctx = NULL;
		goto err_event;
	}

	if (output_event) {
		err = perf_event_set_output(event, output_event);
		if (err)
			goto err_ctx;
	}

	event_file = anon_inode_getfile("[perf_event]", &perf_fops, event, f_flags);
	if (IS_ERR(event_file)) {
		err = PTR_ERR(event_file);
		goto err_ctx;
	}

	mutex_lock(&ctx->mutex);
	if (ctx->task == TASK_TOMBSTONE) {
		err = -ESRCH;
		goto err_locked;
	}
	if (!task && !per_cpu(perf_cpu_ctx, event->cpu).online) {
		err = -ENODEV;
		goto err_locked;
	}
	if (group_leader) {
		err = perf_open_check_group(event, group_leader, ctx);
		if (err)
			goto err_locked;
	}
	if (!perf_event_validate_size(event)) {
		err = -E2BIG;
		goto err_locked;
	}
	/* part 1: no ring buffer, so no sampling from user space */
	if (is_sampling_event(event)) {
		err = -EOPNOTSUPP;
		goto err_locked;
	}

	perf_install_in_context(ctx, event, event->cpu);
	perf_group_update_sizes(event->group_leader);
	mutex_unlock(&ctx->mutex);

	if (exec_locked)
		up_read(&task->signal->exec_update_lock);
	if (task)
		put_task_struct(task);

	event->owner = current;
	mutex_lock(&current->perf_event_mutex);
	list_add_tail(&event->owner_entry, &current->perf_event_list);
	mutex_unlock(&current->perf_event_mutex);

	fdput(group);
	fd_install(event_fd, event_file);
	return event_fd;

err_locked:
	mutex_unlock(&ctx->mutex);
	/* the file never owned the event: its release must not see it */
	event_file->private_data = NULL;
	fput(event_file);
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
	fdput(group);
err_fd:
	put_unused_fd(event_fd);
	return err;
}
