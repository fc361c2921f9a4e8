#!/bin/sh
# Regenerates tests/golden/tshark/ from tshark's reading of every capture
# in the shared corpus (pcap/, pcap-generated/), in the samples
# (samples/bundles/.../pcap/) and in tests/data-capture/:
#   LIST         "NAME INPUT" a capture; INPUT corpus:PATH is PATH in the
#                corpus, anything else a path in the repository
#   NAME.sizes   the 16 most frequent tcp.len values, "count size" a line
#   NAME.tcp     tshark's TCP analysis, "key count" a line:
#     retransmission, fast_retransmission, spurious_retransmission,
#     out_of_order, keep_alive, zero_window_probe: frames with that
#       tcp.analysis flag (fast and spurious ones are retransmissions too)
#     captured_twice: retransmission and out_of_order frames that repeat
#       an earlier frame of their direction, the same IP packet captured
#       twice: the same tcp.seq, tcp.len and IP ID, the same TCP header
#       fields and payload, within 0.5 s when the ID is not zero, else
#       within 1 ms (in either order of time, as capture hardware with
#       two clocks stamps them)
#     captured_twice_out_of_order: those of them tshark flags
#       out_of_order
#     resent_len: tcp.len of the other retransmission frames
#     resent_bytes: the part of those bytes below the highest sequence
#       number their direction had reached (a segment that overlaps what
#       was sent only in part brings new data too)
# Run it when the corpus, the samples' captures or tshark change and
# review the diff; make check compares pathdoctor with these files
# (tests/tshark-compare.sh).
#   sh tests/tshark-golden.sh [CORPUS]
set -eu
corpus=${1:-${PD_CORPUS:-../shared/corpus}}
out=tests/golden/tshark
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*.sizes "$out"/*.tcp "$out"/*.retrans
tshark --version | head -n 1 >"$out/VERSION"
{
	echo "# NAME INPUT: the captures compared with tshark (tests/tshark-golden.sh)"
	for f in "$corpus"/pcap/* "$corpus"/pcap-generated/*.pcap; do
		echo "$(basename "$f") corpus:${f#"$corpus"/}"
	done
	find samples -name '*.pcap' | sort | while read -r f; do
		n=${f#samples/bundles/}
		echo "sample-$(echo "$n" | sed 's,/pcap/,/,; s,/,-,g') $f"
	done
	for f in tests/data-capture/*.pcap; do
		# tshark reassembles IP fragments, pathdoctor counts them
		# (formats/README.md); the unit tests check that file
		case $f in *fragmented*) continue ;; esac
		echo "data-$(basename "$f") $f"
	done
} >"$out/LIST"
grep -v '^#' "$out/LIST" | while read -r name input; do
	case $input in
	corpus:*) f=$corpus/${input#corpus:} ;;
	*) f=$input ;;
	esac
	python3 - "$f" "$out/$name" <<'PY'
import subprocess, sys
path, dest = sys.argv[1:3]
fields = ["frame.time_epoch", "tcp.stream", "ip.src", "ipv6.src",
          "tcp.srcport", "ip.id", "tcp.seq_raw", "tcp.len", "tcp.flags.syn",
          "tcp.flags.fin", "tcp.ack_raw", "tcp.flags", "tcp.window_size_value",
          "tcp.checksum", "tcp.options", "tcp.payload"]
flags = ["retransmission", "fast_retransmission", "spurious_retransmission",
         "out_of_order", "keep_alive", "zero_window_probe"]
cmd = ["tshark", "-n", "-r", path, "-Y", "tcp", "-T", "fields",
       "-E", "occurrence=l"]  # the inner headers of a tunnel
for f in fields + ["tcp.analysis." + f for f in flags]:
    cmd += ["-e", f]
run = subprocess.run(cmd, capture_output=True, text=True, check=True)
sizes, count = {}, dict.fromkeys(flags + ["captured_twice",
                                          "captured_twice_out_of_order",
                                          "resent_len", "resent_bytes"], 0)
seen, highest = {}, {}
for line in run.stdout.splitlines():
    v = dict(zip(fields + flags, line.split("\t")))
    ln = int(v["tcp.len"] or 0)
    sizes[ln] = sizes.get(ln, 0) + 1
    for f in flags:
        count[f] += v[f] != ""
    d = (v["tcp.stream"], v["ip.src"] or v["ipv6.src"], v["tcp.srcport"])
    seq, ts = int(v["tcp.seq_raw"]), float(v["frame.time_epoch"])
    ipid = int(v["ip.id"], 16) if v["ip.id"] else 0
    span = ln + sum(v[f] in ("1", "True") for f in
                    ("tcp.flags.syn", "tcp.flags.fin"))
    earlier = seen.setdefault((d, seq, span), [])
    same = tuple(v[f] for f in fields[10:])  # the TCP bytes, field by field
    if v["retransmission"] or v["out_of_order"]:
        if any(i == ipid and b == same and
               abs(ts - t) < (0.5 if ipid else 0.001) for i, b, t in earlier):
            count["captured_twice"] += 1
            count["captured_twice_out_of_order"] += v["out_of_order"] != ""
        elif v["retransmission"]:
            count["resent_len"] += ln
            again = (highest.get(d, seq) - seq) % 2**32
            count["resent_bytes"] += min(ln, again) if again < 2**31 else 0
    earlier.append((ipid, same, ts))
    end = (seq + span) % 2**32
    if d not in highest or (end - highest[d]) % 2**32 < 2**31:
        highest[d] = end
top = sorted(sizes.items(), key=lambda s: (-s[1], s[0]))[:16]
with open(dest + ".sizes", "w") as o:
    o.writelines("%d %d\n" % (n, size) for size, n in top)
with open(dest + ".tcp", "w") as o:
    o.writelines("%s %d\n" % kv for kv in count.items())
PY
done
