"""The /rules tutorial: each page's picture shows exactly the step its words describe."""

from __future__ import annotations

import pytest

from bot.ui import tutorial
from engine import Reason


def by_title(game: str, title: str):
    index = next(i for i, p in enumerate(tutorial.pages(game)) if p.title == title)
    return tutorial.page_position(game, index), tutorial.page_text(game, index)


def test_the_inphexion_first_disc_page_shows_one_white_disc_at_d4():
    pos, text = by_title("inphexion", "The first disc")
    assert "`/move d4`" in text and pos.actions == ["d4"] and pos.piece_at(pos.grid.parse("d4")) == "white"


def test_the_move_and_place_page_shows_the_moved_disc_and_the_placed_one():
    pos, text = by_title("inphexion", "Move and place")
    g = pos.grid
    assert "`/move d4 e4`" in text
    assert (pos.piece_at(g.parse("d4")), pos.piece_at(g.parse("e4"))) == ("black", "white")


def test_the_relocation_page_shows_a_lone_disc_waiting_and_names_it_in_its_example():
    pos, text = by_title("inphexion", "A surround and its relocation")
    [pending] = pos.pending_relocations()
    assert pos.phase == "relocate" and f"`/move {pos.grid.name(pending)}>" in text


def test_the_neutral_page_shows_the_neutral_disc_in_the_centre():
    pos, _ = by_title("inphexion", "The neutral disc")
    assert pos.piece_at(pos.grid.parse("d4")) == "neutral"


@pytest.mark.parametrize("game", ["inphexion", "hex", "blindhex"])
def test_the_last_page_shows_a_win_by_connection_and_lists_the_variants_one_line_each(game):
    pos, text = by_title(game, "A win")
    assert pos.outcome is not None and pos.outcome.reason is Reason.CONNECTION
    assert text.splitlines()[-1] == tutorial.VARIANTS[game]


@pytest.mark.parametrize("game", ["inphexion", "hex", "blindhex"])
def test_coordinates_are_explained_once_on_the_first_page_with_an_empty_board(game):
    texts = [tutorial.page_text(game, i) for i in range(len(tutorial.pages(game)))]
    assert sum("top-left corner" in t for t in texts) == 1 and "top-left corner" in texts[0]
    assert tutorial.page_position(game, 0).actions == []


def test_the_blind_hex_reveal_page_shows_both_pairs_of_cards():
    pos, _ = by_title("blindhex", "A reveal")
    assert pos.revealed() == {"x": (1, 4), "o": (2, 3)} and pos.phase == "write"


def test_the_blind_hex_common_number_page_skips_the_number_both_chose():
    pos, text = by_title("blindhex", "A common number")
    assert [n for _, n in pos.pending_writes()] == [2, 2, 3, 3] and "skipped" in text


def test_the_hex_swap_page_shows_the_players_exchanged():
    pos, _ = by_title("hex", "The swap")
    assert pos.swapped and pos.actions == ["c3", "swap"]
