"""The pseudo-locale finds English left in replies: every word the bot writes goes through the catalogs.

With ``HEXCORD_PSEUDO_LOCALE`` set, every catalog message is said with its letters transformed
and wrapped in ``⟦ ⟧``. A representative game is played through the fake Discord (help, a
refusal, a challenge, its board, moves, a takeback, a resignation and the game over) and every
message the bot left — public and private, content, embeds, button labels — is read: what is
outside ``⟦ ⟧`` may only be names, notation, numbers, mentions, code and the games' titles.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n.text import PSEUDO_ENV
from bot.service import GAME_TITLES
from tests.bot.harness import Harness
from tests.fake_discord import FakeMessage

#: a message said in the pseudo-locale (innermost first: messages nest)
_SAID = re.compile(r"⟦[^⟦⟧]*⟧")
#: what is written the same in every language: code, mentions/timestamps, links, the games' titles
_UNIVERSAL = re.compile(r"`[^`]*`|<[^<>\s]*>|https?://\S+|" + "|".join(map(re.escape, GAME_TITLES.values())))
#: two English-looking words in a row
_WORDS = re.compile(r"\b[A-Za-z]{2,}\b[ ,'’-]+\b[A-Za-z]{2,}\b")


def english_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """Runs of two or more plain words outside pseudo-translated messages (names and notation removed).

    >>> english_left("⟦Ƥŀàŷ {x}⟧ with `/move c4` — your turn")
    ['your turn']
    """
    while _SAID.search(text):
        text = _SAID.sub(" ", text)
    text = _UNIVERSAL.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    return _WORDS.findall(text)


def words_of(message: FakeMessage) -> list[str]:
    """Every text of a message a reader sees."""
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.get("title") or "", embed.get("description") or "", (embed.get("footer") or {}).get("text") or ""]
        out += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
    out += [c.label or "" for c in message.component_list]
    return [w for w in out if w]


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message in the pseudo-locale."""
    monkeypatch.setenv(PSEUDO_ENV, "1")


async def test_a_game_played_in_the_pseudo_locale_leaves_no_english_in_any_reply(harness: Harness, pseudo: None) -> None:
    alice, bob = harness.world.alice, harness.world.bob
    async with harness.running():
        await harness.slash(alice, "help")
        await harness.slash(alice, "board")  # no game here: a refusal
        await harness.start_game(alice, bob, "hex", size=5, seat="first", clock="1d")
        await harness.move(alice, "c3")
        await harness.move(alice, "c4")  # not alice's turn
        await harness.move(bob, "b2")
        await harness.slash(bob, "resign")
    messages = [m for m in harness.fake.message_index.values() if m.author.id != alice.id and m.author.id != bob.id]
    assert len(messages) > 6
    left = {(text[:60], tuple(english_left(text, ("alice", "bob")))) for m in messages for text in words_of(m)}
    assert [x for x in left if x[1]] == []
