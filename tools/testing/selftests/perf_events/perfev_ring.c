// SPDX-License-Identifier: GPL-2.0
/*
 * Ring-buffer reader for the perf_events conformance tests.
 * See perfev_ring.h for the contract.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "perfev_ring.h"

int perfev_ring_map(struct perfev_ring *r, int fd, unsigned int data_pages, bool overwrite)
{
	long psz = sysconf(_SC_PAGESIZE);
	int prot = PROT_READ | (overwrite ? 0 : PROT_WRITE);
	void *p;

	memset(r, 0, offsetof(struct perfev_ring, rec));
	r->map_size = (size_t)(data_pages + 1) * psz;
	p = mmap(NULL, r->map_size, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->page = p;
	r->data = (char *)p + psz;
	r->data_size = (size_t)data_pages * psz;
	r->overwrite = overwrite;
	return 0;
}

void perfev_ring_unmap(struct perfev_ring *r)
{
	if (r->page)
		munmap(r->page, r->map_size);
	r->page = NULL;
}

static __u64 ring_head(struct perfev_ring *r)
{
	return __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

static void ring_set_tail(struct perfev_ring *r, __u64 tail)
{
	r->tail = tail;
	if (!r->overwrite)
		__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

__u64 perfev_ring_pending(struct perfev_ring *r)
{
	return ring_head(r) - r->tail;
}

static void ring_copy(struct perfev_ring *r, void *dst, __u64 pos, size_t len)
{
	size_t off = pos & (r->data_size - 1);
	size_t first = r->data_size - off;

	if (first > len)
		first = len;
	memcpy(dst, (char *)r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

struct perf_event_header *perfev_ring_next(struct perfev_ring *r)
{
	struct perf_event_header *h = (struct perf_event_header *)r->rec;
	__u64 head;

	if (!r->data_size)
		return NULL;
	head = ring_head(r);
	if (head - r->tail < sizeof(*h))
		return NULL;
	ring_copy(r, h, r->tail, sizeof(*h));
	if (h->size < sizeof(*h) || head - r->tail < h->size)
		return NULL;
	ring_copy(r, r->rec, r->tail, h->size);
	ring_set_tail(r, r->tail + h->size);
	return h;
}

struct perf_event_header *perfev_ring_next_unthrottled(struct perfev_ring *r)
{
	struct perf_event_header *h;

	while ((h = perfev_ring_next(r)))
		if (h->type != PERF_RECORD_THROTTLE && h->type != PERF_RECORD_UNTHROTTLE)
			return h;
	return NULL;
}

void perfev_ring_drain(struct perfev_ring *r)
{
	ring_set_tail(r, ring_head(r));
}

struct perf_event_header *perfev_ring_find(struct perfev_ring *r, __u32 type)
{
	struct perf_event_header *h;

	while ((h = perfev_ring_next(r)))
		if (h->type == type)
			return h;
	return NULL;
}

int perfev_ring_count(struct perfev_ring *r, __u32 type)
{
	struct perf_event_header h;
	__u64 head = ring_head(r), pos = r->tail;
	int n = 0;

	if (!r->data_size)
		return 0;
	while (head - pos >= sizeof(h)) {
		ring_copy(r, &h, pos, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == type)
			n++;
		pos += h.size;
	}
	return n;
}

int perfev_ring_wait(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -1;
	return n ? p.revents : 0;
}
