// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring buffer of perf events (part 2, step 1): struct perf_buffer,
 * mapping and unmapping it, the user page, which events write into which
 * buffer (PERF_EVENT_IOC_SET_OUTPUT and PERF_FLAG_FD_OUTPUT) and poll().
 *
 * Owns: perf_mmap() and the vm operations of a mapping, the memory-lock
 * accounting (perf_event_mlock_kb per user, then RLIMIT_MEMLOCK against the
 * mm's pinned_vm unless CAP_IPC_LOCK), perf_event_set_output(),
 * perf_event_update_userpage(), perf_poll() and the detach of a freed
 * event.  Writing records into the data pages is output.c's (step 2); an
 * AUX mapping (non-zero offset) goes from here to aux_area.c.  The pages
 * are separate pages, or one vmalloc area with CONFIG_PERF_USE_VMALLOC
 * (struct perf_buffer).
 *
 * Lifetime: a buffer is refcounted.  Each event attached to it (event->rb,
 * on rb->event_list) holds a reference, and so does each VMA that maps it
 * (vma->vm_private_data).  rb->mmap_count counts the VMAs: when the last one
 * goes, every event is detached and the pages charged to the mapper are
 * given back; the memory goes with the last reference, after an RCU grace
 * period (writers and the user-page update find event->rb under RCU).
 *
 * Locking: event->mmap_mutex serialises mmap, the last munmap and
 * SET_OUTPUT of an event (both events' mutexes, in address order, for
 * SET_OUTPUT); it nests inside ctx->mutex (the ioctl) and inside the mm's
 * mmap_lock (mmap and munmap).  rb->event_lock (IRQ-safe spinlock) guards
 * the writers of rb->event_list; readers walk it under RCU.
 * perf_event_update_userpage() takes no lock: it may run in NMI context.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/sched/user.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "ring_buffer_math.h"

/* ---- buffer allocation and references ----------------------------------- */

static void perf_rb_free_pages(struct perf_buffer *rb)
{
	int i;

	for (i = 0; i <= rb->nr_pages; i++) {
		struct page *page = rb->pages[i];

		if (!page)
			continue;
		/* the fault handler made the pages look like a file's */
		page->mapping = NULL;
		if (!IS_ENABLED(CONFIG_PERF_USE_VMALLOC))
			__free_page(page);
	}
	if (IS_ENABLED(CONFIG_PERF_USE_VMALLOC))
		vfree(rb->vmalloc_area);
	kfree(rb);
}

/*
 * The user page and @rb->nr_pages data pages, zeroed, into rb->pages[]:
 * separate pages on @node, or one vmalloc_user() area (see struct
 * perf_buffer).  False if memory is short.
 */
static bool perf_rb_alloc_pages(struct perf_buffer *rb, int node)
{
	int i;

	if (IS_ENABLED(CONFIG_PERF_USE_VMALLOC)) {
		rb->vmalloc_area = vmalloc_user((unsigned long)(rb->nr_pages + 1) << PAGE_SHIFT);
		if (!rb->vmalloc_area)
			return false;
		for (i = 0; i <= rb->nr_pages; i++)
			rb->pages[i] = vmalloc_to_page(perf_rb_page_addr(rb, i));
		return true;
	}
	for (i = 0; i <= rb->nr_pages; i++) {
		rb->pages[i] = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);
		if (!rb->pages[i])
			return false;
	}
	return true;
}

static void perf_rb_free_rcu(struct rcu_head *head)
{
	perf_rb_free_pages(container_of(head, struct perf_buffer, rcu_head));
}

/*
 * A buffer of the user page and @nr_pages data pages (0 or a power of two),
 * on @cpu's node when the event is bound to a CPU.
 */
