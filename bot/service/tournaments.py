"""Tournaments run by the bot (issue 46): sign-up, start, rounds, results, withdrawals, the end.

Knows nothing of Discord: the cog (:mod:`bot.cogs.tournaments`) opens threads and posts
messages; this module keeps the tournament in the database and asks the pure rules
(:mod:`bot.tournaments`) what comes next.

How a tournament moves on, exactly once: a game's end records its tournament result in the
same transaction (:mod:`.tournament_results`) and adds a ``tournament`` timer; the start does
the same. The timer driver runs that timer in the process that owns the server's shard, and
runs it again if that process dies mid-way. The handler calls :meth:`TournamentService.advance`,
which pairs the next round in a worker process (:mod:`.tournament_pairing`) and then inserts it under the tournament's row
lock: the round's primary key refuses a second pairing, so a rerun, a second timer or a second
process finds the round paired and only finishes what is left (games not yet started, the
announcement not yet made).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..store import Conflict, Store
from ..store.rows import EntrantRow, RoundRow, TournamentGameRow, TournamentRow
from ..timing.clocks import CLOCKS
from ..tournaments import (
    FORMATS,
    MINIMUM_ENTRANTS,
    MOST_PLAYERS,
    MOST_ROUNDS,
    Ending,
    Format,
    Pairing,
    Result,
    Round,
    Settings,
    Standing,
    Tournament,
    TournamentError,
    Withdrawal,
    is_over,
    most_swiss_rounds,
    seeded,
    standings,
    to_withdraw,
    winner,
)
from ..ui import tournament_texts as say
from . import GameService
from .core import GAME_TITLES
from .errors import Command, Option, Post, UserError
from .limits import TOURNAMENTS_RUNNING_PER_SERVER
from .tournament_pairing import PairingFailed, paired
from .tournament_results import TOURNAMENT_TIMER
from .values import ActiveGame

log = logging.getLogger(__name__)

#: seconds before a round whose pairing failed (too slow, or its worker died) is tried again
PAIRING_RETRY = 300.0
#: statuses in which a tournament is someone's business (the newest of a channel is acted on)
LIVE = ("open", "running")


@dataclass(frozen=True, slots=True)
class TournamentRequest:
    """What ``/tournament create`` asked for (variants already checked as ``/challenge`` checks them)."""

    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    size: int
    variants: tuple[str, ...]
    format: str
    rounds: int | None
    cycles: int
    clock: str
    max_players: int
    rated: bool


@dataclass(frozen=True, slots=True)
class State:
    """A tournament as stored and as the pure rules see it (player ids are the users' ids as text)."""

    row: TournamentRow
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundRow, ...]
    games: tuple[TournamentGameRow, ...]
    #: None before the start (or when too few signed up to make one)
    tournament: Tournament | None

    def names(self) -> dict[int, str]:
        """Entrants' names as they signed up."""
        return {e.user_id: e.name for e in self.entrants}

    def games_of(self, number: int) -> list[TournamentGameRow]:
        """Round ``number``'s games in board order."""
        return [g for g in self.games if g.round == number]

    def table(self) -> tuple[Standing, ...]:
        """The standings now (empty before the start)."""
        return () if self.tournament is None else standings(self.tournament)


@dataclass(slots=True)
class Advance:
    """What :meth:`TournamentService.advance` did or left for the cog: withdrawals to announce, the
    current round's games to start and its announcement, and whether the final post is due."""

    state: State
    withdrawn: list[int] = field(default_factory=list)
    #: the current round, when its announcement has not gone out
    round: RoundRow | None = None
    #: its games with no game started yet
    to_start: list[TournamentGameRow] = field(default_factory=list)
    #: the tournament is over and its final standings are due
    final: bool = False


