"""Where our lost games against MoHex went wrong, by MoHex's own judgement (a script, not a test).

    .venv/bin/python -m research.mohex_review --mohex PATH MATCH.err [--seconds 2] [--colour black]
                                           [--drop 0.1] [--out REVIEW.jsonl]
    .venv/bin/python -m research.mohex_review --mohex PATH MATCH.err --opening [--plies 8] [--think 1 | --iterations N]
                                           [--from-ply 0] [--base REF] [--cache VALUES.jsonl]

``MATCH.err`` is what ``bench/ai.py --mohex`` (``research/mohex_match.py``) wrote on stderr:
one line per game with its moves. For every game of ours in ``--colour`` that we lost,
MoHex searches the position before each of our moves for ``--seconds`` and reports the
value of its own choice and of ours (``mohex-values``: the win rate of each root move for
the mover, or "pruned" when MoHex's patterns left our move out of its search as inferior,
"unvisited" when it never tried it). A *drop* is a move of ours worth at least ``--drop``
less than MoHex's choice while MoHex's choice still held the game (≥ 0.5).

Prints, per game, the first drop (ply, our move and its value, MoHex's move and its
value, and whether ours answered an intrusion into one of our bridges or edge
templates, as the search's priors favour), then how many drops there were in all and
the plies of the first ones. ``--out`` keeps every position's figures as JSON lines.

``--opening`` judges this tree's opening instead, against ``--base REF`` if given, on the
same positions: every position where we moved in the first ``--plies`` plies of the
match's games (both colours, won or lost); with ``--from-ply K``, only those from ply ``K``
on, which judges the middle game the same way (``--from-ply 8 --plies 24``: past the
book's usual reach). Each side (a process of its own, as in
``research/hex_versus.py``) answers each position at level medium with ``--think`` seconds
(or ``--iterations N``: each search stops after N iterations, seeded by the position's
index, so a side answers the same way every run and two trees differ only by their code),
and MoHex's values say what its choice is worth: how often it is MoHex's own move, how
often MoHex left it out of its search, and how much it loses against MoHex's move on
average (a move MoHex left out counts as its worst searched one). With a base, the
positions where the two sides chose differently are counted for the side whose move
MoHex values more (by over 0.02). Where MoHex proved the position won, the last column
counts the moves that keep the proven win (MoHex's search proves wins well before ours
does: this is how often ours plays one anyway). A search bounded by time differs from run to run, so
compare with ``--base HEAD`` for the noise. Positions MoHex's connections decided without a
search are left out (no values to judge by). ``--cache`` keeps MoHex's values between runs
(``.gz``: gzipped).

The middle-game figures in docs/benchmarks.md come from ``research/data/mohex-review/``: two match
runs of ``main`` (9×9, 1 s a move, seeds 28 and 29) and MoHex's 2 s values of every
position where we moved at plies 8–23 in them, so that they rerun without the valuing::

    python -m research.mohex_review --mohex PATH research/data/mohex-review/match-9-1s-s28.err --opening \
        --from-ply 8 --plies 24 --base REF --cache research/data/mohex-review/values-9-s28.jsonl.gz

``--threats`` (with ``--cache``, on the same positions as ``--opening``) asks, in each position
MoHex's values call proven won or lost for the mover, whether MoHex's connections (its
``vc-build``, no search) and ours (the root's knowledge: fill, then the full H-search) see the
opponent's virtual win, a full or semi connection between its edges: what narrows the
mover's choice to the mustplay region. ``--set-size 6`` fills captured sets of up to six cells
first (:mod:`engine.ai.hex.captured`; the AI itself does not). Run it from a checkout of another tree to compare::

    python -m research.mohex_review --mohex PATH research/data/mohex-review/match-9-1s-s28.err --threats \
        --from-ply 8 --plies 24 --cache research/data/mohex-review/values-9-s28.jsonl.gz

``--mustplay`` (with ``--cache``, on the same positions) goes one move further: in each position
MoHex proved won for the mover, it plays MoHex's proven winning move and asks how narrow each
H-search makes the loser's answer: the mustplay region (the cells common to the winner's edge
connections; none left is a proof), by MoHex's connections (``vc-build``; ``--no-vc-patterns``
without its precomputed connection patterns) and by ours, the root's (full H-search) and the
tree's (narrow), before the inferior cells are taken out. In MoHex's tree the loser's node is
searched over that region, so the smaller it is, the sooner a win is proven; it needs no games,
which makes it a quick measure of a change to the H-search::

    python -m research.mohex_review --mohex PATH research/data/mohex-review/match-9-1s-s28.err --mustplay \
        --from-ply 8 --plies 24 --cache research/data/mohex-review/values-9-s28.jsonl.gz

MoHex is a measuring tool here, never a dependency (see ``shared/notes/mohex.md``).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from engine import make_options
from engine.ai.hex.ai import REFINE_WORK, HexState, knowledge
from research import mohex_match as mm
from research.hex_versus import ROOT, Player, unpack
from tools.data_files import open_text

GAME = re.compile(
    r"<!-- (?P<row>.+?) game (?P<i>\d+): opening \S+, ours (?P<ours>\w+), we (?P<result>[\w ]+?) in .*"
    r"first proved at ply: ours \S+, MoHex (?P<proof>\d+|—);.*; moves (?P<moves>[a-z0-9 ]+) -->"
)


class MatchGame(NamedTuple):
    """One game read back from a match's stderr (its line, as ``research/mohex_match.py`` writes it)."""

    size: int
    number: str
    #: our AI's colour, ``black`` or ``white``
    ours: str
    #: ``won``, ``lost`` or ``did not finish``
    result: str
    #: the ply at which MoHex's search first proved the game (None: it never did)
    mohex_proof: int | None
    moves: list[str]


