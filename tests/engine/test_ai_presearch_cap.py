"""The pre-search's deterministic cap for searches bounded by iterations (what makes a 19×19 review affordable)."""

from __future__ import annotations

import random

from engine.ai.hex import ai as hex_ai
from engine.ai.mcts import Params, Search
from engine.games import make_options

from .test_ai_mcts import ProvenCoinFlips


def test_a_capped_pre_search_refines_only_the_most_likely_moves() -> None:
    refined: list[int] = []
    search = Search(ProvenCoinFlips({}, refined), random.Random(1), Params(explore=0.2, bias=2.0))
    assert search.presearch(limit=1) == 1
    assert refined == [2]


def test_an_iteration_bounded_search_caps_the_pre_search_on_large_boards_only() -> None:
    assert hex_ai._presearch_limit(19, None) == hex_ai.PRESEARCH_MOVES[19]
    assert hex_ai._presearch_limit(14, None) == hex_ai.PRESEARCH_MOVES[13]
    assert hex_ai._presearch_limit(11, None) is None


def test_a_search_with_a_deadline_keeps_its_whole_pre_search() -> None:
    assert hex_ai._presearch_limit(19, 123.0) is None


def test_a_19x19_review_search_refines_no_more_than_the_cap(monkeypatch) -> None:
    counts: list[int] = []
    original = Search.presearch

    def counted(self: Search, *args: object, **kwargs: object) -> int:
        counts.append(original(self, *args, **kwargs))  # type: ignore[arg-type]
        return counts[-1]

    monkeypatch.setattr(Search, "presearch", counted)
    pos = make_options("hex", 19, [], None).new_position()
    for cell in ("j10", "k11", "d4", "p16"):
        pos.play(cell)
    hex_ai.choose(pos, 0.0, random.Random(1), 20, None)
    assert counts == [hex_ai.PRESEARCH_MOVES[19]]
