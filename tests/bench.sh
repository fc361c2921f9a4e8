#!/bin/sh
# Capture throughput and memory against the machine's floors.  Builds one
# large capture of about SIZE bytes by replication (tests/gen-capture.py:
# each copy's timestamps moved on and addresses shifted, so flows
# multiply) of the corpus's gsogen capture where ../shared/corpus is
# present, else of the sample nic2.pcap; packs it as .tgz, .tar.zst and
# .tar.xz and converts it to pcapng, then prints, as medians of RUNS runs
# measured in the same run, each median, each floor and each ratio with
# its target (each pair of commands run in turn, A B A B ..., and the
# ratio the median of the pairs' ratios: the machine's drift falls on
# both alike):
#   .tgz      pathdoctor against `igzip -dc` (ISA-L's inflate, <= 1.15x)
#             and `bsdtar -xOf` (<= 0.85x); gzip -dc and --one-thread too
#   .tar.zst  against `bsdtar -xOf` (<= 1.3x)
#   .tar.xz   against `bsdtar -xOf` (no target: xz's decoder is the floor)
#   .pcap     against `tcpdump -r F -w /dev/null`, libpcap's bare read
#             (<= 1.0x)
#   .pcapng   the same packets, against pathdoctor on the .pcap (<= 1.10x)
#   memory    pathdoctor's peak on each input (<= 32 MB)
# With BENCH_BIG=GB (e.g. 10) a capture of about GB gigabytes streamed
# through a pipe into `pathdoctor -`, at a tenth, a quarter and all of
# it: CPU ns per packet (linear time: the same at every size) and peak
# memory (constant).  With BENCH_TSHARK=1 tshark computing the tcp.len
# histogram on the .pcap, one run (>= 500x pathdoctor's time).  With
# BASELINE=BIN another pathdoctor (a build of an earlier commit) is
# timed on the same inputs in the same run, with the ratio.  A floor
# whose program is missing is said and its ratio left out.  Never run by
# make check.
#   sh tests/bench.sh [SIZE] [RUNS]      (defaults 450M and 3)
set -eu
size=${1:-450M}
runs=${2:-3}
bin=build/pathdoctor
dir=build/bench
mkdir -p "$dir"
[ -x "$bin" ] || make -s all
. tests/bench-lib.sh

echo "machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' \
    /proc/cpuinfo | head -n 1), Linux $(uname -r)"
src=../shared/corpus/pcap-generated/gsogen-before-enp3s0-1448B-swgso.pcap
[ -f "$src" ] || src=samples/bundles/gx10-before/pcap/nic2.pcap
# packets in a pcap (little-endian, as the generator's sources are)
count() {
	python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); p, n = 24, 0
while p + 16 <= len(d):
    p += 16 + struct.unpack_from("<I", d, p + 8)[0]; n += 1
print(n)' "$1"
}
pcap=$dir/bench-$size.pcap
if [ ! -f "$pcap" ]; then
	python3 tests/gen-capture.py "$src" "$size" >"$pcap.tmp"
	mv "$pcap.tmp" "$pcap"
fi
b=$dir/bench-$size.tgz
if [ ! -f "$b" ]; then
	mkdir -p "$dir/h/pcap"
	ln -f "$pcap" "$dir/h/pcap/nic2.pcap"
	tar -C "$dir" -cf "$dir/bench-$size.tar" h
	rm -rf "$dir/h"
	gzip -c "$dir/bench-$size.tar" >"$b"
	zstd -q -c "$dir/bench-$size.tar" >"$dir/bench-$size.tar.zst"
	xz -T0 -3 -c "$dir/bench-$size.tar" >"$dir/bench-$size.tar.xz"
	rm -f "$dir/bench-$size.tar"
fi
ng=$dir/bench-$size.pcapng
if [ ! -f "$ng" ] && command -v editcap >/dev/null 2>&1; then
	editcap -F pcapng "$pcap" "$ng"
fi
packets=$(count "$pcap")
echo "capture: $pcap from $src, $(wc -c <"$pcap") bytes, $packets packets;" \
    ".tgz $(wc -c <"$b") bytes; $runs runs each"
echo

# row LABEL SECONDS FLOOR_LABEL FLOOR_SECONDS RATIO TARGET: one line of
# the table, and whether RATIO meets TARGET (a ratio; "-" for none)
rows=$dir/rows.$$
: >"$rows"
row() {
	awk -v l="$1" -v s="$2" -v fl="$3" -v f="$4" -v r="$5" -v t="$6" \
	    'BEGIN {
	    verdict = t == "-" ? "" : (r <= t + 0 ? "met" : "NOT met")
	    printf "| %s | %.3f s | %s %.3f s | %.2fx | %s %s |\n", l, s, fl,
	        f, r, t == "-" ? "" : "<= " t "x", verdict }' >>"$rows"
}
have() { command -v "$1" >/dev/null 2>&1; }
say() { printf '%-34s %s\n' "$1" "$2"; }
# versus LABEL CMD FLOOR_LABEL FLOOR_CMD TARGET: the two timed in turn
# (pairtime), said, and a row of the table with the median ratio
versus() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" "$4" "$5" $(pairtime "$2" "$4")
	say "$1 against $3:" "$6 s and $7 s, $8x"
	row "$1" "$6" "$3" "$7" "$8" "$5"
}

