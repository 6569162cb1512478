#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the kprof QEMU plugin (testbed/profile/README.md) under $BUILD and
# print its path.  It needs QEMU's plugin header, from the source of the
# QEMU version the testbed runs (apt-get source --download-only qemu).
. "$(dirname "$0")/../common.sh"

so="$BUILD/kprof/kprof.so" src="$TOP/testbed/profile/kprof.c"
hdr=${QEMU_PLUGIN_H:-$(ls -d "$BUILD"/qemu-src/qemu-*/include/qemu "$BUILD"/qemu/src/include/qemu 2>/dev/null | tail -1 || true)}
if [ ! -s "$so" ] || [ "$src" -nt "$so" ]; then
	if [ ! -f "$hdr/qemu-plugin.h" ]; then
		ver=$(dpkg-query -W -f '${Version}' qemu-system-common)
		mkdir -p "$BUILD/qemu-src"
		log "fetching QEMU $ver's source for its plugin header"
		(cd "$BUILD/qemu-src" && apt-get source --download-only "qemu=$ver" >/dev/null 2>&1 || true)
		tarball=$(ls "$BUILD"/qemu-src/qemu_*.orig.tar.xz 2>/dev/null | tail -1)
		[ -n "$tarball" ] || die "no QEMU source: add a deb-src entry, or set QEMU_PLUGIN_H"
		tar -C "$BUILD/qemu-src" -xJf "$tarball" --wildcards '*/include/qemu/qemu-plugin.h'
		hdr=$(ls -d "$BUILD"/qemu-src/qemu-*/include/qemu | tail -1)
	fi
	pkg-config --exists glib-2.0 || die "kprof needs libglib2.0-dev (apt-get install libglib2.0-dev)"
	mkdir -p "$BUILD/kprof"
	gcc -shared -fPIC -O2 -Wall -Werror -I "$hdr" $(pkg-config --cflags glib-2.0) \
		-o "$so" "$src" >&2
fi
echo "$so"
