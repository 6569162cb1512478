// SPDX-License-Identifier: GPL-2.0
/*
 * Intel core PMU: what /sys/bus/event_source/devices/cpu* shows.
 *
 *   format/   the event select fields (AnyThread from v3 unless v5 says
 *             it is deprecated), plus per model offcore_rsp, ldlat,
 *             in_tx/in_tx_cp (with RTM) and frontend
 *   events/   per model: topdown events, mem-loads/mem-stores (with
 *             PEBS), TSX events (with RTM)
 *   caps/     pmu_name, branches (LBR depth)
 *   freeze_on_smi, allow_tsx_force_abort (when the TFA workaround runs)
 *   cpus      (hybrid PMUs: the CPUs of that core type)
 *
 * A model picks one row of intel_sysfs_rows[]; hybrid parts use the
 * hybrid attributes, whose visibility depends on the core type.
 *
 * Locking: the tables are set at boot.  The knobs: freeze_on_smi under
 * its mutex, allow_tsx_force_abort is a single flag read by scheduling.
 */
#include <linux/perf_event.h>
#include <linux/device.h>
#include <linux/cpu.h>
#include "core.h"

char intel_pmu_name[30];

/*
 * Event attributes named by string (the sysfs names have '-' and '.').
 * Shown by the framework's events_*sysfs_show() helpers.
 */
#define INTEL_EV(var, sysname, str)					\
static struct perf_pmu_events_attr intel_ev_##var = {			\
	.attr = { .attr = { .name = sysname, .mode = 0444 },		\
		  .show = events_sysfs_show },				\
	.event_str = str,						\
}

#define INTEL_EV_HT(var, sysname, noht, ht)				\
static struct perf_pmu_events_ht_attr intel_ev_##var = {		\
	.attr = { .attr = { .name = sysname, .mode = 0444 },		\
		  .show = events_ht_sysfs_show },			\
	.event_str_noht = noht,						\
	.event_str_ht = ht,						\
}

#define INTEL_EV_HYBRID(var, sysname, str, types)			\
static struct perf_pmu_events_hybrid_attr intel_ev_##var = {		\
	.attr = { .attr = { .name = sysname, .mode = 0444 },		\
		  .show = events_hybrid_sysfs_show },			\
	.event_str = str,						\
	.pmu_type = types,						\
}

#define INTEL_EV_PTR(var)	(&intel_ev_##var.attr.attr)

/* ---- format/ ---- */

PMU_FORMAT_ATTR(event,		"config:0-7");
PMU_FORMAT_ATTR(umask,		"config:8-15");
PMU_FORMAT_ATTR(edge,		"config:18");
PMU_FORMAT_ATTR(pc,		"config:19");
PMU_FORMAT_ATTR(any,		"config:21");
PMU_FORMAT_ATTR(inv,		"config:23");
PMU_FORMAT_ATTR(cmask,		"config:24-31");
PMU_FORMAT_ATTR(in_tx,		"config:32");
PMU_FORMAT_ATTR(in_tx_cp,	"config:33");
PMU_FORMAT_ATTR(offcore_rsp,	"config1:0-63");
PMU_FORMAT_ATTR(ldlat,		"config1:0-15");
PMU_FORMAT_ATTR(frontend,	"config1:0-23");

/* Version 1, 2 and AnyThread-deprecated v5. */
struct attribute *intel_arch_formats_attr[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_pc.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	NULL,
};

/* Version 3 and later: AnyThread. */
struct attribute *intel_arch3_formats_attr[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_pc.attr,
	&format_attr_any.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	NULL,
};

static struct attribute *intel_format_offcore_ldlat[] = {
	&format_attr_offcore_rsp.attr,
	&format_attr_ldlat.attr,
	NULL,
};

static struct attribute *intel_format_offcore_ldlat_tsx[] = {
	&format_attr_in_tx.attr,
	&format_attr_in_tx_cp.attr,
	&format_attr_offcore_rsp.attr,
	&format_attr_ldlat.attr,
	NULL,
};

static struct attribute *intel_format_offcore[] = {
	&format_attr_offcore_rsp.attr,
	NULL,
};

static struct attribute *intel_format_frontend[] = {
	&format_attr_frontend.attr,
	NULL,
};

ssize_t intel_event_sysfs_show(char *page, u64 config)
{
	return x86_event_sysfs_show(page, config,
				    config & ARCH_PERFMON_EVENTSEL_EVENT);
}

/* ---- events/: topdown (TMA level 1 from generic events) ---- */

/*
 * Sandy Bridge to Skylake: everything in issue slots of a 4-wide core;
 * with HT the per-core sums are averaged (scale 2 instead of 4).
 */
