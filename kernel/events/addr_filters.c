// SPDX-License-Identifier: GPL-2.0
/*
 * Address range filters of instruction-trace PMUs (Intel PT, CoreSight and
 * the perfev_aux test PMU: those with pmu->nr_addr_filters).
 *
 * PERF_EVENT_IOC_SET_FILTER gives such an event a list of filters, words
 * separated by spaces, commas or newlines, two per filter:
 *     ACTION RANGE
 * ACTION is "filter" (trace only there), "start" or "stop" (trace from,
 * until there); RANGE is ADDR[/SIZE] for kernel addresses or
 * ADDR[/SIZE]@PATH for offsets in the regular file at PATH.  A "filter"
 * needs a SIZE, a file range a per-task event; an empty string removes
 * the filters.  The PMU then vets the list (pmu->addr_filters_validate).
 *
 * Owns: the parser, installing and freeing the list, the ranges each event
 * gets out of it (event->addr_filter_ranges, one per filter: a kernel
 * range as given, a file range where the task maps that part of the file
 * now, or empty) and keeping them right: at SET_FILTER, at each
 * executable file mapping the task makes, cleared at exec; and
 * perf_event_addr_filters_sync(), by which a PMU takes the ranges into its
 * hardware from pmu->start().
 *
 * The list belongs to the event the user opened; its inherited children
 * use it (perf_event_addr_filters()) with ranges of their own, copied at
 * fork.  Each change of an event's ranges is a new event->addr_filters_gen;
 * a running event is stopped and restarted on its CPU to sync them.
 *
 * Locking: the opened event's addr_filters.lock (raw, IRQ-safe, inside
 * ctx->lock) guards the list against the PMU's sync, and every ranges
 * array and generation of that event and its children.  Only SET_FILTER
 * changes the list, under the event's ctx->mutex (parsing, with its path
 * lookups, is done before, without it); it then resolves each child under
 * child_mutex and the child task's mmap_lock (read), outside
 * addr_filters.lock.  The mmap hook runs under the task's mmap_lock and
 * takes only ctx->lock.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "internal.h"

/* Events with ranges: the mmap hook does nothing while there are none. */
static atomic_t perf_nr_filtering_events = ATOMIC_INIT(0);

/* ---- ranges ------------------------------------------------------------------ */

/*
 * The part of @f that @vma maps, as addresses, in @fr: true if it maps
 * any.  A filter of one address (no size) is in @vma if the address is.
 */
static bool perf_addr_filter_in_vma(const struct perf_addr_filter *f,
				    struct vm_area_struct *vma,
				    struct perf_addr_filter_range *fr)
{
	unsigned long map_off = vma->vm_pgoff << PAGE_SHIFT;
	unsigned long map_end = map_off + (vma->vm_end - vma->vm_start);
	unsigned long lo, hi;

	if (!f->path.dentry || !vma->vm_file ||
	    file_inode(vma->vm_file) != d_inode(f->path.dentry))
		return false;
	if (!f->size) {
		if (f->offset < map_off || f->offset >= map_end)
			return false;
		fr->start = vma->vm_start + (f->offset - map_off);
		fr->size = 0;
		return true;
	}
	lo = max(f->offset, map_off);
	/* offset + size may wrap: such a range runs to the end of the file */
	hi = f->offset + f->size < f->offset ? map_end : min(f->offset + f->size, map_end);
	if (lo >= hi)
		return false;
	fr->start = vma->vm_start + (lo - map_off);
	fr->size = hi - lo;
	return true;
}

/* The first mapping of @mm (in address order) with a part of @f. */
static void perf_addr_filter_find(const struct perf_addr_filter *f, struct mm_struct *mm,
				  struct perf_addr_filter_range *fr)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	fr->start = 0;
	fr->size = 0;
	for_each_vma(vmi, vma) {
		if (perf_addr_filter_in_vma(f, vma, fr))
			return;
	}
}

/*
 * Work out every range of @event against its task's mappings now, in
 * @scratch (pmu->nr_addr_filters entries), and install them.  The list
 * does not change under us (the caller holds the opened event's
 * ctx->mutex); the mmap hook or exec may change the ranges while we look
 * at the mappings: then look again.
 */
