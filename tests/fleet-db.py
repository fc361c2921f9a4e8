#!/usr/bin/env python3
"""The findings database end to end: every sample ingested into SQLite,
row counts against what the samples' -f json reports hold, the named
queries, re-ingest changes nothing, a failing bundle is stored with its
error, a malformed stdin line, formats/fleet-schema.sql, the README's
example SQL; then the same set into a PostgreSQL started here (four
writers at once) and the two databases' canonical dumps compared.
One "ok"/"not ok" line per check."""
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pglib import Postgres  # noqa: E402

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      "build/san/pathdoctor")
SAMPLES = sorted(glob.glob("samples/*.tgz"))
failed = 0


def check(name, cond, detail=""):
    global failed
    if cond:
        print(f"ok fleet-db {name}")
    else:
        failed += 1
        print(f"not ok fleet-db {name}")
        for line in str(detail).splitlines()[:8]:
            print(f"#   {line}")


def run(args, stdin=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True,
                       text=True, env=dict(os.environ, LC_ALL="C", TZ="UTC"))
    return p.returncode, p.stdout, p.stderr


def cmdline_params(s):
    return len(s.split()) if s else 0


def expected():
    """Rows each table must hold, from the samples' own reports."""
    want = dict(bundles=len(SAMPLES) + 1, hosts=0, members=0, findings=0,
                ladder_steps=0)
    facts = {}
    rules = {}
    global README_WANT
    mps128 = 0
    strict = {}
    for s in SAMPLES:
        rc, out, err = run(["-f", "json", s])
        r = json.loads(out)
        want["hosts"] += len(r["hosts"])
        want["members"] += len(r["members"])
        want["findings"] += len(r["findings"])
        want["ladder_steps"] += sum(len(l["steps"]) for l in r["ladders"])
        for f in r["findings"]:
            rules[f["rule"]] = rules.get(f["rule"], 0) + 1
        for h in r["hosts"]:
            mps128 += sum(d["max_payload"] == 128 and
                          (d["max_payload_cap"] or 0) > 128
                          for d in h["pcie"])
            if (any("X925" in t["name"] for t in h["cpu_types"]) and
                    h["iommu"]["mode"] == "strict"):
                strict[h["kernel"]] = strict.get(h["kernel"], 0) + 1

            def add(kind, n):
                facts[kind] = facts.get(kind, 0) + n
            add("cmdline", cmdline_params(h["cmdline"]))
            add("iommu", 1)
            add("pcie", sum(d[k] is not None for d in h["pcie"] for k in
                            ("max_payload", "max_payload_cap",
                             "max_read_request")))
            add("driver", sum(d[k] is not None for d in h["drivers"] for k
                              in ("driver", "version", "firmware",
                                  "bus_info")))
    # what each README query answers: its row count, and a check of rows
    README_WANT = [
        (mps128, lambda rows: all(int(r[3]) > 128 for r in rows)),
        (len(strict), lambda rows: {r[0]: int(r[1]) for r in rows} ==
         strict),
        (len(rules), lambda rows: {r[0]: int(r[1]) for r in rows} == rules),
    ]
    return want, facts, rules


README_WANT = []


def counts(path):
    db = sqlite3.connect(path)
    c = {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
         for t in ("bundles", "hosts", "members", "findings",
                   "ladder_steps", "facts")}
    kinds = dict(db.execute("SELECT kind, COUNT(*) FROM facts GROUP BY kind"))
    db.close()
    return c, kinds


def dump(url):
    rc, out, err = run(["query", "--db", url, "--dump"])
    return rc, sorted(out.splitlines()), err


def readme_sql():
    """The fenced sql blocks of README's findings-database section."""
    text = open("README.md").read()
    part = text.split("### Queries of your own", 1)[-1].split("\n## ", 1)[0]
    return re.findall(r"```sql\n(.*?)```", part, re.S)


