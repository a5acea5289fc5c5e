"""Opening the tools' and research's data files (book caches, training games, MoHex's values),
plain or gzipped, and writing the engine's package data files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import IO, Any


def open_text(path: Path, mode: str) -> IO[str]:
    """A data file (a book cache, training games, a review's values) as text; ``.gz`` ones through
    gzip (appending adds a gzip member, which reading joins), so that the data in the repository
    stays small."""
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def write_json_gz(path: Path, doc: Any) -> None:
    """Write ``doc`` as compact, gzip-compressed JSON, byte for byte the same for the same ``doc``
    (no time stamp in the gzip header), so that regenerating unchanged data changes no file."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
