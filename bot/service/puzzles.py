"""Puzzles from the server's own games (issue 48's practice, first part): positions where the
player to move had a win the search proved and played something else.

They are found from a finished review (:mod:`.reviews`), at no search of their own: the review
values the positions before and after every turn, and a proven win before a turn that is no
longer a proven win after it is a missed win whose answer is the search's move there. Blind Hex
is left out (its positions hide the cards; a letter's win is not a puzzle anyone can be set).
``/puzzle`` itself (serving them, answers, ratings, repetition): :mod:`.puzzle_play`.
"""

from __future__ import annotations

from engine.ai.review import Review, TurnReview

from ..store import PuzzleRow

#: games whose positions make puzzles (everything in them is public)
PUZZLE_GAMES = ("hex", "inphexion")


def missed_wins(game: str, review: Review) -> list[TurnReview]:
    """The turns of a review where the mover had a proven win and played a move that lost it.

    >>> from engine.ai.review import TurnReview
    >>> t = TurnReview(4, "a1", "black", 0, 1.0, 0.0, "c3", "??", True, True)
    >>> [x.move for x in missed_wins("hex", Review([t]))], missed_wins("blindhex", Review([t]))
    (['a1'], [])
    """
    if game not in PUZZLE_GAMES:
        return []
    return [t for t in review.turns
            if t.reviewed and t.proved_before and t.win_before == 1.0 and t.best and t.best != t.move
            and not (t.proved_after and t.win_after == 1.0)]


def puzzle_rows(game_id: int, game: str, review: Review, now: float) -> list[PuzzleRow]:
    """The puzzles of a game's review, as stored."""
    return [PuzzleRow(game_id, t.index, t.player, t.best or "", t.move, now) for t in missed_wins(game, review)]
