#!/bin/sh
# Regenerates tests/golden/tshark/: for every capture of the shared
# corpus, tshark's tcp.len histogram (the 16 most frequent sizes, "count
# size" per line) and its counts of tcp.analysis.retransmission,
# out_of_order and spurious_retransmission.  Run it
# when the corpus or tshark changes and review the diff; make check
# compares pathdoctor with these files (tests/tshark-compare.sh).
#   sh tests/tshark-golden.sh [CORPUS]
set -eu
corpus=${1:-${PD_CORPUS:-../shared/corpus}}
out=tests/golden/tshark
mkdir -p "$out"
tshark --version | head -n 1 >"$out/VERSION"
for f in "$corpus"/pcap/* "$corpus"/pcap-generated/*.pcap; do
	name=$(basename "$f")
	tshark -n -r "$f" -Y tcp -T fields -e tcp.len 2>/dev/null |
	    sort -n | uniq -c | sort -k1,1nr -k2,2n | head -n 16 |
	    awk '{print $1, $2}' >"$out/$name.sizes"
	for flag in retransmission out_of_order spurious_retransmission; do
		printf '%s ' "$(tshark -n -r "$f" -Y "tcp.analysis.$flag" \
		    2>/dev/null | wc -l | tr -d ' ')"
	done | sed 's/ $/\n/' >"$out/$name.retrans"
done
