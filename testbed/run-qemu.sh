#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a testbed kernel in QEMU (TCG) with a serial console log:
#   run-qemu.sh ARCH KERNEL INITRD LOG TIMEOUT_S [EXTRA_CMDLINE]
# The guest powers itself off; the time limit catches hangs.
. "$(dirname "$0")/common.sh"

arch=$1 kernel=$2 initrd=$3 logf=$4 limit=$5 extra=${6:-}
mem=${QEMU_MEM:-1536}
cmdline="panic=-1 loglevel=4 $extra"
model=""
case "$arch" in
x86_64)
	# The testbed's QEMU (testbed/qemu/README.md).  X86_PMU=arch (default):
	# an Intel CPU with the architectural PMU of its tcg-pmu model; the
	# model name carries a frequency because perf reads the TSC rate of an
	# Intel CPU from it.  X86_PMU=none: -cpu max as Debian's QEMU has it,
	# no PMU (the perfev_test PMU stands in).  monitor=off: TCG's MWAIT does
	# not sleep with more than one CPU, and an Intel CPU with MWAIT idles,
	# and parks offline CPUs, in mwait loops (6.1's mwait_play_dead() then
	# spins through the traceable cond_wakeup_cpu0(): perf_fuzz's function
	# events crashed it in a freed ftrace trampoline).  AMD uses HLT.
	# la57=off: with 5-level paging, 6.1's identify_cpu() briefly clears
	# X86_FEATURE_LA57 at boot and KASAN then reports an interrupt's
	# irq_desc lock as a wild access (seen once under DEBUG=1).
	cpu=max,la57=off
	# X86_PMU=arch-v2 / arch-v4: the same with the model's version 2 or 4
	# PMU (tcg-pmu-version; arch is its highest, version 5).  X86_PMU=amd:
	# an AMD Zen 3 (family 0x19, so that 6.1 takes its Fam17h+ path) with
	# the model's PerfMonV2 core PMU; amd-v1: without PerfMonV2 (the six
	# PerfCtrExtCore counters and the legacy interrupt handler).
	intel="vendor=GenuineIntel,tcg-pmu=on,monitor=off,model-id=QEMU TCG CPU with tcg-pmu @ 1.00GHz"
	amd="vendor=AuthenticAMD,family=25,model=1,tcg-pmu=on,model-id=QEMU TCG AMD CPU with tcg-pmu"
	case "${X86_PMU:-arch}" in
	arch) cpu="$cpu,$intel" ;;
	arch-v2 | arch-v4) cpu="$cpu,$intel,tcg-pmu-version=${X86_PMU#arch-v}" ;;
	amd) cpu="$cpu,$amd" ;;
	amd-v1) cpu="$cpu,$amd,tcg-pmu-version=1" ;;
	none) ;;
	# model:NAME: one of QEMU's named CPU models with the tcg-pmu of its
	# vendor (testbed/x86-models.sh), without MWAIT (see above)
	model:*) cpu="${X86_PMU#model:},tcg-pmu=on,monitor=off" ;;
	*) die "X86_PMU=$X86_PMU: arch, arch-v2, arch-v4, amd, amd-v1, model:NAME or none" ;;
	esac
	qemu=("${QEMU_X86:-$("$TOP/testbed/qemu/build-qemu.sh")}" -L /usr/share/seabios -L /usr/share/qemu
	      -cpu "$cpu" -smp 2,sockets=2 -m "$mem"
	      -append "console=ttyS0 $cmdline")
	;;
ppc64le)
	# PPC_CPU=power9 (default), power8 or power10: the pseries guest's CPU
	# model, and with it the PMU (QEMU's target/ppc/power8-pmu.c serves all
	# three; the guest runs in the model's architected compat mode, and
	# 6.1 picks its POWER8/9/10 driver from the real PVR).  Of a list
	# (make check's PPC_CPU=power9,power8,power10), the first.
	# PPC_QEMU=testbed (default): the testbed's QEMU, whose PMU samples
	# SIER and honours the privilege freeze bits (testbed/qemu/README.md);
	# PPC_QEMU=debian: Debian's qemu-system-ppc64 as it is.  SLOF comes
	# from qemu-system-data (-L).
	model=${PPC_CPU:-power9}
	model=${model%%,*}
	case "$model" in
	power8 | power9 | power10) ;;
	*) die "PPC_CPU=$PPC_CPU: power8, power9 or power10" ;;
	esac
	case "${PPC_QEMU:-testbed}" in
	testbed) qemu=("${QEMU_PPC:-$("$TOP/testbed/qemu/build-qemu.sh" ppc64)}" -L /usr/share/qemu) ;;
	debian) qemu=(qemu-system-ppc64) ;;
	*) die "PPC_QEMU=$PPC_QEMU: testbed or debian" ;;
	esac
	qemu+=(-M pseries -cpu "$model" -smp 2 -m "$mem"
	      -append "console=hvc0 $cmdline")
	;;
esac
rm -f "$logf"

# Without -icount QEMU's main-loop thread runs the guest's virtual-clock
# timers (the decrementer or the local APIC timer, the POWER PMU's cycle
# alerts).  A loaded host can leave that thread unscheduled for
# milliseconds while a vCPU runs on, and the guest sees no timer interrupt
# meanwhile (a 1 ms cpu-clock sampler once recorded nothing in 10 ms): give
# that one thread a higher priority than the vCPUs, once they exist (named
# "CPU n/TCG" with debug-threads=on; threads created later inherit it).
# Needs root (renice to a negative value); otherwise QEMU runs as it is.
boost_main_loop() {
	local pid="" i

	for i in $(seq 100); do
		pid=$(pgrep -n -f -- "file:$logf") &&
			grep -qs '^CPU ' /proc/"$pid"/task/*/comm && break
		pid=""
		sleep 0.1
	done
	[ -n "$pid" ] && renice -n -5 -p "$pid" > /dev/null 2>&1
	return 0
}
boost_main_loop &

start=$SECONDS
set +e
# QEMU_MONITOR=PATH: the QEMU monitor on that unix socket (fuzz.sh asks
# it where a wedged guest's CPUs are, testbed/wedge_dump.py).
mon=(-monitor none)
[ -n "${QEMU_MONITOR:-}" ] && mon=(-monitor "unix:$QEMU_MONITOR,server=on,wait=off")
timeout -k 10 "$limit" "${qemu[@]}" -accel tcg -nodefaults -display none -no-reboot \
	-name perfev,debug-threads=on -kernel "$kernel" -initrd "$initrd" \
	-serial "file:$logf" "${mon[@]}" < /dev/null
rc=$?
set -e
[ "$rc" = 124 ] && log "QEMU ($arch) hit the ${limit}s time limit"
log "QEMU ($arch${model:+ $model}) ran $((SECONDS - start)) s, exit $rc; console log: $logf"
exit 0
