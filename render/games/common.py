"""What the three games' scenes share: player boxes, results, last-turn words."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Outcome, Position, Reason

from ..fonts import clean
from ..scene import Cards, Panel, Piece
from ..theme import PieceColours
from ..words import say


def display_name(colour: str, names: Mapping[str, str] | None) -> str:
    """The player's name if the caller gave one (as written: every script is drawn), else the colour."""
    if names and names.get(colour):
        name = clean(str(names[colour]))
        if name:
            return name
    return colour.capitalize()


def sides_text(pos: Position, colour: str) -> str:
    """Which two sides a colour joins, in words."""
    return say("top-bottom") if colour == pos.vertical else say("left-right")


def panel(
    pos: Position,
    colour: str,
    names: Mapping[str, str] | None,
    piece: Piece,
    colours: PieceColours,
    detail: str = "",
    badge: str = "",
    tone: str = "turn",
    cards: Cards | None = None,
    idle: str = "",
) -> Panel:
    """A player's header box; the badge says ``wins`` for the winner once the game is over.

    ``badge`` is what to show while the game goes on and the player acts now;
    ``idle`` what to show (quietly) while they wait, usually nothing.
    """
    outcome = pos.outcome
    if outcome is not None:
        badge, tone = (say("wins"), "win") if outcome.winner == colour else ("", "")
    elif colour not in pos.to_move:
        badge, tone = idle, "idle"
    # the colour itself needs no word: the piece drawn beside the name shows it
    sides = sides_text(pos, colour)
    return Panel(
        colour=colour,
        piece=piece,
        name=display_name(colour, names),
        sides=sides,
        vertical=colour == pos.vertical,
        colours=colours,
        detail=detail,
        badge=badge,
        tone=tone,
        cards=cards,
    )


def result_text(pos: Position, names: Mapping[str, str] | None) -> str:
    """The end of the game in words, or "" while it goes on."""
    o = pos.outcome
    if o is None:
        return ""
    if o.winner is None:
        return say("Game over: no winner") if o.reason is not Reason.ABANDONED else say("Game abandoned")
    winner, loser = display_name(o.winner, names), display_name(pos.other(o.winner), names)
    # the engine's one wording of each result, as English with placeholders the caller can translate
    english = Outcome(o.winner, o.reason).in_words("{winner}", "{loser}")
    return say(english, winner=winner, loser=loser) if "{loser}" in english else say(english, winner=winner)


def last_text(pos: Position, names: Mapping[str, str] | None) -> str:
    """The footer's words: the result once over, else the latest turn (``Last: white c4 d4``)."""
    result = result_text(pos, names)
    last = pos.last_turn()
    if last is None:
        return result
    turn = say("Last: {player} {turn}", player=display_name(last.player, names), turn=last.text).rstrip() \
        if last.text else ""
    if result:
        return f"{result} · {turn}" if turn else result
    return turn
