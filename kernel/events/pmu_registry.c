// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry: registration of PMUs and their type ids, the
 * "event_source" bus with one sysfs device per named PMU, the PMU-wide
 * disable nesting, the choice of a PMU for a new event, and boot; and the
 * hooks by which drivers serve others (perf_snapshot_branch_stack,
 * perf_event_print_debug).
 *
 * Owns: the pmus list, pmus_lock, pmus_srcu, the IDR of PMU types, the
 * default callbacks given to PMUs that leave them out, pmu->dev,
 * pmu->pmu_disable_count and pmu->cpu_pmu (rotation.c initialises and
 * drives each element).
 *
 * Locking: pmus_lock (a mutex, outermost lock of the core) serialises
 * registration, unregistration and the creation of sysfs devices.  The
 * list is walked under pmus_srcu (perf_init_event() may sleep in a PMU's
 * event_init); the IDR is looked up under RCU inside an SRCU section, so a
 * PMU found either way stays registered until srcu_read_unlock().
 * Writes of perf_event_mux_interval_ms are serialised by their own mutex
 * (perf_cpu_pmu_set_interval() takes the CPU hotplug lock, and PMUs may be
 * registered from hotplug callbacks, so pmus_lock must not be held there).
 */
#include <linux/device.h>
#include <linux/hw_breakpoint.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/static_call.h>
#include <linux/sysfs.h>

#include "internal.h"

/*
 * What drivers provide for others: the branch stack of this instant
 * (bpf_get_branch_snapshot(); a driver with one, Intel LBR, updates the
 * static call, 0 entries otherwise), and the dump of the PMU's registers
 * (an architecture's own perf_event_print_debug() replaces this one).
 */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

void __weak perf_event_print_debug(void)
{
}

/* registration, unregistration and sysfs devices of PMUs */
DEFINE_MUTEX(pmus_lock);
LIST_HEAD(pmus);
DEFINE_SRCU(pmus_srcu);

static DEFINE_IDR(pmu_idr);
static DEFINE_MUTEX(perf_mux_interval_mutex);

/* The first registered PMU of the hardware context (pmus_lock to change). */
static struct pmu *perf_hw_pmu;

/* Set once the bus exists; later PMUs get their device at registration. */
static bool pmu_bus_running;

/*
 * Multiplexing interval of a PMU that can multiplex and did not choose
 * one: a tick.  PMUs of the software context never multiplex and keep 0
 * until written, as 6.1 shows in sysfs.
 */
#define PERF_MUX_TICK_MS	max_t(int, 1, 1000 / HZ)

/* ---- PMU-wide disable ---------------------------------------------------- */

static void perf_pmu_nop_void(struct pmu *pmu)
{
}

/*
 * A PMU with nothing to do at disable and enable (the software PMUs)
 * needs no nesting count either: both calls return at once.
 */
static bool perf_pmu_disable_is_nop(struct pmu *pmu)
{
	return pmu->pmu_disable == perf_pmu_nop_void && pmu->pmu_enable == perf_pmu_nop_void;
}

void perf_pmu_disable(struct pmu *pmu)
{
	int *count;

	if (perf_pmu_disable_is_nop(pmu))
		return;
	count = this_cpu_ptr(pmu->pmu_disable_count);
	if (!(*count)++)
		pmu->pmu_disable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_disable);

void perf_pmu_enable(struct pmu *pmu)
{
	int *count;

	if (perf_pmu_disable_is_nop(pmu))
		return;
	count = this_cpu_ptr(pmu->pmu_disable_count);
	if (!--(*count))
		pmu->pmu_enable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_enable);

/* ---- default callbacks ------------------------------------------------- */

/*
 * A PMU without transactions: the group is added event by event with the
 * PMU disabled, so the hardware sees it all at once.
 */
static void perf_pmu_nop_start_txn(struct pmu *pmu, unsigned int flags)
{
	perf_pmu_disable(pmu);
}

static int perf_pmu_nop_commit_txn(struct pmu *pmu)
{
	perf_pmu_enable(pmu);
	return 0;
}

static void perf_pmu_nop_cancel_txn(struct pmu *pmu)
{
	perf_pmu_enable(pmu);
}

/* ... and one whose disable does nothing has nothing to do around it */
static void perf_pmu_empty_start_txn(struct pmu *pmu, unsigned int flags)
{
}

static int perf_pmu_empty_commit_txn(struct pmu *pmu)
{
	return 0;
}

static int perf_event_idx_default(struct perf_event *event)
{
	return 0;
}

