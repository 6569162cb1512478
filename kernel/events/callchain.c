// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains for samples (PERF_SAMPLE_CALLCHAIN) and for BPF stack maps.
 *
 * Owns: the per-CPU scratch entries a callchain is collected into, their
 * allocation while any user exists, the walk that fills an entry (kernel
 * part, then user part, each behind its PERF_CONTEXT_* marker), and the
 * perf_event_max_stack / perf_event_max_contexts_per_stack sysctls.
 *
 * Buffers: one block per possible CPU holding one entry per execution level
 * (task, softirq, hardirq, NMI), so a sample taken in an interrupt never
 * overwrites the callchain of the level it interrupted.  A busy flag per
 * level refuses recursion at the same level.  The entry size comes from the
 * sysctls at allocation; they cannot change while users exist (EBUSY).
 *
 * Locking: callchain_mutex serialises users joining and leaving and the
 * sysctl writes.  Readers run with preemption or interrupts disabled (the
 * sample path, NMI included) and find the buffers with
 * rcu_dereference_sched(); the last user frees them after a grace period.
 */
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/sysctl.h>

enum callchain_level {
	CALLCHAIN_TASK,
	CALLCHAIN_SOFTIRQ,
	CALLCHAIN_HARDIRQ,
	CALLCHAIN_NMI,
	CALLCHAIN_LEVELS
};

struct callchain_buffers {
	struct rcu_head rcu;
	size_t entry_size;			/* bytes per entry */
	void *cpu_block[];			/* nr_cpu_ids blocks of LEVELS entries */
};

int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly = PERF_MAX_CONTEXTS_PER_STACK;

static DEFINE_MUTEX(callchain_mutex);
static unsigned int callchain_users;		/* under callchain_mutex */
static struct callchain_buffers __rcu *callchain_bufs;
static DEFINE_PER_CPU(bool [CALLCHAIN_LEVELS], callchain_busy);

/* Architectures without callchain support record none. */
__weak void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
				  struct pt_regs *regs)
{
}

__weak void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
				struct pt_regs *regs)
{
}

static size_t callchain_entry_size(void)
{
	size_t ips = sysctl_perf_event_max_stack +
		     sysctl_perf_event_max_contexts_per_stack;

	return struct_size((struct perf_callchain_entry *)NULL, ip, ips);
}

static void callchain_buffers_free(struct callchain_buffers *bufs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(bufs->cpu_block[cpu]);
	kfree(bufs);
}

static void callchain_buffers_free_rcu(struct rcu_head *head)
{
	callchain_buffers_free(container_of(head, struct callchain_buffers, rcu));
}

static struct callchain_buffers *callchain_buffers_alloc(void)
{
	struct callchain_buffers *bufs;
	int cpu;

	bufs = kzalloc(struct_size(bufs, cpu_block, nr_cpu_ids), GFP_KERNEL);
	if (!bufs)
		return NULL;
	bufs->entry_size = callchain_entry_size();
	for_each_possible_cpu(cpu) {
		bufs->cpu_block[cpu] = kmalloc_node(bufs->entry_size * CALLCHAIN_LEVELS,
						    GFP_KERNEL, cpu_to_node(cpu));
		if (!bufs->cpu_block[cpu]) {
			callchain_buffers_free(bufs);
			return NULL;
		}
	}
	return bufs;
}

/*
 * A new callchain user (an event sampling PERF_SAMPLE_CALLCHAIN, at most
 * @event_max_stack frames).  EOVERFLOW when that is above the sysctl, so
 * user space can tell it from a failed allocation (ENOMEM).
 */
int get_callchain_buffers(int event_max_stack)
{
	struct callchain_buffers *bufs;
	int err = 0;

	mutex_lock(&callchain_mutex);
	if (event_max_stack > sysctl_perf_event_max_stack) {
		err = -EOVERFLOW;
	} else if (callchain_users == 0) {
		bufs = callchain_buffers_alloc();
		if (bufs)
			rcu_assign_pointer(callchain_bufs, bufs);
		else
			err = -ENOMEM;
	}
	if (!err)
		callchain_users++;
	mutex_unlock(&callchain_mutex);
	return err;
}

