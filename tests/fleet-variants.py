#!/usr/bin/env python3
"""Bundles of a made-up fleet, from the sample trees, for the fleet tests.

    python3 tests/fleet-variants.py OUTDIR N

writes OUTDIR/vNNN.tgz for N variants and OUTDIR/variants.json, which
says for each what was set, so that a test knows the counts a database
of the fleet must return without asking pathdoctor.  Variant i starts
from the i-th (cyclically) sample tree that has a uname.txt, lspci-vv.txt
and cmdline.txt at its top, and changes:

  - the host name (uname.txt's second field, sysctl's kernel.hostname):
    fleet-NNN, so every variant is a host of its own;
  - MaxPayload in every DevCtl of lspci-vv.txt: 128, 256 or 512 bytes,
    never above the device's DevCap (real hardware cannot be set above);
  - the IOMMU mode on the command line: iommu.strict=1, iommu.strict=0,
    iommu.passthrough=1 or none of them (every iommu.* word replaced);
  - the interface names, in file names and as whole words in every text
    member: kept, ethN, or enP1s0fN-style names.

The tar members are sorted with fixed owners and times, so the same
variant is the same bytes (and the same content hash) every time."""
import gzip
import io
import json
import os
import re
import sys
import tarfile

SAMPLES = "samples/bundles"
MPS = (128, 256, 512)
IOMMU = ("iommu.strict=1", "iommu.strict=0", "iommu.passthrough=1", "")
NAMING = ("kept", "eth", "enp")


def bases():
    out = []
    for name in sorted(os.listdir(SAMPLES)):
        d = os.path.join(SAMPLES, name)
        if all(os.path.isfile(os.path.join(d, f))
               for f in ("uname.txt", "lspci-vv.txt", "cmdline.txt")):
            out.append(d)
    return out


def interfaces(d):
    """Interface names the tree's ethtool -i files are named by."""
    names = set()
    for sub in ("ethtool-i", "ethtool"):
        p = os.path.join(d, sub)
        if os.path.isdir(p):
            names.update(f.rsplit(".", 1)[0] for f in os.listdir(p))
    return sorted(names)


def rename_map(names, naming):
    if naming == "kept":
        return {}
    if naming == "eth":
        return {n: "eth%d" % i for i, n in enumerate(names)}
    return {n: "enP1s0f%dnp%d" % (i, i) for i, n in enumerate(names)}


def set_mps(text, want):
    """Every DevCtl MaxPayload to want, capped by the DevCap before it."""
    out, cap = [], None
    set_to = []
    for line in text.split("\n"):
        m = re.search(r"DevCap:\s+MaxPayload (\d+) bytes", line)
        if m:
            cap = int(m.group(1))
        m = re.match(r"(\s+)MaxPayload (\d+) bytes, MaxReadReq", line)
        if m and cap:
            v = min(want, cap)
            line = re.sub(r"MaxPayload \d+ bytes",
                          "MaxPayload %d bytes" % v, line, count=1)
            set_to.append(v)
        out.append(line)
    return "\n".join(out), set_to


def set_iommu(text, mode):
    words = [w for w in text.split() if not w.startswith("iommu")]
    if mode:
        words.append(mode)
    return " ".join(words) + "\n"


def variant(i, base, out_dir):
    host = "fleet-%03d" % i
    mps = MPS[i % len(MPS)]
    iommu = IOMMU[(i // len(MPS)) % len(IOMMU)]
    naming = NAMING[(i // (len(MPS) * len(IOMMU))) % len(NAMING)]
    ifmap = rename_map(interfaces(base), naming)
    word = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, ifmap))) \
        if ifmap else None
    members, set_to = [], []
    for root, dirs, files in os.walk(base):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, base)
            data = open(path, "rb").read()
            stem, dot, ext = f.partition(".")
            head = stem.split("@")[0]
            if head in ifmap:
                f = ifmap[head] + stem[len(head):] + dot + ext
                rel = os.path.join(os.path.dirname(rel), f)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is not None and not f.endswith(".gz"):
                if rel == "uname.txt":
                    parts = text.split(" ")
                    parts[1] = host
                    text = " ".join(parts)
                elif rel == "sysctl.txt":
                    text = re.sub(r"(?m)^kernel\.hostname = .*$",
                                  "kernel.hostname = " + host, text)
                elif rel == "lspci-vv.txt":
                    text, set_to = set_mps(text, mps)
                elif rel == "cmdline.txt":
                    text = set_iommu(text, iommu)
                if word:
                    text = word.sub(lambda m: ifmap[m.group(1)], text)
                data = text.encode("utf-8")
            members.append((rel, data))
    name = "v%03d.tgz" % i
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as t:
        for rel, data in sorted(members):
            info = tarfile.TarInfo(rel)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            t.addfile(info, io.BytesIO(data))
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(gzip.compress(raw.getvalue(), mtime=0))
    return {"bundle": name, "base": os.path.basename(base), "host": host,
            "maxpayload": set_to, "iommu": iommu or None,
            "interfaces": [ifmap.get(n, n) for n in interfaces(base)]}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out_dir, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(out_dir, exist_ok=True)
    trees = bases()
    made = [variant(i, trees[i % len(trees)], out_dir) for i in range(n)]
    with open(os.path.join(out_dir, "variants.json"), "w") as f:
        json.dump(made, f, indent=1)


if __name__ == "__main__":
    main()
