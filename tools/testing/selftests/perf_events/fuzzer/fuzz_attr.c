// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: mostly-plausible struct perf_event_attr.  Most fields take a
 * value the kernel accepts for the chosen type, some take the edge of the
 * range, a few take garbage: unknown types, reserved bits, sizes that are
 * not an ABI version, bytes after the known struct.  The testbed's AUX
 * PMUs (perfev_aux, perfev_aux2) get a share of their own, with their
 * config bits and mostly no sample period (they only count).  The result
 * is a byte blob (op->blob, op->len = attr.size as passed) so sizes larger
 * than the struct carry tail bytes too.
 */
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

#include "fuzz.h"

volatile unsigned long fuzz_bp_target;

void fuzz_bp_function(void)
{
	fuzz_bp_target++;
}

/* Attr bits defined by 6.1 (disabled .. sigtrap): bits 0-37. */
#define ATTR_FLAG_BITS		38
#define ATTR_FLAG_DISABLED	(1ULL << 0)
#define ATTR_FLAG_FREQ		(1ULL << 10)
#define ATTR_FLAG_USE_CLOCKID	(1ULL << 25)

static uint64_t pick_u64(struct fuzz_rng *r, const uint64_t *v, unsigned int n)
{
	return v[fuzz_below(r, n)];
}

/*
 * The testbed's AUX PMUs, when there: perfev_aux (address filters; config
 * bits partial, collision) and perfev_aux2 (config bit even_cpus).  False
 * if neither is.
 */
static bool gen_aux_pmu(struct fuzz_rng *r, const struct fuzz_env *env,
			struct perf_event_attr *a)
{
	bool two = env->aux2_type >= 0 && (env->aux_type < 0 || fuzz_chance(r, 40));

	if (env->aux_type < 0 && env->aux2_type < 0)
		return false;
	a->type = two ? env->aux2_type : env->aux_type;
	a->config = fuzz_below(r, two ? 2 : 4);
	if (fuzz_chance(r, 5))
		a->config |= 1ULL << fuzz_below(r, 64);
	return true;
}

static void gen_type_config(struct fuzz_rng *r, const struct fuzz_env *env,
			    struct perf_event_attr *a)
{
	static const uint64_t bp_types[] = {
		HW_BREAKPOINT_R, HW_BREAKPOINT_W, HW_BREAKPOINT_RW,
		HW_BREAKPOINT_X, 0, 8,
	};
	static const uint64_t bp_lens[] = { 1, 2, 4, 8, 3, 0, 16 };
	unsigned int dice = fuzz_below(r, 100);

	if (dice < 30) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = fuzz_chance(r, 95) ? fuzz_below(r, PERF_COUNT_SW_MAX) :
			    fuzz_rand(r) & 0xff;
	} else if (dice < 44 && env->nr_tp) {
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = env->tp_ids[fuzz_below(r, env->nr_tp)];
	} else if (dice < 50 && env->function_tp >= 0) {
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = env->function_tp;
	} else if (dice < 58) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = fuzz_below(r, PERF_COUNT_HW_MAX + 1);
	} else if (dice < 62) {
		a->type = PERF_TYPE_HW_CACHE;
		a->config = fuzz_below(r, PERF_COUNT_HW_CACHE_MAX + 1) |
			    fuzz_below(r, PERF_COUNT_HW_CACHE_OP_MAX + 1) << 8 |
			    fuzz_below(r, PERF_COUNT_HW_CACHE_RESULT_MAX + 1) << 16;
	} else if (dice < 66) {
		a->type = PERF_TYPE_RAW;
		a->config = fuzz_rand(r) & (fuzz_chance(r, 80) ? 0xffff : ~0ULL);
	} else if (dice < 76 && !env->no_breakpoints) {
		a->type = PERF_TYPE_BREAKPOINT;
		a->bp_type = pick_u64(r, bp_types, 6);
		a->bp_len = pick_u64(r, bp_lens, 7);
		if (a->bp_type == HW_BREAKPOINT_X) {
			a->bp_addr = (uintptr_t)fuzz_bp_function;
			a->bp_len = sizeof(long);
		} else {
			a->bp_addr = (uintptr_t)&fuzz_bp_target;
		}
		if (fuzz_chance(r, 10))
			a->bp_addr = fuzz_chance(r, 50) ? 0 : fuzz_rand(r);
	} else if (dice >= 76 && dice < 84 && gen_aux_pmu(r, env, a)) {
		/* perfev_aux or perfev_aux2 */
	} else if (dice < 92 && env->nr_pmus) {
		a->type = env->pmus[fuzz_below(r, env->nr_pmus)].type;
		a->config = fuzz_chance(r, 85) ? fuzz_below(r, 0x40) : fuzz_rand(r);
	} else {
		a->type = fuzz_chance(r, 50) ? fuzz_below(r, 64) : fuzz_rand(r);
		a->config = fuzz_rand(r);
	}
}