/* CPU_CLK_UNHALTED.THREAD; ... .THREAD_ANY */
INTEL_EV_HT(td_total_slots, "topdown-total-slots",
	    "event=0x3c,umask=0x0", "event=0x3c,umask=0x0,any=1");
INTEL_EV_HT(td_total_slots_scale, "topdown-total-slots.scale", "4", "2");
/* UOPS_ISSUED.ANY */
INTEL_EV(td_slots_issued, "topdown-slots-issued", "event=0xe,umask=0x1");
/* UOPS_RETIRED.RETIRE_SLOTS */
INTEL_EV(td_slots_retired, "topdown-slots-retired", "event=0xc2,umask=0x2");
/* IDQ_UOPS_NOT_DELIVERED.CORE */
INTEL_EV(td_fetch_bubbles, "topdown-fetch-bubbles", "event=0x9c,umask=0x1");
/* INT_MISC.RECOVERY_CYCLES */
INTEL_EV_HT(td_recovery_bubbles, "topdown-recovery-bubbles",
	    "event=0xd,umask=0x3,cmask=1", "event=0xd,umask=0x3,cmask=1,any=1");
INTEL_EV_HT(td_recovery_bubbles_scale, "topdown-recovery-bubbles.scale",
	    "4", "2");
/* Skylake: INT_MISC.RECOVERY_CYCLES is umask 1. */
INTEL_EV_HT(td_recovery_bubbles_skl, "topdown-recovery-bubbles",
	    "event=0xd,umask=0x1,cmask=1", "event=0xd,umask=0x1,cmask=1,any=1");

static struct attribute *intel_td_snb[] = {
	INTEL_EV_PTR(td_slots_issued),
	INTEL_EV_PTR(td_slots_retired),
	INTEL_EV_PTR(td_fetch_bubbles),
	INTEL_EV_PTR(td_total_slots),
	INTEL_EV_PTR(td_total_slots_scale),
	INTEL_EV_PTR(td_recovery_bubbles),
	INTEL_EV_PTR(td_recovery_bubbles_scale),
	NULL,
};

static struct attribute *intel_td_skl[] = {
	INTEL_EV_PTR(td_slots_issued),
	INTEL_EV_PTR(td_slots_retired),
	INTEL_EV_PTR(td_fetch_bubbles),
	INTEL_EV_PTR(td_total_slots),
	INTEL_EV_PTR(td_total_slots_scale),
	INTEL_EV_PTR(td_recovery_bubbles_skl),
	INTEL_EV_PTR(td_recovery_bubbles_scale),
	NULL,
};

/* Icelake and later: slots (fixed counter 3) and IA32_PERF_METRICS. */
INTEL_EV(slots, "slots", "event=0x00,umask=0x4");
INTEL_EV(td_retiring, "topdown-retiring", "event=0x00,umask=0x80");
INTEL_EV(td_bad_spec, "topdown-bad-spec", "event=0x00,umask=0x81");
INTEL_EV(td_fe_bound, "topdown-fe-bound", "event=0x00,umask=0x82");
INTEL_EV(td_be_bound, "topdown-be-bound", "event=0x00,umask=0x83");
INTEL_EV(td_heavy_ops, "topdown-heavy-ops", "event=0x00,umask=0x84");
INTEL_EV(td_br_mispredict, "topdown-br-mispredict", "event=0x00,umask=0x85");
INTEL_EV(td_fetch_lat, "topdown-fetch-lat", "event=0x00,umask=0x86");
INTEL_EV(td_mem_bound, "topdown-mem-bound", "event=0x00,umask=0x87");

static struct attribute *intel_td_icl[] = {
	INTEL_EV_PTR(slots),
	INTEL_EV_PTR(td_retiring),
	INTEL_EV_PTR(td_bad_spec),
	INTEL_EV_PTR(td_fe_bound),
	INTEL_EV_PTR(td_be_bound),
	NULL,
};

static struct attribute *intel_td_spr[] = {
	INTEL_EV_PTR(slots),
	INTEL_EV_PTR(td_retiring),
	INTEL_EV_PTR(td_bad_spec),
	INTEL_EV_PTR(td_fe_bound),
	INTEL_EV_PTR(td_be_bound),
	INTEL_EV_PTR(td_heavy_ops),
	INTEL_EV_PTR(td_br_mispredict),
	INTEL_EV_PTR(td_fetch_lat),
	INTEL_EV_PTR(td_mem_bound),
	NULL,
};

/* Silvermont: 2-wide. */
INTEL_EV(td_total_slots_slm, "topdown-total-slots", "event=0x3c");
INTEL_EV(td_total_slots_scale_slm, "topdown-total-slots.scale", "2");
/* NO_ALLOC_CYCLES.NOT_DELIVERED */
INTEL_EV(td_fetch_bubbles_slm, "topdown-fetch-bubbles",
	 "event=0xca,umask=0x50");
