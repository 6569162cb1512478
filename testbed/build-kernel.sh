#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one testbed kernel: build-kernel.sh ARCH IMPL DEBUG
# Prints the path of the bootable image on stdout.  REGRESSION=name (make
# fuzz): our core with testbed/regressions/<name>.patch, in a source tree
# and object directory of its own (overlay.sh, common.sh's reg_suffix).
. "$(dirname "$0")/common.sh"

arch=$1 impl=$(impl_variant "$2") debug=${3:-0}
label="$arch-$impl"
[ "$debug" = 1 ] && label="$label-debug"
[ "${COVERAGE:-0}" = 1 ] && label="$label-cov"
label="$label$(reg_suffix "$impl")"
karch=$(arch_kernel "$arch")
cross=$(arch_cross "$arch")

obj0=$(obj_dir "$arch" "$impl" "$debug")
case "$arch" in
x86_64) image="$obj0/arch/x86/boot/bzImage" ;;
ppc64le) image="$obj0/vmlinux" ;;
esac
# NOBUILD=1: reuse the kernel that is already built (for concurrent guest
# runs with TAG=, which must not race on one object directory).
if [ "${NOBUILD:-0}" = 1 ]; then
	[ -f "$image" ] || die "NOBUILD=1 but $image is not built"
	echo "$image"
	exit 0
fi

# KTARGET builds (below) may run concurrently: one at a time per variant.
if [ -n "${KTARGET:-}" ]; then
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.ktarget-$label.lock"
	flock 9
fi
"$TOP/testbed/prepare-base.sh"
# One overlay of a tree at a time (the arches share it).
mkdir -p "$BUILD"
flock "$BUILD/.overlay-$impl$(reg_suffix "$impl").lock" "$TOP/testbed/overlay.sh" "$impl"
src=$(impl_src "$impl")
obj=$(obj_dir "$arch" "$impl" "$debug")
mkdir -p "$obj"

export CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime
# Fixed build identity (environment, not make arguments: a value with spaces
# on the make command line is split again by some sub-makes).
export KBUILD_BUILD_TIMESTAMP="2026-11-01 00:00:00 UTC" KBUILD_BUILD_USER=perfev KBUILD_BUILD_HOST=testbed
mk=(make -s -C "$src" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross"
    CC="ccache ${cross}gcc" HOSTCC="ccache gcc")

frags=("$TOP/testbed/config/common.config" "$TOP/testbed/config/$arch.config")
if [ "$debug" = 1 ]; then
	frags+=("$TOP/testbed/config/debug.config")
	[ -f "$TOP/testbed/config/debug-$arch.config" ] && frags+=("$TOP/testbed/config/debug-$arch.config")
fi
[ "${COVERAGE:-0}" = 1 ] && frags+=("$TOP/testbed/config/coverage.config")
want=$( (cat "${frags[@]}"; cat "$BUILD/base/version") | sha1sum | cut -d' ' -f1)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.perfev-config" 2>/dev/null)" != "$want" ]; then
	log "configuring $label (tinyconfig + fragments)"
	"${mk[@]}" tinyconfig >/dev/null
	KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}" >/dev/null
	"${mk[@]}" olddefconfig >/dev/null
	# Report options of the fragments that did not survive olddefconfig.
	# Later fragments override earlier ones: check only the last setting.
	cat "${frags[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' |
	awk -F= '{ last[$1] = $0 } END { for (k in last) print last[k] }' | sort |
	while IFS= read -r line; do
		if [ "${line%=n}" != "$line" ]; then
			if grep -q "^${line%=n}=" "$obj/.config"; then log "config: wanted $line"; fi
		elif ! grep -qxF "$line" "$obj/.config"; then
			# an option this tree does not define (e.g. new-only) is no news
			opt=${line%%=*}
			if grep -rqx --include='Kconfig*' "config ${opt#CONFIG_}" "$src"; then
				log "config: wanted $line, not set"
			fi
		fi
	done
	echo "$want" > "$obj/.perfev-config"
fi

case "$arch" in
x86_64) target=bzImage image="$obj/arch/x86/boot/bzImage" ;;
ppc64le) target=vmlinux image="$obj/vmlinux" ;;
esac
# KTARGET=path/file.o: build only that object (compile checks while
# writing; serialised with a lock so several writers can share one tree).
if [ -n "${KTARGET:-}" ]; then
	"${mk[@]}" -j"$JOBS" $KTARGET >&2 || die "build of $KTARGET failed ($label)"
	exit 0
fi
log "building $label: Linux $(cat "$BUILD/base/version") from $src"
start=$SECONDS
"${mk[@]}" -j"$JOBS" "$target" >&2 || die "kernel build failed ($arch-$impl)"
log "built $image in $((SECONDS - start)) s"
echo "$image"
