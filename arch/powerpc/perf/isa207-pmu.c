// SPDX-License-Identifier: GPL-2.0
/*
 * Registration of an ISA 2.07 / 3.0 / 3.1 model with the Book3S framework:
 * one struct power_pmu whose callbacks apply the shared code to the model
 * chosen at boot, and the sysfs format/, events/ and caps/ groups built
 * from the model's tables (events/: its generic and cache events by their
 * perf names, and its extra events).
 *
 * Locking: isa207_register() runs once at boot (__init) before the PMU is
 * registered; everything it sets is read-only afterwards.
 */
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <asm/cputable.h>
#include <asm/reg.h>

#include "isa207.h"
#include "internal.h"

static const struct isa207_model *isa207_cur __ro_after_init;

static int cb_get_constraint(u64 event, unsigned long *maskp,
			     unsigned long *valp, u64 config1)
{
	return isa207_constraint(isa207_cur, event, config1, maskp, valp);
}

static int cb_get_alternatives(u64 event, unsigned int flags, u64 alt[])
{
	return isa207_alternatives(isa207_cur, event, flags, alt);
}

static int cb_compute_mmcr(u64 event[], int n_ev, unsigned int hwc[],
			   struct mmcr_regs *mmcr,
			   struct perf_event *pevents[], u32 flags)
{
	return isa207_mmcr(isa207_cur, cpu_has_feature(CPU_FTR_HVMODE),
			   event, n_ev, hwc, mmcr, pevents, flags);
}

static int cb_check_attr_config(struct perf_event *ev)
{
	return isa207_check_config(isa207_cur, ev->attr.config);
}

static void cb_get_mem_data_src(union perf_mem_data_src *dsrc, u32 flags,
				struct pt_regs *regs)
{
	if (!(flags & PPMU_HAS_SIER)) {
		dsrc->val = 0;
		return;
	}
	dsrc->val = isa207_data_src(isa207_cur, mfspr(SPRN_SIER),
				    mfspr(SPRN_MMCRA));
}

static void cb_get_mem_weight(u64 *weight, u64 type)
{
	u64 sier2 = 0;

	if (isa207_cur->isa == ISA207_V31)
		sier2 = mfspr(SPRN_SIER2);
	isa207_weight(isa207_cur, weight, type, mfspr(SPRN_MMCRA),
		      mfspr(SPRN_SIER), sier2);
}

static u64 cb_bhrb_filter_map(u64 branch_sample_type)
{
	return isa207_bhrb_filter(isa207_cur, branch_sample_type);
}

static void cb_config_bhrb(u64 filter)
{
	filter &= ISA207_BHRB_IFM_MASK;
	mtspr(SPRN_MMCRA, mfspr(SPRN_MMCRA) | filter);
}

ssize_t isa207_format_show(struct device *dev, struct device_attribute *attr,
			   char *page)
{
	struct dev_ext_attribute *ea;

	ea = container_of(attr, struct dev_ext_attribute, attr);
	return sysfs_emit(page, "%s\n", (const char *)ea->var);
}

/* perf's names of the generic events (tools/perf: parse-events) */
static const char * const isa207_generic_names[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cpu-cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branch-instructions",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= "ref-cycles",
};

/* ... and of the caches and operations: "L1-dcache-load-misses" */
static const char * const isa207_cache_names[PERF_COUNT_HW_CACHE_MAX] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char * const isa207_op_names[PERF_COUNT_HW_CACHE_OP_MAX][2] = {
	{ "loads", "load-misses" },
	{ "stores", "store-misses" },
	{ "prefetches", "prefetch-misses" },
};

static const char * __init isa207_cache_name(int t, int op, int res)
{
	return kasprintf(GFP_KERNEL, "%s-%s", isa207_cache_names[t],
			 isa207_op_names[op][res]);
}

/*
 * The events/ entries: every generic event of the model's table, every
 * cache event of its table but the L1 instruction cache's writes (6.1
 * lists none: the entries are the ones its drivers listed by hand), and
 * the model's extra events.  Built once at boot, never freed.
 */
static struct attribute ** __init isa207_events(const struct isa207_model *m)
{
	struct perf_pmu_events_attr *ev;
	struct attribute **ptrs;
	int t, op, res, i, n = 0, n_generic = 0, max;
	u64 code;

	max = m->n_generic + PERF_COUNT_HW_CACHE_MAX *
	      PERF_COUNT_HW_CACHE_OP_MAX * PERF_COUNT_HW_CACHE_RESULT_MAX;
	ev = kcalloc(max, sizeof(*ev), GFP_KERNEL);
	ptrs = kcalloc(max + m->n_extra_events + 1, sizeof(*ptrs), GFP_KERNEL);
	if (!ev || !ptrs)
		goto nomem;

