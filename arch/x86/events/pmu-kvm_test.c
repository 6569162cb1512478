// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what the x86 PMU framework offers KVM (pmu-init.c and the
 * vendor's guest_get_msrs): the capability summary is the booted PMU's,
 * the hardware event map is readable by index and refuses indexes out of
 * range, and the MSR switch list keeps a host-only counter out of the
 * guest's IA32_PERF_GLOBAL_CTRL and a guest-only one out of the host's.
 *
 * Runs on the booted PMU (Intel architectural perfmon for the MSR list);
 * the counters are real, opened as CPU-wide kernel counters on this CPU.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <asm/msr-index.h>
#include "framework.h"

static void test_capability_is_the_booted_pmus(struct kunit *test)
{
	struct x86_pmu_capability cap;

	if (!x86_pmu_initialized())
		kunit_skip(test, "no x86 PMU booted");
	perf_get_x86_pmu_capability(&cap);
	KUNIT_EXPECT_EQ(test, cap.version, x86_pmu.version);
	KUNIT_EXPECT_EQ(test, cap.num_counters_gp, x86_pmu.num_counters);
	KUNIT_EXPECT_EQ(test, cap.num_counters_fixed, x86_pmu.num_counters_fixed);
	KUNIT_EXPECT_EQ(test, cap.bit_width_gp, x86_pmu.cntval_bits);
	KUNIT_EXPECT_EQ(test, cap.events_mask_len, x86_pmu.events_mask_len);
}

static void test_hw_event_config_by_index(struct kunit *test)
{
	if (!x86_pmu_initialized())
		kunit_skip(test, "no x86 PMU booted");
	/* retired instructions: event 0xc0 on Intel and AMD alike */
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(PERF_COUNT_HW_INSTRUCTIONS) &
			ARCH_PERFMON_EVENTSEL_EVENT, 0xc0ULL);
	/* out of range either way: nothing (6.1 reads the map at -1) */
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(-1), 0ULL);
	KUNIT_EXPECT_EQ(test, perf_get_hw_event_config(x86_pmu.max_events), 0ULL);
}

static struct perf_event *counter_here(struct kunit *test, bool exclude_host,
				       bool exclude_guest)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.size = sizeof(attr),
		.pinned = 1,
		.exclude_host = exclude_host,
		.exclude_guest = exclude_guest,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, smp_processor_id(),
						 NULL, NULL, NULL);
	if (IS_ERR(event))
		return NULL;
	if (event->state != PERF_EVENT_STATE_ACTIVE || event->hw.idx < 0) {
		perf_event_release_kernel(event);
		return NULL;
	}
	return event;
}

/* GLOBAL_CTRL's host and guest values of this CPU's switch list */
static bool global_ctrl(u64 *host, u64 *guest)
{
	struct perf_guest_switch_msr *msrs;
	int nr = 0, i;

	msrs = perf_guest_get_msrs(&nr, NULL);
	for (i = 0; msrs && i < nr; i++) {
		if (msrs[i].msr == MSR_CORE_PERF_GLOBAL_CTRL) {
			*host = msrs[i].host;
			*guest = msrs[i].guest;
			return true;
		}
	}
	return false;
}

static void test_guest_switch_keeps_sides_apart(struct kunit *test)
{
	struct perf_event *host_only, *guest_only;
	u64 host = 0, guest = 0;

	if (!x86_pmu_initialized() || boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    x86_pmu.version < 2)
		kunit_skip(test, "needs Intel architectural perfmon v2+");

	migrate_disable();
	host_only = counter_here(test, false, true);
	guest_only = counter_here(test, true, false);
	if (!host_only || !guest_only) {
		if (host_only)
			perf_event_release_kernel(host_only);
		if (guest_only)
			perf_event_release_kernel(guest_only);
		migrate_enable();
		kunit_skip(test, "could not put two counters on this CPU");
	}

	preempt_disable();
	KUNIT_EXPECT_TRUE(test, global_ctrl(&host, &guest));
	preempt_enable();

	/* each side runs its own counter and not the other's */
	KUNIT_EXPECT_TRUE(test, host & BIT_ULL(host_only->hw.idx));
	KUNIT_EXPECT_FALSE(test, guest & BIT_ULL(host_only->hw.idx));
	KUNIT_EXPECT_TRUE(test, guest & BIT_ULL(guest_only->hw.idx));
	KUNIT_EXPECT_FALSE(test, host & BIT_ULL(guest_only->hw.idx));

	perf_event_release_kernel(guest_only);
	perf_event_release_kernel(host_only);
	migrate_enable();
}

static struct kunit_case x86_pmu_kvm_cases[] = {
	KUNIT_CASE(test_capability_is_the_booted_pmus),
	KUNIT_CASE(test_hw_event_config_by_index),
	KUNIT_CASE(test_guest_switch_keeps_sides_apart),
	{}
};

static struct kunit_suite x86_pmu_kvm_suite = {
	.name = "x86_pmu_kvm",
	.test_cases = x86_pmu_kvm_cases,
};

kunit_test_suite(x86_pmu_kvm_suite);
