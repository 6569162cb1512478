#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: build, boot and judge every requested arch.
#   ARCH=x86_64|ppc64le|all  IMPL=new|upstream  DEBUG=0|1
#   SUITES=perfev,upstream,perftest,papi,powerpc,scenarios,models  TESTS=attr,groups (perfev binaries only)
#   TAG=name  (separate guest/result directories for parallel runs)
#   PPC_CPU=power9,power8,power10  (ppc64le CPU models, see below)
#   COVERAGE=1  (a gcov kernel; coverage of the run in out/coverage/ARCH-check)
# Ends with `N passed, N failed, N skipped` over all arches; exit 1 on failure.
. "$(dirname "$0")/common.sh"

ARCH=${ARCH:-x86_64} IMPL=${IMPL:-new} DEBUG=${DEBUG:-0}
suites_asked=${SUITES:+yes}
SUITES=${SUITES:-perfev,upstream,perftest,papi,powerpc,scenarios,models} TESTS=${TESTS:-} TAG=${TAG:-}
case "$ARCH" in all) arches=(x86_64 ppc64le) ;; *) arches=("$ARCH") ;; esac

# x86_64 boots once per PMU model of the testbed's QEMU
# (testbed/qemu/README.md, run-qemu.sh's X86_PMU) and once without one:
#   arch     Intel architectural perfmon version 5: every suite;
#   arch-v2  the same at version 2 (no full-width writes, no version 4
#            MSRs: 6.1's older driver paths), labelled ARCH-IMPL[-debug]-v2;
#   amd      an AMD Zen 3 with PerfMonV2, labelled ...-amd;
#   amd-v1   the same without PerfMonV2 (the legacy handler), ...-amd-v1;
#            these three run the perfev binaries that drive the PMU
#            (X86_PMU_TESTS), the client scenarios and 6.1's selftests;
#   testpmu  no PMU, where the test-only perfev_test PMU registers: the
#            perfev binaries that need it (TESTPMU_TESTS).
TESTPMU_TESTS=constraints,aux,cgroup,inherit_groups
X86_PMU_TESTS=hw,groups,inherit_groups,multiplex,sampling,x86_pmu,x86_pmu_model,perf_tool

# ppc64le boots once per CPU model of PPC_CPU (QEMU pseries, run-qemu.sh): the
# first model runs every suite, each further model the perfev binaries that
# drive the PMU (PPC_PMU_TESTS) and 6.1's powerpc PMU selftests (the
# powerpc suite: unless TESTS narrows a run of the default suites), with
# KUnit at boot.  Results of a model
# other than POWER9 are labelled ARCH-IMPL[-debug]-MODEL.
PPC_CPU=${PPC_CPU:-power9,power8,power10}
PPC_PMU_TESTS=hw,groups,inherit_groups,multiplex,sampling,ppc_pmu,perf_tool

# boot_tests LIST: the perfev binaries of LIST that TESTS also asks for
boot_tests() {
	local t out=""
	[ -z "$TESTS" ] && { echo "$1"; return; }
	for t in ${1//,/ }; do
		case ",$TESTS," in *",$t,"*) out="$out${out:+,}$t" ;; esac
	done
	echo "$out"
}

# With ARCH=all the next arch's kernel and guest build in the background,
# at nice 19, while this arch's guests run: a guest keeps about one of the
# two host CPUs busy, and its vCPU threads win any CPU the build wants (a
# cold ppc64le build is 5 to 11 minutes of the run's wall time otherwise).
# The foreground build of that arch then finds it built.
prebuild_pid="" prebuild_log=""
prebuild() { # ARCH
	prebuild_log="$OUT/prebuild-$1${TAG:+-$TAG}.log"
	mkdir -p "$OUT"
	(nice -n 19 "$TOP/testbed/build-kernel.sh" "$1" "$IMPL" "$DEBUG" > /dev/null &&
		nice -n 19 "$TOP/testbed/build-guest.sh" "$1" "$BUILD/guest/$1${TAG:+-$TAG}") \
		> "$prebuild_log" 2>&1 &
	prebuild_pid=$!
}

