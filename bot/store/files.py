"""Database files and backups that only their owner can read: the folders the bot creates 0700,
the files 0600. SQLite gives a database's -wal, -shm and -journal files the mode of the
database file, so creating that file private is enough for all of them."""

from __future__ import annotations

import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(folder: str | Path) -> None:
    """Create ``folder`` and any missing parent, each readable by its owner only; existing
    folders are left as they are (their modes are the operator's choice)."""
    missing = []
    folder = Path(folder)
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=FOLDER_MODE)
        except FileExistsError:  # made at the same moment by another process
            continue


def private_file(path: str | Path) -> None:
    """Make sure the file at ``path`` exists, creating it (and its folders) readable and writable
    by its owner only; an existing file keeps its mode."""
    private_folder(Path(path).parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
