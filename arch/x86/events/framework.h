/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 PMU framework's private interface: what its files
 * (arch/x86/events/pmu-*.c, callchain.c) share with each other and
 * nobody else.  Vendor drivers (intel/, amd/, zhaoxin/) and the kept 6.1
 * drivers (PEBS, LBR, PT, uncore, ...) see only perf_event.h.
 *
 * Map of the framework:
 *   pmu-init.c        boot (vendor probe, sanity check of the counters),
 *                     CPU hotplug, static calls, the API KVM uses
 *   pmu-event-init.c  attr -> hw config, validation, hardware reservation
 *   pmu-schedule.c    event collection and counter assignment
 *   pmu-ops.c         the struct pmu callbacks: add/del/start/stop/read,
 *                     enable/disable and transactions
 *   pmu-counters.c    counter arithmetic: update, period, enable/disable
 *   pmu-nmi.c         the performance monitoring interrupt (an NMI)
 *   pmu-sysfs.c       events/, format/, caps/ and their show helpers
 *   pmu-user.c        rdpmc from user space and the mmap'ed user page
 *   callchain.c       kernel/user callchains, sample IP and misc flags
 *
 * Locking: everything per CPU (cpu_hw_events) is touched only on its CPU
 * with interrupts off or from the PMI; x86_pmu is written at boot only.
 */
#ifndef _X86_EVENTS_FRAMEWORK_H
#define _X86_EVENTS_FRAMEWORK_H

#include <linux/static_call.h>
#include "perf_event.h"

/* The "cpu" PMU (the template of every hybrid PMU). */
extern struct pmu x86_core_pmu;

/* Events that share the PMI: the NMI handler ignores NMIs without them. */
extern atomic_t x86_pmu_active_events;

extern struct attribute_group x86_pmu_format_group;
extern struct attribute_group x86_pmu_events_group;
extern const struct attribute_group *x86_pmu_attr_groups[];
extern struct attribute *x86_pmu_empty_attrs[];

static inline bool x86_pmu_initialized(void)
{
	return !!x86_pmu.handle_irq;
}

DECLARE_STATIC_CALL(x86_pmu_handle_irq, *x86_pmu.handle_irq);
DECLARE_STATIC_CALL(x86_pmu_disable_all, *x86_pmu.disable_all);
DECLARE_STATIC_CALL(x86_pmu_enable_all, *x86_pmu.enable_all);
DECLARE_STATIC_CALL(x86_pmu_enable, *x86_pmu.enable);
DECLARE_STATIC_CALL(x86_pmu_disable, *x86_pmu.disable);
DECLARE_STATIC_CALL(x86_pmu_assign, *x86_pmu.assign);
DECLARE_STATIC_CALL(x86_pmu_add, *x86_pmu.add);
DECLARE_STATIC_CALL(x86_pmu_del, *x86_pmu.del);
DECLARE_STATIC_CALL(x86_pmu_read, *x86_pmu.read);
DECLARE_STATIC_CALL(x86_pmu_limit_period, *x86_pmu.limit_period);
DECLARE_STATIC_CALL(x86_pmu_schedule_events, *x86_pmu.schedule_events);
DECLARE_STATIC_CALL(x86_pmu_get_event_constraints, *x86_pmu.get_event_constraints);
DECLARE_STATIC_CALL(x86_pmu_put_event_constraints, *x86_pmu.put_event_constraints);
DECLARE_STATIC_CALL(x86_pmu_start_scheduling, *x86_pmu.start_scheduling);
DECLARE_STATIC_CALL(x86_pmu_commit_scheduling, *x86_pmu.commit_scheduling);
DECLARE_STATIC_CALL(x86_pmu_stop_scheduling, *x86_pmu.stop_scheduling);
DECLARE_STATIC_CALL(x86_pmu_sched_task, *x86_pmu.sched_task);
DECLARE_STATIC_CALL(x86_pmu_swap_task_ctx, *x86_pmu.swap_task_ctx);

/* pmu-event-init.c */
int x86_pmu_event_init(struct perf_event *event);
bool is_x86_event(struct perf_event *event);

/* pmu-schedule.c */
int x86_collect_events(struct cpu_hw_events *cpuc, struct perf_event *leader,
		       bool with_siblings);
void x86_forget_metric_event(struct cpu_hw_events *cpuc,
			     struct perf_event *event);

/* pmu-counters.c */
void x86_assign_hw_event(struct perf_event *event,
			 struct cpu_hw_events *cpuc, int i);

/* pmu-ops.c */
void x86_pmu_start(struct perf_event *event, int flags);

/* pmu-nmi.c */
void x86_pmu_nmi_init(void);

/* pmu-user.c */
void x86_pmu_event_mapped(struct perf_event *event, struct mm_struct *mm);
void x86_pmu_event_unmapped(struct perf_event *event, struct mm_struct *mm);
int x86_pmu_event_idx(struct perf_event *event);
extern struct device_attribute dev_attr_rdpmc;

#endif /* _X86_EVENTS_FRAMEWORK_H */
