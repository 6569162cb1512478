// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area of a ring buffer: the second mapping of an event of a PMU
 * with an AUX area (pmu->setup_aux), into which the PMU's hardware (Intel
 * PT, CoreSight, the testbed's perfev_aux PMU) writes its trace while the
 * data pages get PERF_RECORD_AUX records that say where each piece went.
 *
 * Owns: allocating and freeing the area's pages (high-order chunks where
 * the page allocator has them, no larger than the wakeup watermark, one
 * chunk for an overwrite area of a PERF_PMU_CAP_AUX_NO_SG PMU;
 * a chunk's order is in page_private() of its first page, PagePrivate set,
 * as drivers expect), mmap() and munmap() of the area with the checks of
 * 6.1 on the aux_offset/aux_size user space put in the user page, the
 * memory-lock accounting of its pages, and stopping the area's writer
 * before its pages go.  Writing into it is aux_output.c's.
 *
 * Lifetime: rb->aux_refcount counts the area's mappings (one reference for
 * all of them; rb->aux_mmap_count counts the VMAs) and the open AUX handle
 * of its writer.  When the last AUX mapping goes, aux_mmap_count is 0 so
 * no handle can open any more, the writer is stopped on its CPU (a PMU
 * closes its handle in pmu->stop()), and the mappings' reference is
 * dropped: the area is freed with the last reference.  Each AUX VMA also
 * holds the buffer itself, as a data mapping does.
 *
 * Locking: rb->aux_mutex serialises AUX mmap and munmap of a buffer (it is
 * shared by every event writing into it, so the events' mmap_mutex is not
 * enough); it nests inside event->mmap_mutex and the mm's mmap_lock.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

/* ---- pages ------------------------------------------------------------- */

static void perf_aux_free(struct perf_buffer *rb)
{
	int i;

	if (rb->aux_priv && rb->aux_free)
		rb->aux_free(rb->aux_priv);
	for (i = 0; i < rb->aux_nr_pages && rb->aux_pages[i]; i++) {
		struct page *page = virt_to_page(rb->aux_pages[i]);

		page->mapping = NULL;
		if (PagePrivate(page)) {
			ClearPagePrivate(page);
			set_page_private(page, 0);
		}
		__free_page(page);
	}
	kvfree(rb->aux_pages);
	rb->aux_pages = NULL;
	rb->aux_priv = NULL;
	WRITE_ONCE(rb->aux_nr_pages, 0);
}

void perf_aux_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->aux_refcount))
		perf_aux_free(rb);
}

/*
 * One chunk of at most 2^@order pages (fewer if the allocator has no such
 * block), split into pages that are each refcounted on their own, as the
 * fault handler maps them one by one.  Returns the chunk's order or -1.
 */
static int perf_aux_alloc_chunk(int node, int order, struct page **chunk)
{
	struct page *page;

	for (; order > 0; order--) {
		page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
					__GFP_NORETRY, order);
		if (page) {
			split_page(page, order);
			SetPagePrivate(page);
			set_page_private(page, order);
			*chunk = page;
			return order;
		}
	}
	page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);
	*chunk = page;
	return page ? 0 : -1;
}

static int perf_aux_alloc_pages(struct perf_buffer *rb, int node, int max_order)
{
	int done = 0;

	while (done < rb->aux_nr_pages) {
		struct page *chunk;
		int order, i;

		order = perf_aux_alloc_chunk(node, min(max_order, ilog2(rb->aux_nr_pages - done)),
					     &chunk);
		if (order < 0)
			return -ENOMEM;
		for (i = 0; i < 1 << order; i++)
			rb->aux_pages[done++] = page_address(chunk + i);
	}
	return 0;
}

/*
 * The area of @nr_pages pages at page offset @pgoff, given to @event's PMU.
 * Chunks, as in 6.1: in overwrite mode as large as the area (a PMU that
 * cannot scatter, PERF_PMU_CAP_AUX_NO_SG, needs it in one piece: it wraps
 * without an interrupt), otherwise no larger than the watermark, so that
 * a PMU that double-buffers can stop at a chunk's end when the reader is
 * due a wakeup.
 */
static int perf_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
			  unsigned long pgoff, unsigned long nr_pages, bool overwrite)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	bool one_chunk = overwrite && (event->pmu->capabilities & PERF_PMU_CAP_AUX_NO_SG);
	unsigned long watermark = 0;
	int max_order, ret;

	if (nr_pages > INT_MAX)
		return -ENOMEM;
	if (!overwrite) {
		/* half the area unless attr.aux_watermark says otherwise */
		watermark = event->attr.aux_watermark ?:
			    min_t(unsigned long, U32_MAX, nr_pages << (PAGE_SHIFT - 1));
		max_order = get_order(watermark);
	} else {
		max_order = ilog2(nr_pages);
	}
	/* (a one-chunk area larger than the allocator's blocks fails below) */
	max_order = min(max_order, MAX_ORDER - 1);

	rb->aux_pages = kvzalloc_node(array_size(nr_pages, sizeof(void *)), GFP_KERNEL, node);
	if (!rb->aux_pages)
		return -ENOMEM;
	rb->aux_nr_pages = nr_pages;
	rb->aux_priv = NULL;
	ret = perf_aux_alloc_pages(rb, node, max_order);
	/* such a PMU addresses the area as one physically contiguous block */
	if (!ret && one_chunk && nr_pages > 1 &&
	    page_private(virt_to_page(rb->aux_pages[0])) != ilog2(nr_pages))
		ret = -ENOMEM;
	if (!ret) {
		rb->aux_priv = event->pmu->setup_aux(event, rb->aux_pages, nr_pages, overwrite);
		if (!rb->aux_priv)
			ret = -ENOMEM;
	}
	if (ret) {
		perf_aux_free(rb);
		return ret;
	}
	rb->aux_free = event->pmu->free_aux;
	rb->aux_pmu = event->pmu;
	rb->aux_pgoff = pgoff;
	rb->aux_overwrite = overwrite;
	rb->aux_watermark = watermark;
	/* positions go on from where a previous area left them (user's aux_tail) */
	rb->aux_wakeup = rb->aux_head;
	refcount_set(&rb->aux_refcount, 1);
	return 0;
}