def match_games(path: str) -> list[MatchGame]:
    """Each game in a match's stderr (one run may hold several rows, so several board sizes)."""
    out = []
    for line in Path(path).read_text().splitlines():
        m = GAME.match(line)
        if m:
            size = int(re.search(r"(\d+)×", m["row"]).group(1))  # type: ignore[union-attr]
            proof = None if m["proof"] == "—" else int(m["proof"])
            out.append(MatchGame(size, m["i"], m["ours"], m["result"], proof, m["moves"].split()))
    return out


def mover_plies(colour: str, end: int) -> range:
    """The numbers of stones on the board, below ``end``, each time ``colour`` chose a move in a
    match game (Black's first stone is the match's opening, chosen by neither side).

    >>> list(mover_plies("black", 7)), list(mover_plies("white", 7))
    ([2, 4, 6], [1, 3, 5])
    """
    return range(2 if colour == "black" else 1, end, 2)


def lost_games(path: str, colour: str) -> tuple[int, list[tuple[str, list[str]]]]:
    """The board size, and (game number, moves) of the games of ours in ``colour`` that we lost,
    from a match's stderr."""
    games = match_games(path)
    return _size(games), [(g.number, g.moves) for g in games if g.ours == colour and g.result == "lost"]


def _size(games: list[MatchGame]) -> int:
    """The board size of a one-row match's games (0 if none)."""
    return games[-1].size if games else 0


def replay(mohex: mm.MoHex, moves: list[str]) -> None:
    """Set MoHex's board to the position after ``moves`` (Black first)."""
    mohex.command("clear_board")
    for j, m in enumerate(moves):
        mohex.command(f"play {'bw'[j % 2]} {m}")


def cached_rows(cache: str) -> dict[str, dict[str, Any]]:
    """The judge's cache of MoHex's values (one JSON row per position), keyed by the moves joined by
    spaces; empty when there is no cache yet."""
    if not Path(cache).exists():
        return {}
    with open_text(Path(cache), "r") as f:
        return {" ".join(r["moves"]): r for r in map(json.loads, f.read().splitlines())}


def set_up(mohex: mm.MoHex, size: int, moves: list[str]) -> HexState:
    """The position after ``moves`` on MoHex's board and as our search's state."""
    replay(mohex, moves)
    pos = make_options("hex", size, ()).new_position()
    for m in moves:
        pos.play(m)
    return HexState.from_position(pos)