static void perf_pmu_set_defaults(struct pmu *pmu)
{
	if (!pmu->pmu_enable)
		pmu->pmu_enable = perf_pmu_nop_void;
	if (!pmu->pmu_disable)
		pmu->pmu_disable = perf_pmu_nop_void;
	if (!pmu->start_txn && perf_pmu_disable_is_nop(pmu)) {
		pmu->start_txn = perf_pmu_empty_start_txn;
		pmu->commit_txn = perf_pmu_empty_commit_txn;
		pmu->cancel_txn = perf_pmu_nop_void;
	} else if (!pmu->start_txn) {
		pmu->start_txn = perf_pmu_nop_start_txn;
		pmu->commit_txn = perf_pmu_nop_commit_txn;
		pmu->cancel_txn = perf_pmu_nop_cancel_txn;
	}
	if (!pmu->event_idx)
		pmu->event_idx = perf_event_idx_default;
	if (!pmu->hrtimer_interval_ms && pmu->task_ctx_nr != perf_sw_context)
		pmu->hrtimer_interval_ms = PERF_MUX_TICK_MS;
}

/* ---- sysfs ----------------------------------------------------------------- */

ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	if (pmu_attr->event_str)
		return sysfs_emit(page, "%s\n", pmu_attr->event_str);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);

static ssize_t type_show(struct device *dev, struct device_attribute *attr, char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", pmu->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t nr_addr_filters_show(struct device *dev, struct device_attribute *attr,
				    char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%u\n", pmu->nr_addr_filters);
}
static DEVICE_ATTR_RO(nr_addr_filters);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr, char *page)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(page, "%d\n", READ_ONCE(pmu->hrtimer_interval_ms));
}

static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_get_drvdata(dev);
	int ms, ret;

	ret = kstrtoint(buf, 0, &ms);
	if (ret)
		return ret;
	if (ms < 1)
		return -EINVAL;

	mutex_lock(&perf_mux_interval_mutex);
	if (ms != pmu->hrtimer_interval_ms)
		perf_cpu_pmu_set_interval(pmu, ms);
	mutex_unlock(&perf_mux_interval_mutex);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static struct attribute *pmu_dev_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	&dev_attr_nr_addr_filters.attr,
	NULL,
};

static umode_t pmu_dev_attr_visible(struct kobject *kobj, struct attribute *a, int n)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	if (a == &dev_attr_nr_addr_filters.attr && !pmu->nr_addr_filters)
		return 0;
	return a->mode;
}

static const struct attribute_group pmu_dev_attr_group = {
	.attrs		= pmu_dev_attrs,
	.is_visible	= pmu_dev_attr_visible,
};

static const struct attribute_group *pmu_dev_groups[] = {
	&pmu_dev_attr_group,
	NULL,
};

static struct bus_type pmu_bus = {
	.name		= "event_source",
	.dev_groups	= pmu_dev_groups,
};

static void pmu_dev_release(struct device *dev)
{
	kfree(dev);
}

/* Create the sysfs device of a named PMU (pmus_lock held, bus running). */
static int perf_pmu_dev_add(struct pmu *pmu)
{
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	device_initialize(dev);
	dev->release = pmu_dev_release;
	dev->bus = &pmu_bus;
	dev->groups = pmu->attr_groups;
	dev_set_drvdata(dev, pmu);
	ret = dev_set_name(dev, "%s", pmu->name);
	if (ret)
		goto put;

	ret = device_add(dev);
	if (ret)
		goto put;

	if (pmu->attr_update) {
		ret = sysfs_update_groups(&dev->kobj, pmu->attr_update);
		if (ret) {
			device_del(dev);
			goto put;
		}
	}
	pmu->dev = dev;
	return 0;

put:
	put_device(dev);
	return ret;
}

static void perf_pmu_dev_del(struct pmu *pmu)
{
	struct device *dev = pmu->dev;

	if (!dev)
		return;
	pmu->dev = NULL;
	device_del(dev);
	put_device(dev);
}

/* PMUs registered before the bus existed get their devices here. */
int __init perf_pmu_sysfs_init(void)
{
	struct pmu *pmu;
	int ret;

	mutex_lock(&pmus_lock);
	ret = bus_register(&pmu_bus);
	if (ret)
		goto unlock;

	list_for_each_entry(pmu, &pmus, entry) {
		if (!pmu->name || pmu->dev)
			continue;
		ret = perf_pmu_dev_add(pmu);
		WARN(ret, "perf: no sysfs device for PMU %s (%d)\n", pmu->name, ret);
	}
	pmu_bus_running = true;
	ret = 0;
unlock:
	mutex_unlock(&pmus_lock);
	return ret;
}
device_initcall(perf_pmu_sysfs_init);

