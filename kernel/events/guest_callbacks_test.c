// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kernel/events/guest_callbacks.c with a fake hypervisor:
 * what PMU drivers see through perf_guest_state(), perf_guest_get_ip()
 * and perf_guest_handle_intel_pt_intr() with no callbacks, with a set
 * registered (with and without the optional Intel PT one) and after it is
 * unregistered.  Built with CONFIG_PERF_GUEST_KUNIT_TEST (which selects
 * CONFIG_GUEST_PERF_EVENTS; the debug configuration of the testbed).
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

#define FAKE_GUEST_IP	0xfeedf00dUL

static unsigned int fake_state(void)
{
	return PERF_GUEST_ACTIVE | PERF_GUEST_USER;
}

static unsigned long fake_get_ip(void)
{
	return FAKE_GUEST_IP;
}

static unsigned int fake_pt_intr(void)
{
	return 1;
}

static int guest_cbs_init(struct kunit *test)
{
	/* a real hypervisor registered: leave it alone */
	if (rcu_access_pointer(perf_guest_cbs))
		kunit_skip(test, "a hypervisor has registered its callbacks");
	return 0;
}

static void guest_cbs_none_answers_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0U);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0UL);
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0U);
}

static void guest_cbs_registered_then_gone(struct kunit *test)
{
	struct perf_guest_info_callbacks cbs = {
		.state = fake_state,
		.get_ip = fake_get_ip,
	};

	perf_register_guest_info_callbacks(&cbs);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(perf_guest_cbs), &cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_state(), PERF_GUEST_ACTIVE | PERF_GUEST_USER);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), FAKE_GUEST_IP);
	/* the optional one left out: still "not handled" */
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0U);
	perf_unregister_guest_info_callbacks(&cbs);

	KUNIT_EXPECT_TRUE(test, !rcu_access_pointer(perf_guest_cbs));
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0U);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0UL);
}

static void guest_cbs_intel_pt_handler(struct kunit *test)
{
	struct perf_guest_info_callbacks cbs = {
		.state = fake_state,
		.get_ip = fake_get_ip,
		.handle_intel_pt_intr = fake_pt_intr,
	};

	perf_register_guest_info_callbacks(&cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 1U);
	perf_unregister_guest_info_callbacks(&cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0U);
}

static struct kunit_case guest_cbs_cases[] = {
	KUNIT_CASE(guest_cbs_none_answers_zero),
	KUNIT_CASE(guest_cbs_registered_then_gone),
	KUNIT_CASE(guest_cbs_intel_pt_handler),
	{}
};

static struct kunit_suite guest_cbs_suite = {
	.name = "perf_guest_callbacks",
	.init = guest_cbs_init,
	.test_cases = guest_cbs_cases,
};

kunit_test_suite(guest_cbs_suite);