static struct perf_buffer *perf_rb_alloc(int nr_pages, unsigned long watermark,
					 int cpu, bool overwrite)
{
	int node = cpu == -1 ? NUMA_NO_NODE : cpu_to_node(cpu);
	struct perf_buffer *rb;
	size_t size;

	size = struct_size(rb, pages, nr_pages + 1);
	/* a page array past kmalloc's largest block: ENOMEM, quietly (6.1) */
	if (size > KMALLOC_MAX_SIZE)
		return NULL;
	rb = kzalloc_node(size, GFP_KERNEL, node);
	if (!rb)
		return NULL;
	rb->nr_pages = nr_pages;
	if (!perf_rb_alloc_pages(rb, node)) {
		perf_rb_free_pages(rb);
		return NULL;
	}
	rb->user_page = perf_rb_page_addr(rb, 0);
	rb->overwrite = overwrite;
	rb->watermark = perf_rb_watermark(perf_rb_data_size(rb), watermark);
	refcount_set(&rb->refcount, 1);
	mutex_init(&rb->aux_mutex);
	spin_lock_init(&rb->event_lock);
	INIT_LIST_HEAD(&rb->event_list);
	return rb;
}

void perf_rb_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->refcount))
		call_rcu(&rb->rcu_head, perf_rb_free_rcu);
}

/* The buffer @event writes to, with a reference, or NULL. */
struct perf_buffer *perf_rb_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	return rb;
}

/*
 * Point @event at @rb (NULL: at none), moving it between the buffers'
 * event lists; the event's reference moves with it; a running AUX event
 * stops first.  Pollers of the event
 * are woken when it leaves a buffer: they waited on that one's records.
 * Called with event->mmap_mutex held; takes over one reference to @rb.
 */
static void perf_rb_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old = event->rb;
	unsigned long flags;

	lockdep_assert_held(&event->mmap_mutex);
	if (old) {
		spin_lock_irqsave(&old->event_lock, flags);
		list_del_rcu(&event->rb_entry);
		spin_unlock_irqrestore(&old->event_lock, flags);
		/* rb_entry may be walked until a grace period has passed */
		event->rcu_batches = get_state_synchronize_rcu();
		event->rcu_pending = 1;
	}
	if (rb) {
		if (event->rcu_pending) {
			cond_synchronize_rcu(event->rcu_batches);
			event->rcu_pending = 0;
		}
		spin_lock_irqsave(&rb->event_lock, flags);
		list_add_rcu(&event->rb_entry, &rb->event_list);
		spin_unlock_irqrestore(&rb->event_lock, flags);
	}
	/*
	 * An AUX writer stops before it changes buffers, as in 6.1: its open
	 * handle is on the old one, which user space may be about to read
	 * or unmap.  It resumes (on the new one) when next scheduled in.
	 */
	if (old && event->pmu->setup_aux)
		perf_event_stop_where_it_runs(event, false);
	rcu_assign_pointer(event->rb, rb);
	if (old) {
		perf_rb_put(old);
		wake_up_all(&event->waitq);
	}
}

/*
 * The last mapping of @rb is gone: detach every event still writing into
 * it.  Each is pinned with a reference before its mmap_mutex is taken, and
 * the walk starts over after each detach (the list changed under it).
 */
static void perf_rb_detach_all(struct perf_buffer *rb)
{
	struct perf_event *event;

	for (;;) {
		rcu_read_lock();
		list_for_each_entry_rcu(event, &rb->event_list, rb_entry) {
			if (atomic_long_inc_not_zero(&event->refcount))
				break;
		}
		rcu_read_unlock();
		if (list_entry_is_head(event, &rb->event_list, rb_entry))
			return;

		mutex_lock(&event->mmap_mutex);
		if (event->rb == rb)
			perf_rb_attach(event, NULL);
		mutex_unlock(&event->mmap_mutex);
		perf_event_put(event);
	}
}

/* A freed event lets go of its buffer (it cannot be mapped any more). */
void perf_event_detach_rb(struct perf_event *event)
{
	if (!rcu_access_pointer(event->rb))
		return;
	mutex_lock(&event->mmap_mutex);
	perf_rb_attach(event, NULL);
	mutex_unlock(&event->mmap_mutex);
}

/* ---- the user page ------------------------------------------------------- */

void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg, u64 now)
{
}

