// SPDX-License-Identifier: GPL-2.0
/*
 * Events from birth to death: the user attr (copy and checks), allocation,
 * record and read sizes, references, release and free.
 *
 * Owns: perf_copy_attr(), perf_event_alloc(), perf_free_event(),
 * perf_event_ref()/perf_event_put(), perf_event_release(), the header and
 * read sizes of an event (perf_event__header_size() and friends), the
 * perf_sched_events static key and its count, the event id sequence, and
 * the file helpers of the driver API (perf_event_get(), perf_get_event(),
 * perf_event_attrs()).
 *
 * Locking: allocation runs without any perf lock (the scheduler-hook key
 * may be switched on here, which takes the CPU hotplug lock, only for the
 * first task event: see perf_sched_events_inc()).  perf_free_event() may
 * sleep and runs with no ctx->mutex held; the memory itself goes after an
 * RCU grace period.  perf_event_release() takes the event's ctx->mutex,
 * then its owner's perf_event_mutex, then (alone) event->child_mutex and,
 * with child_mutex dropped again, each child's ctx->mutex: child_mutex is
 * never held while a context mutex is taken, since fork takes a context
 * mutex and then child_mutex.
 */
#include <linux/bitops.h>
#include <linux/file.h>
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "internal.h"

/* Largest read() / PERF_SAMPLE_READ payload of one group. */
#define PERF_MAX_READ_SIZE		(16 * 1024)

/*
 * attach_state bits private to this file (the header's PERF_ATTACH_* stay
 * below 0x100): what perf_event_alloc() took and the free must give back.
 */
#define PERF_ATTACH_CALLCHAIN_BUFS	0x1000	/* get_callchain_buffers() */
#define PERF_ATTACH_SCHED_KEY		0x2000	/* perf_sched_events_inc() */

/* Branch privilege levels that expose the kernel. */
#define PERF_BRANCH_KERNEL_PLM	(PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

/* ---- attr from user space --------------------------------------------- */

static int perf_check_branch_attr(struct perf_event_attr *attr)
{
	u64 mask = attr->branch_sample_type;

	if (mask & ~(PERF_SAMPLE_BRANCH_MAX - 1))
		return -EINVAL;
	/* at least one branch type besides the privilege levels */
	if (!(mask & ~PERF_SAMPLE_BRANCH_PLM_ALL))
		return -EINVAL;

	/* no level given: the event's own exclude_* bits decide */
	if (!(mask & PERF_SAMPLE_BRANCH_PLM_ALL)) {
		if (!attr->exclude_user)
			mask |= PERF_SAMPLE_BRANCH_USER;
		if (!attr->exclude_kernel)
			mask |= PERF_SAMPLE_BRANCH_KERNEL;
		if (!attr->exclude_hv)
			mask |= PERF_SAMPLE_BRANCH_HV;
		attr->branch_sample_type = mask;
	}

	if (mask & PERF_BRANCH_KERNEL_PLM)
		return perf_allow_kernel(attr);
	return 0;
}

/* The checks that depend on nothing but the attr itself. */
static int perf_check_attr(struct perf_event_attr *attr)
{
	int ret;

	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		ret = perf_check_branch_attr(attr);
		if (ret)
			return ret;
	}

	if (attr->sample_type & PERF_SAMPLE_REGS_USER) {
		ret = perf_reg_validate(attr->sample_regs_user);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
		ret = perf_reg_validate(attr->sample_regs_intr);
		if (ret)
			return ret;
	}

	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		/* 6.1's answer when the arch cannot dump user stacks */
		if (!IS_ENABLED(CONFIG_HAVE_PERF_USER_STACK_DUMP))
			return -ENOSYS;
		/* the dump size travels in a u16 and is copied in u64 words */
		if (attr->sample_stack_user >= USHRT_MAX ||
		    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
			return -EINVAL;
	}

	if (!attr->sample_max_stack)
		attr->sample_max_stack = sysctl_perf_event_max_stack;

#ifndef CONFIG_CGROUP_PERF
	if (attr->sample_type & PERF_SAMPLE_CGROUP)
		return -EINVAL;
