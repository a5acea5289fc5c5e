"""The one custom-id scheme of every persistent component: ``hx:<kind>:<field>:<field>…``.

A component's custom id names what it acts on (a game, a challenge, a page), so a
press works after a restart with nothing remembered. Each kind builds its ids
with :func:`custom_id` and parses them with the template from :func:`template`.

Messages posted before the scheme was unified carry older ids (``hx:b:…``,
``hx:p:…``, ``hx:s:…`` and ``hexcord:<kind>:…``); those messages stay in real
servers for ever, so each kind's template also accepts its old heads
(:data:`LEGACY_HEADS`) with the same fields after them. New messages only use
the new scheme.

>>> custom_id("board", 12, 3, "play")
'hx:board:12:3:play'
>>> import re
>>> pattern = re.compile(template("board", r"(?P<game>\\d+):(?P<n>\\d+):(?P<act>[a-z!]+)"))
>>> [pattern.fullmatch(i)["game"] for i in ("hx:board:12:3:play", "hx:b:12:3:play")]
['12', '12']
"""

from __future__ import annotations

import re

#: the head of every id this bot builds
PREFIX = "hx"
#: Discord's limit on a custom id's length
MAX_LENGTH = 100
#: each kind → the heads its ids had before the scheme was unified (still parsed, never built)
LEGACY_HEADS: dict[str, tuple[str, ...]] = {
    "board": ("hx:b",),
    "panel": ("hx:p",),
    "menu": ("hx:s",),
    "challenge": ("hexcord:challenge",),
    "takeback": ("hexcord:takeback",),
    "claim": ("hexcord:claim",),
    "over": ("hexcord:over",),
    # pages were ``hexcord:<moves|replay|rules>:…``: the page kind was the id's second part
    "page": ("hexcord",),
    # a tournament's sign-up buttons (issue 46): new with the unified scheme, no older heads
    "tourney": (),
    # a review's stepping through its worst moves (new with reviews: no older heads)
    "review": (),
    # a puzzle's tap panel (buttons, and its menus): new with /puzzle, no older heads
    "puzzle": (),
    "pzmenu": (),
}
KINDS = tuple(LEGACY_HEADS)


class CustomIdError(ValueError):
    """An id that breaks the scheme: an unknown kind, a ``:`` inside a field, or too long for Discord."""


def custom_id(kind: str, *fields: object) -> str:
    """The id of a component of ``kind`` acting on ``fields`` (each written with ``str``)."""
    if kind not in LEGACY_HEADS:
        raise CustomIdError(f"unknown component kind {kind!r}")
    parts = [str(f) for f in fields]
    if any(":" in p for p in parts):
        raise CustomIdError(f"a field of a {kind} id contains ':': {parts!r}")
    made = ":".join((PREFIX, kind, *parts))
    if len(made) > MAX_LENGTH:
        raise CustomIdError(f"{kind} id of {len(made)} characters (Discord allows {MAX_LENGTH})")
    return made


def template(kind: str, fields: str) -> str:
    """The regular expression matching ids of ``kind`` (new and old heads) whose fields match ``fields``."""
    heads = (f"{PREFIX}:{kind}", *LEGACY_HEADS[kind])
    return "(?:" + "|".join(re.escape(h) for h in heads) + "):" + fields