static uint64_t gen_flags(struct fuzz_rng *r)
{
	uint64_t f = 0;
	unsigned int bit;

	for (bit = 1; bit < ATTR_FLAG_BITS; bit++)
		if (fuzz_chance(r, 7))
			f |= 1ULL << bit;
	if (fuzz_chance(r, 60))
		f |= ATTR_FLAG_DISABLED;
	if (fuzz_chance(r, 3))
		f |= 1ULL << (ATTR_FLAG_BITS + fuzz_below(r, 64 - ATTR_FLAG_BITS));
	return f;
}

static void gen_sampling(struct fuzz_rng *r, struct perf_event_attr *a,
			 uint64_t *flags)
{
	static const uint64_t periods[] = {
		1, 2, 3, 100, 1000, 10000, 100000, 1ULL << 20, 1ULL << 40,
		1ULL << 63, ~0ULL,
	};
	static const uint64_t stacks[] = { 8, 64, 4096, 65528, 65536, 13 };
	static const uint64_t clocks[] = { 0, 1, 4, 7, 11, 5, 99 };

	if (fuzz_chance(r, 45)) {
		a->sample_period = fuzz_chance(r, 90) ?
			pick_u64(r, periods, 11) : fuzz_rand(r);
		if (fuzz_chance(r, 25))
			*flags |= ATTR_FLAG_FREQ;
	}
	if (fuzz_chance(r, 50))
		a->sample_type = fuzz_rand(r) & (fuzz_chance(r, 95) ?
				 (PERF_SAMPLE_MAX - 1) : ~0ULL);
	if (fuzz_chance(r, 60))
		a->read_format = fuzz_rand(r) & (fuzz_chance(r, 95) ? 0x1f : ~0ULL);
	if (fuzz_chance(r, 30))
		a->wakeup_events = fuzz_below(r, 5) ? fuzz_below(r, 8) :
				   (uint32_t)fuzz_rand(r);
	if (fuzz_chance(r, 15))
		a->branch_sample_type = fuzz_rand(r) & (PERF_SAMPLE_BRANCH_MAX - 1);
	if (fuzz_chance(r, 15))
		a->sample_regs_user = fuzz_rand(r) & 0xffffffffULL;
	if (fuzz_chance(r, 10))
		a->sample_regs_intr = fuzz_rand(r) & 0xffffffffULL;
	if (fuzz_chance(r, 15))
		a->sample_stack_user = pick_u64(r, stacks, 6);
	if (*flags & ATTR_FLAG_USE_CLOCKID)
		a->clockid = pick_u64(r, clocks, 7);
	if (fuzz_chance(r, 10))
		a->sample_max_stack = fuzz_below(r, 200);
	if (fuzz_chance(r, 5))
		a->aux_watermark = fuzz_rand(r);
	if (fuzz_chance(r, 5))
		a->aux_sample_size = fuzz_below(r, 1 << 16);
	if (fuzz_chance(r, 10))
		a->sig_data = fuzz_rand(r);
	if (a->type != PERF_TYPE_BREAKPOINT && fuzz_chance(r, 15)) {
		a->config1 = fuzz_chance(r, 50) ? fuzz_below(r, 16) : fuzz_rand(r);
		a->config2 = fuzz_chance(r, 50) ? fuzz_below(r, 16) : fuzz_rand(r);
	}
	if (fuzz_chance(r, 2))
		a->__reserved_2 = fuzz_rand(r);
	if (fuzz_chance(r, 2))
		a->__reserved_3 = fuzz_rand(r);
}

static unsigned int gen_size(struct fuzz_rng *r)
{
	static const uint64_t versions[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	};
	unsigned int dice = fuzz_below(r, 100);

	if (dice < 60)
		return sizeof(struct perf_event_attr);
	if (dice < 85)
		return pick_u64(r, versions, 8);
	if (dice < 90)
		return 0;
	if (dice < 95)
		return 1 + fuzz_below(r, FUZZ_BLOB);
	return sizeof(struct perf_event_attr) + 8 +
	       fuzz_below(r, FUZZ_BLOB - sizeof(struct perf_event_attr) - 8);
}

void fuzz_attr_generate(struct fuzz_rng *r, const struct fuzz_env *env,
			struct fuzz_op *op)
{
	struct perf_event_attr a;
	uint64_t flags = gen_flags(r);
	unsigned int size = gen_size(r);

	memset(&a, 0, sizeof(a));
	gen_type_config(r, env, &a);
	gen_sampling(r, &a, &flags);
	/* the AUX test PMUs only count: a period would be EOPNOTSUPP */
	if (fuzz_env_aux_pmu(env, a.type) && fuzz_chance(r, 85)) {
		a.sample_period = 0;
		flags &= ~ATTR_FLAG_FREQ;
	}
	a.size = size;
	memset(op->blob, 0, sizeof(op->blob));
	memcpy(op->blob, &a, sizeof(a));
	memcpy(op->blob + offsetof(struct perf_event_attr, read_format) +
	       sizeof(a.read_format), &flags, sizeof(flags));
	/* Bytes beyond the struct: zero (accepted) or not (E2BIG). */
	if (size > sizeof(a) && fuzz_chance(r, 50))
		op->blob[sizeof(a) + fuzz_below(r, size - sizeof(a))] =
			1 + fuzz_below(r, 255);
	/* The kernel reads at least VER0 bytes even when size says less. */
	op->len = size > sizeof(a) ? size : sizeof(a);
}
