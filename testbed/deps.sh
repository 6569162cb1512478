#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the testbed needs on Debian 12, only when something is missing.
# QEMU 10 comes from Debian's bookworm-backports suite: its apt source is
# derived from the mirror this machine already uses (no host is hard-coded).
# ppc64el is added as a foreign dpkg architecture only so that 'apt-get download'
# can fetch the ppc64le guest's BusyBox, perf and PAPI (build-guest.sh unpacks
# them with dpkg -x and resolves their libraries with binutils' readelf).
set -euo pipefail
log() { printf '[deps] %s\n' "$*" >&2; }

# papi-tools: the host's PAPI tools go into the x86_64 guest (its scenarios suite).
pkgs=(linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev cpio xz-utils
      kmod rsync python3 file ccache busybox-static linux-perf binutils
      gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross lcov papi-tools)
qemu_pkgs=(qemu-system-x86 qemu-system-ppc)
# Building the testbed's patched qemu-system-x86_64 (testbed/qemu/build-qemu.sh):
# QEMU 10 needs meson >= 1.5 and pycotap, both from bookworm-backports (the
# repacked orig tarball has no bundled wheels), and 'apt-get source' needs a
# deb-src line for bookworm-backports.
qemu_build_pkgs=(ninja-build pkg-config python3-venv libglib2.0-dev libfdt-dev
		 libpixman-1-dev zlib1g-dev)
qemu_bpo_pkgs=(meson python3-pycotap)
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

missing=()
for p in "${pkgs[@]}" "${qemu_build_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
qemu_missing=()
for p in "${qemu_pkgs[@]}"; do
	v=$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null || true)
	case "$v" in "install ok installed 1:1"[0-9].*) ;; *) qemu_missing+=("$p") ;; esac
done
v=$(dpkg-query -W -f='${Status} ${Version}' meson 2>/dev/null || true)
case "$v" in "install ok installed 1."[5-9]* | "install ok installed 1."[1-9][0-9]*) ;; *) qemu_missing+=(meson) ;; esac
dpkg-query -W -f='${Status}' python3-pycotap 2>/dev/null | grep -q 'install ok installed' ||
	qemu_missing+=(python3-pycotap)
need_src=0
srcs=$(apt-cache showsrc qemu 2>/dev/null || true)
grep -q '^Version: 1:10' <<< "$srcs" || need_src=1
need_ppc64el=0
dpkg --print-foreign-architectures | grep -qx ppc64el || need_ppc64el=1

if [ ${#missing[@]} -eq 0 ] && [ ${#qemu_missing[@]} -eq 0 ] && [ $need_ppc64el = 0 ] && [ $need_src = 0 ]; then
	exit 0
fi

mirror() { # this machine's Debian mirror (no host is hard-coded)
	local uri
	uri=$(grep -rhs -A3 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	      awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}')
	[ -n "$uri" ] || uri=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || { log "cannot find this machine's Debian mirror to add bookworm-backports"; exit 1; }
	echo "$uri"
}
if [ ${#qemu_missing[@]} -gt 0 ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(mirror)
	log "adding bookworm-backports (deb, deb-src) from $uri"
	printf 'Types: deb deb-src\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" | $sudo tee /etc/apt/sources.list.d/perfev-backports.sources >/dev/null
	need_src=0
fi
if [ $need_src = 1 ]; then
	uri=$(mirror)
	log "adding deb-src for bookworm-backports from $uri (QEMU's source for the testbed's build)"
	printf 'Types: deb-src\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" | $sudo tee /etc/apt/sources.list.d/perfev-backports-src.sources >/dev/null
fi
if [ $need_ppc64el = 1 ]; then
	log "adding foreign architecture ppc64el (for the ppc64le guest's packages)"
	$sudo dpkg --add-architecture ppc64el
fi
log "installing: ${missing[*]} ${qemu_missing[*]}"
$sudo apt-get update -q >/dev/null || log "apt-get update reported errors (continuing with the indexes it has)"
export DEBIAN_FRONTEND=noninteractive
[ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -q "${missing[@]}" >/dev/null
[ ${#qemu_missing[@]} -eq 0 ] || $sudo apt-get install -y -q -t bookworm-backports "${qemu_missing[@]}" >/dev/null
log "done"