total_p=0 total_f=0 total_s=0
for i in "${!arches[@]}"; do
	arch=${arches[$i]}
	if [ -n "$prebuild_pid" ]; then
		wait "$prebuild_pid" || log "the background build of $arch failed: building it again"
		cat "$prebuild_log" >&2
		prebuild_pid=""
	fi
	kernel=$("$TOP/testbed/build-kernel.sh" "$arch" "$IMPL" "$DEBUG")
	gdir="$BUILD/guest/$arch${TAG:+-$TAG}"
	"$TOP/testbed/build-guest.sh" "$arch" "$gdir"
	next=${arches[$((i + 1))]:-}
	[ -n "$next" ] && [ "${NOBUILD:-0}" != 1 ] && prebuild "$next"
	logs=()
	boots=(main)
	[ "$arch" = x86_64 ] && boots=(main arch-v2 amd amd-v1 testpmu)
	[ "$arch" = ppc64le ] && read -r -a boots <<< "${PPC_CPU//,/ }"
	# plan every boot (label, kernel arguments, PMU model) ...
	plan=()
	for boot in "${boots[@]}"; do
		label=$(run_label "$arch" "$IMPL" "$DEBUG")
		args="perfev.mode=check perfev.suites=$SUITES${TESTS:+ perfev.tests=$TESTS}"
		pmu=arch cpu=power9
		if [ "$arch" = ppc64le ]; then
			cpu=$boot
			[ "$cpu" = power9 ] || label="$label-$cpu"
		fi
		if [ "$arch" = ppc64le ] && [ "$boot" != "${boots[0]}" ]; then
			tests=$(boot_tests "$PPC_PMU_TESTS")
			case ",$SUITES," in *,perfev,*) ;; *) tests="" ;; esac
			suites=${tests:+perfev}
			if [ -z "$TESTS" ] || [ -n "$suites_asked" ]; then
				case ",$SUITES," in *,powerpc,*) suites="$suites${suites:+,}powerpc" ;; esac
			fi
			[ -n "$suites" ] || continue
			args="perfev.mode=check perfev.suites=$suites${tests:+ perfev.tests=$tests}"
		fi
		if [ "$arch" = x86_64 ] && [ "$boot" != main ] && [ "$boot" != testpmu ]; then
			tests=$(boot_tests "$X86_PMU_TESTS")
			case ",$SUITES," in *,perfev,*) ;; *) tests="" ;; esac
			# and the real-client scenarios (perf, PAPI, a
			# self-monitoring reader) and 6.1's own selftests (5 s)
			# on every emulated PMU
			suites=${tests:+perfev}
			if [ -z "$TESTS" ]; then
				case ",$SUITES," in *,scenarios,*) suites="$suites${suites:+,}scenarios" ;; esac
				case ",$SUITES," in *,upstream,*) suites="$suites${suites:+,}upstream" ;; esac
			fi
			[ -n "$suites" ] || continue
			label="$label-${boot#arch-}" pmu=$boot
			# KUnit at boot is the main boot's, but for the freeze
			# on PMI of the model's version 2 (legacy freeze)
			kunit=none-at-boot
			[ "$boot" = arch-v2 ] && kunit=x86_intel_pmi_freeze
			args="perfev.mode=check perfev.suites=$suites${tests:+ perfev.tests=$tests} kunit.filter_glob=$kunit"
		fi
		if [ "$boot" = testpmu ]; then
			tests=$(boot_tests "$TESTPMU_TESTS")
			case ",$SUITES," in *,perfev,*) ;; *) tests="" ;; esac
			[ -n "$tests" ] || continue
			label="$label-testpmu" pmu=none
			args="perfev.mode=check perfev.suites=perfev perfev.tests=$tests kunit.filter_glob=none-at-boot"
		fi
		[ "$DEBUG" = 1 ] && args="$args perfev.timeout_scale=3"
		plan+=("$label|$pmu|$cpu|$args")
	done
	# ... then boot them: one at a time, but ppc64le's further CPU models
	# PPC_SIDE_BY_SIDE at a time (default 2).  Those boots are 6.1's
	# powerpc PMU selftests for nine tenths of their time (single-threaded
	# EBB and counting loops: one host CPU each), 6 minutes a model.
	waves=()
	for j in "${!plan[@]}"; do
		if [ "$arch" = ppc64le ] && [ "$j" -gt 1 ] &&
		   [ $(( (j - 1) % ${PPC_SIDE_BY_SIDE:-2} )) != 0 ]; then
			waves[${#waves[@]}-1]="${waves[${#waves[@]}-1]} $j"
		else
			waves+=("$j")
		fi
	done
	limit=${PERFEV_TIMEOUT:-2400}
	[ "$DEBUG" = 1 ] && limit=$((limit * 3))
	for wave in "${waves[@]}"; do
		pids=()
		for j in $wave; do
			IFS='|' read -r label pmu cpu args <<< "${plan[$j]}"
			rdir="$OUT/results/$label${TAG:+-$TAG}"
			mkdir -p "$rdir"
			X86_PMU=$pmu PPC_CPU=$cpu QEMU_MEM=$(guest_mem "$DEBUG") "$TOP/testbed/run-qemu.sh" "$arch" "$kernel" \
				"$gdir/initramfs.cpio" "$rdir/console.log" "$limit" "$args" &
			pids+=($!)
		done
		for pid in "${pids[@]}"; do
			wait "$pid" || true
		done
		for j in $wave; do
			IFS='|' read -r label pmu cpu args <<< "${plan[$j]}"
			rdir="$OUT/results/$label${TAG:+-$TAG}"
			logf="$rdir/console.log"
			log "results of $label: base Linux $(cat "$BUILD/base/version"), kernel $kernel"
			set +e
			# a debug kernel's own timing artifacts are listed apart (ARCH-debug.txt)
			expected="$TOP/testbed/expected/$arch.txt"
			[ "$DEBUG" = 1 ] && [ -f "$TOP/testbed/expected/$arch-debug.txt" ] &&
				expected="$expected:$TOP/testbed/expected/$arch-debug.txt"
			# and what only one ppc64le CPU model shows (ARCH-MODEL.txt)
			[ "$arch" = ppc64le ] && [ -f "$TOP/testbed/expected/$arch-$cpu.txt" ] &&
				expected="$expected:$TOP/testbed/expected/$arch-$cpu.txt"
			python3 "$TOP/testbed/judge.py" "$arch" "$(impl_variant "$IMPL")" "$logf" "$expected" "$rdir" "$label"
			set -e
			logs+=("$logf")
			read -r p f s < "$rdir/summary"
			total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
		done
	done
	# The "models" suite (x86_64, our kernel, not debug): our PMU against
	# 6.1's on QEMU's named CPU models, boot lines, sysfs and perf list
	# byte for byte (x86-models.sh).  6.1's side is its dumps recorded in
	# testbed/x86-models-6.1 when they were made from the same inputs (the
	# upstream kernel is then not built), else a live 6.1 boot.
	case ",$SUITES," in *,models,*)
		if [ "$arch" = x86_64 ] && [ "$(impl_variant "$IMPL")" = new ] && [ "$DEBUG" = 0 ] &&
		   [ -z "$TESTS" ]; then
			mlog="$OUT/x86-models${TAG:+-$TAG}.log"
			TAG=$TAG X86_MODELS_REFS=${X86_MODELS_REFS:-use} "$TOP/testbed/x86-models.sh" > "$mlog" 2>&1 || true
			{ grep -E '^(not ok|# )' "$mlog" || true; } | head -n 60
			read -r p _ f _ < <(tail -n 1 "$mlog" | tr -d ',')
			if ! [[ "$p" =~ ^[0-9]+$ && "$f" =~ ^[0-9]+$ ]]; then
				log "x86-models did not finish: $mlog"
				p=0 f=1
			fi
			log "x86-models: $p passed, $f failed (table: $OUT/x86-models${TAG:+-$TAG}/table.txt)"
			total_p=$((total_p + p)) total_f=$((total_f + f))
			# each model's boot on the gcov kernel counts for coverage
			[ "${COVERAGE:-0}" = 1 ] &&
				logs+=("$OUT/x86-models${TAG:+-$TAG}"/*-new.console)
		fi ;;
	esac
	# COVERAGE=1: line and branch coverage of this arch's boots (coverage.sh)
	if [ "${COVERAGE:-0}" = 1 ]; then
		"$TOP/testbed/coverage.sh" "$arch" check "${logs[@]}" || true
	fi
done
log "make check ran $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" = 0 ]
