"""Challenges: asking, accepting (the game starts), declining, withdrawing, expiring; games against the computer."""

from __future__ import annotations

import contextlib
import logging
import random
from typing import AsyncIterator, Awaitable, Callable

import engine
from engine import OptionsError
from engine.ai import LEVELS

from ..i18n import Text, t
from ..store import ChallengeRow, Conflict, GameRow, GuildSettings
from ..timing.clocks import CLOCKS, arm_timers
from .errors import Channel, Command, Option, Post, RematchAsked, UserError
from .limits import LimitsService
from .values import SEATS, ActiveGame, ChallengeRequest, StartedGame

log = logging.getLogger(__name__)


#: /challenge's variant options → the engine variant each one turns on
OPTION_VARIANTS = {"pie": "pie", "neutral": "neutral", "free_reply": "free-reply", "swap": "swap"}
#: variants a challenge gets unless it turns them off (Hex is played with the swap rule)
ON_BY_DEFAULT = ("swap",)
#: the option that gives a game its own thread, and the one that keeps it in the channel
THREAD, HERE = Option("thread", True), Option("thread", False)


#: a challenge that is no longer open, by how it ended
CHALLENGE_CLOSED = {"accepted": t("That challenge has already been accepted."),
                    "declined": t("That challenge has already been declined."),
                    "withdrawn": t("That challenge has already been withdrawn."),
                    "expired": t("That challenge has already been expired.")}


def challenge_options(req: ChallengeRequest) -> engine.GameOptions:
    """Engine options for a challenge, or UserError saying which option does not fit.

    What each game offers comes from its class in ``engine.GAMES`` (variants, sizes, cut).
    """
    cls = engine.GAMES.get(req.game)
    if cls is None:
        names = engine.GAME_NAMES
        raise UserError("Unknown game {game}: choose {games}.", game=Option(req.game), games=_either(names))
    offered = [name for name, variant in OPTION_VARIANTS.items() if variant in cls.variant_names]
    given = {name: getattr(req, name) for name in OPTION_VARIANTS if getattr(req, name) is not None}
    for name in given:
        if name not in offered:
            raise _not_offered(cls, name, offered)
    if len(cls.sizes) == 1 and req.size not in (None, cls.sizes[0]):
        raise UserError("{game} is played on its {n}×{n} board only; leave {size} out.", game=cls.title,
                        n=cls.sizes[0], size=Option("size"))
    if req.size is not None and req.size % 2 == 0 and all(size % 2 for size in cls.sizes):
        sizes = _either([str(s) for s in cls.sizes])
        if req.neutral:
            raise UserError("{game} is played on odd sizes {sizes}, not {size} (the neutral disc needs a centre cell).",
                            game=cls.title, sizes=sizes, size=req.size)
        raise UserError("{game} is played on odd sizes {sizes}, not {size}.", game=cls.title, sizes=sizes,
                        size=req.size)
    variants = [OPTION_VARIANTS[name] for name in offered if given.get(name, OPTION_VARIANTS[name] in ON_BY_DEFAULT)]
    first = "x" if cls.has_cut else None
    try:
        return engine.make_options(cls.game, req.size, variants, first)
    except OptionsError as exc:
        # the rules' own reason (English template + facts), said in the reader's language by the bot
        raise UserError("{reason}.", reason=exc.message) from None


def _not_offered(cls: type[engine.Position], name: str, offered: list[str]) -> UserError:
    """Why a /challenge option does not fit the game, and what the game offers instead."""
    if not offered and len(cls.sizes) == 1:
        return UserError("{game} has no {option} option; it is always played on its {n}×{n} board.",
                         game=cls.title, option=Option(name), n=cls.sizes[0])
    if not offered:
        return UserError("{game} has no {option} option.", game=cls.title, option=Option(name))
    owner = next(c for c in engine.GAMES.values() if OPTION_VARIANTS[name] in c.variant_names)

    def shown(option: str) -> Option:
        variant = OPTION_VARIANTS[option]
        if variant != cls.pie_rule:
            return Option(option)
        return Option(option, note=t("the pie rule, on by default") if variant in ON_BY_DEFAULT else t("the pie rule"))

    offers = [shown(o) for o in offered]
    if owner.title[0].lower() in "aeiou":  # English's article: "an inpHeXion option"
        return UserError("{option} is an {owner} option; {game} has {offered}.", option=Option(name),
                         owner=owner.title, game=cls.title, offered=offers)
    return UserError("{option} is a {owner} option; {game} has {offered}.", option=Option(name), owner=owner.title,
                     game=cls.title, offered=offers)