INTEL_EV(td_fetch_bubbles_scale_slm, "topdown-fetch-bubbles.scale", "2");
/* UOPS_RETIRED.ALL */
INTEL_EV(td_slots_issued_slm, "topdown-slots-issued", "event=0xc2,umask=0x10");
/* UOPS_RETIRED.ALL */
INTEL_EV(td_slots_retired_slm, "topdown-slots-retired",
	 "event=0xc2,umask=0x10");

static struct attribute *intel_td_slm[] = {
	INTEL_EV_PTR(td_total_slots_slm),
	INTEL_EV_PTR(td_total_slots_scale_slm),
	INTEL_EV_PTR(td_fetch_bubbles_slm),
	INTEL_EV_PTR(td_fetch_bubbles_scale_slm),
	INTEL_EV_PTR(td_slots_issued_slm),
	INTEL_EV_PTR(td_slots_retired_slm),
	NULL,
};

/* Goldmont: 3-wide; Goldmont Plus: 4-wide. */
INTEL_EV(td_total_slots_glm, "topdown-total-slots", "event=0x3c");
INTEL_EV(td_total_slots_scale_glm, "topdown-total-slots.scale", "3");
INTEL_EV(td_total_slots_scale_glp, "topdown-total-slots.scale", "4");
/* UOPS_NOT_DELIVERED.ANY */
INTEL_EV(td_fetch_bubbles_glm, "topdown-fetch-bubbles", "event=0x9c");
/* ISSUE_SLOTS_NOT_CONSUMED.RECOVERY */
INTEL_EV(td_recovery_bubbles_glm, "topdown-recovery-bubbles",
	 "event=0xca,umask=0x02");
/* UOPS_RETIRED.ANY */
INTEL_EV(td_slots_retired_glm, "topdown-slots-retired", "event=0xc2");
/* UOPS_ISSUED.ANY */
INTEL_EV(td_slots_issued_glm, "topdown-slots-issued", "event=0x0e");

static struct attribute *intel_td_glm[] = {
	INTEL_EV_PTR(td_total_slots_glm),
	INTEL_EV_PTR(td_total_slots_scale_glm),
	INTEL_EV_PTR(td_fetch_bubbles_glm),
	INTEL_EV_PTR(td_recovery_bubbles_glm),
	INTEL_EV_PTR(td_slots_issued_glm),
	INTEL_EV_PTR(td_slots_retired_glm),
	NULL,
};

static struct attribute *intel_td_glp[] = {
	INTEL_EV_PTR(td_total_slots_glm),
	INTEL_EV_PTR(td_total_slots_scale_glp),
	INTEL_EV_PTR(td_fetch_bubbles_glm),
	INTEL_EV_PTR(td_recovery_bubbles_glm),
	INTEL_EV_PTR(td_slots_issued_glm),
	INTEL_EV_PTR(td_slots_retired_glm),
	NULL,
};

/* Tremont and Gracemont: TMA level 1 as plain events. */
INTEL_EV(td_fe_bound_tnt, "topdown-fe-bound", "event=0x71,umask=0x0");
INTEL_EV(td_retiring_tnt, "topdown-retiring", "event=0xc2,umask=0x0");
INTEL_EV(td_bad_spec_tnt, "topdown-bad-spec", "event=0x73,umask=0x6");
INTEL_EV(td_be_bound_tnt, "topdown-be-bound", "event=0x74,umask=0x0");

static struct attribute *intel_td_tnt[] = {
	INTEL_EV_PTR(td_fe_bound_tnt),
	INTEL_EV_PTR(td_retiring_tnt),
	INTEL_EV_PTR(td_bad_spec_tnt),
	INTEL_EV_PTR(td_be_bound_tnt),
	NULL,
};

/* ---- events/: memory access sampling (PEBS load latency, stores) ---- */

