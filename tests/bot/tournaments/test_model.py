"""The tournament values refuse what the rules forbid, with a short message, and seed by rating."""

from __future__ import annotations

import pytest

from bot.tournaments import (
    Ending,
    Pairing,
    Result,
    Settings,
    TournamentError,
    is_over,
    next_round,
    seeded,
    start,
    winner,
)
from tests.bot.tournaments.build import build
from tests.bot.tournaments.play import signups


def test_seeds_go_by_rating_with_the_unrated_last_and_ties_in_sign_up_order():
    got = seeded([("a", "a", None), ("b", "b", 1500.0), ("c", "c", 1600.0), ("d", "d", 1500.0)])
    assert [(e.player, e.seed) for e in got] == [("c", 1), ("b", 2), ("d", 3), ("a", 4)]


def test_joining_twice_is_refused():
    with pytest.raises(TournamentError, match="only join once"):
        start(Settings("swiss"), [("a", "a", None), ("a", "a", None), ("b", "b", None)])


@pytest.mark.parametrize("fmt,need", [("swiss", 2), ("knockout", 2), ("round-robin", 3)])
def test_a_tournament_needs_its_formats_fewest_players(fmt, need):
    start(Settings(fmt), signups(need))
    with pytest.raises(TournamentError, match=f"at least {need}"):
        start(Settings(fmt), signups(need - 1))


def test_an_unknown_format_is_refused():
    with pytest.raises(TournamentError, match="Unknown format"):
        Settings("arena")  # type: ignore[arg-type]


def test_rounds_are_chosen_for_a_swiss_only():
    with pytest.raises(TournamentError, match="Swiss only"):
        Settings("knockout", rounds=3)


def test_the_next_round_waits_for_every_game_of_this_one():
    t = start(Settings("swiss"), signups(4))
    t = t.with_round(next_round(t))
    with pytest.raises(TournamentError, match="in progress"):
        next_round(t)


def test_a_result_for_a_game_not_in_the_tournament_is_refused():
    t = build(Settings("swiss", rounds=2), "ABCD", [["AB>A", "CD>C"]])
    with pytest.raises(TournamentError, match="not part"):
        t.with_result(Result(1, Pairing("A", "C"), "A"))


def test_a_game_has_one_result():
    t = build(Settings("swiss", rounds=2), "ABCD", [["AB>A", "CD>C"]])
    with pytest.raises(TournamentError, match="already has a result"):
        t.with_result(Result(1, Pairing("A", "B"), "B", Ending.RESIGNED))


def test_the_winner_must_have_played_the_game():
    t = build(Settings("swiss", rounds=2), "ABCD", [])
    t = t.with_round(next_round(t))
    game = t.rounds[0].pairings[0]
    with pytest.raises(TournamentError, match="one of the game's players"):
        t.with_result(Result(1, game, "Z"))


def test_a_finished_tournament_pairs_no_more_rounds_and_has_a_winner():
    t = build(Settings("swiss", rounds=1), "AB", [["AB>B"]])
    assert is_over(t) and winner(t) == "B"
    with pytest.raises(TournamentError, match="over"):
        next_round(t)


def test_there_is_no_winner_before_the_end():
    t = build(Settings("swiss", rounds=2), "ABCD", [["AB>A", "CD>C"]])
    assert not is_over(t) and winner(t) is None


def test_a_swiss_everyone_else_left_is_over():
    t = build(Settings("swiss", rounds=3), "ABC", [["AB>A", "-C"]]).with_withdrawal("B").with_withdrawal("C")
    assert is_over(t) and winner(t) == "A"


def test_the_package_imports_neither_discord_nor_the_store():
    import ast
    from pathlib import Path

    import bot.tournaments

    allowed = {"__future__", "collections", "dataclasses", "enum", "functools", "math", "typing", "networkx"}
    for path in Path(bot.tournaments.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            assert {n.split(".")[0] for n in names} <= allowed, (path.name, names)
