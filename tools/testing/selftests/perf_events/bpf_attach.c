// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_SET_BPF: which BPF programs attach to which tracing events.
 *
 * Covers the checks 6.1 makes before a program reaches the attach code,
 * with programs loaded through bpf(2) (a few raw instructions, no libbpf):
 * a tracepoint program that reads inside the record attaches, one that
 * reads past it (the verifier's largest context offset) is EACCES, for a
 * tracepoint and a syscall tracepoint; a sleepable kprobe program attaches
 * to a uprobe but not to a kprobe (EINVAL); a program calling
 * bpf_override_return() attaches to a kprobe of an error-injectable
 * function (and then changes what the function returns) but not to a
 * uprobe (EINVAL); a kprobe program on a tracepoint, a tracepoint program
 * on a kprobe, a program on a software event, EINVAL.
 *
 * Needs CONFIG_BPF_SYSCALL with CONFIG_BPF_EVENTS (the x86_64 testbed
 * configuration), CONFIG_BPF_KPROBE_OVERRIDE for the override cases; SKIPs
 * what the kernel does not have.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define OVERRIDE_RC	4242

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static struct bpf_insn insn(__u8 code, __u8 dst, __u8 src, __s16 off, __s32 imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src,
			      .off = off, .imm = imm };
	return i;
}

/* Load @n instructions as a GPL program of @type; fd or -1 (errno set). */
static int load_prog(enum bpf_prog_type type, const struct bpf_insn *insns, int n,
		     __u32 flags)
{
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = n;
	attr.license = (__u64)(unsigned long)"GPL";
	attr.prog_flags = flags;
	attr.log_buf = (__u64)(unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "# verifier: %.300s\n", log);
	return fd;
}

/*
 * r0 = *(u32 *)(ctx + @off); return 0.  The verifier allows offsets from 8
 * (the first 8 bytes are not the record's) to PERF_MAX_TRACE_SIZE (2048).
 */
static int load_ctx_reader(int off)
{
	struct bpf_insn p[] = {
		insn(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_0, BPF_REG_1, off, 0),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_prog(BPF_PROG_TYPE_TRACEPOINT, p, 3, 0);
}

/* return 0, a kprobe program, sleepable if @flags says so */
static int load_kprobe_nop(__u32 flags)
{
	struct bpf_insn p[] = {
		insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_prog(BPF_PROG_TYPE_KPROBE, p, 2, flags);
}

/* bpf_override_return(ctx, OVERRIDE_RC); return 0 */
static int load_override(void)
{
	struct bpf_insn p[] = {
		insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, OVERRIDE_RC),
		insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_override_return),
		insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return load_prog(BPF_PROG_TYPE_KPROBE, p, 4, 0);
}

/* bpf(2) is there (CONFIG_BPF_SYSCALL): an empty load is EINVAL, not ENOSYS. */
static bool have_bpf(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	return sys_bpf(BPF_PROG_LOAD, &attr) >= 0 || errno != ENOSYS;
}

/* Attach @prog to @fd: 0 or the errno. */
static int set_bpf(int fd, int prog)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ? errno : 0;
}

static int open_tracepoint(const char *sys, const char *name)
{
	struct perf_event_attr attr;
	int id = perfev_tracepoint_id(sys, name);

	if (id < 0)
		return -1;
	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	return perfev_open(&attr, 0, -1, -1, 0);
}

static const char *getppid_sym(void)
{
	static const char * const syms[] = { "__x64_sys_getppid", "sys_getppid" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(syms); i++)
		if (perfev_have_ksym(syms[i]))
			return syms[i];
	return NULL;
}

static int open_kprobe(const char *sym)
{
	struct perf_event_attr attr;
	int type = perfev_pmu_type("kprobe");

	if (type < 0 || !sym)
		return -1;
	perfev_attr_init(&attr, type, 0);
	attr.config1 = (__u64)(unsigned long)sym;
	return perfev_open(&attr, 0, -1, -1, 0);
}

static __attribute__((noinline)) int probed_function(void)
{
	__asm__ __volatile__("" ::: "memory");
	return 1;
}

static int open_uprobe(void)
{
	static const char path[] = "/proc/self/exe";
	struct perf_event_attr attr;
	int type = perfev_pmu_type("uprobe");
	long off;

	if (type < 0)
		return -1;
	off = perfev_exe_file_offset((unsigned long)probed_function);
	if (off <= 0)
		return -1;
	perfev_attr_init(&attr, type, 0);
	attr.config1 = (__u64)(unsigned long)path;
	attr.config2 = off;
	return perfev_open(&attr, 0, -1, -1, 0);
}

