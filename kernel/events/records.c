// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records (part 2, step 5): what happened to the tasks and the
 * address spaces an event watches, written beside its samples so that user
 * space can make sense of them.
 *
 * Owns: PERF_RECORD_COMM, MMAP/MMAP2 (with a build id on request), FORK
 * and EXIT, NAMESPACES, SWITCH/SWITCH_CPU_WIDE, CGROUP, KSYMBOL, BPF_EVENT
 * and TEXT_POKE; the entry points of include/linux/perf_event.h that
 * announce those happenings; which events want which records.
 *
 * Which events see a record: those that asked for its kind (the attr bits
 * of perf_sb_kinds()) and are enabled (INACTIVE or ACTIVE), among
 *  - the events of the current task's context bound to no CPU or to this
 *    one (a task's own happenings are announced while it runs), and
 *  - the CPU-wide events bound to this CPU (perf_sb_cpu), filtered by
 *    cgroup for cgroup events.
 * A per-kind count of such events (perf_sb_count) lets a kernel without
 * any return at once, so a task without them pays one check.
 *
 * Locking: the record is built first, in the caller's context (it may
 * sleep: a path name, a build id, namespace inodes).  Then the CPU-wide
 * events are walked under RCU with preemption off, and the task's context
 * under its ctx->lock (IRQs off); writing takes no lock (output.c).
 * perf_sb_cpu lists change under their own spinlock; events leave them
 * before they are freed after a grace period.
 */
#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hugetlb.h>
#include <linux/kdev_t.h>
#include <linux/mman.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/proc_ns.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/* ---- who wants what ------------------------------------------------------ */

atomic_t perf_sb_count[PERF_SB_NR];

struct perf_sb_list {
	spinlock_t		lock;		/* writers of events */
	struct list_head	events;		/* event->sb_list, RCU */
};

static DEFINE_PER_CPU(struct perf_sb_list, perf_sb_cpu);

static unsigned long perf_sb_kinds(const struct perf_event_attr *attr)
{
	unsigned long kinds = 0;
	bool any_mmap = attr->mmap || attr->mmap2 || attr->mmap_data;

	if (attr->comm)
		kinds |= BIT(PERF_SB_COMM);
	if (any_mmap)
		kinds |= BIT(PERF_SB_MMAP);
	if (attr->mmap2 && attr->build_id)
		kinds |= BIT(PERF_SB_BUILD_ID);
	if (attr->task || attr->comm || any_mmap)
		kinds |= BIT(PERF_SB_TASK);
	if (attr->namespaces)
		kinds |= BIT(PERF_SB_NAMESPACES);
	if (attr->context_switch)
		kinds |= BIT(PERF_SB_SWITCH);
	if (attr->cgroup)
		kinds |= BIT(PERF_SB_CGROUP);
	if (attr->ksymbol)
		kinds |= BIT(PERF_SB_KSYMBOL);
	if (attr->bpf_event)
		kinds |= BIT(PERF_SB_BPF);
	if (attr->text_poke)
		kinds |= BIT(PERF_SB_TEXT_POKE);
	return kinds;
}

static void perf_sb_account(struct perf_event *event, int delta)
{
	unsigned long kinds = perf_sb_kinds(&event->attr);
	int kind;

	for_each_set_bit(kind, &kinds, PERF_SB_NR)
		atomic_add(delta, &perf_sb_count[kind]);
}

/*
 * A new event (not an inherited child: its parent speaks for it) that
 * asks for records is counted, and found through this CPU's list if it is
 * a CPU-wide event.
 */
void perf_sideband_attach(struct perf_event *event)
{
	struct perf_sb_list *sb;

	if (event->parent || !perf_sb_kinds(&event->attr))
		return;
	perf_sb_account(event, 1);
	event->attach_state |= PERF_ATTACH_SIDEBAND;
	if (event->attach_state & PERF_ATTACH_TASK)
		return;
	sb = per_cpu_ptr(&perf_sb_cpu, event->cpu);
	spin_lock(&sb->lock);
	list_add_rcu(&event->sb_list, &sb->events);
	spin_unlock(&sb->lock);
}

