/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring-buffer arithmetic of perf events: where a record goes in the data
 * area, whether it fits, and when readers are due a wakeup.  Pure functions,
 * no locking of their own; the writer (output.c, part 2) calls them with
 * the buffer's write side held.
 *
 * Positions are free-running u64 byte counts, never reduced: data_head as
 * user space reads it.  The data area is @size bytes, a power of two, and a
 * position is masked only to address it.  A forward buffer's writer
 * advances head and the reader advances data_tail; the records not yet read
 * are [tail, head).  A backward buffer (attr.write_backward) is written from
 * the top down: head moves down from 0 (wrapping as u64) and the records
 * not yet read are [head, tail).
 *
 * As in 6.1, one byte of the area always stays free: a writer that checks
 * space never lets head catch up with the reader's tail, so a full buffer
 * and an empty one never look alike.  A tail user space moved to a bogus
 * place is taken modulo the size, never trusted further.
 *
 * KUnit: ring_buffer_math_test.c.
 */
#ifndef _KERNEL_EVENTS_RING_BUFFER_MATH_H
#define _KERNEL_EVENTS_RING_BUFFER_MATH_H

#include <linux/minmax.h>
#include <linux/types.h>

/* Byte offset of position @pos in a data area of @size bytes. */
static inline unsigned long perf_rb_offset(u64 pos, unsigned long size)
{
	return pos & (size - 1);
}

/* Bytes the writer may still add before it reaches the reader. */
static inline unsigned long perf_rb_room(u64 head, u64 tail, unsigned long size,
					 bool backward)
{
	if (backward)
		return (head - tail - 1) & (size - 1);
	return (tail - head - 1) & (size - 1);
}

/* Whether a @len-byte record fits without overwriting unread data. */
static inline bool perf_rb_fits(u64 head, u64 tail, unsigned long size,
				unsigned long len, bool backward)
{
	return len <= perf_rb_room(head, tail, size, backward);
}

/*
 * Bytes of a copy of @len bytes at @pos that go before the next @unit
 * boundary (a page of a page-array buffer, or the end of a contiguous
 * area): a record is copied in pieces, each ending at a boundary or at
 * the end of the record.
 */
static inline unsigned long perf_rb_chunk(u64 pos, unsigned long len, unsigned long unit)
{
	return min(len, unit - perf_rb_offset(pos, unit));
}

/*
 * The wakeup watermark of a @size-byte area: attr.wakeup_watermark bytes
 * (with attr.watermark set), at most the whole area; half the area when
 * none is given.
 */
static inline unsigned long perf_rb_watermark(unsigned long size, unsigned long wanted)
{
	if (wanted)
		return min(wanted, size);
	return size / 2;
}

/*
 * Whether head, now at @to, is more than @mark bytes past @last (the
 * previous wakeup's mark), counted in the direction of writing: as in 6.1,
 * exactly at the watermark is not past it.
 */
static inline bool perf_rb_watermark_reached(u64 last, u64 to, unsigned long mark,
					     bool backward)
{
	u64 written = backward ? last - to : to - last;

	return written > mark;
}

/*
 * The mark the next wakeup counts from: one watermark on from @last, so
 * that wakeups keep to multiples of it however far one record jumps.
 */
static inline u64 perf_rb_next_watermark(u64 last, unsigned long mark, bool backward)
{
	return backward ? last - mark : last + mark;
}

#endif /* _KERNEL_EVENTS_RING_BUFFER_MATH_H */
