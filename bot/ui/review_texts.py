"""Every word a review shows (the Review button, ``/review``, its message), in one place, as
catalog messages (:mod:`bot.i18n`): said in the reader's language where the message is sent
(a private answer in the member's, a review in the channel in the server's). The graph's caption
is drawn through ``say`` in :mod:`render.review_graph`. Names given to these are cleaned already.
"""

from __future__ import annotations

from ..i18n import Text, render, t, tn
from ..i18n.text import Joined, Number, word
from ..service import Command
from .components.labels import label
from .texts import COLOURS, Shown

REVIEW_BUTTON = label(t("Review"))
COMMAND_DESCRIPTION = t("A finished game reviewed by the computer: accuracy, mistakes, the better moves")
GAME_OPTION = t("the game's number (default: your last finished game)")

STALE_BUTTON = t("That button belongs to a review I no longer have. Ask again with {review}.",
                 review=Shown(Command("review")))

#: the marks, mildest first (the message names them in its legend; the pictures draw the marks only)
MARKS = ("?!", "?", "??")


class ReviewGame(str):
    """```/review game:12``` as the reader's Discord writes the command and its option (``<number>``
    for any game); its English is the English command."""

    game: str

    def __new__(cls, game: str) -> ReviewGame:
        self = super().__new__(cls, f"`/review game:{game}`")
        self.game = game
        return self

    def said_in(self, language: str) -> str:
        """The command in ``language``."""
        game = render(self.game, language)
        return f"`/{word('command', 'review', language)} {word('option /review', 'game', language)}:{game}`"


def _review_game(game_id: int) -> ReviewGame:
    return ReviewGame(str(game_id))


#: what a game's number is called where any game's may be written
ANY_GAME = t("<number>")
NO_FINISHED_GAME = t("You have no finished game in this server to review. Name one with {review}.",
                     review=ReviewGame(ANY_GAME))


def no_such_game(game_id: int) -> Text:
    """A game this member may not see is answered as no game at all."""
    return t("There is no game #{id} in this server. See {history}.", id=game_id, history=Command("history"))


def still_playing(game_id: int) -> Text:
    """Only finished games are reviewed (a review would help a player in the middle of one)."""
    return t("Game #{id} is still being played: it can be reviewed once it is over.", id=game_id)


def progress(game_id: int, percent: int) -> Text:
    """The message while the review runs."""
    return t("Reviewing game #{id}… {percent}%", id=game_id, percent=percent)


def still_running(game_id: int, percent: int) -> Text:
    """When the review outlasts what a message can wait for: it goes on without the message."""
    return t("Still reviewing game #{id} ({percent}%): it goes on in the background. Ask again with {review} "
             "in a few minutes.", id=game_id, percent=percent, review=_review_game(game_id))


def failed(game_id: int) -> Text:
    """The review stopped (a worker died): what is done is kept."""
    return t("The review of game #{id} stopped before the end. Ask again with {review} to go on.", id=game_id,
             review=_review_game(game_id))


def heading(title: str) -> Text:
    """The embed's title."""
    return t("Review — {title}", title=title)


def done(game_id: int) -> Text:
    """The message's text once the review is there."""
    return t("Review of game #{id}.", id=game_id)


def player_line(name: str, colour: str, accuracy: float | None, marks: dict[str, int]) -> Text:
    """One player's accuracy and counts of marks."""
    acc = "–" if accuracy is None else t("{percent}%", percent=f"{accuracy:.0f}")
    counts = " · ".join(f"{m} {marks.get(m, 0)}" for m in MARKS)
    return t("**{name}** ({colour}): accuracy {accuracy} · {counts}", name=name, colour=COLOURS.get(colour, colour),
             accuracy=acc, counts=counts)


def legend(iterations: int) -> Text:
    """How to read the review: the marks, the accuracy, the brackets in the move list."""
    return t("?! inaccuracy, ? mistake, ?? blunder: the mover's chance to win fell 5, 10 or 15 points. "
             "Accuracy: lichess's formula, on the chance to win. [c4]: the better move the search found "
             "({iterations} search iterations a position). Blind Hex card choices are not judged.",
             iterations=Number(iterations))


def sheet_cut(filename: str) -> Text:
    """When the annotated move list is too long for the message: the marked turns only, the rest in a file."""
    return t("The marked turns only; every move is in {file}.", file=filename)


def no_moves(game_id: int) -> Text:
    """A game without a move to judge."""
    return t("Game #{id} has no move to review.", id=game_id)


def nothing_marked() -> Text:
    """No turn lost enough to be marked."""
    return t("No move lost 5 points or more of its player's chance: no worst moves to show.")


def chance(p: float | None, proved: bool) -> str:
    """A chance to win in percent, saying when the search proved it."""
    if p is None:
        return "?"
    percent = f"{p * 100:.0f}"
    return t("{percent}% (proved)", percent=percent) if proved else t("{percent}%", percent=percent)


def worst_move(turn: int, name: str, move: str, mark: str, best: str | None, before: str, after: str) -> Joined:
    """One of the worst moves, above its board picture."""
    played = t("Turn {turn}: {name} played **{move}**{mark} (chance to win {before} → {after}).", turn=turn,
               name=name, move=move, mark=mark, before=before, after=after)
    better = [t("Better: **{best}**.", best=best)] if best else []
    board = t("On the board: the move played is marked as the last move, the better one in dashed green.")
    return Joined([Joined([played, *better], " "), board], "\n")


def worst_title(rank: int, count: int) -> Text:
    """The worst move's embed title."""
    return tn("Worst move {rank} of {n}", "Worst move {rank} of {n}", count, rank=rank)


def settings_line(background: bool) -> Text:
    """The /settings summary's line about reviews made in the background as games end (for puzzles)."""
    return t("Finished games reviewed in the background (for puzzles): **{on}**.", on=t("yes") if background else t("no"))