/* The event is being freed (after a grace period, so RCU walkers are safe). */
void perf_sideband_detach(struct perf_event *event)
{
	struct perf_sb_list *sb;

	if (!(event->attach_state & PERF_ATTACH_SIDEBAND))
		return;
	event->attach_state &= ~PERF_ATTACH_SIDEBAND;
	perf_sb_account(event, -1);
	if (event->attach_state & PERF_ATTACH_TASK)
		return;
	sb = per_cpu_ptr(&perf_sb_cpu, event->cpu);
	spin_lock(&sb->lock);
	list_del_rcu(&event->sb_list);
	spin_unlock(&sb->lock);
}

void perf_output_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_sb_list *sb = per_cpu_ptr(&perf_sb_cpu, cpu);

		spin_lock_init(&sb->lock);
		INIT_LIST_HEAD(&sb->events);
	}
}

/* ---- walking the events that see a record ------------------------------------ */

/* Writes one record to @event if it wants it; @rec describes the happening. */
typedef void (*perf_sb_output_f)(struct perf_event *event, void *rec);

static bool perf_sb_event_sees(struct perf_event *event, enum perf_sb_kind kind)
{
	if (READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return false;
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (!(perf_sb_kinds(&event->attr) & BIT(kind)))
		return false;
	/* a PMU of some CPUs only (hybrid): not on the others (the event alone) */
	if (event->pmu->filter_match && !event->pmu->filter_match(event))
		return false;
	return !perf_event_is_cgroup(event) || perf_cgroup_event_runs(event);
}

/*
 * Hand @rec to every event that sees a record of @kind: this CPU's
 * CPU-wide events, then those of the current task's context.
 */
static void perf_sb_emit(enum perf_sb_kind kind, perf_sb_output_f output, void *rec)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;

	preempt_disable();
	rcu_read_lock();
	list_for_each_entry_rcu(event, &this_cpu_ptr(&perf_sb_cpu)->events, sb_list) {
		/*
		 * Listed since perf_event_alloc(), but not in a context yet
		 * (the opener may sleep, and switch, before it installs the
		 * event): skip it until install has published event->ctx.
		 */
		if (!smp_load_acquire(&event->ctx))
			continue;
		if (perf_sb_event_sees(event, kind))
			output(event, rec);
	}
	ctx = rcu_dereference(current->perf_event_ctxp);
	if (ctx) {
		raw_spin_lock_irqsave(&ctx->lock, flags);
		list_for_each_entry(event, &ctx->event_list, event_entry) {
			if (perf_sb_event_sees(event, kind))
				output(event, rec);
		}
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
	}
	rcu_read_unlock();
	preempt_enable();
}

/* Bytes a NUL-terminated @len-byte string takes in a record: a u64 multiple. */
static size_t perf_sb_str_room(size_t len)
{
	return ALIGN(len + 1, sizeof(u64));
}

/* ---- FORK and EXIT --------------------------------------------------------------- */

struct perf_task_rec {
	struct task_struct	*task;
	bool			fork;
};

static void perf_task_output(struct perf_event *event, void *arg)
{
	struct perf_task_rec *rec = arg;
	struct task_struct *task = rec->task;
	/* a fork is told by the parent, an exit names the real parent */
	struct task_struct *parent = rec->fork ? current : task->real_parent;
	struct {
		struct perf_event_header	header;
		u32				pid, ppid;
		u32				tid, ptid;
		u64				time;
	} body = {
		.header.type = rec->fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT,
		.pid = perf_event_task_nr(event, task, PIDTYPE_TGID),
		.tid = perf_event_task_nr(event, task, PIDTYPE_PID),
		.time = event->clock(),
	};

	if (rec->fork) {
		body.ppid = perf_event_task_nr(event, parent, PIDTYPE_TGID);
		body.ptid = perf_event_task_nr(event, parent, PIDTYPE_PID);
	} else {
		/* 6.1 reports the parent's process id in both fields */
		body.ppid = perf_event_task_nr(event, parent, PIDTYPE_TGID);
		body.ptid = body.ppid;
	}
	perf_output_record(event, &body.header, sizeof(body), NULL, 0, 0);
}

/*
 * @task (current) exits: the events of its context (still attached) and
 * the CPU's see the EXIT.
 */
void perf_record_exit(struct task_struct *task)
{
	struct perf_task_rec rec = { .task = task, .fork = false };

	if (perf_sb_wanted(PERF_SB_TASK))
		perf_sb_emit(PERF_SB_TASK, perf_task_output, &rec);
}

