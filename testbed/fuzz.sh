#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: boot the (debug) kernel and run perf_fuzz in the guest, then
# judge the console: iterations, syscalls reached, and every splat with the
# seed of the round that was running when it appeared.
#   ARCH=x86_64|ppc64le|all  IMPL=new|upstream  DEBUG=1|0  DURATION=30m|600
#   SEED=number  WORKERS=3  ROUND=20 (seconds per round)
#   EXCLUDE=function,tracepoint,breakpoint (event kinds left out, to bisect)
#   WEDGE=seconds without a new round before a wedged guest is stopped
#   TAG=name (separate guest and result directories, for parallel runs)
#   REGRESSION=name: a kernel with testbed/regressions/<name>.patch, a bug
#   the fuzzer must find (build-kernel.sh; obj dir and label -reg-<name>)
# Results: out/fuzz/<arch>-<impl>[-debug][-reg-<name>][-<tag>]/{console.log,verdict.txt},
# and wedge.txt for a wedged guest: its CPUs' program counters and symbols.
# Exit status 0 only when every arch ran to the end with no splat, no
# oracle failure and no hung task; with REGRESSION=, only when the fuzzer
# found the bug (a splat, a hung task or a wedged guest).
. "$(dirname "$0")/common.sh"

ARCH=${ARCH:-x86_64} IMPL=${IMPL:-new} DEBUG=${DEBUG:-1}
DURATION=${DURATION:-10m} SEED=${SEED:-$(date +%s)} WORKERS=${WORKERS:-3}
ROUND=${ROUND:-20} EXCLUDE=${EXCLUDE:-} TAG=${TAG:-} REGRESSION=${REGRESSION:-}
if [ -n "$REGRESSION" ]; then
	[ -f "$TOP/testbed/regressions/$REGRESSION.patch" ] ||
		die "REGRESSION=$REGRESSION: no testbed/regressions/$REGRESSION.patch"
	[ "$IMPL" = new ] || die "REGRESSION= needs IMPL=new (the patch is against our core)"
	export REGRESSION
fi
case "$ARCH" in all) arches=(x86_64 ppc64le) ;; *) arches=("$ARCH") ;; esac
case "$DURATION" in
*m) secs=$((${DURATION%m} * 60)) ;;
*s) secs=${DURATION%s} ;;
*) secs=$DURATION ;;
esac

# A guest wedged by an oops (soft lockups, no progress) would run to the
# time limit (duration + 15 min): stop it once no round has started for
# three rounds' time plus 5 minutes; the verdict then says it did not
# finish, with the round and seed that were running.
watchdog() { # logf monitor-socket System.map
	local logf=$1 mon=$2 map=$3 n last_n=0 last=$SECONDS i
	for i in $(seq 120); do
		pgrep -f -- "file:$logf" >/dev/null && break
		sleep 1
	done
	while pgrep -f -- "file:$logf" >/dev/null; do
		sleep 10
		n=$(grep -ac 'fuzz: round ' "$logf" 2>/dev/null) || n=0
		if [ "$n" != "$last_n" ]; then
			last_n=$n last=$SECONDS
		elif [ "$n" -gt 0 ] && [ $((SECONDS - last)) -gt "${WEDGE:-$((3 * ROUND + 300))}" ]; then
			log "no new fuzz round for $((SECONDS - last)) s: the guest is wedged, stopping it"
			# where its CPUs are, before it goes (wedge.txt)
			if [ -S "$mon" ] && [ -f "$map" ]; then
				python3 "$TOP/testbed/wedge_dump.py" "$mon" "$map" > "${logf%/*}/wedge.txt" 2>&1 || true
				log "guest CPUs when stopped: ${logf%/*}/wedge.txt"
				sort "${logf%/*}/wedge.txt" | awk '{print $4, $6}' | sort | uniq -c | sort -rn | head -n 6 >&2 || true
			fi
			pkill -f -- "file:$logf"
			return
		fi
	done
}

rc=0
for arch in "${arches[@]}"; do
	label=$(run_label "$arch" "$IMPL" "$DEBUG")
	kernel=$("$TOP/testbed/build-kernel.sh" "$arch" "$IMPL" "$DEBUG")
	gdir="$BUILD/guest/$arch-fuzz${TAG:+-$TAG}"
	"$TOP/testbed/build-guest.sh" "$arch" "$gdir"
	rdir="$OUT/fuzz/$label${TAG:+-$TAG}"
	mkdir -p "$rdir"
	log "fuzzing $label for ${secs}s, seed $SEED, $WORKERS workers"
	rm -f "$rdir/console.log"
	mon="$rdir/monitor.sock"
	rm -f "$mon"
	obj=${kernel%/arch/x86/boot/bzImage} obj=${obj%/vmlinux}
	watchdog "$rdir/console.log" "$mon" "$obj/System.map" &
	wpid=$!
	QEMU_MONITOR=$mon QEMU_MEM=$(guest_mem "$DEBUG") "$TOP/testbed/run-qemu.sh" "$arch" "$kernel" "$gdir/initramfs.cpio" \
		"$rdir/console.log" $((secs + 900)) \
		"perfev.mode=fuzz perfev.seed=$SEED perfev.duration=$secs perfev.workers=$WORKERS perfev.round=$ROUND${EXCLUDE:+ perfev.exclude=$EXCLUDE}"
	kill "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	# the splats check.sh tolerates for this arch (arch issues 6.1 shows too)
	expected="$TOP/testbed/expected/$arch.txt"
	[ "$DEBUG" = 1 ] && expected="$expected:$TOP/testbed/expected/$arch-debug.txt"
	python3 "$TOP/testbed/fuzz_verdict.py" ${REGRESSION:+--expect-bug "$REGRESSION"} \
		"$label" "$rdir/console.log" "$expected" "$IMPL" | tee "$rdir/verdict.txt"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	# COVERAGE=1: the gcov kernel's counters of this run (coverage.sh)
	if [ "${COVERAGE:-0}" = 1 ]; then
		"$TOP/testbed/coverage.sh" "$arch" fuzz "$rdir/console.log" || rc=1
	fi
done
exit $rc
