#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Coverage table of an lcov tracefile, per file and per area.

Usage: coverage_report.py INFO TITLE [SRC]
       coverage_report.py --beside SUITE.info FUZZ.info

The second form lists what the fuzz run reaches that the suite does not:
the functions it enters and the number of lines it adds, per file.

Prints, for every source file of INFO, its line and branch coverage, then the
totals of each area (the core, each driver) against the goal (90 % of lines,
75 % of branches), then the functions no run entered, per file.
"""
import collections
import sys

GOAL_LINES, GOAL_BRANCHES = 90.0, 75.0
AREAS = [("core", "kernel/events/"), ("POWER driver", "arch/powerpc/perf/"),
         ("x86 driver", "arch/x86/events/"), ("test PMUs", "drivers/perf/")]


class FileCov:
    def __init__(self):
        self.lines = {}
        self.branches = {}
        self.funcs = {}
        self.func_line = {}


def parse(path):
    files = collections.OrderedDict()
    cur = None
    for raw in open(path):
        line = raw.strip()
        if line.startswith("SF:"):
            cur = files.setdefault(line[3:], FileCov())
        elif cur is None:
            continue
        elif line.startswith("DA:"):
            no, count = line[3:].split(",")[:2]
            cur.lines[int(no)] = cur.lines.get(int(no), 0) + int(count)
        elif line.startswith("BRDA:"):
            no, block, branch, taken = line[5:].split(",")
            key = (int(no), block, branch)
            hit = 0 if taken == "-" else int(taken)
            cur.branches[key] = cur.branches.get(key, 0) + hit
        elif line.startswith("FN:"):
            no, name = line[3:].split(",", 1)
            cur.func_line[name] = int(no)
            cur.funcs.setdefault(name, 0)
        elif line.startswith("FNDA:"):
            count, name = line[5:].split(",", 1)
            cur.funcs[name] = cur.funcs.get(name, 0) + int(count)
        elif line == "end_of_record":
            cur = None
    return files


def short(path):
    for _, prefix in AREAS:
        i = path.find("/" + prefix)
        if i >= 0:
            return path[i + 1:]
    return path


def pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def row(name, lh, lt, bh, bt):
    return f"{name:<44} {pct(lh, lt):6.1f}% {lh:6d}/{lt:<6d} {pct(bh, bt):6.1f}% {bh:6d}/{bt:<6d}"


def main():
    files = parse(sys.argv[1])
    title = sys.argv[2] if len(sys.argv) > 2 else ""
    print(f"coverage: {title}")
    print(f"{'file':<44} {'lines':>22} {'branches':>22}")
    totals = collections.OrderedDict((a, [0, 0, 0, 0]) for a, _ in AREAS)
    for path in sorted(files, key=short):
        fc = files[path]
        name = short(path)
        lt, lh = len(fc.lines), sum(1 for c in fc.lines.values() if c)
        bt, bh = len(fc.branches), sum(1 for c in fc.branches.values() if c)
        print(row(name, lh, lt, bh, bt))
        for area, prefix in AREAS:
            if name.startswith(prefix):
                t = totals[area]
                t[0] += lh
                t[1] += lt
                t[2] += bh
                t[3] += bt
    print()
    for area, (lh, lt, bh, bt) in totals.items():
        if not lt:
            continue
        ok = pct(lh, lt) >= GOAL_LINES and pct(bh, bt) >= GOAL_BRANCHES
        goal = "meets" if ok else "below"
        print(row(f"TOTAL {area} ({goal} {GOAL_LINES:.0f}/{GOAL_BRANCHES:.0f})", lh, lt, bh, bt))
    print()
    print("functions never entered:")
    for path in sorted(files, key=short):
        fc = files[path]
        dead = sorted((fc.func_line.get(n, 0), n) for n, c in fc.funcs.items() if not c)
        if dead:
            print(f"  {short(path)}: " + ", ".join(n for _, n in dead))


def beside(suite_path, fuzz_path):
    suite, fuzz = parse(suite_path), parse(fuzz_path)
    print("reached by the fuzzer, not by the suite:")
    for path in sorted(fuzz, key=short):
        fc, sc = fuzz[path], suite.get(path, FileCov())
        lines = sum(1 for n, c in fc.lines.items() if c and not sc.lines.get(n))
        funcs = sorted(n for n, c in fc.funcs.items() if c and not sc.funcs.get(n))
        if lines or funcs:
            extra = (": " + ", ".join(funcs)) if funcs else ""
            print(f"  {short(path)}: {lines} lines{extra}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--beside":
        beside(sys.argv[2], sys.argv[3])
    else:
        main()
