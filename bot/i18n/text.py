"""Messages to be said in a language chosen later: :class:`Text` and its :func:`render`.

A message is written where it is used, in English (the gettext ``msgid``), with
``{placeholders}``; it becomes words only when the bot knows whom it speaks to
(``render(text, "ja")``). A message with no translation in that language is said in
English whole, placeholders that are messages themselves included: never half-translated.

>>> render(t("{n} games", n=Number(1234)), "en")
'1,234 games'
>>> render(tn("{n} game", "{n} games", 1), "en")
'1 game'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from babel.lists import format_list
from babel.numbers import format_decimal

from engine.messages import Colour, Message

from .catalogs import load
from .pseudo import PSEUDO, pseudo

#: the language every message is written in, and the one a message falls back to
SOURCE = "en"
#: the languages the bot speaks (each but the source has a catalog)
LANGUAGES = ("en", "ja", "fr")
#: the environment variable that makes every message pseudo-translated (``xx``): tests only
PSEUDO_ENV = "HEXCORD_PSEUDO_LOCALE"


@runtime_checkable
class Localized(Protocol):
    """A fact that knows how it is written in each language (a command's name, a link…)."""

    def said_in(self, language: str) -> str:
        """The fact as written in ``language``."""


@dataclass(frozen=True, slots=True)
class Number:
    """A count or amount, formatted as the language writes numbers (``1,234``, ``1 234``)."""

    value: int | float

    def __str__(self) -> str:
        return format_decimal(self.value, locale=SOURCE)


class Text(str):
    """A message in English with its facts, said in a language by :func:`render`.

    It *is* its English words (a ``str``), so code and tests that read it as text keep
    working; what sends it says it in the reader's language.
    ``plural`` and ``n``: the plural message for counts other than one (``{n}`` is the count).
    ``context``: the gettext ``msgctxt`` that tells two uses of the same English apart.
    """

    msgid: str
    args: Mapping[str, Any]
    plural: str | None
    n: int | None
    context: str | None

    def __new__(cls, msgid: str, args: Mapping[str, Any] | None = None, plural: str | None = None,
                n: int | None = None, context: str | None = None) -> Text:
        parts = (msgid, dict(args or {}), plural, n, context)
        self = super().__new__(cls, _said(*parts, SOURCE))
        self.msgid, self.args, self.plural, self.n, self.context = parts
        return self

    def said_in(self, language: str) -> str:
        """The message in ``language`` (English whole when the catalog has no translation)."""
        return _said(self.msgid, self.args, self.plural, self.n, self.context, language)


def t(msgid: str, **args: Any) -> Text:
    """A message (``msgid`` is its English); ``args`` fill its ``{placeholders}``."""
    return Text(msgid, args)


def tc(context: str, msgid: str, **args: Any) -> Text:
    """A message whose English means different things in different places (gettext's ``pgettext``)."""
    return Text(msgid, args, context=context)


def tn(singular: str, plural: str, n: int, **args: Any) -> Text:
    """A message that depends on a count ``n`` (``{n}`` in it is the count, formatted)."""
    return Text(singular, args, plural=plural, n=n)


def pseudo_on() -> bool:
    """Whether the tests asked for every message in the pseudo-locale."""
    return os.environ.get(PSEUDO_ENV, "") not in ("", "0")


def language_of(locale: object) -> str:
    """The bot's language for a Discord locale (``ja``, ``fr``, ``en-US``…, or None): English when unsupported."""
    if pseudo_on():
        return PSEUDO
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in LANGUAGES or code == PSEUDO else SOURCE


def template(msgid: str, plural: str | None, n: int | None, context: str | None, language: str) -> tuple[str, str]:
    """A message's words in ``language`` with their placeholders, and the language they are in
    (English when the catalog has no translation)."""
    counted = plural is not None and n is not None
    english = plural if counted and n != 1 and plural else msgid
    if language == SOURCE:
        return english, SOURCE
    if language == PSEUDO:
        return pseudo(english), PSEUDO
    catalog = load(language)
    found = catalog.get_plural(msgid, n or 0, context) if counted else catalog.get(msgid, context)
    return (found, language) if found is not None else (english, SOURCE)


def _said(msgid: str, args: Mapping[str, Any], plural: str | None, n: int | None, context: str | None,
          language: str) -> str:
    words, language = template(msgid, plural, n, context, language)
    values = {key: fact(value, language) for key, value in args.items()}
    if n is not None:
        values.setdefault("n", number(n, language))
    return words.format_map(values) if values else words


def render(text: str, language: str) -> str:
    """The words of a message in ``language`` (a plain string is said as it is)."""
    said = getattr(text, "said_in", None)
    return said(language) if said is not None else text


class Joined(str):
    """Messages said one after the other in one language, with a separator (``a · b``; the
    separator may be a message too: ``, then ``). It is its English words, like :class:`Text`."""

    parts: tuple[str, ...]
    separator: str

    def __new__(cls, parts: Sequence[str], separator: str = " · ") -> Joined:
        self = super().__new__(cls, render(separator, SOURCE).join(render(p, SOURCE) for p in parts))
        self.parts, self.separator = tuple(parts), separator
        return self

    def said_in(self, language: str) -> str:
        """The parts in ``language``."""
        return render(self.separator, language).join(render(p, language) for p in self.parts)


class Listed(str):
    """Things listed as a language lists them: ``a, b and c`` (English as the bot always wrote
    it), ``a、b、c``, ``a, b et c`` (Babel's list patterns)."""

    parts: tuple[str, ...]

    def __new__(cls, parts: Sequence[str]) -> Listed:
        self = super().__new__(cls, _listed([render(p, SOURCE) for p in parts], SOURCE))
        self.parts = tuple(parts)
        return self

    def said_in(self, language: str) -> str:
        """The list in ``language``."""
        return _listed([render(p, language) for p in self.parts], language)


def _listed(words: list[str], language: str) -> str:
    if len(words) < 2:
        return "".join(words)
    if language in (SOURCE, PSEUDO):
        return f"{', '.join(words[:-1])} and {words[-1]}"
    return format_list(words, locale=language)


def fact(value: Any, language: str) -> Any:
    """A placeholder's value in ``language``: messages rendered (the engine's too), numbers formatted, lists joined."""
    if isinstance(value, Number):
        return number(value.value, language)
    if isinstance(value, Message):
        return from_engine(value).said_in(language)
    said = getattr(value, "said_in", None)
    return said(language) if said is not None else value


def from_engine(message: Message) -> Text:
    """One of the engine's sentences (a refusal reason, a Blind Hex reveal line) as a catalog message: its
    template is the ``msgid`` (extracted with ``-k words``), colours are said as colours, notation stays."""
    facts = {key: tc("colour", value) if isinstance(value, Colour) and value in ENGINE_COLOURS else value
             for key, value in message.facts.items()}
    return Text(message.template, facts)


#: the colours the catalogs name (Blind Hex's ``x`` and ``o`` stay letters)
ENGINE_COLOURS = ("white", "black")


class Word(str):
    """One word of the catalogs as a placeholder's value (a command's or option's name): its English, said
    in each language as the catalog has it."""

    context: str

    def __new__(cls, context: str, msgid: str) -> Word:
        self = super().__new__(cls, msgid)
        self.context = context
        return self

    def said_in(self, language: str) -> str:
        """The word in ``language``."""
        return word(self.context, str.__str__(self), language)


def word(context: str, msgid: str, language: str) -> str:
    """One word of the catalogs (a command's or option's name: ``word("command", "resign", "fr")``)."""
    return render(Text(msgid, context=context), language)


def number(value: int | float, language: str) -> str:
    """A number as ``language`` writes it (the pseudo-locale writes it as English does)."""
    return format_decimal(value, locale=SOURCE if language == PSEUDO else language)
