#!/bin/sh
# The committed sample bundles must be exactly what their trees make.
# (The captures in the trees come from real traffic and differ from run
# to run; tests/kernel-captures.sh checks the script that makes them.  The
# GX10 profiles come from samples/gen-perf.py, byte for byte.)
set -u
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in samples/bundles/*/; do
	name=$(basename "$dir")
	sh samples/make-bundle.sh "samples/bundles/$name" "$tmp/$name.tgz" \
	    2>"$tmp/err"
	ran "samples $name.tgz: samples/make-bundle.sh" $? "$tmp/err" ||
	    continue
	if cmp -s "$tmp/$name.tgz" "samples/$name.tgz"; then
		echo "ok samples $name.tgz reproducible"
	else
		echo "not ok samples $name.tgz differs from its text (make samples)"
	fi
done
if command -v python3 >/dev/null 2>&1; then
	python3 samples/gen-perf.py "$tmp/perf" 2>"$tmp/err"
	if ran "samples profiles: samples/gen-perf.py" $? "$tmp/err" &&
	    [ -z "$(find "$tmp/perf" -type f 2>/dev/null)" ]; then
		echo "not ok samples profiles: samples/gen-perf.py wrote nothing"
	fi
	for f in $(cd "$tmp/perf" 2>/dev/null && find . -type f | sort); do
		if cmp -s "$tmp/perf/$f" "samples/bundles/$f"; then
			echo "ok samples ${f#./} reproducible"
		else
			echo "not ok samples ${f#./} differs from samples/gen-perf.py"
		fi
	done
else
	echo "not ok samples profiles # SKIP python3 not installed"
fi