def _either(choices: list[str] | tuple[str, ...]) -> Text:
    """``a, b or c``: the choices a refusal offers."""
    return t("{choices} or {last}", choices=", ".join(choices[:-1]), last=choices[-1])


def _channel_busy(req: ChallengeRequest, game: GameRow) -> UserError:
    """Why a new game can't start in a channel whose game ``game`` is in progress, and what to do instead."""
    if req.rematch_of is not None:  # a button: no option to add, only to wait
        return UserError("Game #{game} is being played in {channel}; ask for the rematch once it has ended.",
                         game=game.id, channel=Channel(game.channel_id))
    return UserError("A game is already in progress in this channel. Add {thread} to play in a new thread.",
                     thread=THREAD)


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


class ChallengesService(LimitsService):
    """Challenges between players and games started against the computer (within the server's limits)."""

    async def create_challenge(self, req: ChallengeRequest, names: dict[int, str] | None = None) -> ChallengeRow:
        """Check and record a challenge; UserError says what does not fit."""
        if req.opponent_id == req.challenger_id:
            raise UserError("You can't challenge yourself — pick another member of this server.")
        if req.opponent_is_bot and not req.opponent_is_me:
            raise UserError("Bots can't play here — challenge a person, or challenge me to play against the computer.")
        options = challenge_options(req)
        if req.seat not in SEATS:
            raise UserError("{seat} is first, second or random.", seat=Option("seat"))
        settings = await self.store.guild_settings(req.guild_id)
        clock = req.clock or settings.default_clock
        if clock not in CLOCKS:
            raise UserError("{clock} is one of {clocks} (time per move).", clock=Option("clock"), clocks=", ".join(CLOCKS))
        thread = self._wants_thread(req, settings)
        # One rematch per game: two presses in this process wait for each other here; in two
        # processes the store's unique index lets only one insert through.
        once: contextlib.AbstractAsyncContextManager[object] = contextlib.nullcontext()
        if req.rematch_of is not None:
            once = self._rematch_locks.lock(req.rematch_of)
        async with once:
            if req.rematch_of is not None:
                await self._refuse_second_rematch(req.rematch_of)
            busy = None if thread else await self.store.active_game_in(req.channel_id)
            if busy is not None:
                raise _channel_busy(req, busy)
            now = self.clock()
            limits = await self.limits(req.guild_id)
            try:
                async with self.store.transaction():
                    await self._hold_challenge_limits(req, limits, now)
                    row = await self.store.insert_challenge(
                        guild_id=req.guild_id, channel_id=req.channel_id, challenger_id=req.challenger_id,
                        opponent_id=req.opponent_id, game=options.game, size=options.size, variants=options.variants,
                        seat=req.seat, rated=req.rated, thread=thread, created_at=now,
                        expires_at=now + settings.challenge_minutes * 60.0, clock=clock, rematch_of=req.rematch_of,
                    )
                    await self.store.add_timer(row.expires_at, "challenge-expiry", row.id, guild_id=row.guild_id)
            except Conflict:
                if req.rematch_of is not None:
                    await self._refuse_second_rematch(req.rematch_of)
                raise
        if names:
            await self.store.remember_names(req.guild_id, names, now)
        if self._schedule:
            await self._schedule(row.expires_at, "challenge-expiry", row.id)
        log.info("challenge %d: %d challenges %d to %s %d×%d %s", row.id, req.challenger_id, req.opponent_id,
                 options.game, options.size, options.size, " ".join(options.variants) or "-")
        return row

    async def rematch_request(self, game_id: int, user_id: int, bot_id: int | None) -> ChallengeRequest:
        """The challenge the Rematch button asks for: the same game and options with the seats
        swapped, in the same place, from ``user_id`` to the other player; UserError unless
        ``user_id`` played in the finished game ``game_id``."""
        row = await self.store.get_game(game_id)
        if row is None or row.status == "active":
            raise UserError("That game is not over yet; a rematch can be asked for once it has ended.")
        if user_id not in row.seats:
            raise UserError("Only the two players can ask for a rematch; start your own game with {command}.",
                            command=Command("challenge"))
        cls = engine.GAMES[row.game]
        other = row.seats[1 - row.seats.index(user_id)]
        flags = {name: variant in row.variants for name, variant in OPTION_VARIANTS.items()
                 if variant in cls.variant_names}
        return ChallengeRequest(
            guild_id=row.guild_id, channel_id=row.channel_id, channel_is_thread=row.parent_id is not None,
            channel_can_thread=False, challenger_id=user_id, opponent_id=other, opponent_is_bot=other == bot_id,
            opponent_is_me=other == bot_id, level=row.ai_level or "medium", game=row.game,
            size=row.size if len(cls.sizes) > 1 else None,
            # colours swapped: whoever moved first moves second now
            seat="second" if row.seats.index(user_id) == 0 else "first",
            rated=row.rated, thread=False, clock=row.clock, rematch_of=row.id, **flags,
        )

    async def _refuse_second_rematch(self, game_id: int) -> None:
        """RematchAsked, pointing at it, when game ``game_id`` has a rematch open or started."""
        ch = await self.store.rematch_of(game_id)
        if ch is None:
            return
        if ch.status == "open":
            raise RematchAsked("A rematch of game #{game} is already asked for: {challenge}.", game=game_id,
                               challenge=Post(ch.guild_id, ch.channel_id, ch.message_id))
        started = await self.store.get_game(ch.game_id) if ch.game_id is not None else None
        where = Channel(started.channel_id if started else ch.channel_id)
        raise RematchAsked("The rematch of game #{game} is game #{started}, in {channel}.", game=game_id,
                           started=ch.game_id, channel=where)

    @staticmethod
    def _wants_thread(req: ChallengeRequest, settings: GuildSettings) -> bool:
        """Whether the game gets a thread of its own: the option, else the server's default where possible."""
        if req.thread is None:
            return settings.always_thread and req.channel_can_thread and req.bot_can_thread and not req.channel_is_thread
        if req.thread and req.channel_is_thread:
            raise UserError("This is already a thread; challenge again with {here} to play right here.", here=HERE)
        if req.thread and not req.channel_can_thread:
            raise UserError("Games get a thread of their own only in a text channel; "
                            "challenge again with {here} to play right here.", here=HERE)
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

    @contextlib.asynccontextmanager
    async def _starting_game(self, channel_id: int) -> AsyncIterator[None]:
        """The transaction that inserts a game; a clash on "one game per channel" is a UserError."""
        try:
            async with self.store.transaction():
                yield
        except Conflict:
            # Only possible with a second bot process on the same file (this one holds the channel lock).
            raise UserError("A game has just started in this channel; challenge again with {thread}.",
                            thread=THREAD) from None

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.get_challenge(challenge_id)
        if row is None:
            raise UserError("That challenge does not exist; ask for a new one with {challenge}.",
                            challenge=Command("challenge"))
        if row.status != "open":
            raise UserError(CHALLENGE_CLOSED.get(row.status, t("That challenge has already ended.")))
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
        async with self._challenge_locks.lock(challenge_id):
            ch = await self._open_challenge(challenge_id)
            if user_id != ch.opponent_id:
                raise UserError("Only the challenged player can accept this challenge.")
            # One game start at a time per channel: two challenges accepted at the same moment
            # must not both pass the "channel is free" check.
            async with self._channel_locks.lock(ch.channel_id):
                channel_id, parent_id = ch.channel_id, None
                if not ch.thread and await self.store.active_game_in(ch.channel_id):
                    raise UserError(
                        "A game is already in progress in this channel; ask for a new challenge with {thread}.",
                        thread=THREAD,
                    )
                if ch.thread:
                    if open_thread is None:
                        raise UserError("This challenge needs a thread, which can't be made here; "
                                        "challenge again with {here} to play right here.", here=HERE)
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
        if engine.GAMES[game].has_cut:
            first, cut = draw_cut(seed)
        options = engine.make_options(game, size, variants, first)
        per_move = CLOCKS.get(clock)
        row = await self.store.insert_game(
            guild_id=guild_id, channel_id=channel_id, parent_id=parent_id, game=game, size=size,
            variants=options.variants, first=first, seed=seed, seat0_id=seats[0], seat1_id=seats[1], rated=rated,
            challenge_id=challenge_id, now=now, clock=clock, deadline=None if per_move is None else now + per_move,
            ai_level=ai_level,
        )
        await arm_timers(self.store, row, now)
        return row, cut

    async def start_ai_game(
        self,
        req: ChallengeRequest,
        bot_id: int,
        open_thread: Callable[[str], Awaitable[tuple[int, int]]] | None = None,
        names: dict[int, str] | None = None,
    ) -> tuple[ActiveGame, dict[str, str] | None]:
        """Start a game against the bot's AI at once (no Accept step); unrated, kept off the leaderboard.
        ``open_thread(player's name)`` creates the game's thread when the request asks for one."""
        if req.level not in LEVELS:
            raise UserError("{level} is {levels}.", level=Option("level"), levels=_either(list(LEVELS)))
        options = challenge_options(req)
        if req.seat not in SEATS:
            raise UserError("{seat} is first, second or random.", seat=Option("seat"))
        settings = await self.store.guild_settings(req.guild_id)
        thread = self._wants_thread(req, settings)
        clock = req.clock or "none"
        if clock not in CLOCKS:
            raise UserError("{clock} is one of {clocks} (time per move).", clock=Option("clock"), clocks=", ".join(CLOCKS))
        most = (await self.limits(req.guild_id))["ai_games"]
        # refused before a thread is made for it; counted again, race-free, where the game is inserted
        await self._check_ai_games(req.guild_id, req.challenger_id, most)
        async with self._channel_locks.lock(req.channel_id):
            busy = None if thread else await self.store.active_game_in(req.channel_id)
            if busy is not None:
                raise _channel_busy(req, busy)
            return await self._start_ai_game(req, options, thread, clock, bot_id, open_thread, names, most)

    async def _start_ai_game(
        self, req: ChallengeRequest, options: engine.GameOptions, thread: bool, clock: str, bot_id: int,
        open_thread: Callable[[str], Awaitable[tuple[int, int]]] | None, names: dict[int, str] | None,
        most_ai_games: int,
    ) -> tuple[ActiveGame, dict[str, str] | None]:
        """The rest of :meth:`start_ai_game`, under the channel's lock."""
        channel_id, parent_id = req.channel_id, None
        if thread:
            if open_thread is None:
                raise UserError("A thread can't be made here; challenge again with {here} to play right here.",
                                here=HERE)
            # the thread's name is the caller's to word (its language); the service gives the player's name
            channel_id, parent_id = await open_thread((names or {}).get(req.challenger_id, str(req.challenger_id)))
        now = self.clock()
        async with self._starting_game(req.channel_id):
            await self._hold_ai_games(req.guild_id, req.challenger_id, most_ai_games)
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
        async with self._challenge_locks.lock(challenge_id):
            ch = await self._open_challenge(challenge_id)
            allowed = ch.opponent_id if status == "declined" else ch.challenger_id
            if user_id != allowed and status == "declined":
                raise UserError("Only the challenged player can decline this challenge.")
            if user_id != allowed:
                raise UserError("Only the challenger can withdraw this challenge.")
            async with self.store.transaction():
                if not await self.store.close_challenge(ch.id, status):
                    raise UserError("That challenge has just ended.")
                await self.store.delete_timers("challenge-expiry", ch.id)
            log.info("challenge %d: %s by %d", ch.id, status, user_id)
            row = await self.store.get_challenge(ch.id)
            assert row is not None
            return row

    async def expire_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """Close a challenge whose time ran out (its expiry timer calls this); None if it ended otherwise.

        The timer row stays for the driver to delete once the expiry is announced: a crash in
        between runs the timer again, and a challenge already expired is returned again so
        that its message is still edited."""
        async with self._challenge_locks.lock(challenge_id):
            async with self.store.transaction():
                closed = await self.store.close_challenge(challenge_id, "expired")
            row = await self.store.get_challenge(challenge_id)
            if closed:
                log.info("challenge %d: expired", challenge_id)
            return row if row is not None and row.status == "expired" else None
