#!/usr/bin/env python3
"""Large hostile bundles, made at test time (tests/hostile-memory.sh).

  gen-hostile.py elf OUT.tgz MIB        an ELF member of MIB MiB, almost all
                                        zeros (a few KB gzip'd): its .symtab
                                        in the middle, its section headers
                                        at the end
  gen-hostile.py script OUT.tgz N LEN   a perf script of N samples, each
                                        named by its own LEN-byte symbol
  gen-hostile.py run BIN BUNDLE         runs BIN -f json BUNDLE; prints its
                                        exit status, peak RSS in KB (the
                                        child's ru_maxrss), CPU seconds
                                        and the note ids of the report
"""
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import zlib

UNAME = b"Linux db1 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 " \
    b"x86_64 GNU/Linux\n"


class Gz:
    """A .tgz written member by member, its data fed in chunks."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.z = zlib.compressobj(1, zlib.DEFLATED, 31)

    def put(self, b):
        self.f.write(self.z.compress(b))

    def member(self, name, size, chunks):
        ti = tarfile.TarInfo(name)
        ti.size = size
        ti.mtime = 1764000000
        self.put(ti.tobuf(format=tarfile.USTAR_FORMAT))
        n = 0
        for c in chunks:
            n += len(c)
            self.put(c)
        assert n == size, (n, size)
        if size % 512:
            self.put(b"\0" * (512 - size % 512))

    def close(self):
        self.put(b"\0" * 1024)
        self.f.write(self.z.flush())
        self.f.close()


def zeros(n):
    block = b"\0" * (1 << 20)
    while n > 0:
        k = min(n, len(block))
        yield block[:k]
        n -= k


def elf(out, mib):
    size = mib << 20
    mid = size // 2
    strtab = b"\0work\0"
    shstr = b"\0.symtab\0.strtab\0.shstrtab\0"
    sym = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0) + \
        struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0x401000, 16)
    shoff = size - 4 * 64
    shstr_off = shoff - 64

    def shdr(name, typ, off, sz, link=0, ent=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, sz, link,
                           0, 1, ent)
    sh = shdr(0, 0, 0, 0) + shdr(1, 2, mid, len(sym), 2, 24) + \
        shdr(9, 3, mid + len(sym), len(strtab)) + \
        shdr(17, 3, shstr_off, len(shstr))
    eh = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack(
        "<HHIQQQIHHHHHH", 2, 62, 1, 0x401000, 0, shoff, 0, 64, 56, 0, 64,
        4, 3)

    def body():
        yield eh
        yield from zeros(mid - len(eh))
        yield sym + strtab
        yield from zeros(shstr_off - mid - len(sym) - len(strtab))
        yield shstr.ljust(64, b"\0")
        yield sh
    g = Gz(out)
    g.member("h/uname.txt", len(UNAME), [UNAME])
    g.member("h/.debug/.build-id/ab/cdef/elf", size, body())
    g.close()


def script(out, n, length):
    pad = b"x" * length

    def sample(i):
        name = b"f%07d_" % i + pad[: max(0, length - 9)]
        return b"app 100/100 [000] %d.%06d: cpu-clock: \n" % (
            1000 + i // 1000000, i % 1000000) + \
            b"\t          401000 " + name + b" (/usr/bin/app)\n\n"
    size = len(sample(0)) * n
    g = Gz(out)
    g.member("h/uname.txt", len(UNAME), [UNAME])
    g.member("h/perf-script.txt", size, (sample(i) for i in range(n)))
    g.close()


def notes(rep):
    ids = set()

    def walk(o):
        if isinstance(o, dict):
            if "id" in o and isinstance(o["id"], str) and "." in o["id"]:
                ids.add(o["id"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(rep)
    return sorted(ids)


def run(binary, bundle):
    # the child's own CPU time (tests/linear.py says why) and peak RSS
    p = subprocess.Popen([binary, "-f", "json", bundle],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, use = os.wait4(p.pid, 0)
    try:
        ids = notes(json.loads(out))
    except ValueError:
        ids = ["unreadable-report"]
    print(os.waitstatus_to_exitcode(status), use.ru_maxrss,
          "%.3f" % (use.ru_utime + use.ru_stime), ",".join(ids) or "-")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "elf":
        elf(sys.argv[2], int(sys.argv[3]))
    elif mode == "script":
        script(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        run(sys.argv[2], sys.argv[3])
