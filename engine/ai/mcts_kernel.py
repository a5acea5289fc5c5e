"""The tree search's two inner loops, compiled by numba (see :mod:`engine.ai.mcts` for the search).

A node keeps its children's statistics in one float array ``stats`` of :data:`ROWS` rows
and one column per child: visits, wins, AMAF visits, AMAF wins, progressive bias and the
child's AMAF key. Choosing a child and counting a playout are a loop over those columns,
which is where a search in plain Python spent more than half its time (a profile of one
11×11 search: selection 36%, the AMAF update 18%); compiled, each is one call per node.

A playout's AMAF mask goes in as :data:`MASK_WORDS` 64-bit words (:func:`mask_words`), so
keys and mask bits are below ``64 · MASK_WORDS``.

Compiled once per machine (numba's cache, next to this file or in numba's cache
directory when that is not writable); the first use on a fresh install waits for it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: the rows of a node's ``stats``
N, W, RN, RW, BIAS, KEY = range(6)
ROWS = 6
#: 64-bit words of an AMAF mask: keys below 1024 (the adapters' "no key" is 1023)
MASK_WORDS = 16
#: keys (and mask bits) lie below this
KEY_LIMIT = 64 * MASK_WORDS
#: a mask with no bit set (for results without AMAF information)
NO_MASK = np.frombuffer(bytes(8 * MASK_WORDS), dtype="<u8")


def mask_words(mask: int) -> np.ndarray:
    """A playout's AMAF mask (a Python int, bit = key) as the words :func:`backup` reads."""
    return np.frombuffer(mask.to_bytes(8 * MASK_WORDS, "little"), dtype="<u8")


@njit(cache=True)
def select(stats: np.ndarray, visits: int, k: float, explore: float) -> int:
    """The child with the best RAVE-blended score plus exploration and progressive bias.

    The blend ``(1-β)·w/n + β·rw/rn`` with ``β = rn/(rn + n + K·rn·n)`` simplifies to
    ``(w·(1 + K·rn) + rw) / (rn + n·(1 + K·rn))``: no division by a zero ``n``; priors
    keep ``rn`` positive. Exploration ``explore·sqrt(ln(visits + 1))`` and the child's
    bias both fade as ``1/sqrt(n + 1)``. The first best child wins a tie.
    """
    c = explore * math.sqrt(math.log(visits + 1))
    best = -1.0
    bi = 0
    for i in range(stats.shape[1]):
        ni = stats[N, i]
        ri = stats[RN, i]
        f = 1.0 + k * ri
        s = (stats[W, i] * f + stats[RW, i]) / (ri + ni * f) + (c + stats[BIAS, i]) * (1.0 / math.sqrt(ni + 1.0))
        if s > best:
            best = s
            bi = i
    return bi


@njit(cache=True)
def backup(stats: np.ndarray, i: int, r: float, mask: np.ndarray) -> None:
    """Count one playout that went through child ``i`` with result ``r`` (1: the node's mover
    won): its visit and win, and an AMAF visit and win for every child whose key is in ``mask``."""
    stats[N, i] += 1.0
    stats[W, i] += r
    for j in range(stats.shape[1]):
        key = np.int64(stats[KEY, j])
        if (mask[key >> 6] >> np.uint64(key & 63)) & np.uint64(1):
            stats[RN, j] += 1.0
            stats[RW, j] += r


def _warm_up() -> None:
    """Compile (or load from numba's cache) now, at import, so that no search waits for it."""
    stats = np.ones((ROWS, 2))
    select(stats, 1, 0.0, 0.0)
    backup(stats, 0, 1.0, mask_words(1))


_warm_up()
