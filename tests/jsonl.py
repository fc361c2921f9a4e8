#!/usr/bin/env python3
"""-f jsonl BUNDLE...: one line per bundle in the order given, the same
bytes at every -j, each line's report what -f json prints for its bundle
alone, the content hash as sha256sum (a directory's as the contract
spells it), failing bundles as lines, the exit status the worst, a
worker killed by a signal, a slow first bundle that others overtake.
Usage: tests/jsonl.py BIN (from the repository root)."""
import glob
import hashlib
import json
import os
import pty
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
RANK = {0: 0, 1: 1, 4: 2, 3: 3}
failed = 0


def result(name, ok, why=""):
    global failed
    if ok:
        print("ok jsonl %s" % name)
    else:
        failed += 1
        print("not ok jsonl %s%s" % (name, ": " + why if why else ""))


def run(args, stdin=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True,
                       timeout=900)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def file_hash(path):
    data = open(path, "rb").read()
    return hashlib.sha256(data).hexdigest(), len(data)


def dir_hash(root):
    """The contract: regular files in byte order of their relative paths,
    each as the path, a NUL, the size in decimal, a NUL, the bytes."""
    rels = []
    for dp, _, names in os.walk(root.encode()):
        for n in names:
            p = os.path.join(dp, n)
            if stat.S_ISREG(os.lstat(p).st_mode):
                rels.append(os.path.relpath(p, root.encode()))
    h, total = hashlib.sha256(), 0
    for r in sorted(rels):
        data = open(os.path.join(root.encode(), r), "rb").read()
        h.update(r + b"\0" + str(len(data)).encode() + b"\0" + data)
        total += len(data)
    return h.hexdigest(), total


def lines_of(out):
    text = out.decode("utf-8")
    assert text.endswith("\n"), "no final newline"
    return [json.loads(t) for t in text[:-1].split("\n")]


def worst(exits):
    return max(exits, key=lambda e: RANK[e])


