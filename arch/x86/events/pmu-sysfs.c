// SPDX-License-Identifier: GPL-2.0
/*
 * x86 PMU framework: the PMU's sysfs directory.
 *
 * /sys/bus/event_source/devices/cpu (or cpu_core, cpu_atom) holds:
 *   events/   the generic events the driver maps, as "event=0x..,umask=.."
 *             (a driver may add its own through x86_pmu.attr_update);
 *   format/   the driver's config bit fields;
 *   caps/     max_precise (and the driver's own caps);
 *   rdpmc     the user rdpmc policy (pmu-user.c).
 * The show helpers here are shared with the drivers: a plain event, an
 * event that differs with Hyper-Threading, and one whose encoding
 * differs per core type of a hybrid part.
 *
 * Locking: read-only after boot.
 */
#include <linux/device.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include "framework.h"

ssize_t events_sysfs_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);
	u64 config = 0;

	/* a fixed string wins over the generic event's encoding */
	if (pmu_attr->event_str)
		return sprintf(page, "%s\n", pmu_attr->event_str);
	if (pmu_attr->id < x86_pmu.max_events)
		config = x86_pmu.event_map(pmu_attr->id);
	return x86_pmu.events_sysfs_show(page, config);
}
EXPORT_SYMBOL_GPL(events_sysfs_show);

/*
 * An event whose encoding depends on SMT: the pessimistic one whenever
 * a core can run more than one thread (a user tool re-reads it if a
 * sibling comes online).
 */
ssize_t events_ht_sysfs_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	struct perf_pmu_events_ht_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_ht_attr, attr);

	return sprintf(page, "%s", topology_max_smt_threads() > 1 ?
		       pmu_attr->event_str_ht : pmu_attr->event_str_noht);
}

/*
 * An event of several core types: event_str holds one encoding per
 * hybrid PMU that has it, in hybrid PMU order, separated by ';'.
 */