	for (i = 0; i < m->n_generic && i < PERF_COUNT_HW_MAX; i++) {
		if (m->generic_events[i] <= 0)
			continue;
		ev[n].attr.attr.name = isa207_generic_names[i];
		ev[n].id = m->generic_events[i];
		n++;
	}
	n_generic = n;
	for (t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (t == PERF_COUNT_HW_CACHE_L1I &&
			    op == PERF_COUNT_HW_CACHE_OP_WRITE)
				continue;
			for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				code = (*m->cache_events)[t][op][res];
				if (!code || code == ISA207_CACHE_NONSENSE)
					continue;
				ev[n].attr.attr.name = isa207_cache_name(t, op, res);
				if (!ev[n].attr.attr.name)
					goto nomem;
				ev[n].id = code;
				n++;
			}
		}
	}
	for (i = 0; i < n; i++) {
		sysfs_attr_init(&ev[i].attr.attr);
		ev[i].attr.attr.mode = 0444;
		ev[i].attr.show = power_events_sysfs_show;
		ptrs[i] = &ev[i].attr.attr;
	}
	for (i = 0; i < m->n_extra_events; i++)
		ptrs[n + i] = &m->extra_events[i].attr.attr;
	return ptrs;

nomem:
	/* no events/ then */
	if (ev)
		for (i = n_generic; i < n; i++)
			kfree(ev[i].attr.attr.name);
	kfree(ptrs);
	kfree(ev);
	return NULL;
}

static struct attribute_group isa207_format_group = { .name = "format" };
static struct attribute_group isa207_events_group = { .name = "events" };

/* Empty: the framework adds caps/pmu_name to it (attr_update). */
static struct attribute *isa207_caps_attrs[] = { NULL };
static struct attribute *isa207_no_attrs[] = { NULL };
static struct attribute_group isa207_caps_group = {
	.name = "caps",
	.attrs = isa207_caps_attrs,
};

static const struct attribute_group *isa207_groups[] = {
	&isa207_format_group,
	&isa207_events_group,
	&isa207_caps_group,
	NULL,
};

static struct power_pmu isa207_pmu = {
	.n_counter		= 6,
	.add_fields		= ISA207_ADD_FIELDS,
	.test_adder		= ISA207_TEST_ADDER,
	.compute_mmcr		= cb_compute_mmcr,
	.get_constraint		= cb_get_constraint,
	.get_alternatives	= cb_get_alternatives,
	.disable_pmc		= isa207_disable_pmc,
	.attr_groups		= isa207_groups,
};

/**
 * isa207_register - register model @m as the CPU's PMU
 * @m: the model, fully set up
 *
 * Return: 0, or the error of register_power_pmu().
 */
int __init isa207_register(const struct isa207_model *m)
{
	struct power_pmu *p = &isa207_pmu;
	int i, rc;

	for (i = 0; i < m->n_formats; i++)
		m->format_ptrs[i] = &m->formats[i].attr.attr;
	m->format_ptrs[m->n_formats] = NULL;
	isa207_format_group.attrs = m->format_ptrs;
	isa207_events_group.attrs = isa207_events(m);
	if (!isa207_events_group.attrs)
		isa207_events_group.attrs = isa207_no_attrs;

	p->name = m->name;
	p->flags = m->flags;
	p->capabilities = m->capabilities;
	p->max_alternatives = m->max_alternatives;
	p->n_generic = m->n_generic;
	p->generic_events = m->generic_events;
	p->cache_events = m->cache_events;
	p->blacklist_ev = m->blacklist;
	p->n_blacklist_ev = m->n_blacklist;
	if (m->l2l3_pmc4_group) {
		p->group_constraint_mask = ISA207_CN_L2L3_PMC4;
		p->group_constraint_val = ISA207_CN_L2L3_PMC4;
	}
	if (m->sier_decode) {
		p->get_mem_data_src = cb_get_mem_data_src;
		p->get_mem_weight = cb_get_mem_weight;
	}
	if (m->n_bhrb_rules) {
		p->bhrb_nr = m->bhrb_nr;
		p->bhrb_filter_map = cb_bhrb_filter_map;
		p->config_bhrb = cb_config_bhrb;
	}
	if (m->reserved_samples)
		p->check_attr_config = cb_check_attr_config;

	isa207_cur = m;
	if (m->ext_regs_mask)
		PERF_REG_EXTENDED_MASK = m->ext_regs_mask;

	rc = register_power_pmu(p);
	if (rc)
		return rc;

	/* every ISA 2.07+ PMU supports event-based branches */
	cur_cpu_spec->cpu_user_features2 |= PPC_FEATURE2_EBB;
	return 0;
}
