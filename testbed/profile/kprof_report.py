#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function from kprof profiles (testbed/profile/).

  kprof_report.py [--top N] [--per N | --calls FUNCTION] [--match RE]
                  PROFILE:SYSTEM_MAP [PROFILE:SYSTEM_MAP]

One profile: its functions by instructions executed.  Two (upstream's,
then ours): both side by side and the difference, largest first.  --per
divides by a count (e.g. the number of samples the run wrote) to give
instructions per operation; --calls divides by the calls of a function
(one that runs once per operation); --match keeps the functions whose name matches;
--defined-in keeps the functions defined in some object files, one glob per
profile (e.g. build/obj/ARCH-upstream/kernel/events/*.o for the perf core).
"""
import argparse
import bisect
import glob
import re
import subprocess
import sys


def defined_in(pattern):
    """Names of the functions defined in the object files @pattern matches."""
    files = sorted(glob.glob(pattern))
    if not files:
        sys.exit('kprof_report: no object file matches %s' % pattern)
    out = subprocess.run(['nm', '--defined-only'] + files, capture_output=True,
                         text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            names.add(re.sub(r'\.(isra|constprop|part|cold|llvm)\b.*$', '', f[2]))
    return names


FUNC_SYM = re.compile(r'^\s*\d+:\s+([0-9a-f]+)\s+\d+\s+FUNC\s+\S+\s+\S+\s+'
                      r'(?:\[.*?\]\s+)?(\d+)\s+(\S+)$')
SECTION = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)')


def defined_ranges(pattern, system_map, skip=()):
    """The address ranges in the kernel of @system_map of the text sections
    of the object files @pattern matches: each section is placed whole, so a
    function of it whose name the map holds once gives the section's base.
    (By name alone, a static inline outlined in many objects, e.g.
    __raw_spin_unlock, would count wherever it ran.)"""
    files = sorted(f for f in glob.glob(pattern) if f.rsplit('/', 1)[-1] not in skip)
    if not files:
        sys.exit('kprof_report: no object file matches %s' % pattern)
    count, where = {}, {}
    with open(system_map) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in 'tTwW':
                count[parts[2]] = count.get(parts[2], 0) + 1
                where[parts[2]] = int(parts[0], 16)
    ranges = []
    for obj in files:
        secs = {}
        out = subprocess.run(['readelf', '-SW', obj], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            m = SECTION.match(line)
            if m and m.group(2).startswith(('.text', '.noinstr.text', '.sched.text')):
                secs[m.group(1)] = (m.group(2), int(m.group(3), 16))
        out = subprocess.run(['readelf', '-sW', obj], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            m = FUNC_SYM.match(line)
            if not m or m.group(2) not in secs:
                continue
            off, ndx, name = int(m.group(1), 16), m.group(2), m.group(3)
            if count.get(name) == 1:
                ranges.append((where[name] - off, where[name] - off + secs[ndx][1]))
                del secs[ndx]
    return sorted(set(ranges))


def load_map(path):
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] not in 'tTwW':
                continue
            addrs.append(int(parts[0], 16))
            names.append(parts[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def load_profile(spec, calls_of=None):
    """Instructions per function, and the calls of @calls_of (the
    executions of its entry block: the one at its first address, or on
    ppc64 the local entry point 8 bytes in, which calls from inside the
    kernel use)."""
    prof, smap = spec.split(':', 1)
    addrs, names = load_map(smap)
    per_fn = {}
    entry = {}			# offset of a block near the entry -> executions
    with open(prof) as f:
        for line in f:
            start, insns, execs = line.split()
            start = int(start, 16)
            i = bisect.bisect_right(addrs, start) - 1
            name = names[i] if i >= 0 else '?'
            if name == calls_of and start - addrs[i] <= 8:
                off = start - addrs[i]
                entry[off] = entry.get(off, 0) + int(execs)
            # compiler clones (.isra.0, .constprop.0, .cold) are their function
            name = re.sub(r'\.(isra|constprop|part|cold|llvm)\b.*$', '', name)
            per_fn[name] = per_fn.get(name, 0) + int(insns) * int(execs)
    # both entries are blocks of their own only when both are called
    return per_fn, sum(entry.values()) if len(entry) > 1 and 0 in entry and 8 in entry \
        else entry[min(entry)] if entry else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('--per', default='1',
                    help='divisor, or one per profile: COUNT[,COUNT]')
    ap.add_argument('--match', default=None)
    ap.add_argument('--calls', default=None,
                    help='divide by the calls of this function (e.g. perf_read)')
    ap.add_argument('--defined-in', default=None,
                    help='object file glob, or one per profile: GLOB[,GLOB]')
    ap.add_argument('profiles', nargs='+')
    args = ap.parse_args()
    loaded = [load_profile(p, args.calls) for p in args.profiles]
    profs = [p for p, _ in loaded]
    per = [float(x) for x in args.per.split(',')]
    per += per[-1:] * (len(profs) - len(per))
    if args.calls:
        per = [float(c) or 1.0 for _, c in loaded]
        print('per call of %s: %s' % (args.calls, ', '.join('%d' % c for c in per)))
    keep = re.compile(args.match) if args.match else None
    if args.defined_in:
        globs = args.defined_in.split(',')
        globs += globs[-1:] * (len(profs) - len(globs))
        for prof, pattern in zip(profs, globs):
            own = defined_in(pattern)
            for n in [n for n in prof if n not in own]:
                del prof[n]
    names = set().union(*profs)
    if keep:
        names = {n for n in names if keep.search(n)}
    if len(profs) == 1:
        rows = sorted(names, key=lambda n: -profs[0][n])[:args.top]
        print('%12s  %s' % ('insns', 'function'))
        for n in rows:
            print('%12.1f  %s' % (profs[0][n] / per[0], n))
        print('%12.1f  total' % (sum(profs[0][n] for n in names) / per[0]))
        return 0
    up, ours = profs[0], profs[1]
    rows = sorted(names, key=lambda n: -abs(ours.get(n, 0) - up.get(n, 0)))[:args.top]
    print('%12s %12s %12s  %s' % ('upstream', 'ours', 'ours-up', 'function'))
    for n in rows:
        a, b = up.get(n, 0) / per[0], ours.get(n, 0) / per[1]
        print('%12.1f %12.1f %+12.1f  %s' % (a, b, b - a, n))
    ta = sum(up.get(n, 0) for n in names) / per[0]
    tb = sum(ours.get(n, 0) for n in names) / per[1]
    print('%12.1f %12.1f %+12.1f  total' % (ta, tb, tb - ta))
    return 0


if __name__ == '__main__':
    sys.exit(main())
