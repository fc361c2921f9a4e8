#!/bin/sh
# The committed sample bundles must be exactly what their trees make.
# (The captures in the trees come from real traffic and differ from run
# to run; tests/kernel-captures.sh checks the script that makes them.)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in samples/bundles/*/; do
	name=$(basename "$dir")
	sh samples/make-bundle.sh "samples/bundles/$name" "$tmp/$name.tgz"
	if cmp -s "$tmp/$name.tgz" "samples/$name.tgz"; then
		echo "ok samples $name.tgz reproducible"
	else
		echo "not ok samples $name.tgz differs from its text (make samples)"
	fi
done
