"""Build the Hex opening book (:mod:`engine.ai.hex.book`) from MoHex 2.0's choices (run by hand).

    .venv/bin/python -m tools.hex_book --mohex PATH --size 9 [--plies 5] [--replies 3,2,2]
                                       [--seconds 2] [--jobs 2] [--cache tools/data/hex-book/9.jsonl.gz]
    .venv/bin/python -m tools.hex_book --write [--cache-dir tools/data/hex-book]
    .venv/bin/python -m tools.hex_book --mohex PATH --size 9 --steadiness 60 [--turned] [--seconds 2]
    .venv/bin/python -m tools.hex_book --mohex PATH --size 9 --reached MATCH.err... [--min-games 2]
                                       [--max-stones 16] [--seconds 2] [--deepen PLIES --replies R]

The book is a tree grown breadth first from the empty board. At each position MoHex
searches ``--seconds`` (one thread, no pondering) and gives its move and the value of
every move it searched (``mohex-values``); the book keeps its move. Which positions are
grown depends on who the book is for, and it is for both colours:

- the side the book plays only ever plays the book's move;
- every first stone is grown for both colours (a game can start anywhere without the
  pie rule, a match may impose the first stone, the pie rule hands it over);
- otherwise the book's opponent may play MoHex's ``--replies`` best moves by its
  values (one count per ply after the first: ``3,2,2`` = three replies to the first
  stone, then two), MoHex's own move always among them.

Positions with fewer than ``--plies`` stones get a book move. The book in the repository was
grown with ``--size 9 --plies 5 --replies 8,2,6`` and ``--size 11 --plies 5 --replies
6,2,3`` (the width after the third stone is where MoHex's replies in matches most often left
the narrower book), then ``--reached`` with the stderr of the day's match runs (2026-11-27:
29 on 9×9, 10 on 11×11; ``--min-games 2 --max-stones 16``), then on 9×9 ``--reached`` with
the next session's 13 runs (484 games) and ``--min-games 1 --max-stones 4 --seconds 20``
(the first two moves of either colour searched for 20 s) and the tree grown again as above,
under the new moves; then the same on 11×11 with the 6 runs of those sessions whose stderr
was kept (240 games) and ``--min-games 1 --max-stones 6 --seconds 20`` (the first three
moves), the tree grown again under them; then on each size ``--reached`` with two runs of the
next session (80 games, after the new first moves: 11×11 at 1 s, 9×9 at 3 s), ``--min-games
2`` and then ``--min-games 1`` (396 and 355 positions: of one run's positions out of the
book, about a fifth had come up in the other run); then twice more, each with the two newest
runs of each size and ``--min-games 1`` (11×11 at 1 s both times; 9×9 at 3 s, then at 1 s:
304 and 298 positions, then 296 and 281). ``--reached`` adds what the tree does not
hold: the positions where our AI was to move in at least ``--min-games`` games of MoHex match runs
(their stderr), with fewer than ``--max-stones`` stones (see :func:`reached`); a position
the cache holds from a shorter search than ``--seconds`` is searched again, and the longer
search is the one the book keeps. With ``--deepen PLIES`` the tree is grown instead under every
position reached (in the book or not), ``PLIES`` plies deep, the opponent's replies as above:
MoHex's replies in the matches vary from game to game, and the next game's may be one the
book has never seen (tried once, on top of one more ``--reached``: ``--deepen 2 --replies 3
--max-stones 9`` added 968 positions on 9×9 and 657 on 11×11, and the rows against MoHex
were no better, so the book does not hold them; see docs/ai-research.md). A position and its 180° turn
are one position; transpositions meet. ``--cache`` (gzipped JSON lines: the moves that reached each position,
MoHex's move and values, its seconds) makes the run resumable and the book reproducible:
``--write`` turns every cache in ``--cache-dir`` into the package data file
``engine/ai/hex/data/book_moves.json.gz`` without MoHex (byte for byte the same from the same
caches). A search bounded by time differs from run to run, so a new run with MoHex gives a
somewhat different book; ``--steadiness N`` measures how much: it searches N of the
book's positions again and compares.

MoHex is a measuring and teaching tool here, never a dependency (see
``shared/notes/mohex.md``); the book is data it produced, like the learned priors of
``tools/hex_priors.py``.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from engine.ai.hex.book import position_key, turned_cell
from engine.ai.hex.packaged import BOOK_FILE
from engine.geometry import grid
from research import mohex_match as mm
from research.mohex_review import _worth as worth
from research.mohex_review import match_games, mover_plies, values
from tools.data_files import open_text, write_json_gz

ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ROOT / "tools" / "data" / "hex-book"
#: the engine's package data file the book is written to
BOOK_DATA = ROOT / "engine" / "ai" / "hex" / "data" / BOOK_FILE


def is_cell(n: int, move: str) -> bool:
    """Whether MoHex's answer is a cell of the board (not ``resign``)."""
    try:
        grid(n).parse(move)
    except ValueError:
        return False
    return True


