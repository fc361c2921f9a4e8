#!/usr/bin/env python3
"""Writes the sample captures, byte for byte the same on every run.

    python3 samples/gen-pcap.py [DIR]     (DIR defaults to samples/bundles)

Classic pcap, Ethernet, snap length 96, TCP/IPv4 with timestamps (MSS
1448 on a 1500-byte MTU).  The payload bytes beyond the snap length are
not stored, as with tcpdump -s 96; IP lengths carry the real sizes.
"""
import os
import struct
import sys

SNAP = 96
HERE = os.path.dirname(os.path.abspath(__file__))


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src, dst, sport, dport, seq, ack, flags, payload, ip_id, win=501,
          mss=None):
    opts = b"\x01\x01" + struct.pack("!BBII", 8, 10, 1000, 2000)  # nop nop TS
    if mss:
        opts = struct.pack("!BBH", 2, 4, mss) + opts
    tcp_len = 20 + len(opts)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF,
                      ack & 0xFFFFFFFF, (tcp_len // 4) << 4, flags, win, 0, 0)
    tcp += opts
    total = 20 + tcp_len + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total if total <= 65535 else 0,
                     ip_id & 0xFFFF, 0x4000, 64, 6, 0, bytes(src), bytes(dst))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = b"\x52\x54\x00\x12\x34\x56" + b"\xbc\x24\x11\xab\xcd\xef" + b"\x08\x00"
    full = eth + ip + tcp + bytes(payload)
    return full, len(full)


class Pcap:
    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, SNAP, 1))

    def add(self, ts, pkt):
        data, length = pkt
        cap = data[:SNAP]
        sec = int(ts)
        usec = int(round((ts - sec) * 1e6))
        self.f.write(struct.pack("<IIII", sec, usec, len(cap), length) + cap)

    def close(self):
        self.f.close()


GUEST = [10, 0, 0, 10]
CLIENT = [192, 168, 1, 20]
T0 = 1764000000.0


def gso_flow(out_tap, out_phys, tap_payload, phys_seg, n_super, gbit):
    """A guest -> client bulk flow seen on the tap (GSO super-packets) and
    on the physical NIC (segmented to phys_seg when smaller)."""
    tap, phys = Pcap(out_tap), Pcap(out_phys)
    rate = gbit * 1e9 / 8
    t, seq, ack_seq, ip_id = T0, 1000, 5000, 100
    syn = frame(GUEST, CLIENT, 40000, 5201, seq - 1, 0, 0x02, 0, ip_id, mss=1460)
    synack = frame(CLIENT, GUEST, 5201, 40000, ack_seq - 1, seq, 0x12, 0, 7, mss=1460)
    for p in (tap, phys):
        p.add(t, syn)
        p.add(t + 0.0002, synack)
    t += 0.0004
    for i in range(n_super):
        size = tap_payload if i % 10 else 752 if i % 20 == 0 else tap_payload
        tap.add(t, frame(GUEST, CLIENT, 40000, 5201, seq, ack_seq, 0x18, size, ip_id))
        left, s = size, seq
        while left > 0:
            part = min(phys_seg, left)
            phys.add(t + 0.000001, frame(GUEST, CLIENT, 40000, 5201, s, ack_seq,
                                         0x18 if part == left else 0x10, part, ip_id))
            ip_id += 1
            s += part
            left -= part
        seq += size
        t += size / rate
        ack = frame(CLIENT, GUEST, 5201, 40000, ack_seq, seq, 0x10, 0, 9000 + i)
        tap.add(t, ack)
        phys.add(t - 0.000001, ack)
    tap.close()
    phys.close()


def lossy_flow(path, n_segments, gbit):
    """NVMe/TCP reads into nic2 (target -> host), MSS-sized, with losses
    recovered by fast retransmits and two retransmission timeouts."""
    p = Pcap(path)
    target, host = [10, 10, 0, 2], [10, 10, 0, 1]
    rate = gbit * 1e9 / 8
    t, seq, ip_id = T0, 1, 1
    lost = {}
    for i in range(n_segments):
        if i in (1200, 2600):           # a tail lost: RTO after 230 ms
            t += 0.230
            p.add(t, frame(target, host, 4420, 51000, seq - 1448, 1, 0x10,
                           1448, ip_id + 60000))
            t += 0.00002
        if i % 97 == 5:                 # one lost, fast retransmit later
            lost[i + 3] = seq
        p.add(t, frame(target, host, 4420, 51000, seq, 1, 0x10, 1448, ip_id))
        if i in lost:
            p.add(t + 0.00002, frame(target, host, 4420, 51000, lost.pop(i), 1,
                                     0x10, 1448, ip_id + 50000))
        if i % 2:
            p.add(t + 0.000005, frame(host, target, 51000, 4420, 1, seq + 1448,
                                      0x10, 0, 30000 + i))
        seq += 1448
        ip_id += 1
        t += 1448 / rate
    p.close()


def main():
    b = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "bundles")
    for case, tap_size, n, gbit in (("pve-gso-before", 65160, 100, 1.76),
                                    ("pve-gso-after", 62264, 100, 2.13)):
        d = os.path.join(b, case, "pve", "pcap")
        os.makedirs(d, exist_ok=True)
        gso_flow(os.path.join(d, "tap100i0.pcap"), os.path.join(d, "enp3s0.pcap"),
                 tap_size, 1448 if case.endswith("before") else 65535, n, gbit)
    d = os.path.join(b, "gx10-before", "pcap")
    os.makedirs(d, exist_ok=True)
    lossy_flow(os.path.join(d, "nic2.pcap"), 4000, 0.02)


if __name__ == "__main__":
    main()
