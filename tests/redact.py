#!/usr/bin/env python3
"""--redact: no identifying value of a bundle reaches a redacted output.

  redact.py PATHDOCTOR

For every sample bundle, the diff pairs, and a bundle made here whose
command line and lspci carry an IPv6 address, MACs, a home directory and
a prompt: the values are collected from the unredacted outputs (host
names and serial numbers from the JSON and --dump-model, every IPv4,
IPv6, MAC and UUID address and /home/NAME in md, json, term, html and
--dump-model), then each --redact output (the same five, the diff's
three) must hold none of them as a word, its JSON must parse with the
same findings (rules and numbers: only strings differ), and
--redact-map must list every value masked, the same map for every
format.  One TAP line a check.
"""
import ipaddress
import json
import os
import re
import subprocess
import sys
import tempfile

WORD = rb"A-Za-z0-9\x80-\xff"
KEPT4 = re.compile(r"^(127\.|0\.0\.0\.0$|255\.255\.255\.255$)")
KEPT_MAC = re.compile(r"^((00[:-]){5,}00|(ff[:-]){5,}ff)$", re.I)
n_tests = 0
failed = 0
lines = []


def tap(ok, name, why=""):
    global n_tests, failed
    n_tests += 1
    if not ok:
        failed += 1
    lines.append("%s %d %s%s" % ("ok" if ok else "not ok", n_tests, name,
                          ": " + why if why and not ok else ""))


def run(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    return p.returncode, p.stdout


def ipv6_values(text):
    out = set()
    for m in re.finditer(r"(?<![0-9A-Za-z:.])[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*"
                         r":[0-9A-Fa-f:.]*", text):
        cand = m.group(0)
        for _ in range(3):
            try:
                a = ipaddress.IPv6Address(cand)
            except ValueError:
                cand = cand[:-1] if cand[-1:] in ".:" else ""
                if not cand:
                    break
                continue
            if int(a) > 1 and re.search(r"[0-9]", cand) and \
                    not re.fullmatch(r"([0-9a-f]{2}:){5,}[0-9a-f]{2}",
                                     cand, re.I):
                out.add(cand)
            break
    return out


def pattern_values(text):
    """IPv4, IPv6, MAC, UUID and home-directory user values in text."""
    vals = set()
    for m in re.finditer(r"(?<![0-9A-Za-z.])(\d{1,3}(\.\d{1,3}){3})(?![0-9])",
                         text):
        v = m.group(1)
        if all(int(x) <= 255 for x in v.split(".")) and not KEPT4.match(v):
            vals.add(v)
    vals |= ipv6_values(text)
    for m in re.finditer(r"(?<![0-9A-Za-z])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}"
                         r"(\1[0-9A-Fa-f]{2}){4,18}(?![0-9A-Za-z])", text):
        if not KEPT_MAC.match(m.group(0)):
            vals.add(m.group(0))
    for m in re.finditer(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}",
                         text):
        if set(m.group(0)) - set("0-"):
            vals.add(m.group(0))
    for m in re.finditer(r"/(?:home|Users)/([A-Za-z0-9_][A-Za-z0-9._-]*)",
                         text):
        if m.group(1) != "root":
            vals.add(m.group(1))
    return vals


def json_values(doc):
    """Host names and serial numbers anywhere in a report's JSON."""
    vals = set()

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and key == "serial":
            vals.add(x)
            if re.fullmatch(r"[0-9a-f]{16}", x):
                vals.add("-".join(x[i:i + 2] for i in range(0, 16, 2)))
    walk(doc)
    for h in doc.get("hosts", []):
        if h.get("name"):
            vals.add(h["name"])
    return vals


def model_values(text):
    vals = set()
    for pat in (r"^host (\S+)$", r"^  nodename: ([^;]+);",
                r"recorded on (\S+) \("):
        vals |= {v for v in re.findall(pat, text, re.M) if v != "?"}
    return vals


def shape(x):
    """x with every string emptied: the numbers and the structure."""
    if isinstance(x, dict):
        return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [shape(v) for v in x]
    return "" if isinstance(x, str) else x


def rules(doc):
    fs = doc.get("findings", [])
    if isinstance(fs, dict):
        fs = [f for v in fs.values() if isinstance(v, list) for f in v]
    return sorted(str(f.get("rule")) for f in fs if isinstance(f, dict))


def leaks(values, text):
    found = []
    for v in sorted(values):
        if len(v) < 2:
            continue
        pat = rb"(?<![" + WORD + rb"])" + re.escape(v.encode()) + \
            rb"(?![" + WORD + rb"])"
        if re.search(pat, text.encode("utf-8", "surrogateescape"), re.I):
            found.append(v)
    return found


def norm(v):
    """A value as the map may write it: lower case, MACs with ':'."""
    v = v.lower()
    if re.fullmatch(r"[0-9a-f]{2}(-[0-9a-f]{2}){5,}", v):
        v = v.replace("-", ":")
    try:
        return str(ipaddress.ip_address(v))
    except ValueError:
        return v


