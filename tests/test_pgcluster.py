"""The test PostgreSQL starts wherever the checkout lives, also in a folder only its owner can open."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.pgcluster import PgCluster, postgres_bin_dir


def private_install(tmp_path: Path) -> Path:
    """The PostgreSQL installation copied into a 0700 folder (as a venv in root's home); its bin folder.

    Copied with what sits beside it (for the wheel: site-packages' pgserver and pgserver.libs)."""
    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    private.chmod(0o700)
    bin_dir = postgres_bin_dir()
    site = bin_dir.parents[2]
    for path in site.glob(f"{bin_dir.parents[1].name}*"):
        shutil.copytree(path, private / "site" / path.name, symlinks=True,
                        ignore=shutil.ignore_patterns("include", "__pycache__"))
    return private / "site" / bin_dir.relative_to(site)


def test_a_cluster_starts_from_binaries_in_a_folder_only_its_owner_can_open(tmp_path):
    cluster = PgCluster(bin=private_install(tmp_path))
    try:
        cluster.start()
        assert cluster.psql("SELECT 40 + 2") == "42\n"
    finally:
        cluster.stop()


def test_stopping_a_cluster_leaves_no_folder_behind(tmp_path):
    cluster = PgCluster(bin=private_install(tmp_path)).start()
    made = cluster.temporary_folders()
    cluster.stop()
    assert [folder for folder in made if folder.exists()] == []
