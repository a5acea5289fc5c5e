"""Opening the benchmarks' data files (book caches, training games, MoHex's values), plain or gzipped."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import IO


def open_text(path: Path, mode: str) -> IO[str]:
    """A data file (a book cache, training games, a review's values) as text; ``.gz`` ones through
    gzip (appending adds a gzip member, which reading joins), so that the data in the repository
    stays small."""
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")
    return open(path, mode, encoding="utf-8")