def ranked(vals: dict[str, float | str], best: str) -> list[str]:
    """MoHex's searched moves, best value first, its own choice first of all."""
    scored = sorted(((v, c) for c, v in vals.items() if isinstance(v, float)), key=lambda t: (-t[0], t[1]))
    return [best] + [c for _, c in scored if c != best]


def load(path: Path) -> dict[str, dict]:
    """A cache file's records by position key: of a position searched more than once, the
    longest search (MoHex's choice after 2 s is unsteady; see ``--reached --seconds``), the
    later of equal ones."""
    out: dict[str, dict] = {}
    if path.exists():
        with open_text(path, "r") as f:
            text = f.read()
        for line in text.splitlines():
            if line.strip():
                r = json.loads(line)
                if r["seconds"] >= out.get(r["key"], r)["seconds"]:
                    out[r["key"]] = r
    return out


def searched_for(records: dict[str, dict], seconds: float) -> dict[str, dict]:
    """The records of positions MoHex searched for at least ``seconds``.

    >>> sorted(searched_for({"a": {"seconds": 2.0}, "b": {"seconds": 20.0}}, 10))
    ['b']
    """
    return {key: r for key, r in records.items() if r["seconds"] >= seconds}


def query_all(
    mohex_path: str, n: int, todo: list[list[str]], seconds: float, jobs: int, sink: Path,
) -> dict[str, dict]:
    """MoHex's move and values in each position of ``todo``, ``jobs`` MoHex processes at once;
    each answer is appended to ``sink`` as soon as it is known."""
    work: queue.Queue[list[str]] = queue.Queue()
    for moves in todo:
        work.put(moves)
    done: dict[str, dict] = {}
    lock = threading.Lock()
    start = time.perf_counter()

    def worker() -> None:
        mohex = mm.MoHex(mohex_path, n)
        try:
            while True:
                try:
                    moves = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    best, vals = values(mohex, moves, seconds)
                except (mm.MoHexCrashed, RuntimeError) as e:
                    print(f"  MoHex failed after {' '.join(moves) or 'the empty board'}: {e}", file=sys.stderr)
                    mohex.start()
                    continue
                key, _ = position_key(n, moves)
                record = {"key": key, "moves": moves, "mohex": best, "values": vals, "seconds": seconds}
                with lock:
                    done[key] = record
                    with open_text(sink, "a") as f:
                        f.write(json.dumps(record) + "\n")
                    if len(done) % 25 == 0:
                        rate = (time.perf_counter() - start) / len(done)
                        print(f"  {len(done)}/{len(todo)} positions, {rate:.1f} s each", file=sys.stderr)
        finally:
            mohex.close()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done


#: positions being grown: position key → (the moves that reached it, the colours the book plays there)
Frontier = dict[str, tuple[list[str], set[str]]]


def mover_at(depth: int) -> str:
    """The colour to move (``b`` or ``w``) in a position ``depth`` stones deep (no swap)."""
    return "b" if depth % 2 == 0 else "w"


def children(n: int, depth: int, record: dict, sides: set[str], replies: list[int]) -> list[tuple[str, str]]:
    """The moves the book grows from a position ``depth`` stones deep, each with the colour the
    book plays after it: its own move where it is to play (a colour of ``sides``), MoHex's best
    ``replies`` where its opponent is, and after the empty board every first stone for both colours."""
    mover = mover_at(depth)
    other = mover_at(depth + 1)
    out: list[tuple[str, str]] = []
    if mover in sides:
        out.append((record["mohex"], mover))
    if other in sides:
        if depth == 0:
            cells = [grid(n).name(i) for i in range(n * n)]
        else:
            cells = ranked(record["values"], record["mohex"])[: replies[min(depth, len(replies)) - 1]]
        out.extend((c, other) for c in cells)
    if depth == 0:
        # The first stone may be imposed (a match's fixed openings, a pie-rule offer the AI
        # takes): the book plays on after every first stone with either colour.
        out = [(c, side) for c in dict.fromkeys(c for c, _ in out) for side in ("b", "w")]
    return out


def to_search(frontier: Frontier, known: dict[str, dict], last: bool) -> list[list[str]]:
    """The moves to the positions of ``frontier`` that MoHex must search: those not searched
    before, and at the last depth only those where the book is to play (where its opponent
    is, MoHex's values would only choose replies the book does not grow).

    >>> front = {"k1": (["e5"], {"b"}), "k2": (["c3"], {"w"}), "k3": (["a1"], {"w"})}
    >>> to_search(front, {"k3": {}}, last=False), to_search(front, {"k3": {}}, last=True)
    ([['e5'], ['c3']], [['c3']])
    """
    return [
        moves for key, (moves, sides) in frontier.items()
        if key not in known and (not last or mover_at(len(moves)) in sides)
    ]


