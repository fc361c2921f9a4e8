#!/bin/sh
# Fleet throughput: bundles per second of `pathdoctor -f jsonl` over
# every sample .tgz, repeated to make at least BUNDLES (default 200), at
# -j 1 and -j 2, medians of RUNS runs (default 3) in the same run; beside
# them the same bundles one `pathdoctor -f json` process each (what a
# shell loop costs) and `sha256sum` over them (the content hash's own
# pass, from the page cache); then the rate at which `pathdoctor ingest`
# stores those JSON lines into SQLite and into a PostgreSQL started for
# the run (tests/bench-ingest.py).  The machine's cores are printed first.
# Never run by make check.
#   sh tests/bench-fleet.sh [BUNDLES] [RUNS]
set -eu
want=${1:-200}
runs=${2:-3}	# read by timeit (tests/bench-lib.sh)
export runs
bin=build/pathdoctor
[ -x "$bin" ] || make -s all
# shellcheck source=tests/bench-lib.sh
. tests/bench-lib.sh

echo "cores: $(getconf _NPROCESSORS_ONLN) online ($(nproc) usable)"
list=""
n=0
while [ "$n" -lt "$want" ]; do
	for b in samples/*.tgz; do
		list="$list $b"
		n=$((n + 1))
	done
done
bytes=$(for b in $list; do wc -c <"$b"; done | awk '{s += $1} END {print s}')
echo "bundles: $n (every sample .tgz, repeated), $bytes bytes"

rate() { awk "BEGIN { printf \"%.1f\", $n / $1 }"; }
loop=$(timeit "for b in $list; do $bin -f json \$b; done")
echo "one -f json process per bundle: ${loop} s, $(rate "$loop") bundles/s"
t1=$(timeit "$bin -f jsonl -j 1 $list")
echo "-f jsonl -j 1: ${t1} s, $(rate "$t1") bundles/s"
t2=$(timeit "$bin -f jsonl -j 2 $list")
echo "-f jsonl -j 2: ${t2} s, $(rate "$t2") bundles/s"
echo "-j 2 against -j 1: $(awk "BEGIN { printf \"%.2f\", $t1 / $t2 }")x"
h=$(timeit "sha256sum $list")
echo "sha256sum of the same bundles: ${h} s ($(awk "BEGIN { printf \"%.1f\", 100 * $h / $t1 }") % of -j 1)"
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
"$bin" -f jsonl -j 2 $list >"$lines" || true
python3 tests/bench-ingest.py "$bin" "$lines" "$runs"
