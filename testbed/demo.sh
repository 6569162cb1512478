#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: build the x86_64 kernel (IMPL, default new), boot it in QEMU and run
# perf stat, perf record + perf report (cpu-clock with callchains,
# page-faults) and perf record -a + perf script (a tracepoint) in the guest.
. "$(dirname "$0")/common.sh"

IMPL=${IMPL:-new}
kernel=$("$TOP/testbed/build-kernel.sh" x86_64 "$IMPL" 0)
gdir="$BUILD/guest/x86_64"
"$TOP/testbed/build-guest.sh" x86_64 "$gdir"
mkdir -p "$OUT"
logf="$OUT/demo-x86_64-$(impl_variant "$IMPL").log"
"$TOP/testbed/run-qemu.sh" x86_64 "$kernel" "$gdir/initramfs.cpio" "$logf" 600 "perfev.mode=demo"
sed -n '/PERFEV-GUEST-START/,/PERFEV-GUEST-DONE/p' "$logf"
grep -q PERFEV-GUEST-DONE "$logf" || die "the demo did not complete; see $logf"
echo "Guest console log: $logf"
