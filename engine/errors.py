"""Typed errors for actions a player gets wrong.

Every message is written for a player: it says what is wrong and, where it
can, what would be right. Callers tell "that is not notation" from "that is
not legal now" by the class, as python-chess does with its move errors.
"""

from __future__ import annotations


class ActionError(ValueError):
    """An action was rejected; the position is unchanged."""


class NotationError(ActionError):
    """The text is not an action in this game's notation (RULES.md §5)."""


class IllegalActionError(ActionError):
    """The text is notation, but the action is not legal in this position."""


class WrongTurnError(IllegalActionError):
    """The action is by a player who may not act now."""


class GameOverError(IllegalActionError):
    """The game has ended; no action is legal."""


class OptionsError(ValueError):
    """Game options (size, variants, cut winner) that this game does not offer."""
