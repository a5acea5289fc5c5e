"""The choices of slash-command options, written once and checked against their sources.

discord.py offers a command option's choices from its ``Literal`` annotation, and a
type checker needs the values spelled out, so they are spelled out here, once;
``tests/bot/test_choices.py`` checks each against where the facts live: the game
registry (``engine.GAME_NAMES``), the clocks (``bot.service.CLOCKS``), the AI
levels (``engine.ai.LEVELS``) and the seats (``bot.service.SEATS``).
"""

from __future__ import annotations

from typing import Literal

GameName = Literal["inphexion", "hex", "blindhex"]
ClockName = Literal["5m", "1h", "1d", "3d", "7d", "none"]
Level = Literal["easy", "medium", "hard"]
Seat = Literal["first", "second", "random"]