INTEL_EV(mem_ld_nhm, "mem-loads", "event=0x0b,umask=0x10,ldlat=3");
INTEL_EV(mem_ld_snb, "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
INTEL_EV(mem_st_snb, "mem-stores", "event=0xcd,umask=0x2");
INTEL_EV(mem_ld_hsw, "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
INTEL_EV(mem_st_hsw, "mem-stores", "event=0xd0,umask=0x82");
INTEL_EV(mem_st_spr, "mem-stores", "event=0xcd,umask=0x2");
INTEL_EV(mem_ld_aux, "mem-loads-aux", "event=0x03,umask=0x82");
INTEL_EV(mem_ld_grt, "mem-loads", "event=0xd0,umask=0x5,ldlat=3");
INTEL_EV(mem_st_grt, "mem-stores", "event=0xd0,umask=0x6");

static struct attribute *intel_mem_nhm[] = {
	INTEL_EV_PTR(mem_ld_nhm),
	NULL,
};

static struct attribute *intel_mem_snb[] = {
	INTEL_EV_PTR(mem_ld_snb),
	INTEL_EV_PTR(mem_st_snb),
	NULL,
};

static struct attribute *intel_mem_hsw[] = {
	INTEL_EV_PTR(mem_ld_hsw),
	INTEL_EV_PTR(mem_st_hsw),
	NULL,
};

static struct attribute *intel_mem_spr[] = {
	INTEL_EV_PTR(mem_ld_hsw),
	INTEL_EV_PTR(mem_st_spr),
	INTEL_EV_PTR(mem_ld_aux),
	NULL,
};

static struct attribute *intel_mem_grt[] = {
	INTEL_EV_PTR(mem_ld_grt),
	INTEL_EV_PTR(mem_st_grt),
	NULL,
};

/* ---- events/: transactional memory ---- */

INTEL_EV(tx_start, "tx-start", "event=0xc9,umask=0x1");
INTEL_EV(tx_commit, "tx-commit", "event=0xc9,umask=0x2");
INTEL_EV(tx_abort, "tx-abort", "event=0xc9,umask=0x4");
INTEL_EV(tx_capacity, "tx-capacity", "event=0x54,umask=0x2");
INTEL_EV(tx_conflict, "tx-conflict", "event=0x54,umask=0x1");
INTEL_EV(tx_capacity_read, "tx-capacity-read", "event=0x54,umask=0x80");
INTEL_EV(tx_capacity_write, "tx-capacity-write", "event=0x54,umask=0x2");
INTEL_EV(el_start, "el-start", "event=0xc8,umask=0x1");
INTEL_EV(el_commit, "el-commit", "event=0xc8,umask=0x2");
INTEL_EV(el_abort, "el-abort", "event=0xc8,umask=0x4");
INTEL_EV(el_capacity, "el-capacity", "event=0x54,umask=0x2");
INTEL_EV(el_conflict, "el-conflict", "event=0x54,umask=0x1");
INTEL_EV(el_capacity_read, "el-capacity-read", "event=0x54,umask=0x80");
INTEL_EV(el_capacity_write, "el-capacity-write", "event=0x54,umask=0x2");
INTEL_EV(cycles_t, "cycles-t", "event=0x3c,in_tx=1");
INTEL_EV(cycles_ct, "cycles-ct", "event=0x3c,in_tx=1,in_tx_cp=1");

static struct attribute *intel_tsx_hsw[] = {
	INTEL_EV_PTR(tx_start),
	INTEL_EV_PTR(tx_commit),
	INTEL_EV_PTR(tx_abort),
	INTEL_EV_PTR(tx_capacity),
	INTEL_EV_PTR(tx_conflict),
	INTEL_EV_PTR(el_start),
	INTEL_EV_PTR(el_commit),
	INTEL_EV_PTR(el_abort),
	INTEL_EV_PTR(el_capacity),
	INTEL_EV_PTR(el_conflict),
	INTEL_EV_PTR(cycles_t),
	INTEL_EV_PTR(cycles_ct),
	NULL,
};

static struct attribute *intel_tsx_icl[] = {
	INTEL_EV_PTR(tx_start),
	INTEL_EV_PTR(tx_abort),
	INTEL_EV_PTR(tx_commit),
	INTEL_EV_PTR(tx_capacity_read),
	INTEL_EV_PTR(tx_capacity_write),
	INTEL_EV_PTR(tx_conflict),
	INTEL_EV_PTR(el_start),
	INTEL_EV_PTR(el_abort),
	INTEL_EV_PTR(el_commit),
	INTEL_EV_PTR(el_capacity_read),
	INTEL_EV_PTR(el_capacity_write),
	INTEL_EV_PTR(el_conflict),
	INTEL_EV_PTR(cycles_t),
	INTEL_EV_PTR(cycles_ct),
	NULL,
};

/* Sapphire Rapids: no HLE. */
static struct attribute *intel_tsx_spr[] = {
	INTEL_EV_PTR(tx_start),
	INTEL_EV_PTR(tx_abort),
	INTEL_EV_PTR(tx_commit),
	INTEL_EV_PTR(tx_capacity_read),
	INTEL_EV_PTR(tx_capacity_write),
	INTEL_EV_PTR(tx_conflict),
	INTEL_EV_PTR(cycles_t),
	INTEL_EV_PTR(cycles_ct),
	NULL,
};

/* ---- hybrid (Alder Lake): each attribute says which core types have it ---- */

/* Strings: small core's first, then the big core's, as EVENT_ATTR_STR_HYBRID wants. */
INTEL_EV_HYBRID(slots_adl, "slots", "event=0x00,umask=0x4", hybrid_big);
INTEL_EV_HYBRID(td_retiring_adl, "topdown-retiring",
		"event=0xc2,umask=0x0;event=0x00,umask=0x80",
		hybrid_big_small);
INTEL_EV_HYBRID(td_bad_spec_adl, "topdown-bad-spec",
		"event=0x73,umask=0x0;event=0x00,umask=0x81",
		hybrid_big_small);
INTEL_EV_HYBRID(td_fe_bound_adl, "topdown-fe-bound",
		"event=0x71,umask=0x0;event=0x00,umask=0x82",
		hybrid_big_small);
INTEL_EV_HYBRID(td_be_bound_adl, "topdown-be-bound",
		"event=0x74,umask=0x0;event=0x00,umask=0x83",
		hybrid_big_small);
INTEL_EV_HYBRID(td_heavy_ops_adl, "topdown-heavy-ops",
		"event=0x00,umask=0x84", hybrid_big);
INTEL_EV_HYBRID(td_br_mis_adl, "topdown-br-mispredict",
		"event=0x00,umask=0x85", hybrid_big);
INTEL_EV_HYBRID(td_fetch_lat_adl, "topdown-fetch-lat",
		"event=0x00,umask=0x86", hybrid_big);
INTEL_EV_HYBRID(td_mem_bound_adl, "topdown-mem-bound",
		"event=0x00,umask=0x87", hybrid_big);

static struct attribute *intel_td_adl[] = {
	INTEL_EV_PTR(slots_adl),
	INTEL_EV_PTR(td_retiring_adl),
	INTEL_EV_PTR(td_bad_spec_adl),
	INTEL_EV_PTR(td_fe_bound_adl),
	INTEL_EV_PTR(td_be_bound_adl),
	INTEL_EV_PTR(td_heavy_ops_adl),
	INTEL_EV_PTR(td_br_mis_adl),
	INTEL_EV_PTR(td_fetch_lat_adl),
	INTEL_EV_PTR(td_mem_bound_adl),
	NULL,
};

INTEL_EV_HYBRID(mem_ld_adl, "mem-loads",
		"event=0xd0,umask=0x5,ldlat=3;event=0xcd,umask=0x1,ldlat=3",
		hybrid_big_small);
INTEL_EV_HYBRID(mem_st_adl, "mem-stores",
		"event=0xd0,umask=0x6;event=0xcd,umask=0x2",
		hybrid_big_small);
INTEL_EV_HYBRID(mem_ld_aux_adl, "mem-loads-aux",
		"event=0x03,umask=0x82", hybrid_big);

static struct attribute *intel_mem_adl[] = {
	INTEL_EV_PTR(mem_ld_adl),
	INTEL_EV_PTR(mem_st_adl),
	INTEL_EV_PTR(mem_ld_aux_adl),
	NULL,
};

INTEL_EV_HYBRID(tx_start_adl, "tx-start", "event=0xc9,umask=0x1", hybrid_big);
INTEL_EV_HYBRID(tx_commit_adl, "tx-commit",
		"event=0xc9,umask=0x2", hybrid_big);
INTEL_EV_HYBRID(tx_abort_adl, "tx-abort", "event=0xc9,umask=0x4", hybrid_big);
INTEL_EV_HYBRID(tx_conflict_adl, "tx-conflict",
		"event=0x54,umask=0x1", hybrid_big);
INTEL_EV_HYBRID(cycles_t_adl, "cycles-t", "event=0x3c,in_tx=1", hybrid_big);
INTEL_EV_HYBRID(cycles_ct_adl, "cycles-ct",
		"event=0x3c,in_tx=1,in_tx_cp=1", hybrid_big);
INTEL_EV_HYBRID(tx_capacity_read_adl, "tx-capacity-read",
		"event=0x54,umask=0x80", hybrid_big);
INTEL_EV_HYBRID(tx_capacity_write_adl, "tx-capacity-write",
		"event=0x54,umask=0x2", hybrid_big);

static struct attribute *intel_tsx_adl[] = {
	INTEL_EV_PTR(tx_start_adl),
	INTEL_EV_PTR(tx_abort_adl),
	INTEL_EV_PTR(tx_commit_adl),
	INTEL_EV_PTR(tx_capacity_read_adl),
	INTEL_EV_PTR(tx_capacity_write_adl),
	INTEL_EV_PTR(tx_conflict_adl),
	INTEL_EV_PTR(cycles_t_adl),
	INTEL_EV_PTR(cycles_ct_adl),
	NULL,
};

FORMAT_ATTR_HYBRID(in_tx,	hybrid_big);
FORMAT_ATTR_HYBRID(in_tx_cp,	hybrid_big);
FORMAT_ATTR_HYBRID(offcore_rsp,	hybrid_big_small);
FORMAT_ATTR_HYBRID(ldlat,	hybrid_big_small);
FORMAT_ATTR_HYBRID(frontend,	hybrid_big);

static struct attribute *intel_format_adl_rtm[] = {
	FORMAT_HYBRID_PTR(in_tx),
	FORMAT_HYBRID_PTR(in_tx_cp),
	FORMAT_HYBRID_PTR(offcore_rsp),
	FORMAT_HYBRID_PTR(ldlat),
	FORMAT_HYBRID_PTR(frontend),
	NULL,
};

static struct attribute *intel_format_adl[] = {
	FORMAT_HYBRID_PTR(offcore_rsp),
	FORMAT_HYBRID_PTR(ldlat),
	FORMAT_HYBRID_PTR(frontend),
	NULL,
};

/* ---- which model shows what ---- */

static const struct intel_sysfs_sets intel_sysfs_rows[] __initconst = {
	[INTEL_SYSFS_NHM] = {
		.mem = intel_mem_nhm, .format = intel_format_offcore_ldlat,
	},
	[INTEL_SYSFS_SNB] = {
		.td = intel_td_snb, .mem = intel_mem_snb,
		.format = intel_format_offcore_ldlat,
	},
	[INTEL_SYSFS_HSW] = {
		.td = intel_td_snb, .mem = intel_mem_hsw, .tsx = intel_tsx_hsw,
		.format = intel_format_offcore_ldlat,
		.format_rtm = intel_format_offcore_ldlat_tsx,
	},
	[INTEL_SYSFS_SKL] = {
		.td = intel_td_skl, .mem = intel_mem_hsw, .tsx = intel_tsx_hsw,
		.format = intel_format_offcore_ldlat,
		.format_rtm = intel_format_offcore_ldlat_tsx,
		.format_skl = intel_format_frontend,
	},
	[INTEL_SYSFS_ICL] = {
		.td = intel_td_icl, .mem = intel_mem_hsw, .tsx = intel_tsx_icl,
		.format = intel_format_offcore_ldlat,
		.format_rtm = intel_format_offcore_ldlat_tsx,
		.format_skl = intel_format_frontend,
	},
	[INTEL_SYSFS_SPR] = {
		.td = intel_td_spr, .mem = intel_mem_spr, .tsx = intel_tsx_spr,
		.format = intel_format_offcore_ldlat,
		.format_rtm = intel_format_offcore_ldlat_tsx,
		.format_skl = intel_format_frontend,
	},
	[INTEL_SYSFS_SLM] = { .td = intel_td_slm, .format = intel_format_offcore },
	[INTEL_SYSFS_GLM] = { .td = intel_td_glm, .format = intel_format_offcore },
	[INTEL_SYSFS_GLP] = { .td = intel_td_glp, .format = intel_format_offcore },
	[INTEL_SYSFS_TNT] = { .td = intel_td_tnt, .format = intel_format_offcore },
	[INTEL_SYSFS_GRT] = {
		.td = intel_td_tnt, .mem = intel_mem_grt,
		.format = intel_format_offcore_ldlat,
	},
	[INTEL_SYSFS_KNL] = { .format = intel_format_offcore },
	[INTEL_SYSFS_ADL] = {
		.td = intel_td_adl, .mem = intel_mem_adl, .tsx = intel_tsx_adl,
		.format = intel_format_adl, .format_rtm = intel_format_adl_rtm,
	},
};

/* ---- knobs ---- */

static DEFINE_MUTEX(intel_freeze_on_smi_lock);

static void intel_apply_freeze_on_smi(void *on)
{
	if (*(unsigned long *)on)
		msr_set_bit(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_IN_SMM_BIT);
	else
		msr_clear_bit(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_IN_SMM_BIT);
}

static ssize_t freeze_on_smi_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", x86_pmu.attr_freeze_on_smi);
}

static ssize_t freeze_on_smi_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	unsigned long on;
	int ret;

	ret = kstrtoul(buf, 0, &on);
	if (ret)
		return ret;
	if (on > 1)
		return -EINVAL;

	mutex_lock(&intel_freeze_on_smi_lock);
	if (x86_pmu.attr_freeze_on_smi != on) {
		x86_pmu.attr_freeze_on_smi = on;
		cpus_read_lock();
		on_each_cpu(intel_apply_freeze_on_smi, &on, 1);
		cpus_read_unlock();
	}
	mutex_unlock(&intel_freeze_on_smi_lock);
	return count;
}
static DEVICE_ATTR_RW(freeze_on_smi);

