#!/usr/bin/env python3
"""Writes the GX10 sample profiles, byte for byte the same on every run.

    python3 samples/gen-perf.py [DIR [SCALE]]   (DIR defaults to samples/bundles)

SCALE (default 1) multiplies the number of samples; tests/bench-profile.sh
uses it for a profile of over 200k samples.

Nobody here has a GB10, so the profile of its NVMe/TCP reads is written
from the published numbers: an arm64 perf.data (file mode, little
endian: header, one cycles attribute sampling IP, TID, TIME, CPU, PERIOD
and CALLCHAIN, the kernel's MMAP record, COMM records, samples, and the
hostname, osrelease, version, arch, nrcpus and event_desc features) as
perf record -a -g would leave it, the kallsyms that names its addresses,
and /proc/cpuinfo with CPUs 0-9 Cortex-X925 and 10-19 Cortex-A725.
Before: the big cores' busy cycles are 57 % in arm_smmu_cmdq_issue_cmdlist
(strict IOMMU), the copy to user space and the TCP receive path the rest.
After (iommu.strict=0): the invalidation share gone.

tests/perf-compare.sh checks that the real perf report reads these files
and shows the same shares as pathdoctor.
"""
import gzip
import io
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = 0xFFFF800080010000

# (name, size): laid out from _text in this order
FUNCS = [
    ("_text", 0x10), ("cpu_do_idle", 0x40), ("default_idle_call", 0x80),
    ("do_idle", 0x200), ("cpu_startup_entry", 0x40),
    ("secondary_start_kernel", 0x100),
    ("arm_smmu_cmdq_issue_cmdlist", 0x600), ("arm_smmu_cmdq_batch_submit", 0x40),
    ("__arm_smmu_tlb_inv_range", 0x200), ("arm_smmu_tlb_inv_range_domain", 0x100),
    ("arm_smmu_iotlb_sync", 0x80), ("__iommu_dma_unmap", 0x180),
    ("iommu_dma_unmap_page", 0x100), ("dma_unmap_page_attrs", 0x100),
    ("page_pool_return_page", 0x100), ("mlx5e_free_rx_mpwqe", 0x180),
    ("mlx5e_handle_rx_cqe_mpwrq", 0x300), ("mlx5e_poll_rx_cq", 0x200),
    ("mlx5e_napi_poll", 0x300), ("__napi_poll", 0x100),
    ("net_rx_action", 0x300), ("handle_softirqs", 0x200),
    ("__do_softirq", 0x20), ("irq_exit_rcu", 0x80), ("el1_interrupt", 0x80),
    ("mlx5e_skb_from_cqe_mpwrq_nonlinear", 0x400), ("napi_gro_receive", 0x100),
    ("dev_gro_receive", 0x400), ("tcp_gro_receive", 0x300),
    ("ip_rcv", 0x100), ("tcp_v4_rcv", 0x800), ("tcp_rcv_established", 0x600),
    ("tcp_data_queue", 0x600),
    ("__arch_copy_to_user", 0x200), ("_copy_to_iter", 0x300),
    ("__skb_datagram_iter", 0x200), ("skb_copy_datagram_iter", 0x40),
    ("nvme_tcp_recv_data", 0x300), ("nvme_tcp_recv_skb", 0x200),
    ("tcp_read_sock", 0x200), ("nvme_tcp_try_recv", 0x80),
    ("nvme_tcp_io_work", 0x200), ("process_one_work", 0x300),
    ("worker_thread", 0x300), ("kthread", 0x100), ("ret_from_fork", 0x40),
    ("nvme_tcp_recv_pdu", 0x300), ("blk_mq_complete_request", 0x80),
    ("_etext", 0x10),
]
ADDR = {}
_a = TEXT
for _n, _s in FUNCS:
    ADDR[_n] = (_a, _s)
    _a += _s

IDLE = ["cpu_do_idle", "default_idle_call", "do_idle", "cpu_startup_entry",
        "secondary_start_kernel"]
SOFTIRQ_TAIL = ["mlx5e_napi_poll", "__napi_poll", "net_rx_action",
                "handle_softirqs", "__do_softirq", "irq_exit_rcu",
                "el1_interrupt"]
