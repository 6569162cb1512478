// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only PMU with an AUX area ("perfev_aux"), standing in for an
 * instruction-trace PMU (Intel PT, CoreSight) where none exists: its
 * "hardware" is a pinned hard-irq hrtimer that, every PAX_TICK_NS while
 * the event runs, writes PAX_CHUNK bytes of synthetic trace into the AUX
 * area through the driver API of include/linux/perf_event.h.
 *
 * The trace is a stream of u64 words, PAX_WORD(n) for n = 0, 1, 2, ... over
 * the event's life (the sequence goes on across sched-out and in), so a
 * test knows exactly what each AUX byte must hold.  Each tick closes the
 * AUX handle with the bytes it wrote (one PERF_RECORD_AUX each) and opens
 * the next one, as a trace PMU's interrupt does; pmu->stop() closes it.
 *   - non-overwrite area: a tick writes what fits; a short write is
 *     flagged TRUNCATED (the core then disables the event), and an area
 *     with no room gives no handle (the core disables the event too);
 *   - overwrite (read-only) area: the trace wraps, the new head is passed
 *     in handle->head, as snapshot-mode drivers do.
 * attr.config bits flag every record: PAX_CFG_PARTIAL (PARTIAL),
 * PAX_CFG_COLLISION (COLLISION).  PERF_PMU_CAP_ITRACE: the core logs
 * PERF_RECORD_ITRACE_START before each sched-in (the driver does not call
 * perf_event_itrace_started()).  pmu->snapshot_aux copies the latest trace
 * into PERF_SAMPLE_AUX samples of its group's members.  perfev_test events
 * may be aux_output members of a perfev_aux group (their PMU's
 * aux_output_match, in perfev_test_pmu.c).
 *
 * Address filters (pmu->nr_addr_filters = 2, as Intel PT: "filter" and
 * "stop", no "start"): each tick looks at the instruction pointer it
 * interrupted.  Inside a "stop" range the trace stops until the filters
 * change (a new generation synced); with a "filter" in the list, a tick
 * writes only if the IP is in a "filter" range (an unresolved one, of size
 * 0, holds none).  So a test sees where the core resolved its filters.
 *
 * count: the trace bytes written.  Counting only (no sampling), one event
 * per CPU at a time (a second one's add fails), task or CPU events.
 *
 * A second AUX PMU, "perfev_aux2", has an area private struct of another
 * layout (struct pax2_area) and writes no trace: it holds an AUX handle
 * while its event runs and warns if the handle's private data is not its
 * own.  It lets the selftests check that the core never lets AUX events of
 * two PMUs share one AUX area (SET_OUTPUT between them is EINVAL).  It
 * cannot scatter (PERF_PMU_CAP_AUX_NO_SG): the core must give it an
 * overwrite area in one block, which setup_aux checks, and a writable one
 * in chunks, however large.  Its events with config bit 0 (even_cpus)
 * exist only on even-numbered CPUs (pmu->filter_match), as the events of
 * one kind of core do on a hybrid system.
 *
 * Locking: every callback but event_init and the AUX setup/free runs on
 * the event's CPU with IRQs off, and the timer is a pinned hard-irq timer
 * of that CPU, so the per-CPU state needs no lock.
 */
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/irq_regs.h>

#define PAX_TICK_NS		100000		/* a chunk every 100 us */
#define PAX_CHUNK		512		/* bytes per chunk */
#define PAX_MAGIC		0x5041ULL	/* "PA" */
#define PAX_WORD(n)		((PAX_MAGIC << 48) | (n))
#define PAX_CFG_PARTIAL		0x1
#define PAX_CFG_COLLISION	0x2
#define PAX_CFG_MASK		(PAX_CFG_PARTIAL | PAX_CFG_COLLISION)
#define PAX_NR_FILTERS		2

/* The "hardware" filter registers of an event (event->hw.addr_filters). */
struct pax_filters {
	unsigned int nr;		/* filters in the list at the last sync */
	bool only_inside;		/* a "filter" among them */
	bool stopped;			/* a "stop" range was hit */
	struct {
		unsigned long start;
		unsigned long size;	/* 0: the one address @start */
		bool stop;
	} range[PAX_NR_FILTERS];
};

/* setup_aux()'s view of an area: the core's page array */
struct pax_buf {
	void **pages;
	unsigned long size;
	bool overwrite;
};

struct pax_cpu {
	struct perf_event *event;	/* added here */
	struct perf_output_handle handle;
	struct hrtimer tick;
};

static DEFINE_PER_CPU(struct pax_cpu, pax_cpu);
static struct pmu pax_pmu;

/* Write @len bytes of trace (whole words) at AUX position @pos. */
static void pax_write(struct perf_event *event, struct pax_buf *buf, unsigned long pos,
		      unsigned long len)
{
	unsigned long off;
	u64 *word, n;

	for (off = 0; off < len; off += sizeof(u64)) {
		unsigned long at = (pos + off) & (buf->size - 1);

		n = local64_inc_return(&event->hw.prev_count) - 1;
		word = buf->pages[at >> PAGE_SHIFT] + offset_in_page(at);
		*word = PAX_WORD(n);
	}
	local64_add(len, &event->count);
}

static void pax_flag(struct perf_output_handle *handle, struct perf_event *event)
{
	if (event->attr.config & PAX_CFG_PARTIAL)
		perf_aux_output_flag(handle, PERF_AUX_FLAG_PARTIAL);
	if (event->attr.config & PAX_CFG_COLLISION)
		perf_aux_output_flag(handle, PERF_AUX_FLAG_COLLISION);
}

/* Open the next handle; false (and the event stopped) if there is none. */
static bool pax_begin(struct pax_cpu *pc, struct perf_event *event)
{
	if (perf_aux_output_begin(&pc->handle, event))
		return true;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return false;
}

/* One chunk of trace, then the handle is closed: true to go on. */
static bool pax_chunk(struct pax_cpu *pc, struct perf_event *event)
{
	struct perf_output_handle *handle = &pc->handle;
	struct pax_buf *buf = perf_get_aux(handle);
	unsigned long len = PAX_CHUNK;

	if (!buf)
		return false;
	pax_flag(handle, event);
	if (buf->overwrite) {
		pax_write(event, buf, handle->head, len);
		handle->head += len;
		perf_aux_output_end(handle, len);
		return pax_begin(pc, event);
	}
	if (handle->size < len) {
		len = round_down(handle->size, sizeof(u64));
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
	}
	pax_write(event, buf, handle->head, len);
	perf_aux_output_end(handle, len);
	if (len < PAX_CHUNK) {
		/* full: the core disables the event until user space catches up */
		event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
		return false;
	}
	return pax_begin(pc, event);
}

/* Do the filters let the trace through at @regs (the interrupted code)? */
static bool pax_filters_pass(struct pax_filters *pf, struct pt_regs *regs)
{
	unsigned long ip = regs ? instruction_pointer(regs) : 0;
	bool inside = false;
	unsigned int i;

	if (!pf->nr)
		return true;
	if (pf->stopped)
		return false;
	for (i = 0; i < pf->nr; i++) {
		bool hit = pf->range[i].size ?
			   ip - pf->range[i].start < pf->range[i].size :
			   ip == pf->range[i].start;

		if (hit && pf->range[i].stop) {
			pf->stopped = true;
			return false;
		}
		inside |= hit && pf->range[i].size;
	}
	return inside || !pf->only_inside;
}

static enum hrtimer_restart pax_tick(struct hrtimer *timer)
{
	struct pax_cpu *pc = container_of(timer, struct pax_cpu, tick);
	struct perf_event *event = pc->event;

	if (!event || (event->hw.state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;
	if (pax_filters_pass(event->hw.addr_filters, get_irq_regs()) &&
	    !pax_chunk(pc, event))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(PAX_TICK_NS));
	return HRTIMER_RESTART;
}

static void pax_start(struct perf_event *event, int flags)
{
	struct pax_cpu *pc = this_cpu_ptr(&pax_cpu);

	event->hw.state = 0;
	perf_event_addr_filters_sync(event);
	if (!pax_begin(pc, event))
		return;
	hrtimer_start(&pc->tick, ns_to_ktime(PAX_TICK_NS), HRTIMER_MODE_REL_PINNED_HARD);
}

static void pax_stop(struct perf_event *event, int flags)
{
	struct pax_cpu *pc = this_cpu_ptr(&pax_cpu);

	if (pc->event == event)
		hrtimer_try_to_cancel(&pc->tick);
	/* a handle is open whenever the event runs: close it, nothing written */
	if (pc->handle.event == event) {
		pax_flag(&pc->handle, event);
		perf_aux_output_end(&pc->handle, 0);
	}
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int pax_add(struct perf_event *event, int flags)
{
	struct pax_cpu *pc = this_cpu_ptr(&pax_cpu);

	if (pc->event)
		return -EBUSY;
	pc->event = event;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pax_start(event, flags);
	return 0;
}

static void pax_del(struct perf_event *event, int flags)
{
	struct pax_cpu *pc = this_cpu_ptr(&pax_cpu);

	pax_stop(event, PERF_EF_UPDATE);
	if (pc->event == event)
		pc->event = NULL;
}

static void pax_read(struct perf_event *event)
{
	/* event->count is kept up to date by the writes themselves */
}

/*
 * PERF_SAMPLE_AUX of a group member: the last @size bytes of trace before
 * the position of the open handle.
 */
static long pax_snapshot_aux(struct perf_event *event, struct perf_output_handle *handle,
			     unsigned long size)
{
	struct pax_cpu *pc = this_cpu_ptr(&pax_cpu);
	struct perf_output_handle *aux = &pc->handle;
	struct pax_buf *buf;

	if (pc->event != event || aux->event != event)
		return 0;
	buf = perf_get_aux(aux);
	if (!buf || size > buf->size)
		return 0;
	return perf_output_copy_aux(aux, handle, aux->head - size, aux->head);
}

static void *pax_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			   bool overwrite)
{
	struct pax_buf *buf = kzalloc(sizeof(*buf), GFP_KERNEL);

	if (!buf)
		return NULL;
	buf->pages = pages;
	buf->size = (unsigned long)nr_pages << PAGE_SHIFT;
	buf->overwrite = overwrite;
	return buf;
}

static void pax_free_aux(void *priv)
{
	kfree(priv);
}

static int pax_addr_filters_validate(struct list_head *filters)
{
	struct perf_addr_filter *f;
	unsigned int nr = 0;

	list_for_each_entry(f, filters, entry) {
		if (++nr > PAX_NR_FILTERS || f->action == PERF_ADDR_FILTER_ACTION_START)
			return -EOPNOTSUPP;
	}
	return 0;
}

/* The core's ranges into the "registers" (IRQs off, the list locked). */
static void pax_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct pax_filters *pf = event->hw.addr_filters;
	struct perf_addr_filter *f;
	unsigned int i = 0;

	pf->only_inside = false;
	pf->stopped = false;
	list_for_each_entry(f, &head->list, entry) {
		if (i == PAX_NR_FILTERS)
			break;
		pf->range[i].start = event->addr_filter_ranges[i].start;
		pf->range[i].size = event->addr_filter_ranges[i].size;
		pf->range[i].stop = f->action == PERF_ADDR_FILTER_ACTION_STOP;
		pf->only_inside |= f->action == PERF_ADDR_FILTER_ACTION_FILTER;
		i++;
	}
	pf->nr = i;
}

static void pax_destroy(struct perf_event *event)
{
	kfree(event->hw.addr_filters);
	event->hw.addr_filters = NULL;
}

static int pax_event_init(struct perf_event *event)
{
	struct pax_filters *pf;

	if (event->attr.type != pax_pmu.type)
		return -ENOENT;
	if (event->attr.config & ~PAX_CFG_MASK)
		return -EINVAL;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	event->hw.addr_filters = pf;
	event->destroy = pax_destroy;
	local64_set(&event->hw.prev_count, 0);
	return 0;
}

PMU_FORMAT_ATTR(partial, "config:0");
PMU_FORMAT_ATTR(collision, "config:1");

static struct attribute *pax_format_attrs[] = {
	&format_attr_partial.attr,
	&format_attr_collision.attr,
	NULL,
};

static const struct attribute_group pax_format_group = {
	.name = "format",
	.attrs = pax_format_attrs,
};

static const struct attribute_group *pax_attr_groups[] = {
	&pax_format_group,
	NULL,
};

static struct pmu pax_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_ITRACE,
	.nr_addr_filters = PAX_NR_FILTERS,
	.attr_groups	= pax_attr_groups,
	.event_init	= pax_event_init,
	.add		= pax_add,
	.del		= pax_del,
	.start		= pax_start,
	.stop		= pax_stop,
	.read		= pax_read,
	.setup_aux	= pax_setup_aux,
	.free_aux	= pax_free_aux,
	.snapshot_aux	= pax_snapshot_aux,
	.addr_filters_validate = pax_addr_filters_validate,
	.addr_filters_sync = pax_addr_filters_sync,
};