/* ---- COMM -------------------------------------------------------------------------- */

struct perf_comm_rec {
	struct task_struct	*task;
	char			comm[TASK_COMM_LEN];
	size_t			len;
	bool			exec;
};

static void perf_comm_output(struct perf_event *event, void *arg)
{
	struct perf_comm_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u32				pid, tid;
	} body = {
		.header.type = PERF_RECORD_COMM,
		/* set whether or not the event asked for comm_exec, as 6.1 */
		.header.misc = rec->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		.pid = perf_event_task_nr(event, rec->task, PIDTYPE_TGID),
		.tid = perf_event_task_nr(event, rec->task, PIDTYPE_PID),
	};

	perf_output_record(event, &body.header, sizeof(body), rec->comm, rec->len + 1,
			   perf_sb_str_room(rec->len));
}

void perf_event_comm(struct task_struct *task, bool exec)
{
	struct perf_comm_rec rec = { .task = task, .exec = exec };

	if (!perf_sb_wanted(PERF_SB_COMM))
		return;
	get_task_comm(rec.comm, task);
	rec.len = strlen(rec.comm);
	perf_sb_emit(PERF_SB_COMM, perf_comm_output, &rec);
}

/* ---- NAMESPACES -------------------------------------------------------------------- */

struct perf_ns_rec {
	struct task_struct		*task;
	struct perf_ns_link_info	links[NR_NAMESPACES];
};

static void perf_ns_link(struct perf_ns_link_info *link, struct task_struct *task,
			 const struct proc_ns_operations *ops)
{
	struct path path;
	struct inode *inode;

	if (ns_get_path(&path, task, ops))
		return;
	inode = d_inode(path.dentry);
	link->dev = new_encode_dev(inode->i_sb->s_dev);
	link->ino = inode->i_ino;
	path_put(&path);
}

static void perf_ns_output(struct perf_event *event, void *arg)
{
	struct perf_ns_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u32				pid, tid;
		u64				nr_namespaces;
		struct perf_ns_link_info	links[NR_NAMESPACES];
	} body = {
		.header.type = PERF_RECORD_NAMESPACES,
		.pid = perf_event_task_nr(event, rec->task, PIDTYPE_TGID),
		.tid = perf_event_task_nr(event, rec->task, PIDTYPE_PID),
		.nr_namespaces = NR_NAMESPACES,
	};

	memcpy(body.links, rec->links, sizeof(body.links));
	perf_output_record(event, &body.header, sizeof(body), NULL, 0, 0);
}

void perf_event_namespaces(struct task_struct *task)
{
	struct perf_ns_rec *rec;

	if (!perf_sb_wanted(PERF_SB_NAMESPACES))
		return;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	rec->task = task;
	/* the ABI's order of namespaces; one the kernel lacks reads 0/0 */
#ifdef CONFIG_NET_NS
	perf_ns_link(&rec->links[NET_NS_INDEX], task, &netns_operations);
#endif
#ifdef CONFIG_UTS_NS
	perf_ns_link(&rec->links[UTS_NS_INDEX], task, &utsns_operations);
#endif
#ifdef CONFIG_IPC_NS
	perf_ns_link(&rec->links[IPC_NS_INDEX], task, &ipcns_operations);
#endif
#ifdef CONFIG_PID_NS
	perf_ns_link(&rec->links[PID_NS_INDEX], task, &pidns_operations);
#endif
#ifdef CONFIG_USER_NS
	perf_ns_link(&rec->links[USER_NS_INDEX], task, &userns_operations);
#endif
	perf_ns_link(&rec->links[MNT_NS_INDEX], task, &mntns_operations);
#ifdef CONFIG_CGROUPS
	perf_ns_link(&rec->links[CGROUP_NS_INDEX], task, &cgroupns_operations);
#endif
	perf_sb_emit(PERF_SB_NAMESPACES, perf_ns_output, rec);
	kfree(rec);
}

/* A new task: the parent's events and the CPU's see its FORK, then its namespaces. */
void perf_event_fork(struct task_struct *task)
{
	struct perf_task_rec rec = { .task = task, .fork = true };

	if (perf_sb_wanted(PERF_SB_TASK))
		perf_sb_emit(PERF_SB_TASK, perf_task_output, &rec);
	perf_event_namespaces(task);
}

