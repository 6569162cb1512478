// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE (part 2, step 3): what an overflow writes into the
 * ring buffer, and the sample_id trailer of every other record.
 *
 * Owns: perf_prepare_sample() (the values and the size of each field
 * attr.sample_type asks for), perf_output_sample() (writing them in the
 * order of the ABI, include/uapi/linux/perf_event.h), the default overflow
 * handlers perf_event_output_forward/backward() and perf_event_output(),
 * the sample_id trailer (perf_event_header__init_id() and
 * perf_event__output_id_sample()), PERF_SAMPLE_READ, perf_callchain() on
 * top of callchain.c, user/interrupt registers, the user stack dump,
 * physical addresses, page sizes, and PERF_RECORD_LOST_SAMPLES.
 *
 * A PMU that knows a field better than the core (a precise IP, a data
 * address, a branch stack, a raw payload) fills it in perf_sample_data and
 * sets its bit in data->sample_flags; the core computes only the others.
 *
 * Locking: none.  Runs in the overflow context of the event (NMI, IRQ, or
 * task context with preemption off) under rcu_read_lock(), which keeps the
 * callchain buffers, the current task's cgroup and the buffer alive.
 * Nothing here sleeps or takes a lock; page tables are walked with IRQs
 * off, as fast GUP does.
 */
#include <linux/cgroup.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/pgtable.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "internal.h"

/* ---- identity: the sample_id fields --------------------------------------- */

/* The id PERF_SAMPLE_ID reports: an inherited child speaks for its parent. */
static u64 perf_primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

u32 perf_event_task_nr(struct perf_event *event, struct task_struct *task, enum pid_type type)
{
	struct perf_event *owner = event->parent ? event->parent : event;
	pid_t nr = __task_pid_nr_ns(task, type, owner->ns);

	/* a task that is being reaped has no pid any more */
	if (!nr && !pid_alive(task))
		nr = -1;
	return nr;
}

/*
 * The process and thread ids of current, as the event's namespace numbers
 * them.  The initial namespace numbers a live task by its own ids: no
 * lookup (every sample with PERF_SAMPLE_TID or sample_id_all comes here).
 */
static void perf_current_ids(struct perf_event *event, struct perf_sample_data *data)
{
	struct perf_event *owner = event->parent ? event->parent : event;

	if (likely(owner->ns == &init_pid_ns && pid_alive(current))) {
		data->tid_entry.pid = current->tgid;
		data->tid_entry.tid = current->pid;
		return;
	}
	data->tid_entry.pid = perf_event_task_nr(event, current, PIDTYPE_TGID);
	data->tid_entry.tid = perf_event_task_nr(event, current, PIDTYPE_PID);
}

/*
 * The fields of @type that identify a record: who (tid), when (time), which
 * event (id, stream_id) and where (cpu).  @keep_time: the PMU gave the
 * time already (data->sample_flags).
 */
