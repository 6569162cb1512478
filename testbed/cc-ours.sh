#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compile objects of the new core in progress (CORE=ours) without linking:
#   testbed/cc-ours.sh [ARCH] kernel/events/foo.o ...
# Safe to run from several shells at once (builds are serialised).
. "$(dirname "$0")/common.sh"
arch=x86_64
case "${1:-}" in x86_64|ppc64le) arch=$1; shift ;; esac
[ $# -gt 0 ] || die "usage: cc-ours.sh [ARCH] path/file.o ..."
CORE=ours KTARGET="$*" exec "$TOP/testbed/build-kernel.sh" "$arch" new 0