/* A CPU using PMC3 reschedules, so the new rule applies at once. */
static void intel_tfa_resched(void *unused)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);

	if (test_bit(3, cpuc->active_mask))
		perf_pmu_resched(x86_get_pmu(smp_processor_id()));
}

static ssize_t allow_tsx_force_abort_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	return sysfs_emit(buf, "%d\n", intel_allow_tsx_force_abort);
}

static ssize_t allow_tsx_force_abort_store(struct device *dev,
					   struct device_attribute *attr,
					   const char *buf, size_t count)
{
	bool allow;
	int ret;

	ret = kstrtobool(buf, &allow);
	if (ret)
		return ret;
	if (allow == intel_allow_tsx_force_abort)
		return count;

	intel_allow_tsx_force_abort = allow;
	cpus_read_lock();
	on_each_cpu(intel_tfa_resched, NULL, 1);
	cpus_read_unlock();
	return count;
}
static DEVICE_ATTR_RW(allow_tsx_force_abort);

struct attribute *intel_pmu_attrs[] = {
	&dev_attr_freeze_on_smi.attr,
	&dev_attr_allow_tsx_force_abort.attr,
	NULL,
};

static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n", x86_pmu.lbr_nr);
}
static DEVICE_ATTR_RO(branches);

static struct attribute *intel_lbr_caps[] = {
	&dev_attr_branches.attr,
	NULL,
};

