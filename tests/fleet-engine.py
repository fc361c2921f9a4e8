#!/usr/bin/env python3
"""Ingestion spread over machines by GNU parallel over SSH, for real on
this machine: an sshd started here on a loopback port with keys made
here, GNU parallel running four workers at a time through it, each
`pathdoctor ingest` of a few bundles into a PostgreSQL started here.
The set: every sample and 200 variants (tests/fleet-variants.py: other
hosts, MaxPayload, IOMMU modes, interface names).  Checks: a first run
stopped half way (parallel and every worker killed) loses nothing
already committed; the rerun with --skip-existing completes the set;
PostgreSQL then holds the rows a SQLite ingest of the same set on this
machine holds; the queries give the counts the variants were made with;
re-ingesting changes nothing.  Skipped, with the reason, without root
(sshd and a second user), sshd, GNU parallel or PostgreSQL.
One "ok"/"not ok" line per check."""
import glob
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pglib import Postgres, free_port  # noqa: E402

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      "build/san/pathdoctor")
REPO = os.getcwd()
VARIANTS = 200
PER_JOB = 6          # bundles per worker, so a kill lands inside a job
failed = 0


def check(name, cond, detail=""):
    global failed
    print(f"{'ok' if cond else 'not ok'} fleet-engine {name}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:8]:
            print(f"#   {line}")


def skip(why):
    print(f"ok fleet-engine # SKIP {why}")
    sys.exit(0)


def run(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True,
                          env=dict(os.environ, LC_ALL="C", TZ="UTC"), **kw)


def dump(url):
    p = run(["query", "--db", url, "--dump"])
    return p.returncode, sorted(p.stdout.splitlines()), p.stderr


def start_sshd(tmp):
    """An sshd on a free loopback port taking a key made here; the ssh
    command line that reaches it."""
    d = os.path.join(tmp, "ssh")
    os.mkdir(d, 0o700)
    for k in ("host", "user"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                        "-f", os.path.join(d, k)], check=True)
    shutil.copy(os.path.join(d, "user.pub"), os.path.join(d, "authorized"))
    port = free_port()
    with open(os.path.join(d, "config"), "w") as f:
        f.write(f"Port {port}\nListenAddress 127.0.0.1\n"
                f"HostKey {d}/host\nAuthorizedKeysFile {d}/authorized\n"
                f"PidFile {d}/pid\nPermitRootLogin prohibit-password\n"
                "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\nMaxStartups 32\n"
                "MaxSessions 32\n")
    os.makedirs("/run/sshd", exist_ok=True)   # privilege separation
    p = subprocess.run(["/usr/sbin/sshd", "-f", f"{d}/config", "-E",
                        f"{d}/log"], capture_output=True, text=True)
    ssh = (f"ssh -p {port} -i {d}/user -o StrictHostKeyChecking=no "
           f"-o UserKnownHostsFile=/dev/null -o BatchMode=yes "
           f"-o LogLevel=ERROR root@127.0.0.1")
    return p, ssh, os.path.join(d, "pid")


def parallel(ssh, url, bundles, extra):
    """GNU parallel: four job slots on the one ssh login, each job an
    ingest of PER_JOB bundles run there."""
    cmd = f"cd {REPO} && {BIN} ingest --db {url} {extra}"
    return subprocess.Popen(
        ["parallel", "--will-cite", "--sshlogin", f"4/{ssh}", "-N",
         str(PER_JOB), "--halt", "never", cmd + " {}", ":::"] + bundles,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)


def count(url):
    p = subprocess.run(["psql", "-X", "-At", url, "-c",
                        "SELECT COUNT(*) FROM bundles"],
                       capture_output=True, text=True)
    return int(p.stdout.strip() or 0) if p.returncode == 0 else -1


