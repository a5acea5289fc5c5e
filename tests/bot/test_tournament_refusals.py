"""Bad input to tournaments: each gets a short private answer and changes nothing."""

from __future__ import annotations

import re

import pytest

from bot.cogs.tournaments import MESSAGE_LIMIT, chunks
from bot.i18n import render
from bot.ui import tournament_texts as say
from tests.bot.tournament_driver import announced, members

HEX3 = dict(game="hex", size=3, swap=False, clock="1d")


@pytest.fixture
def database_url(tmp_path) -> str:
    """SQLite only: refusals happen before the store is asked to change anything."""
    return f"sqlite:///{tmp_path / 'bot.sqlite3'}"


def button(r, act: str) -> str:
    return next(c for c in r.message.custom_ids if c.endswith(f":{act}"))


async def entrants(harness) -> list[int]:
    return [e.user_id for e in await harness.bot.service.store.entrants(1)]


async def test_joining_twice_or_a_full_tournament_is_refused_privately_and_the_sign_up_stays(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.alice, "tournament create", format="knockout", max_players=2, **HEX3)
        await harness.fake.click(w.alice, r, button(r, "join"))
        again = await harness.fake.click(w.alice, r, button(r, "join"))
        by_command = await harness.slash(w.alice, "tournament join")
        await harness.fake.click(w.bob, r, button(r, "join"))
        before = r.message.content
        full = await harness.fake.click(w.carol, r, button(r, "join"))
        assert await entrants(harness) == [w.alice.id, w.bob.id]
    assert again.ephemeral and "already joined" in again.content
    assert by_command.ephemeral and "already joined" in by_command.content
    assert full.ephemeral and "full" in full.content
    assert r.message.content == before


@pytest.mark.parametrize(("fmt", "need"), [("swiss", 2), ("knockout", 2), ("round-robin", 3)])
async def test_starting_with_too_few_players_is_refused_privately(harness, fmt, need):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.alice, "tournament create", format=fmt, **HEX3)
        for p in members(harness, need - 1):
            await harness.fake.click(p, r, button(r, "join"))
        refused = await harness.fake.click(w.alice, r, button(r, "start"))
        row = await harness.bot.service.store.get_tournament(1)
    assert refused.ephemeral and f"at least {need} players" in refused.content
    assert row.status == "open"


async def test_only_the_organiser_may_start_or_cancel_and_leaving_after_the_start_points_at_withdraw(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        for p in (w.alice, w.bob):
            await harness.fake.click(p, r, button(r, "join"))
        start = await harness.fake.click(w.bob, r, button(r, "start"))
        cancel = await harness.slash(w.bob, "tournament cancel")
        assert (await harness.bot.service.store.get_tournament(1)).status == "open"
        await harness.fake.click(w.alice, r, button(r, "start"))
        await announced(harness, 1, 1)
        leave = await harness.slash(w.bob, "tournament leave")
        late = await harness.slash(w.carol, "tournament join")
        assert await entrants(harness) == [w.alice.id, w.bob.id]
    assert start.ephemeral and "Only the organiser" in start.content
    assert cancel.ephemeral and "Only the organiser" in cancel.content
    assert leave.ephemeral and "`/tournament withdraw`" in leave.content
    assert late.ephemeral and "not open for sign-up" in late.content


async def test_a_move_in_someone_elses_tournament_game_and_an_abort_of_ones_own_are_refused(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        for p in (w.alice, w.bob):
            await harness.fake.click(p, r, button(r, "join"))
        await harness.fake.click(w.alice, r, button(r, "start"))
        ((_, first, _, thread_id),) = (await announced(harness, 1, 1)).games
        thread = harness.fake.channels[thread_id]
        game = await harness.bot.service.store.active_game_in(thread_id)
        moved = await harness.move(w.carol, "a1", channel=thread)
        player = w.alice if first == w.alice.id else w.bob
        aborted = await harness.slash(player, "abort", channel=thread)
        assert await harness.bot.service.store.actions(game.id) == []
        assert (await harness.bot.service.store.get_game(game.id)).status == "active"
    assert moved.ephemeral and "not playing in this game" in moved.content
    assert aborted.ephemeral and "can't be aborted" in aborted.content


async def test_a_server_may_keep_tournament_creation_to_members_with_manage_server(harness):
    w = harness.world
    async with harness.running():
        s = await harness.slash(w.admin, "settings", tournaments_staff_only=True)
        refused = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        allowed = await harness.slash(w.admin, "tournament create", format="swiss", **HEX3)
        row = await harness.bot.service.store.newest_tournament_in(harness.channel.id, ["open"])
    assert "Manage Server" in s.content
    assert refused.ephemeral and "Manage Server" in refused.content
    assert not allowed.ephemeral and row is not None and row.organiser_id == w.admin.id


def test_a_200_player_round_and_a_129_player_knockouts_byes_are_announced_within_discords_limit():
    big = 1_400_000_000_000_000_000
    lines = [say.round_head(7, 3, 9)] + [say.pairing_line(k, big + 2 * k, big + 2 * k + 1, big + 10_000 + k)
                                         for k in range(1, 101)]
    # and a knockout's first round of 129 players: one game, 127 byes
    lines += say.bye_lines([big + 20_000 + k for k in range(127)])
    messages = chunks(lines)
    assert all(len(m) <= MESSAGE_LIMIT for m in messages)
    assert "\n".join(messages).splitlines() == lines
    # each message but the last is full: the next line would not have fitted
    following = [m.splitlines()[0] for m in messages[1:]]
    assert all(len(m) + 1 + len(nxt) > MESSAGE_LIMIT for m, nxt in zip(messages, following))


async def test_a_round_robin_too_small_to_ever_start_is_refused_when_created(harness):
    w = harness.world
    async with harness.running():
        r = await harness.slash(w.alice, "tournament create", format="round-robin", max_players=2, **HEX3)
        row = await harness.bot.service.store.newest_tournament_in(harness.channel.id, ["open"])
    assert r.ephemeral and "`max_players` is too small" in r.content and "at least 3" in r.content
    assert row is None and harness.fake.messages(harness.channel) == []


async def test_standings_before_the_start_are_refused_privately(harness):
    w = harness.world
    async with harness.running():
        await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        r = await harness.slash(w.bob, "tournament standings")
    assert r.ephemeral and "has not started yet" in r.content


@pytest.mark.parametrize("language", ["en", "ja", "fr"])
def test_a_sign_up_of_256_players_fits_one_message_its_list_ending_in_how_many_more(language):
    big = 1_400_000_000_000_000_000
    entrants = [big + k for k in range(256)]
    head = say.describe(3, "Hex", 11, ["swap"], "swiss", 9, 1, "1d", True)
    text = render(say.signup(head, big, entrants, 256, "open"), language)
    listed = len(re.findall(r"<@\d+>", text.splitlines()[2]))
    assert len(text) <= MESSAGE_LIMIT and text.splitlines()[-1] == render(say.signup(head, big, [], 256, "open"),
                                                                         language).splitlines()[-1]
    assert 40 <= listed < 256 and render(say.more(256 - listed), language) in text
