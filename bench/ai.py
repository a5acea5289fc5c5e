"""Strength of the AI (engine.ai) against fixed opponents, as a markdown table (a script, not a test).

    .venv/bin/python -m bench.ai [--games N] [--hex-games N] [--jobs 2] [--only NAME] [--seed 1]
                                 [--mohex PATH] [--mohex-games 40]

Matchups (issue targets in brackets):

- inpHeXion 7×7: hard vs random [≥ 99%], hard vs greedy one-ply [≥ 90%], hard vs easy [≥ 80%]
- Hex 9×9 without swap: hard vs OpenSpiel's C++ ``MCTSBot`` with the same time per move [≥ 60%]
- Blind Hex: hard vs random [≥ 80%]
- Hex against MoHex 2.0 (``--mohex PATH`` or ``MOHEX=PATH``; see ``research/mohex_match.py``), no swap,
  openings from a fixed list with both colour assignments: 9×9 at 1 s a move (medium) [≥ 25%],
  9×9 at 3 s (hard) [≥ 25%], 11×11 at 1 s (medium) [≥ 10%]. One game at a time. Without a
  MoHex binary the bench says how to build one and skips these rows.

Colours alternate every game (game i: the AI is the first colour when i is even).
``--scale`` multiplies every level's time per move (the OpenSpiel bot gets the same
time as the AI), for quick runs. ``--jobs`` plays that many games at once (one
process each); time budgets are wall-clock, so a busy machine weakens both sides
of the OpenSpiel matchup alike.

The greedy player takes a winning action if there is one, else avoids actions that
lose at once or let the opponent win with their next action, else plays at random.
The OpenSpiel bot is ``pyspiel.MCTSBot`` (C++) with a random-rollout evaluator
(1 rollout), ``uct_c = 2``, solver on, unlimited simulations and
``max_wall_clock_time`` equal to the AI's time per move, as OpenSpiel's own MCTS
example configures it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine import GameOptions, Position, make_options
from engine.ai import LEVELS, choose
from research.mohex_match import main_rows as mohex_rows

Agent = Callable[[Position, str, random.Random], str]


# -- opponents -------------------------------------------------------------------------
def ai_agent(level: str, scale: float) -> Agent:
    """The engine's AI at ``level`` with its time budget × ``scale``."""
    budget = LEVELS[level].budget * scale

    def play(pos: Position, player: str, rng: random.Random) -> str:
        return choose(pos, level, seed=rng.getrandbits(32), budget=budget, player=player)

    return play


def random_agent(pos: Position, player: str, rng: random.Random) -> str:
    """A uniformly random legal action."""
    return rng.choice(pos.legal_actions(player))


def _wins_now(pos: Position, action: str, player: str) -> bool | None:
    """True if ``action`` wins at once for ``player``, False if it loses at once, None otherwise."""
    trial = pos.copy()
    trial.play(action, player)
    if trial.outcome is None:
        return None
    return trial.outcome.winner == player


def greedy_agent(pos: Position, player: str, rng: random.Random) -> str:
    """One-ply greedy: take a win; avoid losing at once or handing the opponent a win; else random."""
    actions = pos.legal_actions(player)
    rng.shuffle(actions)
    safe, not_losing = [], []
    for a in actions:
        trial = pos.copy()
        trial.play(a, player)
        if trial.outcome is not None:
            if trial.outcome.winner == player:
                return a
            continue
        not_losing.append(a)
        # The opponent's reply: only when the turn has passed to them.
        if trial.to_move == [player]:
            safe.append(a)
            continue
        opponent = trial.to_move[0]
        if not any(_wins_now(trial, b, opponent) for b in trial.legal_actions(opponent)):
            safe.append(a)
    if safe:
        return safe[0]
    return not_losing[0] if not_losing else actions[0]


def openspiel_agent(scale: float) -> Agent:
    """OpenSpiel's C++ MCTSBot for Hex, thinking as long as the hard level."""
    import pyspiel

    seconds = LEVELS["hard"].budget * scale
    games: dict[int, object] = {}

    def play(pos: Position, player: str, rng: random.Random) -> str:
        n = pos.size
        game = games.get(n) or games.setdefault(n, pyspiel.load_game("hex", {"board_size": n}))
        bot = pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, rng.getrandbits(31)), 2.0, 10**9, 1000, True,
            rng.getrandbits(31), False, pyspiel.ChildSelectionPolicy.UCT, seconds,
        )
        state = game.new_initial_state()
        for a in pos.actions:
            state.apply_action(pos.grid.parse(a))
        return pos.grid.name(bot.step(state))

    return play


# -- matches ---------------------------------------------------------------------------------
@dataclass
class Result:
    """Games of one matchup: wins of the AI, and time per move of each side."""

    games: int = 0
    wins: int = 0
    ai_first: int = 0
    moves: list[int] = field(default_factory=lambda: [0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])


