"""Typed errors for actions a player gets wrong.

Every message is written for a player: it says what is wrong and, where it
can, what would be right. Callers tell "that is not notation" from "that is
not legal now" by the class, as python-chess does with its move errors.
Each error carries its sentence as a :class:`~engine.messages.Message`
(``error.message``: an English template and its facts, so that a caller can
say it in another language); ``str(error)`` is the English sentence.
"""

from __future__ import annotations

from .messages import Message


class _Told(ValueError):
    """An error whose sentence is a :class:`Message`."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        #: the sentence: ``message.template`` and ``message.facts``
        self.message = message


class ActionError(_Told):
    """An action was rejected; the position is unchanged."""


class NotationError(ActionError):
    """The text is not an action in this game's notation (RULES.md §5)."""


class IllegalActionError(ActionError):
    """The text is notation, but the action is not legal in this position."""


class WrongTurnError(IllegalActionError):
    """The action is by a player who may not act now."""


class GameOverError(IllegalActionError):
    """The game has ended; no action is legal."""


class OptionsError(_Told):
    """Game options (size, variants, cut winner) that this game does not offer.

    A plain ``str`` is a sentence for the command line only (``python -m engine``'s own options).
    """

    def __init__(self, message: Message | str) -> None:
        super().__init__(message if isinstance(message, Message) else Message(message))
