// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctls of an event file and prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE).
 *
 * Owns: perf_ioctl() and its compat entry, the attribute changes of
 * MODIFY_ATTRIBUTES, and perf_event_task_enable/disable().  SET_OUTPUT and
 * PAUSE_OUTPUT are ring_buffer.c's once the arguments are resolved.
 *
 * An ioctl acts on the event and all its inherited children, and with
 * PERF_IOC_FLAG_GROUP on every member of the event's group (through its
 * leader).  Locking: the ioctls run under perf_event_ctx_lock() of the
 * event; children are walked under the event's child_mutex (taken inside
 * ctx->mutex, as the lock order says).  Data is copied from user space
 * before the context is locked.  REFRESH and PERIOD go through the exported
 * perf_event_refresh()/perf_event_period(), which lock the context
 * themselves.  prctl walks current->perf_event_list (the events current
 * opened) under current->perf_event_mutex, locking each event's context
 * inside it.
 */
#include <linux/bpf.h>
#include <linux/compat.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hw_breakpoint.h>
#include <linux/security.h>
#include <linux/trace_events.h>

#include "internal.h"

typedef void (*perf_ioc_func_t)(struct perf_event *event);

/* @func on @event and each of its inherited children (ctx->mutex held). */
static void perf_ioc_event_and_children(struct perf_event *event, perf_ioc_func_t func)
{
	struct perf_event *child;

	func(event);
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list)
		func(child);
	mutex_unlock(&event->child_mutex);
}

/* @func on @event, or with PERF_IOC_FLAG_GROUP on its whole group. */
static void perf_ioc_apply(struct perf_event *event, perf_ioc_func_t func, unsigned long flags)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;

	if (!(flags & PERF_IOC_FLAG_GROUP)) {
		perf_ioc_event_and_children(event, func);
		return;
	}
	perf_ioc_event_and_children(leader, func);
	for_each_sibling_event(sibling, leader)
		perf_ioc_event_and_children(sibling, func);
}

static void perf_ioc_reset(struct perf_event *event)
{
	/* fold what the PMU counted so far, then start from zero */
	perf_event_read(event, false);
	local64_set(&event->count, 0);
	perf_event_update_userpage(event);
}

static int perf_ioc_set_output(struct perf_event *event, unsigned long arg)
{
	struct perf_event_context *ctx;
	struct perf_event *output;
	int fd = (int)arg;
	struct fd f;
	int ret;

	if (fd == -1) {
		ctx = perf_event_ctx_lock(event);
		ret = perf_event_set_output(event, NULL);
		perf_event_ctx_unlock(event, ctx);
		return ret;
	}

	f = fdget(fd);
	output = perf_file_event(f.file);
	if (!output) {
		fdput(f);
		return -EBADF;
	}
	ctx = perf_event_ctx_lock(event);
	ret = perf_event_set_output(event, output);
	perf_event_ctx_unlock(event, ctx);
	fdput(f);
	return ret;
}

static int perf_ioc_set_bpf(struct perf_event *event, unsigned long arg)
{
	struct bpf_prog *prog;
	int ret;

	/* without CONFIG_BPF_SYSCALL this is EOPNOTSUPP */
	prog = bpf_prog_get(arg);
	if (IS_ERR(prog))
		return PTR_ERR(prog);
	ret = perf_event_set_bpf_prog(event, prog, 0);
	if (ret)
		bpf_prog_put(prog);
	return ret;
}

/* One breakpoint: off while its slot and address change (ctx->mutex held). */
static int perf_modify_breakpoint(struct perf_event *bp, struct perf_event_attr *attr)
{
	int ret;

	_perf_event_disable(bp);
	/* check: nothing but the breakpoint fields and 'disabled' may change */
	ret = modify_user_hw_breakpoint_check(bp, attr, true);
	if (!bp->attr.disabled)
		_perf_event_enable(bp);
	return ret;
}

static int perf_event_modify_attr(struct perf_event *event, struct perf_event_attr *attr)
{
	struct perf_event *child;
	int ret;

	if (event->attr.type != attr->type)
		return -EINVAL;
	/* 6.1 can change only breakpoints */
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -EOPNOTSUPP;

	/*
	 * sig_data may change for any event; it is copied first, so that the
	 * breakpoint's check that nothing else changed compares equal there.
	 */
	mutex_lock(&event->child_mutex);
	event->attr.sig_data = attr->sig_data;
	ret = perf_modify_breakpoint(event, attr);
	list_for_each_entry(child, &event->child_list, child_list) {
		if (ret)
			break;
		child->attr.sig_data = attr->sig_data;
		ret = perf_modify_breakpoint(child, attr);
	}
	mutex_unlock(&event->child_mutex);
	return ret;
}

