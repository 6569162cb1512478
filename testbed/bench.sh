#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the perf_events micro-benchmarks of
# tools/testing/selftests/perf_events/bench/ on our core and on upstream's,
# in QEMU with instruction counting (Documentation/perf_events/performance.rst).
#   ARCH=x86_64|ppc64le|all  IMPL=both|new|upstream  ROUNDS=3
#   NOBUILD=1 (boot the kernels that are built)  SCALE=1 (iterations)
#   ONLY=p1_open,p6_scale,perf (programs to run)  ICOUNT_SHIFT=0
#   CASES=P2.read,... (cases of those programs)  P6=cpu:10,... (P6 variants)
#   PROFILE=1: also count the kernel instructions each function executed
#   (testbed/profile/: out/bench/ARCH-IMPL.prof and ARCH.profile.txt), and
#   per case the instructions of perf's own code (core and PMU driver) per
#   operation: a second table (out/bench/own-table.txt); such a run
#   rewrites only the perf-own table of performance.rst
#   BENCH_X86_PMU=arch (default): x86_64 guests have the testbed QEMU's
#   emulated Intel PMU (architectural perfmon v5), so the hardware cases
#   run through the x86 PMU driver; none: Debian's QEMU without a PMU
#   (the hardware cases then use the test PMU perfev_test).
# Prints one table (case, upstream, ours, ratio, spread) and writes it as
# JSON and SVG under out/bench/.
. "$(dirname "$0")/common.sh"

ARCH=${ARCH:-all} IMPL=${IMPL:-both} ROUNDS=${ROUNDS:-3} SCALE=${SCALE:-1} ONLY=${ONLY:-}
ICOUNT_SHIFT=${ICOUNT_SHIFT:-0} PROFILE=${PROFILE:-} CASES=${CASES:-} P6=${P6:-}
BENCH_X86_PMU=${BENCH_X86_PMU:-arch}
case "$ARCH" in all) arches=(x86_64 ppc64le) ;; *) arches=("$ARCH") ;; esac
case "$IMPL" in both) impls=(upstream new) ;; *) impls=("$(impl_variant "$IMPL")") ;; esac
bdir="$OUT/bench"
mkdir -p "$bdir"
# The profiler is a TCG plugin: Debian's QEMU and the testbed's (built
# with --enable-plugins) both load it.
[ -n "$PROFILE" ] && kprof=$("$TOP/testbed/profile/build-kprof.sh")

# One guest at a time, one vCPU, instruction counting: guest time is
# 2^ICOUNT_SHIFT ns per instruction executed, and the guest never sleeps
# (an idle vCPU jumps to its next timer).
# KUnit suites do not run in benchmark guests (the filter matches none):
# they would only add to a PROFILE=1 profile of the kernel.
boot() { # arch kernel initrd log
	local arch=$1 kernel=$2 initrd=$3 logf=$4 limit=${BENCH_TIMEOUT:-900} qemu rc plugin=()
	local cmdline="panic=-1 loglevel=4 nokaslr norandmaps kunit.filter_glob=none-at-boot perfev.rounds=$ROUNDS perfev.scale=$SCALE${ONLY:+ perfev.only=$ONLY}${CASES:+ perfev.cases=$CASES}${P6:+ perfev.p6=$P6}"
	case "$arch" in
	x86_64)
		case "$BENCH_X86_PMU" in
		arch)
			qemu=("$("$TOP/testbed/qemu/build-qemu.sh")" -L /usr/share/seabios -L /usr/share/qemu
			      -cpu "max,la57=off,vendor=GenuineIntel,tcg-pmu=on,monitor=off,model-id=QEMU TCG CPU with tcg-pmu @ 1.00GHz") ;;
		none) qemu=(qemu-system-x86_64 -cpu max,la57=off) ;;
		*) die "BENCH_X86_PMU=$BENCH_X86_PMU: arch or none" ;;
		esac
		qemu+=(-append "console=ttyS0 $cmdline") ;;
	ppc64le)
		qemu=(qemu-system-ppc64 -M pseries -cpu power9 -append "console=hvc0 $cmdline") ;;
	esac
	# the kernel half of the address space
	[ -n "$PROFILE" ] && plugin=(-plugin "$kprof,out=${logf%.log}.prof,regions=${logf%.log}.regions,min=$(kernel_base "$arch")")
	rm -f "$logf"
	set +e
	timeout -k 10 "$limit" "${qemu[@]}" "${plugin[@]}" -smp 1 -m 1536 -accel tcg \
		-icount "shift=$ICOUNT_SHIFT,sleep=off" -rtc clock=vm \
		-nodefaults -display none -no-reboot -kernel "$kernel" -initrd "$initrd" \
		-serial "file:$logf" -monitor none < /dev/null
	rc=$?
	set -e
	[ "$rc" = 124 ] && log "QEMU ($arch) hit the ${limit}s time limit"
	return 0
}

