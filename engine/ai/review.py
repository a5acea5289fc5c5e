"""A review of a finished (or unfinished) game: what each turn did to the mover's chances.

For every turn the search (:func:`engine.ai.evaluate`, a fixed number of iterations per
position, so a seed gives the same review anywhere) values the position before it and the
position after it, both for the player who moved; the drop between the two marks the turn:

- ``?!`` (inaccuracy) a drop of at least 0.05, ``?`` (mistake) 0.10, ``??`` (blunder) 0.15.
  These are lichess's judgement thresholds (lila ``Advice.scala``: 0.1, 0.2 and 0.3 of
  "winning chances", which run from -1 to 1, i.e. 5, 10 and 15 points of win probability).
- A turn that is the search's own best move is never marked: the search would have played
  it, so a drop there is the noise of two estimates, not the player's error.
- Where the search proves the result (its solver, or Hex's virtual connections) the value is
  1.0 or 0.0 and the turn says so (``proved_before`` / ``proved_after``).

Per player: lichess's accuracy (https://lichess.org/page/accuracy; lila
``modules/analyse/src/main/AccuracyPercent.scala``), computed on win probability directly
(lichess first turns centipawns into it): a turn's accuracy is
``103.1668100711649·exp(-0.04354415386753951·d) - 3.166924740191411 + 1`` clamped to 0–100,
``d`` the drop in win percent (100 when the chance did not drop); a player's is the mean of
their volatility-weighted mean and their harmonic mean (windows of the first player's win
percent, ``clamp(turns // 10, 2, 8)`` long, weighted by their standard deviation clamped to
0.5–12), and counts of ``?!``, ``?`` and ``??``.

What a turn is, per game:

- Hex: one action (``swap`` is a move like any other);
- inpHeXion: a whole turn, the move (or placement) with its relocations, valued as one;
- Blind Hex: each letter. Card choices (and the aside) are not reviewed: they are made in
  secret against a choice the player cannot see, so the best choice is a mixed strategy
  (what the AI plays), not a move that hindsight could name; judging them by the opponent's
  revealed cards would blame a sound choice for bad luck. They appear with null values. At
  the end of a round (the next step is a secret choice) the position is valued by random
  games from the public position, as the letters' search values the rounds after its own.

A review can also be computed one position at a time, so that a caller runs each position's
search where and when it likes (a worker between two moves), keeps every value as it comes (a
restart then resumes the review) and puts the review together at the end: :func:`needed` lists
the positions, :func:`value_at` values one, :func:`assemble` makes the review of them — exactly
:func:`review` of the same game, iterations and seed (a test pins it).

>>> from engine.games import make_options
>>> opts = make_options("hex", 3, [], None)
>>> needed(opts, ["b2", "a1"])
[0, 1, 2]
>>> values = {k: value_at(opts, ["b2", "a1"], k, iterations=50, seed=1) for k in needed(opts, ["b2", "a1"])}
>>> assemble(opts, ["b2", "a1"], values, 50).turns[0].move
'b2'

The CLI prints it (``python -m engine hex --size 5 … --review``); the bot stores it
(``bot/service/reviews.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..blindhex import BlindHex
from ..position import GameOptions, Position
from ..record import Record
from . import evaluate

#: (smallest drop in win probability, mark), worst first (lichess's thresholds, see the module docstring)
MARKS: tuple[tuple[float, str], ...] = ((0.15, "??"), (0.10, "?"), (0.05, "?!"))
#: the review's search iterations per position, per game (measured in ``bench/review.py``)
ITERATIONS: dict[str, int] = {"hex": 1000, "inphexion": 1000, "blindhex": 1000}
#: random games that value a Blind Hex position between rounds (no tree search there)
ROUND_PLAYOUTS = 400
#: how many opening-book moves a value may look through (the book gives moves, not values)
BOOK_DEPTH = 12


@dataclass(frozen=True, slots=True)
class Value:
    """A position's value: the chance that seat 0 wins, whether it is proven, and the best line."""

    seat0: float
    proven: bool
    best: str | None = None

    def for_seat(self, seat: int) -> float:
        """The chance that ``seat`` wins."""
        return self.seat0 if seat == 0 else 1.0 - self.seat0


@dataclass(slots=True)
class TurnReview:
    """One turn: who played what, the mover's chances before and after, the search's move, the mark."""

    #: the index of the turn's first action in the record
    index: int
    move: str
    #: the colour the mover plays at the end of the game (after a swap: the new one)
    player: str
    seat: int
    win_before: float | None = None
    win_after: float | None = None
    best: str | None = None
    mark: str | None = None
    proved_before: bool = False
    proved_after: bool = False
    #: False for turns not reviewed (Blind Hex card choices)
    reviewed: bool = True

    @property
    def drop(self) -> float:
        """How much the mover's chance fell (0 when it rose, or when the move was the search's best)."""
        if self.win_before is None or self.win_after is None or self.move == self.best:
            return 0.0
        return max(0.0, self.win_before - self.win_after)

    def to_json(self) -> dict[str, Any]:
        """The CLI's object for this turn."""
        return {
            "move": self.move,
            "player": self.player,
            "win_before": _round(self.win_before),
            "win_after": _round(self.win_after),
            "best": self.best,
            "mark": self.mark,
            "proved_before": self.proved_before,
            "proved_after": self.proved_after,
        }