def sqlite_checks(tmp, want, facts, rules):
    url = os.path.join(tmp, "fleet.sqlite")
    missing = os.path.join(tmp, "missing.tgz")
    rc, out, err = run(["ingest", "--db", url] + SAMPLES + [missing])
    check("ingest every sample into SQLite", rc == 0, err)
    got, kinds = counts(url)
    for t, n in want.items():
        check(f"sqlite {t}: {n} rows", got[t] == n, f"{got[t]} rows")
    check("sqlite facts per kind", kinds == facts, f"{kinds} vs {facts}")
    db = sqlite3.connect(url)
    row = db.execute("SELECT exit_status, error, sha256 FROM bundles WHERE "
                     "path = ?", (missing,)).fetchone()
    check("a bundle that fails is stored with its error",
          row and row[0] == 3 and "No such file" in (row[1] or "") and
          row[2] is None, row)
    at1 = db.execute("SELECT path, ingested_at FROM bundles ORDER BY path"
                     ).fetchall()
    db.close()
    rc1, d1, _ = dump(url)
    time.sleep(1.1)
    rc, out, err = run(["ingest", "--db", "sqlite:" + url] + SAMPLES +
                       [missing])
    rc2, d2, _ = dump(url)
    check("re-ingest: row counts unchanged", counts(url)[0] == got)
    check("re-ingest: the canonical dump unchanged", rc1 == rc2 == 0 and
          d1 == d2 and len(d1) > 100)
    db = sqlite3.connect(url)
    at2 = db.execute("SELECT path, ingested_at FROM bundles ORDER BY path"
                     ).fetchall()
    db.close()
    check("re-ingest keeps the first ingest time", at1 == at2)
    rc, out, err = run(["ingest", "--db", url, "--skip-existing"] + SAMPLES)
    check("--skip-existing skips every stored bundle",
          rc == 0 and f"0 stored, {len(SAMPLES)} skipped" in err, err)

    rc, out, err = run(["query", "--db", url, "top-rules", "-f", "json"])
    top = {r["rule"]: r["findings"] for r in json.loads(out)}
    check("query top-rules: each rule's count", rc == 0 and top == rules,
          f"{top} vs {rules}")
    rc, out, err = run(["query", "--db", url, "top-gain", "-f", "json"])
    gains = [r["total_gain_pct"] for r in json.loads(out)]
    check("query top-gain: ordered by total gain",
          rc == 0 and gains == sorted(gains, reverse=True))
    rc, out, err = run(["query", "--db", url, "hosts-by-rule", "--rule",
                        "iommu.strict-invalidation", "-f", "json"])
    check("query hosts-by-rule", rc == 0 and len(json.loads(out)) ==
          rules.get("iommu.strict-invalidation", 0), out)
    rc, out, err = run(["query", "--db", url, "hosts-by-rule"])
    check("query hosts-by-rule without --rule: usage", rc == 2, err)
    rc, out, err = run(["query", "--db", url, "hosts", "--driver",
                        "mlx5_core", "--rule", "pcie.mps-below-capability",
                        "--model", "x925", "-f", "json"])
    check("query hosts --driver --rule --model", rc == 0 and
          len(json.loads(out)) == rules["pcie.mps-below-capability"], out)
    rc, out, err = run(["query", "--db", url, "trend", "--since",
                        "2000-01-01", "-f", "term"])
    check("query trend", rc == 0 and "iommu.strict-invalidation" in out, err)
    rc, out, err = run(["query", "--db", url, "trend", "--since", "9999"])
    check("query --since in the future: no rows",
          rc == 0 and len(out.splitlines()) == 2, out)
    rc, out, err = run(["query", "--list"])
    check("query --list", rc == 0 and "hosts-by-rule" in out)

    db = sqlite3.connect(url)
    blocks = readme_sql()
    check("README has three example queries", len(blocks) == 3,
          len(blocks))
    for i, sql in enumerate(blocks, 1):
        try:
            rows = db.execute(sql).fetchall()
        except sqlite3.Error as e:
            rows = None
            check(f"README query {i} runs", False, e)
            continue
        n, ok = README_WANT[i - 1]
        check(f"README query {i} answers", n > 0 and len(rows) == n and
              ok(rows), f"{len(rows)} rows, want {n}: {rows[:4]}")
    db.close()

    good = subprocess.run(["sqlite3", url, "SELECT 1"], capture_output=True)
    check("sqlite3 reads the database", good.returncode == 0)
    return url, d1


