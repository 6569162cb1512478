#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict of one `make fuzz` guest from its console log.

Usage: fuzz_verdict.py [--expect-bug NAME] LABEL CONSOLE_LOG [EXPECTED IMPL]

Reads perf_fuzz's "fuzz: " lines (rounds with their seeds, failures, hung
tasks, the summary) and scans every other line for kernel splats with
judge.py's pattern; each splat is attributed to the round (and seed) running
when it appeared.  A splat that a 'kernel:splat:' line of the EXPECTED file(s)
lists for IMPL (judge.py's format: an arch issue that 6.1's core shows too)
is reported as known, with its reason, and does not fail the run.  Exit
status 0 only for a clean, complete run.

--expect-bug NAME: a regression check (make fuzz REGRESSION=NAME, a kernel
with a fixed bug put back).  The verdict is inverted: PASS (exit 0) when
the fuzzer found a bug (an unknown splat, a hung task, or a guest that did
not finish: wedged), FAIL when the run was clean.
"""
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import SPLAT, KTIME, load_expected  # noqa: E402


def regression_verdict(name, splats, hung, complete, rnd, seed):
    """PASS when the run shows the bug put back by regressions/NAME.patch."""
    found = []
    if splats:
        r, s, l = splats[0]
        found.append(f"splat in round {r} seed {s}: {l}")
    if hung:
        found.append(f"hung task: {hung[0]}")
    if not complete:
        found.append(f"guest wedged (last round {rnd}, seed {seed})")
    print(f"  regression check {name}: the kernel has a known bug put back")
    for f in found:
        print(f"    found: {f}")
    print(f"  VERDICT: {'PASS (the fuzzer found the bug)' if found else 'FAIL (the fuzzer missed the bug)'}")
    return 0 if found else 1


def main():
    args = sys.argv[1:]
    expect_bug = None
    if len(args) > 1 and args[0] == "--expect-bug":
        expect_bug, args = args[1], args[2:]
    label, logf = args[0:2]
    rules = []
    if len(args) > 3:
        rules = [r for r in load_expected(args[2], args[3])
                 if r[0].startswith("kernel:splat:")]
    lines = open(logf, errors="replace").read().splitlines()
    seed, rnd = "?", "-"
    splats, known, fails, hung = [], {}, [], []
    summary, reached, rc, done, start = None, [], None, False, None
    for raw in lines:
        line = KTIME.sub("", raw.strip())
        m = re.search(r"fuzz: round (\d+) seed (\S+)", line)
        if m:
            rnd, seed = m.group(1), m.group(2)
            continue
        if "fuzz: start " in line:
            start = line.split("fuzz: ", 1)[1]
        elif "fuzz: summary " in line:
            summary = dict(kv.split("=", 1) for kv in line.split("fuzz: summary ", 1)[1].split())
        elif "fuzz: reached " in line:
            reached.append(line.split("fuzz: reached ", 1)[1])
        elif "fuzz: FAIL" in line or "fuzz: ORACLE" in line:
            fails.append(line.split("fuzz: ", 1)[1])
        elif "fuzz: HUNG" in line:
            hung.append(line.split("fuzz: ", 1)[1])
        elif "PERFEV-FUZZ-RC" in line:
            rc = int(line.split()[-1])
        elif "PERFEV-GUEST-DONE" in line:
            done = True
        elif SPLAT.search(line) and "fuzz: " not in line:
            rule = next((r for r in rules
                         if fnmatch.fnmatchcase("kernel:splat:" + line, r[0])), None)
            if rule:
                known.setdefault(rule, []).append((rnd, seed))
            else:
                splats.append((rnd, seed, line))

    print(f"fuzz verdict for {label}")
    if start:
        print(f"  run: {start}")
    if summary:
        print(f"  iterations {summary.get('iterations')}, rounds {summary.get('rounds')}, "
              f"syscalls reached {summary.get('syscalls')}, distinct outcomes "
              f"{summary.get('outcomes')}, {summary.get('seconds')} s")
        if "storms" in summary:
            print(f"  storms {summary.get('storms')} ({summary.get('storm_tasks')} tasks), "
                  f"inherited-group opens ok/all {summary.get('group_opens')}")
        for r in reached:
            print(f"    {r}")
    print(f"  splats: {len(splats)}")
    for r, s, l in splats:
        print(f"    round {r} seed {s}: {l}")
    if known:
        print(f"  known splats (listed as arch issues, not failures): "
              f"{sum(len(v) for v in known.values())}")
        for (pat, reason), where in known.items():
            rounds = ", ".join(f"round {r} seed {s}" for r, s in where[:5])
            print(f"    {len(where)} x {pat[len('kernel:splat:'):]} ({rounds})")
            print(f"      {reason}")
    print(f"  fuzzer failures (oracle, crash): {len(fails)}")
    for f in fails:
        print(f"    {f}")
    print(f"  hung tasks: {len(hung)}")
    for h in hung:
        print(f"    {h}")
    complete = done and summary is not None and rc is not None
    if not complete:
        print(f"  the guest did not finish (last round {rnd}, seed {seed})")
    if expect_bug:
        return regression_verdict(expect_bug, splats, hung, complete, rnd, seed)
    ok = complete and not splats and not fails and not hung and rc == 0
    print(f"  VERDICT: {'clean' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
