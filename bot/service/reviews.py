"""Game reviews (issue 48): made once per finished game in the AI workers, behind moves, kept as
they are made, served again from the database.

A review values every position of the game with the engine's search
(:func:`engine.ai.review.value_at`: one search of a fixed budget per position, deterministic for the
game's seed). Each position is one job in a worker, started only when no computer move waits for
one (:meth:`bot.ai.BotAI.when_idle`), and this process reviews one game at a time, position by
position: a review never holds a worker longer than one position (19×19: about 2.3 CPU seconds),
so a move waits at most that long. Every value is stored as it comes (table ``review_values``),
so a restart goes on where it stopped (:meth:`ReviewsService.resume`), and a finished review is
put together from the stored values at once, without a search.

A finished review's missed wins are kept as puzzles (:mod:`.puzzles`).

The stored review is keyed by what it is of (the game's moves, the budget, the seed): a review
made with another budget is made again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from engine.ai.review import ITERATIONS, Review, Value, assemble, needed, value_at
from engine.position import GameOptions

from .. import tasks
from ..i18n import tn
from ..store import GameRow, ReviewRow, ReviewValueRow, Store
from .errors import UserError
from .puzzles import puzzle_rows
from .values import ActiveGame

log = logging.getLogger(__name__)

#: runs a function in an AI worker behind the moves (``BotAI.when_idle``)
Runner = Callable[..., Awaitable[Any]]
#: the version of how reviews are made: a new one makes every kept review again
REVIEW_VERSION = 1
#: the most unfinished reviews a restart resumes at once (older ones are asked for again)
RESUME_AT_MOST = 100
#: seconds a process holds a review it makes before another may take it over (renewed at every
#: position, which takes seconds, or minutes behind a busy computer player)
LEASE = 300.0
#: seconds between two looks at the database for reviews queued in the background (by a game's end
#: in another process) or whose claim lapsed, while there is nothing to make
POLL = 30.0


def review_key(game_id: int, actions: list[str], iterations: int, seed: int) -> str:
    """What a game's review is made from, as a short hash (its moves, budget, seed and the version).

    >>> len(review_key(1, ["c3"], 1000, 5)), review_key(1, ["c3"], 1000, 5) == review_key(1, ["c3"], 500, 5)
    (32, False)
    """
    made_of = {"game": game_id, "moves": actions, "iterations": iterations, "seed": seed, "v": REVIEW_VERSION}
    return hashlib.sha256(json.dumps(made_of).encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class ReviewState:
    """Where a game's review stands: positions valued of all, and the review once finished."""

    game_id: int
    done: int
    total: int
    review: Review | None = None
    #: the finished review came from the database without a search
    stored: bool = False

    @property
    def share(self) -> float:
        """How much is done, 0–1."""
        return 1.0 if self.total == 0 else self.done / self.total


def _value_job(options: GameOptions, actions: list[str], k: int, iterations: int, seed: int) -> Value:
    """Worker side: one position's value (module level, so it pickles)."""
    return value_at(options, actions, k, iterations=iterations, seed=seed)


