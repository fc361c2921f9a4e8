"""A PostgreSQL of Debian's packages started for a test, in a temporary
directory, on a free loopback port, by an unprivileged user when the
test runs as root (PostgreSQL refuses root).  Used by tests/fleet-db.py
and tests/fleet-engine.py:

    pg = Postgres()          # pg.skip says why it cannot run, else None
    with pg:                 # initdb and pg_ctl start; stopped at exit
        pg.url               # postgresql://fleet@127.0.0.1:PORT/postgres
"""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Postgres:
    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        self.bin = os.path.dirname(bins[-1]) if bins else None
        self.skip = None if self.bin else "no PostgreSQL server binaries " \
            "(Debian: postgresql)"
        self.asuser = []
        if not self.skip and os.geteuid() == 0:
            try:
                self.asuser = ["runuser", "-u",
                               pwd.getpwnam("nobody").pw_name, "--"]
            except KeyError:
                self.skip = "running as root and no unprivileged user " \
                    "(nobody) to run PostgreSQL"
        self.dir = self.data = self.url = None
        self.error = ""

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="pd-pg-")
        os.chmod(self.dir, 0o755)
        if self.asuser:
            shutil.chown(self.dir, self.asuser[2])
        self.data = os.path.join(self.dir, "data")
        port = free_port()
        p = subprocess.run(self.asuser + [
            f"{self.bin}/initdb", "-D", self.data, "-U", "fleet",
            "--auth=trust", "--no-locale", "-E", "UTF8"],
            capture_output=True, text=True)
        if p.returncode == 0:
            p = subprocess.run(self.asuser + [
                f"{self.bin}/pg_ctl", "-D", self.data, "-l",
                os.path.join(self.dir, "log"), "-w", "-o",
                f"-c listen_addresses=127.0.0.1 -p {port} "
                f"-c unix_socket_directories={self.dir}", "start"],
                capture_output=True, text=True)
        if p.returncode == 0:
            self.url = f"postgresql://fleet@127.0.0.1:{port}/postgres"
        else:
            self.error = p.stderr or p.stdout
        return self

    def __exit__(self, *exc):
        if self.data and os.path.isdir(self.data):
            subprocess.run(self.asuser + [f"{self.bin}/pg_ctl", "-D",
                                          self.data, "-m", "immediate",
                                          "stop"], capture_output=True)
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
        return False
