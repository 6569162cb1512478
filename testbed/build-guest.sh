#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs for one arch: build-guest.sh ARCH DIR
#   BusyBox (static), /init, our kselftests, the perf_fuzz fuzzer and upstream's
#   perf_events selftests built static, and Debian's perf with its shared-library closure
#   (the host's on x86_64; on ppc64le the ppc64el packages, with PAPI's tools).
# Writes DIR/initramfs.cpio.
. "$(dirname "$0")/common.sh"

arch=$1 dir=$2
cross=$(arch_cross "$arch")
cc="${cross}gcc"
base=$(base_dir)
root="$dir/root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,results,tests/perfev,tests/upstream,etc}

guest_busybox "$arch" "$root"

cp "$TOP/testbed/guest-init.sh" "$root/init"
chmod +x "$root/init"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

# Our conformance tests: every .c except the helper libraries is one binary.
tdir="$TOP/tools/testing/selftests/perf_events"
cflags=(-static -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror
	-I "$base/tools/testing/selftests/perf_events")
libs=()
for f in "$tdir"/*.c; do
	[ -e "$f" ] || continue
	grep -q 'TEST_HARNESS_MAIN\|^int main' "$f" || libs+=("$f")
done
for f in "$tdir"/*.c; do
	[ -e "$f" ] || continue
	grep -q 'TEST_HARNESS_MAIN\|^int main' "$f" || continue
	name=$(basename "$f" .c)
	# A test that does not build is reported as a failing test of the run.
	if ! "$cc" "${cflags[@]}" -o "$root/tests/perfev/$name" "$f" "${libs[@]}" -lpthread \
			2> "$dir/build-$name.log"; then
		cat "$dir/build-$name.log" >&2
		log "test $name does not build for $arch"
		mkdir -p "$root/results/perfev"
		printf 'TAP version 13\n1..1\nnot ok 1 build # see build/guest log\n' \
			> "$root/results/perfev/$name.tap"
		echo 1 > "$root/results/perfev/$name.rc"
	fi
done

# The fuzzer (make fuzz, and the fuzz_smoke test): one static binary.
"$cc" "${cflags[@]}" -o "$root/usr/bin/perf_fuzz" "$tdir"/fuzzer/*.c -lpthread ||
	die "building perf_fuzz for $arch failed"

# The client scenarios (make check SUITES=scenarios): the driver script and
# its static helpers (the workload, the watchdog, the self-monitoring reader).
# A helper that does not build fails the suite's run.
sdir="$tdir/scenarios"
mkdir -p "$root/tests/scenarios/bin"
cp "$sdir/clients.sh" "$root/tests/scenarios/clients"
chmod +x "$root/tests/scenarios/clients"
for f in "$sdir"/*.c; do
	name=$(basename "$f" .c)
	if ! "$cc" "${cflags[@]}" -fno-omit-frame-pointer -o "$root/tests/scenarios/bin/$name" \
			"$f" -lpthread 2> "$dir/build-scenarios-$name.log"; then
		cat "$dir/build-scenarios-$name.log" >&2
		log "scenario helper $name does not build for $arch"
		mkdir -p "$root/results/scenarios"
		printf 'TAP version 13\n1..1\nnot ok 1 build %s # see build/guest log\n' "$name" \
			> "$root/results/scenarios/build-$name.tap"
		echo 1 > "$root/results/scenarios/build-$name.rc"
	fi
done

# Upstream's own selftests, from the pristine base tree.
udir="$base/tools/testing/selftests/perf_events"
for t in $(sed -n 's/^TEST_GEN_PROGS := //p' "$udir/Makefile"); do
	"$cc" -static -O2 -Wall -Wl,-no-as-needed -o "$root/tests/upstream/$t" \
		"$udir/$t.c" -lpthread || die "building upstream selftest $t for $arch failed"
done

# ppc64le: 6.1's own powerpc PMU selftests (tools/testing/selftests/powerpc/pmu:
# the counting tests, ebb/, sampling_tests/, event_code_tests/), built static
# by their own Makefiles from the pristine base, once per base version
# (cached in $BUILD/ppc-pmu-selftests), into /tests/powerpc/<group>/.
if [ "$arch" = ppc64le ]; then
	pdir="$BUILD/ppc-pmu-selftests"
	stamp="$(cat "$BUILD/base/version") $("$cc" -dumpfullversion)"
	exec 7> "$BUILD/.ppc-pmu-selftests.lock" # one builder at a time (parallel TAG= runs)
	flock 7
	if [ "$(cat "$pdir/.stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$pdir"
		mkdir -p "$pdir/out"
		psrc="$base/tools/testing/selftests/powerpc"
		make -s -C "$psrc/pmu" ARCH=powerpc CC="$cc" OUTPUT="$pdir/out" \
			CFLAGS="-std=gnu99 -O2 -Wall -Werror -DGIT_VERSION='\"$(cat "$BUILD/base/version")\"' -I$psrc/include -static" \
			LDFLAGS=-static all > "$pdir/build.log" 2>&1 ||
			{ tail -n 30 "$pdir/build.log" >&2; die "building 6.1's powerpc PMU selftests failed"; }
		echo "$stamp" > "$pdir/.stamp"
	fi
	flock -u 7
	mkdir -p "$root/tests/powerpc/pmu"
	for f in "$pdir"/out/*; do
		[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$root/tests/powerpc/pmu/"
	done
	for g in ebb sampling_tests event_code_tests; do
		mkdir -p "$root/tests/powerpc/$g"
		for f in "$pdir/out/$g"/*; do
			[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$root/tests/powerpc/$g/"
		done
	done
	# 6.1's CPU PMU sysfs files per model, for ppc_pmu's byte-for-byte check
	mkdir -p "$root/tests/data"
	python3 "$TOP/testbed/ppc-sysfs-ref.py" "$base" > "$root/tests/data/ppc-sysfs.ref" ||
		die "reading 6.1's POWER PMU sysfs files from $base failed"
fi

# The real perf tool and its library closure (x86_64 guest only).
if [ "$arch" = x86_64 ]; then guest_host_perf "$root"; fi
# and the host's PAPI tools (papi-tools) under /opt/papi/bin, for the
# scenarios only: the papi suite's checks are POWER9's (/usr/bin)
if [ "$arch" = x86_64 ]; then guest_host_papi "$root"; fi

# ppc64le: Debian's ppc64el perf and PAPI tools.  ldd cannot run them, so their
# packages and the library packages they depend on are downloaded (cached in
# $BUILD/debs), unpacked into $BUILD/debs/ppc64el, and each binary's DT_NEEDED
# closure is resolved there with readelf, as the guest's ld.so will.
debs="$BUILD/debs"
ppc_sysroot() { # PKG[=VERSION]...: unpack them and their library packages
	local spec name p v deb
	exec 8> "$debs/.ppc64el.lock" # one unpacker at a time (parallel TAG= runs)
	flock 8
	for spec in "$@"; do
		[ -f "$debs/ppc64el/.perfev-unpacked-$spec" ] && continue
		name=${spec%%=*}
		# Shared libraries live in lib*/zlib* packages (Debian policy 8.1).
		for p in "$name:ppc64el${spec#"$name"}" $(apt-cache depends --recurse --no-recommends \
				--no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
				"$name:ppc64el${spec#"$name"}" | grep -E '^(lib|zlib)[a-z0-9.+-]*:ppc64el$' | sort -u); do
			case "$p" in
			*=*) v=${p#*=} deb="$debs/${p%%:*}_${v//:/%3a}_ppc64el.deb" ;;
			*) deb=$(ls -t "$debs/${p%%:*}_"*_ppc64el.deb 2>/dev/null | head -n 1 || true) ;;
			esac
			if [ ! -f "$deb" ]; then
				(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p" >/dev/null) ||
					die "cannot download $p (dpkg --add-architecture ppc64el; apt-get update)"
				deb=$(ls -t "$debs/${p%%:*}_"*_ppc64el.deb | head -n 1)
			fi
			dpkg -x "$deb" "$debs/ppc64el"
		done
		touch "$debs/ppc64el/.perfev-unpacked-$spec"
	done
	flock -u 8
}

