"""The command list Discord shows a Japanese or French user: every name and description translated."""

from __future__ import annotations

from typing import Any, Iterator

from bot.service import GAME_TITLES
from tests.bot.harness import Harness
from tests.fake_discord.validation import valid_command_name

LANGUAGES = ("ja", "fr")


def texts(command: dict[str, Any], kind: str = "command") -> Iterator[tuple[str, dict[str, Any]]]:
    """Each command, sub-command, option and choice of a synced command, with its kind."""
    yield kind, command
    for option in command.get("options") or []:
        yield from texts(option, "option")
    for choice in command.get("choices") or []:
        yield "choice", choice


async def test_every_command_option_and_choice_is_synced_in_japanese_and_french(harness: Harness) -> None:
    """Names obey Discord's naming rule; a game's title is the same in every language (no entry)."""
    async with harness.running():
        synced = harness.fake.synced_commands()
    assert synced
    for command in synced.values():
        for kind, item in texts(command.payload):
            names = item.get("name_localizations") or {}
            if kind == "choice" and item["name"] in GAME_TITLES.values():
                assert names == {}, item
                continue
            assert set(names) == set(LANGUAGES), (command.name, item["name"])
            if kind != "choice":
                assert all(valid_command_name(n) for n in names.values()), names
                assert set(item.get("description_localizations") or {}) == set(LANGUAGES), item["name"]