ssize_t events_hybrid_sysfs_show(struct device *dev,
				 struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_hybrid_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_hybrid_attr, attr);
	struct x86_hybrid_pmu *pmu;
	const char *str = pmu_attr->event_str, *end;
	int i;

	if (hweight64(pmu_attr->pmu_type) == 1)
		return sprintf(page, "%s", str);

	pmu = container_of(dev_get_drvdata(dev), struct x86_hybrid_pmu, pmu);
	for (i = 0; i < x86_pmu.num_hybrid_pmus; i++) {
		u8 type = x86_pmu.hybrid_pmu[i].cpu_type;

		if (!(type & pmu_attr->pmu_type))
			continue;
		if (type & pmu->cpu_type) {
			end = strchr(str, ';');
			if (!end)
				return sprintf(page, "%s", str);
			return sprintf(page, "%.*s", (int)(end - str), str);
		}
		str = strchr(str, ';');
		if (!str)
			return 0;
		str++;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(events_hybrid_sysfs_show);

/* "event=0x3c,umask=0x01,edge,pc,any,inv,cmask=0x01", unset fields left out */
ssize_t x86_event_sysfs_show(char *page, u64 config, u64 event)
{
	u64 umask = (config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	u64 cmask = (config & ARCH_PERFMON_EVENTSEL_CMASK) >> 24;
	ssize_t len;

	len = sprintf(page, "event=0x%02llx", event);
	if (umask)
		len += sprintf(page + len, ",umask=0x%02llx", umask);
	if (config & ARCH_PERFMON_EVENTSEL_EDGE)
		len += sprintf(page + len, ",edge");
	if (config & ARCH_PERFMON_EVENTSEL_PIN_CONTROL)
		len += sprintf(page + len, ",pc");
	if (config & ARCH_PERFMON_EVENTSEL_ANY)
		len += sprintf(page + len, ",any");
	if (config & ARCH_PERFMON_EVENTSEL_INV)
		len += sprintf(page + len, ",inv");
	if (cmask)
		len += sprintf(page + len, ",cmask=0x%02llx", cmask);
	len += sprintf(page + len, "\n");
	return len;
}

/* A generic event's file: its name and PERF_COUNT_HW_* id. */
#define X86_GENERIC_EVENT(_var, _name, _id)				\
static struct perf_pmu_events_attr _var = {				\
	.attr = {							\
		.attr = { .name = _name, .mode = 0444 },		\
		.show = events_sysfs_show,				\
	},								\
	.id = PERF_COUNT_HW_##_id,					\
}

X86_GENERIC_EVENT(ev_cycles, "cpu-cycles", CPU_CYCLES);
X86_GENERIC_EVENT(ev_instructions, "instructions", INSTRUCTIONS);
X86_GENERIC_EVENT(ev_cache_references, "cache-references", CACHE_REFERENCES);
X86_GENERIC_EVENT(ev_cache_misses, "cache-misses", CACHE_MISSES);
X86_GENERIC_EVENT(ev_branches, "branch-instructions", BRANCH_INSTRUCTIONS);
X86_GENERIC_EVENT(ev_branch_misses, "branch-misses", BRANCH_MISSES);
X86_GENERIC_EVENT(ev_bus_cycles, "bus-cycles", BUS_CYCLES);
X86_GENERIC_EVENT(ev_stalled_front, "stalled-cycles-frontend", STALLED_CYCLES_FRONTEND);
X86_GENERIC_EVENT(ev_stalled_back, "stalled-cycles-backend", STALLED_CYCLES_BACKEND);
X86_GENERIC_EVENT(ev_ref_cycles, "ref-cycles", REF_CPU_CYCLES);

/* In PERF_COUNT_HW_* order: is_visible() indexes the event map with it. */
static struct attribute *x86_pmu_generic_events[] = {
	&ev_cycles.attr.attr,
	&ev_instructions.attr.attr,
	&ev_cache_references.attr.attr,
	&ev_cache_misses.attr.attr,
	&ev_branches.attr.attr,
	&ev_branch_misses.attr.attr,
	&ev_bus_cycles.attr.attr,
	&ev_stalled_front.attr.attr,
	&ev_stalled_back.attr.attr,
	&ev_ref_cycles.attr.attr,
	NULL,
};

struct attribute *x86_pmu_empty_attrs[] = { NULL };

/* Only the generic events this PMU maps (or names by string). */
static umode_t x86_pmu_event_visible(struct kobject *kobj,
				     struct attribute *attr, int idx)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	if (idx >= x86_pmu.max_events)
		return 0;
	return pmu_attr->event_str || x86_pmu.event_map(idx) ? attr->mode : 0;
}

struct attribute_group x86_pmu_events_group __ro_after_init = {
	.name		= "events",
	.attrs		= x86_pmu_generic_events,
	.is_visible	= x86_pmu_event_visible,
};

/* The driver's config fields, set at boot (pmu-init.c). */
struct attribute_group x86_pmu_format_group __ro_after_init = {
	.name		= "format",
};

static ssize_t max_precise_show(struct device *cdev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", x86_pmu_max_precise());
}
static DEVICE_ATTR_RO(max_precise);

static struct attribute *x86_pmu_caps_attrs[] = {
	&dev_attr_max_precise.attr,
	NULL,
};

static struct attribute_group x86_pmu_caps_group __ro_after_init = {
	.name		= "caps",
	.attrs		= x86_pmu_caps_attrs,
};

static struct attribute *x86_pmu_top_attrs[] = {
	&dev_attr_rdpmc.attr,
	NULL,
};

static struct attribute_group x86_pmu_top_group __ro_after_init = {
	.attrs		= x86_pmu_top_attrs,
};

const struct attribute_group *x86_pmu_attr_groups[] = {
	&x86_pmu_top_group,
	&x86_pmu_format_group,
	&x86_pmu_events_group,
	&x86_pmu_caps_group,
	NULL,
};