# the .tgz: ISA-L's inflate and bsdtar are the floors
versus ".tgz --one-thread" "$bin --one-thread -f json $b" \
    "pathdoctor .tgz" "$bin -f json $b" -
versus ".tgz" "$bin -f json $b" "gzip -dc" "gzip -dc $b" -
if have igzip; then
	versus ".tgz" "$bin -f json $b" "igzip -dc" "igzip -dc $b" 1.15
else
	say "igzip -dc:" "not installed (Debian: isal)"
fi
for form in tgz tar.zst tar.xz; do
	f=$dir/bench-$size.$form
	if have bsdtar; then
		case $form in
		tgz) target=0.85 ;; tar.zst) target=1.3 ;; *) target=- ;;
		esac
		versus ".$form" "$bin -f json $f" "bsdtar -xOf" \
		    "bsdtar -xOf $f" "$target"
	else
		say "bsdtar -xOf:" "not installed (Debian: libarchive-tools)"
	fi
	if [ -n "${BASELINE:-}" ]; then
		versus ".$form" "$bin -f json $f" "BASELINE" \
		    "$BASELINE -f json $f" -
	fi
done

# the plain capture: libpcap's bare read is the floor
if have tcpdump; then
	versus ".pcap" "$bin -f json $pcap" "tcpdump -r -w null" \
	    "tcpdump -r $pcap -w /dev/null" 1.0
fi
if [ -f "$ng" ]; then
	versus ".pcapng" "$bin -f json $ng" "pathdoctor .pcap" \
	    "$bin -f json $pcap" 1.10
else
	say "pathdoctor .pcapng:" "no editcap (Debian: tshark) to convert"
fi
if [ -n "${BASELINE:-}" ]; then
	versus ".pcap" "$bin -f json $pcap" "BASELINE" \
	    "$BASELINE -f json $pcap" -
fi

# peak memory on each input
mem=""
for f in "$b" "$dir/bench-$size.tar.zst" "$dir/bench-$size.tar.xz" \
    "$pcap" "$ng"; do
	[ -f "$f" ] || continue
	kb=$(python3 tests/bench-peak.py "$bin" -f json "$f" | cut -d' ' -f2)
	say "peak memory ${f##*.}:" "$kb KB"
	mem="$mem $kb"
done

# a capture of BENCH_BIG gigabytes streamed into stdin: time per packet
# and peak memory at a tenth, a quarter and the whole; the time per
# packet is pathdoctor's CPU time, since the generator (Python) is the
# slower end of the pipe
if [ -n "${BENCH_BIG:-}" ]; then
	per_copy=$(($(wc -c <"$src") - 24))
	per_pkts=$(count "$src")
	for part in 10 4 1; do
		n=$(awk -v g="$BENCH_BIG" -v p="$part" -v c="$per_copy" \
		    'BEGIN { printf "%d", g * 1e9 / p / c }')
		out=$(python3 tests/bench-peak.py --stdin-from \
		    "python3 tests/gen-capture.py $src $n" "$bin" -f json -)
		set -- $out
		awk -v n="$n" -v s="$1" -v kb="$2" -v cpu="$3" \
		    -v p="$per_pkts" -v c="$per_copy" 'BEGIN {
		    printf "%-34s %.2f s CPU, %.1f ns a packet (wall %.2f s, " \
		        "set by the generator), peak %d KB\n",
		        sprintf("stream of %.2f GB, %d packets:", n * c / 1e9,
		        n * p), cpu, cpu * 1e9 / (n * p), s, kb }'
		mem="$mem $2"
	done
fi
if [ "${BENCH_TSHARK:-0}" = 1 ] && have tshark; then
	pp=$(timeit "$bin -f json $pcap")
	# one run (minutes on a large capture); its time and peak memory
	out=$(python3 tests/bench-peak.py tshark -n -r "$pcap" -T fields \
	    -e tcp.len)
	set -- $out
	say "tshark tcp.len histogram:" "$1 s, peak $2 KB (one run)"
	awk -v t="$1" -v p="$pp" 'BEGIN { r = t / p
	    printf "| .pcap, tshark | %.3f s | tshark %.3f s | %.0fx faster " \
	        "| >= 500x %s |\n", p, t, r, (r >= 500 ? "met" : "NOT met") }' \
	    >>"$rows"
fi

echo
echo "| input | pathdoctor | floor | ratio | target |"
echo "|---|---|---|---|---|"
cat "$rows"
echo "$mem" | awk '{ m = 0; for (i = 1; i <= NF; i++) if ($i > m) m = $i
    printf "| peak memory, every input | %d KB | | | <= 32768 KB %s |\n",
        m, m <= 32768 ? "met" : "NOT met" }'
rm -f "$rows"