static void perf_addr_filters_resolve(struct perf_event *event,
				      struct perf_addr_filter_range *scratch)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);
	struct task_struct *task = READ_ONCE(event->ctx->task);
	struct perf_addr_filter *f;
	struct mm_struct *mm;
	unsigned long flags, gen;
	unsigned int i;

	/* a context whose task exited: its events are on their way out */
	if (task == TASK_TOMBSTONE)
		return;

	for (;;) {
		raw_spin_lock_irqsave(&ifh->lock, flags);
		gen = event->addr_filters_gen;
		raw_spin_unlock_irqrestore(&ifh->lock, flags);

		mm = ifh->nr_file_filters && task ? get_task_mm(task) : NULL;
		if (mm)
			mmap_read_lock(mm);
		i = 0;
		list_for_each_entry(f, &ifh->list, entry) {
			if (!f->path.dentry) {
				scratch[i].start = f->offset;
				scratch[i].size = f->size;
			} else if (mm) {
				perf_addr_filter_find(f, mm, &scratch[i]);
			} else {
				scratch[i].start = 0;
				scratch[i].size = 0;
			}
			i++;
		}
		if (mm) {
			mmap_read_unlock(mm);
			mmput(mm);
		}

		raw_spin_lock_irqsave(&ifh->lock, flags);
		if (event->addr_filters_gen == gen) {
			memcpy(event->addr_filter_ranges, scratch, i * sizeof(*scratch));
			event->addr_filters_gen++;
			raw_spin_unlock_irqrestore(&ifh->lock, flags);
			break;
		}
		raw_spin_unlock_irqrestore(&ifh->lock, flags);
	}
	perf_event_stop_where_it_runs(event, true);
}

/* ---- the parser ---------------------------------------------------------------- */

static void perf_addr_filters_free_list(struct list_head *list)
{
	struct perf_addr_filter *f, *tmp;

	list_for_each_entry_safe(f, tmp, list, entry) {
		list_del(&f->entry);
		path_put(&f->path);
		kfree(f);
	}
}

static int perf_addr_filter_action(const char *word, enum perf_addr_filter_action_t *action)
{
	if (!strcmp(word, "filter"))
		*action = PERF_ADDR_FILTER_ACTION_FILTER;
	else if (!strcmp(word, "start"))
		*action = PERF_ADDR_FILTER_ACTION_START;
	else if (!strcmp(word, "stop"))
		*action = PERF_ADDR_FILTER_ACTION_STOP;
	else
		return -EINVAL;
	return 0;
}

/*
 * RANGE of one filter into @f: ADDR[/SIZE][@PATH], numbers in C notation.
 * A file is looked up (symlinks followed) and must be a regular file.
 */
static int perf_addr_filter_range_of(struct perf_event *event, char *word,
				     struct perf_addr_filter *f)
{
	char *path = strchr(word, '@');
	char *size = strchr(word, '/');
	int err;

	if (path)
		*path++ = '\0';
	if (size && (!path || size < path))
		*size++ = '\0';
	else
		size = NULL;

	err = kstrtoul(word, 0, &f->offset);
	if (err)
		return err;
	if (size) {
		err = kstrtoul(size, 0, &f->size);
		if (err)
			return err;
	}
	if (f->action == PERF_ADDR_FILTER_ACTION_FILTER && !f->size)
		return -EINVAL;
	if (!path)
		return 0;
	if (!*path)
		return -EINVAL;
	/*
	 * A file is mapped where each task likes: its ranges are per task,
	 * so a CPU-wide event cannot have them.
	 */
	if (!event->ctx->task)
		return -EOPNOTSUPP;
	err = kern_path(path, LOOKUP_FOLLOW, &f->path);
	if (err)
		return err;
	if (!d_is_reg(f->path.dentry)) {
		path_put(&f->path);
		f->path.dentry = NULL;
		f->path.mnt = NULL;
		return -EINVAL;
	}
	return 0;
}

