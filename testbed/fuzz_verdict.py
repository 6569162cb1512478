#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict of one `make fuzz` guest from its console log.

Usage: fuzz_verdict.py LABEL CONSOLE_LOG [EXPECTED IMPL]

Reads perf_fuzz's "fuzz: " lines (rounds with their seeds, failures, hung
tasks, the summary) and scans every other line for kernel splats with
judge.py's pattern; each splat is attributed to the round (and seed) running
when it appeared.  A splat that a 'kernel:splat:' line of the EXPECTED file(s)
lists for IMPL (judge.py's format: an arch issue that 6.1's core shows too)
is reported as known, with its reason, and does not fail the run.  Exit
status 0 only for a clean, complete run.
"""
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import SPLAT, KTIME, load_expected  # noqa: E402


def main():
    label, logf = sys.argv[1:3]
    rules = []
    if len(sys.argv) > 4:
        rules = [r for r in load_expected(sys.argv[3], sys.argv[4])
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
    ok = complete and not splats and not fails and not hung and rc == 0
    print(f"  VERDICT: {'clean' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
