"""The pseudo-locale over what the rules and the records say: a refused move's reason, the Play panel's
steps, ``/record``, ``/replay`` and Blind Hex's reveal leave no English in any reply.

Each flow is played through the fake Discord with ``HEXCORD_PSEUDO_LOCALE`` set, then every message the
bot left is read as :mod:`tests.bot.test_pseudo_locale` reads them (menus' placeholders and options too).
"""

from __future__ import annotations

from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import Harness
from tests.bot.taps import Tapper
from tests.bot.test_pseudo_locale import _UNIVERSAL, _WORDS, pseudo, words_of  # noqa: F401  (pseudo: a fixture)
from tests.fake_discord import FakeMessage

NAMES = ("alice", "bob")


def all_words(message: FakeMessage) -> list[str]:
    """What a reader sees of a message, its menus' placeholders and options included."""
    out = words_of(message)
    for c in message.component_list:
        out.append(c.raw.get("placeholder") or "")
        out += [o.get("label", "") for o in c.raw.get("options") or []]
    return [w for w in out if w]


def english_left(text: str) -> list[str]:
    """Runs of two or more plain English words anywhere, inside ``⟦ ⟧`` too: a fact put into a message as
    English words (the rules' reason as a plain string) is inside its message's brackets, and its letters
    are not transformed (names, notation, code, mentions and the games' titles removed first).

    >>> english_left("⟦Ŀéĝàŀ {x}: c3 already holds a stone⟧ `/move c4`")
    ['already holds']
    """
    text = _UNIVERSAL.sub(" ", text)
    for name in NAMES:
        text = text.replace(name, " ")
    return _WORDS.findall(text.replace("⟦", " ").replace("⟧", " "))


def english_in(messages: list[FakeMessage]) -> list[tuple[str, list[str]]]:
    """(text, English runs) of every text of ``messages`` that still has English in it."""
    found = [(text[:80], english_left(text)) for m in messages for text in all_words(m)]
    return [x for x in found if x[1]]


def bots_messages(harness: Harness) -> list[FakeMessage]:
    w = harness.world
    return [m for m in harness.fake.message_index.values() if m.author.id not in (w.alice.id, w.bob.id)]


async def test_refused_moves_the_panel_and_the_records_leave_no_english(harness: Harness, pseudo: None) -> None:
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="none")
        await harness.move(alice, "c3")
        taken = await harness.move(bob, "c3")  # the rules refuse: a stone is there
        nonsense = await harness.move(bob, "zz")  # not notation: the reason and the legal moves
        panel = await Tapper(harness.fake, harness.channel).open_panel(bob)
        await harness.move(bob, "b2")
        record = await harness.slash(alice, "record", game=1)
        replay = await harness.slash(alice, "replay", game=1)
        first = next(c.custom_id for c in replay.components if c.custom_id and c.custom_id.endswith(":first"))
        await harness.fake.click(alice, replay, first)  # the start: the caption is edited in place
    assert taken.ephemeral and taken.content.startswith("⟦") and "c3" in taken.content
    assert nonsense.ephemeral and "zz" in nonsense.content
    assert panel.ephemeral and panel.components and record.embeds and replay.attachments
    assert replay.message is not None and replay.message.content != replay.content  # stepped to the start
    assert english_in(bots_messages(harness)) == []


async def test_a_blind_hex_reveal_leaves_no_english(harness: Harness, pseudo: None) -> None:
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.start_game(alice, bob, "blindhex", seat="first")
        g = await harness.bot.service.game_in(harness.channel.id)
        assert g is not None
        users = {c: g.user_of(c) for c in g.position.colours}
        member = {alice.id: alice, bob.id: bob}
        pos = g.position.copy()
        loser = pos.to_move[0]
        aside = pos.legal_actions(loser)[0]
        await harness.move(member[users[loser]], aside)
        pos.play(aside)
        refused = await harness.move(member[users[loser]], aside)  # cards are set aside only at the start
        for colour in ("x", "o"):
            choice = pos.legal_actions(colour)[0]
            await harness.move(member[users[colour]], choice.split(":")[1])
            pos.play(choice)
        await harness.fake.settle()
    assert refused.ephemeral and refused.content.startswith("⟦")
    revealed = [m for m in bots_messages(harness) if m.files and "⟦" in (m.content or "")]
    assert revealed  # the reveal's board and caption were posted
    assert english_in(bots_messages(harness)) == []
