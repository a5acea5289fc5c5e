"""The Hex AI's data files (``engine/ai/hex/data/``), read from the installed package.

The opening book and the learned priors' weights are generated data (``tools/hex_book.py``,
``tools/hex_priors.py``), shipped as gzip-compressed JSON package data rather than as
Python literals. Each is read when the AI first needs it, not when the engine is imported;
the modules that use them cache what they read.
"""

from __future__ import annotations

import gzip
import json
from importlib.resources import files
from typing import Any

#: the opening book (:mod:`engine.ai.hex.book`)
BOOK_FILE = "book_moves.json.gz"
#: the learned priors' weights (:mod:`engine.ai.hex.patterns`)
PRIORS_FILE = "prior_weights.json.gz"


def read_json(name: str) -> Any:
    """The JSON document of the data file ``name`` (decompressed first when it ends in ``.gz``)."""
    raw = (files(__package__) / "data" / name).read_bytes()
    if name.endswith(".gz"):
        raw = gzip.decompress(raw)
    return json.loads(raw)
