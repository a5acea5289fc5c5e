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
- :mod:`~engine.ai.hex_ai`: Hex (bridge-aware random fills, mate-in-one and forced
  blocks, pattern priors, swap as a tree move; the playouts compiled in
  :mod:`~engine.ai.hex_playout_kernel`, the H-search's rules in :mod:`~engine.ai.hex_vc_kernel`);
- :mod:`~engine.ai.hex_book`: Hex's opening book (a stronger player's moves in the
  first plies and in positions games often reach, looked up instead of searched);
- :mod:`~engine.ai.inphexion_ai`: inpHeXion (engine steps, whole turns with
  relocations, pie/free-reply/neutral);
- :mod:`~engine.ai.blindhex_ai`: Blind Hex (card choices as an equilibrium of a
  sampled matrix game on public information only; letters by tree search);
- :mod:`~engine.ai.levels`: time budgets and deliberate imperfection;
- :mod:`~engine.ai.pool`: the process pool for asyncio callers.

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

from ..blindhex import BlindHex
from ..hex import Hex
from ..inphexion import InpHexion
from ..position import Position
from .levels import LEVELS, Level, level

__all__ = ["LEVELS", "Level", "choose"]


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
        from . import hex_ai

        return hex_ai.choose(position, lvl.temperature, rng, iterations, stop)
    if isinstance(position, InpHexion):
        from . import inphexion_ai

        return inphexion_ai.choose(position, lvl.temperature, rng, iterations, stop)
    if isinstance(position, BlindHex):
        from . import blindhex_ai

        return blindhex_ai.choose(position, player, lvl.temperature, rng, iterations, stop)
    raise ValueError(f"no AI for the game '{position.game}'")


def _public_plies(position: Position) -> int:
    """The number of actions everyone has seen (a secret choice not yet revealed excluded)."""
    return len(position.public_record())


def _deadline(lvl: Level, budget: float | None, iterations: int | None, deadline: float | None) -> float | None:
    """The ``time.perf_counter()`` moment to stop at, or None for an iteration-bounded search."""
    if iterations is not None and deadline is None:
        return None
    seconds = lvl.budget if budget is None else budget
    if deadline is not None:
        # Queued requests get what is left of their wall-clock allowance, but always a little.
        seconds = min(seconds, max(0.05, deadline - time.time()))
    return time.perf_counter() + seconds