/* The counter index user space may read directly (rdpmc), or 0. */
static int perf_event_user_index(struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return 0;
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return 0;
	return event->pmu->event_idx(event);
}

/* The fields set once, when a buffer is made for @event. */
static void perf_rb_init_userpage(struct perf_buffer *rb)
{
	struct perf_event_mmap_page *up = rb->user_page;

	up->cap_bit0_is_deprecated = 1;
	up->size = offsetof(struct perf_event_mmap_page, __reserved);
	up->data_offset = PAGE_SIZE;
	up->data_size = perf_rb_data_size(rb);
}

/*
 * Publish @event's count, times and counter index in the user page of its
 * buffer, inside the seqcount-like ->lock (odd while an update is under
 * way).  Lock-free: drivers call it from their interrupt handlers, NMI
 * included.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *up;
	struct perf_buffer *rb;
	u64 now, enabled, running;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (!rb)
		goto unlock;

	now = perf_clock();
	perf_time_read(&event->times, event->state, perf_event_clock_peek(event, now),
		       &enabled, &running);
	up = rb->user_page;

	preempt_disable();
	++up->lock;
	barrier();
	up->index = perf_event_user_index(event);
	up->offset = perf_event_count(event);
	if (up->index)
		up->offset -= local64_read(&event->hw.prev_count);
	up->time_enabled = enabled + atomic64_read(&event->child_total_time_enabled);
	up->time_running = running + atomic64_read(&event->child_total_time_running);
	arch_perf_update_userpage(event, up, now);
	barrier();
	++up->lock;
	preempt_enable();
unlock:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

/* ---- the mapping ------------------------------------------------------------ */

static struct page *perf_rb_page(struct perf_buffer *rb, unsigned long pgoff)
{
	if (pgoff > rb->nr_pages)
		return perf_aux_page(rb, pgoff);
	return rb->pages[pgoff];
}

static vm_fault_t perf_mmap_fault(struct vm_fault *vmf)
{
	struct perf_buffer *rb = vmf->vma->vm_private_data;
	struct page *page = perf_rb_page(rb, vmf->pgoff);

	if (!page)
		return VM_FAULT_SIGBUS;
	get_page(page);
	page->mapping = vmf->vma->vm_file->f_mapping;
	page->index = vmf->pgoff;
	vmf->page = page;
	return 0;
}

/* Only the user page (data_tail, aux_tail) is writable; the rest is the kernel's. */
static vm_fault_t perf_mmap_mkwrite(struct vm_fault *vmf)
{
	return vmf->pgoff == 0 ? 0 : VM_FAULT_SIGBUS;
}

/*
 * Events that user space maps (event->mmap_count non-zero): while there
 * are none, the scheduler need not refresh the user page of groups that
 * stay off their PMU (group_sched.c).
 */
atomic_t perf_nr_mapped_events = ATOMIC_INIT(0);

static void perf_event_mapped_inc(struct perf_event *event)
{
	if (atomic_inc_return(&event->mmap_count) == 1)
		atomic_inc(&perf_nr_mapped_events);
}

/* A copy of a mapping (mremap() moving it): one more user of the buffer. */
static void perf_mmap_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_file->private_data;
	struct perf_buffer *rb = vma->vm_private_data;

	refcount_inc(&rb->refcount);
	atomic_inc(&rb->mmap_count);
	if (vma->vm_pgoff)
		atomic_inc(&rb->aux_mmap_count);
	perf_event_mapped_inc(event);
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

/*
 * A mapping goes.  The event stops writing into the buffer when its own
 * last mapping goes (as in 6.1); the buffer is emptied of every event and
 * its pages uncharged when its last mapping goes.
 */
