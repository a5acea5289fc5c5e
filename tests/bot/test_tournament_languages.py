"""Tournaments in three languages: public posts in the server's, private answers in the member's."""

from __future__ import annotations

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401
from tests.bot.harness import Harness
from tests.bot.test_languages import japanese_member_in_french_server

HEX3 = dict(game="hex", size=3, swap=False, clock="1d")


def button(message, act: str) -> str:
    return next(c for c in message.custom_ids if c.endswith(f":{act}"))


async def test_a_japanese_organiser_in_a_french_server_gets_a_french_sign_up_and_japanese_answers(
        harness: Harness) -> None:
    japanese_member_in_french_server(harness)
    w = harness.world
    async with harness.running():
        created = await harness.slash(w.alice, "tournament create", format="knockout", **HEX3)
        signup = created.message
        labels = [b.label for b in signup.buttons]
        joined = await harness.slash(w.alice, "tournament join")
        again = await harness.slash(w.alice, "tournament join")
        await harness.fake.click(w.bob, signup, button(signup, "join"))
        await harness.fake.click(w.alice, signup, button(signup, "start"))
        head = "**Tournoi n° 1 — ronde 1 sur 1**"
        announced = await harness.fake.wait_for(
            lambda m: m.channel is harness.channel and (m.content or "").startswith(head), timeout=20)
        standings = await harness.slash(w.bob, "tournament standings")
    assert created.content.startswith("**Tournoi n° 1 : Hex 3×3, élimination directe, 1d par coup, classée**")
    assert labels == ["Rejoindre", "Quitter", "Lancer", "Annuler"]
    assert joined.ephemeral and joined.content == "大会 #1 に参加しました。"
    assert again.ephemeral and again.content == "すでに大会 #1 に参加しています。"
    assert "Les inscriptions sont closes : le tournoi a commencé." in signup.content
    assert "(premier) contre" in announced.content
    assert standings.content.startswith("**Tournoi n° 1 — classement**")
    assert "parties" in standings.content.splitlines()[2] and "Tr = tour atteint" in standings.content
