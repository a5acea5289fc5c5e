"""The Hex AI's package data files (engine/ai/hex/data/): the values the Python literals held, read lazily.

The sample constants and digests below were taken once from the generated modules these files
replace (``engine/ai/hex/prior_weights.py`` and ``book_moves.py`` at commit 1b4641c): a
changed value in a data file changes a digest.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys

from engine.ai.hex.book import entries
from engine.ai.hex.patterns import weights

#: sha256 of repr((sorted SHAPE items, sorted NEAR items, list(ROWS), list(LAST), SAVE)) of the old module
PRIORS_DIGEST = "ca4d9c2c0bb348961fa78a1d577c9fa54292cb06d6593ac0b531360b94dc9446"
#: sha256 of repr(sorted((size, sorted(book items)) for each size)) of the old module
BOOK_DIGEST = "d10d42e70953284a2c1838d0ff91ed0fdbe804fa05efce72bb656f8267a40d4d"


def _digest(obj: object) -> str:
    return hashlib.sha256(repr(obj).encode()).hexdigest()


def test_the_priors_hold_the_old_modules_weights():
    w = weights()
    assert (len(w.shape), len(w.near)) == (11620, 342)
    assert {c: w.shape[c] for c in (0, 2, 3210516, 41474499, 298549873)} == {
        0: -0.6393, 2: 1.3222, 3210516: -0.0289, 41474499: -0.0455, 298549873: -0.0253,
    }
    assert {c: w.near[c] for c in (14, 131, 175, 252, 700)} == {
        14: -1.1498, 131: 1.5804, 175: -0.6143, 252: -1.2177, 700: 0.8022,
    }
    assert w.rows[:5] == (-0.9025, -1.7241, -1.9914, -1.856, -2.2158) and w.rows[24] == 1.5569
    assert w.last == (-1.1937, 1.2676, 0.891, -0.2919)
    assert w.save == 0.9355
    assert _digest((sorted(w.shape.items()), sorted(w.near.items()), list(w.rows), list(w.last), w.save)) == (
        PRIORS_DIGEST
    )


def test_the_book_holds_the_old_modules_moves():
    book = entries()
    assert {n: len(moves) for n, moves in book.items()} == {9: 4851, 11: 3353}
    assert book[9]["//b"] == 40 and book[11]["//b"] == 20
    assert book[9]["15,21,24,32,40,42,48,56/6,7,23,31,52,57,59/w"] == 14
    assert book[9]["49,74/48,58/b"] == 51
    assert book[11]["16,50,62,74/27,71,83,95/b"] == 96
    assert book[11]["116/69/b"] == 70
    assert _digest(sorted((n, sorted(moves.items())) for n, moves in book.items())) == BOOK_DIGEST


def test_importing_the_engine_and_its_ai_reads_no_data_file():
    probe = (
        "import engine, engine.ai, engine.ai.hex.ai\n"
        "from engine.ai.hex.book import entries\n"
        "from engine.ai.hex.patterns import weights\n"
        "print(entries.cache_info().currsize, weights.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    assert out.split() == ["0", "0"]


def test_each_data_file_is_read_once():
    entries()
    weights()
    assert entries() is entries() and weights() is weights()
    assert entries.cache_info().misses <= 1 and weights.cache_info().misses <= 1
