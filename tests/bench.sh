#!/bin/sh
# Capture throughput and memory: builds a bundle holding one large
# capture (the sample nic2.pcap repeated, timestamps moved on) and times
# pathdoctor beside gzip -dc and tcpdump -r on the same data; prints the
# median of RUNS runs and the ratio to gzip -dc, and pathdoctor's peak
# memory.  Benchmarks are never run by make check.
#   sh tests/bench.sh [COPIES] [RUNS]      (defaults 400 and 3)
set -eu
copies=${1:-400}
runs=${2:-3}
bin=build/pathdoctor
dir=build/bench
mkdir -p "$dir"
[ -x "$bin" ] || make -s all
if [ ! -f "$dir/bench-$copies.tgz" ]; then
	python3 - "$copies" "$dir/h/pcap/nic2.pcap" <<'PY'
import os, struct, sys
copies, out = int(sys.argv[1]), sys.argv[2]
src = open("samples/bundles/gx10-before/pcap/nic2.pcap", "rb").read()
os.makedirs(os.path.dirname(out), exist_ok=True)
recs, pos = [], 24
while pos + 16 <= len(src):
    sec, usec, cap, length = struct.unpack_from("<IIII", src, pos)
    recs.append((sec, usec, src[pos + 16:pos + 16 + cap], length))
    pos += 16 + cap
with open(out, "wb") as f:
    f.write(src[:24])
    for c in range(copies):
        for sec, usec, data, length in recs:
            f.write(struct.pack("<IIII", sec + 3 * c, usec, len(data), length))
            f.write(data)
PY
	tar -C "$dir" -czf "$dir/bench-$copies.tgz" h
	rm -rf "$dir/h"
fi
b="$dir/bench-$copies.tgz"
echo "bundle: $b, $(wc -c <"$b") bytes compressed, $(gzip -dc "$b" | wc -c) bytes of tar"

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
timeit() {
	i=0
	while [ $i -lt "$runs" ]; do
		s=$(date +%s.%N)
		sh -c "$1" >/dev/null 2>&1
		e=$(date +%s.%N)
		awk "BEGIN { printf \"%.3f\\n\", $e - $s }"
		i=$((i + 1))
	done | median
}
base=$(timeit "gzip -dc $b")
echo "gzip -dc:          ${base} s (baseline)"
pd=$(timeit "$bin -f json $b")
echo "pathdoctor:        ${pd} s ($(awk "BEGIN { printf \"%.2f\", $pd / $base }")x gzip -dc)"
if command -v tcpdump >/dev/null 2>&1; then
	td=$(timeit "gzip -dc $b | tar -xOf - | tcpdump -nr - ")
	echo "gzip|tar|tcpdump:  ${td} s ($(awk "BEGIN { printf \"%.2f\", $td / $base }")x gzip -dc)"
fi
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "pathdoctor peak memory: %M KB" "$bin" -f json "$b" \
	    >/dev/null
fi
