"""Playing end to end: whole games of each game, relocation, swap, secrecy, refusals, restarts."""

from __future__ import annotations

import random

import engine
from engine import Position
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness, mentions, png_of


def script(game: str, seed: int, first: str | None = None, size: int | None = None) -> list[str]:
    """The actions of a complete seeded random game."""
    log: list[str] = []
    engine.new_game(game, size, (), first).random_playout(random.Random(seed), log)
    return log


async def play_all(h: Harness, actions: list[str], seats: dict[int, object], position: Position) -> list:
    """Play ``actions`` through ``/move`` as whoever's turn it is; return every reply."""
    replies = []
    for action in actions:
        colour = position.to_move[0]
        if ":" in action:  # Blind Hex choice: the player types only the cards
            colour, action_text = action.split(":")
        else:
            action_text = action
        user = seats[position.seat_of_colour(colour)]
        r = await h.move(user, action_text)
        assert not r.ephemeral or ":" in action, f"{action}: {r.content}"
        replies.append(r)
        position.play(action)
    return replies


async def current(h: Harness):
    """The bot's view of the game in the main channel."""
    return await h.bot.service.game_in(h.channel.id)


async def test_a_whole_inphexion_game_posts_a_board_every_move_and_updates_the_leaderboard(harness):
    w = harness.world
    actions = script("inphexion", seed=3)
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        replies = await play_all(harness, actions, {0: w.alice, 1: w.bob}, engine.new_game("inphexion"))
        board = await harness.slash(w.carol, "leaderboard", game="inphexion")
    assert all(png_of(r).startswith(b"\x89PNG") for r in replies)
    assert "🏆" in replies[-1].embed["description"]
    text = board.embed["description"]
    assert "alice" in text and "bob" in text


def relocation_script(pending: int) -> tuple[list[str], str, list[str]]:
    """A seeded game prefix, the move that surrounds ``pending`` discs, and their relocations."""
    for seed in range(2000):
        log = script("inphexion", seed)
        pos = engine.new_game("inphexion")
        for i, action in enumerate(log):
            pos.play(action)
            if pos.outcome is None and pos.phase == "relocate" and len(pos.pending_relocations()) == pending:
                return log[:i], action, log[i + 1 : i + 1 + pending]
    raise AssertionError("no such game found")


async def test_a_relocation_turn_can_be_played_in_two_moves(harness):
    w = harness.world
    prefix, surround, relocations = relocation_script(1)
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        pos = engine.new_game("inphexion")
        await play_all(harness, prefix, {0: w.alice, 1: w.bob}, pos)
        mover = w.alice if pos.to_move == ["white"] else w.bob
        first = await harness.move(mover, surround)
        second = await harness.move(mover, relocations[0])
        g = await current(harness)
    assert "relocate" in first.embed["description"].lower()
    assert mover.id not in mentions(first.content)  # who just acted is never pinged
    assert not second.ephemeral and "relocated" in second.embed["description"]
    assert g.position.actions == prefix + [surround, relocations[0]]


async def test_a_relocation_turn_can_be_played_in_one_line(harness):
    w = harness.world
    prefix, surround, relocations = relocation_script(1)
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        pos = engine.new_game("inphexion")
        await play_all(harness, prefix, {0: w.alice, 1: w.bob}, pos)
        mover = w.alice if pos.to_move == ["white"] else w.bob
        target = relocations[0].split(">")[1]
        r = await harness.move(mover, f"{surround} {target}")
        g = await current(harness)
    assert not r.ephemeral and "relocated" in r.embed["description"]
    assert g.position.actions == prefix + [surround, relocations[0]]
    assert g.position.phase != "relocate"


