#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Client scenarios: the kernel driven as the real perf tool, PAPI and a
# self-monitoring reader drive it, each scenario judged by its output.
# Prints kselftest TAP, one result per scenario; a scenario SKIPs (with the
# reason) when its tool or a hardware PMU is missing.
#
# Every command runs under bin/scn_watchdog: a command that outlives its
# limit (SCN_LIMIT seconds, 90) gets the kernel's blocked-task and task
# stack dumps on the console (sysrq w, t, l) and its scenario fails.
#
# The workload, bin/scn_work, forks 4 processes of 4 threads each, every
# thread running scn_spin(): 2 user instructions and 1 branch an iteration.
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/bin
work=$bin/scn_work
tmp=/tmp/scenarios
limit=${SCN_LIMIT:-90}
iters=${SCN_ITERS:-1000000}
PATH=$PATH:/opt/papi/bin
rm -rf "$tmp"
mkdir -p "$tmp"
cd "$tmp" || exit 1

run() { # OUT CMD...: CMD under the watchdog, its stdout and stderr in OUT
	out=$1
	shift
	"$bin/scn_watchdog" "$limit" "$@" > "$out" 2>&1 < /dev/null
}

exited() { # RC WHAT: 0 when the command exited 0; else why it did not
	case $1 in
	0) return 0 ;;
	124) why="$2 hangs: killed after ${limit}s, task dump on the console" ;;
	*) why="$2 exited $1" ;;
	esac
	return 1
}

counts() { # CSV: perf stat's counts as diagnostics
	awk -F, '!/^#/ && NF >= 5 { printf "#   %s %s (%s%%)\n", $3, $1, $5 }' "$1"
}

judge() { # AWK FILE [VAR=VALUE...]: the awk program prints why FILE is wrong, or nothing
	prog=$1 file=$2
	shift 2
	why=$(awk "$@" "$prog" "$file")
	[ -z "$why" ]
}

have_pmu() { # a hardware PMU that counts instructions
	[ -n "$pmu" ] || {
		pmu=no
		run "$tmp/probe.txt" perf stat -x, -e instructions -- true &&
			grep -q '^[0-9]' "$tmp/probe.txt" && pmu=yes
	}
	[ "$pmu" = yes ] && return 0
	why="no hardware PMU counts instructions here (perf stat -e instructions)"
	return 1
}

# perf stat -x, lines: value,unit,event,run time,percent running,...
# Each event's value must be a count; prints why not.
STAT_COUNTED='
/^#/ || NF < 5 { next }
{ n++; if ($1 !~ /^[0-9]+$/) printf "%s: %s; ", $3, $1 }
END { if (n < want) printf "%d of %d events in the output", n, want }'

scn_stat_group() { # 1: a group, inherited by forked processes and their threads
	have_pmu || return 2
	show="$tmp/s1.out $tmp/s1.csv"
	run "$tmp/s1.out" perf stat -x, -o "$tmp/s1.csv" -e '{cycles,instructions}' -- \
		"$work" -n "$iters"
	exited $? "perf stat" || return 1
	judge "$STAT_COUNTED" "$tmp/s1.csv" -F, -v want=2 || return 1
	judge '$3 ~ /^instructions/ { i = $1 }
	       $3 ~ /^cycles/ { c = $1 }
	       END { if (i < min) printf "instructions %s < %d of the threads", i, min
		     if (!(c > 0)) printf " cycles %s", c
		     # an IPC of exactly 1: one counter behind both events
		     else if (c == i) printf " cycles equal instructions (%s)", c }' \
		"$tmp/s1.csv" -F, -v min=$((16 * iters * 2)) || return 1
	counts "$tmp/s1.csv"
}

scn_stat_multiplex() { # 2: more events than counters, multiplexed and scaled
	have_pmu || return 2
	# user only: the bounds below are the threads' own work, which a debug
	# kernel's fork and exit (KASAN, lockdep) outweigh 15 times over
	case $(uname -m) in
	x86_64) # 4 general-purpose + 3 fixed counters: 6 of the 8 count at a time
		evs=cycles:u,instructions:u,branches:u,cycles:u,instructions:u,branches:u
		evs=$evs,cycles:u,instructions:u ;;
	*)	# POWER: cycles and instructions take PMC1-4 only
		evs=cycles:u,instructions:u,cycles:u,instructions:u,cycles:u,instructions:u
		evs=$evs,cycles:u,instructions:u ;;
	esac
	show="$tmp/s2.out $tmp/s2.csv"
	run "$tmp/s2.out" perf stat -x, -o "$tmp/s2.csv" -e "$evs" -- "$work" -n "$iters"
	exited $? "perf stat" || return 1
	judge "$STAT_COUNTED" "$tmp/s2.csv" -F, -v want=8 || return 1
	# scaled (count * enabled / running) instructions and branches near the
	# threads' own; some event ran less than 100% of the time
	judge '/^#/ || NF < 5 { next }
	       $5 + 0 < 100 { mux++ }
	       !($5 + 0 > 0) { printf "%s never ran (%s%%); ", $3, $5 }
	       $3 ~ /^instructions/ && ($1 < min / 2 || $1 > min * 4) {
		       printf "instructions %s not near %d; ", $1, min }
	       $3 ~ /^branches/ && ($1 < min / 4 || $1 > min * 2) {
		       printf "branches %s not near %d; ", $1, min / 2 }
	       $3 ~ /^cycles/ && !($1 > 0) { printf "cycles %s; ", $1 }
	       END { if (!mux) printf "no event was multiplexed (all ran 100%%)" }' \
		"$tmp/s2.csv" -F, -v min=$((16 * iters * 2)) || return 1
	counts "$tmp/s2.csv"
}