#endif
	if ((attr->sample_type & PERF_SAMPLE_WEIGHT) &&
	    (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return -EINVAL;

	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	/* a SIGTRAP must not survive into a new program image */
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;

	/*
	 * The period, frequency and inherit checks belong to the open
	 * (syscall.c), not to every copy: MODIFY_ATTRIBUTES skips them.
	 */
	return 0;
}

int perf_copy_attr(struct perf_event_attr __user *uattr, struct perf_event_attr *attr)
{
	u32 size;
	int ret;

	memset(attr, 0, sizeof(*attr));

	if (get_user(size, &uattr->size))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;

	/* a larger attr is fine as long as what we do not know is zero */
	ret = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (ret == -E2BIG)
		goto too_big;
	if (ret)
		return ret;

	attr->size = size;
	return perf_check_attr(attr);

too_big:
	/* tell user space the size we understand (best effort, as 6.1) */
	put_user((u32)sizeof(*attr), &uattr->size);
	return -E2BIG;
}

/* ---- record and read sizes ------------------------------------------------ */

/* One u64 each: the fixed-size fields of a PERF_RECORD_SAMPLE body. */
static const u64 perf_sample_u64_fields =
	PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
	PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
	PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
	PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;

/* The sample_id trailer of non-sample records (sample_id_all). */
static const u64 perf_sample_id_fields =
	PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
	PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;

static size_t perf_sample_fixed_bytes(u64 sample_type)
{
	size_t size = hweight64(sample_type & perf_sample_u64_fields) * sizeof(u64);

	/* WEIGHT and WEIGHT_STRUCT are one u64 (never both: perf_check_attr) */
	if (sample_type & PERF_SAMPLE_WEIGHT_TYPE)
		size += sizeof(u64);
	return size;
}

static int perf_group_members(struct perf_event *event)
{
	return event->group_leader->nr_siblings + 1;
}

/*
 * read_size: a read() of @event in its current group; header_size: the
 * fixed-size part of its PERF_RECORD_SAMPLE body (struct perf_event_header
 * not included), with the PERF_SAMPLE_READ payload.  Recomputed for every
 * member when a group changes (ctx->mutex held, or the event not yet
 * visible).
 */
void perf_event__header_size(struct perf_event *event)
{
	u64 sample_type = event->attr.sample_type;
	size_t size;

	event->read_size = perf_read_size(event->attr.read_format, perf_group_members(event));
	size = perf_sample_fixed_bytes(sample_type);
	if (sample_type & PERF_SAMPLE_READ)
		size += event->read_size;
	event->header_size = size;
}

/* id_header_size: the sample_id trailer appended to other records. */
void perf_event__id_header_size(struct perf_event *event)
{
	u64 sample_type = event->attr.sample_type;

	event->id_header_size = hweight64(sample_type & perf_sample_id_fields) * sizeof(u64);
}

static bool perf_member_size_ok(struct perf_event *member, int nr)
{
	size_t read = perf_read_size(member->attr.read_format, nr);
	size_t record;

	if (read > PERF_MAX_READ_SIZE)
		return false;
	record = sizeof(struct perf_event_header) + member->id_header_size +
		 perf_sample_fixed_bytes(member->attr.sample_type);
	if (member->attr.sample_type & PERF_SAMPLE_READ)
		record += read;
	return record <= U16_MAX;
}

/*
 * May @event (not yet attached) join its group_leader's group?  The read()
 * and sample sizes of every member grow with the group.  ctx->mutex of
 * the leader's context held.
 */
bool perf_event_validate_size(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	int nr;

	if (leader == event)
		return perf_member_size_ok(event, 1);

	nr = leader->nr_siblings + 2;
	if (!perf_member_size_ok(event, nr) || !perf_member_size_ok(leader, nr))
		return false;
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
		if (!perf_member_size_ok(sibling, nr))
			return false;
	}
	return true;
}

/* ---- the scheduler hooks' static key ----------------------------------- */

DEFINE_STATIC_KEY_FALSE(perf_sched_events);

