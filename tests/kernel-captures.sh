#!/bin/sh
# samples/capture-kernel.sh must still make captures that show what the
# committed samples show: fresh captures from the kernel replace the
# committed ones in a copy of each sample tree, and pathdoctor must find
#  - pve-gso-before: tcp.gso-mismatch, the tap carrying super-packets
#    above enp3s0's 64000-byte limit and enp3s0 none of them but enough
#    MSS-sized segments to carry their bytes, with the same data bytes on
#    both sides (no loss in the capture);
#  - pve-gso-after: no finding, the same payload sizes on both sides;
#  - gx10-before: nic.pause-off-retransmits on nic2, with retransmissions.
# Needs root, network namespaces, iperf3, tcpdump, nft and ethtool;
# skipped, with the reason, otherwise (no_netns in tests/lib.sh).
set -u
. tests/lib.sh
bin=$1
no_netns kernel-captures iperf3 tcpdump nft ethtool python3 && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! sh samples/capture-kernel.sh "$tmp/fresh" >"$tmp/log" 2>&1; then
	echo "not ok kernel-captures samples/capture-kernel.sh failed"
	sed 's/^/# /' "$tmp/log"
	exit 0
fi
echo "ok kernel-captures samples/capture-kernel.sh ran"

for name in pve-gso-before pve-gso-after gx10-before; do
	cp -R "samples/bundles/$name" "$tmp/$name"
	(cd "$tmp/fresh/$name" && find . -name '*.pcap') | while read -r f; do
		cp "$tmp/fresh/$name/$f" "$tmp/$name/$f"
	done
	"$bin" -f json "$tmp/$name" >"$tmp/$name.json" 2>"$tmp/$name.err" \
	    </dev/null
	ran "kernel-captures $name" $? "$tmp/$name.err" || continue
	python3 - "$name" "$tmp/$name.json" <<'PY' ||
import json, sys
name, path = sys.argv[1:3]
r = json.load(open(path))
rules = {(f["rule"], f["subject"]) for f in r["findings"]}
caps = {c["interface"]: c for c in r["captures"]}
problems = []


def data_flow(c):
    return max(c["flows"], key=lambda f: f["bytes"])


def sizes(c):
    return {s["bytes"]: s["count"] for s in data_flow(c)["payload_sizes"]
            if s["bytes"] > 0}


if name.startswith("pve-gso"):
    tap, phys = caps.get("tap100i0"), caps.get("enp3s0")
    if not tap or not phys:
        problems.append("tap100i0 or enp3s0 capture missing")
    else:
        if data_flow(tap)["bytes"] != data_flow(phys)["bytes"]:
            problems.append("data bytes differ: tap %d, enp3s0 %d" % (
                data_flow(tap)["bytes"], data_flow(phys)["bytes"]))
        gso = any(f[0] == "tcp.gso-mismatch" for f in rules)
        if name.endswith("before"):
            # GSO packets within the limit may cross whole; those above
            # it must leave as MSS-sized segments.
            limit = 64000 - 66
            above = sum(b * n for b, n in sizes(tap).items() if b > limit)
            if not above:
                problems.append("no tap payload above enp3s0's limit")
            if max(sizes(phys)) > limit:
                problems.append("enp3s0 carries %d-byte payloads" %
                                max(sizes(phys)))
            if sizes(phys).get(1448, 0) * 1448 < above:
                problems.append("too few 1448-byte segments on enp3s0")
            if not gso:
                problems.append("no tcp.gso-mismatch finding")
        else:
            if sizes(tap) != sizes(phys):
                problems.append("payload sizes differ between the sides")
            if gso:
                problems.append("tcp.gso-mismatch after the fix")
else:
    nic2 = caps.get("nic2")
    if not nic2 or nic2["retransmissions"] == 0:
        problems.append("no retransmissions on nic2")
    if ("nic.pause-off-retransmits", "nic2") not in rules:
        problems.append("no nic.pause-off-retransmits finding on nic2")
if problems:
    print("not ok kernel-captures %s: %s" % (name, "; ".join(problems)))
else:
    print("ok kernel-captures %s" % name)
PY
	echo "not ok kernel-captures $name: the check exited with status $?"
done
