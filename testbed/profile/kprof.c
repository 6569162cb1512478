// SPDX-License-Identifier: GPL-2.0
/*
 * kprof: a QEMU TCG plugin that counts the guest instructions executed in
 * each translated block of the guest kernel, for an exact instruction
 * profile of a benchmark guest (testbed/profile/README.md).
 *
 * Arguments: out=FILE (where the counts go at exit), min=ADDR (lowest
 * guest virtual address counted, hexadecimal; the kernel's half of the
 * address space by default).  Output: one line per block, "start insns
 * executions", start in hexadecimal.  A block left early (an exception or
 * an interrupt in its middle) still counts all its instructions: the
 * profile is exact to within those.
 *
 * Regions (regions=FILE): a user program marks the start and the end of a
 * measured stretch with a marker instruction, a no-op that compilers never
 * emit (x86_64: nopl 0x4b505242(%rax) to start, 0x4b505245 to end;
 * ppc64le: xori 12,12,0 to start, xoris 12,12,0 to end).  At each end the
 * blocks' executions since the start go to FILE: a line "region N", then
 * one line per block that ran, as in the profile.  The benchmark prints
 * what each region was (bench.c's BENCH-OPS lines, in the same order).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct kprof_block {
	uint64_t start;
	uint64_t insns;
	struct qemu_plugin_scoreboard *execs;
	uint64_t at_region_start;	/* executions when the region began */
};

static GHashTable *blocks;	/* key: start ^ insns << 48, value: kprof_block */
static GMutex blocks_lock;
static uint64_t min_addr = 0xffff800000000000ULL;
static char *out_path;
static FILE *regions;		/* regions=FILE, or NULL */
static unsigned int region_nr;
static bool in_region;

enum kprof_mark { MARK_NONE, MARK_START, MARK_END };

/* x86_64: nopl imm32(%rax), 0f 1f 80 imm32, with imm32 "BRPK" / "ERPK" */
static const uint8_t x86_start[7] = { 0x0f, 0x1f, 0x80, 0x42, 0x52, 0x50, 0x4b };
static const uint8_t x86_end[7] = { 0x0f, 0x1f, 0x80, 0x45, 0x52, 0x50, 0x4b };
/* ppc64le (little-endian words): xori 12,12,0 and xoris 12,12,0 */
static const uint8_t ppc_start[4] = { 0x00, 0x00, 0x8c, 0x69 };
static const uint8_t ppc_end[4] = { 0x00, 0x00, 0x8c, 0x6d };

static enum kprof_mark kprof_marker(const struct qemu_plugin_insn *insn)
{
	uint8_t buf[8];
	size_t n = qemu_plugin_insn_data(insn, buf, sizeof(buf));

	if (n == sizeof(x86_start) && !memcmp(buf, x86_start, n))
		return MARK_START;
	if (n == sizeof(x86_end) && !memcmp(buf, x86_end, n))
		return MARK_END;
	if (n == sizeof(ppc_start) && !memcmp(buf, ppc_start, n))
		return MARK_START;
	if (n == sizeof(ppc_end) && !memcmp(buf, ppc_end, n))
		return MARK_END;
	return MARK_NONE;
}

static uint64_t kprof_execs(struct kprof_block *b)
{
	return qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(b->execs));
}

static void kprof_region_start(gpointer key, gpointer value, gpointer unused)
{
	struct kprof_block *b = value;

	b->at_region_start = kprof_execs(b);
}

static void kprof_region_write(gpointer key, gpointer value, gpointer file)
{
	struct kprof_block *b = value;
	uint64_t n = kprof_execs(b) - b->at_region_start;

	if (n)
		fprintf(file, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->start, b->insns, n);
}

/* A marker ran: snapshot the counts, or write what ran since the snapshot. */
static void kprof_mark_exec(unsigned int vcpu, void *udata)
{
	enum kprof_mark mark = (enum kprof_mark)(uintptr_t)udata;

	g_mutex_lock(&blocks_lock);
	if (mark == MARK_START) {
		/* blocks first seen inside the region start from zero */
		g_hash_table_foreach(blocks, kprof_region_start, NULL);
		in_region = true;
	} else if (in_region) {
		fprintf(regions, "region %u\n", region_nr++);
		g_hash_table_foreach(blocks, kprof_region_write, regions);
		fflush(regions);
		in_region = false;
	}
	g_mutex_unlock(&blocks_lock);
}

static void kprof_user_tb(struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		enum kprof_mark mark = kprof_marker(insn);

		if (mark != MARK_NONE)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, kprof_mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)mark);
	}
}

static void kprof_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	uint64_t insns = qemu_plugin_tb_n_insns(tb);
	uint64_t key = start ^ (insns << 48);
	struct kprof_block *b;

	if (start < min_addr) {
		if (regions)
			kprof_user_tb(tb);
		return;
	}
	g_mutex_lock(&blocks_lock);
	b = g_hash_table_lookup(blocks, &key);
	if (!b) {
		b = g_new0(struct kprof_block, 1);
		b->start = start;
		b->insns = insns;
		b->execs = qemu_plugin_scoreboard_new(sizeof(uint64_t));
		g_hash_table_insert(blocks, g_memdup2(&key, sizeof(key)), b);
	}
	g_mutex_unlock(&blocks_lock);
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 qemu_plugin_scoreboard_u64(b->execs), 1);
}

static void kprof_write(gpointer key, gpointer value, gpointer file)
{
	struct kprof_block *b = value;
	uint64_t n = qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(b->execs));

	if (n)
		fprintf(file, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->start, b->insns, n);
}

static void kprof_exit(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");

	if (!f) {
		qemu_plugin_outs("kprof: cannot write the profile\n");
		return;
	}
	g_mutex_lock(&blocks_lock);
	g_hash_table_foreach(blocks, kprof_write, f);
	g_mutex_unlock(&blocks_lock);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = g_strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "regions=", 8))
			regions = fopen(argv[i] + 8, "w");
		else if (!strncmp(argv[i], "min=", 4))
			min_addr = strtoull(argv[i] + 4, NULL, 16);
		else
			return -1;
	}
	if (!out_path)
		return -1;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "regions=", 8) && !regions)
			return -1;
	blocks = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, kprof_tb_trans);
	qemu_plugin_register_atexit_cb(id, kprof_exit, NULL);
	return 0;
}