async def test_hex_swap_hands_the_first_stone_over_and_keeps_the_turn_order_right(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        swapped = await harness.move(w.bob, "swap")
        nxt = await harness.move(w.alice, "b2")
        g = await current(harness)
    assert "swapped" in swapped.embed["description"]
    assert w.alice.id in mentions(swapped.content)  # Alice (now White) moves next
    assert not nxt.ephemeral
    assert g.colour_of(w.bob.id) == "black"


async def test_a_whole_blind_hex_game_never_shows_a_choice_before_both_chose(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "blindhex", seat="first")
        g = await current(harness)
        pos = engine.new_game("blindhex", first=g.position.options.first)
        seats = {0: w.alice, 1: w.bob}
        actions = script("blindhex", seed=5, first=g.position.options.first)
        for action in actions:
            if ":" in action and len(pos.to_move) == 2:
                # A first choice of a round: nothing public may show it until the other chose.
                colour, cards = action.split(":")
                seen = len(harness.fake.messages(harness.channel))
                last = max((m.id for m in harness.fake.messages(harness.channel)), default=0)
                r = await harness.move(seats[pos.seat_of_colour(colour)], cards)
                assert r.ephemeral and cards in r.content
                await harness.fake.wait_for(lambda m: m.id > last and not m.ephemeral and "has chosen" in m.content)
                public = harness.fake.messages(harness.channel)[seen:]
                assert public and all(cards not in (m.content + str(m.embeds)) for m in public), [(m.id, m.content, m.flags) for m in harness.fake.messages(harness.channel)[-3:]] + [seen, last]
                pos.play(action)
            else:
                await play_all(harness, [action], seats, pos)
        final = await current(harness)
    assert final is None  # the game ended
    assert pos.outcome is not None


async def test_autocomplete_offers_the_callers_legal_moves_matching_what_they_typed(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        mine = await harness.fake.autocomplete(w.alice, harness.channel, "move", focused="action", action="c")
        empty = await harness.fake.autocomplete(w.alice, harness.channel, "move", focused="action", action="")
        theirs = await harness.fake.autocomplete(w.bob, harness.channel, "move", focused="action", action="c")
    assert mine.values == ["c1", "c2", "c3", "c4", "c5"]
    assert len(empty) == 25
    assert theirs == []


async def test_moving_out_of_turn_is_refused_privately_and_changes_nothing(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        r = await harness.move(w.bob, "c3")
        g = await current(harness)
    assert r.ephemeral and "not your turn" in r.content
    assert g.position.actions == []


async def test_a_non_player_cannot_move(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5)
        r = await harness.move(w.carol, "c3")
    assert r.ephemeral and "not playing" in r.content


async def test_an_illegal_move_is_refused_with_the_reason_and_examples(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        r = await harness.move(w.bob, "c3")
        g = await current(harness)
    assert r.ephemeral and "c3" in r.content and "Legal now" in r.content
    assert g.position.actions == ["c3"]


async def test_text_that_is_not_notation_is_refused_with_examples(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "inphexion", seat="first")
        r = await harness.move(w.alice, "hello there")
    assert r.ephemeral and "Legal now" in r.content


async def test_a_move_without_a_game_says_how_to_start_one(harness):
    w = harness.world
    async with harness.running():
        r = await harness.move(w.alice, "c3")
    assert r.ephemeral and "/challenge" in r.content


async def test_board_reposts_the_position_and_pings_nobody(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        r = await harness.slash(w.carol, "board")
    assert not r.ephemeral and png_of(r)
    assert mentions(r.content) == []


async def test_resigning_ends_the_game_for_the_opponent(harness):
    w = harness.world
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        await harness.move(w.bob, "b2")
        r = await harness.slash(w.alice, "resign")
        history = await harness.slash(w.carol, "history")
    assert "resigned" in r.embed["description"] and "bob" in r.embed["description"]
    assert "bob wins: alice resigned" in history.embed["description"]


async def test_the_game_and_an_open_challenge_survive_a_restart(harness):
    w = harness.world
    lobby = harness.fake.add_text_channel(w.guild, "lobby")
    async with harness.running():
        await harness.start_game(w.alice, w.bob, "hex", size=5, seat="first")
        await harness.move(w.alice, "c3")
        challenge = await harness.challenge(w.carol, w.alice, "inphexion", seat="first", channel=lobby)
    async with harness.running():  # a new client on the same database file
        moved = await harness.move(w.bob, "b2")
        await harness.fake.click(w.alice, challenge.message.id, challenge.custom_ids[0])
        board = await harness.fake.wait_for(lambda m: m.channel is lobby and bool(m.files))
    assert not moved.ephemeral and png_of(moved)
    assert "accepted" in challenge.message.content
    assert w.carol.id in mentions(board.content)


async def test_commands_are_synced_only_when_they_change(harness):
    async with harness.running():
        pass
    async with harness.running():
        pass
    assert harness.fake.sync_count() == 1


async def test_commands_are_synced_again_when_a_definition_changes(harness, monkeypatch):
    from bot.app import HexBot

    async with harness.running():
        pass
    sync = HexBot.sync_commands_if_changed

    async def with_a_new_command(self: HexBot) -> bool:
        # The next version of the bot has one more command (the cogs are re-imported on
        # every start, so the change is made to the tree itself).
        @self.tree.command(name="ping", description="Is the bot there?")
        async def ping(interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        return await sync(self)

    monkeypatch.setattr(HexBot, "sync_commands_if_changed", with_a_new_command)
    async with harness.running():
        pass
    assert harness.fake.sync_count() == 2
    assert "ping" in harness.fake.synced_commands()


async def test_a_dev_guild_gets_the_commands_synced_to_it(harness):
    guild = harness.world.guild
    async with harness.running(dev_guild_id=guild.id):
        r = await harness.slash(harness.world.alice, "rules", game="hex")
    assert harness.fake.sync_count(guild) == 1 and harness.fake.sync_count(None) == 0
    assert "move" in harness.fake.synced_commands(guild)
    assert r.ephemeral and png_of(r)  # the tutorial answers privately
