"""``research/mohex_match.py``: how a MoHex crash ends a game, and who an adjudicated game goes to."""

from __future__ import annotations

from pathlib import Path

from engine import make_options
from research import mohex_match

MATCH = vars(mohex_match)
FAKE = str(Path(__file__).with_name("fake_mohex.py"))

#: A 9×9 game against MoHex (its game 1 of 2026-11-27, our AI Black) up to the move
#: MoHex crashed on after "Opponent has won": Black is connected by virtual connections
#: that only the full H-search on the filled board finds.
CONCEDED_GAME = (
    "e5 f3 d4 e6 d6 c8 b8 c7 b7 c6 b6 c5 d7 d8 f7 e7 g5 g6 f6 e9 g8 d3 e3 f1 g4 f8 c4 b5 g7 h1 d2"
).split()


def _position(moves: list[str]):
    pos = make_options("hex", 9, ()).new_position()
    for move in moves:
        pos.play(move)
    return pos


def _crash_on_genmove(monkeypatch, log: str):
    monkeypatch.setenv("FAKE_MOHEX_LOG", log)
    mohex = MATCH["MoHex"](FAKE, 9)
    game = MATCH["Game"]("e5", "black")
    pos = _position(["e5", "f3", "d4"])
    return mohex, game, MATCH["_mohex_move"](mohex, pos, "white", 0.1, game)


def test_a_crash_after_mohex_finds_its_loss_is_its_resignation(monkeypatch):
    mohex, game, move = _crash_on_genmove(monkeypatch, "Opponent has won; playing most blocking move.")
    try:
        assert move == "resign"
        assert game.conceded and game.restarts == 1
        assert mohex.proc.poll() is None  # restarted, ready for the next game
    finally:
        mohex.close()


def test_a_crash_without_a_found_loss_is_retried_then_left_to_adjudication(monkeypatch):
    mohex, game, move = _crash_on_genmove(monkeypatch, "Fillin caused win! Removing...")
    try:
        assert move is None
        assert not game.conceded and game.restarts == 3 and game.ice_off_moves == 1
    finally:
        mohex.close()


def test_the_adjudicator_uses_the_knowledge_the_search_trusts_at_its_root():
    assert MATCH["_adjudicate"](_position(CONCEDED_GAME)) == "black"


def test_a_conceded_game_counts_as_our_win_and_says_why():
    row = MATCH["ROWS"][0]
    game = MATCH["Game"]("e5", "black", winner="black", plies=31, resigned=True, conceded=True, moves=CONCEDED_GAME)
    line = MATCH["_game_line"](row, 0, game)
    assert "we won in 31 plies" in line and "Opponent has won" in line
    assert "| 1 | 1 | 100% |" in MATCH["summary"](row, [game])


def test_a_game_records_which_of_our_moves_came_from_the_opening_book(monkeypatch):
    # Our AI is White after e5: its first move (ply 2) is the book's; MoHex then concedes.
    monkeypatch.setenv("FAKE_MOHEX_LOG", "Opponent has won; playing most blocking move.")
    mohex = MATCH["MoHex"](FAKE, 9)
    try:
        game = MATCH["play"](mohex, MATCH["ROWS"][0], "e5", "white", seed=1)
    finally:
        mohex.close()
    assert game.book_plies == [2] and game.conceded
    assert "our book moves at plies: 2;" in MATCH["_game_line"](MATCH["ROWS"][0], 1, game)


def test_a_game_records_our_search_speed_on_the_moves_it_searched(monkeypatch):
    # The opening book has no 7×7 Hex: our AI, White, searches its first move.
    monkeypatch.setenv("FAKE_MOHEX_LOG", "Opponent has won; playing most blocking move.")
    row = MATCH["Row"]("MoHex 7×7, 0.2 s a move", 7, 0.2, "easy")
    mohex = MATCH["MoHex"](FAKE, 7)
    try:
        game = MATCH["play"](mohex, row, "d4", "white", seed=1)
    finally:
        mohex.close()
    assert game.book_plies == [] and len(game.speed) == 1 and game.speed[0] > 0


def test_the_game_line_gives_the_median_of_our_search_speed():
    game = MATCH["Game"]("e5", "black", winner="white", plies=20, speed=[1500.0, 4200.0, 3100.0])
    assert "our search 3,100 iterations/s" in MATCH["_game_line"](MATCH["ROWS"][0], 0, game)


def test_the_game_line_gives_the_median_of_mohex_speed():
    game = MATCH["Game"]("e5", "black", winner="white", plies=20, mohex_speed=[7918.0, 8100.5, 6000.0])
    assert "MoHex's 7,918 games/s" in MATCH["_game_line"](MATCH["ROWS"][0], 0, game)


def test_mohex_speed_is_read_from_the_statistics_in_its_log():
    log = "Count          8838\nGamesPlayed    8838\nGames/s        7918.0\nTime           1.1\n"
    assert MATCH["games_per_second"](log) == 7918.0
    assert MATCH["games_per_second"]("Best move cannot be determined, must search state.\n") is None


def test_the_game_line_says_so_when_our_search_never_ran():
    game = MATCH["Game"]("e5", "white", winner="white", plies=20, book_plies=[2])
    assert "our search — iterations/s" in MATCH["_game_line"](MATCH["ROWS"][0], 0, game)