def values(mohex: mm.MoHex, moves: list[str], seconds: float) -> tuple[str, dict[str, float | str]]:
    """MoHex's move in the position after ``moves`` and its root values (a proven win 1, loss 0;
    none when its connections decided the position without a search)."""
    replay(mohex, moves)
    mohex.command(f"param_mohex max_time {seconds}")
    best = mohex.command(f"genmove {'bw'[len(moves) % 2]}").lower()
    mohex.command("undo")
    try:
        words = mohex.command("mohex-values").split()
    except RuntimeError:  # "No previous search": its connections decided the position unsearched
        return best, {}
    return best, values_from(words)


def values_from(words: list[str]) -> dict[str, float | str]:
    """``mohex-values``' answer as cell → win rate for the mover (a proven win 1, loss 0)."""
    out: dict[str, float | str] = {}
    for cell, v in zip(words[0::2], words[1::2]):
        if v.startswith("W@"):
            out[cell] = 1.0
        elif v.startswith("L@"):
            out[cell] = 0.0
        elif v.startswith("."):
            out[cell] = float("0" + v.split("@")[0])
        else:
            out[cell] = "unvisited"
    return out


def is_save(size: int, moves: list[str], move: str) -> bool:
    """Whether ``move`` answers the last move's intrusion into one of the mover's bridges or edge templates."""
    pos = make_options("hex", size, ()).new_position()
    for m in moves:
        pos.play(m)
    s = HexState.from_position(pos)
    mine = s.black if s.black_to_move else s.white
    empty = s.t.g.full & ~(s.black | s.white)
    return bool(s._saves(mine, empty, s.black_to_move) >> s.t.g.parse(move) & 1)


def review(path: str, err: str, colour: str, seconds: float, drop: float, out: str | None) -> None:
    """Run the review and print it (see the module docstring)."""
    size, games = lost_games(err, colour)
    if not games:
        print(f"no lost games as {colour} in {err}")
        return
    mohex = mm.MoHex(path, size)
    first: list[int] = []
    kinds: Counter[str] = Counter()
    sink = open(out, "w") if out else None
    try:
        for number, moves in games:
            found = None
            for k in mover_plies(colour, len(moves)):
                try:
                    best, vals = values(mohex, moves[:k], seconds)
                except (mm.MoHexCrashed, RuntimeError):
                    mohex.start()  # its fill-in crash near the end: nothing more to learn there
                    break
                ours = moves[k]
                v = vals.get(ours, "pruned")
                bv = vals.get(best)
                if sink:
                    sink.write(
                        json.dumps(
                            {"game": number, "ply": k, "ours": ours, "value": v, "mohex": best, "mohex_value": bv}
                        )
                        + "\n"
                    )
                if not isinstance(bv, float) or bv < 0.5:
                    continue
                worth = v if isinstance(v, float) else 0.0
                if bv - worth >= drop:
                    kind = "an intrusion's answer" if is_save(size, moves[:k], ours) else "another move"
                    kinds[kind] += 1
                    if found is None:
                        found = (k, ours, v, best, bv, kind)
            if found:
                k, ours, v, best, bv, kind = found
                first.append(k)
                shown = f"{v:.3f}" if isinstance(v, float) else v
                print(
                    f"game {number}: first drop at ply {k}: ours {ours} ({shown}, {kind}), MoHex {best} ({bv:.3f})",
                    flush=True,
                )
            else:
                print(f"game {number}: no drop of {drop} found", flush=True)
    finally:
        mohex.close()
        if sink:
            sink.close()
    print(
        f"\n{len(games)} lost games as {colour}; drops in all: {sum(kinds.values())} ({dict(kinds)}); "
        f"first drop at plies {sorted(first)}"
    )


def opening_positions(path: str, plies: int, start: int = 0) -> tuple[int, list[list[str]]]:
    """The board size, and the positions (as move lists) where we moved within the first ``plies``
    plies of a match's games, from ply ``start`` on."""
    games = match_games(path)
    out = []
    for g in games:
        for k in mover_plies(g.ours, min(len(g.moves), plies + 1)):
            if k >= start:
                out.append(g.moves[:k])
    return _size(games), out


