"""The standings as text and as a picture in the reader's language, and a table longer than one message."""

from __future__ import annotations

import random

import pytest

from bot.cogs.tournaments import MESSAGE_LIMIT, discord_length, standings_table, standings_text, width
from bot.i18n import render
from bot.service.tournaments import State
from bot.store.rows import EntrantRow, TournamentRow
from bot.tournaments import Pairing, Result, Round, Settings, start
from bot.ui import tournament_texts as say
from bot.ui.pictures import sayer
from render import display
from render.fonts import MEDIUM, text
from render.standings import layout
from render.words import say as say_word
from render.words import saying

#: names as long as Discord allows (32), in several scripts, with an emoji (two UTF-16 units)
NAMES = ["Alexandria Featherstonehaugh-Wyn", "李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍", "🐉 dragon " * 3,
         "María José Carreño Quiñones 2000", "Ярослав Олександрович Тимошенко!"]


def swiss(players: int, rounds: int) -> State:
    """A Swiss of ``players`` after ``rounds`` rounds (paired here by a simple rotation, so that the test
    does not wait for the matching; results seeded random), as the service holds it."""
    rng = random.Random(players)
    ids = [10**17 + k for k in range(players)]
    t = start(Settings("swiss"), [(str(u), NAMES[k % len(NAMES)], None) for k, u in enumerate(ids)])
    for number in range(1, rounds + 1):
        order = [str(u) for u in ids[:1] + ids[1:][number - 1:] + ids[1:][:number - 1]]
        games = tuple(Pairing(order[k], order[-1 - k]) for k in range(players // 2))
        t = t.with_round(Round(number, games, ()))
        for g in games:
            t = t.with_result(Result(number, g, rng.choice(g.players)))
    row = TournamentRow(id=7, guild_id=1, channel_id=2, organiser_id=ids[0], game="hex", size=11, variants=(),
                        format="swiss", rounds=None, cycles=1, clock="1d", max_players=256, rated=True,
                        status="finished", message_id=None, created_at=0.0)
    entrants = tuple(EntrantRow(7, u, k, NAMES[k % len(NAMES)], None, None, None) for k, u in enumerate(ids))
    return State(row, entrants, (), (), t)


@pytest.fixture(scope="module")
def big() -> State:
    return swiss(200, 2)


def code_lines(text: str) -> list[str]:
    """The lines inside the standings' code block (the head first)."""
    return text.split("```\n")[1].splitlines()


@pytest.mark.parametrize("language", ["en", "ja", "fr"])
def test_a_200_player_table_with_its_winner_fits_one_message_and_counts_the_rows_left_out(big, language):
    tail = render(say.winner_line(7, big.entrants[0].user_id), language)
    text = standings_text(big, True, language, tail)
    lines = code_lines(text)
    shown = lines[1:-1]
    left_out = render(say.more(200 - len(shown)), language)
    assert discord_length(text) <= MESSAGE_LIMIT
    assert 20 <= len(shown) < 200 and lines[-1] == left_out
    assert text.endswith(tail) and text.count("```") == 2


def test_the_rows_shown_are_the_top_of_the_table_in_rank_order(big):
    shown = code_lines(standings_text(big, False, "en"))[1:-1]
    # rank first; points, the two tie-breaks and games last
    seen = [(int(line[:3]), int(line.split()[-4])) for line in shown]
    assert seen == [(s.rank, s.points) for s in big.table()][: len(shown)]


def test_a_table_that_fits_is_shown_whole_without_a_count():
    st = swiss(9, 2)
    text = standings_text(st, True, "en")
    assert len(code_lines(text)) == 1 + 9 and "more" not in text


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_the_text_columns_are_labelled_in_the_readers_language_and_line_up(big, language):
    text = standings_text(big, False, language)
    head, *rows = code_lines(text)[:-1]
    assert render(say.GAMES_HEAD, language) in head and render(say.TABLE_HEAD[2], language) in head
    assert render(say.COLUMN_NAMES["BH"], language) in text  # the legend
    assert render(say.standings_head(7, False), language) in text
    # wide (CJK) characters take two columns: every row is as wide as the head
    assert {width(r) for r in rows} == {width(head)}


def test_the_picture_in_japanese_has_its_title_and_labels_in_japanese_and_shows_the_top_rows(big):
    with saying(sayer("ja")):
        lay = layout(standings_table(big, True, "ja"))
    assert [c.label for c in lay.columns] == ["勝点", "BH", "SB", "局"]
    assert lay.more == 200 - len(lay.lines) > 0
    assert [line.row.rank for line in lay.lines] == list(range(1, len(lay.lines) + 1))


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_the_japanese_labels_and_title_are_legible_at_display_size(big, where):
    table = standings_table(big, True, "ja")
    with saying(sayer("ja")):
        lay = layout(table)
        words = [c.label for c in lay.columns] + [say_word("Player"), say_word("#")]
    k = {"desktop": display.desktop_scale, "phone": display.phone_scale}[where](lay.width, lay.height)
    for label in words:
        _, top, _, bottom = text(label.upper(), lay.label_size, MEDIUM).bbox()
        assert (bottom - top) * k >= display.DIGIT, label
    _, top, _, bottom = text(table.title or "", lay.name_size, MEDIUM).bbox()
    assert (bottom - top) * k >= display.NAME