static ssize_t pmu_name_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", intel_pmu_name);
}
static DEVICE_ATTR_RO(pmu_name);

struct attribute *intel_pmu_caps_attrs[] = {
	&dev_attr_pmu_name.attr,
	NULL,
};

/* ---- visibility ---- */

static umode_t intel_visible_with_rtm(struct kobject *kobj,
				      struct attribute *attr, int i)
{
	return boot_cpu_has(X86_FEATURE_RTM) ? attr->mode : 0;
}

static umode_t intel_visible_with_pebs(struct kobject *kobj,
				       struct attribute *attr, int i)
{
	return x86_pmu.pebs ? attr->mode : 0;
}

static umode_t intel_visible_with_lbr(struct kobject *kobj,
				      struct attribute *attr, int i)
{
	return x86_pmu.lbr_nr ? attr->mode : 0;
}

static umode_t intel_visible_from_v2(struct kobject *kobj,
				     struct attribute *attr, int i)
{
	return x86_pmu.version >= 2 ? attr->mode : 0;
}

static umode_t intel_visible_knobs(struct kobject *kobj,
				   struct attribute *attr, int i)
{
	if (attr == &dev_attr_allow_tsx_force_abort.attr &&
	    !(x86_pmu.flags & PMU_FL_TFA))
		return 0;
	return attr->mode;
}

