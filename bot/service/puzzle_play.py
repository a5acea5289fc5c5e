"""Playing the server's puzzles (issue 48's practice): ``/puzzle`` and ``/puzzle mine``. Knows
nothing of Discord.

- **Choosing** (:func:`pick`): a member is set a puzzle of a finished game of their server that
  they may see (the visibility of ``/record``) and have not solved. ``/puzzle``: the one whose
  rating is nearest theirs. ``/puzzle mine``: their own missed wins first, then the rest of the
  puzzles of their games, then the server's. A failed puzzle comes back (spaced repetition) 1 day
  after the first failure, 3 days after the second, then 7 days after each later one.
- **Answering** (:meth:`PuzzlePlay.answer`): the member's turn (by the tap panel or typed) is
  checked by the search in an AI worker, behind the computer's moves and bounded
  (:func:`engine.ai.puzzle_check.check`): it is right when it wins at once or the search proves
  the win, so every proven winning answer is accepted. A wrong one ends the puzzle, failed, with
  the refutation the search found. After a right one the bot plays the defender's best reply and
  asks for the next turn, until the game's winning condition is met or :data:`MAX_ANSWERS` right
  answers were given; then the rest is the search's proof (the member is told so).
- **Ratings**: each finished attempt is a Glicko-2 rating period for the member and for the puzzle
  (:func:`bot.ratings.rate_puzzle`); a streak counts the puzzles solved in a row.

One open puzzle per member and server: ``/puzzle`` shows it again until it is answered, and it
expires (no rating change) :data:`EXPIRES_AFTER` seconds after it was set.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine import ActionError, GameOptions, Position
from engine.ai.puzzle_check import Verdict, check
from engine.ai.review import ITERATIONS

from ..ratings import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, Rating, rate_puzzle
from ..store import Conflict, PuzzleAttemptRow, PuzzleChoice, PuzzlePlayerRow, Sight, Store
from .errors import Command, UserError
from .locks import KeyLocks

#: runs a function in an AI worker behind the moves (``BotAI.when_idle``)
Runner = Callable[..., Awaitable[Any]]
#: days until a failed puzzle comes back: after the first failure, the second, the third and later
REPEAT_AFTER_DAYS = (1, 3, 7)
#: an open puzzle expires this long after it was set (seconds)
EXPIRES_AFTER = 24 * 3600.0
#: right answers asked for at most; after them the rest of the win is the search's proof
MAX_ANSWERS = 3
#: how many unsolved puzzles a choice looks through (newest first)
LOOK_AT = 200
_CELL = re.compile(r"[a-z]+\d+")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A member's puzzle as it stands: the attempt, the puzzle and its game, the position now, the
    colour the member plays (``solver``), and how many of their turns were answered right."""

    attempt: PuzzleAttemptRow
    choice: PuzzleChoice
    position: Position
    solver: str
    answered: int

    @property
    def version(self) -> int:
        """What a panel of this step is made for: the number of moves played in the puzzle."""
        return len(self.attempt.line)

    @property
    def game(self) -> str:
        """The puzzle's game (``hex``, ``inphexion``)."""
        return self.choice.game.game


@dataclass(frozen=True, slots=True)
class Answered:
    """What an answer did. ``outcome``: ``partial`` (the turn goes on: an inpHeXion relocation),
    ``next`` (right; the defender replied, the next turn is asked for), ``solved``, ``failed``.
    ``played``: the member's actions; ``reply``: the defender's (the refutation when failed);
    ``rest_proven``: solved by the search's proof before the game's end; ``rating``: the member's
    puzzle rating before and after (when the puzzle ended); ``streak``: solved in a row now;
    ``back_in_days``: when a failed puzzle is set again."""

    puzzle: Puzzle
    outcome: str
    played: tuple[str, ...]
    reply: tuple[str, ...] = ()
    rest_proven: bool = False
    rating: tuple[float, float] | None = None
    streak: int = 0
    #: a failed puzzle: in how many days it is set again (spaced repetition)
    back_in_days: int = 0


