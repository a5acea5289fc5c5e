"""Forgiving text normalisation shared by every game's parser (RULES.md §5)."""

from __future__ import annotations

import re

from .errors import NotationError
from .messages import sentence

_SPACES = re.compile(r"\s+")
# "c4-d4" and "c4 - d4" are the same as "c4 d4"; only between two cells.
_DASH = re.compile(r"(?<=\d)\s*-\s*(?=[a-z])")
MAX_ACTION_LENGTH = 200


def normalize(text: str) -> str:
    """Lower-case, trim, fold white space, drop a leading ``move``, read ``-`` as a space.

    >>> normalize("  move C4-D4 ")
    'c4 d4'
    >>> normalize("X: 1 + 4")
    'x: 1 + 4'
    """
    if not isinstance(text, str):
        raise NotationError(sentence("an action is text, such as c4 d4"))
    if len(text) > MAX_ACTION_LENGTH:
        raise NotationError(sentence("that is too long to be an action ({n} characters)", n=len(text)))
    s = _SPACES.sub(" ", text.strip().lower())
    if s == "move" or s.startswith("move "):
        s = s[4:].strip()
    s = _DASH.sub(" ", s)
    if not s:
        raise NotationError(sentence("the action is empty; write a cell such as c4, or a move such as c4 d4"))
    return s


def shorten(text: str, limit: int = 24) -> str:
    """Quote a player's text in a message without letting it run on.

    >>> shorten("abc")
    'abc'
    """
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
