#!/bin/sh
# The committed sample bundles must be exactly what their text makes.
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
if command -v python3 >/dev/null 2>&1; then
	python3 samples/gen-pcap.py "$tmp/pcaps"
	for f in $(cd "$tmp/pcaps" && find . -name '*.pcap' | sort); do
		if cmp -s "$tmp/pcaps/$f" "samples/bundles/$f"; then
			echo "ok samples ${f#./} reproducible"
		else
			echo "not ok samples ${f#./} differs from samples/gen-pcap.py"
		fi
	done
else
	echo "not ok samples pcaps # SKIP python3 not installed"
fi
