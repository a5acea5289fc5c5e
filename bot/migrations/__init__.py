"""Schema changes as numbered SQL files, one folder per dialect (``sqlite/``, ``postgres/``).

A file is ``NNNN_what_it_does.sql``; each backend applies, in order, those newer than the
version recorded in its database.
"""

from __future__ import annotations

import re
from importlib import resources

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def packaged(dialect: str) -> list[tuple[int, str, str]]:
    """The migrations of one dialect as (version, file name, sql), in order.

    >>> [name for _, name, _ in packaged("sqlite")][:2]
    ['0001_initial.sql', '0002_lifecycle.sql']
    """
    out = []
    for entry in resources.files(f"bot.migrations.{dialect}").iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m:
            out.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    return out
