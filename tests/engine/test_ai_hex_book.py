"""The Hex opening book (engine.ai.hex.book): its entries, its lookup, and when the AI plays from it."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.ai import choose
from engine.ai.hex import ai as hex_ai
from engine.ai.hex.book import book_move, canonical, entries
from engine.geometry import grid

BOOK = entries()


def _position(size: int, moves: list[str], variants=()):
    pos = new_game("hex", size, variants)
    for m in moves:
        pos.play(m)
    return pos


def _entries():
    for n, book in sorted(BOOK.items()):
        for key, cell in book.items():
            yield n, key, cell


def _stones(n: int, key: str) -> tuple[int, int, bool]:
    black, white, mover = key.split("/")
    mask = [sum(1 << int(i) for i in part.split(",") if i) for part in (black, white)]
    return mask[0], mask[1], mover == "b"


def test_the_book_covers_the_boards_people_play_most():
    assert {9, 11} <= set(BOOK)


def test_every_book_move_is_an_empty_cell_of_a_position_reachable_without_swap():
    for n, key, cell in _entries():
        black, white, black_to_move = _stones(n, key)
        assert 0 <= cell < n * n and not (black | white) >> cell & 1, (n, key)
        nb, nw = black.bit_count(), white.bit_count()
        assert nb - nw == (0 if black_to_move else 1), (n, key)


def test_every_book_key_is_the_canonical_one_of_its_position():
    for n, key, _ in _entries():
        black, white, black_to_move = _stones(n, key)
        assert canonical(n, black, white, black_to_move) == (key, False)


def test_a_position_turned_by_half_a_turn_gets_the_book_move_turned():
    n = 9
    last = n * n - 1

    def turn(mask: int) -> int:
        return sum(1 << (last - i) for i in range(n * n) if mask >> i & 1)

    # a position that is not its own half turn
    key = next(k for k in BOOK[n] if [turn(m) for m in _stones(n, k)[:2]] != list(_stones(n, k)[:2]))
    cell = BOOK[n][key]
    black, white, black_to_move = _stones(n, key)
    turned = [turn(black), turn(white)]
    assert book_move(n, black, white, black_to_move) == cell
    assert book_move(n, turned[0], turned[1], black_to_move) == last - cell


def test_a_board_without_a_book_has_no_book_moves():
    assert book_move(7, 1 << 24, 0, False) is None


@pytest.mark.parametrize("first", ["a1", "e5", "i1", "c7"])
def test_medium_answers_every_first_stone_from_the_book(first):
    pos = _position(9, [first])
    g = grid(9)
    s = hex_ai.HexState.from_position(pos)
    expected = book_move(9, s.black, s.white, s.black_to_move)
    assert expected is not None
    assert choose(pos, "medium", seed=1, iterations=10) == g.name(expected)
    assert hex_ai.LAST is not None and hex_ai.LAST.book


def test_hard_plays_the_book_move_with_either_colour_after_the_first_stone():
    black_move = choose(_position(9, ["e5", "f3"]), "hard", seed=1, iterations=10)
    assert hex_ai.LAST is not None and hex_ai.LAST.book
    white_move = choose(_position(9, ["e5", "f3", black_move]), "hard", seed=1, iterations=10)
    assert hex_ai.LAST is not None and hex_ai.LAST.book
    assert white_move not in ("e5", "f3", black_move)


def test_easy_never_plays_from_the_book():
    choose(_position(9, ["e5"]), "easy", seed=1, iterations=20)
    assert hex_ai.LAST is not None and not hex_ai.LAST.book


def test_a_position_out_of_the_book_is_searched():
    choose(_position(9, ["a1", "a2", "a3", "a4", "a5", "a6"]), "medium", seed=1, iterations=20)
    assert hex_ai.LAST is not None and not hex_ai.LAST.book and hex_ai.LAST.iterations > 0


def test_with_the_pie_rule_the_first_stone_and_the_swap_decision_are_searched():
    choose(_position(9, [], ("swap",)), "medium", seed=1, iterations=20)
    assert hex_ai.LAST is not None and not hex_ai.LAST.book
    choose(_position(9, ["e5"], ("swap",)), "medium", seed=1, iterations=20)
    assert hex_ai.LAST is not None and not hex_ai.LAST.book


def test_with_the_pie_rule_declined_the_book_plays_on():
    pos = _position(9, ["e5", "f3"], ("swap",))
    choose(pos, "medium", seed=1, iterations=10)
    assert hex_ai.LAST is not None and hex_ai.LAST.book


def test_without_a_book_the_first_move_is_the_centre():
    assert choose(_position(7, []), "medium", seed=1, iterations=10) == "d4"