/* Perf-metrics topdown events need the metrics; the others always show. */
static umode_t intel_visible_topdown(struct kobject *kobj,
				     struct attribute *attr, int i)
{
	if (x86_pmu.num_topdown_events && !x86_pmu.intel_cap.perf_metrics)
		return 0;
	return attr->mode;
}

static struct attribute_group intel_group_td = {
	.name = "events", .is_visible = intel_visible_topdown,
};

static struct attribute_group intel_group_mem = {
	.name = "events", .is_visible = intel_visible_with_pebs,
};

static struct attribute_group intel_group_tsx = {
	.name = "events", .is_visible = intel_visible_with_rtm,
};

static struct attribute_group intel_group_caps = {
	.name = "caps", .attrs = intel_pmu_caps_attrs,
};

static struct attribute_group intel_group_lbr = {
	.name = "caps", .attrs = intel_lbr_caps,
	.is_visible = intel_visible_with_lbr,
};

static struct attribute_group intel_group_format = {
	.name = "format", .is_visible = intel_visible_from_v2,
};

static struct attribute_group intel_group_format_skl = {
	.name = "format", .is_visible = intel_visible_from_v2,
};

static struct attribute_group intel_group_knobs = {
	.attrs = intel_pmu_attrs, .is_visible = intel_visible_knobs,
};

static const struct attribute_group *intel_attr_update[] = {
	&intel_group_td,
	&intel_group_mem,
	&intel_group_tsx,
	&intel_group_caps,
	&intel_group_lbr,
	&intel_group_format,
	&intel_group_format_skl,
	&intel_group_knobs,
	NULL,
};

/* Hybrid: visible on the PMU of the core types the attribute names. */
static struct x86_hybrid_pmu *intel_kobj_hybrid_pmu(struct kobject *kobj)
{
	return container_of(dev_get_drvdata(kobj_to_dev(kobj)),
			    struct x86_hybrid_pmu, pmu);
}

static bool intel_hybrid_event_here(struct kobject *kobj,
				    struct attribute *attr)
{
	struct perf_pmu_events_hybrid_attr *ha =
		container_of(attr, struct perf_pmu_events_hybrid_attr, attr.attr);