/* A kprobe on getppid's entry and a uprobe on probed_function(): 0, or -1 and neither. */
static int open_probe_pair(int *kfd, int *ufd)
{
	*kfd = open_kprobe(getppid_sym());
	*ufd = open_uprobe();
	if (*kfd >= 0 && *ufd >= 0)
		return 0;
	if (*kfd >= 0)
		close(*kfd);
	if (*ufd >= 0)
		close(*ufd);
	return -1;
}

TEST(tracepoint_program_may_not_read_past_the_record)
{
	static const char * const tps[][2] = {
		{ "sched", "sched_switch" },
		{ "syscalls", "sys_enter_getppid" },
	};
	unsigned int i;
	int inside, past;

	if (!have_bpf())
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	/* bytes 8..11: in every record (a syscall's __syscall_nr is there) */
	inside = load_ctx_reader(8);
	ASSERT_GE(inside, 0) TH_LOG("loading a tracepoint program: %s", strerror(errno));
	/* no record of these is 2 KiB long */
	past = load_ctx_reader(2040);
	ASSERT_GE(past, 0) TH_LOG("loading a tracepoint program: %s", strerror(errno));

	for (i = 0; i < ARRAY_SIZE(tps); i++) {
		int fd = open_tracepoint(tps[i][0], tps[i][1]);

		if (fd < 0) {
			TH_LOG("no %s:%s, not tried", tps[i][0], tps[i][1]);
			continue;
		}
		EXPECT_EQ(EACCES, set_bpf(fd, past)) TH_LOG("%s:%s", tps[i][0], tps[i][1]);
		EXPECT_EQ(0, set_bpf(fd, inside)) TH_LOG("%s:%s", tps[i][0], tps[i][1]);
		close(fd);
	}
	close(inside);
	close(past);
}

TEST(sleepable_kprobe_program_only_on_uprobes)
{
	int prog, kfd, ufd;

	if (!have_bpf())
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	if (open_probe_pair(&kfd, &ufd))
		SKIP(return, "no kprobe or uprobe event");
	prog = load_kprobe_nop(BPF_F_SLEEPABLE);
	ASSERT_GE(prog, 0) TH_LOG("loading a sleepable kprobe program: %s", strerror(errno));

	EXPECT_EQ(EINVAL, set_bpf(kfd, prog));
	EXPECT_EQ(0, set_bpf(ufd, prog));
	close(prog);
	close(kfd);
	close(ufd);
}

TEST(override_program_only_on_kprobes)
{
	int prog, kfd, ufd;
	long ret;

	if (!have_bpf())
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	if (open_probe_pair(&kfd, &ufd))
		SKIP(return, "no kprobe or uprobe event");
	prog = load_override();
	if (prog < 0)
		SKIP(return, "bpf_override_return() not loadable (CONFIG_BPF_KPROBE_OVERRIDE)");

	/* a uprobe is no kprobe: 6.1 refuses before the attach code looks */
	EXPECT_EQ(EINVAL, set_bpf(ufd, prog));

	/* the syscall entry allows error injection: attached, it overrides */
	ASSERT_EQ(0, set_bpf(kfd, prog));
	ASSERT_EQ(0, ioctl(kfd, PERF_EVENT_IOC_ENABLE, 0));
	ret = syscall(__NR_getppid);
	EXPECT_EQ(OVERRIDE_RC, ret);
	ASSERT_EQ(0, ioctl(kfd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(getppid(), syscall(__NR_getppid));
	close(prog);
	close(kfd);
	close(ufd);
}

TEST(program_type_must_match_the_event)
{
	int tp_prog, kp_prog, tfd, kfd, sfd;

	if (!have_bpf())
		SKIP(return, "no bpf(2) (CONFIG_BPF_SYSCALL)");
	tp_prog = load_ctx_reader(8);
	kp_prog = load_kprobe_nop(0);
	ASSERT_GE(tp_prog, 0);
	ASSERT_GE(kp_prog, 0);

	tfd = open_tracepoint("sched", "sched_switch");
	if (tfd >= 0) {
		EXPECT_EQ(EINVAL, set_bpf(tfd, kp_prog));
		close(tfd);
	}
	kfd = open_kprobe(getppid_sym());
	if (kfd >= 0) {
		EXPECT_EQ(EINVAL, set_bpf(kfd, tp_prog));
		close(kfd);
	}
	sfd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(sfd, 0);
	EXPECT_EQ(EINVAL, set_bpf(sfd, kp_prog));
	close(sfd);
	close(tp_prog);
	close(kp_prog);
}

TEST_HARNESS_MAIN
