// SPDX-License-Identifier: GPL-2.0
/*
 * Writing records into the ring buffer (part 2, step 2): the output handle
 * of include/linux/perf_event.h, PERF_RECORD_LOST and the wakeups of
 * readers.
 *
 * Owns: perf_output_begin*() / copy / skip / end, the reservation of space
 * (free-running positions, ring_buffer_math.h), nesting, the lost count of
 * a buffer (rb->lost, then a PERF_RECORD_LOST in front of the next record
 * that fits) and of an event (event->lost_samples, PERF_FORMAT_LOST), the
 * wakeup decision (wakeup_events, the watermark) and perf_rb_wakeup().
 *
 * A record is written in three steps: begin reserves its bytes by moving
 * rb->head with a cmpxchg, copy fills them, end publishes rb->head in the
 * user page's data_head.  Writers nest on one CPU (a record from an NMI
 * inside one from an IRQ inside one from task context): rb->nest counts
 * them, and only the outermost publishes data_head, after the inner ones
 * have filled what they reserved, so user space never sees a position
 * whose bytes are not written yet.  A buffer is only ever written from one
 * CPU at a time (an event writes on the CPU it runs on, and SET_OUTPUT
 * keeps CPU events with CPU events of the same CPU and task events with the
 * same task), which is what makes local_t enough.
 *
 * Locking: none.  Records are written from any context, NMI included: no
 * lock is taken, nothing sleeps, and readers are woken from the writing
 * event's irq_work (pending_irq), never directly.  The buffer is found and
 * kept under rcu_read_lock() from begin to end (ring_buffer.c frees it
 * after a grace period).
 */
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "ring_buffer_math.h"

/* ---- reservation and publication --------------------------------------- */

/* Point @handle at byte @pos of the data area. */
static __always_inline void perf_output_seek(struct perf_output_handle *handle, unsigned long pos)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long offset = perf_rb_offset(pos, perf_rb_data_size(rb));

	handle->page = offset >> PAGE_SHIFT;
	handle->addr = perf_rb_page_addr(rb, 1 + handle->page) + offset_in_page(offset);
}

/* Move @handle on by @len bytes, no further than the end of its page. */
static void perf_output_advance(struct perf_output_handle *handle, unsigned long len)
{
	struct perf_buffer *rb = handle->rb;

	handle->addr += len;
	handle->size -= len;
	if (handle->size && !offset_in_page(handle->addr)) {
		handle->page = (handle->page + 1) & (rb->nr_pages - 1);
		handle->addr = perf_rb_page_addr(rb, 1 + handle->page);
	}
}

void perf_output_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;

	atomic_set(&handle->rb->poll, EPOLLIN | EPOLLRDNORM);
	/* from the writer's own irq_work: it runs on this CPU, NMI-safe */
	event->pending_wakeup = 1;
	irq_work_queue(&event->pending_irq);
}

/*
 * A writer is done with @rb.  The outermost one publishes rb->head as
 * data_head; if a nested writer reserved more between its read of
 * rb->head and its leaving, it publishes again.  Then, if any writer
 * since this one began made readers due a wakeup, it wakes them.
 */
static void perf_output_release(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	if (local_read(&rb->nest) > 1) {
		/* an outer writer on this CPU publishes for us */
		local_dec(&rb->nest);
		return;
	}
	for (;;) {
		head = local_read(&rb->head);
		/* the record bytes before the position that exposes them */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, head);
		barrier();
		local_set(&rb->nest, 0);
		barrier();
		if (likely(head == local_read(&rb->head)))
			break;
		/* a writer nested in since we read head: publish its record too */
		local_inc(&rb->nest);
	}
	if (handle->wakeup != local_read(&rb->wakeup_seq))
		perf_output_wakeup(handle);
}

/* A record of @event that did not fit (or the buffer is paused). */
static void perf_output_lost(struct perf_buffer *rb, struct perf_event *event)
{
	local_inc(&rb->lost);
	atomic64_inc(&perf_output_owner(event)->lost_samples);
}

/* Bytes of the PERF_RECORD_LOST that goes in front of the next record. */
static unsigned int perf_lost_record_size(struct perf_event *owner)
{
	unsigned int size = sizeof(struct perf_event_header) + 2 * sizeof(u64);

	return owner->attr.sample_id_all ? size + owner->id_header_size : size;
}

