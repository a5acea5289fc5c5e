"""Checking a puzzle's answer (issue 48's practice): does this turn win by force?

A puzzle is a position where the player to move (the *solver*) had a win the search proved. An
answer is right when it wins: the game's winning condition is met at once, or the search proves,
from the position after it, that the opponent (the *defender*) has lost. Every proven winning
answer is accepted, not only the one the game's review found.

The search is :func:`engine.ai.evaluate` of the position after the answer, for the defender, with
a fixed budget (deterministic for a seed): its proofs are Hex's virtual connections and the
tree's win/loss solver (Hex and inpHeXion alike). Its move there is the defender's best reply:
the **refutation** of a wrong answer, or the reply the puzzle goes on with after a right one.
An answer the search cannot prove within its budget is not accepted (the check says so:
``proven`` is False), so a right verdict is always a proof.

CPU-bound: the bot runs :func:`check` in an AI worker (it is module level, so it pickles).

>>> from engine.games import make_options
>>> opts = make_options("hex", 3, [], None)
>>> check(opts, ["a1", "c1"], ["b2"], iterations=50, seed=1).right
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..position import GameOptions
from ..record import Record
from . import evaluate


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the search makes of an answer.

    ``right``: the answer wins (proved); ``won``: the game's winning condition is met by it;
    ``proven``: the search proved the result either way (a wrong answer that is not proven lost
    is one whose win the search could not prove); ``reply``: the defender's best reply (one line
    of notation, canonical actions joined by ``;``), None when the game is over.
    """

    right: bool
    won: bool
    proven: bool
    reply: str | None


def check(options: GameOptions, actions: Sequence[str], answer: Sequence[str], *, iterations: int,
          seed: int) -> Verdict:
    """Whether the solver's turn ``answer`` (its canonical actions) wins in the position after
    ``actions`` (the game's record up to the puzzle, then the puzzle's moves so far).

    Raises ActionError when the answer is not legal there (callers check that first)."""
    pos = Record(options, list(actions)).replay()
    solver = pos.to_move[0]
    for action in answer:
        pos.play(action)
    if pos.outcome is not None:
        won = pos.outcome.winner == solver
        return Verdict(won, won, True, None)
    if solver in pos.to_move:
        raise ValueError("the answer is not a whole turn: the solver is still to move")
    ev = evaluate(pos, iterations=iterations, seed=seed)
    reply = ";".join(pos.copy().play(ev.best))
    lost = ev.proven and ev.win == 0.0
    return Verdict(lost, False, ev.proven, reply)


__all__ = ["Verdict", "check"]
