// SPDX-License-Identifier: GPL-2.0
/*
 * The callbacks of a hypervisor (KVM) that PMU drivers ask whether an
 * interrupt came while a guest ran, and where: perf_guest_state(),
 * perf_guest_get_ip() and perf_guest_handle_intel_pt_intr() of
 * include/linux/perf_event.h.  Built with CONFIG_GUEST_PERF_EVENTS.
 *
 * Owns: perf_guest_cbs (at most one set registered) and the three static
 * calls, which answer 0 while none is.
 *
 * Locking: register and unregister are the hypervisor module's (load and
 * unload, never concurrent).  The static calls are read from any context
 * (NMI included); perf_guest_cbs is RCU-published, and unregister waits
 * for a grace period so that no caller still runs a callback of the set
 * it removes.
 */
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>

struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr, *perf_guest_cbs->handle_intel_pt_intr);

/* The static calls back to "no guest" (0). */
static void perf_guest_calls_reset(void)
{
	static_call_update(__perf_guest_state, (void *)&__static_call_return0);
	static_call_update(__perf_guest_get_ip, (void *)&__static_call_return0);
	static_call_update(__perf_guest_handle_intel_pt_intr, (void *)&__static_call_return0);
}

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	/* one hypervisor at a time */
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs)))
		return;
	rcu_assign_pointer(perf_guest_cbs, cbs);
	static_call_update(__perf_guest_state, cbs->state);
	static_call_update(__perf_guest_get_ip, cbs->get_ip);
	/* optional: only a hypervisor that passes Intel PT through has it */
	if (cbs->handle_intel_pt_intr)
		static_call_update(__perf_guest_handle_intel_pt_intr, cbs->handle_intel_pt_intr);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs) != cbs))
		return;
	rcu_assign_pointer(perf_guest_cbs, NULL);
	perf_guest_calls_reset();
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