struct page *perf_aux_page(struct perf_buffer *rb, unsigned long pgoff)
{
	unsigned long nr_pages = READ_ONCE(rb->aux_nr_pages);

	unsigned long idx = pgoff - rb->aux_pgoff;

	if (!nr_pages || pgoff < rb->aux_pgoff || idx >= nr_pages)
		return NULL;
	/* user space picks pgoff: no speculative load past the array */
	return virt_to_page(rb->aux_pages[array_index_nospec(idx, nr_pages)]);
}

/* ---- mapping ------------------------------------------------------------- */

/*
 * An AUX mapping of @event (event->mmap_mutex held).  As in 6.1: EINVAL
 * without a mapped buffer, for an aux_offset inside the data pages or other
 * than the mapping's offset, an aux_size other than the mapping's size or
 * not a power-of-two number of pages, and for a second mapping that does
 * not match the area; EOPNOTSUPP for a PMU without an AUX area; EPERM over
 * the memory-lock limits.  Returns the buffer with the VMA's reference.
 */
struct perf_buffer *perf_mmap_aux(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;
	unsigned long nr_pages = size >> PAGE_SHIFT;
	struct perf_buffer *rb = event->rb;
	u64 offset, aux_size;
	long pinned;
	int ret;

	lockdep_assert_held(&event->mmap_mutex);
	if (!rb)
		return ERR_PTR(-EINVAL);
	offset = READ_ONCE(rb->user_page->aux_offset);
	aux_size = READ_ONCE(rb->user_page->aux_size);
	if (offset < perf_rb_data_size(rb) + PAGE_SIZE ||
	    offset != (u64)vma->vm_pgoff << PAGE_SHIFT ||
	    aux_size != size || !is_power_of_2(nr_pages))
		return ERR_PTR(-EINVAL);

	mutex_lock(&rb->aux_mutex);
	ret = -EINVAL;
	if (rb->aux_nr_pages) {
		/* a second mapping of the area: the same pages */
		if (rb->aux_pgoff != vma->vm_pgoff || rb->aux_nr_pages != nr_pages ||
		    !atomic_inc_not_zero(&rb->aux_mmap_count))
			goto unlock;
		if (!atomic_inc_not_zero(&rb->mmap_count)) {
			atomic_dec(&rb->aux_mmap_count);
			goto unlock;
		}
		goto mapped;
	}

	ret = -EOPNOTSUPP;
	if (!has_aux(event))
		goto unlock;
	pinned = perf_mmap_charge(vma, nr_pages);
	if (pinned < 0) {
		ret = pinned;
		goto unlock;
	}
	ret = perf_aux_alloc(rb, event, vma->vm_pgoff, nr_pages, !(vma->vm_flags & VM_WRITE));
	if (!ret && !atomic_inc_not_zero(&rb->mmap_count)) {
		/* the buffer's last mapping is going */
		perf_aux_put(rb);
		ret = -EINVAL;
	}
	if (ret) {
		atomic_long_sub(nr_pages - pinned, &current_user()->locked_vm);
		atomic64_sub(pinned, &vma->vm_mm->pinned_vm);
		goto unlock;
	}
	rb->aux_mmap_pinned = pinned;
	rb->aux_mmap_user = get_current_user();
	/* the area is complete before a writer can see it mapped */
	atomic_set_release(&rb->aux_mmap_count, 1);
mapped:
	refcount_inc(&rb->refcount);
	ret = 0;
unlock:
	mutex_unlock(&rb->aux_mutex);
	return ret ? ERR_PTR(ret) : rb;
}

/*
 * On each CPU, with IRQs off: if the area's writer runs here, stop it; its
 * PMU closes the handle in pmu->stop().  The writer stays stopped until it
 * is scheduled in again (6.1 does the same).  A handle is only opened with
 * IRQs off, so once this ran everywhere no handle is open and none opens:
 * aux_mmap_count is 0.
 */
static void perf_aux_stop_local(void *info)
{
	struct perf_buffer *rb = info;
	struct perf_event *writer = READ_ONCE(rb->aux_writer);

	if (writer && READ_ONCE(writer->oncpu) == smp_processor_id() &&
	    READ_ONCE(writer->state) == PERF_EVENT_STATE_ACTIVE)
		writer->pmu->stop(writer, PERF_EF_UPDATE);
}

void perf_munmap_aux(struct perf_buffer *rb, struct vm_area_struct *vma)
{
	mutex_lock(&rb->aux_mutex);
	if (atomic_dec_and_test(&rb->aux_mmap_count)) {
		on_each_cpu(perf_aux_stop_local, rb, 1);
		WARN_ON_ONCE(READ_ONCE(rb->aux_writer));
		atomic_long_sub(rb->aux_nr_pages - rb->aux_mmap_pinned,
				&rb->aux_mmap_user->locked_vm);
		atomic64_sub(rb->aux_mmap_pinned, &vma->vm_mm->pinned_vm);
		free_uid(rb->aux_mmap_user);
		rb->aux_mmap_user = NULL;
		perf_aux_put(rb);
	}
	mutex_unlock(&rb->aux_mutex);
}