	return intel_kobj_hybrid_pmu(kobj)->cpu_type & ha->pmu_type;
}

/* A CPU of the PMU's type, or -1 while none is online yet. */
static int intel_hybrid_some_cpu(struct x86_hybrid_pmu *pmu)
{
	int cpu = cpumask_first(&pmu->supported_cpus);

	return cpu < nr_cpu_ids ? cpu : -1;
}

static umode_t intel_hybrid_visible_event(struct kobject *kobj,
					  struct attribute *attr, int i)
{
	return intel_hybrid_event_here(kobj, attr) ? attr->mode : 0;
}

static umode_t intel_hybrid_visible_tsx(struct kobject *kobj,
					struct attribute *attr, int i)
{
	int cpu = intel_hybrid_some_cpu(intel_kobj_hybrid_pmu(kobj));

	if (cpu < 0 || !intel_hybrid_event_here(kobj, attr))
		return 0;
	return cpu_has(&cpu_data(cpu), X86_FEATURE_RTM) ? attr->mode : 0;
}

static umode_t intel_hybrid_visible_format(struct kobject *kobj,
					   struct attribute *attr, int i)
{
	struct x86_hybrid_pmu *pmu = intel_kobj_hybrid_pmu(kobj);
	struct perf_pmu_format_hybrid_attr *fa =
		container_of(attr, struct perf_pmu_format_hybrid_attr, attr.attr);

	if (intel_hybrid_some_cpu(pmu) < 0)
		return 0;
	return (pmu->cpu_type & fa->pmu_type) ? attr->mode : 0;
}

static umode_t intel_hybrid_visible_topdown(struct kobject *kobj,
					    struct attribute *attr, int i)
{
	struct x86_hybrid_pmu *pmu = intel_kobj_hybrid_pmu(kobj);

	if (!intel_hybrid_event_here(kobj, attr))
		return 0;
	/* Perf metrics exist on the big cores only. */
	if (pmu->cpu_type == hybrid_big && !pmu->intel_cap.perf_metrics)
		return 0;
	return attr->mode;
}

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct x86_hybrid_pmu *pmu =
		container_of(dev_get_drvdata(dev), struct x86_hybrid_pmu, pmu);

	return cpumap_print_to_pagebuf(true, buf, &pmu->supported_cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *intel_hybrid_cpus_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static struct attribute_group intel_hybrid_group_td = {
	.name = "events", .is_visible = intel_hybrid_visible_topdown,
};

static struct attribute_group intel_hybrid_group_mem = {
	.name = "events", .is_visible = intel_hybrid_visible_event,
};

static struct attribute_group intel_hybrid_group_tsx = {
	.name = "events", .is_visible = intel_hybrid_visible_tsx,
};

static struct attribute_group intel_hybrid_group_format = {
	.name = "format", .is_visible = intel_hybrid_visible_format,
};

static struct attribute_group intel_hybrid_group_cpus = {
	.attrs = intel_hybrid_cpus_attrs,
};

static const struct attribute_group *intel_hybrid_attr_update[] = {
	&intel_hybrid_group_td,
	&intel_hybrid_group_mem,
	&intel_hybrid_group_tsx,
	&intel_group_caps,
	&intel_group_lbr,
	&intel_hybrid_group_format,
	&intel_group_knobs,
	&intel_hybrid_group_cpus,
	NULL,
};

struct attribute *intel_empty_attrs[] = { NULL };

static struct attribute **__init intel_or_empty(struct attribute **attrs)
{
	return attrs ? attrs : intel_empty_attrs;
}

/* Install the attribute sets of @id (called once the model is known). */
void __init intel_sysfs_init(enum intel_sysfs_set_id id)
{
	const struct intel_sysfs_sets *row = &intel_sysfs_rows[id];
	struct attribute **format = row->format;

	if (row->format_rtm && boot_cpu_has(X86_FEATURE_RTM))
		format = row->format_rtm;

	if (is_hybrid()) {
		intel_hybrid_group_td.attrs = intel_or_empty(row->td);
		intel_hybrid_group_mem.attrs = intel_or_empty(row->mem);
		intel_hybrid_group_tsx.attrs = intel_or_empty(row->tsx);
		intel_hybrid_group_format.attrs = intel_or_empty(format);
		x86_pmu.attr_update = intel_hybrid_attr_update;
		return;
	}
	intel_group_td.attrs = intel_or_empty(row->td);
	intel_group_mem.attrs = intel_or_empty(row->mem);
	intel_group_tsx.attrs = intel_or_empty(row->tsx);
	intel_group_format.attrs = intel_or_empty(format);
	intel_group_format_skl.attrs = intel_or_empty(row->format_skl);
	x86_pmu.attr_update = intel_attr_update;
}
