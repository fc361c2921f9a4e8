#!/usr/bin/env python3
"""Classic pcap files crafted case by case (byte orders, micro and
nanosecond magics, versions, snap lengths, the link type's FCS bits,
records past the snap length or the link type's maximum, cut headers
and bodies), each read by pathdoctor and by libpcap (tcpdump -r F -w G,
which writes the packets exactly as libpcap handed them out).  For
each case pathdoctor's model of F must equal its model of G, the
packets must be as many, and libpcap's message (tcpdump's stderr) must
be the one in pathdoctor's note.  TAP output.
    python3 tests/pcap-records.py BIN [SEED_DIR]
SEED_DIR: also write the crafted files there (fuzz seeds)."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

MICRO, NANO = 0xa1b2c3d4, 0xa1b23c4d


def frame(i, tso=False):
    """Ethernet, IPv4, TCP: payload sizes and sequences differ per packet,
    so a packet lost, cut or shifted changes the analysis."""
    payload = 100 + 37 * i
    ip_len = 0 if tso else 40 + payload
    eth = b"\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00"
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, ip_len, i + 1, 0x4000, 64, 6,
                     0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    tcp = struct.pack(">HHIIBBHHH", 40000, 5201, 1000 + 1000 * i, 1,
                      0x50, 0x10, 512, 0, 0)
    return eth + ip + tcp + bytes((i + k) & 0xff for k in range(payload))


def pcap(recs, magic=MICRO, le=True, version=(2, 4), snap=96, linktype=1,
         swap_lengths=False, cut=None):
    e = "<" if le else ">"
    out = struct.pack(e + "IHHiIII", magic, version[0], version[1], 0, 0,
                      snap, linktype)
    for sec, frac, data, caplen, length in recs:
        a, b = (length, caplen) if swap_lengths else (caplen, length)
        out += struct.pack(e + "iiII", sec, frac, a, b) + data[:caplen]
    return out if cut is None else out[:cut]


def recs(n=6, snap=96, t0=1700000000, step=250000, nano=False, tso=()):
    out = []
    for i in range(n):
        f = frame(i, i in tso)
        frac = (i * step) % (10**9 if nano else 10**6)
        out.append((t0 + i * step // (10**9 if nano else 10**6), frac, f,
                    min(len(f), snap), len(f)))
    return out


def cases():
    c = {}
    for le in (True, False):
        for magic, nano in ((MICRO, False), (NANO, True)):
            name = "%s-%s" % ("le" if le else "be", "nano" if nano else "micro")
            c[name] = pcap(recs(nano=nano, tso=(2,)), magic=magic, le=le)
    c["v2.2-swapped-lengths"] = pcap(recs(), version=(2, 2),
                                     swap_lengths=True)
    mixed = recs()
    c["v2.3-swapped-lengths"] = pcap(mixed, version=(2, 3),
                                     swap_lengths=True)
    c["v2.3-plain"] = pcap(mixed, version=(2, 3))
    c["v543.0"] = pcap(recs(), version=(543, 0), swap_lengths=True)
    c["v1.0-archaic"] = pcap(recs(), version=(1, 0))
    c["v2.5-unsupported"] = pcap(recs(), version=(2, 5))
    c["v3.0-unsupported"] = pcap(recs(), version=(3, 0))
    c["snap0"] = pcap(recs(snap=2000), snap=0)
    c["snap-huge"] = pcap(recs(snap=2000), snap=300000)
    c["snap-huge-be"] = pcap(recs(snap=2000), snap=0x7fffffff, le=False)
    c["fcs-bits"] = pcap(recs(), linktype=1 | 0x04000000 | (4 << 28))
    # records longer than the header's snap length: cut to it
    c["caplen-over-snap"] = pcap(recs(snap=200), snap=60)
    big = recs(snap=200)
    at = len(pcap(big[:3], snap=60)) + 16
    c["caplen-over-snap-cut-in-rest"] = pcap(big, snap=60, cut=at + 90)
    c["caplen-over-snap-cut-in-snap"] = pcap(big, snap=60, cut=at + 30)
    r = recs()
    r[3] = (r[3][0], r[3][1], r[3][2], 300000, 300000)
    c["caplen-over-max"] = pcap(r)
    c["caplen-over-max-snap0"] = pcap(r, snap=0)
    whole = pcap(recs())
    c["cut-record-header"] = whole[:24 + 2 * (16 + 96) + 5]
    c["cut-record-body"] = whole[:24 + 2 * (16 + 96) + 16 + 40]
    c["header-only"] = whole[:24]
    c["odd-times"] = pcap([(-5, 1999999, frame(0), 96, len(frame(0))),
                           (0x7fffffff, -3, frame(1), 96, len(frame(1))),
                           (12, 0, frame(2), 0, len(frame(2)))])
    c["odd-times-nano-be"] = pcap([(-5, 1999999999, frame(0), 96, 300),
                                   (3, 999999999, frame(1), 96, 0)],
                                  magic=NANO, le=False)
    raw = [(r0, r1, d[14:], min(cl, len(d) - 14), ln - 14)
           for r0, r1, d, cl, ln in recs()]
    c["linktype-raw"] = pcap(raw, linktype=101)
    c["linktype-sll-be"] = pcap([(1, 2, b"\x00\x00\x00\x01\x00\x06" +
                                  b"\x02" * 8 + b"\x08\x00" + d[14:], 96,
                                  ln + 2) for _, _, d, _, ln in recs()],
                                linktype=113, le=False)
    # an undecoded link type with records larger than any read block
    dbus = [(1, i, bytes(3 << 20), 3 << 20, 3 << 20) for i in range(2)]
    c["linktype-dbus-large"] = pcap(dbus, snap=0, linktype=231)
    c["linktype-dbus-large-cut"] = pcap(dbus, snap=0, linktype=231,
                                        cut=24 + 16 + (3 << 20) + 16 + 5000)
    c["linktype-user"] = pcap(recs(), linktype=147)
    return c


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def model(binary, path):
    """The capture's part of the model dump, and the notes' texts."""
    _, out, _ = run([binary, "--dump-model", path])
    lines = out.splitlines()
    keep = [ln for ln in lines if ln.startswith("    ") or
            ln.startswith("  capture ")]
    _, js, _ = run([binary, "-f", "json", path])
    notes = [n["message"] for mem in json.loads(js)["members"]
             for n in mem["notes"]]
    return "\n".join(keep), "\n".join(notes)


def count(path):
    d = open(path, "rb").read()
    le = d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1")
    n, pos = 0, 24
    while pos + 16 <= len(d):
        cap = struct.unpack_from("<I" if le else ">I", d, pos + 8)[0]
        pos += 16 + cap
        n += 1
    return n


def main():
    binary = sys.argv[1]
    seeds = sys.argv[2] if len(sys.argv) > 2 else None
    if not shutil.which("tcpdump"):
        print("1..0 # SKIP no tcpdump")
        return 0
    tmp = tempfile.mkdtemp()
    cs = cases()
    print("1..%d" % len(cs))
    failed = 0
    for i, (name, data) in enumerate(sorted(cs.items()), 1):
        d_in, d_out = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        for d in (d_in, d_out):
            os.makedirs(d, exist_ok=True)
        f, g = os.path.join(d_in, "eth0.pcap"), os.path.join(d_out, "eth0.pcap")
        open(f, "wb").write(data)
        if seeds and len(data) < 4096:
            open(os.path.join(seeds, "pcap-%s.pcap" % name), "wb").write(data)
        rc, _, err = run(["tcpdump", "-r", f, "--time-stamp-precision=nano",
                          "-w", g])
        why = []
        mine, whole = model(binary, f)
        m = re.search(r"tcpdump: (?:pcap_loop: )?(.*)", err)
        libmsg = m.group(1).strip() if m and rc else None
        if libmsg and not os.path.exists(g):
            # refused at open: the note carries libpcap's words
            if ("not a readable capture: " + libmsg.replace(f + ": ", "")) \
                    not in whole:
                why.append("open error %r not in notes" % libmsg)
        else:
            theirs, _ = model(binary, g)
            if mine.replace(", truncated;", ";") != theirs:
                why.append("models differ:\n%s\n--- libpcap's packets:\n%s" %
                           (mine, theirs))
            n = count(g)
            if libmsg:
                want = "capture cut short after %d packets (%s)" % (n, libmsg)
                if want not in whole:
                    why.append("note %r missing" % want)
            elif "cut short" in whole:
                why.append("a cut-short note libpcap does not give")
            if "packets %d," % n not in mine and not (n == 0 and not mine):
                why.append("not %d packets" % n)
        if why:
            failed += 1
            print("not ok %d %s\n# %s" % (i, name, "\n# ".join(
                "\n".join(why).splitlines())))
        else:
            print("ok %d %s" % (i, name))
        shutil.rmtree(d_in)
        shutil.rmtree(d_out)
    shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
