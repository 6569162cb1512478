#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the benchmark guest (make bench).  Runs the micro-benchmarks of
# tools/testing/selftests/perf_events/bench/ and, on x86_64, perf bench
# sched pipe, prints their "BENCH <case> <round> <value> <unit>" lines on
# the console and powers off.  Command line:
#   perfev.rounds=N   rounds per case (default 3)
#   perfev.scale=F    iteration multiplier (default 1)
#   perfev.only=LIST  only these programs (e.g. p1_open,p6_scale,perf)
#   perfev.cases=LIST only these cases of them (e.g. P2.read), for profiles
#   perfev.p6=LIST    only these P6 variants (e.g. cpu:10,self:1000)
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing
ln -sf /proc/self/fd /dev/fd

arg() { # arg NAME DEFAULT: value of NAME= on the kernel command line
	v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n 1)
	echo "${v:-$2}"
}
rounds=$(arg perfev.rounds 3)
scale=$(arg perfev.scale 1)
only=$(arg perfev.only "")
cases=$(arg perfev.cases "")
p6=$(arg perfev.p6 "")

echo "PERFEV-BENCH-START kernel=$(uname -r) arch=$(uname -m) cpus=$(nproc) rounds=$rounds scale=$scale"
# Sampling cases must not be throttled: raise the rate first (refused
# once the CPU-time limit is off), then switch the limit off.
echo 1000000 > /proc/sys/kernel/perf_event_max_sample_rate
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
echo -1 > /proc/sys/kernel/perf_event_paranoid
# tinyconfig's BASE_SMALL leaves 4,096 pids: P8 holds 1,000 sleeping
# tasks per round (4,000 at ROUNDS=3) besides what P5 used before it.
echo 32768 > /proc/sys/kernel/pid_max

selected() { # name
	[ -z "$only" ] && return 0
	case ",$only," in *",$1,"*) return 0 ;; esac
	return 1
}

run() { # program args...
	p=$1
	shift
	start=$(cut -d' ' -f1 /proc/uptime)
	"/bench/$p" -r "$rounds" -s "$scale" ${cases:+-c "$cases"} "$@" < /dev/null || echo "BENCH-FAIL $p $* rc=$?"
	echo "bench: $p $* ($start..$(cut -d' ' -f1 /proc/uptime) s)"
}

cd /tmp
for p in p1_open p2_read p3_ctxsw p4_sample p5_fork p7_tracepoint p8_memory p9_mux; do
	selected "$p" && run "$p"
done

# P6: P1, P2 and P3 with N unrelated events open.
if selected p6_scale; then
	for kind in self task cpu; do
		for n in 10 100 1000 10000; do
			case ",${p6:-$kind:$n}," in
			*",$kind:$n,"*) run p6_scale -u "$kind:$n" ;;
			esac
		done
	done
fi

# A real client's view: perf bench sched pipe, alone and under perf stat.
if [ -x /usr/bin/perf ] && selected perf; then
	loops=$(awk "BEGIN{print int(5000*$scale)}")
	events=task-clock,context-switches,page-faults,sched:sched_switch
	[ -d /sys/bus/event_source/devices/perfev_test ] && events=$events,perfev_test/ns/
	r=0
	while [ "$r" -lt "$rounds" ]; do
		perf bench sched pipe -l "$loops" > /tmp/pipe.txt 2>&1
		awk -v r=$r '/usecs\/op/ {printf "BENCH perf-bench-sched-pipe %d %.2f ns/op\n", r, $1 * 1000}' /tmp/pipe.txt
		perf stat -e "$events" -o /tmp/stat.txt -- perf bench sched pipe -l "$loops" > /tmp/pipe.txt 2>&1
		awk -v r=$r '/usecs\/op/ {printf "BENCH perf-stat-bench-sched-pipe %d %.2f ns/op\n", r, $1 * 1000}' /tmp/pipe.txt
		grep -q usecs/op /tmp/pipe.txt || { echo "BENCH-FAIL perf bench"; cat /tmp/pipe.txt /tmp/stat.txt; }
		r=$((r + 1))
	done
	cat /tmp/stat.txt
fi

echo "PERFEV-BENCH-DONE"
sync
poweroff -f
