"""The conversation around a game, end to end: captions, pings, the game-over message,
its buttons, the move list and the files a game can be taken away in."""

from __future__ import annotations

from render.games.common import last_text
from tests.bot.harness import Harness, mentions


async def _names_for_picture(h: Harness) -> tuple[object, dict[str, str]]:
    from bot import texts

    g = await h.bot.service.game_in(h.channel.id)
    names = await h.bot.service.names(g.row.guild_id, g.row.seats)
    return g, texts.colour_names(g, names)


# -- captions -------------------------------------------------------------------------------
async def test_a_hex_swap_is_credited_to_the_player_who_swapped(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        swapped = await harness.move(w.bob, "swap")
        g, picture_names = await _names_for_picture(harness)
    first_line = swapped.embed["description"].splitlines()[0]
    assert first_line.startswith("**bob** (white) swapped colours"), first_line
    assert "now plays black" in first_line
    assert last_text(g.position, picture_names).startswith("Last: bob swap")


async def test_an_inphexion_pie_swap_is_credited_to_the_player_who_swapped(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", pie=True, seat="first")
        await harness.move(w.alice, "d4")
        swapped = await harness.move(w.bob, "swap")
        g, picture_names = await _names_for_picture(harness)
    first_line = swapped.embed["description"].splitlines()[0]
    assert first_line.startswith("**bob** (black) swapped colours"), first_line
    assert "now plays white" in first_line
    assert last_text(g.position, picture_names).startswith("Last: bob swap")


# -- claims ---------------------------------------------------------------------------------
async def test_the_claim_win_button_goes_once_the_win_is_claimed(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        button = expiry.custom_ids[0]
        await harness.fake.click(w.alice, expiry, button)
    assert expiry.custom_ids == []
    assert "claimed the win" in expiry.content


async def test_the_claim_win_button_goes_when_the_win_was_claimed_with_the_command(harness, clock):
    w = harness.world
    async with harness.running():
        board = await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first", clock="1h")
        await harness.move(w.alice, "c3")
        clock.advance(3600 + 1)
        expiry = await harness.fake.wait_for(lambda m: m.id > board.id and "Time is up" in m.content)
        await harness.slash(w.alice, "claim")
        await harness.fake.click(w.bob, expiry, expiry.custom_ids[0])
    assert expiry.custom_ids == []
    assert "is over" in expiry.content