ppc_install() { # FILE...: copy these sysroot files and their DT_NEEDED closure into the guest
	local sysroot="$debs/ppc64el" f so d lib interp
	local -a work=("$@")
	local -A seen=()
	while [ ${#work[@]} -gt 0 ]; do
		f=${work[0]}
		work=("${work[@]:1}")
		[ -z "${seen[$f]:-}" ] || continue
		seen[$f]=1
		mkdir -p "$root$(dirname "$f")"
		cp -L "$sysroot$f" "$root$f"
		# The ELF interpreter at its canonical path (/lib64/ld64.so.2 is an
		# absolute symlink in libc6, so take its target by name).
		interp=$(readelf -l "$sysroot$f" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
		if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
			mkdir -p "$root$(dirname "$interp")"
			cp -L "$sysroot/lib/powerpc64le-linux-gnu/$(basename "$interp")" "$root$interp"
		fi
		for so in $(readelf -d "$sysroot$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			lib=""
			for d in /lib/powerpc64le-linux-gnu /usr/lib/powerpc64le-linux-gnu /lib /usr/lib; do
				if [ -e "$sysroot$d/$so" ]; then lib="$d/$so"; break; fi
			done
			[ -n "$lib" ] || die "$so, needed by $f, is in no unpacked ppc64el package"
			work+=("$lib")
		done
	done
}

if [ "$arch" = ppc64le ]; then
	# The host's linux-perf version when the ppc64el index has it, else its newest 6.1 build.
	want=$(dpkg-query -W -f='${Version}' linux-perf 2>/dev/null || true)
	have=$(apt-cache madison linux-perf:ppc64el | awk -F'|' '{gsub(/ /, "", $2); print $2}')
	pv=$want
	if ! grep -qxF "$want" <<< "$have"; then
		pv=$(grep -m1 '^6\.1\.' <<< "$have" || true)
		[ -n "$pv" ] || die "no linux-perf 6.1 for ppc64el in the apt indexes (apt-get update)"
		log "linux-perf:ppc64el $want is not in the apt indexes: using $pv"
	fi
	ppc_sysroot "linux-perf=$pv" papi-tools
	ppc_install /usr/bin/perf /usr/bin/papi_avail /usr/bin/papi_native_avail \
		/usr/bin/papi_command_line /usr/bin/papi_component_avail
fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$dir/initramfs.cpio"
log "guest $arch: $(du -h "$dir/initramfs.cpio" | cut -f1) initramfs, $(ls "$root/tests/perfev" | wc -l) perfev tests"
