"""The fake refuses command localizations Discord refuses (docs: application commands, Localization)."""

from __future__ import annotations

from typing import Any

from .validation import check_commands


def command(**extra: Any) -> dict[str, Any]:
    """A valid slash command with one option of two choices, plus ``extra``."""
    option = {"type": 3, "name": "colour", "description": "which colour", "required": True,
              "choices": [{"name": "white", "value": "w"}, {"name": "black", "value": "b"}]}
    return {"name": "play", "description": "Play", "type": 1, "options": [option], **extra}


def codes(commands: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(path, code) for path, code, _ in check_commands(commands)]


def test_valid_localizations_pass() -> None:
    cmd = command(name_localizations={"ja": "打つ", "fr": "jouer"}, description_localizations={"ja": "打つ"})
    cmd["options"][0]["name_localizations"] = {"fr": "couleur"}
    cmd["options"][0]["choices"][0]["name_localizations"] = {"fr": "Blanc"}
    assert codes([cmd]) == []


def test_a_localized_name_with_capitals_or_spaces_is_refused() -> None:
    cmd = command(name_localizations={"fr": "Jouer"})
    cmd["options"][0]["name_localizations"] = {"fr": "la couleur"}
    assert codes([cmd]) == [("0.name_localizations.fr", "APPLICATION_COMMAND_INVALID_NAME"),
                            ("0.options.0.name_localizations.fr", "APPLICATION_COMMAND_INVALID_NAME")]


def test_a_locale_discord_does_not_have_is_refused() -> None:
    assert codes([command(name_localizations={"xx": "jouer"})]) == [("0.name_localizations.xx", "BASE_TYPE_CHOICES")]


def test_a_localized_description_or_choice_name_over_100_characters_is_refused() -> None:
    cmd = command(description_localizations={"ja": "あ" * 101})
    cmd["options"][0]["choices"][1]["name_localizations"] = {"ja": ""}
    assert codes([cmd]) == [("0.description_localizations.ja", "BASE_TYPE_BAD_LENGTH"),
                            ("0.options.0.choices.1.name_localizations.ja", "BASE_TYPE_BAD_LENGTH")]


def test_two_options_or_commands_with_one_localized_name_are_refused() -> None:
    cmd = command()
    cmd["options"].append({"type": 3, "name": "shade", "description": "d", "name_localizations": {"fr": "colour"}})
    other = command(name="go", name_localizations={"ja": "play"})
    assert codes([cmd, other]) == [("0.options.1.name_localizations.fr", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"),
                                   ("1.name_localizations.ja", "APPLICATION_COMMANDS_DUPLICATE_NAME")]
