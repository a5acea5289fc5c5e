"""Saying a message in a language: per-message fallback, plurals, numbers, the pseudo-locale."""

from __future__ import annotations

import pytest

from bot.i18n import Number, language_of, render, t, tc, tn
from bot.i18n.catalogs import Translations, load
from bot.i18n.pseudo import pseudo
from bot.i18n.text import PSEUDO_ENV, number


def test_a_translated_message_is_said_in_the_language() -> None:
    assert render(tc("command", "resign"), "ja") == "投了"
    assert render(tc("command", "resign"), "fr") == "abandonner"


def test_a_message_without_translation_is_said_in_english_whole() -> None:
    """The outer message has no entry: its inner message (which has one) is English too."""
    message = t("Not in any catalog: {inner}", inner=tc("command", "resign"))
    assert render(message, "fr") == "Not in any catalog: resign"


def test_an_unsupported_discord_locale_is_english() -> None:
    assert [language_of(x) for x in ("ja", "fr", "en-US", "de", None)] == ["ja", "fr", "en", "en", "en"]


def test_a_fuzzy_or_empty_translation_counts_as_none() -> None:
    catalog = load("fr")
    assert catalog.get("no such message") is None
    assert all(text for text in catalog.messages.values())


def test_plural_forms_follow_the_language_rule() -> None:
    french = Translations("fr", {(None, "{n} game"): ("{n} partie", "{n} parties")}, lambda n: int(n > 1))
    assert french.get_plural("{n} game", 0) == "{n} partie"  # French: 0 is singular
    assert french.get_plural("{n} game", 2) == "{n} parties"
    assert render(tn("{n} game", "{n} games", 0), "en") == "0 games"


def test_numbers_are_written_as_the_language_writes_them() -> None:
    assert render(t("{n}", n=Number(12345)), "en") == "12,345"
    assert number(12345, "fr") == "12\u202f345"
    assert number(12345, "ja") == "12,345"


def test_the_pseudo_locale_transforms_every_letter_but_keeps_placeholders_and_code() -> None:
    assert pseudo("Use `/move` for {who}, see <#12>.") == "⟦Úšé `/move` ƒóŕ {who}, šéé <#12>.⟧"


def test_the_pseudo_locale_is_chosen_by_the_test_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PSEUDO_ENV, "1")
    assert language_of("ja") == "xx"
    assert render(tc("command", "resign"), language_of("ja")) == "⟦ŕéšíĝñ⟧"


def test_french_counts_zero_and_one_as_singular_with_its_catalog() -> None:
    turns = [render(tn("{n} turn", "{n} turns", n), "fr") for n in (0, 1, 2, 1_000_000)]
    assert turns == ["0 tour", "1 tour", "2 tours", "1\u202f000\u202f000 tours"]
