"""Per-game translation of a position into a :class:`~render.scene.Scene`.

Each module holds one ``scene(pos, names)`` function; :func:`scene_of` picks it
by the position's game name.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from engine import Position

from ..scene import Scene

_MODULES = {"hex": "hex", "inphexion": "inphexion", "blindhex": "blindhex"}


def scene_of(pos: Position, names: Mapping[str, str] | None = None) -> Scene:
    """The scene of any game's position."""
    try:
        module = _MODULES[pos.game]
    except KeyError:
        raise ValueError(f"no picture for game '{pos.game}'") from None
    return import_module(f"{__name__}.{module}").scene(pos, names)
