"""English left in a reply said in the pseudo-locale: what a reader would see untranslated.

In the pseudo-locale (``HEXCORD_PSEUDO_LOCALE=1``) every catalog message is said with its
letters transformed and wrapped in ``⟦ ⟧`` (:mod:`bot.i18n.pseudo`). What is outside ``⟦ ⟧``
may only be names, notation, numbers, mentions, code and the games' titles: two plain English
words in a row there are a sentence the catalogs never saw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from bot.i18n.pseudo import _LETTERS
from bot.service import GAME_TITLES

#: a message said in the pseudo-locale (innermost first: messages nest)
_SAID = re.compile(r"⟦[^⟦⟧]*⟧")
#: what is written the same in every language: code, mentions/timestamps, links, the games' titles
_UNIVERSAL = re.compile(r"`[^`]*`|<[^<>\s]*>|https?://\S+|" + "|".join(map(re.escape, GAME_TITLES.values())))
#: two English-looking words in a row
_WORDS = re.compile(r"\b[A-Za-z]{2,}\b[ ,'’-]+\b[A-Za-z]{2,}\b")
#: the pseudo-locale's letters back to English
_BACK = {v: k for k, v in _LETTERS.items()}


def english_left(text: str, names: Iterable[str] = ()) -> list[str]:
    """Runs of two or more plain words outside pseudo-translated messages (names and notation removed).

    >>> english_left("⟦Ƥŀàŷ {x}⟧ with `/move c4` — your turn")
    ['your turn']
    >>> english_left("⟦Ƥŀàŷ⟧ Test Server", ["Test Server"])
    []
    """
    while _SAID.search(text):
        text = _SAID.sub(" ", text)
    text = _UNIVERSAL.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return _WORDS.findall(text)


def unpseudo(text: str) -> str:
    """The English a pseudo-locale text was made from (brackets dropped, letters turned back).

    >>> unpseudo("⟦Ƥŀàŷ {move} ŵíţĥ `/move c4`.⟧")
    'Play {move} with `/move c4`.'
    """
    return text.replace("⟦", "").replace("⟧", "").translate(_BACK)


def message_texts(data: dict[str, Any]) -> Iterator[str]:
    """Every text a reader sees in a message payload: content, embeds, component labels and options."""
    if data.get("content"):
        yield str(data["content"])
    for embed in data.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield str(embed[key])
        for key in ("footer", "author"):
            part = embed.get(key) or {}
            if part.get("text") or part.get("name"):
                yield str(part.get("text") or part.get("name"))
        for field in embed.get("fields") or []:
            yield f"{field.get('name', '')}\n{field.get('value', '')}"
    yield from _component_texts(data.get("components") or [])


def _component_texts(components: list[dict[str, Any]]) -> Iterator[str]:
    for c in components:
        for key in ("label", "placeholder", "content", "title"):
            if c.get(key):
                yield str(c[key])
        for option in c.get("options") or []:
            yield str(option.get("label") or "")
            if option.get("description"):
                yield str(option["description"])
        yield from _component_texts(c.get("components") or [])


def turned_back(value: Any) -> Any:
    """A payload with every string :func:`unpseudo`-ed (what the tests read is the English)."""
    if isinstance(value, str):
        return unpseudo(value)
    if isinstance(value, list):
        return [turned_back(v) for v in value]
    if isinstance(value, dict):
        return {k: turned_back(v) for k, v in value.items()}
    return value
