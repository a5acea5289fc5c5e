"""Hex matches of the engine's AI against MoHex 2.0 over GTP (used by ``python -m bench.ai --mohex PATH``).

MoHex is a measuring tool, never a dependency: build it as
``/work/shared/notes/mohex.md`` (or docs/benchmarks.md) describes and pass the path of the
binary (``build/src/mohex/mohex``) with ``--mohex`` or the ``MOHEX`` environment
variable. Without it, :func:`main_rows` prints how to get one and plays nothing.

Fairness, as the note prescribes: no swap, one thread, no pondering, no time
management, and ``max_time`` = the time per move minus a running estimate of the
time MoHex spends outside its search clock (its connection analysis; its search
itself never stops before 1 s, so 1 s rows still give it more: the table shows
both sides' measured wall and CPU time per move). Each opening (Black's first
stone, from a fixed list) is played twice, once with each colour for our AI.
MoHex crashes (exit 139 after "Fillin caused win!") once its knowledge has decided
the game. When its log said "Opponent has won" first, the crash is in the code that
plays on in a lost position: that is its resignation, and the game is ours. Any other
crash, or a ``genmove`` it refuses to answer, restarts it, replays the game so far
and asks again; it repeats in the same position, so a second crash there is answered
by asking with MoHex's inferior-cell engine off for that one move, and a third ends
the game, adjudicated by the knowledge our search trusts at its root (the full
H-search on the filled board, both players) when it decides it, else not counted.
The table counts the restarts; the per-game lines the ICE-off moves, resignations
and adjudications, and each side's speed (our search's iterations a second, MoHex's
"Games/s" from its log; the medians over the moves each searched): two rows run side by
side share the machine, and a row played slower than another shows it there.

"Proved" plies: ours come from :data:`engine.ai.hex.ai.LAST` (virtual connections
or the tree's solver proved the result); MoHex's from its log: a ``genmove``
without "Best move cannot be determined, must search state" (its virtual
connections decided the position) or with "Winning sequence found".
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine import make_options
from engine.ai import choose
from engine.ai.hex import ai as hex_ai
from engine.ai.hex.ai import knowledge

HOW_TO_GET = (
    "MoHex row skipped: no MoHex binary. Build one (15-20 min on 2 cores): fetch "
    "github.com/cgao3/benzene-vanilla-cmake, apt-get install cmake g++ libboost-thread-dev "
    "libboost-system-dev libboost-filesystem-dev libboost-program-options-dev libboost-date-time-dev "
    "libdb-dev libdb++-dev, then `mkdir build && cd build && cmake .. && make mohex`; pass "
    "build/src/mohex/mohex with --mohex PATH or MOHEX=PATH."
)

#: Black's first stone per game pair, per board size (fixed; spread over the board)
OPENINGS = {
    9: ["e5", "c3", "g7", "d6", "f4", "b8", "h2", "c7", "g3", "e3", "e7", "a9", "i1", "d4", "f6",
        "b5", "h5", "c5", "g5", "e2"],
    11: ["f6", "c3", "i9", "e7", "g5", "b10", "j2", "c9", "i3", "f3", "f9", "a11", "k1", "e5", "g7",
         "b6", "j6", "d6", "h6", "f2"],
}


@dataclass(frozen=True)
class Row:
    """One match setting: board size, seconds per move, our level."""

    name: str
    size: int
    seconds: float
    level: str


ROWS = (
    Row("MoHex 9×9, 1 s a move", 9, 1.0, "medium"),
    Row("MoHex 9×9, 3 s a move", 9, 3.0, "hard"),
    Row("MoHex 11×11, 1 s a move", 11, 1.0, "medium"),
)


class MoHexCrashed(Exception):
    """MoHex exited while answering.

    ``conceded``: its log had said "Opponent has won" first. Its own knowledge found the
    position lost (fill-in and connections, both sound), and the crash is in the code
    that then looks for "the most blocking move" (``EndgameUtil::PlayLostGame`` asserts
    it found one). That is MoHex's resignation in all but name.
    """

    def __init__(self, what: str, conceded: bool = False) -> None:
        super().__init__(what)
        self.conceded = conceded


class MoHex:
    """A MoHex process spoken to in GTP; its log (stderr) goes to a temporary file."""

    def __init__(self, path: str, size: int) -> None:
        self.path = path
        self.size = size
        self.log = tempfile.TemporaryFile(mode="w+b")
        self.proc: subprocess.Popen[bytes] | None = None
        self.overhead: list[float] = []
        self.restarts = 0
        self.start()

    def start(self) -> None:
        """(Re)start the process with the fair settings (a process still running is ended first)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            cwd=str(Path(self.path).resolve().parent),
        )
        self.command(f"boardsize {self.size} {self.size}")
        for setting in ("num_threads 1", "ponder 0", "use_time_management 0"):
            self.command(f"param_mohex {setting}")

    def command(self, line: str) -> str:
        """Send one GTP command; its answer (``=`` stripped). Raises MoHexCrashed if it died."""
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise MoHexCrashed(line) from None
        lines = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                self.proc.wait()
                raise MoHexCrashed(f"{line}: exit {self.proc.returncode}")
            text = raw.decode().rstrip("\n")
            if not text and lines:
                break
            if text:
                lines.append(text)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError(f"MoHex refused '{line}': {answer}")
        return answer.lstrip("= ").strip()

    def cpu_seconds(self) -> float:
        """User + system CPU time of the process so far."""
        assert self.proc is not None
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            return 0.0

    def genmove(self, colour: str, seconds: float) -> tuple[str, float, float, bool]:
        """MoHex's move for ``colour`` in about ``seconds`` of wall time.

        Returns (move, wall seconds, CPU seconds, proved).
        """
        estimate = sum(self.overhead[-8:]) / len(self.overhead[-8:]) if self.overhead else 0.5
        max_time = max(0.1, seconds - estimate)
        self.command(f"param_mohex max_time {max_time:.3f}")
        self.log.seek(0, os.SEEK_END)
        start_log = self.log.tell()
        cpu0 = self.cpu_seconds()
        t = time.perf_counter()
        try:
            move = self.command(f"genmove {colour[0]}")
        except MoHexCrashed as crash:
            self.log.seek(start_log)
            said = self.log.read().decode(errors="replace")
            raise MoHexCrashed(str(crash), conceded="Opponent has won" in said) from None
        except RuntimeError as refused:
            # Seen once in 80 games, right after a game its crashes ended: "? illegal move:
            # black invalid". Handled like a crash: restart, replay, ask again.
            raise MoHexCrashed(str(refused)) from None
        wall = time.perf_counter() - t
        cpu = self.cpu_seconds() - cpu0
        self.log.seek(start_log)
        text = self.log.read().decode(errors="replace")
        searched = "must search state" in text
        proved = (not searched) or "Winning sequence found" in text
        self.last_speed = games_per_second(text)
        if searched:
            # Its search clock never runs under 1 s; the rest is outside it.
            self.overhead.append(max(0.0, wall - max(1.0, max_time)))
        return move.lower(), wall, cpu, proved

    #: MoHex's search speed on its last ``genmove`` (None when it did not search)
    last_speed: float | None = None

    def close(self) -> None:
        """Quit (or kill) the process."""
        if self.proc is None:
            return
        try:
            self.command("quit")
            self.proc.wait(timeout=5)
        except (MoHexCrashed, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def games_per_second(log: str) -> float | None:
    """MoHex's playouts a second, from the statistics its search writes to its log ("Games/s")."""
    found = re.findall(r"^Games/s\s+([0-9.]+)", log, re.MULTILINE)
    return float(found[-1]) if found else None


@dataclass
class Game:
    """One game against MoHex: who won, with what, and when each side first proved the result."""

    opening: str
    ours: str
    winner: str = ""
    plies: int = 0
    resigned: bool = False
    #: MoHex crashed three times on one move: decided by our virtual connections (winner "" if they could not)
    adjudicated: bool = False
    #: MoHex crashed right after its log said "Opponent has won" (see :class:`MoHexCrashed`)
    conceded: bool = False
    our_proof: int | None = None
    mohex_proof: int | None = None
    restarts: int = 0
    #: MoHex moves made with its inferior-cell engine off (after a repeated crash)
    ice_off_moves: int = 0
    wall: dict[str, list[float]] = field(default_factory=lambda: {"ours": [], "mohex": []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"ours": [], "mohex": []})
    #: the moves played, Black's first stone first (for analysing the games afterwards)
    moves: list[str] = field(default_factory=list)
    #: the plies (counted as in ``our_proof``) at which our move came from the opening book
    book_plies: list[int] = field(default_factory=list)
    #: our search's iterations a second on each move it searched (book moves and proofs by the
    #: root's connections run none): a weak row can be checked against our speed in it
    speed: list[float] = field(default_factory=list)
    #: MoHex's playouts a second on each move it searched (its log's "Games/s")
    mohex_speed: list[float] = field(default_factory=list)


def play(mohex: MoHex, row: Row, opening: str, ours: str, seed: int) -> Game:
    """One game; ``ours`` is our AI's colour. Black's first stone is ``opening``."""
    game = Game(opening, ours)
    pos = make_options("hex", row.size, ()).new_position()
    mohex.command("clear_board")
    pos.play(opening)
    mohex.command(f"play b {opening}")
    while pos.outcome is None:
        colour = pos.to_move[0]
        ply = len(pos.actions) + 1
        if colour == ours:
            cpu0, t = time.process_time(), time.perf_counter()
            move = choose(pos, row.level, seed=seed * 1000 + ply, budget=row.seconds)
            game.wall["ours"].append(time.perf_counter() - t)
            game.cpu["ours"].append(time.process_time() - cpu0)
            report = hex_ai.LAST
            if report is not None and report.proven is not None and game.our_proof is None:
                game.our_proof = ply
            if report is not None and report.book:
                game.book_plies.append(ply)
            if report is not None and report.iterations > 0:
                game.speed.append(report.iterations / max(game.wall["ours"][-1], 1e-9))
            pos.play(move)
            mohex.command(f"play {colour[0]} {move}")
            continue
        move = _mohex_move(mohex, pos, colour, row.seconds, game)
        if move is None:
            # The crash comes with "Fillin caused win": MoHex's knowledge says the game is
            # decided. Our virtual connections adjudicate it, or the game does not count.
            game.adjudicated = True
            game.winner = _adjudicate(pos) or ""
            break
        if move == "resign":
            game.resigned = True
            game.winner = ours
            break
        pos.play(move)
    if pos.outcome is not None:
        game.winner = pos.outcome.winner
    game.plies = len(pos.actions)
    game.moves = list(pos.actions)
    return game


def _mohex_move(mohex: MoHex, pos, colour: str, seconds: float, game: Game) -> str | None:
    """MoHex's move, restarting it and replaying the game after a crash.

    The known crash repeats in the same position, so after a second one the move is
    asked for with MoHex's inferior-cell engine (ICE) off for that one move (the
    fill-in that triggers the crash comes from it); the game records it. None when
    it crashed a third time: the game is then adjudicated (see :func:`play`).
    """
    for attempt in range(3):
        try:
            if attempt == 2:
                mohex.command("param_player_board use_ice 0")
                game.ice_off_moves += 1
            move, wall, cpu, proved = mohex.genmove(colour, seconds)
            if attempt == 2:
                mohex.command("param_player_board use_ice 1")
        except MoHexCrashed as crash:
            game.restarts += 1
            mohex.restarts += 1
            mohex.start()
            if crash.conceded:
                _stderr(f"<!-- MoHex found its loss and crashed ({crash}) at ply {len(pos.actions) + 1}: it resigns -->")
                game.conceded = True
                return "resign"
            _stderr(f"<!-- MoHex crashed ({crash}) at ply {len(pos.actions) + 1}; restarting and replaying -->")
            mohex.command("clear_board")
            for i, a in enumerate(pos.actions):
                mohex.command(f"play {'bw'[i % 2]} {a}")
            continue
        game.wall["mohex"].append(wall)
        if mohex.last_speed is not None:
            game.mohex_speed.append(mohex.last_speed)
        game.cpu["mohex"].append(cpu)
        if proved and game.mohex_proof is None:
            game.mohex_proof = len(pos.actions) + 1
        return move
    return None


def _adjudicate(pos) -> str | None:
    """The winning colour by our virtual connections (None when they do not decide).

    The knowledge our search trusts at its root: the full H-search on the board with
    dead and captured cells filled in, for both players (each step sound; the tests
    check its claims against exhaustive search).
    """
    mover = pos.to_move[0]
    black, white = pos._stones("black"), pos._stones("white")
    vc = knowledge(pos.grid, black, white, mover == "black", both_boards=True).vc
    other = "white" if mover == "black" else "black"
    if vc.mover_wins:
        return mover
    if vc.mover_loses:
        return other
    return None


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_row(path: str, row: Row, games: int, seed: int, log=_stderr) -> list[Game]:
    """``games`` games of one row: openings in order, each with our AI as Black then as White."""
    mohex = MoHex(path, row.size)
    out: list[Game] = []
    try:
        for i in range(games):
            opening = OPENINGS[row.size][(i // 2) % len(OPENINGS[row.size])]
            ours = "black" if i % 2 == 0 else "white"
            g = play(mohex, row, opening, ours, seed * 100003 + i)
            out.append(g)
            log(_game_line(row, i, g))
    finally:
        mohex.close()
    return out


def _game_line(row: Row, i: int, g: Game) -> str:
    won = "won" if g.winner == g.ours else "lost"
    proof = lambda p: "—" if p is None else str(p)  # noqa: E731
    end = " (MoHex resigned)" if g.resigned else ""
    if g.conceded:
        end = ' (MoHex resigned: its log said "Opponent has won", then it crashed)'
    if g.adjudicated:
        end = " (MoHex crashed 3 times: adjudicated by our virtual connections)"
        if not g.winner:
            won, end = "did not finish", " (MoHex crashed 3 times, undecided: not counted)"
    return (
        f"<!-- {row.name} game {i + 1}: opening {g.opening}, ours {g.ours}, we {won} in {g.plies} plies{end}; "
        f"first proved at ply: ours {proof(g.our_proof)}, MoHex {proof(g.mohex_proof)}; "
        f"our book moves at plies: {' '.join(map(str, g.book_plies)) or 'none'}; "
        f"MoHex restarts {g.restarts}, ICE-off moves {g.ice_off_moves}; "
        f"our search {_median_speed(g.speed)} iterations/s, MoHex's {_median_speed(g.mohex_speed)} games/s "
        f"(medians of their searched moves); moves {' '.join(g.moves)} -->"
    )


def _median_speed(speeds: list[float]) -> str:
    """The median of one side's speeds over a game (our iterations or MoHex's games a second),
    readable ("—" when that side never searched)."""
    if not speeds:
        return "—"
    ordered = sorted(speeds)
    return f"{ordered[len(ordered) // 2]:,.0f}"


def summary(row: Row, games: list[Game]) -> str:
    """A markdown table row for one match (games MoHex's crashes left undecided are not counted)."""
    games = [g for g in games if g.winner]
    n = len(games)
    wins = sum(g.winner == g.ours for g in games)
    as_b = [g for g in games if g.ours == "black"]
    as_w = [g for g in games if g.ours == "white"]
    wb = sum(g.winner == g.ours for g in as_b)
    ww = sum(g.winner == g.ours for g in as_w)

    def mean(side: str, what: str) -> float:
        xs = [x for g in games for x in getattr(g, what)[side]]
        return sum(xs) / max(1, len(xs))

    def proof_lead() -> str:
        both = [(g.mohex_proof, g.our_proof) for g in games]
        ours = [p for _, p in both if p is not None]
        theirs = [p for p, _ in both if p is not None]
        med = lambda xs: sorted(xs)[len(xs) // 2] if xs else None  # noqa: E731
        return f"{med(ours) or '—'} / {med(theirs) or '—'}"

    return (
        f"| {row.name} ({row.level}) | {n} | {wins} | {wins / max(1, n):.0%} | {wb}/{len(as_b)} | {ww}/{len(as_w)} | "
        f"{mean('ours', 'wall'):.2f} / {mean('mohex', 'wall'):.2f} | {mean('ours', 'cpu'):.2f} / {mean('mohex', 'cpu'):.2f} | "
        f"{proof_lead()} | {sum(g.restarts for g in games)} |"
    )


HEADER = (
    "| match (our level) | games | our wins | win rate | as Black | as White | "
    "wall s/move ours / MoHex | CPU s/move ours / MoHex | median first proof ply ours / MoHex | MoHex restarts |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def main_rows(path: str | None, games: int, seed: int, only: str | None = None) -> None:
    """Play and print the MoHex table (or say how to get MoHex); ``only`` filters rows by name."""
    rows = [row for row in ROWS if not only or only.lower() in row.name.lower()]
    if not rows:
        return
    path = path or os.environ.get("MOHEX")
    if not path or not Path(path).is_file():
        print(HOW_TO_GET if not path else f"MoHex row skipped: {path} is not a file. " + HOW_TO_GET, flush=True)
        return
    print(HEADER, flush=True)
    for row in rows:
        games_played = run_row(path, row, games, seed)
        print(summary(row, games_played), flush=True)
