"""The registry of games by their CLI name, and the one way to start a game."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .errors import OptionsError

if TYPE_CHECKING:
    from .position import GameOptions, Position

#: CLI name -> (module, class); imported lazily so each game stays independent.
_GAMES: dict[str, tuple[str, str]] = {
    "inphexion": ("engine.inphexion", "InpHexion"),
    "hex": ("engine.hex", "Hex"),
    "blindhex": ("engine.blindhex", "BlindHex"),
}
GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


def position_class(game: str) -> type["Position"]:
    """The Position subclass for a CLI game name."""
    try:
        module, name = _GAMES[game]
    except KeyError:
        raise OptionsError(f"unknown game '{game}': choose one of {', '.join(GAME_NAMES)}") from None
    return getattr(import_module(module), name)


def make_options(
    game: str, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
) -> "GameOptions":
    """Checked, normalised options for ``game``; OptionsError with a player-facing message."""
    return position_class(game).make_options(size, tuple(variants), first)


def new_game(
    game: str, size: int | None = None, variants: tuple[str, ...] | list[str] = (), first: str | None = None
) -> "Position":
    """A fresh position of ``game`` with the given options.

    >>> new_game("hex", 5).to_move
    ['black']
    """
    return make_options(game, size, variants, first).new_position()