kernel_base() { # arch
	case "$1" in x86_64) echo ffff800000000000 ;; ppc64le) echo c000000000000000 ;; esac
}

# Perf's own code in a kernel build: the core and the arch's PMU driver
# (the perf-own instructions of PROFILE=1, testbed/profile/kprof_regions.py).
own_objects() { # arch obj-dir
	case "$1" in
	x86_64) echo "$2/kernel/events/*.o,$2/arch/x86/events/*.o,$2/arch/x86/events/*/*.o,!uprobes.o" ;;
	ppc64le) echo "$2/kernel/events/*.o,$2/arch/powerpc/perf/*.o,!uprobes.o" ;;
	esac
}

start=$SECONDS
results=() profs=() owns=()
for arch in "${arches[@]}"; do
	gdir="$BUILD/guest/$arch-bench"
	"$TOP/testbed/bench-guest.sh" "$arch" "$gdir"
	for impl in "${impls[@]}"; do
		kernel=$("$TOP/testbed/build-kernel.sh" "$arch" "$impl" 0)
		logf="$bdir/$arch-$impl.log"
		t=$SECONDS
		# A kernel rebuilt under our feet, or a guest that did not finish:
		# one more try.
		for try in 1 2; do
			boot "$arch" "$kernel" "$gdir/initramfs.cpio" "$logf"
			grep -q PERFEV-BENCH-DONE "$logf" && break
			log "bench guest $arch-$impl did not finish (try $try); see $logf"
		done
		grep -q PERFEV-BENCH-DONE "$logf" || die "bench guest $arch-$impl failed; see $logf"
		grep -a '^BENCH-FAIL' "$logf" >&2 || true
		grep -a '^BENCH ' "$logf" | tr -d '\r' > "$bdir/$arch-$impl.txt"
		log "$arch-$impl: $(wc -l < "$bdir/$arch-$impl.txt") results in $((SECONDS - t)) s"
		results+=("$arch:$impl:$bdir/$arch-$impl.txt")
		obj=${kernel%/arch/x86/boot/bzImage} obj=${obj%/vmlinux}
		profs+=("$bdir/$arch-$impl.prof:$obj/System.map")
		if [ -n "$PROFILE" ]; then
			python3 "$TOP/testbed/profile/kprof_regions.py" "$bdir/$arch-$impl.regions" "$logf" \
				"$obj/System.map" "$(own_objects "$arch" "$obj")" > "$bdir/$arch-$impl.own.txt"
			owns+=("$arch:$impl:$bdir/$arch-$impl.own.txt")
		fi
	done
	if [ -n "$PROFILE" ]; then
		python3 "$TOP/testbed/profile/kprof_report.py" "${profs[@]}" > "$bdir/$arch.profile.txt"
		log "kernel instruction profile: $bdir/$arch.profile.txt"
	fi
	profs=()
done
doc=()
# The ns/op and P9 tables come from plain runs: a PROFILE=1 run (one
# round as a rule, to read the perf-own column) leaves them as they are.
if [ -z "$PROFILE" ] && [ "$ARCH" = all ] && [ "$IMPL" = both ]; then
	[ -z "$ONLY$CASES$P6" ] && doc=(--doc "$TOP/Documentation/perf_events/performance.rst")
	# P9's own table, from any run of it on both arches and both cores
	[ -z "$CASES" ] && doc+=(--p9-doc "$TOP/Documentation/perf_events/performance.rst")
fi
own=()
for o in "${owns[@]}"; do own+=(--own "$o"); done
# the perf-own table, from a PROFILE=1 run on both arches and both cores
[ ${#own[@]} -gt 0 ] && [ "$ARCH" = all ] && [ "$IMPL" = both ] && [ -z "$CASES$P6" ] &&
	own+=(--own-doc "$TOP/Documentation/perf_events/performance.rst")
python3 "$TOP/testbed/bench_report.py" --out "$bdir" --shift "$ICOUNT_SHIFT" --rounds "$ROUNDS" \
	--wall "$((SECONDS - start))" "${doc[@]}" "${own[@]}" "${results[@]}"
log "make bench: $((SECONDS - start)) s"
