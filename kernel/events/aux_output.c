// SPDX-License-Identifier: GPL-2.0
/*
 * Writing into the AUX area (the PMU driver's side) and the records and
 * samples that go with it.
 *
 * Owns: the AUX handle API of include/linux/perf_event.h
 * (perf_aux_output_begin/end/skip/flag, perf_get_aux,
 * perf_output_copy_aux), PERF_RECORD_AUX, PERF_RECORD_ITRACE_START,
 * PERF_RECORD_AUX_OUTPUT_HW_ID, the link of an aux_output or
 * aux_sample_size event to its AUX group leader (event->aux_event) and
 * the PERF_SAMPLE_AUX snapshot.  The area itself is aux_area.c's.
 *
 * A driver opens a handle when its event starts tracing and closes it in
 * pmu->stop() or from its interrupt, giving the bytes it wrote (or, in
 * overwrite mode, its new head in handle->head).  One handle at most is
 * open on an area: rb->aux_writer is claimed by cmpxchg, so a second AUX
 * event writing into the same buffer gets no handle instead of corrupting
 * the first one's positions.  A full area (non-overwrite) gives no handle
 * and disables the event, as a TRUNCATED end does, until user space has
 * read the data and enables it again.
 *
 * Locking: none.  Handles open and close with IRQs off on the event's CPU
 * (NMI included); the open handle holds a reference on the buffer and on
 * the area.  Readers are woken from the event's irq_work.
 */
#include <linux/perf_event.h>

#include "internal.h"
#include "ring_buffer_math.h"

/* ---- the AUX handle ------------------------------------------------------ */

