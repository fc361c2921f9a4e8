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
RX_W = [("mlx5e_skb_from_cqe_mpwrq_nonlinear", 6), ("dev_gro_receive", 4),
        ("tcp_gro_receive", 3), ("tcp_v4_rcv", 3),
        ("tcp_rcv_established", 2), ("tcp_data_queue", 2),
        ("nvme_tcp_recv_pdu", 2), ("blk_mq_complete_request", 1)]


def mix(kind):
    rx = RX_W
    if kind == "strict":     # big cores: 57 % SMMU, 20 % copy, 23 % RX
        big = [(SMMU, 570), (COPY, 200)] + [(RX[k], 10 * w) for k, w in rx]
        big_idle, little = 80, [(SMMU, 90), (COPY, 40)] + [
            (RX[k], 3 * w) for k, w in rx]
        little_idle = 700
    elif kind == "lazy":     # lazy: the invalidation share gone
        big = [(SMMU, 4), (COPY, 480)] + [(RX[k], 20 * w) for k, w in rx]
        big_idle, little = 120, [(SMMU, 1), (COPY, 60)] + [
            (RX[k], 4 * w) for k, w in rx]
        little_idle = 600
    else:                    # lazy, half the traffic: half the work
        big = [(SMMU, 2), (COPY, 240)] + [(RX[k], 10 * w) for k, w in rx]
        big_idle, little = 600, [(SMMU, 1), (COPY, 30)] + [
            (RX[k], 2 * w) for k, w in rx]
        little_idle = 700
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


def perf_data(kind, seed, scale=1):
    rnd = Rand(seed)
    big, big_idle, little, little_idle = mix(kind)
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


# perf script text: for profiles with user-space frames (SPDK), which a
# perf.data would have to name through MMAP2 records and an ELF file.
# Frames are (symbol, dso); kernel ones keep their kallsyms address, the
# others get one from these tables, laid out like the kernel's.
KDSO = "[kernel.kallsyms]"
SPDK_BIN = "/usr/local/bin/spdk_nvme_perf"
LIBC = "/usr/lib/aarch64-linux-gnu/libc.so.6"
EXTRA = {}
for _base, _names in (
        (ADDR["_etext"][0] + 0x10, [
            ("el0_svc", 0x80), ("do_el0_svc", 0x80), ("invoke_syscall", 0x100),
            ("__arm64_sys_readv", 0x40), ("do_readv", 0x100),
            ("vfs_readv", 0x200), ("sock_read_iter", 0x100),
            ("tcp_recvmsg", 0x200), ("tcp_recvmsg_locked", 0x600),
            ("tcp_cleanup_rbuf", 0x100), ("__tcp_send_ack", 0x200),
            ("__arm64_sys_epoll_pwait", 0x80), ("do_epoll_wait", 0x300),
            ("ep_poll", 0x300)]),
        (0xAAAAC4E00000, [
            ("main", 0x400), ("spdk_env_thread_wait_all", 0x100),
            ("work_fn", 0x600), ("check_io", 0x100),
            ("spdk_nvme_poll_group_process_completions", 0x200),
            ("nvme_tcp_poll_group_process_completions", 0x300),
            ("spdk_sock_group_poll", 0x40),
            ("spdk_sock_group_poll_count", 0x200),
            ("sock_group_impl_poll_count", 0x300),
            ("posix_sock_group_impl_poll", 0x900),
            ("nvme_tcp_qpair_sock_cb", 0x80),
            ("nvme_tcp_read_pdu", 0x800), ("nvme_tcp_read_data", 0x200),
            ("nvme_tcp_readv_data", 0x100), ("spdk_sock_readv", 0x80),
            ("posix_sock_readv", 0x200),
            ("nvme_tcp_qpair_process_completions", 0x400),
            ("spdk_nvme_qpair_process_completions", 0x300),
            ("nvme_tcp_req_complete", 0x200), ("io_complete", 0x100),
            ("task_complete", 0x180), ("submit_single_io", 0x200),
            ("nvme_submit_io", 0x100), ("spdk_nvme_ns_cmd_read_with_md", 0x200),
            ("nvme_tcp_qpair_submit_request", 0x400),
            ("nvme_tcp_build_contig_request", 0x100),
            ("_nvme_ns_cmd_rw", 0x300)]),
        (0xFFFFA1C00000, [("readv", 0x80), ("epoll_pwait", 0x80),
                          ("__libc_start_main", 0x100)])):
    for _n, _s in _names:
        EXTRA[_n] = (_base, _s)
        _base += _s