static int perf_ioc_modify(struct perf_event *event, unsigned long arg)
{
	struct perf_event_context *ctx;
	struct perf_event_attr attr;
	int ret;

	/* validated as at open: EFAULT, E2BIG (size written back), EINVAL */
	ret = perf_copy_attr((struct perf_event_attr __user *)arg, &attr);
	if (ret)
		return ret;
	ctx = perf_event_ctx_lock(event);
	ret = perf_event_modify_attr(event, &attr);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}

/* The ioctls that run entirely under the event's ctx->mutex. */
static long perf_ioctl_locked(struct perf_event *event, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		perf_ioc_apply(event, _perf_event_enable, arg);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		perf_ioc_apply(event, _perf_event_disable, arg);
		return 0;
	case PERF_EVENT_IOC_RESET:
		perf_ioc_apply(event, perf_ioc_reset, arg);
		return 0;
	case PERF_EVENT_IOC_ID:
		if (put_user(event->parent ? event->parent->id : event->id, (u64 __user *)arg))
			return -EFAULT;
		return 0;
	case PERF_EVENT_IOC_SET_FILTER:
		return perf_event_set_filter(event, (void __user *)arg);
	case PERF_EVENT_IOC_SET_BPF:
		return perf_ioc_set_bpf(event, arg);
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return perf_event_pause_output(event, arg);
	case PERF_EVENT_IOC_QUERY_BPF:
		return perf_event_query_prog_array(event, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

long perf_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *ctx;
	u64 value;
	long ret;

	ret = security_perf_event_write(event);
	if (ret)
		return ret;

	switch (cmd) {
	case PERF_EVENT_IOC_REFRESH:
		/* only a non-inherited sampling event has an event_limit */
		if (event->attr.inherit || !is_sampling_event(event))
			return -EINVAL;
		return perf_event_refresh(event, (int)arg);
	case PERF_EVENT_IOC_PERIOD:
		/* the value is copied in before the event is looked at */
		if (copy_from_user(&value, (u64 __user *)arg, sizeof(value)))
			return -EFAULT;
		return perf_event_period(event, value);
	case PERF_EVENT_IOC_SET_OUTPUT:
		return perf_ioc_set_output(event, arg);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return perf_ioc_modify(event, arg);
	}

	ctx = perf_event_ctx_lock(event);
	ret = perf_ioctl_locked(event, cmd, arg);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}

#ifdef CONFIG_COMPAT
long perf_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) != _IOC_TYPE(PERF_EVENT_IOC_ENABLE))
		return perf_ioctl(file, cmd, arg);

	switch (_IOC_NR(cmd)) {
	case _IOC_NR(PERF_EVENT_IOC_SET_FILTER):
	case _IOC_NR(PERF_EVENT_IOC_ID):
	case _IOC_NR(PERF_EVENT_IOC_QUERY_BPF):
	case _IOC_NR(PERF_EVENT_IOC_MODIFY_ATTRIBUTES):
		/* these carry the size of a (32-bit) pointer in the number */
		if (_IOC_SIZE(cmd) == sizeof(compat_uptr_t)) {
			cmd &= ~IOCSIZE_MASK;
			cmd |= sizeof(void *) << IOCSIZE_SHIFT;
		}
		arg = (unsigned long)compat_ptr(arg);
		break;
	case _IOC_NR(PERF_EVENT_IOC_PERIOD):
		arg = (unsigned long)compat_ptr(arg);
		break;
	}
	return perf_ioctl(file, cmd, arg);
}
#else
long perf_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOTTY;
}
#endif

/* ---- prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE) ----------------------------- */

/* @func on every event current opened, and their inherited children. */
static void perf_task_owned_events(perf_ioc_func_t func)
{
	struct perf_event_context *ctx;
	struct perf_event *event;

	mutex_lock(&current->perf_event_mutex);
	list_for_each_entry(event, &current->perf_event_list, owner_entry) {
		ctx = perf_event_ctx_lock(event);
		perf_ioc_event_and_children(event, func);
		perf_event_ctx_unlock(event, ctx);
	}
	mutex_unlock(&current->perf_event_mutex);
}

int perf_event_task_enable(void)
{
	perf_task_owned_events(_perf_event_enable);
	return 0;
}

int perf_event_task_disable(void)
{
	perf_task_owned_events(_perf_event_disable);
	return 0;
}
