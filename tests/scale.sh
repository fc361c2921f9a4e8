#!/bin/sh
# Scaling: bundles with many PCI devices (bridges found by bus range),
# many interfaces in one ip link, many sysctls, many ethtool -S
# snapshots of one interface, many host directories, and pathdoctor diff
# of two bundles of many hosts, generated here at N and 2N (a quarter
# of that for the two made of one member per record).  Each must take
# CPU time that grows about linearly (time(2N)/time(N) < 3; quadratic
# work makes it 4; tests/linear.py measures), peak memory under 256 MB,
# exit 0, with a sibling member (uname -a) still analysed.
#   sh tests/scale.sh BIN [N]      (default N 20000)
set -u
bin=${1:-build/san/pathdoctor}
n=${2:-20000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$bin" "$n" "$dir" <<'PY'
import io, os, subprocess, sys, tarfile

sys.path.insert(0, "tests")
import linear  # noqa: E402

binary, n, top = sys.argv[1], int(sys.argv[2]), sys.argv[3]
UNAME = "Linux scale 6.8.0 #1 SMP x86_64 x86_64 x86_64 GNU/Linux\n"


def put(tar, path, text):
    data = text.encode()
    info = tarfile.TarInfo(path)
    info.size, info.mtime = len(data), 1700000000
    tar.addfile(info, io.BytesIO(data))


def lspci(tar, k):
    # bridges and endpoints over domains of 256 buses: a bridge on bus 0
    # opens bus b (its own range), its endpoints sit on bus b; no tree,
    # so every parent comes from the bus ranges
    out, i = [], 0
    while i < k:
        dom, b = divmod(i // 4 + 1, 255)
        b += 1
        out.append("%04x:00:%02x.%d PCI bridge: Scale Bridge\n"
                   "\tBus: primary=00, secondary=%02x, subordinate=%02x, "
                   "sec-latency=0\n\n" % (dom, b // 8, b % 8, b, b))
        for fn in range(3):
            out.append("%04x:%02x:00.%d Ethernet controller: Scale NIC\n\n"
                       % (dom, b, fn))
        i += 4
    put(tar, ("h/lspci-vv.txt"), "".join(out))
    put(tar, ("h/uname.txt"), UNAME)


def iplink(tar, k):
    out = []
    for i in range(k):
        # names not in strcmp order of their indexes
        out.append("%d: e%d: <BROADCAST,UP> mtu 1500 qdisc mq state UP "
                   "mode DEFAULT group default qlen 1000\n"
                   "    link/ether 00:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff "
                   "numtxqueues 1 numrxqueues 1\n" % (i + 1, (i * 7919) % k))
    put(tar, ("h/ip-link.txt"), "".join(out))
    put(tar, ("h/uname.txt"), UNAME)


def snaps(tar, k):
    for i in range(k):
        t = 1700000000 + (i * 7919) % k	# not in time order
        put(tar, "h/ethtool-S/e0@%d.txt" % t,
            "# date: %d\nNIC statistics:\n     rx_bytes: %d\n"
            "     tx_bytes: %d\n" % (t, t * 1000, t * 10))
    put(tar, ("h/uname.txt"), UNAME)


def sysctls(tar, k):
    put(tar, "h/sysctl.txt", "".join("net.scale.k%d = %d\n" %
                                     ((i * 7919) % k, i) for i in range(k)))
    put(tar, "h/uname.txt", UNAME)


def hosts(tar, k):
    for i in range(k):
        put(tar, "h%d/cmdline.txt" % ((i * 7919) % k),
            "BOOT_IMAGE=/vmlinuz ro quiet\n")
    put(tar, ("h/uname.txt"), UNAME)


def diff_hosts(tar, k):
    # BEFORE; AFTER is the same hosts with one parameter added (after())
    for i in range(k):
        put(tar, "h%d/cmdline.txt" % ((i * 7919) % k),
            "BOOT_IMAGE=/vmlinuz ro quiet\n")
    put(tar, ("h/uname.txt"), UNAME)


def after(root, k):
    path = root + ".after.tar"
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
        for i in range(k):
            put(tar, "h%d/cmdline.txt" % ((i * 7919) % k),
                "BOOT_IMAGE=/vmlinuz ro quiet iommu.strict=0\n")
        put(tar, ("h/uname.txt"), UNAME)
    return path


def command(root, k=0):
    return [binary, "--dump-model", root] if not k else \
        [binary, "diff", "-f", "md", root, after(root, k)]


def run(argv):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, use = os.wait4(p.pid, 0)
    # this child's own CPU time (other work on the machine does not
    # count) and peak memory (KiB on Linux)
    return (os.waitstatus_to_exitcode(status), out,
            use.ru_utime + use.ru_stime, use.ru_maxrss / 1024.0)


# a member costs more than a line: fewer of them (in a plain tar, no
# directory walk) keep each run short
cases = [("lspci", lspci, n), ("ip-link", iplink, n),
         ("sysctl", sysctls, n), ("snapshots", snaps, n // 4),
         ("hosts", hosts, n // 4), ("diff", diff_hosts, n // 10)]
print("1..%d" % (4 * len(cases)))
t = 0
for name, gen, size in cases:
    res, argvs, files = [], [], []
    for k in (size, 2 * size):
        root = os.path.join(top, "%s-%d.tar" % (name, k))
        with tarfile.open(root, "w", format=tarfile.USTAR_FORMAT) as tar:
            gen(tar, k)
        argvs.append(command(root, k if name == "diff" else 0))
        res.append(run(argvs[-1]))
        files += [root] + ([root + ".after.tar"] if name == "diff" else [])
    (rc1, out1, t1, m1), (rc2, out2, t2, m2) = res
    # a ratio over the line is measured again (tests/linear.py says why)
    t1, t2 = linear.settle(argvs[0], argvs[1], t1, t2)
    for path in files:
        os.unlink(path)

    def ok(cond, what):
        global t
        t += 1
        print("%s %d - %s %s" % ("ok" if cond else "not ok", t, name, what))

    ok(rc1 == 0 and rc2 == 0, "exit 0 (%d, %d)" % (rc1, rc2))
    ok(linear.linear(t1, t2), "time: " + linear.verdict(t1, t2))
    ok(m2 < 256, "peak memory %.0f MB" % m2)
    ok(b"nodename: scale; kernel: 6.8.0" in out2 or
       (name == "diff" and
        out2.count(b"| cmdline | iommu.strict | (absent) | "
                   b"iommu.strict=0 |") == 2 * size),
       "a sibling member analysed" if name != "diff" else
       "the change found on every host")
PY