KERNEL_NAMES = set(ADDR) | {n for n, (a, _) in EXTRA.items()
                            if a >= TEXT}


def dso_of(fn):
    if fn in KERNEL_NAMES:
        return KDSO
    if fn in ("readv", "epoll_pwait", "__libc_start_main"):
        return LIBC
    return SPDK_BIN


def where(fn):
    return ADDR[fn] if fn in ADDR else EXTRA[fn]


# the reactor's loop, from the thread's start up to the poll group
REACTOR = ["nvme_tcp_poll_group_process_completions",
           "spdk_nvme_poll_group_process_completions", "check_io",
           "work_fn", "spdk_env_thread_wait_all", "main",
           "__libc_start_main"]
SOCK_POLL = ["posix_sock_group_impl_poll", "sock_group_impl_poll_count",
             "spdk_sock_group_poll_count", "spdk_sock_group_poll"] + REACTOR
READV = ["readv", "posix_sock_readv", "spdk_sock_readv",
         "nvme_tcp_readv_data", "nvme_tcp_read_data", "nvme_tcp_read_pdu",
         "nvme_tcp_qpair_sock_cb"] + SOCK_POLL
SYS_READV = ["el0_svc", "do_el0_svc", "invoke_syscall", "__arm64_sys_readv",
             "do_readv", "vfs_readv", "sock_read_iter", "tcp_recvmsg",
             "tcp_recvmsg_locked"]
# leaf first; the copy to user space from the reactor's readv()
SPDK_COPY = (["__arch_copy_to_user", "_copy_to_iter", "__skb_datagram_iter",
              "skb_copy_datagram_iter"] + SYS_READV[::-1] + READV)
SPDK_STACKS = {
    "copy": SPDK_COPY,
    "recvmsg": ["tcp_recvmsg_locked"] + SYS_READV[-2::-1] + READV,
    "cleanup": ["tcp_cleanup_rbuf", "tcp_recvmsg_locked"]
    + SYS_READV[-2::-1] + READV,
    "sock_poll": SOCK_POLL,
    "read_pdu": ["nvme_tcp_read_pdu", "nvme_tcp_qpair_sock_cb"] + SOCK_POLL,
    "read_data": ["nvme_tcp_read_data", "nvme_tcp_read_pdu",
                  "nvme_tcp_qpair_sock_cb"] + SOCK_POLL,
    "qpair": ["nvme_tcp_qpair_process_completions"] + REACTOR,
    "nvme_qpair": ["spdk_nvme_qpair_process_completions",
                   "nvme_tcp_qpair_process_completions"] + REACTOR,
    "group": REACTOR,
    "req_complete": ["nvme_tcp_req_complete",
                     "nvme_tcp_qpair_process_completions"] + REACTOR,
    "submit": ["nvme_tcp_qpair_submit_request", "nvme_submit_io",
               "_nvme_ns_cmd_rw", "spdk_nvme_ns_cmd_read_with_md",
               "submit_single_io", "task_complete", "io_complete",
               "nvme_tcp_req_complete", "nvme_tcp_qpair_process_completions"]
    + REACTOR,
    "epoll": ["ep_poll", "do_epoll_wait", "__arm64_sys_epoll_pwait",
              "invoke_syscall", "do_el0_svc", "el0_svc", "epoll_pwait",
              "posix_sock_group_impl_poll", "sock_group_impl_poll_count",
              "spdk_sock_group_poll_count", "spdk_sock_group_poll"] + REACTOR,
}


