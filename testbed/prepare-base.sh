#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian's linux-source-6.1 into build/base once; reuse it while the
# tarball is unchanged.  Refuses any base that is not 6.1.y.
. "$(dirname "$0")/common.sh"

[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing (apt-get install linux-source-6.1)"
stamp="$BUILD/base/.tarball-stamp"
want=$(stat -c '%s %Y' "$BASE_TARBALL")
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	d=$(base_dir)
else
	log "unpacking $BASE_TARBALL"
	rm -rf "$BUILD/base"
	mkdir -p "$BUILD/base"
	tar -C "$BUILD/base" -xf "$BASE_TARBALL"
	d=$(base_dir)
	# The pristine tree is never built in (we build with O=); keep it clean.
	echo "$want" > "$stamp"
fi
ver=$(tree_version "$d")
case "$ver" in
6.1.*) ;;
*) die "base is Linux $ver, not 6.1.y: refusing" ;;
esac
echo "$ver" > "$BUILD/base/version"
log "base: Linux $ver ($BASE_TARBALL)"