static void perf_mmap_close(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_file->private_data;
	struct perf_buffer *rb = vma->vm_private_data;

	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, vma->vm_mm);
	if (vma->vm_pgoff)
		perf_munmap_aux(rb, vma);

	if (atomic_dec_and_mutex_lock(&event->mmap_count, &event->mmap_mutex)) {
		atomic_dec(&perf_nr_mapped_events);
		if (event->rb == rb)
			perf_rb_attach(event, NULL);
		mutex_unlock(&event->mmap_mutex);
	}

	if (atomic_dec_and_test(&rb->mmap_count)) {
		perf_rb_detach_all(rb);
		atomic_long_sub(rb->nr_pages + 1 - rb->mmap_pinned, &rb->mmap_user->locked_vm);
		atomic64_sub(rb->mmap_pinned, &vma->vm_mm->pinned_vm);
		free_uid(rb->mmap_user);
	}
	perf_rb_put(rb);
}

/* A buffer mapping is one piece: 6.1.192 refuses to split it too. */
static int perf_mmap_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct perf_mmap_vmops = {
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
	.may_split	= perf_mmap_may_split,
	.fault		= perf_mmap_fault,
	.page_mkwrite	= perf_mmap_mkwrite,
};

/*
 * Charge @pages pages to the mapping user: perf_event_mlock_kb per online
 * CPU comes free of RLIMIT_MEMLOCK (in user->locked_vm), the rest counts
 * against the mm's pinned_vm and needs RLIMIT_MEMLOCK, CAP_IPC_LOCK or an
 * unrestricted perf_event_paranoid.  Returns the pinned part, or -EPERM.
 */
long perf_mmap_charge(struct vm_area_struct *vma, unsigned long pages)
{
	struct user_struct *user = current_user();
	unsigned long limit, used, pinned = 0;

	limit = (unsigned long)(sysctl_perf_event_mlock >> (PAGE_SHIFT - 10)) *
		num_online_cpus();
	used = min_t(unsigned long, atomic_long_read(&user->locked_vm), limit);
	if (used + pages > limit)
		pinned = used + pages - limit;

	if (atomic64_read(&vma->vm_mm->pinned_vm) + pinned > rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT &&
	    perf_is_paranoid() && !capable(CAP_IPC_LOCK))
		return -EPERM;

	atomic_long_add(pages - pinned, &user->locked_vm);
	atomic64_add(pinned, &vma->vm_mm->pinned_vm);
	return pinned;
}

/* The VMA is one more user of @rb (event->mmap_mutex held). */
static void perf_mmap_install(struct perf_event *event, struct vm_area_struct *vma,
			      struct perf_buffer *rb)
{
	perf_event_mapped_inc(event);
	vma->vm_private_data = rb;
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &perf_mmap_vmops;
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long size = vma->vm_end - vma->vm_start;
	unsigned long nr_pages;
	struct perf_buffer *rb;
	long pinned;
	int ret;

	/* every child of an inherited task event would write into it */
	if (event->cpu == -1 && event->attr.inherit)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	ret = security_perf_event_read(event);
	if (ret)
		return ret;
	if (vma->vm_pgoff) {
		mutex_lock(&event->mmap_mutex);
		rb = perf_mmap_aux(event, vma);
		ret = PTR_ERR_OR_ZERO(rb);
		if (!ret)
			perf_mmap_install(event, vma, rb);
		mutex_unlock(&event->mmap_mutex);
		return ret;
	}

	nr_pages = size / PAGE_SIZE - 1;
	if (nr_pages && !is_power_of_2(nr_pages))
		return -EINVAL;
	if (size != PAGE_SIZE * (nr_pages + 1) || nr_pages > INT_MAX / 2)
		return -EINVAL;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (rb) {
		/* a second mapping shares the buffer, and must match it */
		ret = -EINVAL;
		if (rb->nr_pages != nr_pages)
			goto unlock;
		if (atomic_inc_not_zero(&rb->mmap_count)) {
			refcount_inc(&rb->refcount);
			goto mapped;
		}
		/* its last mapping is going: leave it, make a new one */
		perf_rb_attach(event, NULL);
	}

