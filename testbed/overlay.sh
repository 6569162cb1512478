#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make build/src-new = pristine base + our overlay + patches/series - removed.
#
# Idempotent and incremental: the desired content of every file we manage is
# staged first and synced with checksums, so a file whose content did not
# change keeps its mtime and make rebuilds only what really changed.  Files we
# managed before and no longer do are restored from the base.
. "$(dirname "$0")/common.sh"

base=$(base_dir)
src="$BUILD/src-new"
stage="$BUILD/stage-new"
removed_manifest="$TOP/testbed/removed-files"

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

# 1. Our files, at kernel-tree paths: every top-level directory of the repo
#    that is also a top-level directory of the kernel tree.
roots=()
for d in "$TOP"/*/; do
	d=$(basename "$d")
	[ -d "$base/$d" ] && roots+=("$d")
done
if [ ${#roots[@]} -gt 0 ]; then
	(cd "$TOP" && git ls-files -co --exclude-standard -- "${roots[@]}") |
		while read -r f; do
			[ -f "$TOP/$f" ] || continue
			mkdir -p "$stage/$(dirname "$f")"
			cp "$TOP/$f" "$stage/$f"
		done
fi

# 2. Small edits to base files, in series order.
if [ -f "$TOP/patches/series" ]; then
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
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

(cd "$stage" && find . -type f | sed 's#^\./##' | sort) > "$BUILD/managed.new"
if [ -f "$removed_manifest" ]; then
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$removed_manifest" | sort -u > "$BUILD/removed.new"
else
	: > "$BUILD/removed.new"
fi

restore() { # path: put back the base's version, or drop a file we added
	rm -f "$src/$1"
	if [ -f "$base/$1" ]; then
		mkdir -p "$src/$(dirname "$1")"
		cp "$base/$1" "$src/$1"	# no -p: a fresh mtime makes make rebuild it
	fi
}
comm -23 "$src/.perfev-managed" "$BUILD/managed.new" | while read -r f; do restore "$f"; done
comm -23 "$src/.perfev-removed" "$BUILD/removed.new" | while read -r f; do restore "$f"; done

rsync -rc "$stage/" "$src/"
while read -r f; do rm -f "$src/$f"; done < "$BUILD/removed.new"

mv "$BUILD/managed.new" "$src/.perfev-managed"
mv "$BUILD/removed.new" "$src/.perfev-removed"
log "overlay: $(wc -l < "$src/.perfev-managed") files managed, $(wc -l < "$src/.perfev-removed") removed"
