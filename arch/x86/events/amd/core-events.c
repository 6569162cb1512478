// SPDX-License-Identifier: GPL-2.0
/*
 * AMD core PMU: the events.
 *
 * The generic events (PERF_COUNT_HW_*) and the cache events
 * (PERF_TYPE_HW_CACHE) as AMD event codes, one table for K7 to Family
 * 16h and one for Family 17h (Zen) and later; the event codes are the
 * BKDG's and PPR's.  hw_config() turns an attr into the PERF_CTL value:
 * the framework's common bits, the 12-bit raw event, host/guest-only
 * counting, the large-increment "pair" events, branch sampling (LBR or
 * BRS), and precise events handed to IBS.
 *
 * Locking: the tables are written once at boot.
 */
#include <linux/perf_event.h>
#include "core.h"

/* PERF_COUNT_HW_* -> event code; 0: not counted on this family. */
static const u64 amd_k7_events[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x077d,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x077e,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x00d0,	/* decoder empty */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x00d1,	/* dispatch stalls */
};

static const u64 amd_zen_events[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0xff60,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x0964,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x0287,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0187,
};

static const u64 *amd_events __read_mostly = amd_k7_events;

u64 amd_pmu_event_map(int hw_event)
{
	return amd_events[hw_event];
}

/*
 * A cache event table as rows: cache, operation, the code for accesses
 * and for misses (0: not counted, -1: meaningless).  Missing rows are 0.
 */
struct amd_cache_row {
	u8 cache, op;
	u64 access, miss;
};

#define NONE	((u64)-1)

static const struct amd_cache_row amd_k7_cache[] __initconst = {
	{ C(L1D),  C(OP_READ),     0x0040, 0x0141 },	/* DC accesses, misses */
	{ C(L1D),  C(OP_PREFETCH), 0x0267, 0x0167 },	/* prefetch attempts, cancels */
	{ C(L1I),  C(OP_READ),     0x0080, 0x0081 },	/* IC fetches, misses */
	{ C(L1I),  C(OP_WRITE),    NONE,   NONE },
	{ C(L1I),  C(OP_PREFETCH), 0x014b, 0 },	/* prefetch instructions */
	{ C(LL),   C(OP_READ),     0x037d, 0x037e },	/* L2 requests, misses */
	{ C(LL),   C(OP_WRITE),    0x017f, 0 },	/* L2 fill/writeback */
	{ C(DTLB), C(OP_READ),     0x0040, 0x0746 },	/* DC accesses, L1+L2 DTLB misses */
	{ C(ITLB), C(OP_READ),     0x0080, 0x0385 },	/* fetches, L1+L2 ITLB misses */
	{ C(ITLB), C(OP_WRITE),    NONE,   NONE },
	{ C(ITLB), C(OP_PREFETCH), NONE,   NONE },
	{ C(BPU),  C(OP_READ),     0x00c2, 0x00c3 },	/* retired branches, mispredicted */
	{ C(BPU),  C(OP_WRITE),    NONE,   NONE },
	{ C(BPU),  C(OP_PREFETCH), NONE,   NONE },
	{ C(NODE), C(OP_READ),     0xb8e9, 0x98e9 },	/* memory requests: all, remote */
	{ C(NODE), C(OP_WRITE),    NONE,   NONE },
	{ C(NODE), C(OP_PREFETCH), NONE,   NONE },
};

static const struct amd_cache_row amd_zen_cache[] __initconst = {
	{ C(L1D),  C(OP_READ),     0x0040, 0xc860 },	/* DC accesses, L2 access on DC miss */
	{ C(L1D),  C(OP_PREFETCH), 0xff5a, 0 },	/* hardware prefetch DC fills */
	{ C(L1I),  C(OP_READ),     0x0080, 0x0081 },	/* IC fetches, misses */
	{ C(L1I),  C(OP_WRITE),    NONE,   NONE },
	{ C(DTLB), C(OP_READ),     0xff45, 0xf045 },	/* L2 DTLB accesses, walks */
	{ C(ITLB), C(OP_READ),     0x0084, 0xff85 },	/* L1 ITLB misses: L2 hit, miss */
	{ C(ITLB), C(OP_WRITE),    NONE,   NONE },
	{ C(ITLB), C(OP_PREFETCH), NONE,   NONE },
	{ C(BPU),  C(OP_READ),     0x00c2, 0x00c3 },	/* retired branches, mispredicted */
	{ C(BPU),  C(OP_WRITE),    NONE,   NONE },
	{ C(BPU),  C(OP_PREFETCH), NONE,   NONE },
	{ C(NODE), C(OP_WRITE),    NONE,   NONE },
	{ C(NODE), C(OP_PREFETCH), NONE,   NONE },
};

/* The generic and cache event tables of this family. */
void __init amd_pmu_load_event_tables(void)
{
	const struct amd_cache_row *row = amd_k7_cache;
	int i, n = ARRAY_SIZE(amd_k7_cache);

	if (boot_cpu_data.x86 >= 0x17) {
		amd_events = amd_zen_events;
		row = amd_zen_cache;
		n = ARRAY_SIZE(amd_zen_cache);
	}
	memset(hw_cache_event_ids, 0, sizeof(hw_cache_event_ids));
	for (i = 0; i < n; i++, row++) {
		hw_cache_event_ids[row->cache][row->op][C(RESULT_ACCESS)] = row->access;
		hw_cache_event_ids[row->cache][row->op][C(RESULT_MISS)] = row->miss;
	}
}

/* events/ files: the 12-bit event code is config 0-7 and 32-35. */
ssize_t amd_event_sysfs_show(char *page, u64 config)
{
	u64 event = (config & ARCH_PERFMON_EVENTSEL_EVENT) |
		    (config & AMD64_EVENTSEL_EVENT) >> 24;

	return x86_event_sysfs_show(page, config, event);
}

/* Retired SSE/AVX FLOPs (0x003) can count more than 15 per cycle: a pair. */
bool amd_is_pair_event(struct hw_perf_event *hwc)
{
	return (x86_pmu.flags & PMU_FL_PAIR) && amd_event_code(hwc) == 0x003;
}

DEFINE_STATIC_CALL_RET0(amd_pmu_branch_hw_config, *x86_pmu.hw_config);

int amd_pmu_hw_config(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	int err;

	/* precise sampling is IBS's, a PMU of its own */
	if (attr->precise_ip && get_ibs_caps())
		return forward_event_to_ibs(event);
	if (has_branch_stack(event) && !x86_pmu.lbr_nr)
		return -EOPNOTSUPP;

	err = x86_pmu_hw_config(event);
	if (err)
		return err;
	if (attr->type == PERF_TYPE_RAW)
		hwc->config |= attr->config & AMD64_RAW_EVENT_MASK;

	/*
	 * Host-only and guest-only counting.  Both bits set count in both
	 * modes, so excluding both is done by counting in neither ring.
	 */
	if (attr->exclude_host && attr->exclude_guest)
		hwc->config &= ~(ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS);
	else if (attr->exclude_host)
		hwc->config |= AMD64_EVENTSEL_GUESTONLY;
	else if (attr->exclude_guest)
		hwc->config |= AMD64_EVENTSEL_HOSTONLY;

	if (amd_is_pair_event(hwc))
		hwc->flags |= PERF_X86_EVENT_PAIR;

	if (has_branch_stack(event))
		return static_call(amd_pmu_branch_hw_config)(event);
	return 0;
}