def build(row: TournamentRow, entrants: list[EntrantRow], rounds: list[RoundRow],
          games: list[TournamentGameRow]) -> Tournament | None:
    """The pure tournament of stored rows (None before the start, and for one cancelled before its first round)."""
    if row.status == "open" or (row.status == "cancelled" and not rounds):
        return None
    settings = settings_of(row)
    seeds = seeded((str(e.user_id), e.name, e.rating) for e in entrants)
    paired: list[Round] = []
    results: list[Result] = []
    for r in rounds:
        pairings = []
        for g in games:
            if g.round != r.number:
                continue
            p = Pairing(str(g.first_id), str(g.second_id))
            pairings.append(p)
            if g.winner_id is not None and g.ending is not None:
                results.append(Result(r.number, p, str(g.winner_id), Ending(g.ending)))
        paired.append(Round(r.number, tuple(pairings), tuple(str(b) for b in r.byes)))
    gone = sorted((e for e in entrants if e.withdrawn_round is not None), key=lambda e: (e.withdrawn_round or 0, e.seq))
    withdrawals = tuple(Withdrawal(str(e.user_id), e.withdrawn_round or 0,
                                   "lapsed" if e.withdrawn_reason == "lapsed" else "asked") for e in gone)
    return Tournament(settings, seeds, tuple(paired), tuple(results), withdrawals)


def settings_of(row: TournamentRow) -> Settings:
    """The pure rules' settings of a stored tournament."""
    return Settings(_format(row.format), row.rounds, row.cycles)


def _format(name: str) -> Format:
    """A stored format name as the rules type it."""
    for f in ("swiss", "round-robin", "knockout"):
        if f == name:
            return f
    raise ValueError(f"unknown tournament format {name!r}")


