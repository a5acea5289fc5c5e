"""A throwaway PostgreSQL cluster for tests and benchmarks, started from the `pgserver` wheel.

`pgserver` ships a real PostgreSQL 16 (initdb, pg_ctl, postgres, pg_dump) inside a pip
package, so ``pip install -e '.[dev]'`` is all a fresh machine needs. When it is absent the
machine's own binaries (``pg_ctl`` on PATH) are used instead. The cluster lives in a temporary
folder, listens only on a unix socket in that folder (no port to collide with other runs),
trusts local connections, and is stopped and deleted by :meth:`PgCluster.stop`.

PostgreSQL refuses to run as root; when the tests run as root the server runs as ``nobody``.
When ``nobody`` cannot reach the binaries where they are installed (a checkout in root's 0700
home, or in a ``mktemp -d`` folder), the server runs from a copy of the installation in a
temporary folder every user can read and only root can write.
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


def public_install_copy(bin_dir: Path) -> tuple[Path, Path]:
    """A copy of the PostgreSQL installation around ``bin_dir`` that every user can read:
    (the copy's folder, to delete afterwards; the copy's bin folder).

    PostgreSQL finds its libraries and data files (``lib/``, ``share/``) relative to its
    programs, and the wheel's programs find libpq in ``pgserver.libs`` beside the package (their
    RPATH is ``$ORIGIN/../../../pgserver.libs``), so the copy keeps that layout: the installation
    (but its C headers) two folders down, and any ``<package>.libs`` folder beside the package.
    The folder is root's and read-only to others: root runs some of these programs too. Copies,
    not hard links: making a link readable would change the mode of the user's own file too.
    """
    install = bin_dir.parent
    site = install.parent.parent
    folder = Path(tempfile.mkdtemp(prefix="hexpg-bin-"))
    try:
        for part in ("bin", "lib", "share"):
            if (install / part).is_dir():
                shutil.copytree(install / part, folder / install.relative_to(site) / part, symlinks=True)
        for libs in site.glob(f"{install.parent.name}.libs"):
            shutil.copytree(libs, folder / libs.name, symlinks=True)
        for path in (folder, *folder.rglob("*")):
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | (0o555 if path.is_dir() or os.access(path, os.X_OK) else 0o444))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, folder / bin_dir.relative_to(site)


def can_run(user: str, program: Path) -> bool:
    """Whether ``user`` can run ``program`` (every folder on its way searchable, the file executable)."""
    try:
        subprocess.run([str(program), "--version"], user=user, check=True, capture_output=True, timeout=60)
    except (PermissionError, subprocess.CalledProcessError):
        return False
    return True


class PgCluster:
    """One running PostgreSQL server in a temporary folder; :meth:`url` names a database on it.

    ``bin``: the folder with the PostgreSQL programs (default: :func:`postgres_bin_dir`)."""

    def __init__(self, bin: Path | None = None) -> None:
        self.bin = bin or postgres_bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="hexpg-"))
        self.data = self.root / "data"
        self._user: str | None = None
        self._server_bin = self.bin
        self._install_copy: Path | None = None
        self._databases = 0
        if os.geteuid() == 0:
            self._user = "nobody"
            if not can_run(self._user, self.bin / "initdb"):
                try:
                    self._install_copy, self._server_bin = public_install_copy(self.bin)
                except BaseException:
                    shutil.rmtree(self.root, ignore_errors=True)
                    raise
            os.chown(self.root, pwd.getpwnam("nobody").pw_uid, pwd.getpwnam("nobody").pw_gid)

    def temporary_folders(self) -> list[Path]:
        """Every folder this cluster made (its data and socket, the copy of the programs); stop() deletes them."""
        return [self.root] + ([self._install_copy] if self._install_copy is not None else [])

    def _run(self, *args: str) -> None:
        subprocess.run([str(self._server_bin / args[0]), *args[1:]], check=True, user=self._user,
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
            for folder in self.temporary_folders():
                shutil.rmtree(folder, ignore_errors=True)

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
