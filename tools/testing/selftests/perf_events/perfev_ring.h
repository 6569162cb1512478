/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a perf event's mmap ring buffer in the tests.
 *
 * Owns: mapping the user page plus 2^n data pages, walking records with the
 * head/tail protocol (acquire on data_head, release on data_tail) and copying
 * records that wrap around the end of the data area into a linear buffer.
 * Single consumer per ring; nothing here asserts.
 */
#ifndef PERFEV_RING_H
#define PERFEV_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#define PERFEV_RECORD_MAX	65536

struct perfev_ring {
	struct perf_event_mmap_page *page;	/* user page (page 0) */
	void *data;				/* start of the data area */
	size_t data_size;			/* bytes, power of two */
	size_t map_size;			/* whole mapping */
	__u64 tail;				/* consumer position */
	bool overwrite;				/* mapped read-only */
	unsigned char rec[PERFEV_RECORD_MAX];	/* current record, linearised */
};

/*
 * Map @data_pages (a power of two, may be 0) data pages of @fd plus the user
 * page.  @overwrite maps read-only (overwrite mode).  Returns 0 or -1/errno.
 */
int perfev_ring_map(struct perfev_ring *r, int fd, unsigned int data_pages, bool overwrite);
void perfev_ring_unmap(struct perfev_ring *r);

/* Bytes published by the kernel and not yet consumed (head - tail). */
__u64 perfev_ring_pending(struct perfev_ring *r);

/*
 * Next record, copied into r->rec (so a record that wraps is contiguous), or
 * NULL when the ring is empty.  Consumes it: data_tail is advanced.
 */
struct perf_event_header *perfev_ring_next(struct perfev_ring *r);

/*
 * Next record that is not a PERF_RECORD_THROTTLE/UNTHROTTLE (skipped and
 * consumed): a kernel throttles a fast sampler whenever
 * perf_event_max_sample_rate says so, and lowers that rate by itself when
 * its overflow interrupts are slow (TCG, debug kernels), on 6.1 as on ours.
 */
struct perf_event_header *perfev_ring_next_unthrottled(struct perfev_ring *r);

/* Drop everything published so far. */
void perfev_ring_drain(struct perfev_ring *r);

/*
 * Find the next record of @type, skipping (and consuming) others; NULL when
 * the ring holds none.
 */
struct perf_event_header *perfev_ring_find(struct perfev_ring *r, __u32 type);

/* Count records of @type without consuming them beyond the current head. */
int perfev_ring_count(struct perfev_ring *r, __u32 type);

/* poll(2) @fd for POLLIN up to @timeout_ms; returns revents, 0 on timeout, -1 on error. */
int perfev_ring_wait(int fd, int timeout_ms);

#endif /* PERFEV_RING_H */
