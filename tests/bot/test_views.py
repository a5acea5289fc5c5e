"""Persistent buttons: custom ids that name what they act on, and clicks that reach the cog that registered them."""

from __future__ import annotations

from bot.ui.answers import SORRY
from bot.ui.components.board import BoardButton
from bot.ui.components.challenge import ChallengeButton
from bot.ui.components.claim import ClaimButton
from bot.ui.components.gameover import GameOverButton, RematchButton
from bot.ui.components.pages import PageButton
from bot.ui.components.panel import PanelButton, PanelSelect
from bot.ui.components.puzzle import PuzzleButton, PuzzleSelect
from bot.ui.components.review import ReviewButton, ReviewStepButton
from bot.ui.components.takeback import TakebackButton
from bot.ui.components.tournament import TournamentButton
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)


async def test_a_challenge_button_is_rebuilt_from_its_custom_id():
    button = ChallengeButton(42, "withdraw")
    match = ChallengeButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
    assert match is not None
    again = await ChallengeButton.from_custom_id(None, button.item, match)
    assert (again.challenge_id, again.act) == (42, "withdraw")


async def test_takeback_and_claim_buttons_are_rebuilt_from_their_custom_ids():
    tb, claim = TakebackButton(7, "decline"), ClaimButton(9)
    tb_again = await TakebackButton.from_custom_id(
        None, tb.item, TakebackButton.__discord_ui_compiled_template__.fullmatch(tb.custom_id))
    claim_again = await ClaimButton.from_custom_id(
        None, claim.item, ClaimButton.__discord_ui_compiled_template__.fullmatch(claim.custom_id))
    assert (tb_again.takeback_id, tb_again.act, claim_again.game_id) == (7, "decline", 9)


async def test_each_cog_registers_its_own_buttons(harness):
    async with harness.running() as bot:
        registered = set(bot.button_handlers)
        await bot.remove_cog("Lifecycle")
        left = set(bot.button_handlers)
    controls = {BoardButton, PanelButton, PanelSelect}
    mine = {RematchButton, GameOverButton, PageButton}
    others = {ReviewButton, ReviewStepButton, TournamentButton, PuzzleButton, PuzzleSelect}
    assert registered == {ChallengeButton, TakebackButton, ClaimButton} | controls | mine | others
    assert left == {ChallengeButton} | controls | mine | others


async def test_a_click_whose_cog_is_not_loaded_gets_a_private_apology(harness):
    w = harness.world
    async with harness.running() as bot:
        r = await harness.challenge(w.alice, w.bob, "hex", size=5)
        await bot.remove_cog("Challenges")
        answer = await harness.fake.click(w.bob, r, r.custom_ids[0])
    assert answer.ephemeral and answer.content == SORRY
    assert r.message.components  # nothing happened to the challenge


async def test_a_refused_click_is_answered_privately_and_changes_nothing(harness):
    w = harness.world
    async with harness.running():
        r = await harness.challenge(w.alice, w.bob, "hex", size=5)
        answer = await harness.fake.click(w.carol, r, r.custom_ids[1])
    assert answer.ephemeral and "Only the challenged player can decline" in answer.content
    assert r.message.components