/* Write that PERF_RECORD_LOST: id, what was lost since the last one. */
static noinline void perf_output_lost_record(struct perf_output_handle *handle,
					     struct perf_event *owner)
{
	struct {
		struct perf_event_header	header;
		u64				id;
		u64				lost;
	} rec = {
		.header.type = PERF_RECORD_LOST,
		.header.size = sizeof(rec),
		.id = owner->id,
	};
	struct perf_sample_data data;

	perf_event_header__init_id(&rec.header, &data, owner);
	rec.lost = local_xchg(&handle->rb->lost, 0);
	perf_output_copy(handle, &rec, sizeof(rec));
	perf_event__output_id_sample(owner, handle, &data);
}

/*
 * Reserve @size bytes for a record of @event (written forward or
 * backward) and point @handle at them; a PERF_RECORD_LOST for what the
 * buffer dropped before goes first, in the same reservation.  0 on
 * success: the caller copies exactly @size bytes and calls
 * perf_output_end().  -ENOSPC if there is no buffer, it is paused or the
 * record does not fit (which counts it lost).
 */
static __always_inline int perf_output_reserve(struct perf_output_handle *handle,
					       struct perf_event *event,
					       unsigned int size, bool backward)
{
	struct perf_event *owner = perf_output_owner(event);
	unsigned long head, start, tail, data_size, last;
	struct perf_buffer *rb;
	bool have_lost;

	rcu_read_lock();
	rb = rcu_dereference(owner->rb);
	if (unlikely(!rb))
		goto out;
	/*
	 * A paused buffer counts what it drops; one without data pages (a
	 * mapping of the user page alone) is as good as paused for good,
	 * and counts nothing (6.1).
	 */
	if (unlikely(READ_ONCE(rb->paused) || !rb->nr_pages)) {
		if (rb->nr_pages)
			perf_output_lost(rb, event);
		goto out;
	}

	handle->rb = rb;
	handle->event = event;
	handle->flags = 0;

	have_lost = local_read(&rb->lost);
	if (unlikely(have_lost))
		size += perf_lost_record_size(owner);

	data_size = perf_rb_data_size(rb);
	local_inc(&rb->nest);
	handle->wakeup = local_read(&rb->wakeup_seq);
	do {
		/*
		 * The record's stores below depend on this load through the
		 * fits/does-not-fit branch (a control dependency): they cannot
		 * overwrite what the reader has not freed yet.  The reader
		 * orders its reads of the data before its store of data_tail.
		 */
		tail = rb->overwrite ? 0 : READ_ONCE(rb->user_page->data_tail);
		start = local_read(&rb->head);
		if (!rb->overwrite && !perf_rb_fits(start, tail, data_size, size, backward))
			goto lost;
		if (unlikely(size > data_size))
			goto lost;
		head = backward ? start - size : start + size;
	} while (local_cmpxchg(&rb->head, start, head) != start);

	handle->size = size;
	perf_output_seek(handle, backward ? head : start);

	last = local_read(&rb->wakeup_head);
	if (perf_rb_watermark_reached(last, head, rb->watermark, backward)) {
		local_set(&rb->wakeup_head, perf_rb_next_watermark(last, rb->watermark, backward));
		local_inc(&rb->wakeup_seq);
	}

	if (unlikely(have_lost))
		perf_output_lost_record(handle, owner);
	return 0;

lost:
	perf_output_lost(rb, event);
	perf_output_release(handle);
out:
	rcu_read_unlock();
	handle->rb = NULL;
	return -ENOSPC;
}

int perf_output_begin_forward(struct perf_output_handle *handle, struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return perf_output_reserve(handle, event, size, false);
}

int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return perf_output_reserve(handle, event, size, true);
}

int perf_output_begin(struct perf_output_handle *handle, struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	return perf_output_reserve(handle, event, size, event->attr.write_backward);
}

void perf_output_end(struct perf_output_handle *handle)
{
	perf_output_release(handle);
	rcu_read_unlock();
}

/* ---- copying ----------------------------------------------------------------- */

/* Copies @len bytes to @dst, returns how many it could not copy. */
typedef unsigned long (*perf_output_copy_fn)(void *dst, const void *src, unsigned long len);

/*
 * Copy @len bytes from @src into the record page by page, with @copy
 * (src + offset) or a raw fragment's @custom callback (src, offset); both
 * NULL skip the bytes.  Never writes past the reservation.  Returns what
 * was left uncopied.
 */
