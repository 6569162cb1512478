#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one guest run from its console log.

Usage: judge.py ARCH IMPL LOG EXPECTED RESULTS_DIR

EXPECTED is one expected-results file or several separated by ':'.

Collects every suite's results from the @@PERFEV-*@@ blocks of the console log
(our kselftests, upstream's, the PAPI tools and the client scenarios in TAP, `perf test` lines, KUnit KTAP from the
dmesg dump), applies the per-arch expected-results file, scans the whole log
for kernel splats, writes TAP per suite into RESULTS_DIR and prints one line
per non-passing test plus the summary `N passed, N failed, N skipped`.
Exit status: 0 when nothing failed.

Expected-results file lines:  PATTERN<TAB>IMPLS<TAB>REASON
  PATTERN  fnmatch pattern on a test id (suite/binary:test)
  IMPLS    'all' (fails on upstream too, for the environmental REASON),
           'new' (not yet implemented by our core) or 'upstream' (an upstream bug
           that our core fixes)
A PATTERN starting with 'kernel:splat:' matches a splat line of the console
(timestamp removed) that is then tolerated, reported as one skipped result.
A listed test that fails is reported as skipped with REASON; a listed test
that passes is counted as passed and flagged so the entry can go.
"""
import fnmatch
import os
import re
import sys

SPLAT = re.compile(
    r"WARNING: |BUG: |Oops|general protection fault|Kernel panic|kernel BUG at|"
    r"possible circular locking|possible recursive locking|inconsistent lock state|"
    r"suspicious RCU usage|KASAN:|UBSAN:|unreferenced object|"
    r"rcu: INFO: .*stall|detected stalls|blocked for more than|soft lockup|hard LOCKUP|"
    r"Unable to handle kernel|list_add corruption|list_del corruption|"
    r"refcount_t: |DEBUG_LOCKS_WARN_ON|INFO: lockdep is turned off")
# A user-space fault the kernel only reports (debug.exception-trace):
# "traps: COMM[PID] general protection fault ip:... in FILE[...]".
USER_FAULT = re.compile(r"traps: \S+\[\d+\] general protection fault ip:\S+ sp:\S+ error:\S+")
TAP_RESULT = re.compile(r"^(not ok|ok) (\d+)(?: (.*?))?(?:\s*#\s*(SKIP|XFAIL|TODO)\b\s*(.*))?$")
TAP_RUN = re.compile(r"^#\s+RUN\s+(\S+) \.\.\.$")
# a case header whose verdict never came (the case still running)
PERFTEST_HEAD = re.compile(r"^\s*(\d+(?:\.\d+)?): (.*\S)\s+:")
PERFTEST = re.compile(r"^\s*(\d+(?:\.\d+)?): (.*\S)\s*:\s*(Ok|FAILED!|Skip)\s*(?:\((.*)\))?\s*$")
KTIME = re.compile(r"^\[\s*\d+\.\d+\]\s?")


def load_expected(paths, impl):
    rules = []
    for path in paths.split(os.pathsep):
        if os.path.exists(path):
            rules += load_expected_file(path, impl)
    return rules


def load_expected_file(path, impl):
    rules = []
    for line in open(path):
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not line:
            continue
        parts = [f.strip() for f in re.split(r"\t+", line, maxsplit=2)]
        if len(parts) < 3 or parts[1] not in ("all", "new", "upstream"):
            sys.exit(f"judge: malformed line in {path}: {line}")
        pat, impls, reason = parts
        if impls == "all" or impls == impl:
            rules.append((pat, reason))
    return rules


def parse_blocks(lines):
    """Return ({name: [lines]}, {name: rc}, done, non-block lines)."""
    blocks, rcs, outside = {}, {}, []
    cur = None
    done = False
    for raw in lines:
        line = raw.rstrip("\r\n")
        m = re.search(r"@@PERFEV-BEGIN (\S+)@@", line)
        if m:
            cur = m.group(1)
            blocks[cur] = []
            continue
        m = re.search(r"@@PERFEV-END (\S+)@@", line)
        if m:
            # a file without a final newline ends on the marker's line
            if cur is not None and line[:m.start()].strip():
                blocks[cur].append(line[:m.start()])
            cur = None
            continue
        m = re.search(r"@@PERFEV-RC (\S+) (-?\d+)@@", line)
        if m:
            rcs[m.group(1)[:-3]] = int(m.group(2))
            continue
        if "PERFEV-GUEST-DONE" in line:
            done = True
        if cur is not None:
            blocks[cur].append(line)
        if cur is None or cur == "kernel/dmesg":
            outside.append(line)
    return blocks, rcs, done, outside


def running_at(outside, i):
    """' (during X)': the program the guest ran when console line @i came
    (the guest prints "perfev: X rc=..." live as each one ends)."""
    for l in outside[i + 1:]:
        m = re.match(r"perfev: (\S+) rc=", l)
        if m:
            return f" (during {m.group(1)})"
    return ""


def tap_results(suite, name, lines, rc):
    """Results of one kselftest binary: list of (id, status, reason)."""
    res = []
    plan = None
    running = ""
    for line in lines:
        run = TAP_RUN.match(line.rstrip())
        if run:
            running = run.group(1)
            continue
        if re.match(r"^1\.\.(\d+)$", line):
            plan = int(line[3:])
            continue
        m = TAP_RESULT.match(line)
        if not m:
            continue
        ok, _, desc, directive, reason = m.groups()
        # 6.1's harness prints "ok N # SKIP reason" without the test name.
        desc = (desc or "").strip() or running
        if desc.startswith("global."):
            desc = desc[len("global."):]
        tid = f"{suite}/{name}:{desc}"
        if directive == "SKIP":
            res.append((tid, "skip", reason or "skipped"))
        elif ok == "ok":
            res.append((tid, "pass", ""))
        else:
            res.append((tid, "fail", ""))
    if plan is not None and len(res) < plan:
        res.append((f"{suite}/{name}", "fail",
                    f"only {len(res)} of {plan} planned results (crash or time limit?)"))
    elif rc is None:
        res.append((f"{suite}/{name}", "fail", "no exit status"))
    elif rc != 0 and not any(s == "fail" for _, s, _ in res):
        res.append((f"{suite}/{name}", "fail", f"exit status {rc} with no failing test"))
    if plan is None and not res:
        res.append((f"{suite}/{name}", "fail", "no TAP output"))
    return res


def perftest_results(lines, rc):
    """Results of perf test; one killed at the guest's time limit (rc 137,
    timeout -s KILL) fails on the case that was running, and the cases it
    never reached are not results at all."""
    res, running = [], None
    for line in lines:
        m = PERFTEST.match(line)
        if not m:
            h = PERFTEST_HEAD.match(line)
            if h:
                desc = re.sub(r"\s+", " ", h.group(2))
                running = f"{h.group(1)}: {desc}"
            continue
        num, desc, status, reason = m.groups()
        running = None
        desc = re.sub(r"\s+", " ", desc)
        tid = f"perftest:{desc}"
        if status == "Ok":
            res.append((tid, "pass", ""))
        elif status == "Skip":
            res.append((tid, "skip", reason or "skipped by perf test"))
        else:
            res.append((tid, "fail", ""))
    if rc == 137:
        res.append(("perftest", "fail", "killed at the time limit"
                    + (f" while running {running}" if running else "")))
    elif rc is None and res:
        res.append(("perftest", "fail", "no exit status"))
    return res


def kunit_results(lines):
    """One result per KUnit case (kunit/SUITE:CASE) from the KTAP in dmesg;
    a suite-level line counts only when the suite reported no case of its own
    (or failed while all its cases passed)."""
    res, subtest, cases = [], {}, {}
    for raw in lines:
        line = KTIME.sub("", raw.rstrip("\n"))
        body = line.lstrip()
        indent = len(line) - len(body)
        m = re.match(r"^# Subtest: (\S+)", body)
        if m:
            subtest[indent] = m.group(1)
            continue
        m = re.match(r"^(not ok|ok) \d+ (\S+)(?:\s+#\s*SKIP\s*(.*))?$", body)
        if not m:
            continue
        ok, name, skip = m.groups()
        if indent > 0 and indent in subtest:
            suite = subtest[indent]
            tid = f"kunit/{suite}:{name}"
            cases.setdefault(suite, []).append(ok == "ok" or skip is not None)
        else:
            own = cases.get(name)
            if own and (ok == "ok" or skip is not None or not all(own)):
                continue
            tid = f"kunit/{name}"
        if skip is not None:
            res.append((tid, "skip", skip or "skipped"))
        else:
            res.append((tid, "pass" if ok == "ok" else "fail", ""))
    return res


def main():
    arch, impl, logf, expected, outdir = sys.argv[1:6]
    label = sys.argv[6] if len(sys.argv) > 6 else f"{arch}-{impl}"
    lines = open(logf, errors="replace").readlines()
    blocks, rcs, done, outside = parse_blocks(lines)
    rules = load_expected(expected, impl)

    results = {}  # suite -> list
    for key, body in sorted(blocks.items()):
        suite, name = key.split("/", 1)
        if suite in ("perfev", "upstream", "papi", "powerpc", "scenarios") and name.endswith(".tap"):
            name = name[:-4]
            results.setdefault(suite, []).extend(tap_results(suite, name, body, rcs.get(f"{suite}/{name}")))
        elif suite == "perftest" and name == "perf-test.txt":
            results.setdefault("perftest", []).extend(
                perftest_results(body, rcs.get("perftest/perf-test")))
        elif key == "kernel/dmesg":
            k = kunit_results(body)
            if k:
                results.setdefault("kunit", []).extend(k)

    splats, known = [], {}
    for i, l in enumerate(outside):
        if not SPLAT.search(l) or USER_FAULT.search(l):
            continue
        text = KTIME.sub("", l.rstrip())
        rule = next((r for r in rules if r[0].startswith("kernel:splat:")
                     and fnmatch.fnmatchcase("kernel:splat:" + text, r[0])), None)
        if rule:
            known[rule[0]] = rule[1]
        else:
            splats.append(text + running_at(outside, i))
    if not done:
        results.setdefault("kernel", []).append(("kernel:guest-completed", "fail",
                                                  "guest did not finish (crash, hang or time limit)"))
    results.setdefault("kernel", []).append(("kernel:no-splat", "fail" if splats else "pass",
                                              f"{len(splats)} splat line(s)" if splats else ""))
    for pat in sorted(known):  # listed splats: reported as skipped with their reason
        results["kernel"].append((pat, "fail", ""))

    os.makedirs(outdir, exist_ok=True)
    npass = nfail = nskip = 0
    report = []
    for suite, res in sorted(results.items()):
        tap = ["TAP version 13", f"1..{len(res)}"]
        for i, (tid, status, reason) in enumerate(res, 1):
            rule = next((r for r in rules if fnmatch.fnmatchcase(tid, r[0])), None)
            if status == "fail" and rule:
                status, reason = "skip", f"expected failure: {rule[1]}"
            elif status == "pass" and rule:
                report.append(f"XPASS {tid} (listed as expected failure: {rule[1]})")
            if status == "pass":
                npass += 1
                tap.append(f"ok {i} {tid}")
            elif status == "skip":
                nskip += 1
                tap.append(f"ok {i} {tid} # SKIP {reason}")
            else:
                nfail += 1
                tap.append(f"not ok {i} {tid}" + (f" # {reason}" if reason else ""))
                report.append(f"FAIL {tid}" + (f" ({reason})" if reason else ""))
        with open(os.path.join(outdir, f"{suite}.tap"), "w") as f:
            f.write("\n".join(tap) + "\n")
    if splats:
        report.append("kernel splats in the console log:")
        report.extend("  " + s for s in splats[:60])
    for r in report:
        print(f"  {r}")
    per_suite = ", ".join(f"{s} {sum(1 for r in res if r[1] == 'pass')}/{len(res)}"
                          for s, res in sorted(results.items()))
    print(f"  {label}: {per_suite}")
    with open(os.path.join(outdir, "summary"), "w") as f:
        f.write(f"{npass} {nfail} {nskip}\n")
    print(f"{label}: {npass} passed, {nfail} failed, {nskip} skipped")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
