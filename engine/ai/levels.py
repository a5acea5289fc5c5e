"""The AI's levels: time per move and deliberate imperfection.

``budget`` is seconds of search per move in production; tests pass ``iterations``
instead so that a fixed seed gives the same answer on any machine. ``temperature``
above 0 makes the level pick its move at random in proportion to
``visits ** (1 / temperature)`` instead of taking the most searched move, so an easy
opponent plays plausible moves but misses some of the best ones.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """One difficulty: a search time per move and how carelessly the result is used."""

    name: str
    #: seconds of search per move (the whole turn, relocations included)
    budget: float
    #: 0: play the most searched move; > 0: sample ∝ visits^(1/temperature)
    temperature: float = 0.0


#: Levels by name. ``easy`` is short and deliberately imperfect.
LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0.2, temperature=1.0),
    "medium": Level("medium", 1.0),
    "hard": Level("hard", 3.0),
}


def level(name: str) -> Level:
    """The level called ``name`` (ValueError listing the levels otherwise).

    >>> level("hard").budget
    3.0
    """
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown AI level '{name}': choose one of {', '.join(LEVELS)}") from None
