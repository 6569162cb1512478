#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Line and branch coverage of our perf_events code from COVERAGE=1 guest runs:
#   coverage.sh ARCH NAME LOG...
# Each console LOG of a gcov kernel (testbed/config/coverage.config) carries
# the guest's /sys/kernel/debug/gcov counters between @@PERFEV-GCOV-*@@
# markers (guest-init.sh dump_gcov).  Every LOG is captured with lcov against
# the .gcno files of the kernel's object directory, the captures are added
# up, and the sum is reported for the files this repository owns
# (kernel/events, arch/powerpc/perf, arch/x86/events, drivers/perf; KUnit
# test files apart): a table on stdout and in out/coverage/ARCH-NAME/
# summary.txt, an HTML report in out/coverage/ARCH-NAME/html.
. "$(dirname "$0")/common.sh"

arch=$1 name=$2
shift 2
obj=$(COVERAGE=1 obj_dir "$arch" new 0)
src=$(impl_src new)
cdir="$OUT/coverage/$arch-$name"
dirs=(kernel/events arch/powerpc/perf arch/x86/events arch/x86/events/amd arch/x86/events/intel drivers/perf)
case "$arch" in
x86_64) gcov=gcov-12 ;;
ppc64le) gcov=powerpc64le-linux-gnu-gcov-12 ;;
esac
rc=(--rc lcov_branch_coverage=1 --gcov-tool "$gcov" -q)
rm -rf "$cdir"
mkdir -p "$cdir/runs"

infos=()
n=0
for logf in "$@"; do
	[ -f "$logf" ] || continue
	n=$((n + 1))
	run="$cdir/runs/$n"
	mkdir -p "$run/gcda"
	# The blob: base64 lines between the markers (a console may add \r).
	sed -n '/@@PERFEV-GCOV-BEGIN@@/,/@@PERFEV-GCOV-END@@/p' "$logf" | tr -d '\r' |
		grep -v '@@PERFEV-GCOV' | base64 -d 2>/dev/null | tar -C "$run/gcda" -xzf - 2>/dev/null ||
		{ log "coverage: no gcov counters in $logf"; continue; }
	# Beside them the notes files of the build, at the path the guest saw.
	found=0
	for d in "${dirs[@]}"; do
		g="$run/gcda/${obj#/}/$d"
		[ -d "$g" ] || continue
		for f in "$obj/$d"/*.gcno; do
			[ -e "$f" ] && cp "$f" "$g/" && found=1
		done
	done
	[ "$found" = 1 ] || { log "coverage: $logf has no counters of $obj"; continue; }
	lcov "${rc[@]}" -c -d "$run/gcda" -b "$obj" -o "$run/run.info" 2>> "$cdir/lcov.log" ||
		{ log "coverage: lcov could not capture $logf (see $cdir/lcov.log)"; continue; }
	infos+=(-a "$run/run.info")
	echo "$logf" > "$run/source"
done
[ ${#infos[@]} -gt 0 ] || die "coverage: no usable gcov data in: $*"
lcov "${rc[@]}" "${infos[@]}" -o "$cdir/all.info" 2>> "$cdir/lcov.log"

# Our files only: what this repository holds at those paths (no KUnit tests).
mapfile -t ours < <(cd "$TOP" && for d in "${dirs[@]}"; do
	git ls-files "$d/*.c" | grep '^'"$d"'/[^/]*\.c$' | grep -v '_test\.c$' || true
done | sort -u)
pats=()
for f in "${ours[@]}"; do pats+=("*/$f"); done
lcov "${rc[@]}" -e "$cdir/all.info" "${pats[@]}" -o "$cdir/ours.info" 2>> "$cdir/lcov.log" ||
	die "coverage: none of our files in the capture"
genhtml -q --branch-coverage --legend -t "perf_events $arch $name" -o "$cdir/html" \
	"$cdir/ours.info" > /dev/null 2>> "$cdir/lcov.log" || log "coverage: genhtml failed"
python3 "$TOP/testbed/coverage_report.py" "$cdir/ours.info" "$arch $name ($n runs)" "$src" |
	tee "$cdir/summary.txt"
log "coverage: $cdir/summary.txt, $cdir/html/index.html"
