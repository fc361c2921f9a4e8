#!/usr/bin/env python3
"""The status lines on a terminal: a slow pipe into `pathdoctor -` with
stderr on a pseudo-terminal must show that stdin is silent and a member's
progress, each taken off again; with stderr a file, neither.  And the
report on a pseudo-terminal: coloured only without NO_COLOR and with a
TERM that is not dumb, laid out for the terminal's width.  TAP output.

    python3 tests/progress.py BIN
"""
import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import tarfile
import tempfile
import termios
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


def drain(master):
    """Everything written to the pty until its last writer is gone."""
    got = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:             # EIO: every writer of the pty is gone
            break
        if not chunk:
            break
        got += chunk
    os.close(master)
    return got


def report_on_tty(binary, env, cols):
    """pathdoctor SAMPLE with stdout on a pty of cols columns."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    full = {k: v for k, v in os.environ.items()
            if k not in ("NO_COLOR", "TERM", "COLUMNS")}
    full.update({k: v for k, v in env.items() if v is not None})
    p = subprocess.Popen([binary, "samples/gx10-before.tgz"],
                         stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=subprocess.DEVNULL, env=full)
    os.close(slave)
    out = drain(master).decode("utf-8", "replace")
    return p.wait(), out


def widest(text):
    """The longest line, colour codes and the pty's \r taken off."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text).replace("\r", "")
    return max(len(line) for line in plain.split("\n"))


def colour_cases(binary, results):
    cases = (("colour on a terminal", {"TERM": "xterm"}, True),
             ("colour with NO_COLOR empty", {"TERM": "xterm",
                                             "NO_COLOR": ""}, True),
             ("no colour with NO_COLOR set", {"TERM": "xterm",
                                              "NO_COLOR": "1"}, False),
             ("no colour with TERM=dumb", {"TERM": "dumb"}, False),
             ("no colour with TERM unset", {}, False))
    for name, env, want in cases:
        rc, out = report_on_tty(binary, env, 80)
        results.append((name, rc == 0 and ("\x1b[" in out) == want))
    rc, out = report_on_tty(binary, {"TERM": "xterm"}, 100)
    results.append(("laid out for the terminal's 100 columns",
                    rc == 0 and 80 < widest(out) <= 100))
    rc, out = report_on_tty(binary, {"TERM": "xterm", "COLUMNS": "150"}, 90)
    results.append(("the terminal's width over $COLUMNS",
                    rc == 0 and widest(out) <= 90))


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
    colour_cases(binary, results)

    print("1..%d" % len(results))
    for name, ok in results:
        print("%s progress %s" % ("ok" if ok else "not ok", name))
    if not all(ok for _, ok in results) or os.environ.get("V") == "1":
        print("# terminal output: %r" % text[:600])


if __name__ == "__main__":
    main()