static void perf_fill_identity(struct perf_sample_data *data, struct perf_event *event,
			       u64 type, bool keep_time)
{
	if (type & PERF_SAMPLE_TID)
		perf_current_ids(event, data);
	if ((type & PERF_SAMPLE_TIME) && !keep_time)
		data->time = event->clock();
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = perf_primary_id(event);
	if (type & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (type & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = raw_smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data, struct perf_event *event)
{
	if (!event->attr.sample_id_all)
		return;
	header->size += event->id_header_size;
	data->type = event->attr.sample_type;
	perf_fill_identity(data, event, data->type, false);
}

/* The sample_id trailer: tid, time, id, stream_id, cpu, then identifier. */
void perf_event__output_id_sample(struct perf_event *event, struct perf_output_handle *handle,
				  struct perf_sample_data *data)
{
	u64 type = data->type;

	if (!event->attr.sample_id_all)
		return;
	if (type & PERF_SAMPLE_TID)
		perf_output_put_u64(handle, data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_output_put_u64(handle, data->time);
	if (type & PERF_SAMPLE_ID)
		perf_output_put_u64(handle, data->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_put_u64(handle, data->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_output_put_u64(handle, data->cpu_entry);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put_u64(handle, data->id);
}

/* ---- callchains ------------------------------------------------------------- */

static struct perf_callchain_entry perf_no_callchain;	/* nr == 0 */

struct perf_callchain_entry *perf_callchain(struct perf_event *event, struct pt_regs *regs)
{
	bool kernel = !event->attr.exclude_callchain_kernel;
	bool user = !event->attr.exclude_callchain_user;
	/* another task's user stack is not ours to walk */
	bool crosstask = event->ctx->task && event->ctx->task != current;
	struct perf_callchain_entry *entry;

	/*
	 * No mm, no user stack: a kernel thread, or a task past exit_mm()
	 * whose page tables are being (or have been) torn down.
	 */
	if (!current->mm)
		user = false;
	if (!kernel && !user)
		return &perf_no_callchain;
	entry = get_perf_callchain(regs, 0, kernel, user, event->attr.sample_max_stack,
				   crosstask, true);
	return entry ? entry : &perf_no_callchain;
}

/* ---- registers and the user stack -------------------------------------------- */

/* The user-mode registers at the time of @regs, if there are any. */
static void perf_sample_regs_user(struct perf_regs *regs_user, struct pt_regs *regs)
{
	if (regs && user_mode(regs)) {
		regs_user->abi = perf_reg_abi(current);
		regs_user->regs = regs;
	} else if (!(current->flags & PF_KTHREAD)) {
		perf_get_regs_user(regs_user, regs);
	} else {
		regs_user->abi = PERF_SAMPLE_REGS_ABI_NONE;
		regs_user->regs = NULL;
	}
}

static unsigned int perf_regs_size(struct perf_regs *regs, u64 mask)
{
	unsigned int size = sizeof(u64);	/* abi */

	if (regs->abi != PERF_SAMPLE_REGS_ABI_NONE)
		size += hweight64(mask) * sizeof(u64);
	return size;
}

static void perf_output_regs(struct perf_output_handle *handle, struct perf_regs *regs,
			     u64 mask)
{
	unsigned long bits = mask;
	int bit;

	perf_output_put_u64(handle, regs->abi);
	if (regs->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	for_each_set_bit(bit, &bits, BITS_PER_LONG) {
		u64 value = perf_reg_value(regs->regs, bit);

		perf_output_put_u64(handle, value);
	}
}

/*
 * Bytes of user stack to dump: what attr.sample_stack_user asks for, no
 * more than lies between the stack pointer and the top of user space, and
 * no more than keeps the record (now @record_size bytes without the dump)
 * within its u16 size: the size and dyn_size words come with it.  None
 * for a task without an mm (the record then says size 0, as in 6.1).
 */
static u64 perf_ustack_dump_size(struct perf_event *event, struct pt_regs *uregs,
				 unsigned int record_size)
{
	unsigned long sp, room;
	u64 size = event->attr.sample_stack_user;

	/* an exiting task's stack may be in page tables being torn down */
	if (!uregs || !current->mm)
		return 0;
	sp = user_stack_pointer(uregs);
	if (!sp || sp >= TASK_SIZE)
		return 0;
	size = min_t(u64, size, TASK_SIZE - sp);
	room = U16_MAX - record_size - 2 * sizeof(u64);
	if (record_size + 2 * sizeof(u64) > U16_MAX)
		room = 0;
	size = min_t(u64, size, room);
	return round_down(size, sizeof(u64));
}

static void perf_output_ustack(struct perf_output_handle *handle, struct perf_sample_data *data)
{
	u64 size = data->stack_user_size, copied;
	const void __user *sp;
	unsigned int missed;

	perf_output_put_u64(handle, size);
	if (!size)
		return;
	sp = (const void __user *)user_stack_pointer(data->regs_user.regs);
	missed = perf_output_copy_user(handle, sp, size);
	/* what could not be read stays in the record, unfilled */
	perf_output_skip(handle, missed);
	copied = size - missed;
	perf_output_put_u64(handle, copied);
}

/* ---- addresses -------------------------------------------------------------------- */

/* Physical address of @virt, 0 when it cannot be found without sleeping. */
static u64 perf_virt_to_phys(u64 virt)
{
	struct page *page;
	u64 phys = 0;

	if (!virt)
		return 0;
	if (virt >= TASK_SIZE) {
		void *kaddr = (void *)(uintptr_t)virt;

		/* the linear map only: vmalloc memory reports 0 */
		if (virt_addr_valid(kaddr) &&
		    !(virt >= VMALLOC_START && virt < VMALLOC_END))
			phys = virt_to_phys(kaddr);
		return phys;
	}
	if (!current->mm)
		return 0;
	pagefault_disable();
	if (get_user_page_fast_only(virt, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(virt);
		put_page(page);
	}
	pagefault_enable();
	return phys;
}

/*
 * The size of the page (or huge page) that maps an address, found as fast
 * GUP finds pages: without locks, with IRQs off so that no page table is
 * freed under the walk.  Each level reads its entry once and goes on from
 * that copy (the *_offset_lockless() helpers), never from the table again.
 * A level ends the walk with 0 when nothing is mapped there, with the
 * entry's size when it is a leaf (a huge page), or hands its copy down.
 */
static u64 perf_pte_level_size(pmd_t pmd, unsigned long addr)
{
	pte_t *ptep = pte_offset_map(&pmd, addr);
	pte_t pte = ptep_get_lockless(ptep);

	pte_unmap(ptep);
	return pte_present(pte) ? pte_leaf_size(pte) : 0;
}

static u64 perf_pmd_level_size(pud_t pud, pud_t *pudp, unsigned long addr)
{
	pmd_t pmd = READ_ONCE(*pmd_offset_lockless(pudp, pud, addr));

	if (!pmd_present(pmd))
		return 0;
	return pmd_leaf(pmd) ? pmd_leaf_size(pmd) : perf_pte_level_size(pmd, addr);
}

static u64 perf_pud_level_size(p4d_t p4d, p4d_t *p4dp, unsigned long addr)
{
	pud_t *pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud_t pud = READ_ONCE(*pudp);

	if (!pud_present(pud))
		return 0;
	return pud_leaf(pud) ? pud_leaf_size(pud) : perf_pmd_level_size(pud, pudp, addr);
}

static u64 perf_p4d_level_size(pgd_t pgd, pgd_t *pgdp, unsigned long addr)
{
	p4d_t *p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d_t p4d = READ_ONCE(*p4dp);

	if (!p4d_present(p4d))
		return 0;
	return p4d_leaf(p4d) ? p4d_leaf_size(p4d) : perf_pud_level_size(p4d, p4dp, addr);
}

/* Page size at @addr (0: unknown, or nothing mapped there). */
static u64 perf_page_size(u64 addr)
{
	struct mm_struct *mm = addr < TASK_SIZE ? current->mm : &init_mm;
	unsigned long flags;
	pgd_t *pgdp;
	pgd_t pgd;
	u64 size = 0;

	/* the lockless walk is safe only where fast GUP is */
	if (!IS_ENABLED(CONFIG_HAVE_FAST_GUP) || !addr || !mm)
		return 0;
	local_irq_save(flags);
	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_leaf(pgd))
		size = pgd_leaf_size(pgd);
	else if (!pgd_none(pgd))
		size = perf_p4d_level_size(pgd, pgdp, addr);
	local_irq_restore(flags);
	return size;
}

static u64 perf_current_cgroup_id(void)
{
#ifdef CONFIG_CGROUP_PERF
	return cgroup_id(task_css_check(current, perf_event_cgrp_id, 1)->cgroup);
#else
	return 0;
#endif
}

/* ---- PERF_SAMPLE_READ ------------------------------------------------------------- */

/* Bring @member's count up to date if it counts here and now. */
static void perf_sample_read_member(struct perf_event *member, struct perf_event *event,
				    bool counted)
{
	if (member != event && !counted && member->state == PERF_EVENT_STATE_ACTIVE)
		member->pmu->read(member);
}

static void perf_output_read_id_lost(struct perf_output_handle *handle,
				     struct perf_event *event, u64 read_format)
{
	u64 id = perf_primary_id(event);
	u64 lost = atomic64_read(&event->lost_samples);

	if (read_format & PERF_FORMAT_ID)
		perf_output_put_u64(handle, id);
	if (read_format & PERF_FORMAT_LOST)
		perf_output_put_u64(handle, lost);
}

/* One member of a group: value, id, lost. */
static void perf_output_read_value(struct perf_output_handle *handle, struct perf_event *event,
				   u64 read_format)
{
	u64 value = perf_event_count(event);

	perf_output_put_u64(handle, value);
	perf_output_read_id_lost(handle, event, read_format);
}

/*
 * The read() format of the event (or of its group), at this instant: the
 * event's times, counts brought up to date with pmu->read (unless the PMU
 * read them already: data->sample_flags), lock-free.
 */
static void perf_output_read(struct perf_output_handle *handle, struct perf_sample_data *data,
			     struct perf_event *event)
{
	u64 read_format = event->attr.read_format;
	bool counted = data->sample_flags & PERF_SAMPLE_READ;
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned long flags;
	u64 enabled, running, nr;

	perf_time_read(&event->times, event->state,
		       perf_event_clock_peek(event, perf_clock()), &enabled, &running);
	enabled += atomic64_read(&event->child_total_time_enabled);
	running += atomic64_read(&event->child_total_time_running);

	if (!(read_format & PERF_FORMAT_GROUP)) {
		/* value, times, id, lost */
		perf_output_read_value(handle, event, 0);
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			perf_output_put_u64(handle, enabled);
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			perf_output_put_u64(handle, running);
		perf_output_read_id_lost(handle, event, read_format);
		return;
	}

	/* nr, times, then value, id, lost of each member */
	nr = leader->nr_siblings + 1;
	perf_output_put_u64(handle, nr);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		perf_output_put_u64(handle, enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		perf_output_put_u64(handle, running);
	/* IRQs off: no context switch, rotation or IPI moves the group meanwhile */
	local_irq_save(flags);
	perf_sample_read_member(leader, event, counted);
	perf_output_read_value(handle, leader, read_format);
	for_each_sibling_event(sibling, leader) {
		perf_sample_read_member(sibling, event, counted);
		perf_output_read_value(handle, sibling, read_format);
	}
	local_irq_restore(flags);
}

/*
 * PERF_RECORD_READ: an inherited inherit_stat event leaves its context
 * while its task lives on (remove_on_exec at exec; 6.1 writes none at
 * exit, where the context is already dead).  Its own final values, in its
 * read format (alone: it left its group), go where its output goes, the
 * parent's buffer, with @task's pid and tid.
 */
void perf_record_read(struct perf_event *event, struct task_struct *task)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct {
		struct perf_event_header	header;
		u32				pid, tid;
	} rec = {
		.header.type = PERF_RECORD_READ,
		.pid = perf_event_task_nr(event, task, PIDTYPE_TGID),
		.tid = perf_event_task_nr(event, task, PIDTYPE_PID),
	};
	unsigned long flags;

	data.sample_flags = 0;
	rec.header.size = sizeof(rec) +
			  perf_read_size(event->attr.read_format,
					 event->group_leader->nr_siblings + 1);
	perf_event_header__init_id(&rec.header, &data, event);
	local_irq_save(flags);
	if (!perf_output_begin(&handle, &data, event, rec.header.size)) {
		perf_output_copy(&handle, &rec, sizeof(rec));
		perf_output_read(&handle, &data, event);
		perf_event__output_id_sample(event, &handle, &data);
		perf_output_end(&handle);
	}
	local_irq_restore(flags);
}

/* ---- the sample -------------------------------------------------------------------- */

/* Size of the raw payload (u32 size + data, padded to u64); sets the pad. */
static unsigned int perf_prepare_raw(struct perf_sample_data *data)
{
	struct perf_raw_record *raw = data->raw;
	struct perf_raw_frag *frag;
	u32 sum = 0;
	unsigned int size;

	if (!raw || !(data->sample_flags & PERF_SAMPLE_RAW)) {
		data->raw = NULL;
		return sizeof(u64);	/* size 4, four zero bytes */
	}
	for (frag = &raw->frag; ; frag = frag->next) {
		sum += frag->size;
		if (perf_raw_frag_last(frag))
			break;
	}
	size = round_up(sum + sizeof(u32), sizeof(u64));
	raw->size = size - sizeof(u32);
	frag->pad = raw->size - sum;
	return size;
}

static void perf_output_raw(struct perf_output_handle *handle, struct perf_sample_data *data)
{
	struct perf_raw_record *raw = data->raw;
	struct perf_raw_frag *frag;
	static const u64 zero;

	if (!raw) {
		struct {
			u32 size;
			u32 data;
		} empty = { .size = sizeof(u32) };

		perf_output_put_u64(handle, empty);
		return;
	}
	perf_output_put(handle, raw->size);
	for (frag = &raw->frag; ; frag = frag->next) {
		if (frag->copy)
			perf_output_copy_custom(handle, frag->copy, frag->data, frag->size);
		else
			perf_output_copy(handle, frag->data, frag->size);
		if (perf_raw_frag_last(frag))
			break;
	}
	perf_output_copy(handle, &zero, frag->pad);
}

static unsigned int perf_prepare_branch_stack(struct perf_sample_data *data,
					      struct perf_event *event)
{
	unsigned int size = sizeof(u64);	/* nr */

	if (!(data->sample_flags & PERF_SAMPLE_BRANCH_STACK))
		return size;
	if (branch_sample_hw_index(event))
		size += sizeof(u64);
	return size + data->br_stack->nr * sizeof(struct perf_branch_entry);
}

static void perf_output_branch_stack(struct perf_output_handle *handle,
				     struct perf_sample_data *data, struct perf_event *event)
{
	struct perf_branch_stack *br = data->br_stack;
	u64 nr = 0;

	if (!(data->sample_flags & PERF_SAMPLE_BRANCH_STACK)) {
		perf_output_put_u64(handle, nr);
		return;
	}
	perf_output_put_u64(handle, br->nr);
	if (branch_sample_hw_index(event))
		perf_output_put_u64(handle, br->hw_idx);
	perf_output_copy(handle, br->entries, br->nr * sizeof(struct perf_branch_entry));
}

/*
 * Fill what @event's sample_type asks for and is not in data->sample_flags
 * yet, and size the record: the fixed part (event->header_size) plus the
 * variable-size fields.
 */
void perf_prepare_sample(struct perf_event_header *header, struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u64 type = event->attr.sample_type;
	u64 todo = type & ~data->sample_flags;
	unsigned int size = sizeof(*header) + event->header_size;

	header->type = PERF_RECORD_SAMPLE;
	header->misc = regs ? perf_misc_flags(regs) : 0;

	data->type = type;
	perf_fill_identity(data, event, type, data->sample_flags & PERF_SAMPLE_TIME);
	if (type & (PERF_SAMPLE_IP | PERF_SAMPLE_CODE_PAGE_SIZE))
		data->ip = regs ? perf_instruction_pointer(regs) : 0;
	if (todo & (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE) &&
	    !(data->sample_flags & PERF_SAMPLE_ADDR))
		data->addr = 0;

	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (todo & PERF_SAMPLE_CALLCHAIN)
			data->callchain = perf_callchain(event, regs);
		size += (1 + data->callchain->nr) * sizeof(u64);
	}
	if (type & PERF_SAMPLE_RAW)
		size += perf_prepare_raw(data);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		size += perf_prepare_branch_stack(data, event);
	if (type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		perf_sample_regs_user(&data->regs_user, regs);
	if (type & PERF_SAMPLE_REGS_USER)
		size += perf_regs_size(&data->regs_user, event->attr.sample_regs_user);
	if (todo & PERF_SAMPLE_WEIGHT_TYPE)
		data->weight.full = 0;
	if (todo & PERF_SAMPLE_DATA_SRC)
		data->data_src.val = PERF_MEM_NA;
	if (todo & PERF_SAMPLE_TRANSACTION)
		data->txn = 0;
	if (type & PERF_SAMPLE_REGS_INTR) {
		data->regs_intr.regs = regs;
		data->regs_intr.abi = regs ? perf_reg_abi(current) : PERF_SAMPLE_REGS_ABI_NONE;
		size += perf_regs_size(&data->regs_intr, event->attr.sample_regs_intr);
	}
	if (todo & PERF_SAMPLE_PHYS_ADDR)
		data->phys_addr = perf_virt_to_phys(data->addr);
	if (type & PERF_SAMPLE_CGROUP)
		data->cgroup = perf_current_cgroup_id();
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		data->data_page_size = perf_page_size(data->addr);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		data->code_page_size = perf_page_size(data->ip);
	if (type & PERF_SAMPLE_AUX)
		size += sizeof(u64);
	/* the dump takes what the record's u16 size leaves ... */
	if (type & PERF_SAMPLE_STACK_USER) {
		data->stack_user_size = perf_ustack_dump_size(event, data->regs_user.regs, size);
		size += sizeof(u64);
		if (data->stack_user_size)
			size += data->stack_user_size + sizeof(u64);
	}
	/* ... and an AUX snapshot what is left after it, as in 6.1 */
	if (type & PERF_SAMPLE_AUX) {
		data->aux_size = perf_aux_sample_size(event, size);
		size += data->aux_size;
	}
	WARN_ON_ONCE(size > U16_MAX);
	header->size = size;
}

/* The fields between PERIOD and WEIGHT, none of them one u64. */
#define PERF_SAMPLE_MIDDLE	(PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
				 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
				 PERF_SAMPLE_STACK_USER)
/* The fields from WEIGHT on. */
#define PERF_SAMPLE_LATE	(PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
				 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
				 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | \
				 PERF_SAMPLE_AUX)

/*
 * A u64 field of the record.  @in_page: the whole record lies inside the
 * current page, and *@p, not the handle, is where the next field goes (a
 * plain store; perf_output_sync() brings the handle up to date before
 * anything else writes).  Otherwise a checked perf_output_put().
 */
static __always_inline void perf_output_field(struct perf_output_handle *handle, u64 **p,
					      const void *field, const bool in_page)
{
	if (in_page) {
		put_unaligned(get_unaligned((const u64 *)field), *p);
		(*p)++;
	} else {
		__perf_output_put_u64(handle, field);
	}
}

static __always_inline void perf_output_sync(struct perf_output_handle *handle, u64 *p,
					     const bool in_page)
{
	if (in_page) {
		handle->size -= (void *)p - handle->addr;
		handle->addr = p;
	}
}

/*
 * Every field that @data->type asks for, in the order of the ABI.  Built
 * twice: for a record inside one page (nearly all of them), whose u64
 * fields are plain stores with no bounds check each, and for the others.
 */
static __always_inline void perf_output_sample_fields(struct perf_output_handle *handle,
						      struct perf_event_header *header,
						      struct perf_sample_data *data,
						      struct perf_event *event,
						      const bool in_page)
{
	u64 type = data->type;
	u64 *p = handle->addr;

	perf_output_field(handle, &p, header, in_page);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_field(handle, &p, &data->id, in_page);
	if (type & PERF_SAMPLE_IP)
		perf_output_field(handle, &p, &data->ip, in_page);
	if (type & PERF_SAMPLE_TID)
		perf_output_field(handle, &p, &data->tid_entry, in_page);
	if (type & PERF_SAMPLE_TIME)
		perf_output_field(handle, &p, &data->time, in_page);
	if (type & PERF_SAMPLE_ADDR)
		perf_output_field(handle, &p, &data->addr, in_page);
	if (type & PERF_SAMPLE_ID)
		perf_output_field(handle, &p, &data->id, in_page);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_field(handle, &p, &data->stream_id, in_page);
	if (type & PERF_SAMPLE_CPU)
		perf_output_field(handle, &p, &data->cpu_entry, in_page);
	if (type & PERF_SAMPLE_PERIOD)
		perf_output_field(handle, &p, &data->period, in_page);

	if (type & PERF_SAMPLE_MIDDLE) {
		perf_output_sync(handle, p, in_page);
		if (type & PERF_SAMPLE_READ)
			perf_output_read(handle, data, event);
		if (type & PERF_SAMPLE_CALLCHAIN)
			perf_output_copy(handle, data->callchain,
					 (1 + data->callchain->nr) * sizeof(u64));
		if (type & PERF_SAMPLE_RAW)
			perf_output_raw(handle, data);
		if (type & PERF_SAMPLE_BRANCH_STACK)
			perf_output_branch_stack(handle, data, event);
		if (type & PERF_SAMPLE_REGS_USER)
			perf_output_regs(handle, &data->regs_user, event->attr.sample_regs_user);
		if (type & PERF_SAMPLE_STACK_USER)
			perf_output_ustack(handle, data);
		p = handle->addr;
	}

	if (type & PERF_SAMPLE_LATE) {
		if (type & PERF_SAMPLE_WEIGHT_TYPE)
			perf_output_field(handle, &p, &data->weight.full, in_page);
		if (type & PERF_SAMPLE_DATA_SRC)
			perf_output_field(handle, &p, &data->data_src.val, in_page);
		if (type & PERF_SAMPLE_TRANSACTION)
			perf_output_field(handle, &p, &data->txn, in_page);
		if (type & PERF_SAMPLE_REGS_INTR) {
			perf_output_sync(handle, p, in_page);
			perf_output_regs(handle, &data->regs_intr, event->attr.sample_regs_intr);
			p = handle->addr;
		}
		if (type & PERF_SAMPLE_PHYS_ADDR)
			perf_output_field(handle, &p, &data->phys_addr, in_page);
		if (type & PERF_SAMPLE_CGROUP)
			perf_output_field(handle, &p, &data->cgroup, in_page);
		if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
			perf_output_field(handle, &p, &data->data_page_size, in_page);
		if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
			perf_output_field(handle, &p, &data->code_page_size, in_page);
		if (type & PERF_SAMPLE_AUX) {
			perf_output_field(handle, &p, &data->aux_size, in_page);
			perf_output_sync(handle, p, in_page);
			if (data->aux_size)
				perf_aux_sample_output(event, handle, data);
			p = handle->addr;
		}
	}
	perf_output_sync(handle, p, in_page);
}

void perf_output_sample(struct perf_output_handle *handle, struct perf_event_header *header,
			struct perf_sample_data *data, struct perf_event *event)
{
	/* the record ends before the page does: no field can cross it */
	if (likely(handle->size >= header->size &&
		   offset_in_page(handle->addr) + header->size < PAGE_SIZE))
		perf_output_sample_fields(handle, header, data, event, true);
	else
		perf_output_sample_fields(handle, header, data, event, false);
	perf_output_count_wakeup_event(handle);
}

/* ---- the default overflow handlers ---------------------------------------------- */

static __always_inline int
perf_event_write_sample(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs,
			int (*begin)(struct perf_output_handle *, struct perf_sample_data *,
				     struct perf_event *, unsigned int))
{
	struct perf_output_handle handle;
	struct perf_event_header header;
	int ret;

	rcu_read_lock();
	perf_prepare_sample(&header, data, event, regs);
	ret = begin(&handle, data, event, header.size);
	if (!ret) {
		perf_output_sample(&handle, &header, data, event);
		perf_output_end(&handle);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * The default overflow handlers (user-space sampling).  They must stay
 * distinct functions: is_default_overflow_handler() compares against them.
 */
void perf_event_output_forward(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	perf_event_write_sample(event, data, regs, perf_output_begin_forward);
}

void perf_event_output_backward(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs)
{
	perf_event_write_sample(event, data, regs, perf_output_begin_backward);
}

int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return perf_event_write_sample(event, data, regs, perf_output_begin);
}

/* PERF_RECORD_LOST_SAMPLES: samples a PMU dropped before they reached us. */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct {
		struct perf_event_header	header;
		u64				lost;
	} rec = {
		.header.type = PERF_RECORD_LOST_SAMPLES,
		.lost = lost,
	};

	perf_output_record(event, &rec.header, sizeof(rec), NULL, 0, 0);
}