def play_game(options: GameOptions, agents: tuple[Agent, Agent], seed: int) -> tuple[int, list[int], list[float]]:
    """One game; agents[seat] plays that seat. Returns (winning seat, moves, seconds) per seat."""
    rng = random.Random(seed)
    pos = options.new_position()
    moves, seconds = [0, 0], [0.0, 0.0]
    while pos.outcome is None:
        for colour in list(pos.to_move):
            seat = pos.seat_of_colour(colour)
            t = time.perf_counter()
            line = agents[seat](pos, colour, rng)
            seconds[seat] += time.perf_counter() - t
            moves[seat] += 1
            pos.play(line, colour)
            if pos.outcome is not None:
                break
    return pos.seat_of_colour(pos.outcome.winner), moves, seconds


@dataclass(frozen=True)
class Matchup:
    """A named pairing: the AI's agent against an opponent, on one game's options."""

    name: str
    game: str
    size: int | None
    variants: tuple[str, ...]
    opponent: str
    target: float


MATCHUPS = (
    Matchup("inpHeXion 7×7: hard vs random", "inphexion", 7, (), "random", 0.99),
    Matchup("inpHeXion 7×7: hard vs greedy", "inphexion", 7, (), "greedy", 0.90),
    Matchup("inpHeXion 7×7: hard vs easy", "inphexion", 7, (), "easy", 0.80),
    Matchup("Hex 9×9: hard vs OpenSpiel MCTSBot", "hex", 9, (), "openspiel", 0.60),
    Matchup("Blind Hex: hard vs random", "blindhex", None, (), "random", 0.80),
)


def _agent(name: str, scale: float) -> Agent:
    if name == "random":
        return random_agent
    if name == "greedy":
        return greedy_agent
    if name == "openspiel":
        return openspiel_agent(scale)
    return ai_agent(name, scale)


def _one(args: tuple[Matchup, str, float, int, int]) -> tuple[bool, bool, list[int], list[float]]:
    """Worker: game ``i`` of a matchup. Returns (AI won, AI moved first, moves, seconds) with the AI's side first."""
    m, level, scale, i, seed = args
    first = None
    if m.game == "blindhex":
        # The cut: alternate who wins it, independently of who is which colour.
        first = "x" if i % 4 < 2 else "o"
    options = make_options(m.game, m.size, m.variants, first)
    ai, other = ai_agent(level, scale), _agent(m.opponent, scale)
    ai_seat = i % 2
    agents = (ai, other) if ai_seat == 0 else (other, ai)
    winner, moves, seconds = play_game(options, agents, seed)
    return winner == ai_seat, ai_seat == 0, [moves[ai_seat], moves[1 - ai_seat]], [seconds[ai_seat], seconds[1 - ai_seat]]


def run(m: Matchup, games: int, scale: float, seed: int, jobs: int, level: str = "hard") -> Result:
    """Play ``games`` games of a matchup, colours alternating."""
    res = Result()
    tasks = [(m, level, scale, i, seed * 100003 + i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            outs = list(ex.map(_one, tasks))
    else:
        outs = [_one(t) for t in tasks]
    for won, first, moves, seconds in outs:
        res.games += 1
        res.wins += won
        res.ai_first += first
        for s in (0, 1):
            res.moves[s] += moves[s]
            res.seconds[s] += seconds[s]
    return res


def main() -> int:
    """Run the matchups and print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="games per inpHeXion / Blind Hex matchup")
    p.add_argument("--hex-games", type=int, default=20, help="games of Hex against OpenSpiel")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every time per move")
    p.add_argument("--jobs", type=int, default=2, help="games played at once")
    p.add_argument("--only", default=None, help="run only matchups whose name contains this")
    p.add_argument("--level", default="hard", help="the AI level under test")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mohex", default=None, help="path of a MoHex binary (or set MOHEX)")
    p.add_argument("--mohex-games", type=int, default=40, help="games per MoHex row")
    args = p.parse_args()
    print("| matchup | games | colours | AI wins | win rate | target | s/move AI | s/move opponent |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for m in MATCHUPS:
        if args.only and args.only.lower() not in m.name.lower():
            continue
        games = args.hex_games if m.game == "hex" else args.games
        t = time.perf_counter()
        r = run(m, games, args.scale, args.seed, args.jobs, args.level)
        rate = r.wins / r.games
        per = [r.seconds[s] / max(1, r.moves[s]) for s in (0, 1)]
        ok = "✓" if rate >= m.target else "✗"
        print(
            f"| {m.name.replace('hard', args.level, 1)} | {r.games} | AI first in {r.ai_first} | {r.wins} | "
            f"{rate:.0%} {ok} | ≥ {m.target:.0%} | {per[0]:.2f} | {per[1]:.2f} |",
            flush=True,
        )
        print(f"<!-- {m.name}: {time.perf_counter() - t:.0f} s -->", file=sys.stderr, flush=True)
    print()
    mohex_rows(args.mohex, args.mohex_games, args.seed, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