/* ---- MMAP and MMAP2 ---------------------------------------------------------------- */

struct perf_mmap_rec {
	struct vm_area_struct	*vma;
	const char		*name;
	size_t			name_len;
	u32			maj, min;
	u64			ino, ino_generation;
	u32			prot, flags;
	u8			build_id[BUILD_ID_SIZE_MAX];
	u32			build_id_size;
};

static bool perf_mmap_matches(struct perf_event *event, struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_EXEC)
		return event->attr.mmap || event->attr.mmap2;
	return event->attr.mmap_data;
}

static void perf_mmap_output(struct perf_event *event, void *arg)
{
	struct perf_mmap_rec *rec = arg;
	struct vm_area_struct *vma = rec->vma;
	struct {
		struct perf_event_header	header;
		u32				pid, tid;
		u64				addr, len, pgoff;
		union {
			struct {
				u32		maj, min;
				u64		ino, ino_generation;
			};
			struct {
				u8		build_id_size;
				u8		reserved_1;
				u16		reserved_2;
				u8		build_id[20];
			};
		};
		u32				prot, flags;
	} body = {
		.header.type = PERF_RECORD_MMAP,
		.header.misc = PERF_RECORD_MISC_USER,
		.pid = perf_event_task_nr(event, current, PIDTYPE_TGID),
		.tid = perf_event_task_nr(event, current, PIDTYPE_PID),
		.addr = vma->vm_start,
		.len = vma->vm_end - vma->vm_start,
		.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT,
	};
	/* MMAP ends with the name where MMAP2's extra fields begin */
	size_t len = offsetof(typeof(body), maj);

	if (!perf_mmap_matches(event, vma))
		return;
	if (!(vma->vm_flags & VM_EXEC))
		body.header.misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (event->attr.mmap2) {
		body.header.type = PERF_RECORD_MMAP2;
		len = sizeof(body);
		body.prot = rec->prot;
		body.flags = rec->flags;
		if (event->attr.build_id && rec->build_id_size) {
			body.header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			body.build_id_size = rec->build_id_size;
			memcpy(body.build_id, rec->build_id, rec->build_id_size);
		} else {
			body.maj = rec->maj;
			body.min = rec->min;
			body.ino = rec->ino;
			body.ino_generation = rec->ino_generation;
		}
	}
	perf_output_record(event, &body.header, len, rec->name, rec->name_len + 1,
			   perf_sb_str_room(rec->name_len));
}

/* The name of an anonymous mapping, as /proc/PID/maps would give it. */
static const char *perf_anon_vma_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma->vm_start <= vma->vm_mm->start_brk && vma->vm_end >= vma->vm_mm->brk)
		return "[heap]";
	if (vma->vm_start <= vma->vm_mm->start_stack && vma->vm_end >= vma->vm_mm->start_stack)
		return "[stack]";
	return "//anon";
}

void perf_event_mmap(struct vm_area_struct *vma)
{
	struct perf_mmap_rec rec = { .vma = vma };
	struct file *file = vma->vm_file;
	char *buf = NULL;

	/* filters resolve whether or not anyone wants MMAP records */
	perf_addr_filters_mmap(vma);
	if (!perf_sb_wanted(PERF_SB_MMAP))
		return;

	rec.prot = (vma->vm_flags & VM_READ ? PROT_READ : 0) |
		   (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) |
		   (vma->vm_flags & VM_EXEC ? PROT_EXEC : 0);
	rec.flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
	if (vma->vm_flags & VM_LOCKED)
		rec.flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page(vma))
		rec.flags |= MAP_HUGETLB;

	if (file) {
		struct inode *inode = file_inode(file);

		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		rec.name = buf ? d_path(&file->f_path, buf, PATH_MAX - sizeof(u64)) :
				 ERR_PTR(-ENOMEM);
		if (IS_ERR(rec.name))
			rec.name = "//toolong";
		rec.maj = MAJOR(inode->i_sb->s_dev);
		rec.min = MINOR(inode->i_sb->s_dev);
		rec.ino = inode->i_ino;
		rec.ino_generation = inode->i_generation;
	} else {
		rec.name = perf_anon_vma_name(vma);
	}
	rec.name_len = strlen(rec.name);
	if (perf_sb_wanted(PERF_SB_BUILD_ID) && build_id_parse(vma, rec.build_id,
							       &rec.build_id_size))
		rec.build_id_size = 0;

	perf_sb_emit(PERF_SB_MMAP, perf_mmap_output, &rec);
	kfree(buf);
}