class ReviewsService:
    """Asks for, makes (one game at a time, behind moves) and serves reviews of finished games.

    ``run``: runs a job in an AI worker behind the moves; ``iterations``: the search per position
    (None: the engine's budget per game); ``owns``: whether this process does a server's background
    work (several processes on one database). Start the maker with :meth:`resume` (it also picks up
    the reviews a restart interrupted and those queued as games ended); stop it with :meth:`close`.

    Two queues: reviews members asked for, then those queued in the background as games ended
    (:mod:`.review_wanted`); a background review gives way to an asked one between two positions.
    Before making a review, the process claims it in the database for :data:`LEASE` seconds,
    renewed at every position, so two processes never make the same review; a claim whose
    holder died lapses and the review is taken over.
    """

    def __init__(self, store: Store, run: Runner, *, iterations: int | None = None,
                 clock: Callable[[], float] = time.time,
                 owns: Callable[[int | None], bool] = lambda guild_id: True, shared: bool = False) -> None:
        self.store = store
        self.run = run
        self.iterations = iterations
        self.clock = clock
        self.owns = owns
        #: other processes use the same database (else claims found at the start are a dead run's)
        self.shared = shared
        #: games whose review this process claimed (released when it stops)
        self._claimed: set[int] = set()
        #: who claims reviews: unique per process run, readable in the table
        self.owner = tasks.claimant()
        #: seconds between two looks at the database for background reviews and lapsed claims
        self.poll = POLL
        #: games waiting to be reviewed here, in order (one at a time): asked ones first
        self._asked: deque[int] = deque()
        self._background: deque[int] = deque()
        #: games whose review another process is making (claimed): followed from the database
        self._elsewhere: set[int] = set()
        #: games whose unfinished review was asked for with another budget (not ours to make unless asked here)
        self._not_ours: set[int] = set()
        #: member → the games whose review they asked for and that are being made (the limit)
        self._asked_by: dict[int, set[int]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: game → how many of its positions are valued (this process's reviews in progress)
        self._progress: dict[int, tuple[int, int]] = {}
        #: set whenever a position is valued or a review finishes (waiters look again)
        self._changed = asyncio.Condition()
        #: positions this process valued and kept (one search each), for tests and logs
        self.searches = 0
        #: background reviews this process finished, for tests and logs
        self.background_done = 0

    def budget(self, game: str) -> int:
        """Search iterations per position for ``game``."""
        return self.iterations if self.iterations is not None else ITERATIONS[game]

    @staticmethod
    def _options_and_actions(g: ActiveGame) -> tuple[GameOptions, list[str]]:
        return g.position.options, list(g.position.public_record())

    async def state(self, g: ActiveGame) -> ReviewState | None:
        """Where the game's review stands (None: never asked for, or asked with another budget)."""
        options, actions = self._options_and_actions(g)
        key = review_key(g.row.id, actions, self.budget(g.row.game), g.row.seed)
        row = await self.store.review(g.row.id)
        if row is None or row.key != key:
            return None
        return await self._state_of(row, options, actions)

    async def _state_of(self, row: ReviewRow, options: GameOptions, actions: list[str]) -> ReviewState:
        values = await self.store.review_values(row.game_id)
        if row.done_at is None:
            return ReviewState(row.game_id, len(values), row.total)
        review = assemble(options, actions, {v.ply: Value(v.seat0, v.proven, v.best) for v in values},
                          self.budget(options.game))
        return ReviewState(row.game_id, row.total, row.total, review, stored=True)

    def being_made_for(self, user_id: int) -> int:
        """How many reviews a member asked for are being made (what the ``reviews`` limit counts)."""
        return len(self._asked_by.get(user_id, ()))

    async def ask(self, g: ActiveGame, user_id: int | None = None, most: int | None = None) -> ReviewState:
        """The game's review if it is finished; else it is queued (once) and its progress returned.
        Only finished games are reviewed (a game in progress would help a player).

        ``user_id`` asks with the member's limit ``most``: UserError (nothing changed) when the ask
        would start a review and they have ``most`` being made already; a finished review, or one
        being made at someone's ask already, is always theirs to follow."""
        assert g.row.status != "active", "a game in progress is never reviewed"
        found = await self.state(g)
        if found is not None and found.review is not None:
            return found
        game_id = g.row.id
        asked_already = any(game_id in games for games in self._asked_by.values()) or game_id in self._asked
        if user_id is not None and most is not None and not asked_already:
            mine = self._asked_by.get(user_id, set())
            if len(mine) >= most:
                raise UserError("You already have {reviews} being made — this server allows {most} at once. "
                                "Ask again once one is shown.",
                                reviews=tn("{n} review", "{n} reviews", len(mine)), most=most)
        options, actions = self._options_and_actions(g)
        total = len(needed(options, actions))
        row = await self.store.start_review(
            game_id, review_key(game_id, actions, self.budget(g.row.game), g.row.seed), total, self.clock())
        if total == 0:
            await self.store.finish_review(game_id, self.clock())
            return ReviewState(game_id, 0, 0, assemble(options, actions, {}, self.budget(g.row.game)))
        self._not_ours.discard(game_id)  # asked here: made with our budget from now on
        if user_id is not None and not asked_already:
            self._asked_by.setdefault(user_id, set()).add(game_id)
        self._enqueue(row.game_id, asked=True)
        return found or ReviewState(game_id, 0, total)

    def running(self, game_id: int) -> bool:
        """Whether this process (or another one that claimed it) is making, or will make, the game's review."""
        return (game_id in self._progress or game_id in self._asked or game_id in self._background
                or game_id in self._elsewhere)

    def _enqueue(self, game_id: int, *, asked: bool) -> None:
        if asked and game_id in self._background:
            self._background.remove(game_id)  # asked for now: it goes before the background ones
        if game_id not in self._asked and game_id not in self._background:
            (self._asked if asked else self._background).append(game_id)
        self._elsewhere.discard(game_id)
        self._wake.set()
        self._start()

    def wake(self) -> None:
        """Look for reviews queued in the background now (a game just ended here)."""
        self._wake.set()

    async def wait(self, g: ActiveGame, timeout: float) -> ReviewState:
        """The game's review state once a position more is valued or it finished (or after ``timeout`` seconds)."""
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                pass
        return await self.state(g) or ReviewState(g.row.id, 0, 0)

    async def resume(self, owns: Callable[[int | None], bool] | None = None) -> int:
        """Queue the reviews a restart interrupted and those queued as games ended (asked ones
        first, oldest first; only of servers this process ``owns``, when several share the
        database) and start the maker; how many were queued."""
        if owns is not None:
            self.owns = owns
        if not self.shared:
            # The only process on this database: claims left in the table are a stopped run's.
            await self.store.release_review_claims()
        queued = await self._look()
        self._start()
        return queued

    async def _look(self) -> int:
        """Queue the unfinished reviews of this process's servers that are not queued here yet; how many."""
        queued = 0
        unfinished = await self.store.unfinished_reviews(RESUME_AT_MOST)
        waiting = {row.game_id for row in unfinished}
        for game_id in self._elsewhere - waiting:
            self._elsewhere.discard(game_id)  # another process finished it
            self._done_with(game_id)
        for row in unfinished:
            if (row.game_id in self._asked or row.game_id in self._background or row.game_id in self._progress
                    or row.game_id in self._not_ours):
                continue
            game = await self.store.get_game(row.game_id)
            if game is not None and self.owns(game.guild_id):
                self._enqueue(row.game_id, asked=not row.background)
                queued += 1
        return queued

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._make_all(), name="reviews")

    async def close(self) -> None:
        """Stop making reviews (what is made so far is kept; a restart goes on from there)."""
        await tasks.stop(self._task)
        self._task = None
        for game_id in list(self._claimed):
            await self._release(game_id)  # another process takes it at once, not when the lease lapses

    def _next(self) -> tuple[int, bool] | None:
        """The game to review next and whether it is a background one (None: nothing to do)."""
        if self._asked:
            return self._asked[0], False
        if self._background:
            return self._background[0], True
        return None

    async def _make_all(self) -> None:
        """The maker: one game at a time, the asked ones first; when idle, looks in the database
        every :attr:`poll` seconds (or when woken) for background reviews and lapsed claims."""
        while True:
            nxt = self._next()
            if nxt is None:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self.poll)
                except TimeoutError:
                    pass
                try:
                    await self._look()
                except Exception:
                    log.exception("could not look for reviews to make")
                continue
            game_id, background = nxt
            finished = True
            try:
                finished = await self._make(game_id, background)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A job lost with a dead worker, a database error: the review stays unfinished, a
                # restart or the next ask goes on with it.
                log.exception("review of game %d failed; it resumes on the next ask", game_id)
                await self._release(game_id)
            finally:
                self._progress.pop(game_id, None)
            if finished:
                queue = self._background if background else self._asked
                if queue and queue[0] == game_id:
                    queue.popleft()
                if game_id not in self._elsewhere:
                    self._done_with(game_id)
            await self._notify()

    def _done_with(self, game_id: int) -> None:
        """The game's review is no longer being made for anyone (finished, failed or another's)."""
        for user_id in [u for u, games in self._asked_by.items() if game_id in games]:
            self._asked_by[user_id].discard(game_id)
            if not self._asked_by[user_id]:
                del self._asked_by[user_id]

    async def _release(self, game_id: int) -> None:
        self._claimed.discard(game_id)
        try:
            await self.store.release_review(game_id, self.owner)
        except Exception:
            log.warning("could not release the review of game %d", game_id)

    async def _make(self, game_id: int, background: bool) -> bool:
        """Value every position of a game's review not valued yet, storing each, then finish it.
        False when a background review gives way to an asked one (it goes on later)."""
        row = await self.store.review(game_id)
        game = await self.store.get_game(game_id)
        if row is None or row.done_at is not None or game is None:
            return True
        options, actions = await self._record(game)
        iterations, seed = self.budget(game.game), game.seed
        key = review_key(game_id, actions, iterations, seed)
        if row.key != key:
            if not row.background:
                self._not_ours.add(game_id)  # not looked at again until someone asks here
                return True  # asked for with another budget (another process, an older run): that one makes it
            # Queued as the game ended (no key yet) or by a process with another budget: made with ours.
            row = await self.store.start_review(game_id, key, len(needed(options, actions)), self.clock(),
                                                background=True)
        if not await self.store.claim_review(game_id, self.owner, self.clock(), LEASE):
            self._elsewhere.add(game_id)  # another process makes it: followed from the database
            return True
        self._claimed.add(game_id)
        have = {v.ply for v in await self.store.review_values(game_id)}
        todo = [k for k in needed(options, actions) if k not in have]
        done = row.total - len(todo)
        self._progress[game_id] = (done, row.total)
        for k in todo:
            if background and self._asked:
                return False  # a member waits: their review first, this one later from here
            value: Value = await self.run(_value_job, options, actions, k, iterations, seed)
            await self.store.put_review_value(game_id, ReviewValueRow(k, value.seat0, value.proven, value.best))
            self.searches += 1
            done += 1
            self._progress[game_id] = (done, row.total)
            if not await self.store.claim_review(game_id, self.owner, self.clock(), LEASE):
                # Our lease lapsed (a long wait behind moves) and another process took it over.
                self._claimed.discard(game_id)
                self._elsewhere.add(game_id)
                return True
            await self._notify()
        # The missed wins it found become puzzles (no search of their own).
        values = {v.ply: Value(v.seat0, v.proven, v.best) for v in await self.store.review_values(game_id)}
        review = assemble(options, actions, values, iterations)
        await self.store.put_puzzles(puzzle_rows(game_id, game.game, review, self.clock()))
        await self.store.finish_review(game_id, self.clock())
        self._claimed.discard(game_id)
        if row.background:
            self.background_done += 1
        return True

    async def _record(self, game: GameRow) -> tuple[GameOptions, list[str]]:
        """A finished game's options and public actions, as the review values them."""
        import engine

        options = engine.make_options(game.game, game.size, game.variants, game.first)
        actions = await self.store.actions(game_id=game.id)
        pos = engine.Record(options, actions).replay()
        return options, list(pos.public_record())

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()
