"""The catalogs: complete, faithful to the English placeholders, and in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.i18n.catalogs import LOCALES_DIR, languages, read_catalog

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = LOCALES_DIR / "hexcord.pot"
KEYWORDS = {"t": None, "tc": ((1, "c"), 2), "tn": (1, 2), "gettext": None, "pgettext": ((1, "c"), 2), "UserError": None, "say": None,
            "sentence": None}
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def template_keys() -> set[tuple[str | None, str]]:
    with TEMPLATE.open("rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f) if m.id}


def test_the_bot_speaks_japanese_and_french() -> None:
    assert languages() == ["fr", "ja"]


def test_the_template_holds_exactly_the_messages_of_the_code() -> None:
    """``pybabel extract`` with ``babel.cfg`` run now gives the template as committed (else: re-extract)."""
    method_map = [("**.py", "bot.i18n.extract:extract_bot"), ("data/limits.toml", "bot.i18n.extract:extract_limits")]
    found = {(context, message if isinstance(message, str) else message[0])
             for folder in ("bot", "render", "engine")
             for _f, _l, message, _c, context in extract_from_dir(ROOT / folder, method_map, keywords=KEYWORDS)}
    assert found == template_keys()


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_every_message_is_translated_in_every_catalog(language: str) -> None:
    catalog = read_catalog(language)
    translated = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog
                  if m.id and not m.fuzzy and m.string and all(m.string if isinstance(m.string, tuple) else [m.string])}
    assert template_keys() - translated == set()


@pytest.mark.parametrize("language", ["ja", "fr"])
def test_every_translation_keeps_the_english_placeholders(language: str) -> None:
    for m in read_catalog(language):
        if not m.id:
            continue
        english = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set().union(*(PLACEHOLDER.findall(e) for e in english))
        for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
            assert set(PLACEHOLDER.findall(text)) == wanted, (m.id, text)