/* ---- SWITCH -------------------------------------------------------------------------- */

struct perf_switch_rec {
	struct task_struct	*other;		/* next at sched-out, prev at sched-in */
	u16			misc;
};

static void perf_switch_output(struct perf_event *event, void *arg)
{
	struct perf_switch_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u32				next_prev_pid;
		u32				next_prev_tid;
	} body = {
		.header.type = PERF_RECORD_SWITCH,
		.header.misc = rec->misc,
	};
	size_t len = sizeof(body.header);

	/* a CPU-wide event also says which task came or went */
	if (!event->ctx->task) {
		body.header.type = PERF_RECORD_SWITCH_CPU_WIDE;
		body.next_prev_pid = perf_event_task_nr(event, rec->other, PIDTYPE_TGID);
		body.next_prev_tid = perf_event_task_nr(event, rec->other, PIDTYPE_PID);
		len = sizeof(body);
	}
	perf_output_record(event, &body.header, len, NULL, 0, 0);
}

/*
 * Context switch, in the scheduler (IRQs off): @task goes out for @other,
 * still runnable if it was preempted, or comes in after @other.
 */
void __perf_record_switch(struct task_struct *task, struct task_struct *other, bool in)
{
	struct perf_switch_rec rec = { .other = other };

	if (!in) {
		rec.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* still on the run queue: preempted, not blocked */
		if (READ_ONCE(task->on_rq))
			rec.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_emit(PERF_SB_SWITCH, perf_switch_output, &rec);
}

/* ---- CGROUP ------------------------------------------------------------------------- */

#ifdef CONFIG_CGROUP_PERF
struct perf_cgroup_rec {
	u64		id;
	const char	*path;
	size_t		path_len;
};

static void perf_cgroup_output(struct perf_event *event, void *arg)
{
	struct perf_cgroup_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u64				id;
	} body = {
		.header.type = PERF_RECORD_CGROUP,
		.id = rec->id,
	};

	perf_output_record(event, &body.header, sizeof(body), rec->path, rec->path_len + 1,
			   perf_sb_str_room(rec->path_len));
}

/* A cgroup came online (mkdir): its id and path. */
void perf_record_cgroup(struct cgroup *cgrp)
{
	struct perf_cgroup_rec rec = { .id = cgroup_id(cgrp) };
	char *buf;

	if (!perf_sb_wanted(PERF_SB_CGROUP))
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	if (cgroup_path(cgrp, buf, PATH_MAX) < 0)
		strscpy(buf, "//toolong", PATH_MAX);
	rec.path = buf;
	rec.path_len = strlen(buf);
	perf_sb_emit(PERF_SB_CGROUP, perf_cgroup_output, &rec);
	kfree(buf);
}
#endif

/* ---- KSYMBOL, BPF_EVENT, TEXT_POKE ------------------------------------------------- */

struct perf_ksymbol_rec {
	u64		addr;
	u32		len;
	u16		type;
	u16		flags;
	const char	*name;
	size_t		name_len;
};

static void perf_ksymbol_output(struct perf_event *event, void *arg)
{
	struct perf_ksymbol_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u64				addr;
		u32				len;
		u16				ksym_type;
		u16				flags;
	} body = {
		.header.type = PERF_RECORD_KSYMBOL,
		.addr = rec->addr,
		.len = rec->len,
		.ksym_type = rec->type,
		.flags = rec->flags,
	};

	/* the name may be cut short of its NUL: the padding's zeros end it */
	perf_output_record(event, &body.header, sizeof(body), rec->name, rec->name_len,
			   perf_sb_str_room(rec->name_len));
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister, const char *sym)
{
	struct perf_ksymbol_rec rec = {
		.addr = addr,
		.len = len,
		.type = ksym_type,
		.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
		.name = sym,
	};

	if (!perf_sb_wanted(PERF_SB_KSYMBOL))
		return;
	if (ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
	    ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX) {
		WARN_ONCE(1, "perf: unknown ksymbol type %u\n", ksym_type);
		return;
	}
	rec.name_len = strnlen(sym, KSYM_NAME_LEN - 1);
	perf_sb_emit(PERF_SB_KSYMBOL, perf_ksymbol_output, &rec);
}

