#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make coverage: the gcov kernel (COVERAGE=1) of each arch runs make check's
# suites, then a fuzz run (DURATION, 10m unless given; the gcov kernel is not
# a debug kernel), and the coverage of each and of both together is reported
# (coverage.sh): out/coverage/ARCH-{check,fuzz,all}/, and what the fuzz run
# reaches that the suite does not (ARCH-all/fuzz-beside-suite.txt).
#   ARCH=x86_64|ppc64le|all  DURATION=10m  SEED=n  SUITES=...  (make check's)
. "$(dirname "$0")/common.sh"

ARCH=${ARCH:-all}
case "$ARCH" in all) arches=(x86_64 ppc64le) ;; *) arches=("$ARCH") ;; esac
export COVERAGE=1 IMPL=new DEBUG=0
rc=0
for arch in "${arches[@]}"; do
	# Their verdicts are printed; the gcov kernel's counters slow the hot
	# paths (the function tracer's, the PMU interrupt's) enough that some
	# timing tests fail there: only the coverage report decides the status.
	ARCH=$arch "$TOP/testbed/check.sh" || log "coverage: make check on the gcov kernel failed (above)"
	ARCH=$arch NOBUILD=1 DURATION=${DURATION:-10m} "$TOP/testbed/fuzz.sh" ||
		log "coverage: the fuzz run on the gcov kernel was not clean (above)"
	label=$(run_label "$arch" new 0)
	logs=("$OUT"/results/"$label"*/console.log "$OUT/fuzz/$label${TAG:+-$TAG}/console.log")
	# x86_64: the boots of QEMU's named CPU models (the models suite)
	[ "$arch" = x86_64 ] && logs+=("$OUT/x86-models${TAG:+-$TAG}"/*-new.console)
	"$TOP/testbed/coverage.sh" "$arch" all "${logs[@]}" || rc=1
	# what the fuzzer reaches that the suite does not
	c="$OUT/coverage/$arch"
	if [ -f "$c-check/ours.info" ] && [ -f "$c-fuzz/ours.info" ]; then
		python3 "$TOP/testbed/coverage_report.py" --beside "$c-check/ours.info" \
			"$c-fuzz/ours.info" | tee "$c-all/fuzz-beside-suite.txt"
	fi
done
exit $rc
