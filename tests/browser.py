#!/usr/bin/env python3
"""The HTML report in a real browser: python3 tests/browser.py BIN [BUNDLE...]

For each bundle (default: samples/*.tgz) BIN -f html writes the page,
headless Chromium loads it from a file:// URL, and the page must

- log no console error and throw no exception,
- make no network request but the one for the file itself,
- hold one .finding per finding and one .capture-pair per finding with a
  two-sided chart (counted in BIN -f json of the same bundle), no open
  <details> and nothing wider than the window,
- render: the screenshot is not blank (decoded here, it has at least
  MIN_COLOURS distinct colours); it is kept in build/screenshots/NAME.png
  for a person to look at.

Chromium is driven with the DevTools protocol over --remote-debugging-pipe
(it reads commands on fd 3 and writes replies and events on fd 4, one JSON
message each, NUL-terminated), so no library or port is needed.  Prints
TAP: "ok browser NAME ..." or "not ok browser NAME: why"; without
/usr/bin/chromium one "# SKIP" line (a failure when CI=true, where
make deps installs it).
"""
import base64
import fcntl
import glob
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1280, 900
MIN_COLOURS = 16
TIMEOUT = 60.0


class Browser:
    """One headless Chromium and one page target attached to it."""

    def __init__(self, profile_dir):
        cmd_r, cmd_w = os.pipe()
        resp_r, resp_w = os.pipe()
        # the child must find them as fds 3 and 4: move ours out of the
        # way first so that no dup2 below overwrites another
        cmd_r, cmd_w, resp_r, resp_w = [self._high(fd) for fd in
                                        (cmd_r, cmd_w, resp_r, resp_w)]
        os.dup2(cmd_r, 3)
        os.dup2(resp_w, 4)
        args = [CHROMIUM, "--headless", "--remote-debugging-pipe",
                "--user-data-dir=" + profile_dir, "--disable-gpu",
                "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-extensions",
                "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--mute-audio",
                "--window-size=%d,%d" % (WIDTH, HEIGHT), "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        os.makedirs(profile_dir)
        self.log_path = profile_dir + ".stderr"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, pass_fds=(3, 4),
                                     stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        for fd in (3, 4, cmd_r, resp_w):
            os.close(fd)
        self.wfd, self.rfd = cmd_w, resp_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    @staticmethod
    def _high(fd):
        new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return new

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("no reply from chromium in time")
            ready, _, _ = select.select([self.rfd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe (exit %s)"
                                   % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True):
        """Sends one command and returns its result; events that arrive
        meanwhile are kept in self.events."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.wfd, data):]
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method, seconds=TIMEOUT):
        deadline = time.monotonic() + seconds
        for i, m in enumerate(self.events):
            if m["method"] == method:
                return self.events.pop(i)
        while True:
            m = self._read_message(deadline)
            if "method" in m:
                if m["method"] == method:
                    return m
                self.events.append(m)

    def settle(self, seconds):
        """Collects the events of the next few moments (late requests,
        errors logged after load)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                m = self._read_message(deadline)
                if "method" in m:
                    self.events.append(m)
        except RuntimeError as e:
            if "in time" not in str(e):
                raise

    def attach_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"},
                           session=False)["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT,
                   "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expr):
        r = self.send("Runtime.evaluate",
                      {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluating %s: %s" % (expr,
                               r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.wfd)
        os.close(self.rfd)
        self.log.close()


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_colours(data, enough):
    """Distinct pixel colours of an 8-bit RGB or RGBA PNG, counting
    stops at enough (a rendered page reaches it within its first rows)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("PNG of depth %d, colour type %d, interlace %d"
                         % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompressobj()
    stride = w * bpp
    pending = b""
    prev = bytearray(stride)
    seen = set()
    for chunk in idat:
        pending += raw.decompress(chunk)
        while len(pending) >= stride + 1:
            ftype, line = pending[0], bytearray(pending[1:stride + 1])
            pending = pending[stride + 1:]
            unfilter(ftype, line, prev, bpp)
            for x in range(0, stride, bpp):
                seen.add(bytes(line[x:x + bpp]))
            if len(seen) >= enough:
                return len(seen)
            prev = line
    return len(seen)


def unfilter(ftype, line, prev, bpp):
    n = len(line)
    if ftype == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif ftype == 2:
        for i in range(n):
            line[i] = (line[i] + prev[i]) & 255
    elif ftype == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
    elif ftype == 4:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            up_left = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + paeth(left, prev[i], up_left)) & 255


def expected_counts(binary, bundle):
    """Findings, and findings with a two-sided chart, from the JSON
    report: its chart's header row (under a line on the scales, when
    there is one) has a count column per side."""
    out = subprocess.run([binary, "-f", "json", bundle], check=True,
                         stdout=subprocess.PIPE).stdout
    findings = json.loads(out)["findings"]
    pairs = sum(1 for f in findings if f["chart"] and
                any(line.split().count("count") == 2
                    for line in f["chart"].split("\n")[:2]))
    return len(findings), pairs


def problems_in(events, url):
    """Console errors, exceptions and requests for anything but url."""
    bad = []
    for m in events:
        p = m.get("params", {})
        if m["method"] == "Runtime.exceptionThrown":
            bad.append("exception: %s" % p["exceptionDetails"].get("text"))
        elif m["method"] == "Runtime.consoleAPICalled" and \
                p.get("type") in ("error", "assert"):
            bad.append("console.%s" % p["type"])
        elif m["method"] == "Log.entryAdded" and \
                p["entry"].get("level") == "error":
            bad.append("console error: %s" % p["entry"].get("text"))
        elif m["method"] == "Network.requestWillBeSent" and \
                p["request"]["url"] != url:
            bad.append("request for %s" % p["request"]["url"][:120])
    return bad


def check_page(b, html, want_findings, want_pairs, shot):
    """Loads html; returns a list of what is wrong (empty: all good)."""
    url = "file://" + html
    b.events = []
    b.send("Page.navigate", {"url": url})
    b.wait_event("Page.loadEventFired")
    b.settle(0.5)
    bad = problems_in(b.events, url)
    dom = b.evaluate("JSON.stringify({"
                     "findings: document.querySelectorAll('.finding').length,"
                     "pairs: document.querySelectorAll('.capture-pair').length,"
                     "open: document.querySelectorAll('details[open]').length,"
                     "wide: document.documentElement.scrollWidth,"
                     "height: document.documentElement.scrollHeight})")
    dom = json.loads(dom)
    if dom["findings"] != want_findings:
        bad.append("%d .finding, want %d" % (dom["findings"], want_findings))
    if dom["pairs"] != want_pairs:
        bad.append("%d .capture-pair, want %d" % (dom["pairs"], want_pairs))
    if dom["open"]:
        bad.append("%d <details> open" % dom["open"])
    if dom["wide"] > WIDTH:
        bad.append("page %d px wide in a %d px window" % (dom["wide"], WIDTH))
    png = b.send("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": WIDTH,
                 "height": max(dom["height"], 1), "scale": 1}})["data"]
    data = base64.b64decode(png)
    with open(shot, "wb") as f:
        f.write(data)
    colours = png_colours(data, MIN_COLOURS)
    if colours < MIN_COLOURS:
        bad.append("screenshot blank: %d colour%s" %
                   (colours, "" if colours == 1 else "s"))
    return bad, dom


def sample_name(bundle):
    name = os.path.basename(bundle.rstrip("/"))
    for ext in (".tgz", ".tar.gz"):
        if name.endswith(ext):
            return name[:-len(ext)]
    return name


def main():
    if len(sys.argv) < 2:
        print("usage: browser.py BIN [BUNDLE...]", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    bundles = sys.argv[2:] or sorted(glob.glob("samples/*.tgz"))
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI") == "true":
            print("not ok browser %s not found (CI requires it: make deps)"
                  % CHROMIUM)
            return 1
        print("ok browser # SKIP %s not installed (make deps installs it)"
              % CHROMIUM)
        return 0
    os.makedirs("build/screenshots", exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="pd-browser-")
    print("1..%d" % len(bundles))
    failed = 0
    b = None
    try:
        b = Browser(os.path.join(tmp, "profile"))
        b.attach_page()
    except (RuntimeError, OSError) as e:
        for bundle in bundles:
            print("not ok browser %s: chromium did not start: %s"
                  % (sample_name(bundle), e))
        log = os.path.join(tmp, "profile.stderr")
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                for line in f.read().splitlines()[-5:]:
                    print("#   " + line)
        if b:
            b.close()
        b = None
        failed = len(bundles)
    try:
        failed += run_all(b, binary, bundles, tmp) if b else 0
    finally:
        if b:
            b.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


def run_all(b, binary, bundles, tmp):
    """One TAP line per bundle; returns how many failed."""
    failed = 0
    for bundle in bundles:
        name = sample_name(bundle)
        html = os.path.join(tmp, name + ".html")
        shot = os.path.join("build/screenshots", name + ".png")
        try:
            with open(html, "wb") as f:
                subprocess.run([binary, "-f", "html", bundle], check=True,
                               stdout=f)
            nf, npairs = expected_counts(binary, bundle)
            bad, dom = check_page(b, html, nf, npairs, shot)
        except (RuntimeError, OSError, ValueError,
                subprocess.CalledProcessError) as e:
            bad, dom = ["%s" % e], None
        if bad:
            failed += 1
            print("not ok browser %s: %s" % (name, "; ".join(bad)))
        else:
            print("ok browser %s: %d finding%s, %d capture pair%s, "
                  "%d px tall, %s" % (name, nf, "" if nf == 1 else "s",
                                      npairs, "" if npairs == 1 else "s",
                                      dom["height"], shot))
    return failed


if __name__ == "__main__":
    sys.exit(main())
