#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Perf's own kernel instructions per benchmark operation (make bench PROFILE=1).

  kprof_regions.py REGIONS LOG SYSTEM_MAP OBJ_GLOB[,OBJ_GLOB...][,!NAME...]

REGIONS is kprof's regions=FILE: for each measured stretch of a benchmark
("region N"), the kernel blocks that ran in it and how often.  LOG is the
guest console: its "BENCH-OPS <case> <ops>" lines name the regions, in the
same order (bench.c prints one as each region ends).  The functions defined
in the object files of OBJ_GLOB (the perf core and the PMU driver of that
kernel) are perf's own: the blocks in those objects' text, by address;
!NAME leaves out the objects of that file name (e.g. !uprobes.o, which
kernel/events holds but is not perf's).  Prints per case, over all of its regions:

  OWN <case> <own insns/op> <kernel insns/op> <ops> <slab allocations/op>

The slab allocations are the calls of the slab allocator's entry points
(SLAB_ALLOC, which do not call one another): the executions of the block at
a function's first address, or on ppc64 also at its local entry point 8
bytes in, where calls from inside the kernel enter.  They count every
allocation of the operation, perf's or not (the file, the fd table...).

With --detail CASE (a sixth argument), the kernel functions of that case
instead, by instructions per op, perf's own marked with '*'.
"""
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kprof_report import defined_ranges, load_map  # noqa: E402

CLONE = re.compile(r'\.(isra|constprop|part|cold|llvm)\b.*$')

# Linux 6.1's slab allocation calls (mm/slab_common.c, mm/slub.c); kvmalloc,
# krealloc and the like end in one of these
SLAB_ALLOC = ('kmem_cache_alloc', 'kmem_cache_alloc_lru', 'kmem_cache_alloc_node',
              'kmem_cache_alloc_bulk', 'kmalloc_trace', 'kmalloc_node_trace',
              '__kmalloc', '__kmalloc_node', '__kmalloc_node_track_caller',
              'kmalloc_large', 'kmalloc_large_node')
PPC64_KERNEL = 0xc000000000000000


def alloc_entries(addrs, names):
    """The block starts that are calls of a slab allocation."""
    entries = set()
    for addr, name in zip(addrs, names):
        if name in SLAB_ALLOC:
            entries.add(addr)
            if addr >= PPC64_KERNEL:
                entries.add(addr + 8)
    return entries


def read_regions(path):
    """[{(start, insns): execs}] in region order."""
    regions = []
    with open(path) as f:
        for line in f:
            if line.startswith('region '):
                regions.append({})
                continue
            start, insns, execs = line.split()
            regions[-1][(int(start, 16), int(insns))] = int(execs)
    return regions


def read_ops(path):
    ops = []
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'^BENCH-OPS (\S+) (\d+)\s*$', line.rstrip('\r\n'))
            if m:
                ops.append((m.group(1), int(m.group(2))))
    return ops


def main():
    detail = None
    if len(sys.argv) == 7 and sys.argv[5] == '--detail':
        detail = sys.argv[6]
    elif len(sys.argv) != 5:
        sys.exit(__doc__)
    regions = read_regions(sys.argv[1])
    ops = read_ops(sys.argv[2])
    addrs, names = load_map(sys.argv[3])
    allocs = alloc_entries(addrs, names)
    ranges = []
    patterns = sys.argv[4].split(',')
    skip = [p[1:] for p in patterns if p.startswith('!')]
    for pattern in patterns:
        if not pattern.startswith('!'):
            ranges += defined_ranges(pattern, sys.argv[3], skip)
    ranges.sort()
    starts = [a for a, _ in ranges]

    def is_own(addr):
        i = bisect.bisect_right(starts, addr) - 1
        return i >= 0 and addr < ranges[i][1]
    if len(regions) != len(ops):
        sys.exit(f'kprof_regions: {len(regions)} regions but {len(ops)} BENCH-OPS lines')
    fn_of, own_of = {}, {}
    totals = {}			# case -> [own, kernel, ops, slab allocations]
    per_fn = {}			# function -> instructions, of the --detail case
    for (case, n), region in zip(ops, regions):
        t = totals.setdefault(case, [0, 0, 0, 0])
        t[2] += n
        for (start, insns), execs in region.items():
            if start not in fn_of:
                i = bisect.bisect_right(addrs, start) - 1
                fn_of[start] = CLONE.sub('', names[i]) if i >= 0 else '?'
                own_of[start] = is_own(start)
            t[1] += insns * execs
            if start in allocs:
                t[3] += execs
            if own_of[start]:
                t[0] += insns * execs
            if case == detail:
                key = (fn_of[start], own_of[start])
                per_fn[key] = per_fn.get(key, 0) + insns * execs
    if detail:
        n = totals.get(detail, [0, 0, 0, 0])[2] or 1
        for (fn, own), v in sorted(per_fn.items(), key=lambda kv: -kv[1]):
            print(f'{v / n:10.1f} {"*" if own else " "} {fn}')
        return 0
    for case, (o, k, n, a) in totals.items():
        print(f'OWN {case} {o / (n or 1):.1f} {k / (n or 1):.1f} {n} {a / (n or 1):.2f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
