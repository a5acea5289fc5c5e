"""Learn the Hex search's move priors from MoHex's choices, and write them into the engine's data file.

Each command is run by hand (MoHex is a measuring tool, never a dependency):

``python -m tools.hex_priors selfplay --mohex PATH --games N --out FILE.jsonl --seed S``
    MoHex 2.0 plays itself on 9×9 from openings of two random stones, one thread,
    ``max_games`` playouts a move. Each game is one JSON line: its moves, and for each
    whether MoHex *searched* for it (its log says "must search state" and its solver
    did not find a win): only searched moves teach shape; once a side's connections
    decide the game, MoHex's choice among winning (or losing) moves says little.

``python -m tools.hex_priors from-matches MATCH.err... --out FILE.jsonl[.gz]``
    MoHex's moves in match games against this AI, read from the stderr of ``python -m bench.ai
    --mohex`` runs (each game's line has its moves and the ply of MoHex's first proof; its
    moves before that teach shape), each game once, as JSON lines like ``selfplay``'s.

``python -m tools.hex_priors from-book CACHE.jsonl.gz... --out FILE.jsonl[.gz] [--min-stones K]``
    MoHex's choices in the opening book's caches (``tools/hex_book.py``: one position each,
    searched 2 s or more), as one-position games: the position's moves, then MoHex's, the
    only one that teaches. Positions of fewer than ``K`` stones (5) are left out, the book
    answers those in play, and so are those MoHex valued as decided (its choice's value
    outside 0.05–0.95), for the reason ``selfplay`` leaves proven moves out.

``python -m tools.hex_priors train DATA.jsonl... [--test TEST.jsonl...] [--out engine/ai/hex/data/prior_weights.json.gz]``
    Fits the weights of :mod:`engine.ai.hex.patterns` features (a conditional logit:
    the probability of a move is its exp(score) over all legal moves' exp(scores))
    on the searched moves, holds 10% of the games out, prints top-1/top-3 agreement
    with MoHex on them (and, after the final fit on all, on each ``--test`` file) for the
    learned model and for the old hand-written priors, and writes the weights as the engine's
    package data file (gzip-compressed JSON, read by :func:`engine.ai.hex.patterns.parse_weights`).

``python -m tools.hex_priors agree TEST.jsonl [--iterations N] [--bias 0 2.5]``
    How often the whole search plays MoHex's move, per progressive-bias constant
    (0 is the search without the learned priors: the baseline, same process).

The shipped weights come from the games in ``tools/data/hex-priors/`` (MoHex 2.0, built as
``/work/shared/notes/mohex.md`` says): ``selfplay.jsonl`` (its self-play at 5,000 playouts a
move), ``matches.jsonl`` (its moves, before it proved the game, in ``research/mohex_match.py``
games against this AI, 5,000 playouts a move), ``match-logs.jsonl.gz`` (the same from the
match rows of 2026-11-27, 1 or 3 s a move, 9×9 and 11×11: ``from-matches``) and
``test.jsonl`` (self-play games kept out of training); the fit is deterministic::

    python -m tools.hex_priors train tools/data/hex-priors/selfplay.jsonl \
        tools/data/hex-priors/matches.jsonl tools/data/hex-priors/match-logs.jsonl.gz \
        --test tools/data/hex-priors/test.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from engine.ai.hex.packaged import PRIORS_FILE
from engine.geometry import grid
from tools.data_files import open_text, write_json_gz

#: the engine's package data file the weights are written to
PRIORS_DATA = Path(__file__).resolve().parent.parent / "engine" / "ai" / "hex" / "data" / PRIORS_FILE


def selfplay(path: str, games: int, out: str, seed: int, playouts: int, size: int = 9) -> None:
    """MoHex against itself; one JSON line per game appended to ``out``."""
    from research import mohex_match as mm

    rng = random.Random(seed)
    g = grid(size)
    mohex = mm.MoHex(path, size)
    mohex.command(f"param_mohex max_games {playouts}")
    mohex.command("param_mohex max_time 30")
    try:
        with open(out, "a") as f:
            for i in range(games):
                t0 = time.perf_counter()
                cells = [g.name(c) for c in range(size * size)]
                moves = rng.sample(cells, 2)
                searched = [False, False]
                mohex.command("clear_board")
                for j, m in enumerate(moves):
                    mohex.command(f"play {'bw'[j % 2]} {m}")
                while True:
                    colour = "bw"[len(moves) % 2]
                    mohex.log.seek(0, 2)
                    start = mohex.log.tell()
                    try:
                        move = mohex.command(f"genmove {colour}").lower()
                    except (mm.MoHexCrashed, RuntimeError):
                        mohex.start()
                        mohex.command(f"param_mohex max_games {playouts}")
                        mohex.command("param_mohex max_time 30")
                        break
                    mohex.log.seek(start)
                    text = mohex.log.read().decode(errors="replace")
                    if move == "resign" or move == "swap-pieces":
                        break
                    moves.append(move)
                    searched.append("must search state" in text and "Winning sequence found" not in text)
                    over = mohex.command("final_score") if len(moves) >= 2 * size - 1 else ""
                    if over and over[0] in "BW":
                        break
                    if len(moves) == size * size:
                        break
                f.write(dump((size, moves, searched)))
                f.flush()
                print(f"game {i}: {len(moves)} moves, {sum(searched)} searched, "
                      f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    finally:
        mohex.close()


def main() -> None:
    """Command line: ``selfplay``, ``from-matches``, ``train`` or ``agree``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("selfplay")
    s.add_argument("--mohex", required=True)
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--out", required=True)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--playouts", type=int, default=5000)
    t = sub.add_parser("train")
    t.add_argument("data", nargs="+")
    t.add_argument("--test", nargs="*", default=[], help="games never trained on, reported on after the final fit")
    t.add_argument("--out", default=str(PRIORS_DATA))
    fm = sub.add_parser("from-matches")
    fm.add_argument("stderr", nargs="+", help="the stderr of python -m bench.ai --mohex runs")
    fm.add_argument("--out", required=True)
    fb = sub.add_parser("from-book")
    fb.add_argument("caches", nargs="+", help="tools/data/hex-book/N.jsonl.gz files")
    fb.add_argument("--out", required=True)
    fb.add_argument("--min-stones", type=int, default=5)
    g = sub.add_parser("agree")
    g.add_argument("data", nargs="+")
    g.add_argument("--iterations", type=int, default=2000)
    g.add_argument("--positions", type=int, default=250)
    g.add_argument("--bias", type=float, nargs="+", default=[0.0, 2.5])
    a = p.parse_args()
    if a.cmd == "selfplay":
        selfplay(a.mohex, a.games, a.out, a.seed, a.playouts)
    elif a.cmd == "from-matches":
        records = from_matches(a.stderr)
        with open_text(Path(a.out), "w") as f:
            for record in records:
                f.write(dump(record))
        print(f"{len(records)} games, {sum(map(sum, (r[2] for r in records)))} MoHex moves that teach shape",
              file=sys.stderr)
    elif a.cmd == "from-book":
        named = [c for c in a.caches if not Path(c).name.split(".")[0].isdigit()]
        if named:
            p.error(f"a book cache is named after its board size (9.jsonl.gz, 11.jsonl.gz): not {named[0]}")
        records = from_book(a.caches, a.min_stones)
        with open_text(Path(a.out), "w") as f:
            for record in records:
                f.write(dump(record))
        print(f"{len(records)} book positions that teach shape", file=sys.stderr)
    elif a.cmd == "agree":
        agree(a.data, a.iterations, a.positions, a.bias)
    else:
        train(a.data, a.out, a.test)


