#!/bin/sh
# pathdoctor's capture analysis against tshark's on the same files: every
# capture of the corpus, of the samples and of tests/data-capture in
# tests/golden/tshark/LIST,
# with tshark's figures beside it (NAME.sizes and NAME.tcp, made by
# tests/tshark-golden.sh, which says what each figure is).  Per capture,
# one check for each of:
#  - sizes: every one of tshark's 16 most frequent tcp.len values has
#    exactly tshark's count in pathdoctor's payload_sizes;
#  - and the categories of segments that start below the highest
#    sequence already sent, each exactly (see the table in the script).
# Corpus captures are skipped without the corpus (a failure when
# CI=true).
set -u
. tests/lib.sh
bin=$1
corpus=${PD_CORPUS:-../shared/corpus}
golden=tests/golden/tshark
if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok tshark # SKIP python3 not installed"
	exit 0
fi
have_corpus=1
no_corpus "tshark corpus captures" && have_corpus=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$golden/LIST" >"$tmp/list"
while read -r name input; do
	case $input in
	corpus:*)
		[ -n "$have_corpus" ] || continue
		f=$corpus/${input#corpus:}
		if [ ! -f "$f" ]; then
			echo "not ok tshark $name # SKIP not in the corpus"
			continue
		fi
		;;
	*)
		f=$input
		;;
	esac
	"$bin" -f json "$f" >"$tmp/json" 2>"$tmp/err" </dev/null
	ran "tshark $name" $? "$tmp/err" || continue
	"$bin" --dump-model "$f" >"$tmp/model" 2>"$tmp/err" </dev/null
	ran "tshark $name (--dump-model)" $? "$tmp/err" || continue
	python3 - "$tmp/json" "$tmp/model" "$golden/$name" "$name" <<'PY' ||
import json, re, sys
report, model, golden, name = sys.argv[1:5]
caps = json.load(open(report))["captures"]
def check(what, ok, detail):
    print("%s tshark %s %s%s" % ("ok" if ok else "not ok", what, name,
                                 "" if ok else ": " + detail))
ours = {}
for c in caps:
    for s in c["payload_sizes"]:
        ours[s["bytes"]] = ours.get(s["bytes"], 0) + s["count"]
bad = []
for line in open(golden + ".sizes"):
    count, size = map(int, line.split())
    if ours.get(size, 0) != count:
        bad.append("%d B: tshark %d, pathdoctor %d" % (size, count,
                                                       ours.get(size, 0)))
check("sizes", not bad, "; ".join(bad))
t = {k: int(v) for k, v in (line.split() for line in open(golden + ".tcp"))}
mine = {k: sum(c[k] for c in caps) for k in
        ("retransmissions", "capture_duplicates", "retransmitted_bytes",
         "out_of_order")}
for k in ("keep-alives", "window probes"):
    mine[k] = sum(int(n) for n in re.findall(k + r" (\d+),", open(model).read()))
# pathdoctor's figure, tshark's, and why they are the same number:
for what, got, theirs, how in (
    # tshark has no category for the same IP packet captured twice: it
    # flags the copy a retransmission, or out_of_order when the copy is
    # stamped before the original; tshark-golden.sh finds the copies by
    # sequence, length, IP ID and the TCP fields and payload, close in
    # time (formats/README.md, "Capture duplicates")
    ("capture duplicates", mine["capture_duplicates"], t["captured_twice"],
     "tshark's retransmission and out_of_order frames that repeat an "
     "earlier IP packet"),
    # tshark's order of tests, pathdoctor's too: fast retransmission
    # (after two duplicate ACKs), spurious (already acknowledged),
    # out_of_order (within the handshake's round trip, or 3 ms, of the
    # highest sequence moving on), else a retransmission
    ("retransmissions", mine["retransmissions"],
     t["retransmission"] - t["captured_twice"] +
     t["captured_twice_out_of_order"],
     "tshark %d retransmission (%d fast, %d spurious) - %d captured twice"
     % (t["retransmission"], t["fast_retransmission"],
        t["spurious_retransmission"],
        t["captured_twice"] - t["captured_twice_out_of_order"])),
    ("out of order", mine["out_of_order"],
     t["out_of_order"] - t["captured_twice_out_of_order"],
     "tshark %d out_of_order - %d captured twice" % (
         t["out_of_order"], t["captured_twice_out_of_order"])),
    # pathdoctor counts the part of a segment below the highest sequence
    # already sent; tshark's tcp.len of the same segments (resent_len) is
    # larger by the new data of segments that overlap only in part
    ("retransmitted bytes", mine["retransmitted_bytes"], t["resent_bytes"],
     "of the %d tcp.len bytes of tshark's retransmissions, those below "
     "the highest sequence" % t["resent_len"]),
    ("keep-alives", mine["keep-alives"], t["keep_alive"],
     "tcp.analysis.keep_alive"),
    ("window probes", mine["window probes"], t["zero_window_probe"],
     "tcp.analysis.zero_window_probe"),
):
    check(what.replace(" ", "-"), got == theirs,
          "pathdoctor %d, tshark %d: %s" % (got, theirs, how))
PY
	echo "not ok tshark $name: the comparison exited with status $?"
done <"$tmp/list"