scn_stat_system() { # 3: a group on every CPU
	have_pmu || return 2
	show="$tmp/s3.out $tmp/s3.csv"
	run "$tmp/s3.out" perf stat -a -x, -o "$tmp/s3.csv" -e '{cycles,instructions}' -- \
		"$work" -p 2 -t 2 -n "$iters"
	exited $? "perf stat -a" || return 1
	judge "$STAT_COUNTED" "$tmp/s3.csv" -F, -v want=2 || return 1
	judge '$3 ~ /^instructions/ { i = $1 }
	       $3 ~ /^cycles/ { c = $1 }
	       END { if (i < min) printf "instructions %s < %d of the threads", i, min
		     if (!(c > 0)) printf " cycles %s", c }' \
		"$tmp/s3.csv" -F, -v min=$((4 * iters * 2)) || return 1
	counts "$tmp/s3.csv"
}

scn_record_threads() { # 4: sampling with callchains across processes and threads
	have_pmu || return 2
	show="$tmp/s4.out $tmp/s4.report"
	run "$tmp/s4.out" perf record -g -o "$tmp/s4.data" -- "$work" -n "$iters"
	exited $? "perf record -g" || return 1
	run "$tmp/s4.report" perf report --stdio -i "$tmp/s4.data" --sort pid,sym -g none
	exited $? "perf report" || return 1
	# lines "  12.50%  123:scn_work  [.] scn_spin" (pid sorts by thread):
	# the spin of several threads
	judge '/scn_spin/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+:scn_work/) t[$i] = 1 }
	       END { for (k in t) n++
		     if (n < 2) printf "scn_spin samples from %d thread(s), want several", n }' \
		"$tmp/s4.report" || return 1
	run "$tmp/s4.callers" perf report --stdio -i "$tmp/s4.data" --sort sym
	exited $? "perf report" || return 1
	show="$tmp/s4.callers"
	# the spin's callchains reach back into its thread's start (the
	# frame-pointer walk may skip the spin's direct caller, spin_thread)
	judge '/scn_spin/ { s = 1 } s && /spin_thread|start_thread/ { t = 1 }
	       END { if (!s || !t) printf "no callchain from a thread start to scn_spin" }' \
		"$tmp/s4.callers"
}

scn_record_sched_switch() { # 5: a tracepoint on every CPU
	show="$tmp/s5.out $tmp/s5.script"
	run "$tmp/s5.out" perf record -a -e sched:sched_switch -o "$tmp/s5.data" -- \
		"$work" -p 2 -t 2 -n $((iters / 4))
	exited $? "perf record -a" || return 1
	run "$tmp/s5.script" perf script -i "$tmp/s5.data"
	exited $? "perf script" || return 1
	judge '/sched:sched_switch/ { n++; if (/scn_work/) w++ }
	       END { if (!n) printf "no sched:sched_switch line"
		     else if (!w) printf "%d sched_switch lines, none of scn_work", n }' \
		"$tmp/s5.script"
}

scn_record_syscalls() { # 6: the raw syscall tracepoint, inherited by every task
	show="$tmp/s6.out $tmp/s6.script"
	run "$tmp/s6.out" perf record -e raw_syscalls:sys_enter -o "$tmp/s6.data" -- \
		"$work" -n 1000
	exited $? "perf record" || return 1
	run "$tmp/s6.script" perf script -i "$tmp/s6.data" -F comm,tid,event,trace
	exited $? "perf script" || return 1
	# entries with their syscall numbers, from the parent and each child
	judge '/raw_syscalls:sys_enter/ && /NR [0-9]+/ { n++; t[$2] = 1 }
	       END { for (k in t) tids++
		     if (n < 20 || tids < 5)
			     printf "%d sys_enter entries from %d tasks, want 20 from 5", n, tids }' \
		"$tmp/s6.script" || return 1
	# perf trace -s: the same tracepoints, summed per thread and syscall
	show="$tmp/s6.trace"
	run "$tmp/s6.trace" perf trace -s -- "$work" -n 1000
	exited $? "perf trace -s" || return 1
	judge '/^ *scn_work \([0-9]+\), [0-9]+ events/ { t++ }
	       $1 ~ /^clone/ && $2 > 0 { c = 1 }
	       END { if (t < 5 || !c)
			     printf "perf trace -s: %d scn_work threads, clone rows: %d", t, c }' \
		"$tmp/s6.trace"
}