/* @str into filters on @list, counted in *@nr and (file ones) *@nr_files. */
static int perf_addr_filters_parse(struct perf_event *event, char *str,
				   struct list_head *list, unsigned int *nr,
				   unsigned int *nr_files)
{
	struct perf_addr_filter *f = NULL;
	char *word;
	int err;

	*nr = 0;
	*nr_files = 0;
	while ((word = strsep(&str, " ,\n"))) {
		if (!*word)
			continue;
		if (!f) {
			/* an ACTION opens a filter */
			f = kzalloc(sizeof(*f), GFP_KERNEL);
			if (!f)
				return -ENOMEM;
			list_add_tail(&f->entry, list);
			err = perf_addr_filter_action(word, &f->action);
			if (err)
				return err;
			continue;
		}
		/* its RANGE closes it */
		err = perf_addr_filter_range_of(event, word, f);
		if (err)
			return err;
		(*nr)++;
		if (f->path.dentry)
			(*nr_files)++;
		f = NULL;
	}
	/* an ACTION without a RANGE */
	return f ? -EINVAL : 0;
}

/* ---- SET_FILTER ----------------------------------------------------------------- */

/*
 * Replace @event's filters with those of @str and resolve them for the
 * event and each child.  Called with ctx->mutex held, which is dropped
 * while @str is parsed and the PMU vets it: a path lookup may take locks
 * that perf_event_open() holds when it takes ctx->mutex (the
 * exec_update_lock of a /proc/PID/exe path; 6.1 looks paths up under
 * ctx->mutex).  The caller holds a reference on the context.
 */
int perf_addr_filters_set(struct perf_event *event, char *str)
{
	struct perf_addr_filters_head *ifh = &event->addr_filters;
	struct perf_event_context *ctx = event->ctx;
	struct perf_addr_filter_range *scratch;
	unsigned int nr, nr_files;
	struct perf_event *child;
	unsigned long flags;
	LIST_HEAD(list);
	LIST_HEAD(old);
	int err;

	lockdep_assert_held(&ctx->mutex);
	if (WARN_ON_ONCE(event->parent))
		return -EINVAL;

	mutex_unlock(&ctx->mutex);
	err = perf_addr_filters_parse(event, str, &list, &nr, &nr_files);
	if (!err)
		err = event->pmu->addr_filters_validate(&list);
	/* a PMU that does not count its filters must not overrun the ranges */
	if (!err && nr > event->pmu->nr_addr_filters)
		err = -EINVAL;
	mutex_lock(&ctx->mutex);
	if (err)
		goto out;

	scratch = kcalloc(event->pmu->nr_addr_filters, sizeof(*scratch), GFP_KERNEL);
	if (!scratch) {
		err = -ENOMEM;
		goto out;
	}

	raw_spin_lock_irqsave(&ifh->lock, flags);
	list_splice_init(&ifh->list, &old);
	list_splice_init(&list, &ifh->list);
	ifh->nr_file_filters = nr_files;
	raw_spin_unlock_irqrestore(&ifh->lock, flags);

	perf_addr_filters_resolve(event, scratch);
	mutex_lock(&event->child_mutex);
	list_for_each_entry(child, &event->child_list, child_list)
		perf_addr_filters_resolve(child, scratch);
	mutex_unlock(&event->child_mutex);
	kfree(scratch);
	list_splice_init(&old, &list);
out:
	perf_addr_filters_free_list(&list);
	return err;
}

/* ---- the task maps, the task execs ----------------------------------------------- */

/* @vma is new in current's mm: ranges of @event that it maps (IRQs off). */
static bool perf_addr_filters_map_one(struct perf_event *event, struct vm_area_struct *vma)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(event);
	struct perf_addr_filter *f;
	bool changed = false;
	unsigned int i = 0;

	if (!READ_ONCE(ifh->nr_file_filters))
		return false;
	raw_spin_lock(&ifh->lock);
	list_for_each_entry(f, &ifh->list, entry) {
		if (perf_addr_filter_in_vma(f, vma, &event->addr_filter_ranges[i]))
			changed = true;
		i++;
	}
	if (changed)
		event->addr_filters_gen++;
	raw_spin_unlock(&ifh->lock);
	return changed;
}

/*
 * Called from perf_event_mmap() for each new mapping of current (mmap_lock
 * held).  Only code is traced: a mapping without exec is of no interest.
 * Events with file ranges are per task, so only current's context has any,
 * and those of its events that run, run here.
 */