def stale() -> UserError:
    """The refusal of a panel made for an earlier step (or a second tap): nothing was played."""
    return UserError("That panel is out of date (the puzzle has moved on) — nothing was played.")


def due(choice: PuzzleChoice, now: float) -> bool:
    """Whether a puzzle may be set now: never tried, or failed and its repetition day has come.

    >>> from bot.store import GameRow, PuzzleChoice, PuzzleRow
    >>> g = GameRow(1, 1, 1, None, "hex", 5, (), None, 0, 1, 2, True, "finished", 0, None, None, 0, 0, 0)
    >>> c = PuzzleChoice(PuzzleRow(1, 0, "black", "c3", "d4", 0.0), 1500, 350, 0.06, g, failed=2, last_at=0.0)
    >>> due(c, 2.9 * 86400), due(c, 3 * 86400)
    (False, True)
    """
    if choice.failed == 0 or choice.last_at is None:
        return True
    return now >= choice.last_at + repeat_after(choice.failed) * 86400


def repeat_after(failed: int) -> int:
    """Days until a puzzle failed ``failed`` times (one or more) is set again.

    >>> [repeat_after(n) for n in (1, 2, 3, 4)]
    [1, 3, 7, 7]
    """
    return REPEAT_AFTER_DAYS[min(failed, len(REPEAT_AFTER_DAYS)) - 1]


def pick(choices: Sequence[PuzzleChoice], rating: float, now: float, missed_by_me: Collection[tuple[int, int]] = (),
         ) -> PuzzleChoice | None:
    """The puzzle to set: among those :func:`due`, the member's own missed wins first (``missed_by_me``:
    (game, ply)), then the repetitions that came due, then the rating nearest theirs (newest first on a tie)."""
    ready = [c for c in choices if due(c, now)]
    if not ready:
        return None
    order = {id(c): i for i, c in enumerate(choices)}
    return min(ready, key=lambda c: ((c.puzzle.game_id, c.puzzle.ply) not in missed_by_me, c.failed == 0,
                                     abs(c.rating - rating), order[id(c)]))


def _turn_start(start: Position, line: Sequence[str], solver: str) -> tuple[int, int]:
    """Where the member's current turn begins in ``line``, and how many of their turns were completed before it."""
    pos = start.copy()
    begin, done, before = 0, 0, solver
    for i, action in enumerate(line):
        mover = pos.to_move[0]
        if mover == solver and before != solver:
            begin = i
        if mover != solver and before == solver:
            done += 1
        before = mover
        pos.play(action)
    if pos.to_move and pos.to_move[0] == solver and before != solver:
        begin = len(line)
    return begin, done


def cells(position: Position, actions: Sequence[str]) -> tuple[int, ...]:
    """The board cells named in some actions (to point them out on a picture)."""
    out = []
    for action in actions:
        for name in _CELL.findall(action):
            try:
                out.append(position.grid.parse(name))
            except (ValueError, ActionError):
                continue
    return tuple(out)