scn_papi_derived() { # 7: PAPI counts a preset it derives from several native events
	if ! command -v papi_command_line > /dev/null; then
		why="no PAPI tools in this guest"
		return 2
	fi
	show="$tmp/s7.avail"
	run "$tmp/s7.avail" papi_avail
	rc=$?
	if [ $rc != 0 ] || ! grep -q '^PAPI_TOT_INS .* Yes ' "$tmp/s7.avail"; then
		why="papi_avail (exit $rc) offers no PAPI_TOT_INS"
		[ "$(uname -m)" = x86_64 ] || return 1
		# PAPI 7.0 takes no CPU that libpfm4 knows only as the
		# architectural PMU (ix86arch), as QEMU's family 6 model 6
		run "$tmp/s7.comp" papi_component_avail
		why="$why on this x86 CPU model, perf_event component: $(sed -n \
			'/perf_event /{n;s/.*Disabled: *//p;q}' "$tmp/s7.comp")"
		return 2
	fi
	# "Name Code Avail Deriv Description": available and derived; one built
	# from events the emulated PMUs count first (POWER9: PAPI_STL_ICY is
	# PM_RUN_CYC - PM_1PLUS_PPC_DISP), else the first
	pref="PAPI_STL_ICY PAPI_BR_CN PAPI_BR_NTK"
	ev=$(awk -v pref="$pref" '
		BEGIN { n = split(pref, p) }
		$1 ~ /^PAPI_/ && $3 == "Yes" && $4 == "Yes" { d[$1] = 1; if (!first) first = $1 }
		END { for (i = 1; i <= n; i++) if (p[i] in d) { print p[i]; exit }
		      if (first) print first }' "$tmp/s7.avail")
	if [ -z "$ev" ]; then
		why="no available PAPI preset is derived on this CPU"
		return 2
	fi
	show="$tmp/s7.avail $tmp/s7.out"
	# in one event set with PAPI_TOT_INS: a group of the derived preset's
	# native events and PM_INST_CMPL, started, stopped and read by PAPI
	run "$tmp/s7.out" papi_command_line "$ev" PAPI_TOT_INS
	exited $? "papi_command_line $ev PAPI_TOT_INS" || return 1
	# "PAPI_TOT_INS : 	12345"; a derived preset of events QEMU does not
	# count (cache, dispatch) may read 0
	judge '/^Successfully added/ { added++ }
	       $1 == ev && $2 == ":" { v = $3 }
	       $1 == "PAPI_TOT_INS" && $2 == ":" { i = $3 }
	       END { if (added != 2) printf "%d of 2 events added; ", added
		     if (v !~ /^[0-9]+$/) printf "no count of %s; ", ev
		     if (!(i > 0)) printf "PAPI_TOT_INS %s", i }' \
		"$tmp/s7.out" -v ev="$ev" || return 1
	awk '$2 == ":" && $1 ~ /^PAPI_/ { printf "#   %s %s\n", $1, $3 }' "$tmp/s7.out"
}

scn_selfmon() { # 8: the user-page protocol under multiplexing
	show="$tmp/s8.out"
	run "$tmp/s8.out" "$bin/scn_selfmon"
	rc=$?
	grep '^# ' "$tmp/s8.out"
	case $rc in
	0) return 0 ;;
	4) why=$(sed -n 's/^selfmon: SKIP: //p' "$tmp/s8.out"); return 2 ;;
	esac
	exited $rc scn_selfmon
	return 1
}

n=0 fails=0
scenario() { # NAME FUNCTION: one TAP result
	why="" show=""
	start=$(cut -d' ' -f1 /proc/uptime)
	"$2"
	rc=$?
	n=$((n + 1))
	echo "# $1: $start..$(cut -d' ' -f1 /proc/uptime) s"
	case $rc in
	0) echo "ok $n $1" ;;
	2) echo "ok $n $1 # SKIP $why" ;;
	*)
		echo "# $1: ${why:-failed}"
		for f in $show; do
			[ -f "$f" ] && tail -n 40 "$f" | sed "s|^|# ${f##*/}: |"
		done
		echo "not ok $n $1"
		fails=$((fails + 1))
		;;
	esac
}

echo "TAP version 13"
echo "1..8"
if ! command -v perf > /dev/null; then
	for s in stat_group_forks_threads stat_multiplexed stat_system_wide_group \
		 record_callchains_threads record_system_sched_switch record_raw_syscalls; do
		n=$((n + 1))
		echo "ok $n $s # SKIP no perf tool in this guest"
	done
else
	scenario stat_group_forks_threads scn_stat_group
	scenario stat_multiplexed scn_stat_multiplex
	scenario stat_system_wide_group scn_stat_system
	scenario record_callchains_threads scn_record_threads
	scenario record_system_sched_switch scn_record_sched_switch
	scenario record_raw_syscalls scn_record_syscalls
fi
scenario papi_derived_preset scn_papi_derived
scenario selfmon_user_page_multiplexed scn_selfmon
echo "# ${fails} of $n scenarios failed"
[ "$fails" = 0 ]