class TournamentService:
    """Tournaments of every server, kept in the store, games started through the game service."""

    def __init__(self, games: GameService) -> None:
        self.games = games

    @property
    def store(self) -> Store:
        """The game service's store."""
        return self.games.store

    def _now(self) -> float:
        return self.games.clock()

    # -- reading ---------------------------------------------------------------------------
    async def state(self, tournament_id: int) -> State:
        """A tournament with its entrants, rounds and games."""
        row = await self.store.get_tournament(tournament_id)
        if row is None:
            raise UserError(say.NO_TOURNAMENT_ID, id=tournament_id)
        return await self._state_of(row)

    async def _state_of(self, row: TournamentRow) -> State:
        entrants = await self.store.entrants(row.id)
        rounds = await self.store.tournament_rounds(row.id)
        games = await self.store.tournament_games(row.id)
        return State(row, tuple(entrants), tuple(rounds), tuple(games), build(row, entrants, rounds, games))

    async def newest(self, channel_id: int, statuses: tuple[str, ...] = LIVE) -> TournamentRow:
        """The newest tournament of a channel in one of ``statuses``; UserError when there is none."""
        row = await self.store.newest_tournament_in(channel_id, statuses)
        if row is None:
            raise UserError(say.NO_TOURNAMENT, create=say.Subcommand("tournament", "create"))
        return row

    async def find(self, guild_id: int, channel_id: int, tournament_id: int | None) -> TournamentRow:
        """Tournament ``tournament_id`` of this server, or the channel's newest of any status."""
        if tournament_id is None:
            return await self.newest(channel_id, ("open", "running", "finished"))
        row = await self.store.get_tournament(tournament_id)
        if row is None or row.guild_id != guild_id:
            raise UserError(say.NO_TOURNAMENT_ID, id=tournament_id)
        return row

    # -- sign-up -----------------------------------------------------------------------------
    async def create(self, req: TournamentRequest, staff: bool) -> TournamentRow:
        """Open a tournament for sign-up; ``staff``: the creator has Manage Server."""
        if not staff and await self.store.tournament_staff_only(req.guild_id):
            raise UserError(say.STAFF_ONLY, settings=Command("settings"))
        # The command offers only valid values; a modified client can send any (changes nothing).
        if req.format not in FORMATS:
            raise UserError(say.UNKNOWN_FORMAT, format=Option("format"))
        if req.clock not in CLOCKS:
            raise UserError(say.UNKNOWN_CLOCK, clock=Option("clock"), clocks=", ".join(CLOCKS))
        if req.rounds is not None and not 1 <= req.rounds <= MOST_ROUNDS:
            raise UserError(say.ROUNDS_OUT_OF_RANGE, rounds=Option("rounds"), most=MOST_ROUNDS)
        if req.max_players > MOST_PLAYERS:
            raise UserError(say.MAX_TOO_LARGE, max_players=Option("max_players"), most=MOST_PLAYERS)
        if req.rounds is not None and req.format != "swiss":
            raise UserError(say.ROUNDS_NOT_SWISS, rounds=Option("rounds"))
        if req.cycles != 1 and req.format != "round-robin":
            raise UserError(say.DOUBLE_NOT_ROUND_ROBIN, double=Option("double"))
        need = MINIMUM_ENTRANTS[_format(req.format)]
        if req.max_players < need:
            raise UserError(say.MAX_TOO_SMALL, max_players=Option("max_players"), format=say.FORMAT_NAMES[req.format],
                            need=need)
        most = (await self.games.limits(req.guild_id))["open_tournaments"]
        async with self.store.transaction():
            # one lock per server: two creations at once are counted one after the other
            await self.store.hold(f"tournaments:{req.guild_id}")
            mine = await self.store.tournaments_of(req.guild_id, LIVE, req.organiser_id)
            if len(mine) >= most:
                raise UserError(say.TOO_MANY_OPEN, open=say.open_count(len(mine)), most=most,
                                tournaments=[Post(r.guild_id, r.channel_id, r.message_id) for r in mine],
                                cancel=say.Subcommand("tournament", "cancel"))
            row = await self.store.insert_tournament(
                guild_id=req.guild_id, channel_id=req.channel_id, organiser_id=req.organiser_id, game=req.game,
                size=req.size, variants=req.variants, format=req.format, rounds=req.rounds, cycles=req.cycles,
                clock=req.clock, max_players=req.max_players, rated=req.rated, now=self._now())
        log.info("tournament %d: created by %d, %s %s", row.id, req.organiser_id, req.format, req.game)
        return row

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message."""
        await self.store.set_tournament_message(tournament_id, message_id)

    async def join(self, tournament_id: int, user_id: int, name: str) -> State:
        """Sign a player up; refuses twice, full, or not open."""
        try:
            async with self.store.transaction():
                row = await self._locked(tournament_id)
                if row.status != "open":
                    raise UserError(say.NOT_OPEN, id=row.id)
                signed = await self.store.entrants(row.id)
                if any(e.user_id == user_id for e in signed):
                    raise UserError(say.ALREADY_JOINED, id=row.id)
                if len(signed) >= row.max_players:
                    raise UserError(say.FULL, id=row.id, count=row.max_players)
                await self.store.add_entrant(row.id, user_id, name)
        except Conflict:
            raise UserError(say.ALREADY_JOINED, id=tournament_id) from None
        return await self.state(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> State:
        """Take a player off the sign-up; after the start they must withdraw instead."""
        async with self.store.transaction():
            row = await self._locked(tournament_id)
            if row.status == "running":
                raise UserError(say.LEAVE_STARTED, id=row.id, withdraw=say.Subcommand("tournament", "withdraw"))
            if row.status != "open":
                raise UserError(say.NOT_OPEN, id=row.id)
            if not await self.store.remove_entrant(row.id, user_id):
                raise UserError(say.NOT_JOINED, id=row.id)
        return await self.state(tournament_id)

    async def start(self, tournament_id: int, user_id: int) -> State:
        """The organiser starts the tournament: entrants are seeded by rating and round 1 is due."""
        async with self.store.transaction():
            row = await self._locked(tournament_id)
            if user_id != row.organiser_id:
                raise UserError(say.ONLY_ORGANISER_START, id=row.id)
            if row.status != "open":
                raise UserError(say.NOT_OPEN, id=row.id)
            await self.store.hold(f"tournaments:{row.guild_id}")
            running = await self.store.tournaments_of(row.guild_id, ("running",))
            if len(running) >= TOURNAMENTS_RUNNING_PER_SERVER:
                raise UserError(say.TOO_MANY_RUNNING, running=say.open_count(len(running)), id=row.id)
            signed = await self.store.entrants(row.id)
            fmt = _format(row.format)
            if len(signed) < MINIMUM_ENTRANTS[fmt]:
                raise UserError(say.TOO_FEW, format=say.FORMAT_NAMES[fmt], need=MINIMUM_ENTRANTS[fmt], id=row.id,
                                count=len(signed))
            most = most_swiss_rounds(len(signed))
            if fmt == "swiss" and row.rounds is not None and row.rounds > most:
                raise UserError(say.TOO_MANY_ROUNDS, id=row.id, count=len(signed), most=most, rounds=row.rounds,
                                cancel=say.Subcommand("tournament", "cancel"))
            ratings = {e.user_id: await self.store.get_rating(row.guild_id, row.game, e.user_id) for e in signed}
            try:
                Tournament(Settings(fmt, row.rounds, row.cycles),
                           seeded((str(e.user_id), e.name, None) for e in signed))
            except TournamentError as exc:
                raise UserError(str(exc)) from None
            for e in signed:
                r = ratings[e.user_id]
                await self.store.set_entrant_rating(row.id, e.user_id, None if r is None else r.rating)
            await self.store.move_tournament(row.id, "open", "running")
            await self.store.add_timer(self._now(), TOURNAMENT_TIMER, row.id, guild_id=row.guild_id)
        await self.games._wake()
        log.info("tournament %d: started with %d players", row.id, len(signed))
        return await self.state(tournament_id)

    async def cancel(self, tournament_id: int, user_id: int, running_too: bool = False) -> State:
        """The organiser calls the tournament off: before it starts, or (``running_too``, the command,
        never a sign-up message's button) while it runs. A running one pairs no further round; its
        games in progress play on, and their results still count in its standings."""
        async with self.store.transaction():
            row = await self._locked(tournament_id)
            if user_id != row.organiser_id:
                raise UserError(say.ONLY_ORGANISER_CANCEL, id=row.id)
            if row.status == "running" and not running_too:
                raise UserError(say.CANCEL_RUNNING_BY_COMMAND, id=row.id, cancel=say.Subcommand("tournament", "cancel"))
            if row.status not in LIVE:
                raise UserError(say.OVER, id=row.id)
            await self.store.move_tournament(row.id, row.status, "cancelled")
        log.info("tournament %d: cancelled by its organiser (was %s)", row.id, row.status)
        return await self.state(tournament_id)

    async def _locked(self, tournament_id: int) -> TournamentRow:
        """Inside a transaction: the tournament's row, held."""
        row = await self.store.lock_tournament(tournament_id)
        if row is None:
            raise UserError(say.NO_TOURNAMENT_ID, id=tournament_id)
        return row

    # -- during the tournament -----------------------------------------------------------------
    async def withdraw(self, tournament_id: int, user_id: int) -> ActiveGame | None:
        """A player leaves a running tournament: later rounds pair without them. Their game in
        progress, if any, is returned for the caller to resign (it is then recorded as a withdrawal)."""
        async with self.store.transaction():
            row = await self._locked(tournament_id)
            if row.status != "running":
                raise UserError(say.NOT_RUNNING, id=row.id)
            me = next((e for e in await self.store.entrants(row.id) if e.user_id == user_id), None)
            if me is None:
                raise UserError(say.NOT_IN, id=row.id)
            rounds = await self.store.tournament_rounds(row.id)
            if not await self.store.withdraw_entrant(row.id, user_id, len(rounds), "asked"):
                raise UserError(say.ALREADY_WITHDRAWN, id=row.id)
            # Even without a game to resign, the round may now pair differently: look again.
            await self.store.add_timer(self._now(), TOURNAMENT_TIMER, row.id, guild_id=row.guild_id)
        await self.games._wake()
        for g in await self.store.tournament_games(tournament_id):
            if user_id in (g.first_id, g.second_id) and g.game_id is not None and g.winner_id is None:
                return await self.games.game(g.game_id)
        return None

    async def advance(self, tournament_id: int) -> Advance:
        """Move a running tournament on: withdraw players whose last two games lapsed, pair the next
        round once the current one is complete (in a worker process; once, whoever else tries), and
        say what is left for the cog (games to start, an announcement, the final post)."""
        st = await self.state(tournament_id)
        if st.row.status != "running" or st.tournament is None:
            return Advance(st)
        lapsed = [int(p) for p in to_withdraw(st.tournament)]
        done: list[int] = []
        if lapsed:
            async with self.store.transaction():
                await self._locked(tournament_id)
                for user in lapsed:
                    if await self.store.withdraw_entrant(tournament_id, user, len(st.rounds), "lapsed"):
                        done.append(user)
            st = await self.state(tournament_id)
        t = st.tournament
        assert t is not None
        current = st.rounds[-1] if st.rounds else None
        if current is not None and not current.announced:
            return Advance(st, done, current, [g for g in st.games_of(current.number) if g.game_id is None])
        if not t.round_complete:
            return Advance(st, done)
        if is_over(t):
            return Advance(st, done, final=True)
        # CPU-heavy for a large Swiss, and it holds the GIL: in a worker process, bounded in time.
        try:
            rnd = await paired(t)
        except PairingFailed as exc:
            log.error("tournament %d: pairing failed (%s); trying again in %.0f s", tournament_id, exc, PAIRING_RETRY)
            await self.again(tournament_id, self._now() + PAIRING_RETRY)
            return Advance(st, done)
        try:
            async with self.store.transaction():
                await self._locked(tournament_id)
                await self.store.insert_round(tournament_id, rnd.number, [int(b) for b in rnd.byes],
                                              [(int(g.first), int(g.second)) for g in rnd.pairings], self._now())
        except Conflict:
            log.info("tournament %d: round %d was paired already", tournament_id, rnd.number)
        st = await self.state(tournament_id)
        current = st.rounds[-1]
        log.info("tournament %d: round %d paired, %d games", tournament_id, current.number, len(rnd.pairings))
        if current.announced:
            return Advance(st, done)
        return Advance(st, done, current, [g for g in st.games_of(current.number) if g.game_id is None])

    async def start_game(self, st: State, g: TournamentGameRow, channel_id: int, parent_id: int | None) -> ActiveGame | None:
        """Start a round's game in ``channel_id`` (its thread) with the tournament's options; None if
        another run started it first."""
        row = st.row
        now = self._now()
        try:
            async with self.store.transaction():
                await self._locked(row.id)
                new, _ = await self.games._new_game(
                    guild_id=row.guild_id, channel_id=channel_id, parent_id=parent_id, game=row.game, size=row.size,
                    variants=row.variants, challenger_id=g.first_id, opponent_id=g.second_id, seat="first",
                    rated=row.rated, clock=row.clock, now=now)
                if not await self.store.set_tournament_game(row.id, g.round, g.board, new.id):
                    raise Conflict("started already")
        except Conflict:
            return None
        await self.games._wake()
        log.info("tournament %d: round %d board %d is game %d", row.id, g.round, g.board, new.id)
        return await self.games.game(new.id)

    async def again(self, tournament_id: int, when: float) -> None:
        """Look at the tournament again at ``when`` (a round whose games Discord would not all take)."""
        row = await self.store.get_tournament(tournament_id)
        if row is None:
            return
        async with self.store.transaction():
            await self.store.add_timer(when, TOURNAMENT_TIMER, row.id, guild_id=row.guild_id)
        await self.games._wake()

    async def announced(self, tournament_id: int, number: int) -> None:
        """The round's announcement went out."""
        await self.store.mark_round_announced(tournament_id, number)

    async def finish(self, tournament_id: int) -> bool:
        """The final post went out: the tournament is over (False if it already was)."""
        async with self.store.transaction():
            return await self.store.move_tournament(tournament_id, "running", "finished")

    async def set_staff_only(self, guild_id: int, staff_only: bool) -> None:
        """Whether only members with Manage Server may create tournaments in a server."""
        await self.store.set_tournament_staff_only(guild_id, staff_only)


def title_of(row: TournamentRow) -> str:
    """The game's printed title."""
    return GAME_TITLES.get(row.game, row.game)


def winner_of(st: State) -> int | None:
    """The winner of a finished tournament."""
    if st.tournament is None:
        return None
    w = winner(st.tournament)
    return None if w is None else int(w)