def proven_win(vals: dict[str, float | str]) -> bool:
    """Whether MoHex proved the position won for the mover (some move's value is a proven win).

    >>> proven_win({"e5": 1.0, "d4": 0.3}), proven_win({"e5": 0.97, "d4": "unvisited"})
    (True, False)
    """
    return 1.0 in vals.values()


def _worth(vals: dict[str, float | str], move: str) -> float:
    """MoHex's value of a move; one it left out of its search is worth its worst searched move."""
    v = vals.get(move)
    if isinstance(v, float):
        return v
    known = [x for x in vals.values() if isinstance(x, float)]
    return min(known) if known else 0.0


def judge_opening(
    path: str,
    err: str,
    plies: int,
    seconds: float,
    think: float,
    base: str | None,
    cache: str | None,
    start: int = 0,
    iterations: int | None = None,
) -> None:
    """The ``--opening`` review (see the module docstring)."""
    size, positions = opening_positions(err, plies, start)
    known: dict[str, tuple[str, dict[str, float | str]]] = {
        key: (r["mohex"], r["values"]) for key, r in (cached_rows(cache) if cache else {}).items()}
    mohex = mm.MoHex(path, size)
    new: list[str] = []
    try:
        for moves in positions:
            key = " ".join(moves)
            if key in known:
                continue
            try:
                known[key] = values(mohex, moves, seconds)
            except (mm.MoHexCrashed, RuntimeError):
                mohex.start()
                continue
            new.append(json.dumps({"moves": moves, "mohex": known[key][0], "values": known[key][1]}))
    finally:
        mohex.close()
        if cache and new:
            with open_text(Path(cache), "a") as f:
                f.write("\n".join(new) + "\n")
    # A position MoHex's connections decided without a search has no values to judge a move by.
    positions = [m for m in positions if known.get(" ".join(m), ("", {}))[1]]
    with tempfile.TemporaryDirectory() as tmp:
        players = {"this": Player(ROOT)}
        if base:
            players["base"] = Player(unpack(base, Path(tmp)))
        chosen: dict[str, list[str]] = {side: [] for side in players}
        try:
            for i, moves in enumerate(positions):
                for side, player in players.items():
                    chosen[side].append(player.move(size, moves, "medium", think, i, iterations)[0])
        finally:
            for player in players.values():
                player.close()
    print(
        f"{len(positions)} positions (our moves at plies {start}–{plies - 1}), MoHex {seconds} s each, "
        f"ours {f'{iterations} iterations' if iterations else f'{think} s'} each"
    )
    won = sum(proven_win(known[" ".join(m)][1]) for m in positions)
    print(f"| side | MoHex's move | left out by MoHex | mean loss against MoHex's move | a proven win kept (of {won}) |")
    print("|---|---:|---:|---:|---:|")
    for side, moves_chosen in chosen.items():
        same = left = kept = 0
        loss = 0.0
        for moves, move in zip(positions, moves_chosen):
            best, vals = known[" ".join(moves)]
            same += move == best
            left += not isinstance(vals.get(move), float)
            loss += _worth(vals, best) - _worth(vals, move)
            kept += proven_win(vals) and vals.get(move) == 1.0
        n = len(positions)
        print(f"| {side} | {same}/{n} | {left}/{n} | {loss / n:.3f} | {kept}/{won} |")
    if base:
        better: Counter[str] = Counter()
        for moves, a, b in zip(positions, chosen["this"], chosen["base"]):
            if a == b:
                continue
            vals = known[" ".join(moves)][1]
            d = _worth(vals, a) - _worth(vals, b)
            better["this" if d > 0.02 else "base" if d < -0.02 else "within 0.02"] += 1
        print(f"\nwhere the sides chose differently ({sum(better.values())}): {dict(better)}")


def proven_loss(vals: dict[str, float | str]) -> bool:
    """Whether MoHex proved the position lost for the mover (every move's value a proven loss).

    >>> proven_loss({"e5": 0.0, "d4": 0.0}), proven_loss({"e5": 0.0, "d4": "unvisited"})
    (True, False)
    """
    return bool(vals) and all(v == 0.0 for v in vals.values())


