#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where is a wedged guest?  wedge_dump.py SOCKET SYSTEM_MAP [SAMPLES]

Asks the QEMU monitor on the unix SOCKET for every vCPU's registers a few
times (SAMPLES, 5 by default, 1 s apart) and prints each vCPU's program
counter with the kernel symbol it falls in (from SYSTEM_MAP), so that a
guest that stopped printing (both CPUs spinning with interrupts off, an
NMI storm) still says where it is.  fuzz.sh runs it before it stops a
wedged guest; the output goes to the run's wedge.txt.
"""
import bisect
import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'profile'))
from kprof_report import load_map  # noqa: E402  (System.map, sorted by address)


def symbolize(pc, addrs, names):
    i = bisect.bisect_right(addrs, pc) - 1
    if i < 0:
        return '?'
    return '%s+0x%x' % (names[i], pc - addrs[i])


def monitor(sock_path, command):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(sock_path)
    out = b''

    def read_until_prompt():
        nonlocal out
        buf = b''
        while not buf.rstrip().endswith(b'(qemu)'):
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
        return buf

    read_until_prompt()                     # the banner
    s.sendall(command.encode() + b'\n')
    out = read_until_prompt()
    s.close()
    return out.decode(errors='replace')


def main():
    sock, sysmap = sys.argv[1], sys.argv[2]
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    addrs, names = load_map(sysmap)
    pc_re = re.compile(r'\b(RIP|NIP|PC)\s*=?\s*([0-9a-fA-F]{8,16})')
    cpu_re = re.compile(r'^CPU#(\d+)', re.M)
    for n in range(samples):
        try:
            text = monitor(sock, 'info registers -a')
        except OSError as e:
            print('sample %d: monitor: %s' % (n, e))
            return
        cpu = None
        for line in text.splitlines():
            m = cpu_re.match(line)
            if m:
                cpu = m.group(1)
            for reg, val in pc_re.findall(line):
                pc = int(val, 16)
                print('sample %d cpu %s %s %016x %s' %
                      (n, cpu, reg, pc, symbolize(pc, addrs, names)))
        time.sleep(1)


if __name__ == '__main__':
    main()
