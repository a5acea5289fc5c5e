"""What the service refuses, as exceptions whose message is for the person who asked."""

from __future__ import annotations


class UserError(Exception):
    """A request the service refuses; the message is for the person who asked."""


class ClosedRequest(UserError):
    """A click on a request (a takeback) that is no longer open: its buttons can go."""


class StaleChoice(UserError):
    """An action chosen for a position that has changed since (a panel opened before a move or takeback)."""


class NotYourTurn(UserError):
    """An action by a player who is not to move; says whom the game waits for."""

    def __init__(self, waiting: list[int], colours: list[str]) -> None:
        super().__init__(f"It's not your turn — waiting for {' and '.join(colours)}.")
        #: user ids of the players to move, and their colours (``texts.refusal`` names them)
        self.waiting = waiting
        self.colours = colours
