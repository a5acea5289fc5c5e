"""The game service: challenges, moves, resignations and results, without Discord.

Cogs hand it ids and text and get back plain results to turn into messages.
It owns the rules of the table (who may act, one game per channel, ratings)
and leaves the rules of the games to the engine. Every accepted action is
committed to the store before the call returns, under one lock per game, so
two interactions for the same game can never both apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import sqlite3
import time
from dataclasses import dataclass, field, replace
from typing import AsyncIterator, Awaitable, Callable

import engine
from engine import ActionError, OptionsError, Outcome, Position, Reason

from .ratings import Rating, rate_game
from .store import ChallengeRow, GameRow, GuildSettings, RatingRow, Store, TakebackRow

log = logging.getLogger(__name__)

CHALLENGE_TTL = 15 * 60.0
#: time per move for each clock option (None: no clock)
CLOCKS: dict[str, float | None] = {"5m": 300.0, "1h": 3600.0, "1d": 86400.0, "3d": 3 * 86400.0, "7d": 7 * 86400.0,
                                   "none": None}
ABANDON_AFTER = 30 * 86400.0
GAME_TIMERS = ("reminder", "deadline", "abandon")
GAME_TITLES = {"inphexion": "inpHeXion", "hex": "Hex", "blindhex": "Blind Hex"}


class UserError(Exception):
    """A request the service refuses; the message is for the person who asked."""


class ClosedRequest(UserError):
    """A click on a request (a takeback) that is no longer open: its buttons can go."""


@dataclass(frozen=True, slots=True)
class ChallengeRequest:
    """What ``/challenge`` asked for; None means the option was left out."""

    guild_id: int
    channel_id: int
    channel_is_thread: bool
    challenger_id: int
    opponent_id: int
    opponent_is_bot: bool
    game: str
    size: int | None = None
    pie: bool | None = None
    neutral: bool | None = None
    free_reply: bool | None = None
    swap: bool | None = None
    seat: str = "random"
    rated: bool = True
    #: None: the server's default (``/settings``)
    thread: bool | None = None
    #: time per move; None: the server's default
    clock: str | None = None
    #: threads can be made here (a text channel); a server's "always thread" default then applies
    channel_can_thread: bool = True
    #: the opponent is this bot: a game against its AI at ``level``
    opponent_is_me: bool = False
    level: str = "medium"


@dataclass(slots=True)
class ActiveGame:
    """A game's stored row with its current position."""

    row: GameRow
    position: Position

    def colour_of(self, user_id: int) -> str | None:
        """The colour a user plays now (None for a non-player)."""
        if user_id == self.row.seat0_id:
            return self.position.colour_of_seat(0)
        if user_id == self.row.seat1_id:
            return self.position.colour_of_seat(1)
        return None

    def user_of(self, colour: str) -> int:
        """The user who plays a colour now."""
        return self.row.seats[self.position.seat_of_colour(colour)]

    def users_to_move(self) -> list[int]:
        """Users who may act now."""
        return [self.user_of(c) for c in self.position.to_move]


@dataclass(slots=True)
class PlayResult:
    """What an accepted action (or a resignation) did."""

    game: ActiveGame
    before: Position
    user_id: int
    colour: str
    actions: list[str]
    #: Blind Hex: a secret choice that is not revealed yet (say only "x has chosen")
    secret: bool = False
    #: Blind Hex: this choice completed the pair, so both are revealed now
    revealed: bool = False
    outcome: Outcome | None = None
    #: user id → (rating before, rating after) when a rated game ended
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(slots=True)
class StartedGame:
    """A game just created from an accepted challenge."""

    challenge: ChallengeRow
    game: ActiveGame
    #: Blind Hex: the cards drawn in the cut, by colour (e.g. {"x": "Q♠", "o": "7♥"})
    cut: dict[str, str] | None = None


def challenge_options(req: ChallengeRequest) -> engine.GameOptions:
    """Engine options for a challenge, or UserError saying which option does not fit."""
    game = req.game
    given = {name: getattr(req, name) for name in ("pie", "neutral", "free_reply", "swap") if getattr(req, name) is not None}
    if game == "inphexion":
        if "swap" in given:
            raise UserError("`swap` is a Hex option; for inpHeXion the pie rule is `pie:true`.")
        if req.size is not None and req.size % 2 == 0:
            extra = " (the neutral disc needs a centre cell)" if req.neutral else ""
            raise UserError(f"inpHeXion is played on odd sizes 5, 7, 9 or 11, not {req.size}{extra}.")
        variants = [v for v, on in (("pie", req.pie), ("neutral", req.neutral), ("free-reply", req.free_reply)) if on]
    elif game == "hex":
        wrong = [n for n in ("pie", "neutral", "free_reply") if n in given]
        if wrong:
            raise UserError(f"`{wrong[0]}` is an inpHeXion option; Hex has `swap` (the pie rule, on by default).")
        variants = ["swap"] if req.swap is not False else []
    elif game == "blindhex":
        if given:
            raise UserError(f"Blind Hex has no `{next(iter(given))}` option; it is always played on its 11×11 board.")
        if req.size not in (None, 11):
            raise UserError("Blind Hex is played on its printed 11×11 board only; leave `size` out.")
        variants = []
    else:
        raise UserError(f"Unknown game `{game}`: choose inphexion, hex or blindhex.")
    first = "x" if game == "blindhex" else None
    try:
        return engine.make_options(game, req.size, variants, first)
    except OptionsError as exc:
        raise UserError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None