/*
 * Events that need the context-switch hooks.  The key is switched on
 * synchronously by the first one (no perf lock is held then: a child
 * created at fork always finds the count non-zero, its parent counts) and
 * switched off from a work item, since the last put may come from any
 * process context and static_branch_disable() takes the hotplug lock.
 * The work waits a second: a tool that opens and closes events in a loop
 * (perf stat -r, PAPI) would otherwise patch the kernel text twice and
 * wake a kworker for every event.
 */
static atomic_t perf_sched_count = ATOMIC_INIT(0);
static DEFINE_MUTEX(perf_sched_mutex);

static void perf_sched_events_off(struct work_struct *work)
{
	mutex_lock(&perf_sched_mutex);
	if (!atomic_read(&perf_sched_count))
		static_branch_disable(&perf_sched_events);
	mutex_unlock(&perf_sched_mutex);
}

static DECLARE_DELAYED_WORK(perf_sched_off_work, perf_sched_events_off);

void perf_sched_events_inc(void)
{
	if (atomic_inc_not_zero(&perf_sched_count))
		return;

	mutex_lock(&perf_sched_mutex);
	/* still on when the last event went less than a second ago */
	if (!static_key_enabled(&perf_sched_events))
		static_branch_enable(&perf_sched_events);
	atomic_inc(&perf_sched_count);
	mutex_unlock(&perf_sched_mutex);
}

void perf_sched_events_dec(void)
{
	if (atomic_dec_and_test(&perf_sched_count))
		schedule_delayed_work(&perf_sched_off_work, HZ);
}

/* ---- allocation -------------------------------------------------------- */

static atomic64_t perf_event_id_seq;

/* attr.clockid: the clock of the event's timestamps; NULL if unknown. */
static u64 (*perf_clock_of(int clockid, bool *nmi_safe))(void)
{
	*nmi_safe = false;
	switch (clockid) {
	case CLOCK_MONOTONIC:
		*nmi_safe = true;
		return ktime_get_mono_fast_ns;
	case CLOCK_MONOTONIC_RAW:
		*nmi_safe = true;
		return ktime_get_raw_fast_ns;
	case CLOCK_REALTIME:
		return ktime_get_real_ns;
	case CLOCK_BOOTTIME:
		return ktime_get_boottime_ns;
	case CLOCK_TAI:
		return ktime_get_clocktai_ns;
	default:
		return NULL;
	}
}

static bool perf_has_extended_regs(struct perf_event *event)
{
	return (event->attr.sample_regs_user & PERF_REG_EXTENDED_MASK) ||
	       (event->attr.sample_regs_intr & PERF_REG_EXTENDED_MASK);
}

/* What the chosen PMU cannot do, whatever its event_init said. */
static int perf_check_pmu_caps(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (perf_has_extended_regs(event) && !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS))
		return -EOPNOTSUPP;
	if (event->attr.aux_output && !(pmu->capabilities & PERF_PMU_CAP_AUX_OUTPUT))
		return -EOPNOTSUPP;
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) && event_has_any_exclude_flag(event))
		return -EINVAL;
	return 0;
}

