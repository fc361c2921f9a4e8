#!/bin/sh
# Profile throughput, as medians of RUNS runs in the same run, each
# against `perf report --stdio --sort sym` on the same file and symbol
# sources, the two run in turn and the ratio the median of the pairs';
# and pathdoctor's peak memory.
#
# 1. The GX10 sample profile scaled to SCALE times its 9895 samples (22
#    make about 218k, with call chains) and its kallsyms.
# 2. A real profile of this machine: `perf record -a -g` for
#    REAL_SECONDS (default 10; 0 leaves it out) while a gzip and a
#    sha256sum loop run on every core, so that user-space stacks exist;
#    `perf archive` of it; a bundle holding perf.data, /proc/kallsyms
#    and the archive's build-id cache unpacked under perf/ (as perf
#    archive's tarball reads inside a bundle); perf report given the
#    same cache with --buildid-dir.  Made once, then reused: remove
#    build/bench/profile-real to record again.
#
# With BASELINE=BIN (another pathdoctor) that binary is timed too, in
# the same run, with the ratio.  Never run by make check.
#   sh tests/bench-profile.sh [SCALE] [RUNS]      (defaults 22 and 3)
set -eu
scale=${1:-22}
runs=${2:-3}
real=${REAL_SECONDS:-10}
bin=build/pathdoctor
dir=build/bench/profile-$scale
[ -x "$bin" ] || make -s all
command -v perf >/dev/null 2>&1 || { echo "perf is not installed"; exit 1; }
. tests/bench-lib.sh
echo "machine: $(nproc) cores, $(uname -r)"

# compare NAME BUNDLE PERF_REPORT_COMMAND: each pair timed in turn
# (pairtime), the ratio the median of the pairs'
compare() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" $(pairtime "$3" "$bin -f json $2")
	echo "$1: perf report --stdio --sort sym: $4 s (the floor)"
	echo "$1: pathdoctor:                     $5 s" \
	    "($(awk -v r="$6" 'BEGIN { printf "%.1f", r }')x faster)"
	if [ -n "${BASELINE:-}" ]; then
		# shellcheck disable=SC2046
		set -- "$1" "$2" "$3" $(pairtime "$bin -f json $2" \
		    "$BASELINE -f json $2")
		echo "$1:   BASELINE:                     $5 s (this build" \
		    "$4 s beside it, $(awk -v r="$6" \
		    'BEGIN { printf "%.2f", r }')x of it)"
	fi
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "$1: pathdoctor peak memory: %M KB" \
		    "$bin" -f json "$2" >/dev/null
	fi
}

samples_of() {
	perf report -i "$1" --stdio 2>/dev/null |
	    sed -n 's/^# Samples: \([^ ]*\).*/\1/p' | head -n 1
}

if [ ! -f "$dir/gx10-before/perf.data" ]; then
	python3 samples/gen-perf.py "$dir" "$scale"
	gzip -dc "$dir/gx10-before/perf.data.gz" >"$dir/gx10-before/perf.data"
	rm -f "$dir/gx10-before/perf.data.gz" "$dir/gx10-before/cpuinfo.txt"
	rm -rf "$dir/gx10-after"
fi
d="$dir/gx10-before"
echo "scaled: $d/perf.data, $(wc -c <"$d/perf.data") bytes," \
    "$(samples_of "$d/perf.data") samples"
compare scaled "$d" \
    "perf report -i $d/perf.data --kallsyms $d/kallsyms.txt --stdio --sort sym"

[ "$real" -gt 0 ] || exit 0
r=build/bench/profile-real
# record: every core busy in user space for the whole recording
record_real() {
	rm -rf "$r"
	mkdir -p "$r/bundle/perf" "$r/buildid"
	head -c 16777216 /dev/urandom >"$r/load.bin"
	pids=
	i=0
	while [ $i -lt "$(nproc)" ]; do
		sh -c "while :; do gzip -1 -c $r/load.bin >/dev/null;
		    sha256sum $r/load.bin >/dev/null; done" &
		pids="$pids $!"
		i=$((i + 1))
	done
	# a machine without a hardware PMU (a VM) records cpu-clock
	perf record -a -g -o "$r/perf.data" -- sleep "$real" 2>/dev/null ||
	    perf record -e cpu-clock -a -g -o "$r/perf.data" -- \
	    sleep "$real" 2>/dev/null
	for p in $pids; do kill "$p"; done
	wait 2>/dev/null || true
	rm -f "$r/load.bin"
	if ! (cd "$r" && perf archive perf.data >/dev/null 2>&1); then
		echo "real: perf archive failed; no real profile"
		rm -rf "$r"
		exit 0
	fi
	cp "$r/perf.data" "$r/bundle/perf.data"
	cat /proc/kallsyms >"$r/bundle/kallsyms.txt"
	tar xjf "$r/perf.data.tar.bz2" -C "$r/bundle/perf"
	tar xjf "$r/perf.data.tar.bz2" -C "$r/buildid"
}
[ -f "$r/bundle/perf.data" ] || record_real
b="$r/bundle"
echo "real: $b/perf.data, $(wc -c <"$b/perf.data") bytes," \
    "$(samples_of "$b/perf.data") samples; build-id cache" \
    "$(find "$b/perf" -type f | wc -l) files," \
    "$(du -sk "$b/perf" | cut -f1) KB"
compare real "$b" "perf --buildid-dir $r/buildid report -i $b/perf.data \
--kallsyms $b/kallsyms.txt --stdio --sort sym"
