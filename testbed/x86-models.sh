#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The differential check of the x86 PMU (make x86-models; make check runs
# it on x86_64 as the "models" suite): boot each of QEMU's named CPU models
# that 6.1 knows with the testbed's tcg-pmu, once on our kernel and once on
# 6.1 (IMPL=upstream, same config), and compare what a user sees of the
# PMU: the driver's boot lines, every file of every PMU under
# /sys/bus/event_source/devices (type, rdpmc, events/, format/, caps/...),
# `perf list --raw-dump hw cache`, and whether `perf stat -e` of each of
# those events opens (counts) or how it is refused (guest-init.sh's pmudump mode).
# One TAP result per model: ok when the two dumps are identical, else the
# differing lines.  Ends with "N passed, N failed"; exit 1 on a difference.
#   X86_MODELS=Skylake-Client,EPYC  (default: the list below)
#   NOBUILD=1  (reuse both built kernels)
#   X86_MODELS_REFS=live (default): boot 6.1 beside ours, as above;
#     use (make check): compare ours with 6.1's dumps recorded in
#     testbed/x86-models-6.1/ when they were recorded from the same
#     inputs (its KEY: base version, config, QEMU, the test drivers, the
#     dump code, the guest's perf), else boot 6.1 live and say so;
#     update: a live run that records 6.1's dumps and their KEY there.
#   COVERAGE=1  (ours is the gcov kernel, 6.1 a plain one; each of our
#                consoles also carries the gcov counters, for coverage.sh)
. "$(dirname "$0")/common.sh"

# Intel: Core 2 to Granite Rapids, the Atoms; AMD: K8 to Zen 4.  Not
# Opteron_G4/G5 (they do not boot under TCG, with either kernel) nor
# Hygon Dhyana (the testbed QEMU models Intel and AMD PMUs only).
MODELS=${X86_MODELS:-Conroe,Penryn,Nehalem,Westmere,SandyBridge,IvyBridge,Haswell,Broadwell,Skylake-Client,Skylake-Server,Cascadelake-Server,Cooperlake,Icelake-Server,SapphireRapids,GraniteRapids,Snowridge,Denverton,KnightsMill,SierraForest,Opteron_G1,Opteron_G2,Opteron_G3,EPYC,EPYC-Rome,EPYC-Milan,EPYC-Genoa}

REFS=${X86_MODELS_REFS:-live}
refdir=$TOP/testbed/x86-models-6.1
case "$REFS" in live | use | update) ;; *) die "X86_MODELS_REFS=$REFS: live, use or update" ;; esac

new=$("$TOP/testbed/build-kernel.sh" x86_64 new 0)
"$TOP/testbed/qemu/build-qemu.sh" > /dev/null