static bool perf_event_uses_callchain(struct perf_event *event)
{
	return !event->parent && (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
}

/*
 * Undo what perf_event_alloc() set up, in an order that lets the PMU's
 * destroy callback still see the event whole.  Does not touch ctx,
 * parent or the memory itself.  May sleep.
 */
static void perf_event_teardown(struct perf_event *event)
{
	security_perf_event_free(event);
	perf_sideband_detach(event);

#ifdef CONFIG_EVENT_TRACING
	if (event->filter)
		perf_event_free_filter(event);
#endif
#ifdef CONFIG_BPF_SYSCALL
	if (event->prog)
		perf_event_free_bpf_prog(event);
#endif

	if (event->destroy) {
		event->destroy(event);
		event->destroy = NULL;
	}
	/* pmu, ctx and hw.target stay set: RCU readers may still look */
	if (event->pmu)
		module_put(event->pmu->module);

	if (event->attach_state & PERF_ATTACH_CALLCHAIN_BUFS) {
		put_callchain_buffers();
		event->attach_state &= ~PERF_ATTACH_CALLCHAIN_BUFS;
	}
	if (event->attach_state & PERF_ATTACH_SCHED_CB) {
		perf_sched_events_dec();
		event->attach_state &= ~PERF_ATTACH_SCHED_CB;
	}
	if (event->attach_state & PERF_ATTACH_SCHED_KEY) {
		perf_sched_events_dec();
		event->attach_state &= ~PERF_ATTACH_SCHED_KEY;
	}

	perf_addr_filters_free(event);

	perf_cgroup_disconnect(event);
	if (event->hw.target)
		put_task_struct(event->hw.target);
	if (event->ns)
		put_pid_ns(event->ns);
}

/*
 * Events come from a cache of their own: struct perf_event is a little
 * over 1 KiB, which kmalloc() would round up to 2 KiB.
 */
static struct kmem_cache *perf_event_cache;

void __init perf_event_cache_init(void)
{
	perf_event_cache = KMEM_CACHE(perf_event, SLAB_PANIC);
}

static void perf_event_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(perf_event_cache, container_of(head, struct perf_event, rcu_head));
}

/* The fields and lists of a fresh event (nothing that can fail). */
static void perf_event_init_fields(struct perf_event *event, struct perf_event_attr *attr,
				   int cpu, struct perf_event *group_leader,
				   struct perf_event *parent_event)
{
	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->active_list);
	INIT_LIST_HEAD(&event->group_entry);
	INIT_LIST_HEAD(&event->migrate_entry);
	INIT_LIST_HEAD(&event->active_entry);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->owner_entry);
	INIT_LIST_HEAD(&event->rb_entry);
	INIT_LIST_HEAD(&event->sb_list);
	/* once: a re-install (migration) must not reset a queued irq_work */
	init_irq_work(&event->pending_irq, perf_pending_irq);
	init_task_work(&event->pending_task, perf_pending_task);
	INIT_LIST_HEAD(&event->addr_filters.list);
	INIT_HLIST_NODE(&event->hlist_entry);
	raw_spin_lock_init(&event->addr_filters.lock);
	mutex_init(&event->child_mutex);
	mutex_init(&event->mmap_mutex);
	init_waitqueue_head(&event->waitq);
	atomic_long_set(&event->refcount, 1);

	event->cpu = cpu;
	event->oncpu = -1;
	event->filter_match_cpu = -1;
	event->attr = *attr;
	event->group_leader = group_leader ?: event;
	event->parent = parent_event;
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF : PERF_EVENT_STATE_INACTIVE;
	event->ns = get_pid_ns(task_active_pid_ns(current));
	event->id = atomic64_inc_return(&perf_event_id_seq);

	/* a PMU must not act on branch_sample_type nobody asked for */
	if (!has_branch_stack(event))
		event->attr.branch_sample_type = 0;
}

/* Timestamps: the parent's clock, else the attr's, else local_clock. */
static int perf_event_set_clock(struct perf_event *event, bool *nmi_safe)
{
	*nmi_safe = true;
	event->clock = local_clock;
	if (event->parent) {
		event->clock = event->parent->clock;
	} else if (event->attr.use_clockid) {
		event->clock = perf_clock_of(event->attr.clockid, nmi_safe);
		if (!event->clock)
			return -EINVAL;
	}
	return 0;
}

/* The caller's overflow handler, the parent's, or the ring buffer's. */
static void perf_event_set_overflow(struct perf_event *event,
				    perf_overflow_handler_t overflow_handler, void *context)
{
	struct perf_event *parent_event = event->parent;

	if (!overflow_handler && parent_event) {
		overflow_handler = parent_event->overflow_handler;
		context = parent_event->overflow_handler_context;
	}
	if (overflow_handler) {
		event->overflow_handler = overflow_handler;
		event->overflow_handler_context = context;
	} else if (is_write_backward(event)) {
		event->overflow_handler = perf_event_output_backward;
		event->overflow_handler_context = NULL;
	} else {
		event->overflow_handler = perf_event_output_forward;
		event->overflow_handler_context = NULL;
	}
}