/* ---- registration ---------------------------------------------------------- */

static int perf_pmu_alloc_percpu(struct pmu *pmu)
{
	int cpu;

	pmu->pmu_disable_count = alloc_percpu(int);
	if (!pmu->pmu_disable_count)
		return -ENOMEM;

	pmu->cpu_pmu = alloc_percpu(struct perf_cpu_pmu);
	if (!pmu->cpu_pmu) {
		free_percpu(pmu->pmu_disable_count);
		pmu->pmu_disable_count = NULL;
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		perf_cpu_pmu_init(per_cpu_ptr(pmu->cpu_pmu, cpu), pmu, cpu);
	return 0;
}

static void perf_pmu_free_percpu(struct pmu *pmu)
{
	int cpu;

	if (pmu->cpu_pmu) {
		/* the multiplexing timers must not fire into freed memory */
		for_each_possible_cpu(cpu)
			hrtimer_cancel(&per_cpu_ptr(pmu->cpu_pmu, cpu)->timer);
		free_percpu(pmu->cpu_pmu);
		pmu->cpu_pmu = NULL;
	}
	free_percpu(pmu->pmu_disable_count);
	pmu->pmu_disable_count = NULL;
}

/*
 * Register @pmu under @name.  @type >= 0 is the fixed type the PMU answers
 * to (PERF_TYPE_SOFTWARE, _TRACEPOINT, _BREAKPOINT, or _RAW for the CPU's
 * PMU); @type < 0 asks for a dynamic type, PERF_TYPE_MAX or above.  A PMU
 * without a name (the cpu-clock and task-clock PMUs) has no sysfs device
 * and no type (-1): perf_init_event() finds it by walking the PMUs, and
 * the dynamic types stay numbered as in 6.1.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int ret;

	if (WARN_ON_ONCE(!pmu->event_init))
		return -EINVAL;

	mutex_lock(&pmus_lock);

	if (!name)
		ret = -1;
	else if (type >= 0)
		ret = idr_alloc(&pmu_idr, pmu, type, type + 1, GFP_KERNEL);
	else
		ret = idr_alloc(&pmu_idr, pmu, PERF_TYPE_MAX, 0, GFP_KERNEL);
	if (ret < 0 && name) {
		if (ret == -ENOSPC && type >= 0)
			ret = -EEXIST;
		goto unlock;
	}
	pmu->type = ret;
	pmu->name = name;
	pmu->dev = NULL;
	pmu->pmu_cpu_context = NULL;
	atomic_set(&pmu->exclusive_cnt, 0);
	perf_pmu_set_defaults(pmu);

	ret = perf_pmu_alloc_percpu(pmu);
	if (ret)
		goto free_idr;

	if (name && pmu_bus_running) {
		ret = perf_pmu_dev_add(pmu);
		if (ret)
			goto free_percpu;
	}

	/*
	 * The software PMUs (type PERF_TYPE_SOFTWARE, and the nameless clock
	 * PMUs that take its clock events) go first, as in 6.1: an event of
	 * that type that the "software" PMU turns down is claimed at once by
	 * the walk of perf_init_event().
	 */
	if (type == PERF_TYPE_SOFTWARE || !name)
		list_add_rcu(&pmu->entry, &pmus);
	else
		list_add_tail_rcu(&pmu->entry, &pmus);
	if (pmu->task_ctx_nr == perf_hw_context && !perf_hw_pmu)
		WRITE_ONCE(perf_hw_pmu, pmu);
	mutex_unlock(&pmus_lock);
	return 0;

free_percpu:
	perf_pmu_free_percpu(pmu);
free_idr:
	if (pmu->type >= 0)
		idr_remove(&pmu_idr, pmu->type);
unlock:
	mutex_unlock(&pmus_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/*
 * Events of the PMU must be gone (a PMU module holds a module reference
 * for each of its events, so it cannot unload before).
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	struct pmu *other;

	mutex_lock(&pmus_lock);
	list_del_rcu(&pmu->entry);
	if (pmu->type >= 0)
		idr_remove(&pmu_idr, pmu->type);
	if (perf_hw_pmu == pmu) {
		WRITE_ONCE(perf_hw_pmu, NULL);
		list_for_each_entry(other, &pmus, entry) {
			if (other->task_ctx_nr == perf_hw_context) {
				WRITE_ONCE(perf_hw_pmu, other);
				break;
			}
		}
	}
	mutex_unlock(&pmus_lock);

	/* perf_init_event() may still be looking at it */
	synchronize_srcu(&pmus_srcu);

	mutex_lock(&pmus_lock);
	perf_pmu_dev_del(pmu);
	mutex_unlock(&pmus_lock);
	perf_pmu_free_percpu(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

struct pmu *perf_hw_context_pmu(void)
{
	return READ_ONCE(perf_hw_pmu);
}

/* ---- choosing the PMU of an event ----------------------------------------- */

static int perf_check_init_caps(struct pmu *pmu, struct perf_event *event)
{
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) && event_has_any_exclude_flag(event))
		return -EINVAL;
	if ((pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT) && is_sampling_event(event))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Offer @event to @pmu.  On success event->pmu is set and a reference on
 * the PMU's module is held for the event; on failure neither.
 */
static int perf_try_init_event(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_context *ctx = NULL;
	int ret;

	if (!try_module_get(pmu->module))
		return -ENODEV;

	/*
	 * Drivers validate a sibling against its group (the leader's
	 * sibling_list): keep the group still while they look.  An inherited
	 * sibling's group is in a new child context that fork holds locked
	 * and nobody else sees yet (inherit.c): its mutex is ours already.
	 * An open may hold another context's mutex, hence the nesting.
	 */
	if (leader != event && pmu->task_ctx_nr != perf_sw_context) {
		ctx = READ_ONCE(leader->ctx);
		if (ctx && event->parent) {
			lockdep_assert_held(&ctx->mutex);
			ctx = NULL;
		} else if (ctx) {
			mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
		}
	}

	event->pmu = pmu;
	ret = pmu->event_init(event);

	if (ctx)
		mutex_unlock(&ctx->mutex);

	if (!ret) {
		ret = perf_check_init_caps(pmu, event);
		if (ret && event->destroy)
			event->destroy(event);
	}
	if (ret) {
		/* a refusing driver cleaned up after itself */
		event->destroy = NULL;
		event->pmu = NULL;
		module_put(pmu->module);
	}
	return ret;
}

static struct pmu *perf_pmu_find_type(unsigned int type)
{
	struct pmu *pmu;

	rcu_read_lock();
	pmu = idr_find(&pmu_idr, type);
	rcu_read_unlock();
	return pmu;
}

/*
 * 6.1 rules: an inherited event first goes to its parent's PMU.
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE name the PMU in config bits
 * 63-32 (only one with PERF_PMU_CAP_EXTENDED_HW_TYPE takes them, with
 * those bits cleared), else they go to the PERF_TYPE_RAW PMU.  Any other
 * type goes to the PMU of that type.  When that PMU says -ENOENT (not
 * mine), or there is none, every PMU is asked in registration order until
 * one answers something else.
 */
int perf_init_event(struct perf_event *event)
{
	struct pmu *pmu, *tried = NULL;
	unsigned int type;
	int idx, ret;

	idx = srcu_read_lock(&pmus_srcu);

	if (event->parent && event->parent->pmu) {
		ret = perf_try_init_event(event->parent->pmu, event);
		if (!ret)
			goto out;
	}

	type = event->attr.type;
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) {
		type = event->attr.config >> PERF_PMU_TYPE_SHIFT;
		if (type) {
			event->attr.config &= PERF_HW_EVENT_MASK;
			pmu = perf_pmu_find_type(type);
			ret = -ENOENT;
			if (pmu && (pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
				ret = perf_try_init_event(pmu, event);
			goto out;
		}
		type = PERF_TYPE_RAW;
	}

	pmu = perf_pmu_find_type(type);
	if (pmu) {
		ret = perf_try_init_event(pmu, event);
		if (ret != -ENOENT)
			goto out;
		tried = pmu;
	}

	ret = -ENOENT;
	list_for_each_entry_srcu(pmu, &pmus, entry, srcu_read_lock_held(&pmus_srcu)) {
		if (pmu == tried)
			continue;
		ret = perf_try_init_event(pmu, event);
		if (ret != -ENOENT)
			break;
	}
out:
	srcu_read_unlock(&pmus_srcu, idx);
	return ret;
}

/* ---- boot ------------------------------------------------------------------ */

void __init perf_event_init(void)
{
	int ret;

	perf_event_cache_init();
	perf_contexts_init();
	perf_sw_pmus_init();
	perf_tp_pmus_init();
	ret = init_hw_breakpoint();
	WARN(ret, "perf: hw_breakpoint initialization failed: %d\n", ret);
	perf_output_init();
	perf_hotplug_init();
}
