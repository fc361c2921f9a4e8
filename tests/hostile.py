#!/usr/bin/env python3
"""A hostile bundle and the checks that its text reaches no report raw.

  hostile.py make BASE-DIR OUT.tar    the bundle: BASE-DIR's members with
                                      interface nic6 renamed to a name with
                                      an escape sequence and Markdown link,
                                      uname and cmdline with the same, a
                                      capture named with DEL and Markdown,
                                      and members named with them, 0xff and
                                      NULs
  hostile.py check md|term|model|json FILE
                                      one "ok"/"not ok" line per check
(tests/cli.sh runs both)
"""
import io
import json
import os
import re
import sys
import tarfile

ESC = b"\x1b[2J\x07"
IMG = b"<img src=x onerror=alert(1)>"
LINK = b"[x](http://evil.example)"
# an interface name has no '/', '.' or blank, so a shorter link
EVIL_IF = b"nic6*[x](http:evil)<b>"
# a capture's interface name from its path: 15 bytes, no blank or ':'
EVIL_CAP = b"c\x7f[x](h:e)<i>"
NAMES = [
    b"notes/" + ESC + b"bell.txt",
    b"notes/" + IMG + b".txt",
    b"notes/" + LINK + b".txt",
    b"notes/\xffbad.txt",
    b"notes/tick`code``span.txt",
]


def add(tar, name, data):
    ti = tarfile.TarInfo(name.decode("utf-8", "surrogateescape"))
    ti.size = len(data)
    ti.mtime = 1764000000
    tar.addfile(ti, io.BytesIO(data))


def member(rel, data):
    """BASE's member, nic6 renamed, uname and cmdline made hostile."""
    name = rel.encode().replace(b"nic6", EVIL_IF)
    if not rel.endswith((".gz", ".pcap", ".data")):
        data = data.replace(b"nic6", EVIL_IF)
    if rel == "uname.txt":
        # one control byte: readers take a file with over 1 % of them
        # for binary
        data = data.replace(b"6.11.0-1016-nvidia #16",
                            b"6.11.0-\x1b[2J<img/src=x/onerror=1> #16")
    if rel == "cmdline.txt":
        data = data.rstrip(b"\n") + b" evil=" + ESC + b" " + IMG + b" " + \
            LINK + b" " + b"x" * 200 + b"\n"
    return name, data


def make(base, out):
    with tarfile.open(out, "w", format=tarfile.GNU_FORMAT,
                      encoding="utf-8", errors="surrogateescape") as tar:
        for root, _, files in sorted(os.walk(base)):
            for f in sorted(files):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, base)
                with open(path, "rb") as fh:
                    name, data = member(rel, fh.read())
                add(tar, name, data)
        pcap = os.path.join(base, "pcap", "nic2.pcap")
        if os.path.exists(pcap):	# a capture named for its interface
            with open(pcap, "rb") as fh:
                add(tar, b"pcap/" + EVIL_CAP + b".pcap", fh.read())
        for n in NAMES:
            add(tar, n, b"a note\n")
        add(tar, b"", b"a member without a name\n")


def result(ok, name, why=""):
    print("ok cli hostile-%s" % name if ok else
          "not ok cli hostile-%s%s" % (name, ": " + why if why else ""))


def no_controls(kind, text):
    bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", text)
    result(not bad, kind + "-no-control-bytes",
           bad and repr(text[max(0, bad.start() - 40):bad.end() + 40]))
    try:
        text.decode("utf-8")
        result(True, kind + "-utf8")
    except UnicodeDecodeError as e:
        result(False, kind + "-utf8", str(e))


def check_md(text):
    no_controls("md", text)
    # outside code, '<' of a tag and "](" of a link get a backslash
    prose = re.sub(rb"(?ms)^```.*?^```$", b"", text)
    prose = re.sub(rb"(?<![`\\])(`+)(?!`).*?(?<!`)\1(?!`)", b"", prose)
    # the rules' own documentation links are links on purpose
    prose = re.sub(rb"(?m)^\*\*Docs:\*\* .*$", b"", prose)
    for pat, name in ((rb"(?<!\\)<img", "md-no-raw-img"),
                      (rb"(?<!\\)\]\(http", "md-no-raw-link")):
        m = re.search(pat, prose)
        result(not m, name, m and repr(prose[m.start() - 60:m.end() + 20]))
    result(b"\\x1b\\[2J\\x07" in text or b"\\x1b[2J\\x07" in text,
           "md-shows-escape-as-text")
    result(b"\\xff" in text, "md-shows-invalid-byte")
    result(b"empty name" in text, "md-notes-empty-name")
    result(b"**Capture: c\\x7f\\[x\\](h:e)\\<i>**" in text,
           "md-capture-interface-escaped")


def check_json(text):
    try:
        r = json.loads(text)
    except ValueError as e:
        result(False, "json-parses", str(e))
        return
    result(True, "json-parses")
    ms = r.get("members", [])
    result(all(isinstance(m.get("path"), str) for m in ms) and len(ms) > 40,
           "json-every-member-has-path")
    result(any(m.get("path") == "notes/\\xffbad.txt" for m in ms),
           "json-invalid-byte-as-text")
    ok = any(m.get("path") == "uname.txt" and m.get("format") == "uname"
             and m.get("status") == "ok" for m in ms)
    result(ok, "json-sibling-analysed")
    k = [h.get("kernel") or "" for h in r.get("hosts", [])]
    result(any("\x1b" in x for x in k), "json-kernel-read")
    f = [x for x in r.get("findings", []) if any("\x1b" in e["text"]
                                                 for e in x["evidence"])]
    result(len(f) > 0, "json-finding-evidence-kept")


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
        return
    kind, path = sys.argv[2], sys.argv[3]
    with open(path, "rb") as fh:
        text = fh.read()
    if kind.startswith("diff-"):
        no_controls(kind, text)
        if kind == "diff-json":
            try:
                d = json.loads(text)
                ok = any(c["what"] == "kernel" and "\x1b" in (c["after"] or "")
                         for h in d["hosts"] for c in h["changes"])
                result(ok, "diff-json-kernel-change-kept")
            except ValueError as e:
                result(False, "diff-json-parses", str(e))
        else:
            result(b"x1b" in text, kind + "-shows-escape-as-text")
    elif kind == "md":
        check_md(text)
    elif kind == "json":
        check_json(text)
    else:
        no_controls(kind, text)
        result(b"\\x1b[2J\\x07" in text, kind + "-shows-escape-as-text")
        cap = b"capture c" if kind == "term" else b"interface c"
        result(cap + b"\\x7f[x](h:e)<i>" in text,
               kind + "-capture-interface-escaped")


main()