def make_inputs(tmp):
    """A directory whose path order differs from the walker's ("a.txt"
    before "a/x"), with a link and a fifo left out; an empty file; a
    truncated .tgz; a missing path; a file of mode 000."""
    d = os.path.join(tmp, "dirbundle")
    shutil.copytree("samples/bundles/pve-tso-on", d)
    os.makedirs(os.path.join(d, "a"))
    open(os.path.join(d, "a.txt"), "w").write("x\n")
    open(os.path.join(d, "a", "x"), "w").write("")
    os.symlink("a.txt", os.path.join(d, "link"))
    os.mkfifo(os.path.join(d, "fifo"))
    empty = os.path.join(tmp, "empty.tgz")
    open(empty, "wb").close()
    whole = open("samples/gx10-before.tgz", "rb").read()
    cut = os.path.join(tmp, "cut.tgz")
    open(cut, "wb").write(whole[:len(whole) // 2])
    locked = os.path.join(tmp, "locked.tgz")
    shutil.copy("samples/pve-tso-off.tgz", locked)
    os.chmod(locked, 0)
    return [d, "samples/bundles/gx10-before", empty, cut,
            os.path.join(tmp, "missing.tgz"), locked]


def check_hash(b, line):
    if not os.path.exists(b) or not os.access(b, os.R_OK):
        return ("sha256" not in line and "bytes" not in line and
                "hash_error" in line)
    want = dir_hash(b) if os.path.isdir(b) else file_hash(b)
    return (line.get("sha256"), line.get("bytes")) == want and \
        "hash_error" not in line


def check_line(b, line, opts, stdin):
    """The line against -f json of the bundle alone; '' when they agree."""
    rc, out, err = run(["-f", "json"] + opts + [b], stdin)
    # --redact masks host names in the path too, as in the report's
    want = json.loads(out)["bundle"] if "--redact" in opts else b
    if line["bundle"] != want:
        return "bundle %r, want %r" % (line["bundle"], want)
    if line["exit"] != rc:
        return "exit %d, -f json's %d" % (line["exit"], rc)
    if rc == 3:
        want = err.strip().split("\n")[-1].removeprefix("pathdoctor: ")
        if "report" in line or line.get("error") != want:
            return "error %r, want %r" % (line.get("error"), want)
    elif line.get("report") != json.loads(out):
        return "report differs from -f json's"
    return ""


def test_all(tmp):
    samples = sorted(glob.glob("samples/*.tgz"))
    extra = make_inputs(tmp)
    stdin_src = "samples/pve-two-hosts.tgz"
    bundles = samples[:3] + ["-"] + samples[3:] + extra
    opts = ["--fail-on", "medium"]
    feed = open(stdin_src, "rb").read()
    runs = {}
    for j in ("1", "2", "4"):
        runs[j] = run(["-f", "jsonl", "-j", j] + opts + bundles, feed)
    rc, out, err = runs["1"]
    result("same-bytes-j1-j2-j4", all(r[:2] == (rc, out)
                                      for r in runs.values()),
           "outputs or exit statuses differ")
    lines = lines_of(out)
    result("one-line-per-bundle", [x["bundle"] for x in lines] == bundles)
    for b, line in zip(bundles, lines):
        name = "stdin" if b == "-" else os.path.basename(b)
        why = check_line(b, line, opts, feed if b == "-" else None)
        result("line-" + name, not why, why)
        ok = (check_hash(stdin_src, line) if b == "-" else
              check_hash(b, line))
        result("sha256-" + name, ok, "%s %s" % (line.get("sha256"),
                                                 line.get("bytes")))
    result("exit-worst", rc == worst([x["exit"] for x in lines]),
           "exit %d" % rc)
    if os.getuid() == 0:
        print("ok jsonl unreadable # SKIP root reads a file of mode 000")
    else:
        why = lines[-1].get("error", "")
        result("unreadable", "Permission denied" in why, why)
    result("cut-tgz-analysed", "report" in lines[bundles.index(extra[3])])
    path = os.path.join(tmp, "all.jsonl")
    open(path, "wb").write(out)
    v = subprocess.run(["python3", "tests/jsonl-validate.py", path],
                       capture_output=True, text=True)
    result("schema", v.returncode == 0, v.stdout.strip())
    o = os.path.join(tmp, "o.jsonl")
    r2 = run(["-f", "jsonl", "-j", "2", "-o", o] + opts + bundles, feed)
    result("output-file", r2[0] == rc and r2[1] == b"" and
           open(o, "rb").read() == out)


def test_per_bundle_options():
    """--redact's map, --filter, --only/--skip, --min-level and the caps
    apply to each bundle as if it were alone."""
    bundles = ["samples/gx10-before.tgz", "samples/pve-two-hosts.tgz",
               "samples/gx10-tcp-retrans.tgz"]
    opts = ["--redact", "--filter", "tcp", "--skip", "pcie",
            "--min-level", "low", "--max-members", "60"]
    rc, out, err = run(["-f", "jsonl", "-j", "2"] + opts + bundles)
    lines = lines_of(out)
    for b, line in zip(bundles, lines):
        why = check_line(b, line, opts, None)
        result("options-" + os.path.basename(b), not why, why)
    rc, out, err = run(["-f", "jsonl", "--only", "nic"] +
                       ["samples/gx10-before.tgz"])
    result("one-bundle-one-line", rc in (0, 1, 4) and
           out.count(b"\n") == 1)


def children(pid):
    kids = []
    for s in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = open(s).read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(s.split("/")[2]))
    return kids


def stdin_worker(pid):
    for c in children(pid):
        try:
            if os.readlink("/proc/%d/fd/0" % c).startswith("pipe:"):
                return c
        except OSError:
            pass
    return None


def wait_for(cond, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    return None


def test_killed():
    """SIGKILL to the worker reading a stdin that gives nothing yet."""
    a, b = "samples/pve-tso-on.tgz", "samples/pve-tso-off.tgz"
    p = subprocess.Popen([BIN, "-f", "jsonl", "-j", "2", a, "-", b],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    w = wait_for(lambda: stdin_worker(p.pid))
    if w:
        os.kill(w, signal.SIGKILL)
    out, _ = p.communicate(timeout=600)
    lines = lines_of(out)
    mid = lines[1] if len(lines) == 3 else {}
    result("worker-killed", w is not None and p.returncode == 3 and
           mid.get("error") == "analysis ended by signal 9" and
           mid.get("exit") == 3 and "report" in lines[0] and
           "report" in lines[2], "exit %s, %r" % (p.returncode, mid))


def rchar(pid):
    try:
        for t in open("/proc/%d/io" % pid):
            if t.startswith("rchar:"):
                return int(t.split()[1])
    except OSError:
        pass
    return -1


def test_killed_hashed(tmp):
    """SIGKILL to a worker past its hash pass (it has read the file
    once: /proc/PID/io): the line says signal 9 and still has the hash."""
    big = os.path.join(tmp, "big.pcap")
    d = open("samples/bundles/gx10-before/pcap/nic2.pcap", "rb").read()
    open(big, "wb").write(d[:24] + d[24:] * 40)
    size = os.path.getsize(big)
    p = subprocess.Popen([BIN, "-f", "jsonl", "-j", "1", big],
                         stdout=subprocess.PIPE)
    w = wait_for(lambda: (children(p.pid) or [None])[0])
    hashed = w and wait_for(lambda: rchar(w) >= size or rchar(w) < 0)
    time.sleep(0.02)  # the hash line is written just after that read
    if hashed and rchar(w) > 0:
        os.kill(w, signal.SIGKILL)
    out, _ = p.communicate(timeout=600)
    line = lines_of(out)[0]
    if "report" in line:
        print("ok jsonl worker-killed-hashed # SKIP the worker finished "
              "before the signal")
        return
    result("worker-killed-hashed", line.get("error") ==
           "analysis ended by signal 9" and
           (line.get("sha256"), line.get("bytes")) == file_hash(big),
           repr(line))


def fifo_worker(pid, path):
    for c in children(pid):
        try:
            if path in [os.readlink("/proc/%d/fd/%s" % (c, fd))
                        for fd in os.listdir("/proc/%d/fd" % c)]:
                return c
        except OSError:
            pass
    return None


def test_killed_redacted(tmp):
    """--redact, and a worker killed while it reads a bundle whose path
    holds its host's name: the parent writes that line, and cannot know
    what the worker would have masked, so the whole path is a token."""
    host = "gx10"   # samples/bundles/gx10-before/uname.txt names it
    fifo = os.path.join(tmp, host + ".tgz")
    os.mkfifo(fifo)
    first = "samples/pve-tso-on.tgz"
    p = subprocess.Popen([BIN, "-f", "jsonl", "--redact", "-j", "2",
                          first, fifo], stdout=subprocess.PIPE)
    writer = open(fifo, "wb")
    writer.write(open("samples/gx10-before.tgz", "rb").read()[:4096])
    writer.flush()
    w = wait_for(lambda: fifo_worker(p.pid, fifo))
    if w:
        os.kill(w, signal.SIGKILL)
    out, _ = p.communicate(timeout=600)
    writer.close()
    lines = lines_of(out)
    line = lines[1] if len(lines) == 2 else {}
    result("worker-killed-redacted", w is not None and
           line.get("error") == "analysis ended by signal 9" and
           line.get("bundle") == "{bundle-2}" and
           host.encode() not in out and "report" in lines[0],
           repr(out[-300:]))


def test_order():
    """A slow stdin first: the bundles after it finish (their workers
    gone) while it is still read, and their lines still come after its."""
    later = ["samples/pve-tso-on.tgz", "samples/pve-tso-off.tgz",
             "samples/pve-link-1g.tgz"]
    feed = open("samples/pve-gso-after.tgz", "rb").read()
    p = subprocess.Popen([BIN, "-f", "jsonl", "-j", "4", "-"] + later,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.write(feed[:100])
    p.stdin.flush()
    w = wait_for(lambda: stdin_worker(p.pid))
    overtaken = wait_for(lambda: w and children(p.pid) == [w])
    p.stdin.write(feed[100:])
    p.stdin.close()
    out = p.stdout.read()
    p.wait(timeout=600)
    lines = lines_of(out)
    result("order-kept", overtaken and [x["bundle"] for x in lines] ==
           ["-"] + later and "report" in lines[0],
           "overtaken %s, %r" % (overtaken, [x["bundle"] for x in lines]))


def test_status_line():
    """stderr a terminal: the batch's one status line, no worker's."""
    bundles = ["samples/pve-tso-on.tgz", "samples/pve-tso-off.tgz",
               "samples/pve-link-1g.tgz"]
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN, "-f", "jsonl", "-j", "2"] + bundles,
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    out, _ = p.communicate(timeout=600)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    text = seen.decode("utf-8", "replace")
    result("status-line", p.returncode == 0 and out.count(b"\n") == 3 and
           "pathdoctor: 3 of 3 bundles" in text and "\n" not in text and
           text.endswith("\r"),
           repr(text[-200:]))


def test_hash_error():
    """A bundle that gets no hash says why, and is analysed all the
    same."""
    d = "samples/bundles/gx10-before"
    rc, out, err = run(["-f", "jsonl", "--max-members", "3", d])
    line = lines_of(out)[0]
    result("hash-error-why", "sha256" not in line and
           line.get("hash_error") == "more than 3 files: not hashed" and
           "report" in line, repr(line.get("hash_error")))


def test_usage():
    cases = [
        (["-f", "md", "samples/pve-tso-on.tgz", "samples/pve-tso-off.tgz"],
         "-f jsonl"),
        (["-f", "jsonl", "-", "-"], "stdin (-) can be one of the bundles"),
        (["-f", "jsonl", "--redact-map", "/dev/null",
          "samples/pve-tso-on.tgz", "samples/pve-tso-off.tgz"],
         "--redact-map with one bundle only"),
        (["-f", "jsonl", "-j", "0", "samples/pve-tso-on.tgz"],
         "-j: between 1 and"),
        (["-f", "jsonl", "--dump-model", "samples/pve-tso-on.tgz"],
         "--dump-model reads one bundle"),
        (["-j", "2", "samples/pve-tso-on.tgz"], "-j: bundles at once, for "
         "-f jsonl"),
        (["-f", "json", "-j", "2", "samples/pve-tso-on.tgz"],
         "-j: bundles at once, for -f jsonl"),
    ]
    for i, (args, want) in enumerate(cases):
        rc, out, err = run(args)
        result("usage-%d" % i, rc == 2 and want in err and out == b"",
               "exit %d, %r" % (rc, err))


def main():
    tmp = tempfile.mkdtemp(prefix="pd-jsonl-")
    try:
        test_all(tmp)
        test_per_bundle_options()
        test_killed()
        test_killed_hashed(tmp)
        test_killed_redacted(tmp)
        test_order()
        test_status_line()
        test_hash_error()
        test_usage()
    finally:
        os.chmod(os.path.join(tmp, "locked.tgz"), 0o600)
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