#: MoHex's names for each colour's two edges
EDGES = {"b": "north south", "w": "east west"}


def threats(path: str, err: str, plies: int, cache: str, start: int = 0, set_size: int = 0) -> None:
    """The ``--threats`` count (see the module docstring)."""
    size, positions = opening_positions(err, plies, start)
    known = {key: r["values"] for key, r in cached_rows(cache).items()}
    proven = [(m, "won" if proven_win(known[" ".join(m)]) else "lost") for m in positions
              if " ".join(m) in known and (proven_win(known[" ".join(m)]) or proven_loss(known[" ".join(m)]))]
    mohex = mm.MoHex(path, size)
    seen: Counter[str] = Counter()
    try:
        for moves, result in proven:
            state = set_up(mohex, size, moves)
            mover, other = "bw"[len(moves) % 2], "bw"[1 - len(moves) % 2]
            mohex.command(f"vc-build {mover}")
            theirs_mohex = any(mohex.command(f"vc-between-cells-{kind} {other} {EDGES[other]}").strip()
                               for kind in ("full", "semi"))
            k = knowledge(state.t.g, state.black, state.white, state.black_to_move, both_boards=True,
                          set_size=set_size)
            theirs_ours = bool(k.vc.theirs.fulls or k.vc.theirs.semis)
            seen["mohex"] += theirs_mohex
            seen["ours"] += theirs_ours
            seen["both"] += theirs_mohex and theirs_ours
            seen[f"proved {result}"] += k.vc.mover_wins if result == "won" else k.vc.mover_loses
            seen[result] += 1
    finally:
        mohex.close()
    print(f"{len(proven)} positions MoHex proved ({seen['won']} won, {seen['lost']} lost for the mover)")
    print(f"the opponent's virtual win (a full or semi between its edges): MoHex's connections see it in "
          f"{seen['mohex']}, ours in {seen['ours']}, both in {seen['both']}")
    print(f"our root knowledge proves {seen['proved won']} of the won and {seen['proved lost']} of the lost")



def carrier_meet(answer: str) -> set[str] | None:
    """The cells common to every carrier MoHex lists in a ``vc-between-cells-*`` answer (None: no
    connection listed).

    >>> sorted(carrier_meet("black north south semi and [ c5 g5 b6 ] [ ] b6\\nblack north south semi and [ g5 b7 ] [ ] b7"))
    ['g5']
    >>> carrier_meet("") is None
    True
    """
    meet: set[str] | None = None
    for line in answer.splitlines():
        if "[" not in line:
            continue
        cells = set(line.split("[", 1)[1].split("]", 1)[0].split())
        meet = cells if meet is None else meet & cells
    return meet


def winning_move(vals: dict[str, float | str], mohex_move: str) -> str:
    """MoHex's own move when it is a proven win, else the first proven winning move by name.

    >>> winning_move({"e5": 1.0, "d4": 1.0, "c3": 0.2}, "d4"), winning_move({"e5": 1.0, "d4": 0.9}, "d4")
    ('d4', 'e5')
    """
    if vals.get(mohex_move) == 1.0:
        return mohex_move
    return min(m for m, v in vals.items() if v == 1.0)