void put_callchain_buffers(void)
{
	struct callchain_buffers *bufs;

	mutex_lock(&callchain_mutex);
	if (!WARN_ON_ONCE(callchain_users == 0) && --callchain_users == 0) {
		bufs = rcu_dereference_protected(callchain_bufs,
						 lockdep_is_held(&callchain_mutex));
		RCU_INIT_POINTER(callchain_bufs, NULL);
		call_rcu(&bufs->rcu, callchain_buffers_free_rcu);
	}
	mutex_unlock(&callchain_mutex);
}

static enum callchain_level callchain_level(void)
{
	if (in_nmi())
		return CALLCHAIN_NMI;
	if (in_hardirq())
		return CALLCHAIN_HARDIRQ;
	if (in_serving_softirq())
		return CALLCHAIN_SOFTIRQ;
	return CALLCHAIN_TASK;
}

/*
 * This CPU's entry for the current execution level, marked busy until
 * put_callchain_entry(*@rctx); NULL (and *@rctx = -1) when the level is
 * already collecting a callchain or no user holds the buffers.  Preemption
 * must be disabled.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	enum callchain_level level = callchain_level();
	bool *busy = &(*this_cpu_ptr(&callchain_busy))[level];
	struct callchain_buffers *bufs;

	*rctx = -1;
	if (*busy)
		return NULL;
	*busy = true;
	barrier();	/* busy before the buffer is used, even from an NMI */

	bufs = rcu_dereference_sched(callchain_bufs);
	if (!bufs) {
		barrier();
		*busy = false;
		return NULL;
	}
	*rctx = level;
	return bufs->cpu_block[smp_processor_id()] + level * bufs->entry_size;
}

void put_callchain_entry(int rctx)
{
	if (WARN_ON_ONCE(rctx < 0 || rctx >= CALLCHAIN_LEVELS))
		return;
	barrier();	/* the entry is no longer used before it is released */
	(*this_cpu_ptr(&callchain_busy))[rctx] = false;
}

/*
 * Collect a callchain of @regs: @init_nr slots left for the caller, then
 * the kernel frames (when @kernel and @regs are kernel regs) and the user
 * frames of the current task (when @user and it has a user context, but
 * never for another task's regs: @crosstask), at most @max_stack frames,
 * each part behind its PERF_CONTEXT_* marker when @add_mark.  The entry
 * stays valid until preemption is enabled again.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, u32 init_nr, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	struct perf_callchain_entry_ctx ctx;
	struct perf_callchain_entry *entry;
	int rctx;

	entry = get_callchain_entry(&rctx);
	if (!entry)
		return NULL;

	entry->nr = init_nr;
	ctx.entry = entry;
	ctx.max_stack = max_stack;
	ctx.nr = init_nr;
	ctx.contexts = 0;
	ctx.contexts_maxed = false;

	if (kernel && !user_mode(regs)) {
		if (add_mark)
			perf_callchain_store_context(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}

	if (user && !crosstask) {
		/* from kernel mode, the user part starts at the task's entry regs */
		if (!user_mode(regs))
			regs = current->mm ? task_pt_regs(current) : NULL;
		if (regs) {
			if (add_mark)
				perf_callchain_store_context(&ctx, PERF_CONTEXT_USER);
			perf_callchain_user(&ctx, regs);
		}
	}

	put_callchain_entry(rctx);
	return entry;
}

/*
 * perf_event_max_stack and perf_event_max_contexts_per_stack: the value is
 * range-checked by the table's bounds first, then refused with EBUSY while
 * callchain users hold buffers sized by the old value.
 */
int perf_event_max_stack_handler(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int *value = table->data, new_value = *value, ret;
	struct ctl_table tmp = *table;

	tmp.data = &new_value;
	ret = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;

	mutex_lock(&callchain_mutex);
	if (callchain_users)
		ret = -EBUSY;
	else
		*value = new_value;
	mutex_unlock(&callchain_mutex);
	return ret;
}
