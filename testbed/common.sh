# SPDX-License-Identifier: GPL-2.0
# Shared settings for the testbed scripts.  Sourced, never executed.
#
# Layout of the (git-ignored) build directory:
#   build/base/linux-6.1.y/        pristine unpacked Debian linux-source-6.1
#   build/src-new/                 base + our overlay + patches - removed files
#   build/src-upstream/            base + testbed-only drivers (testbed/upstream-files)
#   build/obj/<arch>-<impl>[-debug]/  out-of-tree kernel objects (O=)
#   build/guest/<arch>/            static test binaries and initramfs trees
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=${OUT:-$TOP/out}
BASE_TARBALL=${BASE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

log() { printf '[testbed] %s\n' "$*" >&2; }
die() { printf '[testbed] error: %s\n' "$*" >&2; exit 1; }

# Kernel ARCH and cross prefix for a testbed arch name.
arch_kernel() {
	case "$1" in
	x86_64) echo x86 ;;
	ppc64le) echo powerpc ;;
	*) die "unknown ARCH '$1' (x86_64, ppc64le or all)" ;;
	esac
}

arch_cross() {
	case "$1" in
	x86_64) echo "" ;;
	ppc64le) echo powerpc64le-linux-gnu- ;;
	esac
}

# Directory holding the unpacked pristine base tree.
base_dir() {
	local d
	d=$(find "$BUILD/base" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-6.1*' 2>/dev/null | head -n 1)
	[ -n "$d" ] || die "base tree not unpacked (run testbed/prepare-base.sh)"
	echo "$d"
}

# Kernel version string of a source tree, e.g. 6.1.192 (from its Makefile).
tree_version() {
	awk -F' = ' '/^VERSION =/{v=$2} /^PATCHLEVEL =/{p=$2} /^SUBLEVEL =/{s=$2} END{print v"."p"."s}' "$1/Makefile"
}

# The tree variant built for IMPL: "upstream" or "new" (our core).
impl_variant() {
	case "$1" in
	new) echo new ;;
	upstream) echo upstream ;;
	*) die "unknown IMPL '$1' (new or upstream)" ;;
	esac
}

# REGRESSION=name (make fuzz): our core with testbed/regressions/<name>.patch
# applied, a fixed bug back for the fuzzer to find, in a source tree, an
# object directory and a result label of its own ("-reg-<name>").
reg_suffix() { # impl
	if [ -n "${REGRESSION:-}" ] && [ "$1" = new ]; then echo "-reg-$REGRESSION"; fi
}

# Source tree used to build a variant.
impl_src() {
	case "$1" in
	upstream | new) echo "$BUILD/src-$1$(reg_suffix "$1")" ;;
	*) die "unknown IMPL '$1' (new or upstream)" ;;
	esac
}

obj_dir() { # arch impl debug
	local d="$BUILD/obj/$1-$2"
	[ "${3:-0}" = 1 ] && d="$d-debug"
	[ "${COVERAGE:-0}" = 1 ] && d="$d-cov"
	echo "$d$(reg_suffix "$2")"
}

# Result label of a run: <arch>-<impl>[-debug][-cov] (COVERAGE=1: gcov kernel).
run_label() { # arch impl debug
	local l="$1-$(impl_variant "$2")"
	[ "${3:-0}" = 1 ] && l="$l-debug"
	[ "${COVERAGE:-0}" = 1 ] && l="$l-cov"
	echo "$l$(reg_suffix "$(impl_variant "$2")")"
}

# Guest memory in MiB: debug kernels (KASAN, kmemleak) need twice as much.
guest_mem() { # debug
	if [ "${1:-0}" = 1 ]; then echo 3072; else echo 1536; fi
}

# Install a static BusyBox and its applet links into the initramfs tree
# $2: the host's for x86_64, Debian's ppc64el package (cached in
# build/debs) for ppc64le.  The same BusyBox version on both arches, so the
# host's applet list is valid for both.
guest_busybox() { # arch root
	local bb debs="$BUILD/debs"

	case "$1" in
	x86_64)
		bb=/bin/busybox
		;;
	ppc64le)
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
	cp "$bb" "$2/bin/busybox"
	/bin/busybox --list-full | while read -r applet; do
		[ -e "$2/$applet" ] || ln -s /bin/busybox "$2/$applet"
	done
}

# Install a host binary as $1/usr/bin/$3 with its shared-library closure (ldd).
guest_host_binary() { # root path name
	local lib

	cp "$2" "$1/usr/bin/$3"
	ldd "$2" | awk '/=>/ {print $3} /^[[:space:]]*\// {print $1}' | while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$1$(dirname "$lib")"
		cp -L "$lib" "$1$lib"
	done
}

# Install the host's PAPI tools (Debian's papi-tools, x86_64 guests) with
# their libraries into $1/opt/papi/bin, when the host has them.
guest_host_papi() { # root
	local t

	[ -x /usr/bin/papi_command_line ] || { log "no papi-tools on the host: no PAPI in the x86_64 guest"; return 0; }
	for t in papi_avail papi_native_avail papi_command_line papi_component_avail; do
		guest_host_binary "$1" "/usr/bin/$t" "$t"
		mkdir -p "$1/opt/papi/bin"
		mv "$1/usr/bin/$t" "$1/opt/papi/bin/$t"
	done
}

# Install the host's perf (Debian's linux-perf, x86_64 guests) and objdump
# (binutils: perf annotate and perf test "Object code reading" run it) with
# their libraries and the loader at its canonical path into the initramfs
# tree $1.
guest_host_perf() { # root
	local perf=/usr/bin/perf_6.1

	[ -x "$perf" ] || perf=/usr/bin/perf
	file -L "$perf" | grep -q ELF || die "no perf ELF found (apt-get install linux-perf)"
	guest_host_binary "$1" "$perf" perf
	guest_host_binary "$1" /usr/bin/objdump objdump
	mkdir -p "$1/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$1/lib64/"
}
