#!/usr/bin/env python3
"""Ingest rates for tests/bench-fleet.sh: the JSON lines of LINES (a
file of `pathdoctor -f jsonl` output) stored by `pathdoctor ingest -`
into a fresh SQLite file and into a PostgreSQL started here
(tests/pglib.py), medians of RUNS runs each, as lines per second; and a
re-ingest of the same lines (every bundle replaced).  Never run by make
check.
    python3 tests/bench-ingest.py BIN LINES RUNS"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pglib import Postgres  # noqa: E402


def timed(bin_, url, lines):
    with open(lines, "rb") as f:
        start = time.monotonic()
        p = subprocess.run([bin_, "ingest", "--db", url, "-"], stdin=f,
                           capture_output=True)
        elapsed = time.monotonic() - start
    if p.returncode != 0:
        sys.exit("ingest failed: " + p.stderr.decode(errors="replace"))
    return elapsed


def report(what, times, n):
    t = statistics.median(times)
    print(f"{what}: {t:.3f} s, {n / t:.1f} lines/s (median of {len(times)})")


def main():
    bin_, lines, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    n = sum(1 for _ in open(lines, "rb"))
    with tempfile.TemporaryDirectory() as tmp:
        fresh, again = [], []
        for i in range(runs):
            db = os.path.join(tmp, f"fleet{i}.sqlite")
            fresh.append(timed(bin_, db, lines))
            again.append(timed(bin_, db, lines))
        report("ingest into SQLite, fresh", fresh, n)
        report("ingest into SQLite, replacing", again, n)
    pg = Postgres()
    if pg.skip:
        print(f"ingest into PostgreSQL: not measured ({pg.skip})")
        return
    with pg:
        if not pg.url:
            print("ingest into PostgreSQL: not started: " + pg.error)
            return
        fresh = [timed(bin_, pg.url, lines)]
        again = [timed(bin_, pg.url, lines) for _ in range(runs)]
        report("ingest into PostgreSQL, fresh", fresh, n)
        report("ingest into PostgreSQL, replacing", again, n)


if __name__ == "__main__":
    main()
