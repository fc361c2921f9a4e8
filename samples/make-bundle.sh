#!/bin/sh
# Packs a sample tree into a byte-for-byte reproducible .tgz:
#   sh samples/make-bundle.sh samples/bundles/gx10-before samples/gx10-before.tgz
# Names are sorted, times, owners and modes fixed, gzip without a name or
# time stamp, so the same text always gives the same bundle.
set -eu
src=$1
out=$2
dir=$(dirname "$src")
name=$(basename "$src")
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --mode='u=rwX,go=rX' --format=gnu -C "$dir" -cf - "$name" |
    gzip -n -9 >"$tmp"
mv "$tmp" "$out"
trap - EXIT
