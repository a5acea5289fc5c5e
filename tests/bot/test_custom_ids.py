"""One custom-id scheme (``hx:<kind>:…``) for every persistent component, and the ids of
messages posted before it (``hx:b:…``, ``hx:p:…``, ``hx:s:…``, ``hexcord:…``) still working."""

from __future__ import annotations

import re

import pytest

import engine
from bot.ui.components import panel_steps
from bot.ui.components.board import BoardButton
from bot.ui.components.challenge import ChallengeButton
from bot.ui.components.claim import ClaimButton
from bot.ui.components.gameover import GameOverButton, RematchButton
from bot.ui.components.ids import MAX_LENGTH, CustomIdError, custom_id
from bot.ui.components.pages import PageButton
from bot.ui.components.panel import PanelButton, PanelSelect
from bot.ui.components.takeback import TakebackButton
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import png_of
from tests.bot.taps import Tapper, play_id
from tests.fake_discord import FakeMessage
from tests.fake_discord.models import walk_components

#: how each kind's ids looked before the scheme was unified
_OLD_HEADS = (("hx:board:", "hx:b:"), ("hx:panel:", "hx:p:"), ("hx:menu:", "hx:s:"), ("hx:page:", "hexcord:"),
              ("hx:challenge:", "hexcord:challenge:"), ("hx:takeback:", "hexcord:takeback:"),
              ("hx:claim:", "hexcord:claim:"), ("hx:over:", "hexcord:over:"))


def old_id(new: str) -> str:
    """The id a component had on a message posted before the scheme was unified."""
    for head, old in _OLD_HEADS:
        if new.startswith(head):
            return old + new[len(head):]
    raise AssertionError(f"not an id of the scheme: {new}")


def with_old_ids(message: FakeMessage) -> FakeMessage:
    """Make a stored message carry its components' old ids, as one posted before the change does."""
    for comp in walk_components(message.components):
        if comp.get("custom_id"):
            comp["custom_id"] = old_id(comp["custom_id"])
    return message


def every_component() -> list:
    """One component of each persistent kind, with real fields."""
    menu = panel_steps.Menu("Choose a cell", ("r4",), (("e5", "c40"), ("f5", "c41")))
    return [
        ChallengeButton(12, "accept"), TakebackButton(7, "decline"), ClaimButton(9),
        GameOverButton(3, "replay"), RematchButton(3), PageButton("rules", "inphexion", 4, "next"),
        PageButton("moves", 3, 0, "first"), BoardButton(5, 17, "resign!"),
        PanelButton(5, "17-ab12cd", panel_steps.Button("◀ Other rows", ("r4",))),
        PanelSelect(5, "17-ab12cd", menu),
    ]


def test_every_component_builds_its_id_in_the_one_scheme():
    ids = [item.custom_id for item in every_component()]
    assert all(re.fullmatch(r"hx:[a-z]+:[^:]+(:[^:]*)*", i) for i in ids), ids
    assert all(len(i) <= MAX_LENGTH for i in ids)


@pytest.mark.parametrize("item", every_component(), ids=lambda item: type(item).__name__)
async def test_an_old_id_is_read_as_the_same_component(item):
    old = old_id(item.custom_id)
    match = type(item).__discord_ui_compiled_template__.fullmatch(old)
    assert match is not None, old
    again = await type(item).from_custom_id(None, item.item, match)
    assert again.custom_id == item.custom_id


def test_an_id_longer_than_discord_allows_is_refused_when_built():
    with pytest.raises(CustomIdError):
        custom_id("panel", 1, "2-ab", "." * 100)


def test_a_field_with_the_separator_is_refused_when_built():
    with pytest.raises(CustomIdError):
        custom_id("page", "rules", "a:b", 0, "next")


def test_the_longest_panel_id_of_the_largest_board_fits_discord():
    # longer than any path a panel builds (a row, a disc and its target), on the largest board of any game
    n = max(size for game in engine.GAME_NAMES for size in engine.position_class(game).sizes)
    last = n * n - 1
    button = panel_steps.Button("→", ("p", f"r{n - 1}", f"m{last}", f"t{last}"))
    assert len(PanelButton(2**63 - 1, f"{2**31}-{'z' * 16}", button).custom_id) <= MAX_LENGTH


async def test_a_challenge_posted_with_old_ids_is_accepted_by_its_button(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5, seat="first")
        message = with_old_ids(r.message)
        accept = next(c for c in message.custom_ids if c.endswith(":accept"))
        before = len(harness.fake.messages(harness.channel))
        await harness.fake.click(w.bob, message, accept)
        board = await harness.board_after(before)
    assert accept.startswith("hexcord:challenge:")
    assert png_of(board).startswith(b"\x89PNG")
    assert all(c.startswith("hx:board:") for c in board.custom_ids)


async def test_a_board_posted_with_old_ids_opens_a_play_panel_with_new_ids(harness):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        play = play_id(board)
        with_old_ids(board)
        panel = await harness.fake.click(w.alice, board, old_id(play))
    assert panel.ephemeral and panel.custom_ids
    assert all(c.startswith(("hx:menu:", "hx:panel:")) for c in panel.custom_ids)


async def test_a_play_panel_with_old_ids_still_plays(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        tap = Tapper(harness.fake, harness.channel)
        panel = with_old_ids((await tap.open_panel(w.alice)).message)
        assert all(c.startswith(("hx:s:", "hx:p:")) for c in panel.custom_ids)
        count = len(harness.fake.messages(harness.channel))
        assert await tap.tap(w.alice, panel, "c3")
        board = await tap.new_message(count)
        game = await harness.bot.service.game_in(harness.channel.id)
    assert game.position.actions == ["c3"]
    assert png_of(board).startswith(b"\x89PNG")