void *perf_aux_output_begin(struct perf_output_handle *handle, struct perf_event *event)
{
	struct perf_buffer *rb;
	unsigned long head, tail;

	handle->event = NULL;
	handle->rb = NULL;
	rb = perf_rb_get(perf_output_owner(event));
	if (!rb)
		return NULL;
	/* an area being unmapped takes no more writers (aux_area.c) */
	if (!atomic_read_acquire(&rb->aux_mmap_count) ||
	    !refcount_inc_not_zero(&rb->aux_refcount))
		goto put_rb;
	/*
	 * The private data is its PMU's: another PMU's event that reached
	 * the buffer (two AUX events redirected into a third event's buffer,
	 * which SET_OUTPUT's check between the two cannot see) gets none.
	 */
	if (rb->aux_pmu != event->pmu)
		goto put_aux;
	if (cmpxchg(&rb->aux_writer, NULL, event))
		goto put_aux;

	head = rb->aux_head;
	handle->rb = rb;
	handle->event = event;
	handle->head = head;
	handle->size = 0;
	handle->aux_flags = 0;
	if (!rb->aux_overwrite) {
		tail = READ_ONCE(rb->user_page->aux_tail);
		handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
		/* a tail from the future is a full area, as in 6.1 */
		if (head - tail < perf_aux_size(rb))
			handle->size = perf_rb_room(head, tail, perf_aux_size(rb), false);
		if (!handle->size) {
			perf_event_disable_inatomic(event);
			perf_output_wakeup(handle);
			handle->event = NULL;
			/* our reads of the area's fields before the next writer's writes */
			smp_store_release(&rb->aux_writer, NULL);
			goto put_aux;
		}
	}
	return rb->aux_priv;

put_aux:
	perf_aux_put(rb);
put_rb:
	perf_rb_put(rb);
	handle->rb = NULL;
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

struct perf_aux_record {
	struct perf_event_header	header;
	u64				offset;
	u64				size;
	u64				flags;
};

/* AUX readers are due a wakeup once a watermark's worth was written. */
static bool perf_aux_watermark_passed(struct perf_buffer *rb)
{
	if (rb->aux_overwrite || rb->aux_head - rb->aux_wakeup < rb->aux_watermark)
		return false;
	rb->aux_wakeup = rb->aux_head - rb->aux_head % rb->aux_watermark;
	return true;
}

/*
 * Close @handle: @size bytes were written from handle->head on (overwrite
 * mode: the driver's new position is in handle->head).  A PERF_RECORD_AUX
 * says so unless nothing but the OVERWRITE flag and the PMU's trace format
 * would be in it.
 */
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	bool wakeup = handle->aux_flags & PERF_AUX_FLAG_TRUNCATED;
	unsigned long start;

	if (WARN_ON_ONCE(!event || !rb))
		return;
	if (rb->aux_overwrite) {
		handle->aux_flags |= PERF_AUX_FLAG_OVERWRITE;
		start = handle->head;
		rb->aux_head = handle->head;
	} else {
		handle->aux_flags &= ~PERF_AUX_FLAG_OVERWRITE;
		start = rb->aux_head;
		rb->aux_head += size;
	}
	/* the OVERWRITE flag or a PMU's trace format alone says nothing new */
	if (size || (handle->aux_flags & ~(u64)(PERF_AUX_FLAG_OVERWRITE |
						PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK))) {
		struct perf_aux_record rec = {
			.header.type = PERF_RECORD_AUX,
			.offset = start,
			.size = size,
			.flags = handle->aux_flags,
		};

		perf_output_record(event, &rec.header, sizeof(rec), NULL, 0, 0);
	}
	/* the trace bytes before the head that exposes them */
	smp_wmb();
	WRITE_ONCE(rb->user_page->aux_head, rb->aux_head);
	if (perf_aux_watermark_passed(rb))
		wakeup = true;
	if (wakeup) {
		if (handle->aux_flags & PERF_AUX_FLAG_TRUNCATED)
			perf_event_disable_inatomic(event);
		perf_output_wakeup(handle);
	}

	handle->event = NULL;
	handle->rb = NULL;
	/* our updates of aux_head/aux_wakeup before the next writer reads them */
	smp_store_release(&rb->aux_writer, NULL);
	perf_aux_put(rb);
	perf_rb_put(rb);
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/* Skip @size bytes (padding the hardware wants) without a record. */
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_buffer *rb = handle->rb;

	if (!rb || size > handle->size)
		return -ENOSPC;
	rb->aux_head += size;
	WRITE_ONCE(rb->user_page->aux_head, rb->aux_head);
	if (perf_aux_watermark_passed(rb)) {
		perf_output_wakeup(handle);
		handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
	}
	handle->head = rb->aux_head;
	handle->size -= size;
	return 0;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

void *perf_get_aux(struct perf_output_handle *handle)
{
	return handle->event ? handle->rb->aux_priv : NULL;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	handle->aux_flags |= flags;
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/*
 * Copy the AUX bytes [@from, @to) of @aux_handle's area (positions taken
 * modulo its size; @from == @to: the whole area) into the record of
 * @handle.  For a driver's pmu->snapshot_aux().  Returns the bytes copied.
 */
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to)
{
	struct perf_buffer *rb = aux_handle->rb;
	unsigned long size, len, done = 0;

	if (!rb)
		return 0;
	size = perf_aux_size(rb);
	len = (to - from) & (size - 1);
	if (!len)
		len = size;
	while (done < len) {
		unsigned long offset = (from + done) & (size - 1);
		unsigned long piece = min(len - done, PAGE_SIZE - offset_in_page(offset));
		void *addr = rb->aux_pages[offset >> PAGE_SHIFT] + offset_in_page(offset);

		if (perf_output_copy(handle, addr, piece))
			return -EFAULT;
		done += piece;
	}
	return done;
}

/* ---- records ---------------------------------------------------------------- */

struct perf_itrace_start_record {
	struct perf_event_header	header;
	u32				pid;
	u32				tid;
};

/*
 * Before an event of an instruction-trace PMU goes on its CPU, tell the
 * decoder which task the trace that follows belongs to; once per event if
 * its driver calls perf_event_itrace_started(), else at each sched-in.
 */
void perf_record_itrace_start(struct perf_event *event)
{
	struct perf_event *owner = perf_output_owner(event);
	struct perf_itrace_start_record rec = {
		.header.type = PERF_RECORD_ITRACE_START,
	};

	if (owner->attach_state & PERF_ATTACH_ITRACE)
		return;
	rec.pid = perf_event_task_nr(event, current, PIDTYPE_TGID);
	rec.tid = perf_event_task_nr(event, current, PIDTYPE_PID);
	perf_output_record(event, &rec.header, sizeof(rec), NULL, 0, 0);
}

void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

struct perf_aux_hw_id_record {
	struct perf_event_header	header;
	u64				hw_id;
};

/* The driver tells which hardware id tags @event's data in the AUX trace. */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct perf_aux_hw_id_record rec = {
		.header.type = PERF_RECORD_AUX_OUTPUT_HW_ID,
		.hw_id = hw_id,
	};

	perf_output_record(perf_output_owner(event), &rec.header, sizeof(rec), NULL, 0, 0);
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

/* ---- aux_output and aux_sample_size events --------------------------------- */

/*
 * As in 6.1 (EINVAL for each): both attributes at once, no group leader,
 * aux_output to a leader the event's PMU cannot write into
 * (pmu->aux_output_match), aux_sample_size with a leader whose PMU takes
 * no snapshots.  The link lives as long as the group: perf_group_detach()
 * cuts it.
 */
int perf_aux_link(struct perf_event *event, struct perf_event *leader)
{
	const struct perf_event_attr *attr = &event->attr;

	if (!attr->aux_output && !attr->aux_sample_size)
		return 0;
	if (!leader || (attr->aux_output && attr->aux_sample_size))
		return -EINVAL;
	if (attr->aux_output &&
	    (!has_aux(leader) || !event->pmu->aux_output_match ||
	     !event->pmu->aux_output_match(leader)))
		return -EINVAL;
	if (attr->aux_sample_size && !leader->pmu->snapshot_aux)
		return -EINVAL;
	event->aux_event = leader;
	return 0;
}

/* ---- PERF_SAMPLE_AUX ---------------------------------------------------------- */

/* The AUX area of @event's aux_event if it is tracing on this CPU, held. */
static struct perf_buffer *perf_aux_sampler_rb(struct perf_event *event,
					       struct perf_event **sampler)
{
	struct perf_event *aux = READ_ONCE(event->aux_event);
	struct perf_buffer *rb;

	if (!aux || READ_ONCE(aux->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(aux->oncpu) != smp_processor_id())
		return NULL;
	rb = perf_rb_get(perf_output_owner(aux));
	/* (an area of another PMU's is not the sampler's to copy from) */
	if (rb && (!READ_ONCE(rb->aux_nr_pages) || READ_ONCE(rb->aux_pmu) != aux->pmu)) {
		perf_rb_put(rb);
		rb = NULL;
	}
	*sampler = aux;
	return rb;
}

/*
 * attr.aux_sample_size bytes of the latest trace, no more than the u16
 * record size leaves after @size bytes, rounded down to u64 (as 6.1), no
 * more than the area holds; 0 when nothing traces here, or when this
 * sample interrupted the snapshot of another one.
 */
u32 perf_aux_sample_size(struct perf_event *event, u16 size)
{
	struct perf_event *sampler;
	struct perf_buffer *rb = perf_aux_sampler_rb(event, &sampler);
	unsigned long len = 0;

	if (!rb)
		return 0;
	if (!READ_ONCE(rb->aux_in_sampling)) {
		len = min_t(unsigned long, U16_MAX - size, event->attr.aux_sample_size);
		len = min(round_down(len, sizeof(u64)), perf_aux_size(rb));
	}
	perf_rb_put(rb);
	return len;
}

/*
 * The snapshot itself: data->aux_size bytes from the aux_event's PMU, the
 * rest zero-filled (6.1 pads at most 8 bytes and leaves the record short
 * otherwise) so that the record always has the size its header says.
 */
void perf_aux_sample_output(struct perf_event *event, struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
	static const u64 zeros[8];
	struct perf_event *sampler;
	struct perf_buffer *rb = perf_aux_sampler_rb(event, &sampler);
	unsigned long flags;
	long done = 0;

	if (rb) {
		WRITE_ONCE(rb->aux_in_sampling, true);
		barrier();
		/* the PMU's start/stop run with IRQs off: keep them out */
		local_irq_save(flags);
		done = sampler->pmu->snapshot_aux(sampler, handle, data->aux_size);
		local_irq_restore(flags);
		barrier();
		WRITE_ONCE(rb->aux_in_sampling, false);
		perf_rb_put(rb);
	}
	if (done < 0)
		done = 0;
	while (done < data->aux_size) {
		unsigned long piece = min_t(unsigned long, data->aux_size - done, sizeof(zeros));

		perf_output_copy(handle, zeros, piece);
		done += piece;
	}
}