/* ---- perfev_aux2 ---------------------------------------------------- */

#define PAX2_MAGIC	0x5041583241524541ULL	/* "PAX2AREA" */
#define PAX2_CFG_EVEN_CPUS	0x1

/* setup_aux()'s view of a perfev_aux2 area: nothing like struct pax_buf */
struct pax2_area {
	u64 magic;
	int nr_pages;
	bool overwrite;
};

struct pax2_cpu {
	struct perf_event *event;	/* added here */
	struct perf_output_handle handle;
};

static DEFINE_PER_CPU(struct pax2_cpu, pax2_cpu);
static struct pmu pax2_pmu;

static void pax2_start(struct perf_event *event, int flags)
{
	struct pax2_cpu *pc = this_cpu_ptr(&pax2_cpu);
	struct pax2_area *area;

	event->hw.state = 0;
	area = perf_aux_output_begin(&pc->handle, event);
	/* another PMU's area: the core mixed two PMUs in one AUX area */
	if (area && WARN_ON_ONCE(area->magic != PAX2_MAGIC))
		perf_aux_output_end(&pc->handle, 0);
}

static void pax2_stop(struct perf_event *event, int flags)
{
	struct pax2_cpu *pc = this_cpu_ptr(&pax2_cpu);

	if (pc->handle.event == event)
		perf_aux_output_end(&pc->handle, 0);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int pax2_add(struct perf_event *event, int flags)
{
	struct pax2_cpu *pc = this_cpu_ptr(&pax2_cpu);

	if (pc->event)
		return -EBUSY;
	pc->event = event;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pax2_start(event, flags);
	return 0;
}

static void pax2_del(struct perf_event *event, int flags)
{
	struct pax2_cpu *pc = this_cpu_ptr(&pax2_cpu);

	pax2_stop(event, PERF_EF_UPDATE);
	if (pc->event == event)
		pc->event = NULL;
}

static void *pax2_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			    bool overwrite)
{
	struct pax2_area *area;
	int i;

	/* no scatter-gather: an overwrite area must be one contiguous block */
	for (i = 1; overwrite && i < nr_pages; i++) {
		if (WARN_ON_ONCE(pages[i] != pages[0] + i * PAGE_SIZE))
			return NULL;
	}
	area = kzalloc(sizeof(*area), GFP_KERNEL);
	if (!area)
		return NULL;
	area->magic = PAX2_MAGIC;
	area->nr_pages = nr_pages;
	area->overwrite = overwrite;
	return area;
}

