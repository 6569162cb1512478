#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""console_splats.py CONSOLE: print the kernel splat lines of a console log
(judge.py's rule: its SPLAT patterns, less the user-space faults the kernel
only reports); exit 0 when there is one, 1 when there is none.  For the
shell parts of the testbed (x86-models.sh) that need judge.py's verdict on
one console without its suites and expected lists."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import SPLAT, USER_FAULT  # noqa: E402


def main():
    found = False
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if SPLAT.search(line) and not USER_FAULT.search(line):
                print(line)
                found = True
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
