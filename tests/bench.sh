#!/bin/sh
# Capture throughput and memory: builds a bundle holding one large
# capture (the sample nic2.pcap repeated, timestamps moved on; 1850
# copies make about 1.5 GB) and prints, as medians of RUNS runs measured
# in the same run: on the .tgz, pathdoctor (decompressing on a second
# thread, and with --one-thread) against bsdtar -xOf (the decompression
# floor) and gzip -dc; on the extracted capture,
# pathdoctor against tcpdump -r FILE -w /dev/null (libpcap's bare read);
# with BENCH_TSHARK=1 also tshark computing the tcp.len histogram; and
# pathdoctor's peak memory.  With BASELINE=BIN (another pathdoctor, e.g.
# a build of an earlier commit) that binary is timed too, on the same
# inputs in the same run, and the ratio printed.  Never run by make check.
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

. tests/bench-lib.sh
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }
if command -v bsdtar >/dev/null 2>&1; then
	base=$(timeit "bsdtar -xOf $b")
	echo "bsdtar -xOf:        ${base} s (baseline for the .tgz)"
else
	base=$(timeit "gzip -dc $b")
	echo "gzip -dc:           ${base} s (baseline; no bsdtar)"
fi
gz=$(timeit "gzip -dc $b")
echo "gzip -dc:           ${gz} s ($(ratio "$gz" "$base")x)"
pd=$(timeit "$bin -f json $b")
echo "pathdoctor .tgz:    ${pd} s ($(ratio "$pd" "$base")x)"
pd1=$(timeit "$bin --one-thread -f json $b")
echo "  --one-thread:     ${pd1} s ($(ratio "$pd1" "$base")x)"
if [ -n "${BASELINE:-}" ]; then
	old=$(timeit "$BASELINE -f json $b")
	echo "  BASELINE .tgz:    ${old} s (this build $(ratio "$pd" "$old")x of it)"
fi
pcap="$dir/bench-$copies.pcap"
[ -f "$pcap" ] || tar -xOzf "$b" >"$pcap"
if command -v tcpdump >/dev/null 2>&1; then
	bare=$(timeit "tcpdump -r $pcap -w /dev/null")
	echo "tcpdump -r -w null: ${bare} s (baseline for the capture)"
	pp=$(timeit "$bin -f json $pcap")
	echo "pathdoctor .pcap:   ${pp} s ($(ratio "$pp" "$bare")x)"
	if [ -n "${BASELINE:-}" ]; then
		old=$(timeit "$BASELINE -f json $pcap")
		echo "  BASELINE .pcap:   ${old} s (this build $(ratio "$pp" "$old")x of it)"
	fi
	if [ "${BENCH_TSHARK:-0}" = 1 ] && command -v tshark >/dev/null 2>&1; then
		# one run (minutes on 1.5 GB); its time and peak memory at once
		/usr/bin/time -f "%e %M" -o "$dir/tshark.time" sh -c "tshark -n \
		    -r $pcap -T fields -e tcp.len | sort | uniq -c" >/dev/null
		read -r ts tsmem <"$dir/tshark.time"
		echo "tshark histogram:   ${ts} s ($(ratio "$ts" "$bare")x," \
		    "one run), peak memory ${tsmem} KB"
	fi
fi
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "pathdoctor peak memory (.tgz): %M KB" "$bin" -f json \
	    "$b" >/dev/null
fi
