"""What the service refuses, as exceptions in plain words for the person who asked.

The service speaks no Discord: a refusal is plain words with ``{placeholders}`` for the
things a chat app shows its own way (a command, a command option, a channel, a moment, a
message), given as the small values below. ``texts.refusal`` dresses them for Discord
(backticks, ``<#channel>``, ``<t:…:R>``, links); ``str()`` of a refusal reads them plainly
(for logs and tests).

>>> str(UserError("Add {option} to play in a new thread.", option=Option("thread", True)))
'Add thread:true to play in a new thread.'
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command, e.g. ``/challenge``."""

    name: str

    def __str__(self) -> str:
        return f"/{self.name}"


@dataclass(frozen=True, slots=True)
class Option:
    """A command option, alone (``size``) or with a value (``thread:true``); ``note`` says more about it."""

    name: str
    value: bool | str | None = None
    note: str = ""

    def __str__(self) -> str:
        if self.value is None:
            return self.name
        value = str(self.value).lower() if isinstance(self.value, bool) else self.value
        return f"{self.name}:{value}"


@dataclass(frozen=True, slots=True)
class Channel:
    """A channel or thread, by id."""

    id: int

    def __str__(self) -> str:
        return f"channel {self.id}"


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment (Unix time), shown to each reader relative to when they read it."""

    at: float

    def __str__(self) -> str:
        return datetime.datetime.fromtimestamp(self.at, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True, slots=True)
class Post:
    """A message in a channel (the one that shows a challenge); ``message_id`` None until it is posted."""

    guild_id: int
    channel_id: int
    message_id: int | None

    def __str__(self) -> str:
        return f"message {self.message_id} in channel {self.channel_id}"


def plain(fact: Any) -> str:
    """A fact as plain words; a list of them joined (``a, b and c``)."""
    if isinstance(fact, (list, tuple)):
        return joined([plain(f) for f in fact])
    if isinstance(fact, Option) and fact.note:
        return f"{fact} ({fact.note})"
    return str(fact)


def joined(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> joined(["a"]), joined(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


class UserError(Exception):
    """A request the service refuses.

    ``words`` say what is wrong and what would be right; each ``{name}`` in them is the
    fact given as ``name=`` (a :class:`Command`, :class:`Option`, :class:`Channel`,
    :class:`Moment`, :class:`Post`, a list of them, or plain text).
    """

    def __init__(self, words: str, **facts: Any) -> None:
        super().__init__(words)
        self.words = words
        self.facts = facts

    def __str__(self) -> str:
        return self.words.format(**{k: plain(v) for k, v in self.facts.items()}) if self.facts else self.words


class ClosedRequest(UserError):
    """A click on a request (a takeback) that is no longer open: its buttons can go."""


class StaleChoice(UserError):
    """An action chosen for a position that has changed since (a panel opened before a move or takeback)."""


class NotYourTurn(UserError):
    """An action by a player who is not to move; says whom the game waits for."""

    def __init__(self, waiting: list[int], colours: list[str]) -> None:
        super().__init__("It's not your turn — waiting for {colours}.", colours=" and ".join(colours))
        #: user ids of the players to move, and their colours (``texts.refusal`` names them)
        self.waiting = waiting
        self.colours = colours


class RematchAsked(UserError):
    """Rematch pressed for a game whose rematch is already asked for (or being played): the words point at it."""