def spdk_mix(kind="spdk"):
    """Per CPU group: (cpus, comm per cpu, [(stack, count)], idle).

    kind "spdk": strict IOMMU, MaxPayload 128, 22.8 GB/s: reactors on the
    X925 cores 0-7 (spdk_nvme_perf -c 0xFF) poll without a pause, the
    NIC's interrupts on X925 cores 8-9 do the receive softirq work; over
    the X925 cores' busy cycles: 6 % SMMU invalidation, 23 % copy to user,
    the rest SPDK's poll loop and the kernel's TCP receive.

    kind "spdk-lazy": lazy IOMMU, MaxPayload 512, 28.9 GB/s: the same
    cores, the SMMU invalidation stacks gone; the receive softirq work
    grows with the traffic (about 1.27 times), the reactors' empty polls
    give way to completions, and the copy to user stays the published
    23 % of the X925 cores' busy cycles.  Each CPU takes as many samples
    as before."""
    rx = RX_W[:6]
    if kind == "spdk-lazy":
        user = [("sock_poll", 70), ("read_pdu", 45), ("read_data", 35),
                ("qpair", 45), ("nvme_qpair", 35), ("group", 25),
                ("req_complete", 25), ("submit", 30), ("epoll", 15)]
        reactor = ([(SPDK_STACKS["copy"], 175), (SPDK_STACKS["recvmsg"], 15),
                    (SPDK_STACKS["cleanup"], 10)]
                   + [(RX[k], 5 * w) for k, w in rx]
                   + [(SPDK_STACKS[k], n) for k, n in user])
        irq = [(RX[k], 27 * w) for k, w in rx]
        little = [(COPY, 8)] + [(RX[k], 2 * w) for k, w in rx]
        return [(range(0, 8), "reactor_%d", reactor, 0),
                (range(8, 10), "swapper", irq, 49),
                (range(10, 20), "swapper", little, 578)]
    user = [("sock_poll", 80), ("read_pdu", 40), ("read_data", 30),
            ("qpair", 45), ("nvme_qpair", 35), ("group", 30),
            ("req_complete", 20), ("submit", 25), ("epoll", 25)]
    reactor = ([(SPDK_STACKS["copy"], 175), (SPDK_STACKS["recvmsg"], 12),
                (SPDK_STACKS["cleanup"], 8), (SMMU, 20)]
               + [(RX[k], 4 * w) for k, w in rx]
               + [(SPDK_STACKS[k], n) for k, n in user])
    irq = [(SMMU, 100)] + [(RX[k], 21 * w) for k, w in rx]
    little = [(COPY, 6), (SMMU, 2)] + [(RX[k], 2 * w) for k, w in rx]
    return [(range(0, 8), "reactor_%d", reactor, 0),
            (range(8, 10), "swapper", irq, 69),
            (range(10, 20), "swapper", little, 578)]


SPDK_KINDS = ("spdk", "spdk-lazy")


