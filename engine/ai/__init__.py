"""The game-playing AI: Monte Carlo tree search for inpHeXion, Hex and Blind Hex.

:func:`choose` is the one entry point: give it a position and a level, get back
one line of notation that ``position.play`` accepts for the player to move (a
whole inpHeXion turn with its relocations, ``swap`` when the pie rule is worth
it, ``x:1+4`` for a Blind Hex choice, all of a Blind Hex writer's consecutive
letters). The search is CPU-bound (Python, its inner loops compiled by numba): the
bot runs it in worker processes (:class:`engine.ai.pool.AIPool`), never on its event loop.

Modules:

- :mod:`~engine.ai.mcts`: the game-independent search (UCT with RAVE/AMAF, priors
  as virtual AMAF playouts, decisive-move checks and a win/loss solver), with its
  selection and backup compiled in :mod:`~engine.ai.mcts_kernel`;
- :mod:`~engine.ai.hex.ai`: Hex (bridge-aware random fills, mate-in-one and forced
  blocks, pattern priors, swap as a tree move; the playouts compiled in
  :mod:`~engine.ai.hex.playout_kernel`, the H-search's rules in :mod:`~engine.ai.hex.vc_kernel`);
- :mod:`~engine.ai.hex.book`: Hex's opening book (a stronger player's moves in the
  first plies and in positions games often reach, looked up instead of searched);
- :mod:`~engine.ai.inphexion_ai`: inpHeXion (engine steps, whole turns with
  relocations, pie/free-reply/neutral);
- :mod:`~engine.ai.blindhex_ai`: Blind Hex (card choices as an equilibrium of a
  sampled matrix game on public information only; letters by tree search);
- :mod:`~engine.ai.levels`: time budgets and deliberate imperfection;
- :mod:`~engine.ai.pool`: the process pool for asyncio callers;
- :mod:`~engine.ai.review`: a game's review (each turn's win probability before and after,
  the search's move, marks, accuracy), from :func:`evaluate`'s value of each position.

Determinism: with ``seed`` and ``iterations`` the answer is the same on every
machine; time budgets (production) depend on speed.

>>> from engine import new_game
>>> choose(new_game("hex", 3), "easy", seed=1, iterations=50) in new_game("hex", 3).legal_actions()
True
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass

from ..blindhex import BlindHex
from ..hex import Hex
from ..inphexion import InpHexion
from ..position import Position
from .levels import LEVELS, Level, level

__all__ = ["LEVELS", "Evaluation", "Level", "choose", "evaluate"]


def choose(
    position: Position,
    level_name: str = "medium",
    *,
    seed: int | None = None,
    budget: float | None = None,
    player: str | None = None,
    iterations: int | None = None,
    deadline: float | None = None,
) -> str:
    """The AI's action line for ``player`` (default: the player to move) at ``level_name``.

    The search stops after ``iterations`` iterations when given (deterministic for a
    given ``seed``), else after ``budget`` seconds (default: the level's budget),
    and never after ``deadline`` (a ``time.time()`` value, for callers that queue
    requests and must answer in time). Blind Hex choices never look at the
    opponent's secret pending choice. Raises ValueError when the game is over, the
    player is not to move, or the level is unknown.
    """
    lvl = level(level_name)
    if position.outcome is not None:
        raise ValueError("the game is over: there is nothing to choose")
    movers = position.to_move
    if player is None:
        player = movers[0]
    elif player not in movers:
        raise ValueError(f"{player} is not to move (to move: {', '.join(movers)})")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    # Mix in how far the game is, so a caller that passes the same seed every move does
    # not get the same dice every move (Blind Hex: a pending secret choice is not counted).
    rng = random.Random(seed * 1_000_003 + _public_plies(position))
    stop = _deadline(lvl, budget, iterations, deadline)
    # Each adapter is imported only when its game is played (they are large).
    if isinstance(position, Hex):
        from .hex import ai as hex_ai

        return hex_ai.choose(position, lvl.temperature, rng, iterations, stop)
    if isinstance(position, InpHexion):
        from . import inphexion_ai

        return inphexion_ai.choose(position, lvl.temperature, rng, iterations, stop)
    if isinstance(position, BlindHex):
        from . import blindhex_ai

        return blindhex_ai.choose(position, player, lvl.temperature, rng, iterations, stop)
    raise ValueError(f"no AI for the game '{position.game}'")


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the search makes of a position, for the player it chose for (``player``)."""

    player: str
    #: the search's action line (the move it would play)
    best: str
    #: ``player``'s chance to win (0–1); None when the move came without a search (Hex's opening book)
    win: float | None
    #: the result is proven (``win`` is then 1.0 or 0.0): by the solver, or Hex's virtual connections
    proven: bool


def evaluate(position: Position, *, iterations: int, seed: int = 0, player: str | None = None) -> Evaluation:
    """The search's best action and its value of the position, from :func:`choose` at its
    strongest (``hard``, most searched move) with ``iterations`` iterations (deterministic for a
    seed). The value is the root's (:func:`engine.ai.mcts.root_value`) or, for Hex, the virtual
    connections' proof. Raises ValueError as :func:`choose` does, and for a Blind Hex card choice
    or aside (not searched by a tree: nothing to evaluate)."""
    from .mcts import root_value, watch

    if isinstance(position, BlindHex) and position.phase != "write":
        raise ValueError("only Blind Hex letters are searched by a tree: card choices have no evaluation")
    with watch() as searches:
        best = choose(position, "hard", seed=seed, iterations=iterations, player=player)
    colour = player if player is not None else position.to_move[0]
    if isinstance(position, Hex):
        from .hex import ai as hex_ai

        report = hex_ai.LAST
        # Before the first stone of a game with the pie rule the adapter's proof ignores the coming swap
        # (the opponent takes the winning stone): no proof there, the move is worth what it leads to.
        pie_to_come = bool(position.options.variants) and not position.actions
        if report is not None and report.proven is not None and not pie_to_come:
            return Evaluation(colour, best, 1.0 if report.proven == "win" else 0.0, True)
        if report is not None and (report.book or (pie_to_come and report.proven is not None)):
            return Evaluation(colour, best, None, False)
    # The first search is the one of this position (later ones look at the relocations or letters after it).
    value = root_value(searches[0]) if searches else None
    if value is None:
        return Evaluation(colour, best, None, False)
    return Evaluation(colour, best, value.win, value.proven)


def _public_plies(position: Position) -> int:
    """The number of actions everyone has seen (a secret choice not yet revealed excluded)."""
    return len(position.public_record())


def _deadline(lvl: Level, budget: float | None, iterations: int | None, deadline: float | None) -> float | None:
    """The ``time.perf_counter()`` moment to stop at, or None for an iteration-bounded search."""
    if iterations is not None and deadline is None:
        return None
    seconds = lvl.budget if budget is None else budget
    if deadline is not None:
        # Queued requests get what is left of their wall-clock allowance; one whose allowance is
        # spent searches nothing and answers at once with its quick move (the book, a decisive
        # move, the priors' best).
        seconds = min(seconds, max(0.0, deadline - time.time()))
    return time.perf_counter() + seconds