# A standard deck without the players' own A–5 of diamonds and clubs (Blind Hex set-up).
_RANKS = "23456789TJQKA"
_RANK_NAMES = {"T": "10"}
_SUITS = "♠♥♦♣"


def draw_cut(seed: int) -> tuple[str, dict[str, str]]:
    """Blind Hex cut for high card from ``seed``: (winner colour, card drawn by each colour).

    >>> draw_cut(1)[0] in ("x", "o")
    True
    """
    deck = [
        r + s for r in _RANKS for s in _SUITS
        if not (s in "♦♣" and (r == "A" or r in "2345"))
    ]
    rng = random.Random(seed)
    while True:
        x, o = rng.sample(deck, 2)
        if x[0] != o[0]:
            break
    name = lambda card: _RANK_NAMES.get(card[0], card[0]) + card[1]  # noqa: E731
    winner = "x" if _RANKS.index(x[0]) > _RANKS.index(o[0]) else "o"
    return winner, {"x": name(x), "o": name(o)}


def format_duration(seconds: float) -> str:
    """``2d 3h``, ``4h 10m``, ``5m``, ``40s``: time left in words a player reads at a glance.

    >>> format_duration(2 * 86400 + 3 * 3600 + 59), format_duration(250)
    ('2d 3h', '4m 10s')
    """
    s = max(0, int(seconds))
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    if d:
        return f"{d}d {h}h" if h else f"{d}d"
    if h:
        return f"{h}h {m}m" if m else f"{h}h"
    if m:
        return f"{m}m {s}s" if s else f"{m}m"
    return f"{s}s"


def public_actions(position: Position) -> list[str]:
    """The actions anyone may see: a Blind Hex choice not yet revealed is left out."""
    actions = list(position.actions)
    if position.game == "blindhex" and position.outcome is None and position.phase == "choose" and len(position.to_move) == 1:
        actions.pop()
    return actions


