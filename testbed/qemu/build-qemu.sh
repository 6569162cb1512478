#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the testbed's patched qemu-system-x86_64 and qemu-system-ppc64
# (testbed/qemu/README.md) and print the path of one of them:
#   build-qemu.sh [x86_64 | ppc64]	(default x86_64)
# Source: the orig tarball of the QEMU version Debian's qemu-system-x86
# package has here (apt-get source --download-only), checked against the
# SHA256 that apt's index gives, plus testbed/qemu/patches/*.patch in name
# order, in build/qemu/src, built in build/qemu/build (one configure, both
# targets).  Rebuilt only when the version, a patch or this script changes
# (build/qemu/stamp); the fixed paths and CCACHE_BASEDIR keep a rebuild after
# a patch edit short.
. "$(dirname "$0")/../common.sh"

QDIR=$BUILD/qemu
ver=$(dpkg-query -W -f '${Version}' qemu-system-x86)
upver=${ver#*:}
upver=${upver%%-*}			# 10.0.2+ds
patches=("$TOP"/testbed/qemu/patches/*.patch)
stamp=$( { echo "$ver"; cat "${patches[@]}" "$0"; } | sha256sum | cut -c1-16)
targets=(qemu-system-x86_64 qemu-system-ppc64)
case "${1:-x86_64}" in
x86_64 | ppc64) bin=$QDIR/build/qemu-system-${1:-x86_64} ;;
*) die "build-qemu.sh: x86_64 or ppc64, not '$1'" ;;
esac
built() {
	local t
	for t in "${targets[@]}"; do
		[ -x "$QDIR/build/$t" ] || return 1
	done
	[ "$(cat "$QDIR/stamp" 2>/dev/null)" = "$stamp" ]
}

if built; then
	echo "$bin"
	exit 0
fi

mkdir -p "$BUILD/qemu-src" "$QDIR"
exec 9> "$QDIR/.lock"	# one build at a time (parallel TAG= runs)
flock 9
if built; then
	echo "$bin"
	exit 0
fi
tarball=$BUILD/qemu-src/qemu_${upver}.orig.tar.xz
if [ ! -s "$tarball" ]; then
	log "fetching QEMU $ver's source (orig tarball)"
	(cd "$BUILD/qemu-src" && apt-get source --download-only "qemu=$ver" >/dev/null 2>&1 || true)
	[ -s "$tarball" ] || die "no $tarball: 'apt-get source' needs a deb-src entry for bookworm-backports (make deps adds it)"
fi
want=$(apt-get source --print-uris "qemu=$ver" 2>/dev/null |
       awk -v f="qemu_${upver}.orig.tar.xz" '$2 == f { sub(/^SHA256:/, "", $4); print $4 }')
if [ -n "$want" ]; then
	have=$(sha256sum "$tarball" | cut -d' ' -f1)
	[ "$have" = "$want" ] || die "$tarball: SHA256 $have, apt's index says $want"
fi

src=$QDIR/src obj=$QDIR/build
rm -rf "$src" "$obj" "$QDIR/stamp"
log "unpacking QEMU $upver and applying ${#patches[@]} testbed patches"
mkdir -p "$src"
tar -C "$src" --strip-components=1 -xJf "$tarball"
for p in "${patches[@]}"; do
	patch -s -p1 -d "$src" --no-backup-if-mismatch < "$p" || die "patch $(basename "$p") does not apply"
done

start=$SECONDS
mkdir -p "$obj"
log "configuring ${targets[*]} (TCG only, no optional features)"
(cd "$obj" && "$src/configure" --target-list=x86_64-softmmu,ppc64-softmmu --without-default-features \
	--python=/usr/bin/python3 --enable-tcg --disable-kvm --disable-xen --disable-docs --disable-tools \
	--disable-guest-agent --disable-download --disable-install-blobs --disable-werror --cc="ccache gcc" --cxx="ccache g++" \
	--extra-cflags="-O2 -g0" > "$QDIR/configure.log" 2>&1) ||
	{ tail -30 "$QDIR/configure.log" >&2; die "QEMU configure failed ($QDIR/configure.log)"; }
log "building ${targets[*]}"
(cd "$obj" && CCACHE_BASEDIR=$QDIR ninja -j"$JOBS" "${targets[@]}" > "$QDIR/build.log" 2>&1) ||
	{ tail -30 "$QDIR/build.log" >&2; die "QEMU build failed ($QDIR/build.log)"; }
for t in "${targets[@]}"; do
	[ -x "$obj/$t" ] || die "QEMU build left no $obj/$t"
done
echo "$stamp" > "$QDIR/stamp"
log "${targets[*]} built in $((SECONDS - start)) s"
echo "$bin"