def mustplays(path: str, err: str, plies: int, cache: str, start: int = 0, patterns: bool = True) -> None:
    """The ``--mustplay`` count (see the module docstring)."""
    size, positions = opening_positions(err, plies, start)
    rows = cached_rows(cache)
    seen_keys: set[str] = set()
    after: list[list[str]] = []
    for m in positions:
        key = " ".join(m)
        row = rows.get(key)
        if row is None or key in seen_keys or not proven_win(row["values"]):
            continue
        if all(v == 1.0 for v in row["values"].values()):
            continue  # every move wins: nothing to narrow
        seen_keys.add(key)
        after.append([*m, winning_move(row["values"], row["mohex"])])
    mohex = mm.MoHex(path, size)
    if not patterns:
        for setting in ("use_patterns 0", "use_non_edge_patterns 0"):
            mohex.command(f"param_player_vc {setting}")
    sizes: dict[str, list[int]] = {"mohex": [], "ours (root)": [], "ours (tree)": []}
    try:
        for moves in after:
            state = set_up(mohex, size, moves)
            winner = "bw"[1 - len(moves) % 2]
            mohex.command(f"vc-build {winner}")
            if mohex.command(f"vc-between-cells-full {winner} {EDGES[winner]}").strip():
                sizes["mohex"].append(0)
            else:
                meet = carrier_meet(mohex.command(f"vc-between-cells-semi {winner} {EDGES[winner]}"))
                sizes["mohex"].append(-1 if meet is None else len(meet))
            g = state.t.g
            for name, k in (
                ("ours (root)", knowledge(g, state.black, state.white, state.black_to_move, both_boards=True)),
                ("ours (tree)", knowledge(g, state.black, state.white, state.black_to_move, REFINE_WORK, narrow=True)),
            ):
                threat = k.vc.theirs.fulls or k.vc.theirs.semis
                sizes[name].append(0 if k.vc.mover_loses else k.vc.mustplay.bit_count() if threat else -1)
    finally:
        mohex.close()
    print(f"{len(after)} positions after MoHex's proven winning move, the loser to move: "
          "the mustplay region's size (0: proved lost; no threat seen: not counted)")
    print("| connections | proved | threat seen | cells, median | cells, sum where all three see a threat |")
    print("|---|---:|---:|---:|---:|")
    every = [i for i in range(len(after)) if all(v[i] >= 0 for v in sizes.values())]
    for name, v in sizes.items():
        seen_sizes = sorted(x for x in v if x >= 0)
        median = seen_sizes[len(seen_sizes) // 2] if seen_sizes else 0
        print(f"| {name} | {sum(1 for x in v if x == 0)} | {len(seen_sizes)} | {median} | "
              f"{sum(v[i] for i in every)} ({len(every)} positions) |")

def main() -> None:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("err", help="a MoHex match's stderr (bench/ai.py --mohex … 2> MATCH.err)")
    p.add_argument("--mohex", required=True)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--colour", choices=("black", "white"), default="black")
    p.add_argument("--drop", type=float, default=0.1)
    p.add_argument("--out")
    p.add_argument("--opening", action="store_true", help="judge our opening moves instead (see above)")
    p.add_argument("--plies", type=int, default=8)
    p.add_argument("--from-ply", type=int, default=0, help="with --opening: only our moves from this ply on")
    p.add_argument("--think", type=float, default=1.0)
    p.add_argument("--iterations", type=int, help="with --opening: bound our searches by iterations, not --think")
    p.add_argument("--base")
    p.add_argument("--cache")
    p.add_argument("--threats", action="store_true", help="count the opponent's virtual wins seen (see above)")
    p.add_argument("--set-size", type=int, default=0, help="with --threats: fill captured sets of up to this many cells first")
    p.add_argument("--mustplay", action="store_true", help="the loser's mustplay after MoHex's proven win (see above)")
    p.add_argument("--no-vc-patterns", action="store_true", help="with --mustplay: MoHex's connections without its patterns")
    a = p.parse_args()
    if a.from_ply and not (a.opening or a.threats or a.mustplay):
        p.error("--from-ply chooses the positions --opening (or --threats) judges: add --opening")
    if (a.threats or a.mustplay) and not a.cache:
        p.error("--threats and --mustplay read MoHex's values from --cache: add --cache VALUES.jsonl[.gz]")
    if a.mustplay:
        mustplays(a.mohex, a.err, a.plies, a.cache, a.from_ply, not a.no_vc_patterns)
    elif a.threats:
        threats(a.mohex, a.err, a.plies, a.cache, a.from_ply, a.set_size)
    elif a.opening:
        judge_opening(a.mohex, a.err, a.plies, a.seconds, a.think, a.base, a.cache, a.from_ply, a.iterations)
    else:
        review(a.mohex, a.err, a.colour, a.seconds, a.drop, a.out)


if __name__ == "__main__":
    main()