# The QEMU build as an x86 guest sees it: the package version, the build
# script and the patches that touch more than target/ppc/ (a POWER-only
# patch changes no x86 dump, so it does not void the recorded ones).
qemu_x86_inputs() {
	local p

	dpkg-query -W -f '${Version}\n' qemu-system-x86
	cat "$TOP/testbed/qemu/build-qemu.sh"
	for p in "$TOP"/testbed/qemu/patches/*.patch; do
		if grep '^+++ b/' "$p" | grep -qv '^+++ b/target/ppc/'; then
			cat "$p"
		fi
	done
}

# ref_key: a digest of everything besides ours that decides 6.1's dumps:
# the base, its configuration and the testbed drivers it gets, the QEMU
# build (qemu_x86_inputs), how a guest boots and dumps, the guest's perf
ref_key() {
	{
		cat "$BUILD/base/version"
		qemu_x86_inputs
		cat "$TOP/testbed/config/common.config" "$TOP/testbed/config/x86_64.config"
		cat "$TOP/testbed/overlay.sh" "$TOP/testbed/upstream-files" "$TOP/patches/series"
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/testbed/upstream-files" |
			while read -r f; do cat "$TOP/$f"; done
		awk '$2 == "both" { print $1 }' "$TOP/patches/series" |
			while read -r f; do cat "$TOP/patches/$f"; done
		cat "$TOP/testbed/run-qemu.sh"
		sed -n '/^run_pmudump()/,/^}/p' "$TOP/testbed/guest-init.sh"
		sed -n '/^dump()/,/^}/p' "$0"
		dpkg-query -W -f '${Version}\n' linux-perf 2>/dev/null || echo 'no linux-perf'
	} | sha256sum | cut -c1-16
}
key=$(ref_key)

# use: the recorded dumps stand for 6.1 when their key is this one and
# every model asked for has one
if [ "$REFS" = use ]; then
	for m in ${MODELS//,/ }; do
		[ -f "$refdir/$m.txt" ] || REFS=live
	done
	if [ "$(cat "$refdir/KEY" 2>/dev/null)" != "$key" ]; then
		REFS=live
	fi
	if [ "$REFS" = live ]; then
		echo "# 6.1's recorded dumps (testbed/x86-models-6.1, key $(cat "$refdir/KEY" 2>/dev/null)) are not for these inputs (key $key): booting 6.1 beside ours; make x86-models X86_MODELS_REFS=update records them"
	fi
fi
[ "$REFS" = use ] || old=$(COVERAGE=0 "$TOP/testbed/build-kernel.sh" x86_64 upstream 0)
limit=180
# the gcov kernel is slower, and its counters take a while to print
[ "${COVERAGE:-0}" = 1 ] && limit=420
gdir="$BUILD/guest/x86_64-models${TAG:+-$TAG}"
"$TOP/testbed/build-guest.sh" x86_64 "$gdir"
odir="$OUT/x86-models${TAG:+-$TAG}"
mkdir -p "$odir"

# dump MODEL IMPL KERNEL: boot it and keep the pmudump part of the console
dump() {
	local log="$odir/$1-$2.console"

	X86_PMU="model:$1" QEMU_MEM=1024 "$TOP/testbed/run-qemu.sh" x86_64 "$3" \
		"$gdir/initramfs.cpio" "$log" "$limit" \
		"perfev.mode=pmudump kunit.filter_glob=none-at-boot" >/dev/null 2>&1
	tr -d '\r' < "$log" | sed -n '/^@@PMUDUMP-BEGIN@@/,/^@@PMUDUMP-END@@/p' > "$odir/$1-$2.txt"
}

# finished MODEL IMPL: the guest printed its whole dump
finished() {
	grep -q '^@@PMUDUMP-END@@' "$odir/$1-$2.txt"
}

# A guest that did not finish: its console's last lines go into the
# report, and it boots once more (a boot under TCG was seen to stop, once
# in many hundred: CI, Opteron_G3, which guest not known).  One that
# printed a kernel splat is not booted again: that is a failure.
# retry MODEL IMPL KERNEL; returns 1 on a splat
retry() {
	local con="$odir/$1-$2.console"

	echo "# $1: the $2 guest did not finish its dump; its console ended:"
	tr -d '\r' < "$con" | tail -n 5 | sed 's/^/#   /'
	mv "$con" "$odir/$1-$2.first.console"
	if "$TOP/testbed/console_splats.py" "$odir/$1-$2.first.console" > "$odir/$1-$2.splats"; then
		echo "# $1: the $2 guest printed a kernel splat: not booted again"
		head -n 5 "$odir/$1-$2.splats" | sed 's/^/#   /'
		return 1
	fi
	echo "# $1: booting the $2 guest once more"
	dump "$1" "$2" "$3"
}

# use: only our kernel boots, two models side by side (two host CPUs)
if [ "$REFS" = use ]; then
	set -- ${MODELS//,/ }
	while [ $# -gt 0 ]; do
		rm -f "$odir/$1"-*.first.console "$odir/$1"-*.splats
		dump "$1" new "$new" &
		if [ $# -gt 1 ]; then
			rm -f "$odir/$2"-*.first.console "$odir/$2"-*.splats
			dump "$2" new "$new"
		fi
		wait
		shift $(($# > 1 ? 2 : 1))
	done
fi

pass=0 fail=0 n=0
table="$odir/table.txt"
printf '%-20s %-13s %s\n' model result "boot line (ours)" > "$table"
echo "TAP version 13"
for m in ${MODELS//,/ }; do
	n=$((n + 1))
	if [ "$REFS" = use ]; then
		cp "$refdir/$m.txt" "$odir/$m-upstream.txt"
	else
		rm -f "$odir/$m"-*.first.console "$odir/$m"-*.splats
		# the two kernels boot side by side (two host CPUs)
		dump "$m" new "$new" &
		dump "$m" upstream "$old"
		wait
	fi
	finished "$m" new || retry "$m" new "$new" || true
	[ "$REFS" = use ] || finished "$m" upstream || retry "$m" upstream "$old" || true
	if [ "$REFS" = update ] && finished "$m" upstream; then
		mkdir -p "$refdir"
		cp "$odir/$m-upstream.txt" "$refdir/$m.txt"
	fi
	line=$(sed -n 's/^boot: \(Performance Events: .*\)/\1/p' "$odir/$m-new.txt" | head -n 1)
	if ! finished "$m" new || ! finished "$m" upstream; then
		echo "# $m: a guest did not finish its dump (see $odir/$m-*.console)"
		echo "not ok $n x86-models:$m"
		res=no-dump fail=$((fail + 1))
	elif diff -u "$odir/$m-upstream.txt" "$odir/$m-new.txt" > "$odir/$m.diff"; then
		echo "ok $n x86-models:$m"
		res=identical pass=$((pass + 1))
		if ls "$odir/$m"-*.first.console > /dev/null 2>&1; then
			res=identical-2nd
		fi
	else
		echo "# $m: ours differs from 6.1 (- 6.1, + ours):"
		grep '^[-+][a-z]' "$odir/$m.diff" | head -n 20 | sed 's/^/#   /'
		echo "not ok $n x86-models:$m"
		res=different fail=$((fail + 1))
	fi
	printf '%-20s %-13s %s\n' "$m" "$res" "${line:-?}" >> "$table"
done
echo "1..$n"
if [ "$REFS" = update ]; then
	echo "$key" > "$refdir/KEY"
	echo "# 6.1's dumps recorded in testbed/x86-models-6.1 (key $key)"
fi
[ "$REFS" = use ] && echo "# 6.1: the dumps recorded in testbed/x86-models-6.1 (key $key)"
cat "$table" >&2
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
