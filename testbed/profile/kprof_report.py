#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per kernel function from kprof profiles (testbed/profile/).

  kprof_report.py [--top N] [--per N] [--match RE] PROFILE:SYSTEM_MAP [PROFILE:SYSTEM_MAP]

One profile: its functions by instructions executed.  Two (upstream's,
then ours): both side by side and the difference, largest first.  --per
divides by a count (e.g. the number of samples the run wrote) to give
instructions per operation; --match keeps the functions whose name matches.
"""
import argparse
import bisect
import re
import sys


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


def load_profile(spec):
    prof, smap = spec.split(':', 1)
    addrs, names = load_map(smap)
    per_fn = {}
    with open(prof) as f:
        for line in f:
            start, insns, execs = line.split()
            i = bisect.bisect_right(addrs, int(start, 16)) - 1
            name = names[i] if i >= 0 else '?'
            # compiler clones (.isra.0, .constprop.0, .cold) are their function
            name = re.sub(r'\.(isra|constprop|part|cold|llvm)\b.*$', '', name)
            per_fn[name] = per_fn.get(name, 0) + int(insns) * int(execs)
    return per_fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('--per', default='1',
                    help='divisor, or one per profile: COUNT[,COUNT]')
    ap.add_argument('--match', default=None)
    ap.add_argument('profiles', nargs='+')
    args = ap.parse_args()
    profs = [load_profile(p) for p in args.profiles]
    per = [float(x) for x in args.per.split(',')]
    per += per[-1:] * (len(profs) - len(per))
    keep = re.compile(args.match) if args.match else None
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
