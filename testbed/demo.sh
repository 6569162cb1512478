#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: build the kernel (ARCH=x86_64|ppc64le|all, IMPL, default new), boot
# it in QEMU and run perf stat, perf record + perf report (cpu-clock with
# callchains, page-faults) and perf record -a + perf script (a tracepoint) in
# the guest; where the guest has a hardware PMU (ppc64le: QEMU's POWER9; x86_64:
# the testbed QEMU's architectural PMU, testbed/qemu/README.md), also
# perf stat of hardware events and perf record -e instructions/cycles + report.
# NOBUILD=1 and TAG= as for make check.
. "$(dirname "$0")/common.sh"

ARCH=${ARCH:-x86_64} IMPL=${IMPL:-new} TAG=${TAG:-}
case "$ARCH" in all) arches=(x86_64 ppc64le) ;; *) arches=("$ARCH") ;; esac
mkdir -p "$OUT"
for arch in "${arches[@]}"; do
	kernel=$("$TOP/testbed/build-kernel.sh" "$arch" "$IMPL" 0)
	gdir="$BUILD/guest/$arch${TAG:+-$TAG}"
	"$TOP/testbed/build-guest.sh" "$arch" "$gdir"
	logf="$OUT/demo-$arch-$(impl_variant "$IMPL")${TAG:+-$TAG}.log"
	limit=600
	[ "$arch" = ppc64le ] && limit=1200 # TCG emulates POWER9 more slowly
	"$TOP/testbed/run-qemu.sh" "$arch" "$kernel" "$gdir/initramfs.cpio" "$logf" "$limit" "perfev.mode=demo"
	sed -n '/PERFEV-GUEST-START/,/PERFEV-GUEST-DONE/p' "$logf"
	grep -q PERFEV-GUEST-DONE "$logf" || die "the demo did not complete; see $logf"
	echo "Guest console log: $logf"
done
