"""Private stays private: a game in a channel a member cannot see is not listed, read or replayed
for them (issue 45); they still see their own games, and whoever can see the channel sees it.

The server has #staff, hidden from @everyone and shown to the "staff" role (alice, bob and
dave have it; carol has not); Discord's rules decide, as the fake computes them from roles and
overwrites, and the bot works them out for the member who asks.
"""

from __future__ import annotations

import json

import pytest

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness

NO_SUCH_GAME = "There is no game #{id} in this server"


@pytest.fixture
async def staff(harness: Harness):
    """#staff: View Channel denied to @everyone, allowed to the staff role (alice, bob, dave) and the bot."""
    fake, w = harness.fake, harness.world
    channel = fake.add_text_channel(w.guild, "staff")
    role = fake.add_role(w.guild, "staff")
    for member in (w.alice, w.bob):
        member.roles.append(role)
    dave = fake.add_member(w.guild, "dave", roles=[role])
    await fake.set_permissions(channel, w.guild, deny=["view_channel"])
    await fake.set_permissions(channel, role, allow=["view_channel"])
    await fake.set_permissions(channel, w.bot, allow=["view_channel"])
    fake.world.dave = dave
    return channel, role


async def play_hidden_games(harness: Harness, channel) -> tuple[int, int]:
    """A finished game (bob resigned) in #staff itself and one in progress in a thread of #staff: their ids."""
    w, fake = harness.world, harness.fake
    r = await harness.challenge(w.alice, w.bob, "hex", size=5, channel=channel)
    await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
    await fake.wait_for(lambda m: m.channel is channel and "begins" in str(m.embeds))
    finished = (await harness.bot.service.game_in(channel.id)).row.id
    assert not (await harness.slash(w.bob, "resign", channel=channel)).ephemeral
    r = await harness.challenge(w.alice, w.bob, "hex", size=5, channel=channel, thread=True)
    await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
    await fake.wait_for(lambda m: m.channel.parent is channel and "begins" in str(m.embeds))
    active = [g for g in await harness.bot.service.active_games(w.guild.id)]
    assert len(active) == 1 and active[0].parent_id == channel.id
    return finished, active[0].id


def listed(result, game_id: int) -> bool:
    return f"#{game_id} " in json.dumps(result.embeds) + (result.content or "")


async def test_games_history_and_stats_list_a_hidden_channels_games_only_to_who_can_see_it(harness, staff):
    channel, _ = staff
    w = harness.world
    async with harness.running():
        finished, active = await play_hidden_games(harness, channel)
        carol = [await harness.slash(w.carol, name, **options)
                 for name, options in (("games", {}), ("history", {}), ("history", {"player": w.alice}),
                                       ("stats", {"player": w.alice}))]
        dave = [await harness.slash(w.dave, name, **options)
                for name, options in (("games", {}), ("history", {}), ("stats", {"player": w.alice}))]
        alice = await harness.slash(w.alice, "history")
    assert not any(listed(r, game) for r in carol for game in (finished, active)), [r.embeds for r in carol]
    assert listed(dave[0], active) and listed(dave[1], finished) and listed(dave[2], finished)
    assert listed(alice, finished)


async def test_record_and_replay_of_a_hidden_game_answer_as_if_it_did_not_exist(harness, staff):
    channel, _ = staff
    w = harness.world
    async with harness.running():
        finished, active = await play_hidden_games(harness, channel)
        for name in ("record", "replay"):
            for game in (finished, active):
                hidden = await harness.slash(w.carol, name, game=game)
                assert hidden.ephemeral and NO_SUCH_GAME.format(id=game) in hidden.content, hidden.content
                assert not hidden.attachments
                shown = await harness.slash(w.dave, name, game=game)
                assert not shown.ephemeral and shown.attachments, shown.content
        missing = await harness.slash(w.carol, "record", game=finished + 100)
    assert missing.content.replace(str(finished + 100), "N") == hidden.content.replace(str(active), "N")


async def test_a_player_sees_their_own_game_after_losing_sight_of_its_channel(harness, staff):
    channel, role = staff
    w = harness.world
    async with harness.running():
        finished, active = await play_hidden_games(harness, channel)
        w.alice.roles.remove(role)  # alice loses the role: #staff is hidden from her now
        r = await harness.slash(w.alice, "games")
        assert listed(r, active), r.embeds
        assert not (await harness.slash(w.alice, "record", game=finished)).ephemeral


async def test_the_game_over_buttons_refuse_a_member_who_cannot_see_the_game(harness, staff):
    """A modified client's click (Discord shows #staff's messages to nobody else)."""
    channel, _ = staff
    w, fake = harness.world, harness.fake
    async with harness.running():
        finished, _ = await play_hidden_games(harness, channel)
        over = next(m for m in reversed(fake.messages(channel))
                    if any(c.endswith(":replay") for c in m.custom_ids))
        for act in (":replay", ":moves"):
            clicked = await fake.click(w.carol, over, next(c for c in over.custom_ids if c.endswith(act)))
            assert clicked.ephemeral and NO_SUCH_GAME.format(id=finished) in clicked.content, clicked.content
            assert not clicked.attachments
