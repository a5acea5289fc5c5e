"""The registry of games by their CLI name, and the one way to start a game.

Each game's facts (title, sizes, variants, example size, secret phase, cut) live on
its :class:`~engine.position.Position` subclass; :data:`GAMES` maps names to them.
"""

from __future__ import annotations

from .blindhex import BlindHex
from .errors import OptionsError
from .hex import Hex
from .inphexion import InpHexion
from .position import GameOptions, Position

#: every game by its CLI and record name, in the order they are offered
GAMES: dict[str, type[Position]] = {cls.game: cls for cls in (InpHexion, Hex, BlindHex)}
GAME_NAMES: tuple[str, ...] = tuple(GAMES)


def position_class(game: str) -> type[Position]:
    """The Position subclass for a CLI game name."""
    try:
        return GAMES[game]
    except KeyError:
        raise OptionsError(f"unknown game '{game}': choose one of {', '.join(GAME_NAMES)}") from None


def make_options(
    game: str, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
) -> GameOptions:
    """Checked, normalised options for ``game``; OptionsError with a player-facing message."""
    return position_class(game).make_options(size, tuple(variants), first)


def new_game(
    game: str, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
) -> Position:
    """A fresh position of ``game`` with the given options.

    >>> new_game("hex", 5).to_move
    ['black']
    """
    return make_options(game, size, variants, first).new_position()
