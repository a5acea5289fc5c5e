"""The words drawn in pictures, said in the language of the message the picture goes with.

render/ knows no languages: the caller of :func:`render.render_position` (the bot) passes a
``say`` function, and every word drawn goes through :func:`say` with its English and its
facts (``say("{count} discs in hand", count=3)``). Without one, the English is drawn.

>>> say("{count} discs in hand", count=3)
'3 discs in hand'
>>> with saying(lambda text, facts: text.upper()):
...     say("wins")
'WINS'
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

#: how a caller says a word: (English with ``{placeholders}``, the facts) → the words to draw
Say = Callable[[str, Mapping[str, Any]], str]


def english(text: str, facts: Mapping[str, Any]) -> str:
    """The English itself, its placeholders filled."""
    return text.format(**facts) if facts else text


_SAY: ContextVar[Say] = ContextVar("render_say", default=english)


def say(text: str, /, **facts: Any) -> str:
    """A word or sentence of a picture in the language being drawn (see the module doc)."""
    return _SAY.get()(text, facts)


@contextlib.contextmanager
def saying(how: Say | None) -> Iterator[None]:
    """Draw the pictures made in the block with ``how`` (None: English)."""
    token = _SAY.set(how or english)
    try:
        yield
    finally:
        _SAY.reset(token)
