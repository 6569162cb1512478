// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls (their table is in kernel/sysctl.c), the limit on the
 * time spent handling samples, and the task access check.
 *
 * Owns: sysctl_perf_event_paranoid, sysctl_perf_event_mlock,
 * sysctl_perf_event_sample_rate, sysctl_perf_cpu_time_max_percent,
 * perf_sample_period_ns and the derived limits (samples per tick, the
 * allowed length of one sample), and the per-CPU running average of the
 * sample length.
 *
 * Locking: writes from the proc handlers are serialised by
 * perf_sysctl_mutex.  perf_sample_event_took() runs in NMI on any CPU: it
 * updates its own CPU's average and may lower the limits with plain
 * READ_ONCE/WRITE_ONCE stores, racing benignly with other CPUs and with a
 * proc write (the last store wins; every value stored is a valid limit).
 */
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>

#include "internal.h"

#define DEFAULT_MAX_SAMPLE_RATE		100000
#define DEFAULT_CPU_TIME_MAX_PERCENT	25

/*
 * -1 everything allowed, 0 no raw tracepoint data for the unprivileged,
 * 1 no CPU-wide events, 2 no kernel profiling, 3 (Debian's restriction)
 * no perf_event_open() at all without CAP_PERFMON.
 */
int sysctl_perf_event_paranoid __read_mostly =
	IS_ENABLED(CONFIG_SECURITY_PERF_EVENTS_RESTRICT) ? 3 : 2;

/* kB of locked buffer memory per user and CPU: 512 kB plus the user page */
int sysctl_perf_event_mlock __read_mostly = 512 + (PAGE_SIZE / 1024);

int sysctl_perf_event_sample_rate __read_mostly = DEFAULT_MAX_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = DEFAULT_CPU_TIME_MAX_PERCENT;
int perf_sample_period_ns __read_mostly = NSEC_PER_SEC / DEFAULT_MAX_SAMPLE_RATE;

/* Samples one CPU may take per tick at the current rate (throttling). */
int perf_max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(DEFAULT_MAX_SAMPLE_RATE, HZ);

/* Longest average sample allowed, ns; 0: the check is off. */
static u64 perf_sample_allowed_ns __read_mostly =
	(NSEC_PER_SEC / DEFAULT_MAX_SAMPLE_RATE) * DEFAULT_CPU_TIME_MAX_PERCENT / 100;

static DEFINE_MUTEX(perf_sysctl_mutex);

static bool perf_throttling_off(int percent)
{
	return percent == 0 || percent == 100;
}

/* Recompute what follows from the rate and percentage (perf_sysctl_mutex). */
static void perf_update_sample_limits(void)
{
	int rate = READ_ONCE(sysctl_perf_event_sample_rate);
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	u64 period_ns = NSEC_PER_SEC / rate;

	WRITE_ONCE(perf_max_samples_per_tick, DIV_ROUND_UP(rate, HZ));
	WRITE_ONCE(perf_sample_period_ns, period_ns);
	if (perf_throttling_off(percent))
		WRITE_ONCE(perf_sample_allowed_ns, 0);
	else
		WRITE_ONCE(perf_sample_allowed_ns, period_ns * percent / 100);
}

/* perf_event_max_sample_rate: 1 or more; fixed while throttling is off. */
int perf_proc_update_handler(struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	if (!write)
		return proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	mutex_lock(&perf_sysctl_mutex);
	if (perf_throttling_off(READ_ONCE(sysctl_perf_cpu_time_max_percent))) {
		ret = -EINVAL;
		goto unlock;
	}
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret)
		perf_update_sample_limits();
unlock:
	mutex_unlock(&perf_sysctl_mutex);
	return ret;
}

/* perf_cpu_time_max_percent: 0..100; 0 and 100 switch throttling off. */
int perf_cpu_time_max_percent_handler(struct ctl_table *table, int write,
				      void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	if (!write)
		return proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	mutex_lock(&perf_sysctl_mutex);
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret) {
		perf_update_sample_limits();
		if (perf_throttling_off(sysctl_perf_cpu_time_max_percent))
			pr_warn("perf: interrupt throttling off: sampling may hang the system\n");
	}
	mutex_unlock(&perf_sysctl_mutex);
	return ret;
}

/* ---- sample length ---------------------------------------------------------- */

/*
 * The running average keeps 2^PERF_SAMPLE_AVG_SHIFT samples' worth: 128, as
 * 6.1, so that a few slow interrupts (code run for the first time, a
 * cold cache, an emulator translating it) do not lower the rate at once.
 */
#define PERF_SAMPLE_AVG_SHIFT	7

static DEFINE_PER_CPU(u64, perf_sample_len_sum);

static u64 perf_report_avg_ns;
static int perf_report_rate;

static void perf_report_rate_lowered(struct irq_work *work)
{
	pr_info_ratelimited("perf: samples took %llu ns on average, perf_event_max_sample_rate lowered to %d\n",
			    READ_ONCE(perf_report_avg_ns), READ_ONCE(perf_report_rate));
}

static DEFINE_IRQ_WORK(perf_report_work, perf_report_rate_lowered);

/*
 * @avg ns per sample is more than allowed: lower the rate so that samples
 * take at most the allowed share of each tick, with a quarter to spare.
 */
static void perf_sample_rate_lower(u64 avg)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	u64 budget = (u64)TICK_NSEC * percent / 100;
	u64 len = avg + avg / 4;
	u64 per_tick = len < budget ? div64_u64(budget, len) : 1;
	int rate;

	if (per_tick > INT_MAX / HZ)
		per_tick = INT_MAX / HZ;
	rate = (int)per_tick * HZ;

	/* samples this long are the new normal: do not come back each time */
	WRITE_ONCE(perf_sample_allowed_ns, len);
	if (rate >= READ_ONCE(sysctl_perf_event_sample_rate))
		return;

	WRITE_ONCE(perf_max_samples_per_tick, (int)per_tick);
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	WRITE_ONCE(perf_sample_period_ns, NSEC_PER_SEC / rate);

	WRITE_ONCE(perf_report_avg_ns, avg);
	WRITE_ONCE(perf_report_rate, rate);
	irq_work_queue(&perf_report_work);
}

/* A PMU interrupt handler took @sample_len_ns (NMI or IRQ context). */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 allowed = READ_ONCE(perf_sample_allowed_ns);
	u64 sum, avg;

	if (!allowed)
		return;

	sum = __this_cpu_read(perf_sample_len_sum);
	sum = sum - (sum >> PERF_SAMPLE_AVG_SHIFT) + sample_len_ns;
	__this_cpu_write(perf_sample_len_sum, sum);

	avg = sum >> PERF_SAMPLE_AVG_SHIFT;
	if (avg > allowed)
		perf_sample_rate_lower(avg);
}
