#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compile single objects of our kernel (IMPL=new) without linking, for a
# quick check of an edit:  testbed/cc-obj.sh [ARCH] kernel/events/foo.o ...
# Safe to run from several shells at once (builds are serialised).
. "$(dirname "$0")/common.sh"
arch=x86_64
case "${1:-}" in x86_64|ppc64le) arch=$1; shift ;; esac
[ $# -gt 0 ] || die "usage: cc-obj.sh [ARCH] path/file.o ..."
KTARGET="$*" exec "$TOP/testbed/build-kernel.sh" "$arch" new 0