/* The sampling period the PMU starts from (freq mode: 1, the tick adjusts). */
static void perf_event_init_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->sample_period = event->attr.sample_period;
	if (event->attr.freq && event->attr.sample_freq)
		hwc->sample_period = 1;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
}

/*
 * Find the event's PMU and check what it cannot do; take the callchain
 * buffers and the LSM's blessing.  On failure the caller frees the event.
 */
static int perf_event_attach_pmu(struct perf_event *event, bool nmi_safe)
{
	int err;

	err = perf_init_event(event);
	if (err) {
		/* perf_init_event() cleans up after a PMU that refused */
		event->pmu = NULL;
		event->destroy = NULL;
		return err;
	}
	err = perf_check_pmu_caps(event);
	if (err)
		return err;
	/* software-context PMUs never run out of counters (group_sched.c) */
	if (event->pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;
	if (!event->pmu->filter_match)
		event->event_caps |= PERF_EV_CAP_EVERY_CPU;
	/* timestamps taken in NMI need an NMI-safe clock */
	if (!nmi_safe && !(event->pmu->capabilities & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;

	if (perf_event_uses_callchain(event)) {
		err = get_callchain_buffers(event->attr.sample_max_stack);
		if (err)
			return err;
		event->attach_state |= PERF_ATTACH_CALLCHAIN_BUFS;
	}
	err = perf_addr_filters_init(event);
	if (err)
		return err;
	return security_perf_event_alloc(event);
}

struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent_event,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd)
{
	struct perf_event *event;
	int node = NUMA_NO_NODE;
	bool nmi_safe;
	int err;

	if ((unsigned int)cpu >= nr_cpu_ids) {
		/* cpu -1 only with a task */
		if (cpu != -1 || !task)
			return ERR_PTR(-EINVAL);
	} else {
		node = cpu_to_node(cpu);
	}
	/* a SIGTRAP goes to the task the event is on: there must be one */
	if (attr->sigtrap && !task)
		return ERR_PTR(-EINVAL);
	/* a per-child PERF_SAMPLE_READ cannot be summed into the parent */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ))
		return ERR_PTR(-EINVAL);

	event = kmem_cache_alloc_node(perf_event_cache, GFP_KERNEL | __GFP_ZERO, node);
	if (!event)
		return ERR_PTR(-ENOMEM);
	perf_event_init_fields(event, attr, cpu, group_leader, parent_event);
	if (task) {
		event->attach_state = PERF_ATTACH_TASK;
		/* breakpoints and others look at the target in event_init */
		event->hw.target = get_task_struct(task);
	}

	err = perf_event_set_clock(event, &nmi_safe);
	if (err)
		goto err_free;
	if (cgroup_fd != -1) {
		err = perf_cgroup_connect(event, cgroup_fd, group_leader);
		if (err)
			goto err_free;
	}
	perf_event_set_overflow(event, overflow_handler, context);
	perf_event_init_period(event);

	err = perf_event_attach_pmu(event, nmi_safe);
	if (err)
		goto err_free;

	if (parent_event) {
		/* the same attr in the same group: the sizes of the parent's */
		event->read_size = parent_event->read_size;
		event->header_size = parent_event->header_size;
		event->id_header_size = parent_event->id_header_size;
	} else {
		perf_event__header_size(event);
		perf_event__id_header_size(event);
	}

	/* task, cgroup and switch-record events need the context-switch hooks */
	if ((event->attach_state & PERF_ATTACH_TASK) || perf_event_is_cgroup(event) ||
	    event->attr.context_switch) {
		perf_sched_events_inc();
		event->attach_state |= PERF_ATTACH_SCHED_KEY;
	}
	perf_sideband_attach(event);
	return event;

err_free:
	/* the caller takes the parent reference only on success */
	event->parent = NULL;
	perf_event_teardown(event);
	kmem_cache_free(perf_event_cache, event);
	return ERR_PTR(err);
}

/* ---- references, release, free ------------------------------------------- */

