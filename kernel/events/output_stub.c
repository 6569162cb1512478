// SPDX-License-Identifier: GPL-2.0
/*
 * The part-2 surface of include/linux/perf_event.h, answered for part 1:
 * there is no ring buffer yet, so nothing is ever written.
 *
 * Owns: the output handle API (perf_output_begin*() fail with -ENOSPC, so
 * callers never reach copy/end), sample preparation and output, the
 * side-band records (mmap, comm, fork, namespaces, ksymbol, bpf,
 * text_poke), the AUX area API, the user page, perf_callchain(), the
 * perf_snapshot_branch_stack static call and the guest callbacks.  The
 * overflow entry point is overflow.c's.
 *
 * Locking: none of its own.
 */
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>

#include "internal.h"

void perf_output_init(void)
{
	/* nothing to set up until the ring buffer exists */
}

/* ---- output handles ------------------------------------------------- */

int perf_output_begin(struct perf_output_handle *handle, struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	handle->rb = NULL;
	handle->event = event;
	return -ENOSPC;
}

int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return perf_output_begin(handle, data, event, size);
}

int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return perf_output_begin(handle, data, event, size);
}

void perf_output_end(struct perf_output_handle *handle)
{
}

/* Both return what was left uncopied: everything. */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	return len;
}

unsigned int perf_output_skip(struct perf_output_handle *handle, unsigned int len)
{
	return len;
}

long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to)
{
	return 0;
}

/* ---- samples ---------------------------------------------------------- */

void perf_prepare_sample(struct perf_event_header *header, struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	header->type = PERF_RECORD_SAMPLE;
	header->misc = 0;
	header->size = sizeof(*header);
	data->type = event->attr.sample_type;
}

void perf_output_sample(struct perf_output_handle *handle, struct perf_event_header *header,
			struct perf_sample_data *data, struct perf_event *event)
{
}

/*
 * The default overflow handlers (user-space sampling): nothing to write
 * to.  They must stay distinct functions: is_default_overflow_handler()
 * compares against them.
 */
void perf_event_output_forward(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
}

void perf_event_output_backward(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs)
{
}

int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return 0;
}

void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data, struct perf_event *event)
{
}

void perf_event__output_id_sample(struct perf_event *event, struct perf_output_handle *handle,
				  struct perf_sample_data *sample)
{
}

void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
}

struct perf_callchain_entry *perf_callchain(struct perf_event *event, struct pt_regs *regs)
{
	static struct perf_callchain_entry empty;	/* nr == 0 */

	return &empty;
}

DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

void __weak perf_event_print_debug(void)
{
}

/* ---- AUX area and address filters ----------------------------------------- */

void *perf_aux_output_begin(struct perf_output_handle *handle, struct perf_event *event)
{
	handle->rb = NULL;
	handle->event = NULL;
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

void *perf_get_aux(struct perf_output_handle *handle)
{
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

void perf_event_addr_filters_sync(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);

/* ---- side-band records ------------------------------------------------------ */

void perf_event_mmap(struct vm_area_struct *vma)
{
}

void perf_event_comm(struct task_struct *tsk, bool exec)
{
}

void perf_event_namespaces(struct task_struct *tsk)
{
}

void perf_event_fork(struct task_struct *tsk)
{
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister, const char *sym)
{
}

void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type, u16 flags)
{
}

void perf_event_text_poke(const void *addr, const void *old_bytes, size_t old_len,
			  const void *new_bytes, size_t new_len)
{
}

/* ---- guest callbacks (KVM) ----------------------------------------------------- */

#ifdef CONFIG_GUEST_PERF_EVENTS
struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

DEFINE_STATIC_CALL_RET0(__perf_guest_state, *perf_guest_cbs->state);
DEFINE_STATIC_CALL_RET0(__perf_guest_get_ip, *perf_guest_cbs->get_ip);
DEFINE_STATIC_CALL_RET0(__perf_guest_handle_intel_pt_intr, *perf_guest_cbs->handle_intel_pt_intr);

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs)))
		return;

	rcu_assign_pointer(perf_guest_cbs, cbs);
	static_call_update(__perf_guest_state, cbs->state);
	static_call_update(__perf_guest_get_ip, cbs->get_ip);
	if (cbs->handle_intel_pt_intr)
		static_call_update(__perf_guest_handle_intel_pt_intr, cbs->handle_intel_pt_intr);
}
EXPORT_SYMBOL_GPL(perf_register_guest_info_callbacks);

void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs)
{
	if (WARN_ON_ONCE(rcu_access_pointer(perf_guest_cbs) != cbs))
		return;

	rcu_assign_pointer(perf_guest_cbs, NULL);
	static_call_update(__perf_guest_state, (void *)&__static_call_return0);
	static_call_update(__perf_guest_get_ip, (void *)&__static_call_return0);
	static_call_update(__perf_guest_handle_intel_pt_intr, (void *)&__static_call_return0);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(perf_unregister_guest_info_callbacks);
#endif /* CONFIG_GUEST_PERF_EVENTS */
