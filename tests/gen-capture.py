#!/usr/bin/env python3
"""Streams a large classic pcap made by replicating a small one: each
copy's timestamps move on by the source's duration (whole seconds, so
time only grows) and its IP addresses shift by the copy's number, so
every copy brings new flows (as many as the source has, per copy).
Written to stdout (a pipe into `pathdoctor -`), so no large file is
needed.
    python3 tests/gen-capture.py SRC.pcap COPIES|SIZE >OUT
SIZE with a unit (450M, 2.5G, 10G) is the output size to reach.  The
source must be little-endian, Ethernet (VLAN tags allowed) or raw IP;
addresses in other frames stay as they are.  Each copy is made by one
big-integer addition over the whole source, fast enough to keep ahead
of the reader."""
import struct
import sys


def addr_offsets(data, linktype):
    """Offsets of the IPv4/IPv6 source and destination in a frame."""
    if linktype == 1:
        off, et = 14, data[12:14]
        while et in (b"\x81\x00", b"\x88\xa8") and len(data) >= off + 4:
            et, off = data[off + 2:off + 4], off + 4
        if et not in (b"\x08\x00", b"\x86\xdd"):
            return []
    elif linktype in (101, 228, 229):
        off = 0
    else:
        return []
    if len(data) < off + 1:
        return []
    if data[off] >> 4 == 4 and len(data) >= off + 20:
        return [off + 12, off + 16]
    if data[off] >> 4 == 6 and len(data) >= off + 40:
        return [off + 8, off + 24]
    return []


def main():
    src, amount = sys.argv[1], sys.argv[2]
    d = open(src, "rb").read()
    magic, _, _, _, _, _, linktype = struct.unpack_from("<IHHiIII", d, 0)
    if magic not in (0xa1b2c3d4, 0xa1b23c4d):
        sys.exit("gen-capture: %s is not a little-endian pcap" % src)
    body = d[24:]
    # one pass: where each record's seconds and addresses lie, as the
    # bits of the number added to the whole source per copy
    pos, first, last = 0, None, 0
    secs, addrs = bytearray(len(body)), bytearray(len(body))
    while pos + 16 <= len(body):
        sec, _, caplen, _ = struct.unpack_from("<IIII", body, pos)
        first = sec if first is None else min(first, sec)
        last = max(last, sec)
        secs[pos] = 1
        for a in addr_offsets(body[pos + 16:pos + 16 + caplen], linktype):
            # the copy's number added at the address's second byte: the
            # hosts of a /24 stay apart, and no copy meets another's
            addrs[pos + 16 + a + 1] = 1
        pos += 16 + caplen
    body, secs, addrs = body[:pos], secs[:pos], addrs[:pos]
    dur = last - (first or 0) + 1
    unit = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if amount[-1].upper() in unit:
        size = float(amount[:-1]) * unit[amount[-1].upper()]
        copies = max(1, int((size - 24) // len(body)))
    else:
        copies = int(amount)
    if copies > 65536:
        sys.exit("gen-capture: at most 65536 copies (addresses repeat)")
    out = sys.stdout.buffer
    out.write(d[:24])
    cur = int.from_bytes(body, "little")
    inc = dur * int.from_bytes(secs, "little") + \
        int.from_bytes(addrs, "little")
    for _ in range(copies):
        out.write(cur.to_bytes(len(body), "little"))
        cur += inc


if __name__ == "__main__":
    main()