#: a shape weighs only when it was offered this many times in the training data (rarer ones
#: fall back to their six-neighbour ``near`` code)
MIN_SHAPE = 5
#: L2 penalty per weight, per training position
L2 = 3e-5


#: a game as training data: (board size, moves, whether each move teaches shape)
Record = tuple[int, list[str], list[bool]]


def load(paths: list[str]) -> list[Record]:
    """Games from JSON lines files (one game a line, as ``selfplay`` and ``from-matches`` write)."""
    games: list[Record] = []
    for path in paths:
        with open_text(Path(path), "r") as f:
            for line in f:
                r = json.loads(line)
                games.append((r["size"], r["moves"], r["searched"]))
    return games


def dump(record: Record) -> str:
    """One game as the JSON line :func:`load` reads."""
    size, moves, searched = record
    return json.dumps({"size": size, "moves": moves, "searched": searched}) + "\n"


def from_matches(paths: list[str]) -> list[Record]:
    """MoHex's moves in ``research/mohex_match.py`` games against this AI, from the matches' stderr.

    A MoHex move teaches shape when it came before the ply at which MoHex first proved the
    game (the same rule as ``selfplay``'s: a move chosen among proven ones says little);
    Black's first stone is the match's opening, not MoHex's choice. A game played twice
    move for move counts once.
    """
    from research.mohex_review import match_games, mover_plies

    out: list[Record] = []
    seen: set[tuple[str, ...]] = set()
    for path in paths:
        for g in match_games(path):
            if tuple(g.moves) in seen:
                continue
            seen.add(tuple(g.moves))
            # moves[k] is played with k stones on the board, at ply k + 1.
            end = len(g.moves) if g.mohex_proof is None else g.mohex_proof - 1
            taught = set(mover_plies("white" if g.ours == "black" else "black", end))
            out.append((g.size, g.moves, [k in taught for k in range(len(g.moves))]))
    return out


