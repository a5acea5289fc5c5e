"""The search's compiled inner loops: choosing a child and counting a playout (``engine.ai.mcts_kernel``)."""

from __future__ import annotations

import math
import random

import numpy as np

from engine.ai import mcts_kernel as kernel

NO_KEY = 1023


def _stats(rng: random.Random, count: int, bias: bool) -> np.ndarray:
    stats = np.zeros((kernel.ROWS, count))
    for i in range(count):
        n = rng.randrange(0, 40)
        stats[kernel.N, i] = n
        stats[kernel.W, i] = rng.randint(0, n)
        stats[kernel.RN, i] = rng.choice([1e-6, 1.0, 20.0, 60.0]) + rng.randrange(0, 200)
        stats[kernel.RW, i] = rng.random() * stats[kernel.RN, i]
        stats[kernel.BIAS, i] = rng.random() if bias else 0.0
        stats[kernel.KEY, i] = i
    return stats


def _reference_score(stats: np.ndarray, i: int, visits: int, k: float, explore: float) -> float:
    """Child ``i``'s score written out plainly: the RAVE blend, exploration and bias."""
    n, w, rn, rw, b = (float(stats[row, i]) for row in (kernel.N, kernel.W, kernel.RN, kernel.RW, kernel.BIAS))
    beta = rn / (rn + n + k * rn * n)
    value = (1 - beta) * (w / n if n else 0.0) + beta * rw / rn
    return value + (explore * math.sqrt(math.log(visits + 1)) + b) / math.sqrt(n + 1)


def test_select_picks_the_child_with_the_best_blended_score_exploration_and_bias():
    rng = random.Random(7)
    for trial in range(300):
        stats = _stats(rng, rng.randrange(1, 90), bias=trial % 2 == 0)
        visits = int(stats[kernel.N].sum())
        scores = [_reference_score(stats, i, visits, 0.002, 0.1) for i in range(stats.shape[1])]
        chosen = kernel.select(stats, visits, 0.002, 0.1)
        # The kernel's simplified blend may differ from the written-out one in the last bits.
        assert math.isclose(scores[chosen], max(scores), rel_tol=1e-12)


def test_select_breaks_a_tie_for_the_first_child():
    stats = np.zeros((kernel.ROWS, 4))
    stats[kernel.RN] = 10.0
    stats[kernel.RW] = 5.0
    assert kernel.select(stats, 0, 0.002, 0.0) == 0


def test_backup_counts_the_visit_and_win_of_the_child_played():
    stats = np.ones((kernel.ROWS, 3))
    kernel.backup(stats, 1, 1.0, kernel.NO_MASK)
    assert stats[kernel.N].tolist() == [1.0, 2.0, 1.0]
    assert stats[kernel.W].tolist() == [1.0, 2.0, 1.0]


def test_backup_counts_an_amaf_visit_for_exactly_the_children_whose_key_is_in_the_mask():
    keys = [0, 5, 63, 64, 130, 500, NO_KEY]
    stats = np.zeros((kernel.ROWS, len(keys)))
    stats[kernel.KEY] = keys
    kernel.backup(stats, 0, 0.0, kernel.mask_words(1 << 5 | 1 << 64 | 1 << 500))
    assert stats[kernel.RN].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert stats[kernel.RW].tolist() == [0.0] * len(keys)


def test_backup_counts_an_amaf_win_only_for_a_won_playout():
    stats = np.zeros((kernel.ROWS, 2))
    stats[kernel.KEY] = [3, 4]
    kernel.backup(stats, 0, 1.0, kernel.mask_words(1 << 3))
    kernel.backup(stats, 0, 0.0, kernel.mask_words(1 << 3))
    assert (stats[kernel.RN, 0], stats[kernel.RW, 0]) == (2.0, 1.0)


def test_mask_words_put_bit_i_in_word_i_div_64():
    words = kernel.mask_words(1 << 0 | 1 << 65 | 1 << 1023)
    assert words.shape == (kernel.MASK_WORDS,)
    assert [int(w) for w in words] == [1, 2] + [0] * 13 + [1 << 63]
