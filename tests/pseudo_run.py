"""A pseudo-locale run of the bot's tests: every reply of every test read for English left in it.

    pytest -p tests.pseudo_run tests/bot

The plugin says every catalog message in the pseudo-locale (``HEXCORD_PSEUDO_LOCALE=1``, also
for the bot processes the tests start) and reads each message the bot sends or edits through a
fake Discord — content, embeds, buttons, menus — before the fake keeps it. A run of two plain
English words outside a translated message (names, notation, mentions and code aside) fails
the test that caused it and is listed at the end of the run. The fake then keeps the message
turned back into English, so the tests' own checks read what they always read. The pictures'
words go through the same catalogs (``say``) and are not read here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n.text import PSEUDO_ENV
from tests.fake_discord.server import FakeDiscord
from tests.i18n.leftover import english_left, message_texts, turned_back

#: English found by the current test: (the text, the words left)
_FOUND: list[tuple[str, list[str]]] = []
#: every test's findings (the words left in each text), for the summary
_ALL: dict[str, list[list[str]]] = {}


def _names(fake: FakeDiscord) -> set[str]:
    """What the world calls its users, servers, channels and roles (written as they are)."""
    names: set[str] = set()
    for user in fake.users.values():
        names |= {user.name, user.global_name or ""}
    for guild in fake.guilds.values():
        names.add(guild.name)
        names |= {m.nick or "" for m in guild.members.values()}
        names |= {r.name for r in guild.roles}
    names |= {c.name or "" for c in fake.channels.values()}
    return names - {""}


def _read(fake: FakeDiscord, data: dict[str, Any]) -> dict[str, Any]:
    """Note the English in a payload; the payload in English for the fake to keep."""
    names = _names(fake)
    for text in message_texts(data):
        left = english_left(text, names)
        if left:
            _FOUND.append((text[:120], left))
    return turned_back(data)


def pytest_configure(config: pytest.Config) -> None:
    """Speak the pseudo-locale and read every message the bot sends."""
    os.environ[PSEUDO_ENV] = "1"
    create, edit = FakeDiscord.create_message, FakeDiscord.edit_message

    def create_message(self: FakeDiscord, channel: Any, author: Any, data: dict[str, Any], files: Any,
                       **kwargs: Any) -> Any:
        return create(self, channel, author, _read(self, data), files, **kwargs)

    def edit_message(self: FakeDiscord, msg: Any, data: dict[str, Any], files: Any) -> Any:
        return edit(self, msg, _read(self, data), files)

    FakeDiscord.create_message = create_message  # type: ignore[method-assign]
    FakeDiscord.edit_message = edit_message  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[Any]:
    """Fail a test whose replies left English (after its own checks)."""
    _FOUND.clear()
    result = yield
    if _FOUND:
        # Carried by the test's report, so that the summary also sees what xdist workers found.
        item.user_properties.append(("pseudo_english", [words for _, words in _FOUND]))
        lines = "\n".join(f"  {words} in {text!r}" for text, words in _FOUND)
        pytest.fail(f"English left in replies in the pseudo-locale:\n{lines}", pytrace=False)
    return result


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keep each test's findings for the summary."""
    for key, found in report.user_properties:
        if key == "pseudo_english":
            _ALL[report.nodeid] = list(found)  # type: ignore[call-overload]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The English found, by phrase, with how many tests met it."""
    if not _ALL:
        return
    seen: dict[str, int] = {}
    for found in _ALL.values():
        for phrase in {" | ".join(words) for words in found}:
            seen[phrase] = seen.get(phrase, 0) + 1
    terminalreporter.section("English left in the pseudo-locale")
    for phrase, n in sorted(seen.items(), key=lambda x: -x[1]):
        terminalreporter.write_line(f"{n:4d} tests  {phrase}")