@dataclass(slots=True)
class PlayerSummary:
    """A player's accuracy (0–100, None without a reviewed turn) and their marks."""

    accuracy: float | None = None
    turns: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    def to_json(self) -> dict[str, Any]:
        """The CLI's object for this player."""
        return {
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "turns": self.turns,
            "?!": self.inaccuracies,
            "?": self.mistakes,
            "??": self.blunders,
        }


@dataclass(slots=True)
class Review:
    """A game's review: its turns in order and, per colour (as played at the end), a summary."""

    turns: list[TurnReview]
    players: dict[str, PlayerSummary] = field(default_factory=dict)
    iterations: int = 0


def mark(drop: float) -> str | None:
    """The mark for a drop in the mover's win probability (see :data:`MARKS`).

    >>> mark(0.2), mark(0.12), mark(0.05), mark(0.049)
    ('??', '?', '?!', None)
    """
    for threshold, sign in MARKS:
        # A hair under the threshold (float noise in before - after) still counts.
        if drop >= threshold - 1e-9:
            return sign
    return None


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move (0–100) from the drop in the mover's win probability (0–1)."""
    if drop <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop * 100) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def _stdev(xs: Sequence[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))


def summarise(turns: Sequence[TurnReview], colours: Sequence[str]) -> dict[str, PlayerSummary]:
    """Per colour: lichess's game accuracy over the reviewed turns and the counts of marks."""
    reviewed = [t for t in turns if t.reviewed and t.win_before is not None and t.win_after is not None]
    out = {c: PlayerSummary() for c in colours}
    if not reviewed:
        return out
    # The first player's win percent before the first reviewed turn and after each one.
    first = reviewed[0]
    series = [100 * (first.win_before if first.seat == 0 else 1 - first.win_before)]  # type: ignore[operator]
    series += [100 * (t.win_after if t.seat == 0 else 1 - t.win_after) for t in reviewed]  # type: ignore[operator]
    size = max(2, min(8, len(reviewed) // 10))
    windows = [series[:size]] * (min(size, len(series)) - 2)
    windows += [series[i:i + size] for i in range(len(series) - size + 1)]
    weights = [max(0.5, min(12.0, _stdev(w))) for w in windows]
    per: dict[str, list[tuple[float, float]]] = {c: [] for c in colours}
    for t, weight in zip(reviewed, weights):
        per[t.player].append((move_accuracy(t.drop), weight))
    for t in reviewed:
        s = out[t.player]
        s.turns += 1
        s.inaccuracies += t.mark == "?!"
        s.mistakes += t.mark == "?"
        s.blunders += t.mark == "??"
    for colour, pairs in per.items():
        if not pairs:
            continue
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        # lila's harmonic mean; an accuracy of 0 counts as 1 so that one blunder does not make it 0.
        harmonic = len(pairs) / sum(1 / max(1.0, a) for a, _ in pairs)
        out[colour].accuracy = (weighted + harmonic) / 2
    return out


def turn_spans(options: GameOptions, actions: Sequence[str]) -> list[tuple[int, int]]:
    """The record's turns as ``[start, end)`` spans of actions: an inpHeXion relocation belongs
    to the turn before it; every other action is a turn of its own. Raises ActionError for an
    action the position refuses."""
    pos = options.new_position()
    spans: list[tuple[int, int]] = []
    for i, action in enumerate(actions):
        joins = pos.game == "inphexion" and pos.phase == "relocate" and spans
        pos.play(action, _actor(pos, action))
        if joins:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _actor(pos: Position, action: str) -> str:
    """Who plays ``action`` (a Blind Hex secret choice names its player, ``x:1+4``)."""
    if len(pos.to_move) == 1:
        return pos.to_move[0]
    return action.split(":", 1)[0].strip()


class _Valuer:
    """Values positions of one game (memoised by the number of actions played)."""

    def __init__(self, iterations: int, seed: int) -> None:
        self.iterations = iterations
        self.seed = seed
        self.memo: dict[int, Value] = {}

    def value(self, k: int, pos: Position) -> Value:
        """The value of ``pos``, the position after the record's first ``k`` actions."""
        if k not in self.memo:
            self.memo[k] = self._value(pos, BOOK_DEPTH)
        return self.memo[k]

    def _value(self, pos: Position, depth: int) -> Value:
        if pos.outcome is not None:
            winner = pos.outcome.winner
            if winner is None:
                return Value(0.5, True)
            return Value(1.0 if pos.seat_of_colour(winner) == 0 else 0.0, True)
        if isinstance(pos, BlindHex) and pos.phase != "write":
            return self._playouts(pos)
        ev = evaluate(pos, iterations=self.iterations, seed=self.seed)
        seat = pos.seat_of_colour(ev.player)
        after = pos.copy()
        # In canonical notation, as the record's actions are (so that the two compare).
        best = " ".join(after.play(ev.best))
        if ev.win is not None:
            return Value(ev.win if seat == 0 else 1.0 - ev.win, ev.proven, best)
        # Hex's opening book answered without searching: the position is worth what its move leads to.
        if depth <= 0:
            child = self._playouts(after)
        else:
            child = self._value(after, depth - 1)
        return Value(child.seat0, child.proven, best)

    def _playouts(self, pos: Position) -> Value:
        """Seat 0's share of :data:`ROUND_PLAYOUTS` random games from ``pos`` (public information only)."""
        rng = random.Random(self.seed * 1_000_003 + len(pos.actions))
        wins = 0.0
        for _ in range(ROUND_PLAYOUTS):
            winner = pos.random_playout(rng).winner
            wins += 0.5 if winner is None else float(pos.seat_of_colour(winner) == 0)
        return Value(wins / ROUND_PLAYOUTS, False)


def needed(options: GameOptions, actions: Sequence[str]) -> list[int]:
    """The positions a review values, each as the number of the record's actions played before it,
    in the order a review goes through them (a Blind Hex card choice needs none)."""
    pos = options.new_position()
    out: list[int] = []
    for start, end in turn_spans(options, actions):
        if not (isinstance(pos, BlindHex) and pos.phase != "write"):
            out += [k for k in (start, end) if k not in out]
        for action in actions[start:end]:
            pos.play(action, _actor(pos, action))
    return out


def value_at(options: GameOptions, actions: Sequence[str], k: int, *, iterations: int, seed: int) -> Value:
    """The review's value of the position after the first ``k`` actions (a search of ``iterations``;
    CPU-bound, the unit of work a worker does between moves)."""
    pos = Record(options, list(actions[:k])).replay()
    return _Valuer(iterations, seed).value(k, pos)


def assemble(options: GameOptions, actions: Sequence[str], values: Mapping[int, Value], iterations: int) -> Review:
    """The review from the values of every position in :func:`needed` (KeyError for a missing one),
    turn by turn as :func:`engine.ai.review.review` makes it."""
    pos = options.new_position()
    turns: list[TurnReview] = []
    for start, end in turn_spans(options, actions):
        before = pos.copy()
        mover = _actor(pos, actions[start])
        seat = pos.seat_of_colour(mover)
        played: list[str] = []
        for action in actions[start:end]:
            played += pos.play(action, _actor(pos, action))
        turn = TurnReview(start, " ".join(played), mover, seat)
        if isinstance(before, BlindHex) and before.phase != "write":
            turn.reviewed = False
        else:
            v0, v1 = values[start], values[end]
            turn.win_before, turn.win_after = v0.for_seat(seat), v1.for_seat(seat)
            turn.proved_before, turn.proved_after = v0.proven, v1.proven
            turn.best = v0.best.split()[0] if isinstance(before, BlindHex) and v0.best else v0.best
            turn.mark = mark(turn.drop)
        turns.append(turn)
    for t in turns:
        t.player = pos.colour_of_seat(t.seat)
    return Review(turns, summarise(turns, [pos.colour_of_seat(0), pos.colour_of_seat(1)]), iterations)


def review(
    options: GameOptions,
    actions: Sequence[str],
    *,
    iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review the game ``actions`` (canonical or not) of ``options``: every turn's values, best
    move and mark, and each player's summary. ``iterations``: per position (default: the game's
    :data:`ITERATIONS`); ``progress(done, total)`` is called after each turn. CPU-bound (a search
    per position): callers with an event loop run it in a worker. Raises ActionError for an
    action the game refuses."""
    # The turns are put together in one place (assemble); here, only the values of the positions
    # it needs, in the game's order.
    iterations = iterations if iterations is not None else ITERATIONS[options.game]
    spans = turn_spans(options, actions)
    wanted = set(needed(options, actions))
    turn_ends = {end: done for done, (_, end) in enumerate(spans, 1)}
    valuer = _Valuer(iterations, seed)
    values: dict[int, Value] = {}
    pos = options.new_position()
    for k in range(len(actions) + 1):
        if k in wanted:
            values[k] = valuer.value(k, pos)
        if progress is not None and k in turn_ends:
            progress(turn_ends[k], len(spans))
        if k < len(actions):
            pos.play(actions[k], _actor(pos, actions[k]))
    return assemble(options, actions, values, iterations)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)