SMMU = ["arm_smmu_cmdq_issue_cmdlist", "arm_smmu_cmdq_batch_submit",
        "__arm_smmu_tlb_inv_range", "arm_smmu_tlb_inv_range_domain",
        "arm_smmu_iotlb_sync", "__iommu_dma_unmap", "iommu_dma_unmap_page",
        "dma_unmap_page_attrs", "page_pool_return_page",
        "mlx5e_free_rx_mpwqe", "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL
COPY = ["__arch_copy_to_user", "_copy_to_iter", "__skb_datagram_iter",
        "skb_copy_datagram_iter", "nvme_tcp_recv_data", "nvme_tcp_recv_skb",
        "tcp_read_sock", "nvme_tcp_try_recv", "nvme_tcp_io_work",
        "process_one_work", "worker_thread", "kthread", "ret_from_fork"]
RX = {
    "mlx5e_skb_from_cqe_mpwrq_nonlinear": ["mlx5e_skb_from_cqe_mpwrq_nonlinear",
        "mlx5e_handle_rx_cqe_mpwrq", "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "dev_gro_receive": ["dev_gro_receive", "napi_gro_receive",
        "mlx5e_handle_rx_cqe_mpwrq", "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "tcp_gro_receive": ["tcp_gro_receive", "dev_gro_receive",
        "napi_gro_receive", "mlx5e_handle_rx_cqe_mpwrq",
        "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "tcp_v4_rcv": ["tcp_v4_rcv", "ip_rcv", "napi_gro_receive",
        "mlx5e_handle_rx_cqe_mpwrq", "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "tcp_rcv_established": ["tcp_rcv_established", "tcp_v4_rcv", "ip_rcv",
        "napi_gro_receive", "mlx5e_handle_rx_cqe_mpwrq",
        "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "tcp_data_queue": ["tcp_data_queue", "tcp_rcv_established", "tcp_v4_rcv",
        "ip_rcv", "napi_gro_receive", "mlx5e_handle_rx_cqe_mpwrq",
        "mlx5e_poll_rx_cq"] + SOFTIRQ_TAIL,
    "nvme_tcp_recv_pdu": ["nvme_tcp_recv_pdu", "nvme_tcp_recv_skb",
        "tcp_read_sock", "nvme_tcp_try_recv", "nvme_tcp_io_work",
        "process_one_work", "worker_thread", "kthread", "ret_from_fork"],
    "blk_mq_complete_request": ["blk_mq_complete_request",
        "nvme_tcp_recv_pdu", "nvme_tcp_recv_skb", "tcp_read_sock",
        "nvme_tcp_try_recv", "nvme_tcp_io_work", "process_one_work",
        "worker_thread", "kthread", "ret_from_fork"],
}

# samples per stack kind, per core type: (stack, count)
def mix(case):
    rx = [("mlx5e_skb_from_cqe_mpwrq_nonlinear", 6), ("dev_gro_receive", 4),
          ("tcp_gro_receive", 3), ("tcp_v4_rcv", 3),
          ("tcp_rcv_established", 2), ("tcp_data_queue", 2),
          ("nvme_tcp_recv_pdu", 2), ("blk_mq_complete_request", 1)]
    if case == "before":     # big cores: 57 % SMMU, 20 % copy, 23 % RX
        big = [(SMMU, 570), (COPY, 200)] + [(RX[k], 10 * w) for k, w in rx]
        big_idle, little = 80, [(SMMU, 90), (COPY, 40)] + [
            (RX[k], 3 * w) for k, w in rx]
        little_idle = 700
    else:                    # lazy: the invalidation share gone
        big = [(SMMU, 4), (COPY, 480)] + [(RX[k], 20 * w) for k, w in rx]
        big_idle, little = 120, [(SMMU, 1), (COPY, 60)] + [
            (RX[k], 4 * w) for k, w in rx]
        little_idle = 600
    return big, big_idle, little, little_idle


class Rand:
    """A small LCG, so the output never depends on Python's version."""
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % 2**64
        return (self.s >> 33) % n


def hstring(s):
    b = s.encode() + b"\0"
    n = (len(b) + 63) // 64 * 64
    return struct.pack("<I", n) + b.ljust(n, b"\0")


def record(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


ST = 1 | 2 | 4 | 128 | 256 | 32      # IP TID TIME CPU PERIOD CALLCHAIN
CTX_KERNEL = 2**64 - 128


def attr():
    flags = (1 << 10) | (1 << 5)      # freq, exclude_hv
    return struct.pack("<IIQQQQQIIQQ", 0, 64, 0, 4000, ST, 0, flags, 0, 0,
                       0, 0)


def perf_data(case, scale=1):
    rnd = Rand(0x6b10 if case == "before" else 0x6b11)
    big, big_idle, little, little_idle = mix(case)
    recs = []
    kstart, _ = ADDR["_text"]
    kend = ADDR["_etext"][0]
    recs.append(record(1, 1, struct.pack("<IIQQQ", 0xFFFFFFFF, 0, kstart,
                                         kend - kstart, kstart)
                       + b"[kernel.kallsyms]_text\0".ljust(24, b"\0")))
    comms = {0: "swapper", 812: "kworker/u80:3+nvme_tcp_wq", 4321: "fio"}
    for pid, name in sorted(comms.items()):
        recs.append(record(3, 0, struct.pack("<II", pid, pid)
                           + name.encode().ljust((len(name) + 8) // 8 * 8,
                                                 b"\0")))
    samples = []
    for cpus, mixes, idle, base in ((range(0, 10), big, big_idle, 975000),
                                    (range(10, 20), little, little_idle,
                                     702000)):
        for cpu in cpus:
            for stack, count in mixes + [(IDLE, idle)]:
                for _ in range(scale * (count // 2 + (cpu % 2 < count % 2))):
                    samples.append((cpu, stack, base))
    t = 1_764_000_000_000_000_000 % 2**63
    order = list(range(len(samples)))
    for i in range(len(order) - 1, 0, -1):         # interleave CPUs
        j = rnd.next(i + 1)
        order[i], order[j] = order[j], order[i]
    for k in order:
        cpu, stack, base = samples[k]
        leaf_start, leaf_size = ADDR[stack[0]]
        ip = leaf_start + 4 * rnd.next(leaf_size // 4)
        chain = [CTX_KERNEL, ip]
        for fn in stack[1:]:            # one call site per caller
            start, size = ADDR[fn]
            chain.append(start + 4 * (size // 8) + 4)
        pid = 0 if stack is IDLE else (812 if stack[-1] == "ret_from_fork"
                                       else 0)
        period = base - base // 20 + rnd.next(base // 10)
        t += 25_000 + rnd.next(1000)
        body = struct.pack("<QIIQIIQQ", ip, pid, pid, t, cpu, 0, period,
                           len(chain)) + b"".join(struct.pack("<Q", c)
                                                  for c in chain)
        recs.append(record(9, 1, body))
    data = b"".join(recs)
    a = attr()
    attr_size = len(a) + 16
    attrs_off = 104
    data_off = attrs_off + attr_size
    feats = [
        (3, hstring("gx10")),
        (4, hstring("6.11.0-1016-nvidia")),
        (5, hstring("6.11.0")),
        (6, hstring("aarch64")),
        (7, struct.pack("<II", 20, 20)),
        (12, struct.pack("<II", 1, len(a)) + a + struct.pack("<I", 0)
         + hstring("cycles")),
    ]
    bits = 0
    for f, _ in feats:
        bits |= 1 << f
    table_off = data_off + len(data)
    payload_off = table_off + 16 * len(feats)
    table, payload = b"", b""
    for _, body in feats:
        table += struct.pack("<QQ", payload_off + len(payload), len(body))
        payload += body
    header = b"PERFILE2" + struct.pack("<QQQQQQQQQQQQ", 104, attr_size,
                                       attrs_off, attr_size, data_off,
                                       len(data), 0, 0, bits, 0, 0, 0)
    return header + a + struct.pack("<QQ", 0, 0) + data + table + payload


def kallsyms():
    lines = ["%016x %s %s" % (addr, "T", name)
             for name, (addr, _) in sorted(ADDR.items(), key=lambda x: x[1])]
    lines.insert(0, "%016x T _stext" % (TEXT - 0x10000))
    return "\n".join(lines) + "\n"


def cpuinfo():
    out = []
    for cpu in range(20):
        part = "0xd85" if cpu < 10 else "0xd87"
        out.append("processor\t: %d\nBogoMIPS\t: 2000.00\nFeatures\t: fp "
                   "asimd evtstrm aes pmull sha1 sha2 crc32 atomics\n"
                   "CPU implementer\t: 0x41\nCPU architecture: 8\n"
                   "CPU variant\t: 0x0\nCPU part\t: %s\nCPU revision\t: 1\n"
                   % (cpu, part))
    return "\n".join(out)


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as f:
        f.write(data)
    return buf.getvalue()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "bundles")
    scale = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for case in ("before", "after"):
        d = os.path.join(out, "gx10-" + case)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "perf.data.gz"), "wb") as f:
            f.write(gz(perf_data(case, scale)))
        with open(os.path.join(d, "kallsyms.txt"), "w") as f:
            f.write(kallsyms())
        with open(os.path.join(d, "cpuinfo.txt"), "w") as f:
            f.write(cpuinfo())


if __name__ == "__main__":
    main()