def frame_addr(rnd, fn, leaf):
    start, size = where(fn)
    if leaf:
        return start + 4 * rnd.next(size // 4)
    return start + 4 * (size // 8) + 4


def kernel_groups(kind):
    """mix(kind) as spdk_mix() gives it: the kernel initiator's work."""
    big, big_idle, little, little_idle = mix(kind)
    return [(range(0, 10), "kworker/u80:3", big, big_idle // 2),
            (range(10, 20), "kworker/u80:3", little, little_idle // 2)]


def perf_script(seed, host, scale_div=1, kind="spdk"):
    """perf script -i perf.data (perf 6.x, -a -g) of the SPDK poller
    (kind "spdk" or "spdk-lazy"), or of the kernel initiator for a
    perf.data mix, every count divided by scale_div."""
    rnd = Rand(seed)
    samples = []
    groups = spdk_mix(kind) if kind in SPDK_KINDS else [
        (c, n, [(st, k // 2) for st, k in m], i)
        for c, n, m, i in kernel_groups(kind)]
    for cpus, comm, mixes, idle in groups:
        # count per CPU times the group's CPUs, divided, then dealt out
        # round the CPUs: the shares per core type stay as in the mix
        k = 0
        for stack, count in mixes + [(IDLE, idle)]:
            for _ in range(count * len(cpus) // scale_div):
                cpu = cpus[k % len(cpus)]
                k += 1
                name = comm % cpu if "%" in comm else comm
                samples.append((cpu, name if stack is not IDLE
                                else "swapper", stack))
    order = list(range(len(samples)))
    for i in range(len(order) - 1, 0, -1):
        j = rnd.next(i + 1)
        order[i], order[j] = order[j], order[i]
    out = ["# ========", "# captured on    : Mon Nov 24 16:05:12 2025",
           "# header version : 1", "# hostname : %s" % host,
           "# os release : 6.11.0-1016-nvidia", "# perf version : 6.11.0",
           "# arch : aarch64", "# nrcpus online : 20",
           "# nrcpus avail : 20", "# cpuid : 0x00000000410fd850",
           "# total memory : 127535284 kB",
           "# cmdline : /usr/bin/perf record -a -g -- sleep 10",
           "# event : name = cycles:P, , id = { 17, 18 }, size = 136, "
           "{ sample_period, sample_freq } = 4000, sample_type = "
           "IP|TID|TIME|CALLCHAIN|CPU|PERIOD, read_format = ID, "
           "disabled = 1, inherit = 1, freq = 1, sample_id_all = 1, "
           "exclude_guest = 1",
           "# ========", "#"]
    t = 1_764_000_300_000_000
    pids = {}
    for k in order:
        cpu, comm, stack = samples[k]
        pid = 0 if comm == "swapper" else pids.setdefault(
            "reactor", 41872) + cpu
        period = 975000 if cpu < 10 else 702000
        period += rnd.next(period // 10) - period // 20
        t += 2_500 * scale_div + rnd.next(100)
        out.append("%16s %6d [%03d] %d.%06d: %10d cycles:P: "
                   % (comm, pid, cpu, t // 1_000_000, t % 1_000_000,
                      period))
        for n, fn in enumerate(stack):
            addr = frame_addr(rnd, fn, n == 0)
            out.append("\t%16x %s+0x%x (%s)"
                       % (addr, fn, addr - where(fn)[0], dso_of(fn)))
        out.append("")
    return "\n".join(out) + "\n"


# Each sample's profile: the perf.data mix (strict, lazy, lazy at half
# the traffic) and seed, or the SPDK poller's perf script text (strict
# or lazy).
CASES = [
    ("gx10-before", "data", "strict", 0x6b10),
    ("gx10-after", "data", "lazy", 0x6b11),
    ("gx10-kernel-before", "data", "strict", 0x6b12),
    ("gx10-half-after", "data", "half", 0x6b13),
    ("gx10-spdk-before", "script", "spdk", 0x6b14),
    ("gx10-spdk-after", "script", "spdk-lazy", 0x6b15),
    ("gx10-strict-after", "data", "strict", 0x6b16),
    # gx10-after's profile, with softnet snapshots beside it
    ("gx10-softnet-drops", "data", "lazy", 0x6b11),
    ("gx10-softnet-quiet", "data", "lazy", 0x6b11),
    # gx10-half-after's and gx10-after's, with NVMe multipath outputs
    ("gx10-multipath-numa", "data", "half", 0x6b13),
    ("gx10-multipath-rr", "data", "lazy", 0x6b11),
    ("gx10-paths-one-link", "data", "half", 0x6b13),
]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--script":
        # --script HOST DIV FILE [MIX]: the SPDK profile (MIX spdk, the
        # default, or spdk-lazy; or the kernel initiator's, MIX strict,
        # lazy or half) as perf script text, its counts divided by DIV,
        # gzip'd when FILE ends in .gz
        host, div, path = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        kind = sys.argv[5] if len(sys.argv) > 5 else "spdk"
        text = perf_script(0x6b20 + div, host, div, kind).encode()
        write(path, gz(text) if path.endswith(".gz") else text)
        return
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "bundles")
    scale = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for name, kind, mixname, seed in CASES:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        if kind == "data":
            write(os.path.join(d, "perf.data.gz"),
                  gz(perf_data(mixname, seed, scale)))
            with open(os.path.join(d, "kallsyms.txt"), "w") as f:
                f.write(kallsyms())
        else:
            write(os.path.join(d, "perf-script.txt.gz"),
                  gz(perf_script(seed, "gx10", 2, mixname).encode()))
        with open(os.path.join(d, "cpuinfo.txt"), "w") as f:
            f.write(cpuinfo())


if __name__ == "__main__":
    main()