def kill_ingests(url):
    """SIGKILL to every pathdoctor ingest writing into url."""
    killed = 0
    for c in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            argv = open(c, "rb").read().split(b"\0")
        except OSError:
            continue
        if b"ingest" in argv and url.encode() in argv and \
                os.path.basename(argv[0]) == b"pathdoctor":
            try:
                os.kill(int(c.split("/")[2]), signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    return killed


def stored(url):
    """sha256 -> ingested_at of every stored bundle."""
    p = subprocess.run(["psql", "-X", "-At", url, "-c",
                        "SELECT sha256, ingested_at FROM bundles"],
                       capture_output=True, text=True)
    return dict(line.split("|", 1) for line in p.stdout.splitlines())


def known_counts(tmp, url, made):
    """The counts the variants were made with, from the database."""
    hosts = json.loads(run(["query", "--db", url, "hosts", "-f", "json",
                            "--limit", "100000"]).stdout or "[]")
    names = {h.get("host") or h.get("name") for h in hosts}
    check("every variant's host is stored",
          all(v["host"] in names for v in made),
          sorted({v["host"] for v in made} - names)[:5])
    want = {}
    for v in made:
        want[v["iommu"]] = want.get(v["iommu"], 0) + 1
    q = ("SELECT f.value, COUNT(*) FROM facts f JOIN hosts h ON "
         "h.bundle_id = f.bundle_id AND h.host_index = f.host_index "
         "WHERE h.name LIKE 'fleet-%' AND f.kind = 'cmdline' AND f.key "
         "IN ('iommu.strict', 'iommu.passthrough') GROUP BY f.key, f.value")
    p = subprocess.run(["psql", "-X", "-At", url, "-c", q],
                       capture_output=True, text=True)
    got = sum(int(line.split("|")[1]) for line in p.stdout.splitlines())
    check("hosts with an IOMMU mode on the command line, as made",
          got == sum(n for k, n in want.items() if k), (got, want))
    mps = sum(v["maxpayload"].count(128) for v in made)
    q = ("SELECT COUNT(*) FROM facts f JOIN hosts h ON h.bundle_id = "
         "f.bundle_id AND h.host_index = f.host_index WHERE h.name LIKE "
         "'fleet-%' AND f.kind = 'pcie' AND f.key = 'max_payload' AND "
         "f.value = '128'")
    p = subprocess.run(["psql", "-X", "-At", url, "-c", q],
                       capture_output=True, text=True)
    check("devices at MaxPayload 128, as made",
          p.stdout.strip() == str(mps), (p.stdout, mps))


def main():
    if os.geteuid() != 0:
        skip("needs root: sshd, and PostgreSQL under another user")
    for prog in ("/usr/sbin/sshd", shutil.which("parallel"),
                 shutil.which("psql"), shutil.which("ssh")):
        if not prog or not os.path.exists(prog):
            skip("needs sshd, ssh, GNU parallel and psql "
                 "(Debian: openssh-server openssh-client parallel "
                 "postgresql)")
    pg = Postgres()
    if pg.skip:
        skip(pg.skip)
    tmp = tempfile.mkdtemp(prefix="pd-engine-")
    os.chmod(tmp, 0o755)
    sshd_pid = None
    try:
        subprocess.run([sys.executable, "tests/fleet-variants.py",
                        f"{tmp}/set", str(VARIANTS)], check=True)
        made = json.load(open(f"{tmp}/set/variants.json"))
        for s in sorted(glob.glob("samples/*.tgz")):
            shutil.copy(s, f"{tmp}/set/")
        bundles = sorted(glob.glob(f"{tmp}/set/*.tgz"))
        ref = f"{tmp}/ref.sqlite"
        p = run(["ingest", "--db", ref, "-j", "2"] + bundles)
        check(f"SQLite: {len(bundles)} bundles ingested here",
              p.returncode == 0, p.stderr)
        with pg:
            check("postgresql started", pg.url is not None, pg.error)
            if not pg.url:
                return
            url = pg.url
            p, ssh, sshd_pid = start_sshd(tmp)
            check("sshd started on a loopback port", p.returncode == 0,
                  p.stderr)
            probe = subprocess.run(ssh.split() + ["true"],
                                   capture_output=True, text=True)
            check("ssh reaches it with the test's key",
                  probe.returncode == 0, probe.stderr)
            # the first run, stopped half way: parallel and its workers
            first = parallel(ssh, url, bundles, "")
            deadline = time.time() + 300
            while count(url) < len(bundles) // 3 and first.poll() is None \
                    and time.time() < deadline:
                time.sleep(0.2)
            os.killpg(first.pid, signal.SIGKILL)
            killed = kill_ingests(url)
            first.wait()
            first.stdout.close()
            first.stderr.close()
            before = stored(url)
            check(f"first run stopped with {len(before)} of "
                  f"{len(bundles)} stored, {killed} workers killed",
                  0 < len(before) < len(bundles), (len(before), killed))
            # the rerun completes the set, leaving what is stored alone
            second = parallel(ssh, url, bundles, "--skip-existing")
            out, err = second.communicate(timeout=900)
            check("the rerun through parallel over ssh completes",
                  second.returncode == 0, err)
            after = stored(url)
            check("nothing committed before the kill was lost or redone",
                  all(after.get(h) == t for h, t in before.items()),
                  len(before))
            check(f"all {len(bundles)} bundles stored",
                  len(after) == len(bundles), len(after))
            rc, pg_rows, err = dump(url)
            rc2, lite_rows, err2 = dump(ref)
            check("PostgreSQL holds the rows of the SQLite ingest",
                  rc == 0 and rc2 == 0 and pg_rows == lite_rows,
                  err + err2 + "\n".join(sorted(set(pg_rows) ^
                                                set(lite_rows))[:6]))
            known_counts(tmp, url, made)
            # idempotence: a plain re-ingest of some changes no row
            p = run(["ingest", "--db", url, "-j", "2"] + bundles[:20])
            rc, again, err = dump(url)
            check("re-ingesting changes nothing",
                  p.returncode == 0 and again == pg_rows, p.stderr + err)
            db = sqlite3.connect(ref)
            n = db.execute("SELECT COUNT(*) FROM hosts WHERE name LIKE "
                           "'fleet-%'").fetchone()[0]
            db.close()
            check("SQLite: one host per variant", n == VARIANTS, n)
    finally:
        if sshd_pid and os.path.exists(sshd_pid):
            try:
                os.kill(int(open(sshd_pid).read()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
