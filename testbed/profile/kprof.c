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
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct kprof_block {
	uint64_t start;
	uint64_t insns;
	struct qemu_plugin_scoreboard *execs;
};

static GHashTable *blocks;	/* key: start ^ insns << 48, value: kprof_block */
static GMutex blocks_lock;
static uint64_t min_addr = 0xffff800000000000ULL;
static char *out_path;

static void kprof_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	uint64_t insns = qemu_plugin_tb_n_insns(tb);
	uint64_t key = start ^ (insns << 48);
	struct kprof_block *b;

	if (start < min_addr)
		return;
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
		else if (!strncmp(argv[i], "min=", 4))
			min_addr = strtoull(argv[i] + 4, NULL, 16);
		else
			return -1;
	}
	if (!out_path)
		return -1;
	blocks = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, kprof_tb_trans);
	qemu_plugin_register_atexit_cb(id, kprof_exit, NULL);
	return 0;
}
