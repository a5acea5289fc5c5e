"""``research/mohex_review.py``: reading a MoHex match's games back, and valuing moves MoHex left out."""

from __future__ import annotations

from pathlib import Path

from research import mohex_review
from tests.research.match_log import game_line, match_log

REVIEW = vars(mohex_review)


def _match_log(tmp_path: Path) -> Path:
    """A match's stderr with three 11×11 games."""
    games = [
        dict(opening="f6", ours="black", winner="white", plies=7, moves="f6 e5 d7 c8 b9 a10 k1".split()),
        dict(opening="f6", ours="white", winner="black", plies=5, moves="f6 e6 d6 c6 b6".split()),
        dict(opening="c3", ours="black", winner="black", plies=5, moves="c3 d4 e5 f6 g7".split()),
    ]
    return match_log(tmp_path / "match.err", [game_line(11, i, **g) for i, g in enumerate(games)])


def test_the_review_reads_only_the_games_lost_with_the_colour_asked_and_the_board_size(tmp_path):
    size, games = REVIEW["lost_games"](str(_match_log(tmp_path)), "black")
    assert size == 11
    assert games == [("1", "f6 e5 d7 c8 b9 a10 k1".split())]


def test_the_opening_review_takes_each_position_where_we_moved_within_the_plies(tmp_path):
    size, positions = REVIEW["opening_positions"](str(_match_log(tmp_path)), 3)
    assert size == 11
    # Black games: we moved at plies 2 (and 4, beyond 3); the White game: at plies 1 and 3.
    assert positions == [
        ["f6", "e5"],
        ["f6"], ["f6", "e6", "d6"],
        ["c3", "d4"],
    ]


def test_the_middle_game_review_takes_only_the_positions_from_its_first_ply_on(tmp_path):
    size, positions = REVIEW["opening_positions"](str(_match_log(tmp_path)), 4, 3)
    # Black games: we moved at ply 4 (ply 2 is before the start); the White game: at ply 3.
    assert positions == [
        ["f6", "e5", "d7", "c8"],
        ["f6", "e6", "d6"],
        ["c3", "d4", "e5", "f6"],
    ]


def test_a_move_mohex_left_out_of_its_search_is_worth_its_worst_searched_move():
    worth = REVIEW["_worth"]
    values = {"e5": 0.61, "d4": 0.42, "c3": "unvisited"}
    assert worth(values, "e5") == 0.61
    assert worth(values, "c3") == 0.42
    assert worth(values, "a1") == 0.42


def test_mohex_values_are_read_as_win_rates_with_proofs_as_certainties():
    words = "a1 .53@120 b2 W@3 c3 L@5 d4 -".split()
    assert REVIEW["values_from"](words) == {"a1": 0.53, "b2": 1.0, "c3": 0.0, "d4": "unvisited"}


def test_a_position_counts_as_proven_won_only_when_mohex_proved_some_move_a_win():
    proven = REVIEW["proven_win"]
    assert proven({"e5": 1.0, "d4": 0.3})
    assert not proven({"e5": 0.97, "d4": "unvisited"})
    assert not proven({})


def test_a_position_counts_as_proven_lost_only_when_mohex_proved_every_move_a_loss():
    lost = REVIEW["proven_loss"]
    assert lost({"e5": 0.0, "d4": 0.0})
    assert not lost({"e5": 0.0, "d4": "unvisited"})
    assert not lost({"e5": 0.0, "d4": 0.02})
    assert not lost({})


def test_the_mustplay_count_takes_the_cells_common_to_every_carrier_mohex_lists():
    answer = (
        "white east west semi and [ h2 h3 i3 c4 b5 c5 ] [ ] c5\n"
        "white east west semi and [ h2 h3 i3 b5 b6 a7 ] [ ] b6\n"
        "white east west semi and [ h1 h2 b5 c5 b6 ] [ ] g2"
    )
    assert REVIEW["carrier_meet"](answer) == {"h2", "b5"}


def test_the_mustplay_count_reads_no_connection_when_mohex_lists_none():
    assert REVIEW["carrier_meet"]("") is None


def test_the_mustplay_count_plays_mohexs_own_move_when_it_is_a_proven_win_else_the_first_by_name():
    assert REVIEW["winning_move"]({"e5": 1.0, "d4": 1.0, "c3": 0.2}, "d4") == "d4"
    assert REVIEW["winning_move"]({"e5": 1.0, "d4": 0.9, "b2": 1.0}, "d4") == "b2"