#ifdef CONFIG_BPF_SYSCALL
struct perf_bpf_rec {
	u16		type;
	u16		flags;
	u32		id;
	u8		tag[BPF_TAG_SIZE];
};

static void perf_bpf_output(struct perf_event *event, void *arg)
{
	struct perf_bpf_rec *rec = arg;
	struct {
		struct perf_event_header	header;
		u16				type;
		u16				flags;
		u32				id;
		u8				tag[BPF_TAG_SIZE];
	} body = {
		.header.type = PERF_RECORD_BPF_EVENT,
		.type = rec->type,
		.flags = rec->flags,
		.id = rec->id,
	};

	memcpy(body.tag, rec->tag, BPF_TAG_SIZE);
	perf_output_record(event, &body.header, sizeof(body), NULL, 0, 0);
}

/* A KSYMBOL for the program's image, or for each of its subprograms. */
static void perf_bpf_ksymbols(struct bpf_prog *prog, bool unregister)
{
	struct bpf_prog **progs = prog->aux->func_cnt ? prog->aux->func : &prog;
	u32 nr = prog->aux->func_cnt ? prog->aux->func_cnt : 1;
	u32 i;

	for (i = 0; i < nr; i++)
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (u64)(unsigned long)progs[i]->bpf_func, progs[i]->jited_len,
				   unregister, progs[i]->aux->ksym.name);
}

void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type, u16 flags)
{
	struct perf_bpf_rec rec = { .type = type, .flags = flags, .id = prog->aux->id };

	if (type <= PERF_BPF_EVENT_UNKNOWN || type >= PERF_BPF_EVENT_MAX)
		return;
	if (perf_sb_wanted(PERF_SB_KSYMBOL))
		perf_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	if (!perf_sb_wanted(PERF_SB_BPF))
		return;
	memcpy(rec.tag, prog->tag, BPF_TAG_SIZE);
	perf_sb_emit(PERF_SB_BPF, perf_bpf_output, &rec);
}
#else
void perf_event_bpf_event(struct bpf_prog *prog, enum perf_bpf_event_type type, u16 flags)
{
}
#endif

struct perf_text_poke_rec {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
};

static void perf_text_poke_output(struct perf_event *event, void *arg)
{
	struct perf_text_poke_rec *rec = arg;
	struct perf_output_handle handle;
	struct perf_sample_data data;
	static const u64 zeros;
	struct {
		struct perf_event_header	header;
		u64				addr;
	} body = {
		.header.type = PERF_RECORD_TEXT_POKE,
		.header.misc = PERF_RECORD_MISC_KERNEL,
		.addr = rec->addr,
	};
	/* after addr: u16 old_len, u16 new_len, the bytes, zeros to a u64 */
	size_t tail = 2 * sizeof(u16) + rec->old_len + rec->new_len;
	size_t pad = ALIGN(tail, sizeof(u64)) - tail;

	body.header.size = sizeof(body) + tail + pad;
	perf_event_header__init_id(&body.header, &data, event);
	if (perf_output_begin(&handle, &data, event, body.header.size))
		return;
	perf_output_put(&handle, body);
	perf_output_put(&handle, rec->old_len);
	perf_output_put(&handle, rec->new_len);
	perf_output_copy(&handle, rec->old_bytes, rec->old_len);
	perf_output_copy(&handle, rec->new_bytes, rec->new_len);
	perf_output_copy(&handle, &zeros, pad);
	perf_event__output_id_sample(event, &handle, &data);
	perf_output_end(&handle);
}

void perf_event_text_poke(const void *addr, const void *old_bytes, size_t old_len,
			  const void *new_bytes, size_t new_len)
{
	struct perf_text_poke_rec rec = {
		.addr = (unsigned long)addr,
		.old_bytes = old_bytes,
		.new_bytes = new_bytes,
		.old_len = old_len,
		.new_len = new_len,
	};

	/* a new trampoline has no old bytes, a freed one no new bytes */
	if (!perf_sb_wanted(PERF_SB_TEXT_POKE))
		return;
	perf_sb_emit(PERF_SB_TEXT_POKE, perf_text_poke_output, &rec);
}