void perf_addr_filters_mmap(struct vm_area_struct *vma)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;

	if (!atomic_read(&perf_nr_filtering_events) || !vma->vm_file ||
	    !(vma->vm_flags & VM_EXEC))
		return;

	rcu_read_lock();
	ctx = rcu_dereference(current->perf_event_ctxp);
	if (ctx) {
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(event, &ctx->event_list, event_entry) {
			if (!event->addr_filter_ranges || !perf_addr_filters_map_one(event, vma))
				continue;
			if (event->state == PERF_EVENT_STATE_ACTIVE &&
			    event->oncpu == smp_processor_id())
				perf_event_stop_here(event, true);
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	rcu_read_unlock();
}

/*
 * exec: the task's old mappings are gone, so are its file ranges; the new
 * image's mappings bring them back (perf_addr_filters_mmap()).  Current's
 * @ctx, its mutex held.
 */
void perf_addr_filters_exec(struct perf_event_context *ctx)
{
	struct perf_addr_filters_head *ifh;
	struct perf_addr_filter *f;
	struct perf_event *event;
	unsigned long flags;
	unsigned int i;

	lockdep_assert_held(&ctx->mutex);
	if (!atomic_read(&perf_nr_filtering_events))
		return;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		ifh = perf_event_addr_filters(event);
		if (!event->addr_filter_ranges || !READ_ONCE(ifh->nr_file_filters))
			continue;
		i = 0;
		raw_spin_lock_irqsave(&ifh->lock, flags);
		list_for_each_entry(f, &ifh->list, entry) {
			if (f->path.dentry) {
				event->addr_filter_ranges[i].start = 0;
				event->addr_filter_ranges[i].size = 0;
			}
			i++;
		}
		event->addr_filters_gen++;
		raw_spin_unlock_irqrestore(&ifh->lock, flags);
		perf_event_stop_where_it_runs(event, true);
	}
}

/* ---- event life ------------------------------------------------------------------ */

/* A new event of a PMU with filters (its PMU found): its ranges, empty. */
int __perf_addr_filters_init(struct perf_event *event)
{
	unsigned int nr = event->pmu->nr_addr_filters;

	event->addr_filter_ranges = kcalloc_node(nr, sizeof(*event->addr_filter_ranges),
						 GFP_KERNEL, event->cpu == -1 ?
						 NUMA_NO_NODE : cpu_to_node(event->cpu));
	if (!event->addr_filter_ranges)
		return -ENOMEM;
	/* the PMU's hw.addr_filters_gen is 0: it syncs at its first start */
	event->addr_filters_gen = 1;
	atomic_inc(&perf_nr_filtering_events);
	return 0;
}

/*
 * Fork: @child, not yet running, starts with the ranges of the event it
 * copies, @from (the forking task's: the new task's mappings are a copy
 * of its mappings, or the same).  Not those of the opened event, whose
 * task may map things elsewhere.
 */
void __perf_addr_filters_inherit(struct perf_event *child, struct perf_event *from)
{
	struct perf_addr_filters_head *ifh = perf_event_addr_filters(child);
	unsigned long flags;

	raw_spin_lock_irqsave(&ifh->lock, flags);
	memcpy(child->addr_filter_ranges, from->addr_filter_ranges,
	       child->pmu->nr_addr_filters * sizeof(*child->addr_filter_ranges));
	raw_spin_unlock_irqrestore(&ifh->lock, flags);
}

/* The event is being freed: its ranges, and its list if it has one. */
void __perf_addr_filters_free(struct perf_event *event)
{
	LIST_HEAD(list);

	atomic_dec(&perf_nr_filtering_events);
	kfree(event->addr_filter_ranges);
	event->addr_filter_ranges = NULL;
	/* nobody syncs from this list any more: its children went first */
	list_splice_init(&event->addr_filters.list, &list);
	perf_addr_filters_free_list(&list);
}

/*
 * For the PMU, from pmu->start() (IRQs off): if the event's ranges changed
 * since it last looked, let it take them (pmu->addr_filters_sync(), which
 * may walk the list and read event->addr_filter_ranges).
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *ifh;

	if (!event->addr_filter_ranges)
		return;
	ifh = perf_event_addr_filters(event);
	raw_spin_lock(&ifh->lock);
	if (event->hw.addr_filters_gen != event->addr_filters_gen) {
		event->pmu->addr_filters_sync(event);
		event->hw.addr_filters_gen = event->addr_filters_gen;
	}
	raw_spin_unlock(&ifh->lock);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);
