#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make compile-check: build our x86_64 kernel with every option that uses
# the x86 PMU code (testbed/config/x86_64-allperf.config: KVM for Intel and
# AMD, every x86 perf driver, every vendor, ORC, IA32 emulation, resctrl)
# and link it, so that every user of the framework and of the AMD driver
# compiles against ours.  Builds only; nothing boots.
. "$(dirname "$0")/common.sh"

"$TOP/testbed/prepare-base.sh"
mkdir -p "$BUILD"
flock "$BUILD/.overlay-new.lock" "$TOP/testbed/overlay.sh" new
src=$(impl_src new)
obj="$BUILD/obj/x86_64-new-allperf"
mkdir -p "$obj"
export CCACHE_BASEDIR="$BUILD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime
mk=(make -s -C "$src" O="$obj" ARCH=x86 CC="ccache gcc" HOSTCC="ccache gcc")
frags=("$TOP/testbed/config/common.config" "$TOP/testbed/config/x86_64.config"
       "$TOP/testbed/config/x86_64-allperf.config")
"${mk[@]}" tinyconfig >/dev/null
KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "${frags[@]}" >/dev/null
"${mk[@]}" olddefconfig >/dev/null
missing=0
for opt in $(grep -h '^CONFIG_.*=y' "$TOP/testbed/config/x86_64-allperf.config" | cut -d= -f1); do
	grep -qx "$opt=y" "$obj/.config" || { log "compile-check: $opt did not stick"; missing=1; }
done
log "compile-check: building $obj"
"${mk[@]}" -j"$(nproc)" bzImage 2>&1 | grep -E 'warning|error' && { log "compile-check: warnings or errors"; exit 1; }
[ -f "$obj/arch/x86/boot/bzImage" ] || die "compile-check: no bzImage"
[ "$missing" = 0 ] || exit 1
log "compile-check: ok"
