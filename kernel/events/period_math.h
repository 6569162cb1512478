/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling-period arithmetic of frequency mode (attr.freq): the period
 * that would give attr.sample_freq overflows a second at the rate just
 * seen, and the low-pass filter that moves the event's period towards it.
 * Pure functions, no locking of their own; overflow.c calls them from the
 * overflow and tick paths of the event's CPU.
 *
 * The filter moves the period an eighth of the way to the estimate, at
 * least one event in either direction while they differ: 6.1 computes
 * (step + 7) / 8, which C rounds towards zero, so a step of down to -14
 * is no step at all and the period never comes down the last 14 events
 * (for a target of 3, it stays at 17: a slow event under "perf record -F"
 * sampled up to 6 times less often than asked).
 *
 * KUnit: period_math_test.c.
 */
#ifndef _KERNEL_EVENTS_PERIOD_MATH_H
#define _KERNEL_EVENTS_PERIOD_MATH_H

#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/types.h>

/*
 * The period that would have given @freq overflows a second, had @count
 * events taken @nsec nanoseconds: count / (nsec * freq / 1e9); 0 when
 * no time passed.
 */
static inline u64 perf_freq_target_period(u64 count, u64 nsec, u64 freq)
{
	u64 per_sec = nsec * freq;

	if (!per_sec)
		return 0;
	return mul_u64_u64_div_u64(count, NSEC_PER_SEC, per_sec);
}

/* @period moved an eighth of the way to @target (at least 1), never below 1. */
static inline u64 perf_freq_filter(u64 period, u64 target)
{
	u64 diff = target >= period ? target - period : period - target;
	u64 step = diff / 8 + !!(diff % 8);

	if (target >= period)
		return period + step;
	return max_t(u64, period - step, 1);
}

#endif /* _KERNEL_EVENTS_PERIOD_MATH_H */