#: MoHex's choice teaches shape only when its value for it is inside this range (not decided)
UNDECIDED = (0.05, 0.95)


def from_book(paths: list[str], min_stones: int = 5) -> list[Record]:
    """MoHex's choices in opening-book caches, each as a game whose last move alone teaches.

    A position searched more than once counts once, with its longest search (as the book
    itself reads the cache). Left out: positions of fewer than ``min_stones`` stones, a
    choice that is not a cell (``resign``), and one whose value says the game is decided.
    """
    from tools.hex_book import is_cell
    from tools.hex_book import load as load_cache

    out: list[Record] = []
    for path in paths:
        size = int(Path(path).name.split(".")[0])
        for r in load_cache(Path(path)).values():
            value = r["values"].get(r["mohex"])
            if len(r["moves"]) < min_stones or not is_cell(size, r["mohex"]) or not isinstance(value, float):
                continue
            if UNDECIDED[0] < value < UNDECIDED[1]:
                out.append((size, [*r["moves"], r["mohex"]], [False] * len(r["moves"]) + [True]))
    return out


def examples(games: list[Record]):
    """Per searched move: (features of every empty cell, index of the move played, old priors' values)."""
    from engine.ai.hex.ai import HexState, tables

    out = []
    for size, moves, searched in games:
        g = grid(size)
        s = HexState(tables(size))
        for k, (m, learn) in enumerate(zip(moves, searched)):
            cell = g.parse(m)
            if learn and k > 0:
                empty = g.full & ~(s.black | s.white)
                cells = [c for c in range(size * size) if empty >> c & 1]
                feats = s.move_features(cells)
                vertical = s.black_to_move
                mine, theirs = (s.black, s.white) if vertical else (s.white, s.black)
                pn, pw = s._priors(cells, mine, theirs, empty, vertical)
                out.append((feats, cells.index(cell), [w / n for n, w in zip(pn, pw)]))
            s.play(cell)
    return out


class Index:
    """Feature ids: 0 = no feature (weight fixed at 0), then shapes, near codes, rows, last, save."""

    def __init__(self, train_set) -> None:
        from collections import Counter

        shapes = Counter(f[0] for feats, _, _ in train_set for f in feats)
        self.shape = {c: 1 + i for i, c in enumerate(sorted(c for c, k in shapes.items() if k >= MIN_SHAPE))}
        base = 1 + len(self.shape)
        nears = sorted({f[1] for feats, _, _ in train_set for f in feats})
        self.near = {c: base + i for i, c in enumerate(nears)}
        self.rows = base + len(self.near)
        self.last = self.rows + 25
        self.save = self.last + 4
        self.size = self.save + 1

    def ids(self, f) -> list[int]:
        """The five ids of one move's features."""
        shape, near, rows, last, save = f
        return [self.shape.get(shape, 0), self.near.get(near, 0), self.rows + rows, self.last + last,
                self.save if save else 0]


def _arrays(ex, index: Index):
    ids = np.array([index.ids(f) for feats, _, _ in ex for f in feats], dtype=np.int64)
    counts = np.array([len(feats) for feats, _, _ in ex])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    target = starts + np.array([t for _, t, _ in ex])
    return ids, counts, starts, target


def _probs(theta, ids, counts, starts):
    s = theta[ids].sum(axis=1)
    top = np.repeat(np.maximum.reduceat(s, starts), counts)
    e = np.exp(s - top)
    z = np.repeat(np.add.reduceat(e, starts), counts)
    return e / z


def fit(ex, index: Index, steps: int = 400, lr: float = 0.05):
    """Adam on the conditional-logit log likelihood with an L2 penalty."""
    ids, counts, starts, target = _arrays(ex, index)
    theta = np.zeros(index.size)
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    n = len(ex)
    for step in range(1, steps + 1):
        p = _probs(theta, ids, counts, starts)
        g = p.copy()
        g[target] -= 1.0
        grad = np.bincount(ids.ravel(), weights=np.repeat(g, ids.shape[1]), minlength=index.size) / n
        grad += 2 * L2 * theta
        grad[0] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if step % 100 == 0:
            nll = -np.log(p[target]).mean()
            print(f"step {step}: train log loss {nll:.4f}", file=sys.stderr, flush=True)
    return theta


def evaluate(ex, index: Index, theta) -> dict[str, float]:
    """Agreement with MoHex on ``ex``: top-1 and top-3 for the model and top-1 for the old priors
    (ties among the old priors' best count as a uniform choice among them)."""
    ids, counts, starts, target = _arrays(ex, index)
    p = _probs(theta, ids, counts, starts)
    top1 = top3 = old1 = 0.0
    for (_, t, old), st, c in zip(ex, starts, counts):
        mine = p[st:st + c]
        rank = int((mine > mine[t]).sum())
        top1 += rank == 0
        top3 += rank < 3
        best = max(old)
        ties = [i for i, x in enumerate(old) if x == best]
        old1 += (t in ties) / len(ties)
    n = len(ex)
    return {"positions": n, "top1": top1 / n, "top3": top3 / n, "old_top1": old1 / n,
            "log_loss": float(-np.log(p[target]).mean())}


