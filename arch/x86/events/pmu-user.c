// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: reading counters from user space.
 *
 * A task that mmap()s an event's first page may read the counter with
 * rdpmc: the user page says which counter (index, 1-based; 0 if none),
 * its width and how to turn TSC cycles into the core's time base.
 * CR4.PCE allows rdpmc; it is set for an mm while one of its tasks has
 * such an event mapped (the tlb code sets it on every switch to that
 * mm), or always, or never, by the "rdpmc" sysfs knob:
 *   0  never (rdpmc_never_available_key)
 *   1  for tasks with a mapped event (the default)
 *   2  always (rdpmc_always_available_key; the counters are not cleared)
 *
 * Locking: event_mapped()/unmapped() run with mmap_lock held for write,
 * so one mm's count never races with itself; the knob is serialised by
 * its own mutex.
 */
#include <linux/device.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/mmu_context.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>
#include "framework.h"

DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

void x86_pmu_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;

	mmap_assert_write_locked(mm);
	/* the first mapping turns CR4.PCE on wherever the mm runs */
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

void x86_pmu_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;

	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/* The user page's index: rdpmc's ECX + 1, or 0 when rdpmc is not offered. */
int x86_pmu_event_idx(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;
	if (is_metric_idx(hwc->idx))
		return INTEL_PMC_FIXED_RDPMC_METRICS + 1;
	return hwc->event_base_rdpmc + 1;
}

/*
 * For in-kernel rdpmc users (resctrl pseudo-locking): the counter an
 * event is on.  Only meaningful with interrupts off, after checking the
 * event is active here (perf_event_read_local()).
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return event->hw.event_base_rdpmc;
}

void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct cyc2ns_data data;
	u64 offset;

	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_rdpmc = !!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT);
	userpg->pmc_width = x86_pmu.cntval_bits;

	/* user time conversion needs the TSC-based, stable sched_clock */
	if (!using_native_sched_clock() || !sched_clock_stable())
		return;

	cyc2ns_read_begin(&data);
	offset = data.cyc2ns_offset + __sched_clock_offset;

	/* enabled/running times are kept in local_clock() */
	userpg->cap_user_time = 1;
	userpg->time_mult = data.cyc2ns_mul;
	userpg->time_shift = data.cyc2ns_shift;
	userpg->time_offset = offset - now;

	/* time_zero is the record time base only without use_clockid */
	if (!event->attr.use_clockid) {
		userpg->cap_user_time_zero = 1;
		userpg->time_zero = offset;
	}
	cyc2ns_read_end();
}

static ssize_t rdpmc_show(struct device *cdev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", x86_pmu.attr_rdpmc);
}

static ssize_t rdpmc_store(struct device *cdev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	static DEFINE_MUTEX(rdpmc_mutex);
	unsigned long val;
	ssize_t err;

	err = kstrtoul(buf, 0, &val);
	if (err)
		return err;
	if (val > 2)
		return -EINVAL;
	if (x86_pmu.attr_rdpmc_broken)
		return -ENOTSUPP;

	mutex_lock(&rdpmc_mutex);
	if (val != x86_pmu.attr_rdpmc) {
		/* leaving or entering "never" and "always" */
		if (val == 0)
			static_branch_inc(&rdpmc_never_available_key);
		else if (x86_pmu.attr_rdpmc == 0)
			static_branch_dec(&rdpmc_never_available_key);
		if (val == 2)
			static_branch_inc(&rdpmc_always_available_key);
		else if (x86_pmu.attr_rdpmc == 2)
			static_branch_dec(&rdpmc_always_available_key);

		on_each_cpu(cr4_update_pce, NULL, 1);
		x86_pmu.attr_rdpmc = val;
	}
	mutex_unlock(&rdpmc_mutex);
	return count;
}

/* root only: it changes what every task may read */
DEVICE_ATTR_ADMIN_RW(rdpmc);
