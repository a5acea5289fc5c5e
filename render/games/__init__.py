"""Per-game translation of a position into a :class:`~render.scene.Scene`.

Each module, named after its game (``engine.GAMES``), holds one
``scene(pos, names)`` function; :func:`scene_of` picks it by the position's game.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from engine import Position

from ..scene import Scene


def scene_of(pos: Position, names: Mapping[str, str] | None = None) -> Scene:
    """The scene of any game's position."""
    try:
        module = import_module(f"{__name__}.{pos.game}")
    except ModuleNotFoundError:
        raise ValueError(f"no picture for game '{pos.game}'") from None
    return module.scene(pos, names)