static __always_inline unsigned int
perf_output_pieces(struct perf_output_handle *handle, const void *src, unsigned int len,
		   perf_output_copy_fn copy, perf_copy_f custom)
{
	unsigned int want = min_t(unsigned long, len, handle->size);
	unsigned int done = 0;

	while (done < want) {
		unsigned long piece = perf_rb_chunk((unsigned long)handle->addr, want - done,
						    PAGE_SIZE);
		unsigned long missed = 0;

		if (custom)
			missed = custom(handle->addr, src, done, piece);
		else if (copy)
			missed = copy(handle->addr, src + done, piece);
		piece -= missed;
		perf_output_advance(handle, piece);
		done += piece;
		if (missed)
			break;
	}
	return len - done;
}

static unsigned long perf_output_memcpy(void *dst, const void *src, unsigned long len)
{
	memcpy(dst, src, len);
	return 0;
}

unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	/*
	 * Most copies are a field or two that end inside the current page:
	 * no page change to handle.
	 */
	if (likely(len <= handle->size && len < PAGE_SIZE - offset_in_page(handle->addr))) {
		memcpy(handle->addr, buf, len);
		handle->addr += len;
		handle->size -= len;
		return 0;
	}
	return perf_output_pieces(handle, buf, len, perf_output_memcpy, NULL);
}

unsigned int perf_output_skip(struct perf_output_handle *handle, unsigned int len)
{
	return perf_output_pieces(handle, NULL, len, NULL, NULL);
}

/* Copying user memory from any context: x86 has an NMI-safe helper. */
#ifdef arch_perf_out_copy_user
static unsigned long perf_output_user_copy(void *dst, const void *src, unsigned long len)
{
	return arch_perf_out_copy_user(dst, (const void __user *)src, len);
}
#else
static unsigned long perf_output_user_copy(void *dst, const void *src, unsigned long len)
{
	unsigned long missed;

	pagefault_disable();
	missed = __copy_from_user_inatomic(dst, (const void __user *)src, len);
	pagefault_enable();
	return missed;
}
#endif

unsigned int perf_output_copy_user(struct perf_output_handle *handle,
				   const void __user *buf, unsigned int len)
{
	return perf_output_pieces(handle, (const void __force *)buf, len, perf_output_user_copy,
				  NULL);
}

/*
 * Copy @len bytes produced by @copy (a raw record fragment's callback,
 * e.g. from an skb) into the record, piece by piece.
 */
unsigned int perf_output_copy_custom(struct perf_output_handle *handle, perf_copy_f copy,
				     const void *src, unsigned int len)
{
	return perf_output_pieces(handle, src, len, NULL, copy);
}

/* ---- whole records ----------------------------------------------------------------- */

/*
 * Write a record of @event: the fixed part @head (@head_len bytes), then
 * @tail_len bytes of @tail padded with zeros to @tail_room bytes (a
 * string's u64 padding, at most 64 bytes), then the sample_id trailer.
 * head->size is set here.  Dropped (and counted lost) if it does not fit.
 */
void perf_output_record(struct perf_event *event, struct perf_event_header *head,
			size_t head_len, const void *tail, size_t tail_len, size_t tail_room)
{
	static const u64 zeros[8];
	struct perf_output_handle handle;
	struct perf_sample_data data;

	if (WARN_ON_ONCE(tail_room < tail_len || tail_room - tail_len > sizeof(zeros)))
		return;
	head->size = head_len + tail_room;
	perf_event_header__init_id(head, &data, event);
	if (perf_output_begin(&handle, &data, event, head->size))
		return;
	perf_output_copy(&handle, head, head_len);
	perf_output_copy(&handle, tail, tail_len);
	perf_output_copy(&handle, zeros, tail_room - tail_len);
	perf_event__output_id_sample(event, &handle, &data);
	perf_output_end(&handle);
}

/* ---- wakeups --------------------------------------------------------------------- */

/* A sample of @handle's event counts toward attr.wakeup_events. */
void perf_output_count_wakeup_event(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	struct perf_buffer *rb = handle->rb;
	u32 every = event->attr.wakeup_events;

	if (event->attr.watermark || !every)
		return;
	if (local_inc_return(&rb->events) >= every) {
		local_sub(every, &rb->events);
		local_inc(&rb->wakeup_seq);
	}
}

/*
 * Wake the pollers of every event that writes into @event's buffer: with
 * SET_OUTPUT, user space polls the event that owns the mapping.
 */
void perf_rb_wakeup(struct perf_event *event)
{
	struct perf_buffer *rb;
	struct perf_event *each;

	rcu_read_lock();
	rb = rcu_dereference(perf_output_owner(event)->rb);
	if (rb) {
		list_for_each_entry_rcu(each, &rb->event_list, rb_entry)
			wake_up_all(&each->waitq);
	}
	rcu_read_unlock();
}