static void pax2_free_aux(void *priv)
{
	struct pax2_area *area = priv;

	WARN_ON_ONCE(area->magic != PAX2_MAGIC);
	kfree(area);
}

static int pax2_event_init(struct perf_event *event)
{
	if (event->attr.type != pax2_pmu.type)
		return -ENOENT;
	if (event->attr.config & ~PAX2_CFG_EVEN_CPUS)
		return -EINVAL;
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	return 0;
}

/* An even_cpus event counts on even-numbered CPUs only. */
static int pax2_filter_match(struct perf_event *event)
{
	return !(event->attr.config & PAX2_CFG_EVEN_CPUS) || !(smp_processor_id() & 1);
}

PMU_FORMAT_ATTR(even_cpus, "config:0");

static struct attribute *pax2_format_attrs[] = {
	&format_attr_even_cpus.attr,
	NULL,
};

static const struct attribute_group pax2_format_group = {
	.name = "format",
	.attrs = pax2_format_attrs,
};

static const struct attribute_group *pax2_attr_groups[] = {
	&pax2_format_group,
	NULL,
};

static struct pmu pax2_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_AUX_NO_SG,
	.attr_groups	= pax2_attr_groups,
	.filter_match	= pax2_filter_match,
	.event_init	= pax2_event_init,
	.add		= pax2_add,
	.del		= pax2_del,
	.start		= pax2_start,
	.stop		= pax2_stop,
	.read		= pax_read,
	.setup_aux	= pax2_setup_aux,
	.free_aux	= pax2_free_aux,
};

static int __init pax_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu) {
		struct hrtimer *timer = &per_cpu_ptr(&pax_cpu, cpu)->tick;

		hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		timer->function = pax_tick;
	}
	ret = perf_pmu_register(&pax_pmu, "perfev_aux", -1);
	if (ret)
		return ret;
	return perf_pmu_register(&pax2_pmu, "perfev_aux2", -1);
}
device_initcall(pax_init);
