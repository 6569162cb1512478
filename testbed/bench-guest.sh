#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the benchmark guest's initramfs: bench-guest.sh ARCH DIR
#   BusyBox (static, as build-guest.sh gets it), testbed/bench-init.sh as
#   /init, the benchmarks of tools/testing/selftests/perf_events/bench/
#   built static in /bench, and on x86_64 Debian's perf with its libraries.
# Writes DIR/initramfs.cpio.
. "$(dirname "$0")/common.sh"

arch=$1 dir=$2
cc="$(arch_cross "$arch")gcc"
root="$dir/root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,bench}

guest_busybox "$arch" "$root"
cp "$TOP/testbed/bench-init.sh" "$root/init"
chmod +x "$root/init"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
printf 'root:x:0:\n' > "$root/etc/group"

# One program per case family; bench.c is their shared library.
bdir="$TOP/tools/testing/selftests/perf_events/bench"
for f in "$bdir"/p*.c; do
	"$cc" -static -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -fno-omit-frame-pointer \
		-o "$root/bench/$(basename "$f" .c)" "$f" "$bdir/bench.c" "$bdir/ops.c" ||
		die "benchmark $(basename "$f") does not build for $arch"
done

if [ "$arch" = x86_64 ]; then guest_host_perf "$root"; fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$dir/initramfs.cpio"
log "bench guest $arch: $(du -h "$dir/initramfs.cpio" | cut -f1) initramfs, $(ls "$root/bench" | wc -l) programs"
