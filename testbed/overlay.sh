#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the source tree of one implementation: overlay.sh [new|upstream]
#   new:      build/src-new = pristine base + our overlay + patches/series
#             - the files listed in testbed/removed-files
#   upstream: build/src-upstream = pristine base + the testbed-only drivers
#             listed in testbed/upstream-files + the patches/series entries
#             marked "both" (their Kconfig/Makefile lines): plain 6.1 drivers
#             such as the test PMU, so the same tests run on both cores.
#   REGRESSION=name (new only): build/src-new-reg-<name>, the same plus
#             testbed/regressions/<name>.patch (a fixed bug put back, for
#             make fuzz REGRESSION=<name> to find), staged separately.
#
# Idempotent and incremental: the desired content of every file we manage is
# staged first and synced with checksums, so a file whose content did not
# change keeps its mtime and make rebuilds only what really changed.  Files we
# managed before and no longer do are restored from the base.
. "$(dirname "$0")/common.sh"

impl=${1:-new}
base=$(base_dir)
src=$(impl_src "$impl")
tree="$impl$(reg_suffix "$impl")"
stage="$BUILD/stage-$tree"
removed_manifests=("$TOP/testbed/removed-files")
[ "$impl" = upstream ] && removed_manifests=()
manifest() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$@"; }

if [ ! -f "$src/.perfev-base" ] || [ "$(cat "$src/.perfev-base")" != "$(cat "$BUILD/base/.tarball-stamp")" ]; then
	log "creating $src from the base (hard links)"
	rm -rf "$src"
	cp -al "$base" "$src"
	cp "$BUILD/base/.tarball-stamp" "$src/.perfev-base"
	: > "$src/.perfev-managed"
	: > "$src/.perfev-removed"
fi

rm -rf "$stage"
mkdir -p "$stage"

# 1. Our files, at kernel-tree paths: for new, every file under a top-level
#    directory of the repo that is also one of the kernel tree; for upstream,
#    only the testbed-only drivers.
list_files() {
	local roots=() d
	if [ "$impl" = upstream ]; then
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/testbed/upstream-files"
		return
	fi
	for d in "$TOP"/*/; do
		d=$(basename "$d")
		[ -d "$base/$d" ] && roots+=("$d")
	done
	[ ${#roots[@]} -gt 0 ] || return 0
	(cd "$TOP" && git ls-files -co --exclude-standard -- "${roots[@]}")
}
list_files | while read -r f; do
	[ -f "$TOP/$f" ] || continue
	mkdir -p "$stage/$(dirname "$f")"
	cp "$TOP/$f" "$stage/$f"
done

# 2. Small edits to base files, in series order.
if [ -f "$TOP/patches/series" ]; then
	while read -r p scope _; do
		case "$p" in ''|'#'*) continue ;; esac
		[ "$impl" = upstream ] && [ "${scope:-}" != both ] && continue
		pf="$TOP/patches/$p"
		[ -f "$pf" ] || die "patch $p listed in patches/series does not exist"
		sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$pf" | while read -r t; do
			if [ ! -e "$stage/$t" ] && [ -f "$base/$t" ]; then
				mkdir -p "$stage/$(dirname "$t")"
				cp "$base/$t" "$stage/$t"
			fi
		done
		patch -s -p1 -f --no-backup-if-mismatch -d "$stage" < "$pf" >/dev/null ||
			die "patch $p failed to apply"
	done < "$TOP/patches/series"
fi

# 3. REGRESSION=name: the bug the fuzzer must find, on top of everything.
if [ -n "$(reg_suffix "$impl")" ]; then
	pf="$TOP/testbed/regressions/$REGRESSION.patch"
	[ -f "$pf" ] || die "REGRESSION=$REGRESSION: $pf does not exist"
	patch -s -p1 -f --no-backup-if-mismatch -d "$stage" < "$pf" >/dev/null ||
		die "regression patch $REGRESSION failed to apply"
fi

(cd "$stage" && find . -type f | sed 's#^\./##' | sort) > "$BUILD/managed.$tree"
if [ ${#removed_manifests[@]} -gt 0 ]; then
	manifest "${removed_manifests[@]}" | sort -u > "$BUILD/removed.$tree"
else
	: > "$BUILD/removed.$tree"
fi

restore() { # path: put back the base's version, or drop a file we added
	rm -f "$src/$1"
	if [ -f "$base/$1" ]; then
		mkdir -p "$src/$(dirname "$1")"
		cp "$base/$1" "$src/$1"	# no -p: a fresh mtime makes make rebuild it
	fi
}
comm -23 "$src/.perfev-managed" "$BUILD/managed.$tree" | while read -r f; do restore "$f"; done
comm -23 "$src/.perfev-removed" "$BUILD/removed.$tree" | while read -r f; do restore "$f"; done

rsync -rc "$stage/" "$src/"
while read -r f; do rm -f "$src/$f"; done < "$BUILD/removed.$tree"

mv "$BUILD/managed.$tree" "$src/.perfev-managed"
mv "$BUILD/removed.$tree" "$src/.perfev-removed"
log "overlay ($tree): $(wc -l < "$src/.perfev-managed") files managed, $(wc -l < "$src/.perfev-removed") removed"
