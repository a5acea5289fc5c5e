"""The limits on tournaments: how many a member may have created that are not over (``open_tournaments``,
a /settings option), and how many one server runs at once."""

from __future__ import annotations

import bot.service.tournaments as tournaments_service
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401
from tests.bot.tournament_driver import members

HEX3 = dict(game="hex", size=3, swap=False, clock="1d")


def button(r, act: str) -> str:
    return next(c for c in r.message.custom_ids if c.endswith(f":{act}"))


async def statuses(harness) -> list[str]:
    store = harness.bot.service.store
    return [t.status for t in await store.tournaments_of(harness.channel.guild.id, ("open", "running", "cancelled",
                                                                                    "finished"))]


async def test_a_member_with_two_tournaments_not_over_is_refused_a_third_privately_and_nothing_is_posted(harness):
    w = harness.world
    async with harness.running():
        first = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        second = await harness.slash(w.alice, "tournament create", format="knockout", **HEX3)
        posted = len(harness.fake.messages(harness.channel))
        refused = await harness.slash(w.alice, "tournament create", format="round-robin", **HEX3)
        after = await statuses(harness)
        others = await harness.slash(w.bob, "tournament create", format="swiss", **HEX3)
    assert not first.ephemeral and not second.ephemeral and not others.ephemeral
    assert refused.ephemeral and "not over" in refused.content and "allows 2" in refused.content
    assert "`/tournament cancel`" in refused.content and str(first.message.id) in refused.content
    assert after == ["open", "open"] and len(harness.fake.messages(harness.channel)) == posted + 1


async def test_a_cancelled_tournament_no_longer_counts_against_its_organiser(harness):
    w = harness.world
    async with harness.running():
        first = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        await harness.fake.click(w.alice, first, button(first, "cancel"))
        again = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
    assert not again.ephemeral, again.content


async def test_an_admin_sets_the_open_tournaments_limit_in_settings_and_it_applies_at_once(harness):
    w = harness.world
    async with harness.running():
        s = await harness.slash(w.admin, "settings", open_tournaments=1)
        await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
        refused = await harness.slash(w.alice, "tournament create", format="swiss", **HEX3)
    assert "tournaments created and not over each: **1**" in s.content
    assert refused.ephemeral and "allows 1" in refused.content


async def test_a_server_running_its_most_tournaments_at_once_is_refused_another_start(harness, monkeypatch):
    monkeypatch.setattr(tournaments_service, "TOURNAMENTS_RUNNING_PER_SERVER", 1)
    w = harness.world
    async with harness.running():
        players = members(harness, 2)
        one = await harness.slash(w.alice, "tournament create", format="knockout", **HEX3)
        two = await harness.slash(w.bob, "tournament create", format="knockout", **HEX3)
        for p in players:
            await harness.fake.click(p, one, button(one, "join"))
            await harness.fake.click(p, two, button(two, "join"))
        await harness.fake.click(w.alice, one, button(one, "start"))
        refused = await harness.fake.click(w.bob, two, button(two, "start"))
        after = await statuses(harness)
    assert refused.ephemeral and "the most it may" in refused.content and "tournament #2" in refused.content
    assert after == ["running", "open"]
