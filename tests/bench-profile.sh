#!/bin/sh
# Profile throughput: the GX10 sample profile scaled to SCALE times its
# 9895 samples (22 make about 218k), and, as medians of RUNS runs in the
# same run, pathdoctor reading it (with its kallsyms) against
# `perf report --stdio --sort sym` on the same file and kallsyms, as a
# ratio; and pathdoctor's peak memory.  With BASELINE=BIN (another
# pathdoctor) that binary is timed too, in the same run, with the ratio.
# Never run by make check.
#   sh tests/bench-profile.sh [SCALE] [RUNS]      (defaults 22 and 3)
set -eu
scale=${1:-22}
runs=${2:-3}
bin=build/pathdoctor
dir=build/bench/profile-$scale
[ -x "$bin" ] || make -s all
command -v perf >/dev/null 2>&1 || { echo "perf is not installed"; exit 1; }
if [ ! -f "$dir/gx10-before/perf.data" ]; then
	python3 samples/gen-perf.py "$dir" "$scale"
	gzip -dc "$dir/gx10-before/perf.data.gz" >"$dir/gx10-before/perf.data"
	rm -f "$dir/gx10-before/perf.data.gz" "$dir/gx10-before/cpuinfo.txt"
	rm -rf "$dir/gx10-after"
fi
d="$dir/gx10-before"
samples=$(perf report -i "$d/perf.data" --stdio 2>/dev/null |
    sed -n 's/^# Samples: \([^ ]*\).*/\1/p' | head -n 1)
echo "profile: $d/perf.data, $(wc -c <"$d/perf.data") bytes, $samples samples"

. tests/bench-lib.sh
pr=$(timeit "perf report -i $d/perf.data --kallsyms $d/kallsyms.txt --stdio --sort sym")
echo "perf report --stdio --sort sym: ${pr} s (baseline)"
pd=$(timeit "$bin -f json $d")
echo "pathdoctor:                     ${pd} s ($(awk "BEGIN { printf \"%.1f\", $pr / $pd }")x faster)"
if [ -n "${BASELINE:-}" ]; then
	old=$(timeit "$BASELINE -f json $d")
	echo "  BASELINE:                     ${old} s (this build $(awk "BEGIN { printf \"%.2f\", $pd / $old }")x of it)"
fi
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "pathdoctor peak memory: %M KB" "$bin" -f json "$d" \
	    >/dev/null
fi