	pinned = perf_mmap_charge(vma, nr_pages + 1);
	if (pinned < 0) {
		ret = pinned;
		goto unlock;
	}
	rb = perf_rb_alloc(nr_pages, event->attr.watermark ? event->attr.wakeup_watermark : 0,
			   event->cpu, !(vma->vm_flags & VM_WRITE));
	if (!rb) {
		atomic_long_sub(nr_pages + 1 - pinned, &current_user()->locked_vm);
		atomic64_sub(pinned, &vma->vm_mm->pinned_vm);
		ret = -ENOMEM;
		goto unlock;
	}
	rb->mmap_pinned = pinned;
	rb->mmap_user = get_current_user();
	atomic_set(&rb->mmap_count, 1);
	perf_rb_init_userpage(rb);
	/* the event's reference; the mapping takes a second one below */
	perf_rb_attach(event, rb);
	refcount_inc(&rb->refcount);
	perf_event_update_userpage(event);

mapped:
	perf_mmap_install(event, vma, rb);
	ret = 0;
unlock:
	mutex_unlock(&event->mmap_mutex);
	return ret;
}

/* ---- SET_OUTPUT ----------------------------------------------------------------- */

static void perf_mmap_mutex_lock_two(struct perf_event *a, struct perf_event *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mmap_mutex);
	mutex_lock_nested(&b->mmap_mutex, SINGLE_DEPTH_NESTING);
}

/*
 * Send @event's records to @output's buffer (@output NULL: back to none).
 * As in 6.1, EINVAL for: itself, another CPU, another task (per-task
 * events), another clock, the other write direction, two events with an
 * AUX area of different PMUs (the area's private data is its PMU's: the
 * other would get it from perf_aux_output_begin()), a target without a
 * mapped buffer, and an event that is mapped itself.
 * Called with @event's ctx->mutex held.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	struct perf_buffer *rb = NULL;
	int ret = -EINVAL;

	if (output) {
		if (output == event || output->cpu != event->cpu)
			return -EINVAL;
		if (output->cpu == -1 && output->hw.target != event->hw.target)
			return -EINVAL;
		if (output->clock != event->clock)
			return -EINVAL;
		if (output->attr.write_backward != event->attr.write_backward)
			return -EINVAL;
		if (has_aux(event) && has_aux(output) && event->pmu != output->pmu)
			return -EINVAL;
		perf_mmap_mutex_lock_two(event, output);
	} else {
		mutex_lock(&event->mmap_mutex);
	}

	if (atomic_read(&event->mmap_count))
		goto unlock;
	if (output) {
		rb = perf_rb_get(output);
		if (!rb)
			goto unlock;
		/* its last mapping may be going right now */
		if (!atomic_read(&rb->mmap_count)) {
			perf_rb_put(rb);
			goto unlock;
		}
	}
	perf_rb_attach(event, rb);
	ret = 0;
unlock:
	mutex_unlock(&event->mmap_mutex);
	if (output)
		mutex_unlock(&output->mmap_mutex);
	return ret;
}

/* PERF_EVENT_IOC_PAUSE_OUTPUT: writers drop records while paused (step 2). */
int perf_event_pause_output(struct perf_event *event, bool pause)
{
	struct perf_buffer *rb;
	int ret = -EINVAL;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && rb->nr_pages) {
		WRITE_ONCE(rb->paused, pause);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

/* ---- poll ------------------------------------------------------------------ */

/* Nothing will ever be written: the event is gone and has no children left. */
static bool perf_event_hup(struct perf_event *event)
{
	bool no_children;

	if (event->state > PERF_EVENT_STATE_EXIT)
		return false;
	mutex_lock(&event->child_mutex);
	no_children = list_empty(&event->child_list);
	mutex_unlock(&event->child_mutex);
	return no_children;
}

/*
 * EPOLLHUP for an event without a buffer or one that will write no more,
 * else what the writers reported since the last poll (rb->poll).
 */
__poll_t perf_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;
	struct perf_buffer *rb;
	__poll_t events = EPOLLHUP;

	poll_wait(file, &event->waitq, wait);
	if (perf_event_hup(event))
		return events;

	/* mmap_mutex: SET_OUTPUT cannot swap the buffer and lose a wakeup */
	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (rb)
		events = atomic_xchg(&rb->poll, 0);
	mutex_unlock(&event->mmap_mutex);
	return events;
}