class GameService:
    """Challenges and games of every server, backed by the store."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        schedule: Callable[[float, str, int], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self._seed = seed_source
        self._schedule = schedule
        self._positions: dict[int, Position] = {}
        self._game_locks: dict[int, asyncio.Lock] = {}
        self._challenge_locks: dict[int, asyncio.Lock] = {}
        self._channel_locks: dict[int, asyncio.Lock] = {}

    # -- challenges -----------------------------------------------------------------
    async def create_challenge(self, req: ChallengeRequest, names: dict[int, str] | None = None) -> ChallengeRow:
        """Check and record a challenge; UserError says what does not fit."""
        if req.opponent_id == req.challenger_id:
            raise UserError("You can't challenge yourself — pick another member of this server.")
        if req.opponent_is_bot and not req.opponent_is_me:
            raise UserError("Bots can't play here — challenge a person, or challenge me to play against the computer.")
        options = challenge_options(req)
        if req.seat not in ("first", "second", "random"):
            raise UserError("`seat` is first, second or random.")
        settings = await self.store.guild_settings(req.guild_id)
        clock = req.clock or settings.default_clock
        if clock not in CLOCKS:
            raise UserError(f"`clock` is one of {', '.join(CLOCKS)} (time per move).")
        thread = self._wants_thread(req, settings)
        if not thread and await self.store.active_game_in(req.channel_id):
            raise UserError(
                "A game is already in progress in this channel. Add `thread:true` to play in a new thread."
            )
        now = self.clock()
        async with self.store.transaction():
            row = await self.store.insert_challenge(
                guild_id=req.guild_id, channel_id=req.channel_id, challenger_id=req.challenger_id,
                opponent_id=req.opponent_id, game=options.game, size=options.size, variants=options.variants,
                seat=req.seat, rated=req.rated, thread=thread, created_at=now,
                expires_at=now + settings.challenge_minutes * 60.0, clock=clock,
            )
            await self.store.add_timer(row.expires_at, "challenge-expiry", row.id)
        if names:
            await self.store.remember_names(req.guild_id, names, now)
        if self._schedule:
            await self._schedule(row.expires_at, "challenge-expiry", row.id)
        log.info("challenge %d: %d challenges %d to %s %d×%d %s", row.id, req.challenger_id, req.opponent_id,
                 options.game, options.size, options.size, " ".join(options.variants) or "-")
        return row

    @staticmethod
    def _wants_thread(req: ChallengeRequest, settings: GuildSettings) -> bool:
        """Whether the game gets a thread of its own: the option, else the server's default where possible."""
        if req.thread is None:
            return settings.always_thread and req.channel_can_thread and not req.channel_is_thread
        if req.thread and req.channel_is_thread:
            raise UserError("This is already a thread; challenge again with `thread:false` to play right here.")
        if req.thread and not req.channel_can_thread:
            raise UserError("Games get a thread of their own only in a text channel; "
                            "challenge again with `thread:false` to play right here.")
        return req.thread

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        return await self.store.get_challenge(challenge_id)

    async def challenge_to(self, channel_id: int, user_id: int) -> ChallengeRow:
        """The newest open challenge addressed to a user in a channel, or UserError."""
        row = await self.store.open_challenge_to(channel_id, user_id)
        if row is None:
            raise UserError("Nobody has challenged you in this channel (or the challenge has ended).")
        return row

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge."""
        await self.store.set_challenge_message(challenge_id, message_id)

    def _challenge_lock(self, challenge_id: int) -> asyncio.Lock:
        return self._challenge_locks.setdefault(challenge_id, asyncio.Lock())

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        return self._channel_locks.setdefault(channel_id, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def _starting_game(self, channel_id: int) -> AsyncIterator[None]:
        """The transaction that inserts a game; a clash on "one game per channel" is a UserError."""
        try:
            async with self.store.transaction():
                yield
        except sqlite3.IntegrityError:
            # Only possible with a second bot process on the same file (this one holds the channel lock).
            raise UserError("A game has just started in this channel; challenge again with `thread:true`.") from None

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.get_challenge(challenge_id)
        if row is None:
            raise UserError("That challenge does not exist.")
        if row.status != "open":
            raise UserError(f"That challenge has already been {row.status}.")
        if row.expires_at <= self.clock():
            raise UserError("That challenge has expired; ask for a new one.")
        return row

    async def accept(
        self,
        challenge_id: int,
        user_id: int,
        open_thread: Callable[[ChallengeRow], Awaitable[tuple[int, int]]] | None = None,
        names: dict[int, str] | None = None,
    ) -> StartedGame:
        """Start the game of an open challenge addressed to ``user_id``.

        ``open_thread(challenge)`` creates the game's thread when the challenge asked for
        one and returns (thread id, parent channel id).
        """
        async with self._challenge_lock(challenge_id):
            ch = await self._open_challenge(challenge_id)
            if user_id != ch.opponent_id:
                raise UserError("Only the challenged player can accept this challenge.")
            # One game start at a time per channel: two challenges accepted at the same moment
            # must not both pass the "channel is free" check.
            async with self._channel_lock(ch.channel_id):
                channel_id, parent_id = ch.channel_id, None
                if not ch.thread and await self.store.active_game_in(ch.channel_id):
                    raise UserError(
                        "A game is already in progress in this channel; ask for a new challenge with `thread:true`."
                    )
                if ch.thread:
                    if open_thread is None:
                        raise UserError("This challenge needs a thread, which can't be made here.")
                    channel_id, parent_id = await open_thread(ch)
                now = self.clock()
                async with self._starting_game(ch.channel_id):
                    game, cut = await self._new_game(
                        guild_id=ch.guild_id, channel_id=channel_id, parent_id=parent_id, game=ch.game, size=ch.size,
                        variants=ch.variants, challenger_id=ch.challenger_id, opponent_id=ch.opponent_id, seat=ch.seat,
                        rated=ch.rated, clock=ch.clock, challenge_id=ch.id, now=now,
                    )
                    if not await self.store.close_challenge(ch.id, "accepted", game.id):
                        raise UserError("That challenge has just ended.")
                    await self.store.delete_timers("challenge-expiry", ch.id)
            if names:
                await self.store.remember_names(ch.guild_id, names, now)
            await self._wake()
            log.info("game %d: started from challenge %d, %s %d×%d, seats %d / %d, channel %d",
                     game.id, ch.id, ch.game, ch.size, ch.size, game.seat0_id, game.seat1_id, channel_id)
            accepted = await self.store.get_challenge(ch.id)
            assert accepted is not None
            return StartedGame(accepted, ActiveGame(game, (await self._position(game)).copy()), cut)

    async def _new_game(
        self, *, guild_id: int, channel_id: int, parent_id: int | None, game: str, size: int,
        variants: tuple[str, ...], challenger_id: int, opponent_id: int, seat: str, rated: bool, clock: str,
        now: float, challenge_id: int | None = None, ai_level: str | None = None,
    ) -> tuple[GameRow, dict[str, str] | None]:
        """Draw seats (and the Blind Hex cut), insert the game and arm its timers (inside a transaction)."""
        seed = self._seed()
        rng = random.Random(seed)
        challenger_seat = {"first": 0, "second": 1}.get(seat, rng.randrange(2))
        seats = [0, 0]
        seats[challenger_seat], seats[1 - challenger_seat] = challenger_id, opponent_id
        first, cut = None, None
        if game == "blindhex":
            first, cut = draw_cut(seed)
        options = engine.make_options(game, size, variants, first)
        per_move = CLOCKS.get(clock)
        row = await self.store.insert_game(
            guild_id=guild_id, channel_id=channel_id, parent_id=parent_id, game=game, size=size,
            variants=options.variants, first=first, seed=seed, seat0_id=seats[0], seat1_id=seats[1], rated=rated,
            challenge_id=challenge_id, now=now, clock=clock, deadline=None if per_move is None else now + per_move,
            ai_level=ai_level,
        )
        await self._arm_timers(row, now)
        return row, cut

    async def start_ai_game(
        self,
        req: ChallengeRequest,
        bot_id: int,
        open_thread: Callable[[str], Awaitable[tuple[int, int]]] | None = None,
        names: dict[int, str] | None = None,
    ) -> tuple[ActiveGame, dict[str, str] | None]:
        """Start a game against the bot's AI at once (no Accept step); unrated, kept off the leaderboard."""
        if req.level not in ("easy", "medium", "hard"):
            raise UserError("`level` is easy, medium or hard.")
        options = challenge_options(req)
        if req.seat not in ("first", "second", "random"):
            raise UserError("`seat` is first, second or random.")
        settings = await self.store.guild_settings(req.guild_id)
        thread = self._wants_thread(req, settings)
        clock = req.clock or "none"
        if clock not in CLOCKS:
            raise UserError(f"`clock` is one of {', '.join(CLOCKS)} (time per move).")
        async with self._channel_lock(req.channel_id):
            if not thread and await self.store.active_game_in(req.channel_id):
                raise UserError(
                    "A game is already in progress in this channel. Add `thread:true` to play in a new thread.")
            return await self._start_ai_game(req, options, thread, clock, bot_id, open_thread, names)

    async def _start_ai_game(
        self, req: ChallengeRequest, options: engine.GameOptions, thread: bool, clock: str, bot_id: int,
        open_thread: Callable[[str], Awaitable[tuple[int, int]]] | None, names: dict[int, str] | None,
    ) -> tuple[ActiveGame, dict[str, str] | None]:
        """The rest of :meth:`start_ai_game`, under the channel's lock."""
        channel_id, parent_id = req.channel_id, None
        if thread:
            if open_thread is None:
                raise UserError("A thread can't be made here.")
            who = (names or {}).get(req.challenger_id, "you")
            channel_id, parent_id = await open_thread(f"{GAME_TITLES[options.game]}: {who} vs the computer"[:100])
        now = self.clock()
        async with self._starting_game(req.channel_id):
            row, cut = await self._new_game(
                guild_id=req.guild_id, channel_id=channel_id, parent_id=parent_id, game=options.game,
                size=options.size, variants=options.variants, challenger_id=req.challenger_id, opponent_id=bot_id,
                seat=req.seat, rated=False, clock=clock, now=now, ai_level=req.level,
            )
        if names:
            await self.store.remember_names(req.guild_id, names, now)
        await self._wake()
        log.info("game %d: %d plays the %s AI, %s %d×%d, channel %d", row.id, req.challenger_id, req.level,
                 options.game, options.size, options.size, channel_id)
        return ActiveGame(row, (await self._position(row)).copy()), cut

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeRow:
        """The challenged player turns the challenge down."""
        return await self._end_challenge(challenge_id, user_id, "declined")

    async def withdraw(self, challenge_id: int, user_id: int) -> ChallengeRow:
        """The challenger takes the challenge back."""
        return await self._end_challenge(challenge_id, user_id, "withdrawn")

    async def _end_challenge(self, challenge_id: int, user_id: int, status: str) -> ChallengeRow:
        async with self._challenge_lock(challenge_id):
            ch = await self._open_challenge(challenge_id)
            allowed = ch.opponent_id if status == "declined" else ch.challenger_id
            if user_id != allowed:
                who = "challenged player" if status == "declined" else "challenger"
                verb = "decline" if status == "declined" else "withdraw"
                raise UserError(f"Only the {who} can {verb} this challenge.")
            async with self.store.transaction():
                if not await self.store.close_challenge(ch.id, status):
                    raise UserError("That challenge has just ended.")
                await self.store.delete_timers("challenge-expiry", ch.id)
            log.info("challenge %d: %s by %d", ch.id, status, user_id)
            row = await self.store.get_challenge(ch.id)
            assert row is not None
            return row

    async def expire_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """Close a challenge whose time ran out; None if it had already ended."""
        async with self._challenge_lock(challenge_id):
            async with self.store.transaction():
                closed = await self.store.close_challenge(challenge_id, "expired")
                await self.store.delete_timers("challenge-expiry", challenge_id)
            if not closed:
                return None
            log.info("challenge %d: expired", challenge_id)
            return await self.store.get_challenge(challenge_id)

    # -- games -------------------------------------------------------------------------
    def _game_lock(self, game_id: int) -> asyncio.Lock:
        return self._game_locks.setdefault(game_id, asyncio.Lock())

    async def _position(self, row: GameRow) -> Position:
        """The current position of a game (replayed from the store once, then kept)."""
        pos = self._positions.get(row.id)
        if pos is None:
            options = engine.make_options(row.game, row.size, row.variants, row.first)
            pos = engine.Record(options, await self.store.actions(row.id)).replay()
            if row.status != "active" and pos.outcome is None and row.reason:
                winner = pos.colour_of_seat(row.winner_seat) if row.winner_seat is not None else None
                pos.finish(Outcome(winner, Reason(row.reason)))
            if row.status == "active":
                self._positions[row.id] = pos
        return pos

    async def game_in(self, channel_id: int) -> ActiveGame | None:
        """The game in progress in a channel or thread (a snapshot), if any."""
        row = await self.store.active_game_in(channel_id)
        if row is None:
            return None
        return ActiveGame(row, (await self._position(row)).copy())

    async def game(self, game_id: int) -> ActiveGame | None:
        """Any game by id, in progress or ended (a snapshot)."""
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        return ActiveGame(row, (await self._position(row)).copy())

    async def _require_game(self, channel_id: int) -> GameRow:
        row = await self.store.active_game_in(channel_id)
        if row is None:
            raise UserError("There is no game in progress in this channel. Start one with `/challenge`.")
        return row

    @contextlib.asynccontextmanager
    async def _players_game(self, channel_id: int, user_id: int, refusal: str) -> AsyncIterator[tuple[GameRow, Position, str]]:
        """Hold this channel's game lock; yield (row, position, the user's colour) or refuse non-players."""
        row = await self._require_game(channel_id)
        async with self._game_lock(row.id):
            row = await self.store.get_game(row.id)
            if row is None or row.status != "active":
                raise UserError("That game has just ended. See `/history`.")
            pos = await self._position(row)
            colour = ActiveGame(row, pos).colour_of(user_id)
            if colour is None:
                raise UserError(refusal)
            yield row, pos, colour

    async def legal_for(self, channel_id: int, user_id: int) -> list[str]:
        """The legal actions of a user in this channel's game, as they would type them."""
        row = await self.store.active_game_in(channel_id)
        if row is None:
            return []
        g = ActiveGame(row, await self._position(row))
        colour = g.colour_of(user_id)
        if colour is None or colour not in g.position.to_move:
            return []
        actions = g.position.legal_actions(colour)
        if g.position.game == "blindhex" and g.position.phase == "choose":
            # The player types only the cards; the bot adds their letter.
            actions = [a.split(":", 1)[1] for a in actions]
        return actions

    async def play(self, channel_id: int, user_id: int, text: str, *, seen: int | None = None) -> PlayResult:
        """Apply one line of notation for a user; raises UserError or the engine's ActionError.

        ``seen``: the number of public actions the line was chosen for (the computer's
        moves); if the game has changed since, nothing is applied.
        """
        refusal = "You are not playing in this game; start your own with `/challenge`."
        async with self._players_game(channel_id, user_id, refusal) as (row, pos, colour):
            if seen is not None and len(public_actions(pos)) != seen:
                raise UserError("The game changed while that move was being chosen.")
            g = ActiveGame(row, pos)
            if colour not in pos.to_move:
                if pos.game == "blindhex" and pos.phase == "choose":
                    raise UserError("You have already chosen your cards; waiting for your opponent to choose.")
                waiting = " and ".join(f"<@{u}>" for u in g.users_to_move())
                raise UserError(f"It's not your turn — waiting for {waiting} ({' and '.join(pos.to_move)}).")
            trial = pos.copy()
            applied = trial.play(text, player=colour)
            result = PlayResult(ActiveGame(row, trial.copy()), pos.copy(), user_id, colour, applied)
            if pos.game == "blindhex" and pos.phase == "choose":
                result.revealed = trial.phase != "choose" or trial.to_move == sorted(trial.colours)
                result.secret = not result.revealed
            await self._commit(row, pos, trial, applied, user_id, result)
            return result

    async def resign(self, channel_id: int, user_id: int) -> PlayResult:
        """End this channel's game: the other player wins by resignation."""
        refusal = "You are not playing in this game, so you can't resign it."
        async with self._players_game(channel_id, user_id, refusal) as (row, pos, colour):
            trial = pos.copy()
            trial.finish(Outcome(trial.other(colour), Reason.RESIGNATION))
            result = PlayResult(ActiveGame(row, trial.copy()), pos.copy(), user_id, colour, [])
            await self._commit(row, pos, trial, [], user_id, result)
            return result

    async def _commit(
        self, row: GameRow, pos: Position, trial: Position, applied: list[str], user_id: int, result: PlayResult
    ) -> None:
        """Store the new actions (and the result, and ratings) in one transaction, then adopt them."""
        now = self.clock()
        try:
            async with self.store.transaction():
                if applied:
                    await self.store.append_actions(row.id, await self.store.next_seq(row.id), applied, user_id, now)
                if trial.outcome is not None:
                    result.outcome = trial.outcome
                    result.rating_changes = await self._finish(row, trial, now)
                elif not set(trial.to_move) <= set(pos.to_move) or row.deadline is None:
                    # A new player has to act: their time starts now. (Relocations, a second
                    # letter, or the second Blind Hex choice keep the running deadline.)
                    per_move = CLOCKS.get(row.clock)
                    await self.store.set_deadline(row.id, None if per_move is None else now + per_move)
                    fresh = await self.store.get_game(row.id)
                    assert fresh is not None
                    await self._arm_timers(fresh, now)
        except sqlite3.IntegrityError:
            # Another writer got there first (only possible with two bot processes on one file).
            self._positions.pop(row.id, None)
            raise UserError("That move crossed with another one; nothing was changed. See `/board`.") from None
        self._positions[row.id] = trial
        if trial.outcome is not None:
            self._positions.pop(row.id, None)
        fresh = await self.store.get_game(row.id)
        if fresh is not None:
            result.game.row = fresh
        await self._wake()
        # A Blind Hex choice stays secret in the logs too until both are revealed.
        shown = "a secret choice" if result.secret else " | ".join(applied) or "-"
        log.info("game %d: %s by %d (%s)%s", row.id, shown, user_id, result.colour,
                 f" → {trial.describe_outcome()}" if trial.outcome else "")

    async def _finish(self, row: GameRow, pos: Position, now: float) -> dict[int, tuple[float, float]]:
        """Record the result and, for a rated game both players took part in, the new ratings."""
        outcome = pos.outcome
        assert outcome is not None
        winner_seat = pos.seat_of_colour(outcome.winner) if outcome.winner else None
        await self.store.finish_game(row.id, status="finished", winner_seat=winner_seat, reason=outcome.reason.value, now=now)
        for kind in GAME_TIMERS:
            await self.store.delete_timers(kind, row.id)
        if not row.rated or winner_seat is None or outcome.reason is Reason.ABANDONED:
            return {}
        movers = {u for _, u in await self.store.action_users(row.id)}
        if not set(row.seats) <= movers:
            return {}  # a game one side never played in does not count (e.g. resigned at once)
        winner_id, loser_id = row.seats[winner_seat], row.seats[1 - winner_seat]
        before = {}
        for uid in (winner_id, loser_id):
            r = await self.store.get_rating(row.guild_id, row.game, uid)
            before[uid] = r or RatingRow(row.guild_id, row.game, uid, 1500.0, 350.0, 0.06, 0, 0, 0, now)
        w, lo = before[winner_id], before[loser_id]
        new_w, new_l = rate_game(Rating(w.rating, w.deviation, w.volatility), Rating(lo.rating, lo.deviation, lo.volatility))
        await self.store.put_rating(RatingRow(row.guild_id, row.game, winner_id, new_w.rating, new_w.deviation,
                                              new_w.volatility, w.games + 1, w.wins + 1, w.losses, now))
        await self.store.put_rating(RatingRow(row.guild_id, row.game, loser_id, new_l.rating, new_l.deviation,
                                              new_l.volatility, lo.games + 1, lo.wins, lo.losses + 1, now))
        changes = {winner_id: (w.rating, new_w.rating), loser_id: (lo.rating, new_l.rating)}
        for uid, (b, a) in changes.items():
            await self.store.add_rating_change(row.id, uid, b, a)
        return changes

    # -- clocks and timers -----------------------------------------------------------
    async def _arm_timers(self, row: GameRow, now: float) -> None:
        """Replace a game's timers: reminder at a quarter left, the deadline, or the abandonment check."""
        for kind in GAME_TIMERS:
            await self.store.delete_timers(kind, row.id)
        per_move = CLOCKS.get(row.clock)
        if per_move is None or row.deadline is None:
            await self.store.add_timer(now + ABANDON_AFTER, "abandon", row.id)
            return
        payload = json.dumps({"deadline": row.deadline})
        await self.store.add_timer(row.deadline - per_move / 4, "reminder", row.id, payload)
        await self.store.add_timer(row.deadline, "deadline", row.id, payload)
        # A win on time nobody claims must not hold the channel for ever.
        await self.store.add_timer(row.deadline + ABANDON_AFTER, "abandon", row.id)

    async def _wake(self) -> None:
        if self._schedule:
            await self._schedule(0.0, "", 0)

    async def due_game(self, game_id: int, payload: str) -> ActiveGame | None:
        """The game a reminder or deadline timer is about, if that timer still applies."""
        g = await self.game(game_id)
        if g is None or g.row.status != "active":
            return None
        wanted = json.loads(payload or "{}").get("deadline")
        if wanted is not None and g.row.deadline != wanted:
            return None  # someone moved since: a newer timer replaced this one
        return g

    async def abandon_if_idle(self, game_id: int) -> PlayResult | None:
        """Close a game (unrated) 30 days after its last move, or with a clock 30 days after
        a deadline nobody claimed; None if it is alive."""
        async with self._game_lock(game_id):
            # Read inside the lock: a move that just got in keeps the game alive.
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                return None
            clocked = CLOCKS.get(row.clock) is not None and row.deadline is not None
            idle_until = (row.deadline if clocked else row.updated_at) + ABANDON_AFTER  # type: ignore[operator]
            if self.clock() < idle_until:
                async with self.store.transaction():
                    await self.store.delete_timers("abandon", row.id)
                    await self.store.add_timer(idle_until, "abandon", row.id)
                await self._wake()
                return None
            pos = await self._position(row)
            trial = pos.copy()
            trial.finish(Outcome(None, Reason.ABANDONED))
            colour = pos.to_move[0] if pos.to_move else pos.colours[0]
            result = PlayResult(ActiveGame(row, trial.copy()), pos.copy(), 0, colour, [])
            await self._commit(row, pos, trial, [], 0, result)
            return result

    async def claim(self, channel_id: int, user_id: int) -> PlayResult:
        """Win on time: the opponent's deadline has passed and they have not moved."""
        refusal = "You are not playing in this game, so you can't claim it."
        async with self._players_game(channel_id, user_id, refusal) as (row, pos, colour):
            if row.deadline is None:
                raise UserError("This game has no clock, so there is nothing to claim.")
            if colour in pos.to_move:
                raise UserError("It's your turn — only the player waiting for a late opponent can claim.")
            left = row.deadline - self.clock()
            if left > 0:
                raise UserError(f"Your opponent still has {format_duration(left)} to move.")
            trial = pos.copy()
            trial.finish(Outcome(colour, Reason.TIMEOUT))
            result = PlayResult(ActiveGame(row, trial.copy()), pos.copy(), user_id, colour, [])
            await self._commit(row, pos, trial, [], user_id, result)
            return result

    async def abort(self, channel_id: int, user_id: int) -> ActiveGame:
        """End a game that has barely started: no result, no rating change."""
        row = await self._require_game(channel_id)
        async with self._game_lock(row.id):
            row = await self.store.get_game(row.id)
            if row is None or row.status != "active":
                raise UserError("That game has just ended. See `/history`.")
            if user_id not in row.seats:
                raise UserError("You are not playing in this game, so you can't abort it.")
            counts = {u: 0 for u in row.seats}
            for _, u in await self.store.action_users(row.id):
                counts[u] = counts.get(u, 0) + 1
            if any(n >= 2 for n in counts.values()):
                raise UserError("Too late to abort: a player has made a second action. You can `/resign`.")
            now = self.clock()
            async with self.store.transaction():
                await self.store.finish_game(row.id, status="aborted", winner_seat=None, reason=None, now=now)
                for kind in GAME_TIMERS:
                    await self.store.delete_timers(kind, row.id)
            self._positions.pop(row.id, None)
            log.info("game %d: aborted by %d", row.id, user_id)
            aborted = await self.store.get_game(row.id)
            assert aborted is not None
            return ActiveGame(aborted, (await self._position(aborted)).copy())

    # -- takebacks ---------------------------------------------------------------------
    async def request_takeback(self, channel_id: int, user_id: int) -> tuple[TakebackRow, ActiveGame]:
        """Ask to undo your last turn before the opponent has moved."""
        row = await self._require_game(channel_id)
        async with self._game_lock(row.id):
            pos = await self._position(row)
            if pos.game == "blindhex":
                raise UserError("Blind Hex has no takebacks: choices are made in secret and revealed together.")
            if user_id not in row.seats:
                raise UserError("You are not playing in this game.")
            rows = [r for r in await self.store.action_rows(row.id) if not r[3]]
            if row.ai_level is not None:
                return await self._computer_takeback(row, user_id, rows)
            if not rows or rows[-1][2] != user_id:
                raise UserError("You can only take back your own last turn, before your opponent has moved.")
            if await self.store.open_takeback(row.id, user_id, rows[-1][0]) is not None:
                raise UserError("You have already asked to take this turn back; your opponent's answer is pending.")
            async with self.store.transaction():
                tb = await self.store.insert_takeback(row.id, user_id, rows[-1][0], self.clock())
            log.info("game %d: takeback %d asked by %d", row.id, tb.id, user_id)
            return tb, ActiveGame(row, pos.copy())

    async def _computer_takeback(self, row: GameRow, user_id: int,
                                 rows: list[tuple[int, str, int, bool]]) -> tuple[TakebackRow, ActiveGame]:
        """Against the computer a takeback is granted at once: it undoes the player's last
        turn and the computer's reply to it, if it had replied (inside the game's lock)."""
        turn = list(rows)
        while turn and turn[-1][2] != user_id:
            turn.pop()  # the computer's reply
        if not turn:
            raise UserError("You have no turn to take back yet.")
        first = len(turn)
        while first > 0 and turn[first - 1][2] == user_id:
            first -= 1
        async with self.store.transaction():
            tb = await self.store.insert_takeback(row.id, user_id, rows[-1][0], self.clock())
        return await self._undo(row, tb, [(seq, action) for seq, action, _, _ in rows[first:]])

    async def _undo(self, row: GameRow, tb: TakebackRow, turn: list[tuple[int, str]]) -> tuple[TakebackRow, ActiveGame]:
        """Mark ``turn`` (seq, action) taken back, close the request as accepted, restart the clock."""
        now = self.clock()
        async with self.store.transaction():
            await self.store.mark_taken_back(row.id, [seq for seq, _ in turn])
            await self.store.close_takeback(tb.id, "accepted", " | ".join(a for _, a in turn))
            per_move = CLOCKS.get(row.clock)
            await self.store.set_deadline(row.id, None if per_move is None else now + per_move)
            fresh = await self.store.get_game(row.id)
            assert fresh is not None
            await self._arm_timers(fresh, now)
        self._positions.pop(row.id, None)
        await self._wake()
        log.info("game %d: takeback %d accepted, undid %s", row.id, tb.id, [a for _, a in turn])
        closed = await self.store.get_takeback(tb.id)
        g = await self.game(row.id)
        assert closed is not None and g is not None
        return closed, g

    async def answer_takeback(self, takeback_id: int, user_id: int, accept: bool) -> tuple[TakebackRow, ActiveGame]:
        """The opponent accepts (the turn is undone) or declines a takeback request."""
        tb = await self.store.get_takeback(takeback_id)
        if tb is None:
            raise UserError("That takeback request does not exist.")
        row = await self.store.get_game(tb.game_id)
        assert row is not None
        async with self._game_lock(row.id):
            tb = await self.store.get_takeback(takeback_id)
            row = await self.store.get_game(tb.game_id)
            assert tb is not None and row is not None
            if tb.status != "open":
                raise ClosedRequest(f"That takeback request was already {tb.status}.")
            if user_id not in row.seats or user_id == tb.requester_id:
                raise UserError("Only the opponent of the player who asked can answer a takeback request.")
            live = [r for r in await self.store.action_rows(row.id) if not r[3]]
            if row.status != "active" or not live or live[-1][0] != tb.last_seq:
                async with self.store.transaction():
                    await self.store.close_takeback(tb.id, "stale")
                raise ClosedRequest("Too late: the game has moved on since the takeback was asked.")
            if not accept:
                async with self.store.transaction():
                    await self.store.close_takeback(tb.id, "declined")
                tb = await self.store.get_takeback(tb.id)
                return tb, ActiveGame(row, (await self._position(row)).copy())  # type: ignore[arg-type]
            turn = []
            for seq, action, uid, _ in reversed(live):
                if uid != tb.requester_id:
                    break
                turn.append((seq, action))
            turn.reverse()
            return await self._undo(row, tb, turn)

    # -- settings ------------------------------------------------------------------------
    async def update_guild_settings(
        self, guild_id: int, *, clock: str | None = None, challenge_minutes: int | None = None,
        always_thread: bool | None = None,
    ) -> tuple[GuildSettings, bool]:
        """Change what is given of a server's defaults; return the settings and whether they changed.

        Values are checked here, not only by Discord's choices: a modified client can send any text.
        """
        if clock is not None and clock not in CLOCKS:
            raise UserError(f"`clock` is one of {', '.join(CLOCKS)} (time per move); nothing was changed.")
        if challenge_minutes is not None and not 1 <= challenge_minutes <= 1440:
            raise UserError("`challenge_minutes` is from 1 to 1440; nothing was changed.")
        current = await self.store.guild_settings(guild_id)
        changed = replace(
            current,
            default_clock=current.default_clock if clock is None else clock,
            challenge_minutes=current.challenge_minutes if challenge_minutes is None else challenge_minutes,
            always_thread=current.always_thread if always_thread is None else always_thread,
        )
        if changed != current:
            await self.store.put_guild_settings(changed)
        return changed, changed != current

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """How a player wants to be reminded: direct message or a mention in the channel."""
        await self.store.set_dm(user_id, dm)

    # -- reading -----------------------------------------------------------------------
    async def names(self, guild_id: int, user_ids) -> dict[int, str]:
        """Display names last seen for users (falls back to a mention-free id)."""
        ids = list(user_ids)
        known = await self.store.names(guild_id, ids)
        return {u: known.get(u, f"player {u}") for u in ids}

    async def remember_names(self, guild_id: int, names: dict[int, str]) -> None:
        """Keep display names seen in an interaction."""
        await self.store.remember_names(guild_id, names, self.clock())
