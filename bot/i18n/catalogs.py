"""The gettext catalogs, read from their ``.po`` files with Babel the first time a language is asked for.

The ``.po`` files are the data (``bot/i18n/locales/<lang>/LC_MESSAGES/hexcord.po``); reading
them at start needs no compile step after ``pip install -e .``. A message whose translation is
missing or marked fuzzy has none: :func:`lookup` answers ``None`` and the caller falls back to
English for the whole message (see :mod:`bot.i18n.text`).
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

#: where the catalogs live: ``<lang>/LC_MESSAGES/hexcord.po``
LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "hexcord"


@dataclass(frozen=True)
class Translations:
    """One language's translated messages: ``(context, msgid)`` → text, or the plural forms' texts."""

    language: str
    messages: dict[tuple[str | None, str], str | tuple[str, ...]]
    #: n → the index of the plural form (the catalog's own ``Plural-Forms`` rule)
    plural: Callable[[int], int]

    def get(self, msgid: str, context: str | None = None) -> str | None:
        """The translation of a singular message, or None."""
        found = self.messages.get((context, msgid))
        return found if isinstance(found, str) else None

    def get_plural(self, singular: str, n: int, context: str | None = None) -> str | None:
        """The translation of a plural message for the count ``n``, or None."""
        found = self.messages.get((context, singular))
        if not isinstance(found, tuple):
            return None
        index = self.plural(n)
        return found[index] if index < len(found) and found[index] else None


def po_path(language: str) -> Path:
    """The ``.po`` file of a language."""
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    """A language's catalog as Babel reads it (for the tests and the tooling)."""
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def languages() -> list[str]:
    """The languages that have a catalog, sorted."""
    return sorted(p.name for p in LOCALES_DIR.iterdir() if po_path(p.name).is_file())


@functools.cache
def load(language: str) -> Translations:
    """A language's translations; untranslated and fuzzy entries are left out (they fall back to English)."""
    catalog = read_catalog(language)
    messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (list, tuple)):
            strings = tuple(message.string or ())
            if strings and all(strings):
                messages[(message.context, message.id[0])] = strings
        elif isinstance(message.string, str) and message.string:
            messages[(message.context, message.id)] = message.string
    plural: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
    return Translations(language, messages, plural)
