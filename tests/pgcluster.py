"""A throwaway PostgreSQL cluster for tests and benchmarks, started from the `pgserver` wheel.

`pgserver` ships a real PostgreSQL 16 (initdb, pg_ctl, postgres, pg_dump) inside a pip
package, so ``pip install -e '.[dev]'`` is all a fresh machine needs. When it is absent the
machine's own binaries (``pg_ctl`` on PATH) are used instead. The cluster lives in a temporary
folder, listens only on a unix socket in that folder (no port to collide with other runs),
trusts local connections, and is stopped and deleted by :meth:`PgCluster.stop`.

PostgreSQL refuses to run as root; when the tests run as root the server runs as ``nobody``.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from bot.main import bundled_postgres_bin


def postgres_bin_dir() -> Path:
    """The folder with initdb, pg_ctl and pg_dump: the pgserver wheel's, else the machine's."""
    bundled = bundled_postgres_bin()
    if bundled is not None:
        return bundled
    found = shutil.which("pg_ctl")
    if found is None:
        raise RuntimeError("no PostgreSQL binaries: install the dev extras (pip install -e '.[dev]')")
    return Path(found).resolve().parent


class PgCluster:
    """One running PostgreSQL server in a temporary folder; :meth:`url` names a database on it."""

    def __init__(self) -> None:
        self.bin = postgres_bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="hexpg-"))
        self.data = self.root / "data"
        self._user: str | None = None
        self._databases = 0
        if os.geteuid() == 0:
            self._user = "nobody"
            os.chown(self.root, pwd.getpwnam("nobody").pw_uid, pwd.getpwnam("nobody").pw_gid)

    def _run(self, *args: str) -> None:
        subprocess.run([str(self.bin / args[0]), *args[1:]], check=True, user=self._user,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> PgCluster:
        """initdb and start the server (fsync off: a test cluster need not survive the machine)."""
        self._run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "--encoding=UTF8", "-N")
        options = f"-h '' -k {self.root} -F -c max_connections=200 -c shared_buffers=64MB"
        self._run("pg_ctl", "-D", str(self.data), "-w", "-o", options, "-l", str(self.root / "log"), "start")
        return self

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL for a database on this server (through its unix socket)."""
        return f"postgresql://postgres@/{database}?host={self.root}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL with psql; its output."""
        out = subprocess.run([str(self.bin / "psql"), "-X", "-q", "-At", "-h", str(self.root), "-U", "postgres",
                              "-d", database, "-c", sql], check=True, capture_output=True, text=True, timeout=60)
        return out.stdout

    def new_database(self) -> str:
        """Create an empty database of its own for one test; its URL."""
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)
