#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs for one arch: build-guest.sh ARCH DIR
#   BusyBox (static), /init, our kselftests, the perf_fuzz fuzzer and upstream's
#   perf_events selftests built static, and on x86_64 Debian's perf with its shared-library closure.
# Writes DIR/initramfs.cpio.
. "$(dirname "$0")/common.sh"

arch=$1 dir=$2
cross=$(arch_cross "$arch")
cc="${cross}gcc"
base=$(base_dir)
root="$dir/root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,results,tests/perfev,tests/upstream,etc}

# BusyBox: the host's for x86_64, Debian's ppc64el package for ppc64le.
case "$arch" in
x86_64)
	bb=/bin/busybox
	;;
ppc64le)
	debs="$BUILD/debs"
	bb="$debs/ppc64el/bin/busybox"
	if [ ! -x "$bb" ]; then
		mkdir -p "$debs"
		(cd "$debs" && apt-get download -q busybox-static:ppc64el >/dev/null) ||
			die "cannot download busybox-static:ppc64el (dpkg --add-architecture ppc64el; apt-get update)"
		dpkg -x "$debs"/busybox-static_*_ppc64el.deb "$debs/ppc64el"
	fi
	;;
esac
file -L "$bb" | grep -q 'statically linked' || die "$bb is not a static busybox"
cp "$bb" "$root/bin/busybox"
# Same BusyBox version on both arches: the host's applet list is valid for both.
/bin/busybox --list-full | while read -r applet; do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done

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

# Upstream's own selftests, from the pristine base tree.
udir="$base/tools/testing/selftests/perf_events"
for t in $(sed -n 's/^TEST_GEN_PROGS := //p' "$udir/Makefile"); do
	"$cc" -static -O2 -Wall -Wl,-no-as-needed -o "$root/tests/upstream/$t" \
		"$udir/$t.c" -lpthread || die "building upstream selftest $t for $arch failed"
done

# The real perf tool and its library closure (x86_64 guest only).
if [ "$arch" = x86_64 ]; then
	perf=/usr/bin/perf_6.1
	[ -x "$perf" ] || perf=/usr/bin/perf
	file -L "$perf" | grep -q ELF || die "no perf ELF found (apt-get install linux-perf)"
	cp "$perf" "$root/usr/bin/perf"
	ldd "$perf" | awk '/=>/ {print $3} /^[[:space:]]*\// {print $1}' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	# Loader at its canonical path, for the ELF interpreter field.
	mkdir -p "$root/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$dir/initramfs.cpio"
log "guest $arch: $(du -h "$dir/initramfs.cpio" | cut -f1) initramfs, $(ls "$root/tests/perfev" | wc -l) perfev tests"