class PuzzlePlay:
    """Sets puzzles, checks answers in the AI workers, keeps attempts, ratings and streaks.

    ``run``: runs a job in an AI worker behind the moves; ``iterations``: the check's search
    (None: the engine's review budget per game, :data:`engine.ai.review.ITERATIONS`)."""

    def __init__(self, store: Store, run: Runner, *, iterations: int | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.run = run
        self.iterations = iterations
        self.clock = clock
        #: one answer at a time per member (two taps: the second sees the first's result)
        self._locks = KeyLocks()
        #: answers checked by a search in this process (for tests and logs)
        self.checks = 0

    # -- setting a puzzle ------------------------------------------------------------------
    async def puzzle(self, guild_id: int, user_id: int, sight: Sight, *, mine: bool) -> tuple[Puzzle, bool]:
        """The member's open puzzle (and True), else a new one chosen for them (and False).
        Raises :class:`UserError` when the server has none for them."""
        async with self._locks.lock(user_id):
            now = self.clock()
            attempt = await self._open(guild_id, user_id, now)
            if attempt is not None:
                if await self.store.puzzle_choice(user_id, attempt.game_id, attempt.ply) is not None:
                    return await self._load(attempt), True
                # Its puzzle is gone (a database copied without the puzzles, which reviews make
                # again): closed without a rating change, and another one is set.
                await self.store.end_puzzle_attempt(attempt, attempt.line, "expired", now, None, None)
            player = await self.store.puzzle_player(guild_id, user_id)
            rating = player.rating if player is not None else DEFAULT_RATING
            chosen = None
            if mine:
                own = await self.store.puzzle_choices(guild_id, user_id, sight, own=True, limit=LOOK_AT)
                chosen = pick(own, rating, now, await self._missed_by(own, user_id))
            if chosen is None:
                every = await self.store.puzzle_choices(guild_id, user_id, sight, own=False, limit=LOOK_AT)
                chosen = pick(every, rating, now)
            if chosen is None:
                raise UserError(
                    "There is no puzzle for you in this server yet. Puzzles come from the reviews of finished "
                    "games (a move that missed a win the computer proved): play, then review a game with "
                    "{review}.", review=Command("review"))
            try:
                attempt = await self.store.start_puzzle_attempt(guild_id, user_id, chosen.puzzle.game_id,
                                                                chosen.puzzle.ply, now)
            except Conflict:  # another process set one a moment ago: that one
                attempt = await self.store.open_puzzle_attempt(guild_id, user_id)
                if attempt is None:
                    raise
                return await self._load(attempt), True
            return await self._load(attempt), False

    async def _missed_by(self, choices: Sequence[PuzzleChoice], user_id: int) -> set[tuple[int, int]]:
        """The puzzles among ``choices`` whose win the member missed (they were to move there)."""
        out = set()
        records: dict[int, list[str]] = {}  # a game's record read once for all its puzzles
        for c in choices:
            start = await self._start_position(c, records)
            if c.game.seats[start.seat_of_colour(start.to_move[0])] == user_id:
                out.add((c.puzzle.game_id, c.puzzle.ply))
        return out

    async def _open(self, guild_id: int, user_id: int, now: float) -> PuzzleAttemptRow | None:
        """The member's open attempt; one set too long ago is closed as expired (no rating change)."""
        attempt = await self.store.open_puzzle_attempt(guild_id, user_id)
        if attempt is not None and now - attempt.started_at > EXPIRES_AFTER:
            await self.store.end_puzzle_attempt(attempt, attempt.line, "expired", now, None, None)
            return None
        return attempt

    async def _start_position(self, choice: PuzzleChoice, records: dict[int, list[str]] | None = None) -> Position:
        """The puzzle's position: its game's record up to the puzzle (``records``: games read already)."""
        g = choice.game
        options = engine.make_options(g.game, g.size, g.variants, g.first)
        actions = records.get(g.id) if records is not None else None
        if actions is None:
            actions = await self.store.actions(game_id=g.id)
            if records is not None:
                records[g.id] = actions
        return engine.Record(options, actions[:choice.puzzle.ply]).replay()

    async def _load(self, attempt: PuzzleAttemptRow) -> Puzzle:
        choice = await self.store.puzzle_choice(attempt.user_id, attempt.game_id, attempt.ply)
        if choice is None:
            raise UserError("That puzzle is gone (its game's review was made again). {puzzle} gives another.",
                                puzzle=Command("puzzle"))
        start = await self._start_position(choice)
        solver = start.to_move[0]
        pos = start.copy()
        for action in attempt.line:
            pos.play(action)
        _, done = _turn_start(start, attempt.line, solver)
        return Puzzle(attempt, choice, pos, solver, done)

    # -- answering -------------------------------------------------------------------------
    async def current(self, guild_id: int, user_id: int, attempt_id: int | None = None) -> Puzzle:
        """The member's open puzzle (``attempt_id``: the one a panel was made for), or a refusal
        saying why there is none to answer."""
        now = self.clock()
        if attempt_id is None:
            attempt = await self._open(guild_id, user_id, now)
            if attempt is None:
                raise UserError("You have no puzzle open. {puzzle} gives you one.", puzzle=Command("puzzle"))
        else:
            attempt = await self._checked(attempt_id, user_id, now)
        return await self._load(attempt)

    async def _checked(self, attempt_id: int, user_id: int, now: float) -> PuzzleAttemptRow:
        """The open attempt a panel names, if it is this member's and still open."""
        attempt = await self.store.puzzle_attempt(attempt_id)
        if attempt is None:
            raise UserError("I no longer have that puzzle. {puzzle} gives you one.", puzzle=Command("puzzle"))
        if attempt.user_id != user_id:
            raise UserError("That puzzle is someone else's. {puzzle} gives you your own.", puzzle=Command("puzzle"))
        if attempt.status == "open" and now - attempt.started_at > EXPIRES_AFTER:
            await self.store.end_puzzle_attempt(attempt, attempt.line, "expired", now, None, None)
            attempt = await self.store.puzzle_attempt(attempt_id) or attempt
        if attempt.status == "expired":
            raise UserError("That puzzle expired (a puzzle stays open for a day). {puzzle} gives you a new one.",
                              puzzle=Command("puzzle"))
        if attempt.status != "open":
            raise UserError("That puzzle is over. {puzzle} gives you the next one.", puzzle=Command("puzzle"))
        return attempt

    async def answer(self, guild_id: int, user_id: int, text: str, *, attempt_id: int | None = None,
                     version: int | None = None) -> Answered:
        """Play the member's answer ``text`` (one action, or a whole turn typed) in their open puzzle
        (``attempt_id``/``version``: the puzzle and step a panel was made for). Raises
        :class:`UserError` (nothing changed) for no open puzzle, someone else's, one that is over
        or expired, a panel of an earlier step, or an illegal move."""
        async with self._locks.lock(user_id):
            puzzle = await self.current(guild_id, user_id, attempt_id)
            if version is not None and version != puzzle.version:
                raise stale()
            pos = puzzle.position.copy()
            try:
                played = tuple(pos.play(text, puzzle.solver))
            except ActionError as exc:
                raise UserError("{move} is not a legal move here: {why}", move=text, why=str(exc)) from exc
            return await self._after(puzzle, pos, played)

    async def _after(self, puzzle: Puzzle, pos: Position, played: tuple[str, ...]) -> Answered:
        attempt = puzzle.attempt
        line = attempt.line + played
        if pos.outcome is None and puzzle.solver in pos.to_move:
            # A turn in several actions (an inpHeXion move, then its relocations): checked once whole.
            if not await self.store.advance_puzzle_attempt(attempt.id, attempt.line, line):
                raise stale()
            return Answered(await self._load(_with(attempt, line)), "partial", played)
        start = await self._start_position(puzzle.choice)
        begin, _ = _turn_start(start, line, puzzle.solver)
        g = puzzle.choice.game
        options = start.options
        prefix = list(await self.store.actions(game_id=g.id))[:puzzle.choice.puzzle.ply] + list(line[:begin])
        iterations = self.iterations if self.iterations is not None else ITERATIONS[g.game]
        verdict: Verdict = await self.run(_check_job, options, prefix, list(line[begin:]), iterations,
                                          g.seed + attempt.ply + len(line))
        self.checks += 1
        turn = " ".join(line[begin:])
        # The review proved the puzzle's own answer: it is right even where this search's budget falls short.
        right = verdict.right or (begin == 0 and turn == puzzle.choice.puzzle.answer)
        reply = tuple(a for a in (verdict.reply or "").split(";") if a)
        if not right:
            return await self._end(puzzle, line + reply, played, reply, solved=False)
        answered = puzzle.answered + 1
        if verdict.won or answered >= MAX_ANSWERS or not reply:
            return await self._end(puzzle, line, played, (), solved=True, rest_proven=not verdict.won)
        after = pos.copy()
        for action in reply:
            after.play(action)
        if after.outcome is not None:  # cannot happen after a proven win; judged as the board says
            won = after.outcome.winner == puzzle.solver
            return await self._end(puzzle, line + reply, played, reply, solved=won)
        if not await self.store.advance_puzzle_attempt(attempt.id, attempt.line, line + reply):
            raise stale()
        return Answered(await self._load(_with(attempt, line + reply)), "next", played, reply)

    async def _end(self, puzzle: Puzzle, line: tuple[str, ...], played: tuple[str, ...], reply: tuple[str, ...], *,
                   solved: bool, rest_proven: bool = False) -> Answered:
        """Close the attempt, solved or failed, with the member's and the puzzle's new ratings."""
        attempt, choice, now = puzzle.attempt, puzzle.choice, self.clock()
        status = "solved" if solved else "failed"
        # One transaction that holds the puzzle's rating from its reading to its writing: another
        # member finishing the same puzzle meanwhile waits, then rates from this result.
        async with self.store.transaction():
            held = await self.store.lock_puzzle_rating(attempt.game_id, attempt.ply)
            theirs = Rating(*held) if held else Rating(choice.rating, choice.deviation, choice.volatility)
            old = await self.store.puzzle_player(attempt.guild_id, attempt.user_id)
            mine = Rating(old.rating, old.deviation, old.volatility) if old else \
                Rating(DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY)
            new_mine, new_puzzle = rate_puzzle(mine, theirs, solved)
            streak = (old.streak if old else 0) + 1 if solved else 0
            player = PuzzlePlayerRow(
                attempt.guild_id, attempt.user_id, new_mine.rating, new_mine.deviation, new_mine.volatility,
                (old.solved if old else 0) + solved, (old.failed if old else 0) + (not solved), streak,
                max(streak, old.best_streak if old else 0), now)
            if not await self.store.end_puzzle_attempt(attempt, line, status, now, player,
                                                       (new_puzzle.rating, new_puzzle.deviation, new_puzzle.volatility)):
                raise stale()
        ended = PuzzleAttemptRow(attempt.id, attempt.guild_id, attempt.user_id, attempt.game_id, attempt.ply, line,
                                 status, attempt.started_at, now)
        pos = puzzle.position.copy()
        for action in line[len(attempt.line):]:
            pos.play(action)
        done = Puzzle(ended, choice, pos, puzzle.solver, puzzle.answered + solved)
        back = 0 if solved else repeat_after(choice.failed + 1)
        return Answered(done, status, played, reply, rest_proven and solved, (mine.rating, new_mine.rating), streak,
                        back)

    async def player(self, guild_id: int, user_id: int) -> PuzzlePlayerRow | None:
        """A member's puzzle rating and streak (None before their first finished puzzle)."""
        return await self.store.puzzle_player(guild_id, user_id)


def _check_job(options: GameOptions, actions: list[str], answer: list[str], iterations: int, seed: int) -> Verdict:
    """Worker side: an answer checked (module level, so it pickles)."""
    return check(options, actions, answer, iterations=iterations, seed=seed)


def _with(attempt: PuzzleAttemptRow, line: tuple[str, ...]) -> PuzzleAttemptRow:
    return PuzzleAttemptRow(attempt.id, attempt.guild_id, attempt.user_id, attempt.game_id, attempt.ply, line,
                            attempt.status, attempt.started_at, attempt.ended_at)