def check_case(binary, name, args, formats, tmp):
    plain, red = {}, {}
    for f in formats:
        opt = ["--dump-model"] if f == "model" else ["-f", f]
        pre, rest = (args[:1], args[1:]) if args[0] == "diff" else ([], args)
        rc, plain[f] = run(binary, pre + opt + rest)
        mp = os.path.join(tmp, "map-%s" % f)
        rc2, red[f] = run(binary, pre + opt + ["--redact-map", mp] + rest)
        tap(rc == rc2, "%s %s: same exit status redacted" % (name, f),
            "%d, redacted %d" % (rc, rc2))
        red[f] = (red[f], open(mp, encoding="utf-8").read()
                  if os.path.exists(mp) else "")
    values = set()
    for f in formats:
        values |= pattern_values(plain[f].decode("utf-8", "replace"))
    doc = json.loads(plain["json"])
    values |= json_values(doc)
    if "model" in plain:
        values |= model_values(plain["model"].decode("utf-8", "replace"))
    for b in args[1:] if args[0] == "diff" else []:
        values |= json_values(json.loads(run(binary, ["-f", "json", b])[1]))
        values |= model_values(run(binary, ["--dump-model", b])[1].decode(
            "utf-8", "replace"))
    tap(bool(values), "%s: values to mask found" % name)
    for f in formats:
        out = red[f][0].decode("utf-8", "surrogateescape")
        bad = leaks(values, out)
        tap(not bad, "%s %s: no value left" % (name, f), ", ".join(bad[:5]))
        masked = {norm(line.split("\t")[2]) for line in
                  red[f][1].splitlines() if line and not line.startswith("#")}
        # a value inside a larger one the map lists (the UUID of a
        # hostnqn masked as a whole) is listed with it
        missing = [v for v in pattern_values(plain[f].decode(
            "utf-8", "replace")) if norm(v) not in masked and
            not any(norm(v) in m for m in masked)]
        tap(not missing, "%s %s: --redact-map lists the values" % (name, f),
            ", ".join(sorted(missing)[:5]))
    maps = {red[f][1] for f in formats}
    tap(len(maps) == 1, "%s: one map whatever the format" % name)
    try:
        rdoc = json.loads(red["json"][0])
    except ValueError as e:
        tap(False, "%s json: redacted JSON parses" % name, str(e))
        return
    tap(True, "%s json: redacted JSON parses" % name)
    tap(rules(rdoc) == rules(doc), "%s json: the same findings" % name)
    tap(shape(rdoc) == shape(doc), "%s json: the same numbers and "
        "structure" % name)


def made_bundle(tmp):
    """A bundle whose text holds every pattern redaction recognises."""
    d = os.path.join(tmp, "made", "alpha-7")
    os.makedirs(d)
    files = {
        "uname.txt": "Linux alpha-7.example.com 6.8.0-45-generic #45-Ubuntu"
                     " SMP x86_64 x86_64 x86_64 GNU/Linux\n",
        "cmdline.txt": "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic "
                       "root=UUID=1b7f0e0a-59a1-4c54-8a2c-2f2a8c8b9d11 ro "
                       "ip=[2001:db8:0:1::17]:::64 ifname=net0:3c:1a:9f:00:"
                       "03:ab BOOTIF=01-3c-1a-9f-00-03-ac "
                       "nfsroot=10.20.30.40:/home/alice/root "
                       "trace=fe80::3e1a:9fff:fe00:3ab loop=127.0.0.1 "
                       "pci=0000:01:00.0 t=16:05:12\n",
    }
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return os.path.join(tmp, "made")


def main():
    binary = sys.argv[1]
    cases = []
    for s in sorted(os.listdir("samples")):
        if s.endswith(".tgz"):
            cases.append((s[:-4], ["samples/" + s],
                          ["md", "json", "term", "html", "model"]))
    for b, a in (("gx10-kernel-before", "gx10-after"),
                 ("pve-gso-before", "pve-gso-after")):
        cases.append(("diff %s %s" % (b, a), ["diff", "samples/%s.tgz" % b,
                      "samples/%s.tgz" % a], ["md", "json", "term"]))
    with tempfile.TemporaryDirectory() as tmp:
        cases.append(("made", [made_bundle(tmp)],
                      ["md", "json", "term", "html", "model"]))
        for name, args, formats in cases:
            check_case(binary, name, args, formats, tmp)
        rc, _ = run(binary, ["--redact-map", os.path.join(tmp, "no", "map"),
                             "-f", "md", "samples/gx10-before.tgz"])
        tap(rc == 3, "--redact-map into a missing directory: exit 3",
            "exit %d" % rc)
        rc, out = run(binary, ["--help"])
        tap(b"--redact-map FILE" in out and b"--redact " in out,
            "--help lists --redact and --redact-map")
    print("1..%d" % n_tests)
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
