#!/bin/sh
# Acceptance of the path-ceiling ladder on bundles it was not built
# against (tests/data-ladder/, see its README.txt): the published GX10
# and Proxmox climbs, read from pathdoctor -f json.
#   sh tests/ladder-accept.sh BIN
# One "ok"/"not ok" line per check.  Not yet a stage of tests/check.sh
# (the ladder is being written); once it passes, add there
#   stage ladder sh tests/ladder-accept.sh "$build/pathdoctor"
set -u
. tests/lib.sh
bin=$1
dir=tests/data-ladder
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TZ=UTC LC_ALL=C

if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok ladder # SKIP python3 not installed"
	exit 0
fi

# accept NAME BUNDLE: pathdoctor -f json BUNDLE, then the checks of NAME
accept() {
	"$bin" -f json "$dir/$2" >"$tmp/$1.json" 2>"$tmp/$1.err"
	ran "ladder $1: pathdoctor -f json $dir/$2" $? "$tmp/$1.err" ||
	    return 0
	python3 - "$1" "$tmp/$1.json" <<'EOF'
import json
import sys

name, path = sys.argv[1], sys.argv[2]
GB = 1e9
results = []


def check(what, cond, detail=""):
    results.append((bool(cond), what, detail))


def near(v, want, tol):
    return isinstance(v, (int, float)) and abs(v - want) <= tol * want


def contains(step, v):
    return (isinstance(step.get("low_bytes_per_s"), (int, float)) and
            isinstance(step.get("high_bytes_per_s"), (int, float)) and
            step["low_bytes_per_s"] <= v <= step["high_bytes_per_s"])


def show(step):
    if not step:
        return "no such step"
    return "%s on %s: %s / %s / %s" % (
        step.get("rule"), step.get("subject"), step.get("low_bytes_per_s"),
        step.get("expected_bytes_per_s"), step.get("high_bytes_per_s"))


try:
    with open(path) as f:
        report = json.load(f)
except ValueError as e:
    print("not ok ladder %s: the JSON does not parse: %s" % (name, e))
    sys.exit(0)

ladders = report.get("ladders")
check("a top-level \"ladders\" list", isinstance(ladders, list) and ladders,
      "ladders: %r" % (ladders,))
ladders = ladders if isinstance(ladders, list) else []

# the shape every ladder has
for i, lad in enumerate(ladders):
    tag = "ladder %d (%s, %s)" % (i + 1, lad.get("host"), lad.get("direction"))
    obs = lad.get("observed") or {}
    src = obs.get("source") or {}
    check("%s: observed rate and its member and line" % tag,
          isinstance(obs.get("bytes_per_s"), (int, float)) and
          src.get("member") and isinstance(src.get("line"), int),
          "observed: %r" % (obs,))
    ceil = lad.get("ceiling") or {}
    check("%s: ceiling with stage and basis" % tag,
          isinstance(ceil.get("bytes_per_s"), (int, float)) and
          ceil.get("stage") and ceil.get("basis"), "ceiling: %r" % (ceil,))
    check("%s: stages" % tag, isinstance(lad.get("stages"), list) and all(
        s.get("stage") and "subject" in s and
        isinstance(s.get("ceiling_bytes_per_s"), (int, float)) and
        s.get("basis") for s in lad.get("stages") or [{}]))
    for j, st in enumerate(lad.get("steps") or []):
        lo, hi = st.get("low_bytes_per_s"), st.get("high_bytes_per_s")
        ex = st.get("expected_bytes_per_s")
        ok = (isinstance(lo, (int, float)) and isinstance(hi, (int, float))
              and isinstance(ex, (int, float)) and 0 < lo <= ex <= hi
              and hi / lo <= 2 and "bottleneck_after" in st)
        check("%s: step %d low <= expected <= high, high/low <= 2" %
              (tag, j + 1), ok, show(st))

findings = report.get("findings") or []
check("every finding has \"ladder_step\"",
      all("ladder_step" in f for f in findings),
      ", ".join(f.get("rule", "?") for f in findings
                if "ladder_step" not in f))


def steps_of(lad):
    return lad.get("steps") or []


def first_with(pred):
    for lad in ladders:
        if pred(lad):
            return lad
    return None


def step(lad, n):
    s = steps_of(lad) if lad else []
    return s[n - 1] if len(s) >= n else None


if name == "kernel":
    lad = first_with(lambda l: near((l.get("observed") or {}).get(
        "bytes_per_s"), 6.2 * GB, 0.05))
    check("kernel: a ladder observing ~6.2 GB/s (fio)", lad,
          "observed: %r" % [(l.get("observed") or {}).get("bytes_per_s")
                            for l in ladders])
    s1, s2 = step(lad, 1), step(lad, 2)
    check("kernel: step 1 is iommu.strict-invalidation",
          s1 and s1.get("rule") == "iommu.strict-invalidation", show(s1))
    check("kernel: step 1's range contains 25.1 GB/s (lazy/128)",
          s1 and contains(s1, 25.1 * GB), show(s1))
    check("kernel: step 1 expects 25.1 GB/s within 15 %",
          s1 and near(s1.get("expected_bytes_per_s"), 25.1 * GB, 0.15),
          show(s1))
    check("kernel: step 2 is pcie.mps-below-capability",
          s2 and s2.get("rule") == "pcie.mps-below-capability", show(s2))
    check("kernel: step 2's range contains 28.1 GB/s (lazy/512)",
          s2 and contains(s2, 28.1 * GB), show(s2))
    check("kernel: step 2 expects 28.1 GB/s within 15 %",
          s2 and near(s2.get("expected_bytes_per_s"), 28.1 * GB, 0.15),
          show(s2))
    check("kernel: ceiling 29.9 GB/s within 1 %", lad and near(
        (lad.get("ceiling") or {}).get("bytes_per_s"), 29.9 * GB, 0.01),
        "ceiling: %r" % ((lad or {}).get("ceiling"),))
elif name == "spdk":
    lad = first_with(lambda l: near((l.get("observed") or {}).get(
        "bytes_per_s"), 22.8 * GB, 0.05))
    check("spdk: a ladder observing ~22.8 GB/s (spdk_nvme_perf)", lad,
          "observed: %r" % [(l.get("observed") or {}).get("bytes_per_s")
                            for l in ladders])
    s1, s2 = step(lad, 1), step(lad, 2)
    check("spdk: step 1 is pcie.mps-below-capability",
          s1 and s1.get("rule") == "pcie.mps-below-capability", show(s1))
    check("spdk: step 1's range contains 28.4 GB/s (strict/512)",
          s1 and contains(s1, 28.4 * GB), show(s1))
    check("spdk: step 2 is iommu.strict-invalidation",
          s2 and s2.get("rule") == "iommu.strict-invalidation", show(s2))
    check("spdk: step 2's range contains 28.9 GB/s (lazy/512)",
          s2 and contains(s2, 28.9 * GB), show(s2))
    check("spdk: ceiling 29.9 GB/s within 1 %", lad and near(
        (lad.get("ceiling") or {}).get("bytes_per_s"), 29.9 * GB, 0.01),
        "ceiling: %r" % ((lad or {}).get("ceiling"),))
elif name == "half":
    lad = first_with(lambda l: near((l.get("observed") or {}).get(
        "bytes_per_s"), 14.8 * GB, 0.05))
    check("half: a ladder observing ~14.8 GB/s (fio)", lad,
          "observed: %r" % [(l.get("observed") or {}).get("bytes_per_s")
                            for l in ladders])
    s1 = step(lad, 1)
    check("half: step 1 is nic.idle-pf",
          s1 and s1.get("rule") == "nic.idle-pf", show(s1))
    check("half: the idle-PF step expects 28.9 GB/s within 15 %",
          s1 and near(s1.get("expected_bytes_per_s"), 28.9 * GB, 0.15),
          show(s1))
elif name == "proxmox":
    lo_b, hi_b, want = 1.76e9 / 8, 2.354e9 / 8, 2.13e9 / 8
    gso = [s for l in ladders for s in steps_of(l)
           if s.get("rule") == "tcp.gso-mismatch"]
    check("proxmox: a tcp.gso-mismatch step", gso,
          "; ".join(show(s) for l in ladders for s in steps_of(l)))
    s = gso[0] if gso else None
    check("proxmox: its range lies within 1.76 to 2.354 Gbit/s", s and (
        isinstance(s.get("low_bytes_per_s"), (int, float)) and
        isinstance(s.get("high_bytes_per_s"), (int, float)) and
        lo_b <= s["low_bytes_per_s"] and s["high_bytes_per_s"] <= hi_b),
        show(s))
    check("proxmox: its range contains 2.13 Gbit/s",
          s and contains(s, want), show(s))

for ok, what, detail in results:
    if not what.startswith(name + ": "):
        what = name + ": " + what
    if ok:
        print("ok ladder %s" % what)
    else:
        print("not ok ladder %s" % what)
        if detail:
            print("#   %s" % detail)
EOF
}

accept kernel sosreport-spark1-2025-11-24
accept spdk node7
accept half lab-gx10-2
accept proxmox case-4711