def reached(
    paths: list[str], n: int, min_games: int, max_stones: int, known: dict[str, dict],
) -> list[list[str]]:
    """The moves to each position where our AI was to move, out of the book (not in ``known``),
    with fewer than ``max_stones`` stones, that at least ``min_games`` of the n×n games in
    ``paths`` (the stderr of ``bench/ai.py --mohex`` runs) went through, most-reached first.

    Our AI plays almost the same game each time, and MoHex's replies cluster, so the games
    funnel through the same positions well after the book ends: MoHex's move there is the
    book's move in positions that do come up.
    """
    count: Counter[str] = Counter()
    first: dict[str, list[str]] = {}
    for path in paths:
        for g in match_games(path):
            if g.size != n:
                continue
            for k in mover_plies(g.ours, min(len(g.moves), max_stones)):
                key, _ = position_key(n, g.moves[:k])
                if key not in known:
                    count[key] += 1
                    first.setdefault(key, g.moves[:k])
    return [first[key] for key, games in count.most_common() if games >= min_games]


def grow(mohex_path: str, n: int, plies: int, replies: list[int], seconds: float, jobs: int, cache: Path) -> None:
    """Grow the book of an n×n board to ``plies`` plies (see the module docstring)."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    frontier: Frontier = {position_key(n, [])[0]: ([], {"b", "w"})}
    grow_under(mohex_path, n, frontier, plies, replies, seconds, jobs, cache, load(cache))


def grow_under(
    mohex_path: str, n: int, frontier: Frontier, plies: int, replies: list[int],
    seconds: float, jobs: int, cache: Path, known: dict[str, dict],
) -> None:
    """Grow the book ``plies`` plies deep under the positions of ``frontier``, breadth first;
    ``known`` holds the positions searched before."""
    for step in range(plies):
        last = step == plies - 1
        todo = to_search(frontier, known, last)
        print(f"ply {step}: {len(frontier)} positions, {len(todo)} to search", file=sys.stderr)
        if todo:
            known.update(query_all(mohex_path, n, todo, seconds, jobs, cache))
        if last:
            break
        frontier = next_frontier(n, frontier, known, replies)


def next_frontier(
    n: int, frontier: Frontier, known: dict[str, dict], replies: list[int],
) -> Frontier:
    """The positions one ply under ``frontier`` that the book grows (see :func:`children`)."""
    nxt: Frontier = {}
    for key, (_, sides) in frontier.items():
        record = known.get(key)
        if record is None or not is_cell(n, record["mohex"]):
            continue  # MoHex failed (or resigned) there: the branch ends
        # MoHex's move was found in the frame of ``record["moves"]``, which may be this
        # position turned by 180°; the children are made from that frame's moves.
        for cell, side in children(n, len(record["moves"]), record, sides, replies):
            child = record["moves"] + [cell]
            ckey, _ = position_key(n, child)
            if ckey in nxt:
                nxt[ckey][1].add(side)
            else:
                nxt[ckey] = (child, {side})
    return nxt


def turn(n: int, cell: str) -> str:
    """The cell's name on the board turned by 180° (the same position for both sides).

    >>> turn(9, "e7"), turn(9, "a1")
    ('e3', 'i9')
    """
    g = grid(n)
    return g.name(turned_cell(n, g.parse(cell)))


def steadiness(mohex_path: str, n: int, cache: Path, count: int, seconds: float, turned: bool = False) -> None:
    """Search ``count`` book positions of 2 and 4 stones again and print how often MoHex chose the
    same move, and how far below its new choice the new search values the book's move (a move it
    left out counts as its worst searched one): MoHex's own noise, the yardstick for
    ``research/mohex_review.py``'s values of our opening moves. ``turned``: search each position
    turned by 180° instead (the same position, which the book answers from one entry)."""
    records = [
        r for r in load(cache).values() if len(r["moves"]) in (2, 4) and r["values"] and is_cell(n, r["mohex"])
    ]
    random.Random(1).shuffle(records)
    records = records[:count]
    mohex = mm.MoHex(mohex_path, n)
    same = big = 0
    gaps = []
    try:
        for r in records:
            moves = [turn(n, m) for m in r["moves"]] if turned else r["moves"]
            book = turn(n, r["mohex"]) if turned else r["mohex"]
            best, vals = values(mohex, moves, seconds)
            gap = max(0.0, worth(vals, best) - worth(vals, book))
            same += best == book
            big += gap >= 0.1
            gaps.append(gap)
    finally:
        mohex.close()
    k = len(gaps)
    print(
        f"{k} book positions of 2 and 4 stones ({n}×{n}), searched again{' turned by 180°' if turned else ''} "
        f"for {seconds:g} s: the same move "
        f"in {same}/{k}; the book's move valued >= 0.1 below the new choice in {big}/{k}, "
        f"{sum(gaps) / max(k, 1):.3f} below on average"
    )


def write(cache_dir: Path, out: Path) -> None:
    """Write every cache of ``cache_dir`` (one per board size, ``N.jsonl.gz`` or ``N.jsonl``) as the book's
    data file (read by :func:`engine.ai.hex.book.parse_book`)."""
    books: dict[int, dict[str, int]] = {}
    sources = []
    caches = [(int(p.name.split(".")[0]), p) for p in cache_dir.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz"))]
    for n, path in sorted(caches):
        g = grid(n)
        book: dict[str, int] = {}
        records = load(path)
        for key, r in records.items():
            if not is_cell(n, r["mohex"]):
                continue
            _, turned = position_key(n, r["moves"])
            cell = g.parse(r["mohex"])
            book[key] = turned_cell(n, cell) if turned else cell
        books[n] = dict(sorted(book.items()))
        seconds = sorted({r["seconds"] for r in records.values()})
        sources.append(f"{n}×{n}: {len(book)} positions, MoHex {'/'.join(f'{s:g}' for s in seconds)} s each")
    about = (f"The opening book's moves (see engine.ai.hex.book). Generated by tools/hex_book.py --write "
             f"from tools/data/hex-book/ ({'; '.join(sources)}): do not edit by hand.")
    # per board size: position key (engine.ai.hex.book.canonical) → the cell to play
    write_json_gz(out, {"about": about, "books": {str(n): book for n, book in books.items()}})
    print(f"wrote {out}: {'; '.join(sources)}")


def main() -> None:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mohex")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--plies", type=int, default=5)
    p.add_argument("--replies", default="3,2,2", help="the opponent's replies grown per ply after the first")
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cache", help="default: tools/data/hex-book/SIZE.jsonl.gz")
    p.add_argument("--write", action="store_true", help="write the book's data file from the caches (no MoHex)")
    p.add_argument("--steadiness", type=int, metavar="N", help="search N book positions again (see steadiness)")
    p.add_argument("--turned", action="store_true", help="with --steadiness: search them turned by 180°")
    p.add_argument("--cache-dir", default=str(CACHE_DIR))
    p.add_argument("--reached", nargs="+", metavar="MATCH.err",
                   help="search the positions our AI reached in these match runs instead (see reached)")
    p.add_argument("--min-games", type=int, default=2, help="with --reached: games through a position")
    p.add_argument("--max-stones", type=int, default=16, help="with --reached: positions with fewer stones")
    p.add_argument("--deepen", type=int, default=0, metavar="PLIES",
                   help="with --reached: grow the book PLIES plies under every reached position, "
                        "in the book or not (the opponent's --replies best replies)")
    a = p.parse_args()
    if a.deepen and not a.reached:
        p.error("--deepen grows the book under the positions of match runs: give them with --reached MATCH.err...")
    if a.write:
        write(Path(a.cache_dir), BOOK_DATA)
        return
    if not a.mohex:
        p.error("--mohex PATH (a MoHex 2.0 binary) is needed to grow the book. "
                + mm.HOW_TO_GET.removeprefix("MoHex row skipped: no MoHex binary. "))
    cache = Path(a.cache) if a.cache else CACHE_DIR / f"{a.size}.jsonl.gz"
    if a.steadiness:
        steadiness(a.mohex, a.size, cache, a.steadiness, a.seconds, a.turned)
        return
    replies = [int(x) for x in a.replies.split(",")]
    if a.reached and a.deepen:
        known = searched_for(load(cache), a.seconds)
        starts = reached(a.reached, a.size, a.min_games, a.max_stones, {})
        frontier = {position_key(a.size, m)[0]: (m, {mover_at(len(m))}) for m in starts}
        grow_under(a.mohex, a.size, frontier, a.deepen + 1, replies, a.seconds, a.jobs, cache, known)
        return
    if a.reached:
        todo = reached(a.reached, a.size, a.min_games, a.max_stones, searched_for(load(cache), a.seconds))
        print(f"{len(todo)} positions reached in at least {a.min_games} games to search", file=sys.stderr)
        query_all(a.mohex, a.size, todo, a.seconds, a.jobs, cache)
        return
    grow(a.mohex, a.size, a.plies, replies, a.seconds, a.jobs, cache)


if __name__ == "__main__":
    main()
