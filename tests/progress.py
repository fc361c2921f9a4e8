#!/usr/bin/env python3
"""The status lines on a terminal: a slow pipe into `pathdoctor -` with
stderr on a pseudo-terminal must show that stdin is silent and a member's
progress, each taken off again; with stderr a file, neither.  TAP output.

    python3 tests/progress.py BIN
"""
import io
import os
import pty
import re
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

SILENT = 1.6            # seconds before the first byte: over the 1 s
CHUNK = 256 << 10       # then this much at a time ...
PAUSE = 0.1             # ... this far apart
BIG = 6 << 20           # the slow member: 24 chunks, about 2.4 s


def bundle():
    """A plain tar: uname.txt from a sample, then a big text member."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        uname = open("samples/bundles/gx10-before/uname.txt", "rb").read()
        for name, data in (("uname.txt", uname),
                           ("logs/big\x1b.txt", b"x" * 79 + b"\n")):
            if name.startswith("logs/"):
                data = data * (BIG // len(data))
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def writer(pipe, data):
    """The slow producer: silent first, then a chunk at a time."""
    try:
        time.sleep(SILENT)
        for i in range(0, len(data), CHUNK):
            pipe.write(data[i:i + CHUNK])
            pipe.flush()
            time.sleep(PAUSE)
    except BrokenPipeError:
        pass
    finally:
        pipe.close()


def run(binary, data, on_tty):
    """pathdoctor - fed slowly; returns (exit status, stderr bytes)."""
    if on_tty:
        master, slave = pty.openpty()
        err = slave
    else:
        err = tempfile.TemporaryFile()
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.Popen([binary, "-f", "json", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=err, env=env)
    w = threading.Thread(target=writer, args=(p.stdin, data))
    w.start()
    got = b""
    if on_tty:
        os.close(slave)
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:         # EIO: every writer of the pty is gone
                break
            if not chunk:
                break
            got += chunk
        os.close(master)
    rc = p.wait()
    w.join()
    if not on_tty:
        err.seek(0)
        got = err.read()
        err.close()
    return rc, got


def main():
    binary = sys.argv[1]
    data = bundle()
    results = []

    rc, tty = run(binary, data, True)
    text = tty.decode("utf-8", "replace")
    results.append(("exit 0 with stderr on a terminal", rc == 0))
    results.append(("waiting line on the terminal",
                    "pathdoctor: waiting for input on stdin" in text))
    prog = re.search(r"reading logs/big\\x1b\.txt: \d+ MB of 6 MB, "
                     r"\d+ (kB|MB)/s", text)
    results.append(("progress line, name escaped, of the member's size",
                    prog is not None))
    results.append(("no raw escape byte from the member name",
                    "\x1b" not in text))
    # every status line is taken off: the output ends with a clear, and
    # nothing but status lines and clears went to the terminal
    clear = re.compile(r"\r +\r")
    results.append(("status lines cleared at the end",
                    clear.search(text) is not None and
                    text.rstrip(" ").endswith("\r")))
    results.append(("no newline among the status lines", "\n" not in text))

    rc, err = run(binary, data, False)
    results.append(("exit 0 with stderr a file", rc == 0))
    results.append(("nothing on stderr when it is not a terminal",
                    err == b""))

    print("1..%d" % len(results))
    for name, ok in results:
        print("%s progress %s" % ("ok" if ok else "not ok", name))
    if not all(ok for _, ok in results) or os.environ.get("V") == "1":
        print("# terminal output: %r" % text[:600])


if __name__ == "__main__":
    main()