def sqlite_writers(tmp, want_dump):
    """Two writers into one new SQLite file at once: its lock queues
    them, and the rows are those of one."""
    url = os.path.join(tmp, "two.sqlite")
    procs = [subprocess.Popen([BIN, "ingest", "--db", url] + SAMPLES +
                              [os.path.join(tmp, "missing.tgz")],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    res = [(q.wait(), q.stderr.read()) for q in procs]
    for q in procs:
        q.stderr.close()
    check("two writers into SQLite at once", all(rc == 0 for rc, _ in res),
          "\n".join(e for _, e in res))
    rc, d, err = dump(url)
    check("two writers: the rows of one", rc == 0 and d == want_dump, err)


def sqlite_cold_opens(tmp):
    """Two writers opening one new file in the same instant, twenty
    times over: the first turns it to WAL, the second, refused that
    lock at once, waits and tries again instead of failing."""
    errors = []
    for i in range(20):
        url = os.path.join(tmp, "cold-%d.sqlite" % i)
        procs = [subprocess.Popen([BIN, "ingest", "--db", url, "-j", "1",
                                   "samples/pve-tso-on.tgz"],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        for q in procs:
            if q.wait() != 0:
                errors.append(q.stderr.read())
            q.stderr.close()
    check("two writers opening a new SQLite file, 20 times",
          not errors, "\n".join(errors[:3]))


def stdin_checks(tmp):
    url = os.path.join(tmp, "stdin.sqlite")
    lines = []
    # lines as the in-process analysis makes them: from a bundle's report
    for s in SAMPLES[:2]:
        rc, out, err = run(["-f", "json", s])
        lines.append(json.dumps({"pathdoctor_jsonl": 1, "bundle": s,
                                 "sha256": "%064x" % len(lines), "bytes": 1,
                                 "exit": rc, "report": json.loads(out)},
                                separators=(",", ":")))
    text = lines[0] + "\n{not json\n" + lines[1] + "\n"
    rc, out, err = run(["ingest", "--db", url, "-"], stdin=text)
    check("malformed stdin line: exit non-zero", rc != 0, err)
    check("malformed stdin line: its number named", "stdin line 2" in err,
          err)
    db = sqlite3.connect(url)
    n = db.execute("SELECT COUNT(*) FROM bundles").fetchone()[0]
    db.close()
    check("malformed stdin line: the rest ingested", n == 2, n)


def schema_check():
    rc, out, err = run(["query", "--schema"])
    check("formats/fleet-schema.sql is query --schema",
          rc == 0 and out == open("formats/fleet-schema.sql").read())


def postgres_checks(tmp, sqlite_dump):
    pg = Postgres()
    if pg.skip:
        print(f"ok fleet-db postgresql # SKIP {pg.skip}")
        return
    with pg:
        check("postgresql started", pg.url is not None, pg.error)
        if not pg.url:
            return
        url = pg.url
        # four writers at once, each the whole set: the same rows as one
        procs = [subprocess.Popen([BIN, "ingest", "--db", url] + SAMPLES +
                                  [os.path.join(tmp, "missing.tgz")],
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        res = [(q.wait(), q.stderr.read()) for q in procs]
        for q in procs:
            q.stdout.close()
            q.stderr.close()
        check("four writers into PostgreSQL at once",
              all(rc == 0 for rc, _ in res), "\n".join(e for _, e in res))
        rc, d, err = dump(url)
        check("PostgreSQL holds the rows SQLite holds",
              rc == 0 and d == sqlite_dump,
              err + "\n".join(sorted(set(d) ^ set(sqlite_dump))[:6]))
        rc, out, err = run(["query", "--db", url, "hosts", "--driver",
                            "mlx5_core", "--model", "X925", "-f", "json"])
        check("PostgreSQL: query hosts with filters",
              rc == 0 and len(json.loads(out)) > 0, err)
        for i, sql in enumerate(readme_sql(), 1):
            p = subprocess.run(["psql", "-X", "-At", "-v", "ON_ERROR_STOP=1",
                                url, "-c", sql], capture_output=True,
                               text=True)
            rows = [line.split("|") for line in p.stdout.splitlines()]
            n, ok = README_WANT[i - 1]
            check(f"README query {i} answers in psql", p.returncode == 0
                  and len(rows) == n and ok(rows), p.stderr + str(rows[:4]))
        rc, out, err = run(["ingest", "--db", url, "--skip-existing"] +
                           SAMPLES)
        check("PostgreSQL: --skip-existing",
              rc == 0 and f"0 stored, {len(SAMPLES)} skipped" in err, err)


def escape_checks(tmp):
    """A bundle path with a terminal escape and Markdown's specials:
    query prints it escaped, as the reports print bundle text."""
    d = os.path.join(tmp, "b\x1b[31m|*x*")
    shutil.copytree("samples/bundles/gx10-after", d)
    db = os.path.join(tmp, "escape.sqlite")
    rc, out, err = run(["ingest", "--db", db, d])
    rc_t, term, _ = run(["query", "--db", db, "hosts", "-f", "term"])
    rc_m, md, _ = run(["query", "--db", db, "hosts", "-f", "md"])
    check("query escapes bundle text: no control byte on a terminal",
          rc == 0 and rc_t == 0 and "\x1b" not in term and
          "b\\x1b[31m|*x*" in term, err + term)
    check("query escapes bundle text: Markdown specials in md",
          rc_m == 0 and "b\\x1b\\[31m\\|\\*x\\*" in md, md)


def main():
    tmp = tempfile.mkdtemp(prefix="pd-fleet-")
    try:
        want, facts, rules = expected()
        url, d = sqlite_checks(tmp, want, facts, rules)
        sqlite_writers(tmp, d)
        sqlite_cold_opens(tmp)
        stdin_checks(tmp)
        escape_checks(tmp)
        schema_check()
        postgres_checks(tmp, d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