void perf_free_event(struct perf_event *event)
{
	struct perf_event *parent = event->parent;

	WARN_ON_ONCE(event->attach_state & PERF_ATTACH_CONTEXT);
	WARN_ON_ONCE(!list_empty(&event->child_list));

	/* nothing may still be queued to run on the event */
	irq_work_sync(&event->pending_irq);

	perf_event_detach_rb(event);
	perf_event_teardown(event);

	if (event->ctx)
		perf_ctx_put(event->ctx);
	if (parent)
		perf_event_put(parent);

	/* software and tracepoint paths find events under RCU */
	call_rcu(&event->rcu_head, perf_event_free_rcu);
}

void perf_event_ref(struct perf_event *event)
{
	atomic_long_inc(&event->refcount);
}

void perf_event_put(struct perf_event *event)
{
	/*
	 * Any put may be the last one, which sleeps: catch callers that
	 * cannot sleep in debug kernels, without adding a voluntary
	 * preemption point to every put in the others.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP))
		might_sleep();
	if (atomic_long_dec_and_test(&event->refcount))
		perf_free_event(event);
}

/* Take @event off its owner's perf_event_list (prctl enable/disable). */
static void perf_event_drop_owner(struct perf_event *event)
{
	struct task_struct *owner;

	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	/* an exiting owner clears event->owner before its task is freed */
	if (owner)
		get_task_struct(owner);
	rcu_read_unlock();
	if (!owner)
		return;

	mutex_lock(&owner->perf_event_mutex);
	if (READ_ONCE(event->owner)) {
		list_del_init(&event->owner_entry);
		/* pairs with the READ_ONCE() of lock-free readers of owner */
		smp_store_release(&event->owner, NULL);
	}
	mutex_unlock(&owner->perf_event_mutex);
	put_task_struct(owner);
}

/*
 * Remove every inherited child of @event (already DEAD, so no new child
 * gets linked).  A child unlinked here under child_mutex gives us the
 * reference its link held; it is removed from its context with
 * child_mutex dropped (fork holds a context mutex when it takes
 * child_mutex).  Its counts are lost with the parent.
 */
static void perf_event_release_children(struct perf_event *event)
{
	struct perf_event_context *ctx;
	struct perf_event *child;

	for (;;) {
		mutex_lock(&event->child_mutex);
		child = list_first_entry_or_null(&event->child_list, struct perf_event,
						 child_list);
		if (child)
			list_del_init(&child->child_list);
		mutex_unlock(&event->child_mutex);
		if (!child)
			break;

		ctx = perf_event_ctx_lock(child);
		perf_remove_from_context(child, DETACH_GROUP | DETACH_DEAD);
		perf_event_ctx_unlock(child, ctx);
		perf_event_put(child);
	}
}

int perf_event_release(struct perf_event *event)
{
	struct perf_event_context *ctx;

	if (event->ctx) {
		ctx = perf_event_ctx_lock(event);
		perf_remove_from_context(event, DETACH_GROUP | DETACH_DEAD);
		/* also when it had left already (EXIT): inherit_link() checks */
		raw_spin_lock_irq(&ctx->lock);
		WRITE_ONCE(event->state, PERF_EVENT_STATE_DEAD);
		raw_spin_unlock_irq(&ctx->lock);
		perf_event_ctx_unlock(event, ctx);
	} else {
		WRITE_ONCE(event->state, PERF_EVENT_STATE_DEAD);
	}

	perf_event_drop_owner(event);
	perf_event_release_children(event);
	perf_event_put(event);
	return 0;
}

/* ---- event files in the driver API ------------------------------------- */

/* The file of perf event fd @fd, with a reference (fput() it). */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (!perf_file_event(file)) {
		fput(file);
		return ERR_PTR(-EBADF);
	}
	return file;
}

const struct perf_event *perf_get_event(struct file *file)
{
	struct perf_event *event = perf_file_event(file);

	return event ?: ERR_PTR(-EINVAL);
}

const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	if (!event)
		return ERR_PTR(-EINVAL);
	return &event->attr;
}
