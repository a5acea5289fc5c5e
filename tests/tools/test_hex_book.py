"""``tools/hex_book.py``: keys of positions, MoHex's replies in order, and the book's data file it writes."""

from __future__ import annotations

import gzip
import json

from engine.ai.hex.book import parse_book
from tests.research.match_log import game_line, match_log
from tools import hex_book

BOOK = vars(hex_book)


def test_a_position_reached_in_another_order_or_turned_by_half_a_turn_has_one_key():
    key = BOOK["position_key"]
    assert key(9, ["e5", "f3", "d4"])[0] == key(9, ["d4", "f3", "e5"])[0]
    # a1 and i9 are each other's half turn; so are b2 and h8.
    assert key(9, ["a1", "b2"])[0] == key(9, ["i9", "h8"])[0]
    assert key(9, ["a1", "b2"])[0] != key(9, ["b2", "a1"])[0]


def test_mohex_replies_are_ranked_by_value_with_its_own_move_first():
    vals = {"a1": 0.4, "b2": 0.7, "c3": "unvisited", "d4": 0.5, "e5": 0.6}
    assert BOOK["ranked"](vals, "e5") == ["e5", "b2", "d4", "a1"]


def test_the_written_book_plays_mohex_move_in_the_frame_of_the_position_asked(tmp_path):
    key = BOOK["position_key"]
    # Recorded after a1 (its key is a1's, not turned) and after i9 (turned: the key is a1's frame).
    records = [
        {"key": key(9, [])[0], "moves": [], "mohex": "e5", "values": {}, "seconds": 2.0},
        {"key": key(9, ["i9", "h8"])[0], "moves": ["i9", "h8"], "mohex": "g7", "values": {}, "seconds": 2.0},
        {"key": key(9, ["e4"])[0], "moves": ["e4"], "mohex": "resign", "values": {}, "seconds": 2.0},
    ]
    (tmp_path / "9.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "book_moves.json.gz"
    BOOK["write"](tmp_path, out)
    book = parse_book(json.loads(gzip.decompress(out.read_bytes())))
    assert set(book) == {9}
    assert len(book[9]) == 2  # "resign" is no book move
    k, turned = key(9, ["i9", "h8"])
    assert turned
    # g7 (index 60) in the frame of i9/h8 is c3 (index 20) in the key's frame.
    assert book[9][k] == 20
    assert book[9][key(9, [])[0]] == 40


def _record(best: str, vals: dict) -> dict:
    return {"key": "", "moves": [], "mohex": best, "values": vals, "seconds": 2.0}


def test_after_the_empty_board_the_book_grows_every_first_stone_for_both_colours():
    grown = BOOK["children"](3, 0, _record("b2", {}), {"b", "w"}, [2])
    assert len(grown) == 18
    assert {side for _, side in grown} == {"b", "w"}
    assert {c for c, _ in grown} == {f"{col}{row}" for col in "abc" for row in (1, 2, 3)}


def test_where_the_book_is_to_play_it_grows_only_its_own_move():
    grown = BOOK["children"](9, 1, _record("e5", {"e5": 0.6, "d6": 0.7}), {"w"}, [3])
    assert grown == [("e5", "w")]


def test_where_the_opponent_is_to_play_the_book_grows_mohex_best_replies():
    vals = {"e5": 0.6, "d6": 0.7, "c7": 0.5, "b8": 0.4}
    grown = BOOK["children"](9, 1, _record("e5", vals), {"b"}, [3, 1])
    assert grown == [("e5", "b"), ("d6", "b"), ("c7", "b")]
    # one count per ply after the first, the last one for every ply beyond
    assert BOOK["children"](9, 2, _record("e5", vals), {"w"}, [3, 1]) == [("e5", "w")]
    assert BOOK["children"](9, 3, _record("e5", vals), {"b"}, [3, 1]) == [("e5", "b")]
    assert BOOK["children"](9, 3, _record("e5", vals), {"b"}, [3, 2]) == [("e5", "b"), ("d6", "b")]


def test_where_the_book_plays_either_colour_it_grows_both():
    vals = {"e5": 0.6, "d6": 0.7}
    grown = BOOK["children"](9, 1, _record("e5", vals), {"b", "w"}, [2])
    assert grown == [("e5", "w"), ("e5", "b"), ("d6", "b")]


def test_at_the_last_depth_only_positions_where_the_book_plays_are_searched():
    # One stone on the board: White is to move. The book plays White after c3 only.
    frontier = {"after e5": (["e5"], {"b"}), "after c3": (["c3"], {"w"})}
    assert BOOK["to_search"](frontier, {}, last=False) == [["e5"], ["c3"]]
    assert BOOK["to_search"](frontier, {}, last=True) == [["c3"]]


def test_under_reached_positions_of_any_depth_the_book_grows_its_move_and_mohex_best_replies():
    key = BOOK["position_key"]
    ours = ["e5", "f3"]  # Black (the book) to move
    theirs = ["c3", "d4", "e6"]  # White (MoHex) to move; the book plays Black
    known = {
        key(9, ours)[0]: _record("d4", {}) | {"moves": ours},
        key(9, theirs)[0]: _record("f4", {"f4": 0.6, "g3": 0.5, "a1": 0.2}) | {"moves": theirs},
    }
    frontier = {key(9, ours)[0]: (ours, {"b"}), key(9, theirs)[0]: (theirs, {"b"})}
    grown = BOOK["next_frontier"](9, frontier, known, [2])
    assert sorted(moves for moves, _ in grown.values()) == sorted([ours + ["d4"], theirs + ["f4"], theirs + ["g3"]])
    assert all(sides == {"b"} for _, sides in grown.values())


def test_positions_searched_before_are_not_searched_again():
    frontier = {"after e5": (["e5"], {"w"}), "after c3": (["c3"], {"w"})}
    assert BOOK["to_search"](frontier, {"after e5": {}}, last=False) == [["c3"]]


def test_a_gzipped_cache_is_appended_to_and_read_back(tmp_path):
    cache = tmp_path / "9.jsonl.gz"
    for moves, best in (([], "e5"), (["e5"], "d6")):
        with BOOK["open_text"](cache, "a") as f:
            f.write(json.dumps(_record(best, {}) | {"key": "/".join(moves) or "empty", "moves": moves}) + "\n")
    assert {k: r["mohex"] for k, r in BOOK["load"](cache).items()} == {"empty": "e5", "e5": "d6"}


def test_a_longer_search_of_a_position_outweighs_a_shorter_one_searched_later(tmp_path):
    cache = tmp_path / "9.jsonl"
    searches = [("e5", 2.0), ("d6", 20.0), ("c7", 2.0), ("f4", 20.0)]
    with BOOK["open_text"](cache, "a") as f:
        for best, seconds in searches:
            f.write(json.dumps(_record(best, {}) | {"key": "e5", "moves": ["e5"], "seconds": seconds}) + "\n")
    # the longest search; of equal ones, the later
    assert BOOK["load"](cache)["e5"]["mohex"] == "f4"


def test_positions_our_ai_reached_in_enough_match_games_are_searched_once_each(tmp_path):
    turn = BOOK["turn"]
    line = "e5 f3 d4 e6 d6 c8 b8".split()
    games = [
        ("black", line),
        # The same first four stones turned by 180° (the same position), then another game.
        ("black", [turn(9, m) for m in line[:4]] + ["a1", "b1", "c1"]),
        # As White our AI was to move after odd numbers of stones: each reached once.
        ("white", line),
    ]
    err = match_log(tmp_path / "match.err", [
        game_line(9, i, opening=moves[0], ours=ours, winner="black", plies=len(moves), moves=moves)
        for i, (ours, moves) in enumerate(games)
    ])
    known = {BOOK["position_key"](9, line[:2])[0]: {}}
    assert BOOK["reached"]([str(err)], 9, 2, 16, {}) == [line[:2], line[:4]]
    assert BOOK["reached"]([str(err)], 9, 2, 16, known) == [line[:4]]
    assert BOOK["reached"]([str(err)], 9, 2, 4, {}) == [line[:2]]
    assert BOOK["reached"]([str(err)], 9, 3, 16, {}) == []


def test_positions_held_only_from_a_shorter_search_count_as_not_searched_for_a_longer_one():
    records = {"short": _record("e5", {}), "long": _record("d6", {}) | {"seconds": 20.0}}
    assert set(BOOK["searched_for"](records, 20.0)) == {"long"}
    assert set(BOOK["searched_for"](records, 2.0)) == {"short", "long"}