def train(data: list[str], out: str, test: list[str]) -> None:
    """Fit on 90% of the games, report on the other 10%, refit on all, report on ``test`` (games
    kept apart for comparing searches too) and write the weights' data file."""
    games = load(data)
    rng = random.Random(0)
    rng.shuffle(games)
    held = len(games) // 10
    test_ex, train_ex = examples(games[:held]), examples(games[held:])
    print(f"{len(games)} games: {len(train_ex)} training positions, {len(test_ex)} held out", file=sys.stderr)
    index = Index(train_ex)
    theta = fit(train_ex, index)
    print("held out:", evaluate(test_ex, index, theta), file=sys.stderr)
    print("training:", evaluate(train_ex, index, theta), file=sys.stderr)
    all_ex = train_ex + test_ex
    index = Index(all_ex)
    theta = fit(all_ex, index)
    for path in test:
        print(f"test games ({path}):", evaluate(examples(load([path])), index, theta), file=sys.stderr)
    write(out, index, theta, len(games), len(all_ex))


def write(out: str, index: Index, theta, games: int, positions: int) -> None:
    """The weights as the engine's data file (rounded; zero weights left out), the JSON document
    :func:`engine.ai.hex.patterns.parse_weights` reads."""

    def r(x: float) -> float:
        return round(float(x), 4)

    shape = {c: r(theta[i]) for c, i in index.shape.items() if r(theta[i])}
    near = {c: r(theta[i]) for c, i in index.near.items() if r(theta[i])}
    about = (f"Weights of engine.ai.hex.patterns' features, fitted by tools/hex_priors.py train on {positions} "
             f"MoHex 2.0 moves from {games} games. Generated: do not edit by hand.")
    write_json_gz(Path(out), weights_doc(
        about, shape, near,
        [r(x) for x in theta[index.rows:index.rows + 25]], [r(x) for x in theta[index.last:index.last + 4]],
        r(theta[index.save]),
    ))
    print(f"wrote {out}: {len(shape)} shapes, {len(near)} near codes", file=sys.stderr)


def weights_doc(
    about: str, shape: dict[int, float], near: dict[int, float], rows: list[float], last: list[float], save: float,
) -> dict:
    """The weights' data file as a JSON document (see :func:`write`); a code → weight table as the
    parallel arrays ``codes`` (ascending) and ``weights``."""

    def table(t: dict[int, float]) -> dict[str, list]:
        items = sorted(t.items())
        return {"codes": [c for c, _ in items], "weights": [w for _, w in items]}

    return {
        "about": about,
        "shape": table(shape),
        "near": table(near),
        "rows": rows,
        "last": last,
        "save": save,
    }


def agree(data: list[str], iterations: int, positions: int, biases: list[float]) -> None:
    """How often the whole search (``engine.ai.choose``, level medium, fixed iterations) plays
    MoHex's move, per progressive-bias constant, in positions out of the opening book; bias 0
    is the search without learned priors, the baseline, run in the same process on the same
    positions."""
    from dataclasses import replace

    from engine import make_options
    from engine.ai import choose
    from engine.ai.hex import ai as hex_ai
    from engine.ai.hex.book import entries, position_key

    # Positions the opening book answers are left out: the search never sees them.
    cases = [(moves[:k], m) for size, moves, searched in load(data) if size == 9
             for k, (m, s) in enumerate(zip(moves, searched))
             if s and k >= 2 and position_key(9, moves[:k])[0] not in entries().get(9, {})]
    random.Random(7).shuffle(cases)
    cases = cases[:positions]
    default = hex_ai.PARAMS
    print(f"{len(cases)} positions, {iterations} iterations a move")
    print("| progressive bias | plays MoHex's move | vs bias 0 |")
    print("|---:|---:|---:|")
    base = None
    try:
        for bias in biases:
            hex_ai.PARAMS = replace(default, bias=bias)
            same = 0
            for i, (moves, target) in enumerate(cases):
                pos = make_options("hex", 9, ()).new_position()
                for m in moves:
                    pos.play(m)
                same += choose(pos, "medium", seed=i, iterations=iterations) == target
            rate = same / len(cases)
            base = rate if base is None else base
            ratio = f"{rate / base:.2f}×" if base else "—"
            print(f"| {bias:g} | {same}/{len(cases)} = {rate:.1%} | {ratio} |", flush=True)
    finally:
        hex_ai.PARAMS = default


if __name__ == "__main__":
    main()
