"""Limits against abuse: how many open challenges, games against the computer and replays a member
may have at once, and how soon a game's board may be posted again.

The limits, their defaults and their ranges are data (``bot/data/limits.toml``); a server's admins
change them with ``/settings`` (the overrides are rows of ``guild_limits``). A refusal is a
:class:`UserError` that says what the limit is and, where there is one, when it frees up; it
changes nothing.

Across processes (PostgreSQL, several shards): the limits counted from the database (open
challenges, games in progress) are counted and the new row inserted in one transaction under a
lock every process shares (:meth:`Store.hold`), so two requests at once can't both pass. The
board cooldown and the replays a member has in the making are counted in memory, per process: a
server's interactions reach one process, and a duplicate across processes while two overlap
costs one extra picture, never a wrong game.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..i18n import tc, tn
from ..store import ChallengeRow
from .core import ServiceCore
from .errors import Channel, Command, Moment, Option, Post, UserError
from .values import ActiveGame, ChallengeRequest


@dataclass(frozen=True, slots=True)
class Limit:
    """One per-member limit of a server: its ``/settings`` option ``name``, default and range."""

    name: str
    default: int
    low: int
    high: int
    unit: str
    what: str
    label: str

    def checked(self, value: int) -> int:
        """``value`` if it is in range, else the UserError that says the range (nothing changed)."""
        if not self.low <= value <= self.high:
            raise UserError("{option} is from {low} to {high} ({unit}); nothing was changed.",
                            option=Option(self.name), low=self.low, high=self.high, unit=tc("unit", self.unit))
        return value


def _load() -> tuple[dict[str, Limit], dict[str, int]]:
    data: dict[str, Any] = tomllib.loads(resources.files("bot.data").joinpath("limits.toml").read_text("utf-8"))
    server = {name: Limit(name, int(v["default"]), int(v["min"]), int(v["max"]), str(v["unit"]),
                          str(v["what"]), str(v["label"]))
              for name, v in data["server"].items()}
    for limit in server.values():
        assert limit.low <= limit.default <= limit.high, limit
    return server, {name: int(v) for name, v in data["process"].items()}


#: every per-member limit of a server, by its ``/settings`` option name
LIMITS, _PROCESS = _load()
#: replay GIFs one process makes at once; finished games whose replay GIF the database keeps
REPLAYS_AT_ONCE = _PROCESS["replays_at_once"]
CACHED_REPLAYS = _PROCESS["cached_replays"]
#: background reviews waiting at most; the fewest turns and the largest board of a game reviewed in the background
BACKGROUND_REVIEWS_WAITING = _PROCESS["background_reviews_waiting"]
BACKGROUND_MIN_TURNS = _PROCESS["background_review_min_turns"]
BACKGROUND_MAX_SIZE = _PROCESS["background_review_max_size"]
#: tournaments one server may run at once (a round starts all its games together: process safety)
TOURNAMENTS_RUNNING_PER_SERVER = _PROCESS["tournaments_running_per_server"]
#: how many games' last re-post times a process remembers (older ones have long cooled down)
_REMEMBERED_REPOSTS = 4096


def resolved(overrides: Mapping[str, int]) -> dict[str, int]:
    """A server's limits: its overrides over the defaults (an override of a limit no longer known is
    ignored; one out of range, e.g. after a maximum was lowered, is held to the range)."""
    return {name: min(limit.high, max(limit.low, overrides.get(name, limit.default)))
            for name, limit in LIMITS.items()}


class LimitsService(ServiceCore):
    """Checks the limits before a challenge, a game against the computer, a board re-post or a replay."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: game id → when its board was last re-posted (``/board`` or the Board button) in this process
        self._reposts: OrderedDict[int, float] = OrderedDict()
        #: user id → replays being made for them in this process
        self._replaying: dict[int, int] = {}

    async def limits(self, guild_id: int) -> dict[str, int]:
        """A server's limits, by name (see :data:`LIMITS`)."""
        return resolved(await self.store.guild_limits(guild_id))

    # -- counted from the database ---------------------------------------------------------
    async def _hold_challenge_limits(self, req: ChallengeRequest, limits: Mapping[str, int], now: float) -> None:
        """Inside the transaction that inserts a challenge: UserError when it would pass a limit.

        The lock is one per server (challenges are rare; a server's are counted together), held
        to the end of the transaction, so two challenges at once are counted one after the other.
        """
        await self.store.hold(f"challenges:{req.guild_id}")
        rows = await self.store.open_challenges_around(req.guild_id, req.challenger_id, req.opponent_id, now)
        mine = [r for r in rows if r.challenger_id == req.challenger_id]
        same = next((r for r in mine if r.opponent_id == req.opponent_id), None)
        if same is not None:
            raise UserError("You have already challenged them: {challenge}. Wait for their answer, or withdraw it "
                            "(it expires {when}).", challenge=Post(same.guild_id, same.channel_id, same.message_id),
                            when=Moment(same.expires_at))
        most = limits["open_challenges"]
        if len(mine) >= most:
            raise UserError("You have {count} — this server allows {most} at once. "
                            "Withdraw one, or wait: the next one expires {when}.",
                            count=tn("{n} open challenge", "{n} open challenges", len(mine)), most=most,
                            when=Moment(_frees_at(mine, most)))
        theirs = [r for r in rows if r.opponent_id == req.opponent_id]
        most = limits["challenges_to_member"]
        if len(theirs) >= most:
            raise UserError("They already have {count} waiting — this server allows {most} at once. "
                            "You can challenge them {when}, as challenges expire.",
                            count=tn("{n} open challenge", "{n} open challenges", len(theirs)), most=most,
                            when=Moment(_frees_at(theirs, most)))

    async def _check_ai_games(self, guild_id: int, user_id: int, limit: int) -> None:
        """UserError when a member already plays the computer in ``limit`` games of this server.

        Called once before anything is made (a thread), and again inside the transaction that
        inserts the game, after :meth:`Store.hold` of the member's lock: that one is race-free."""
        rows = await self.store.active_ai_games_of(guild_id, user_id)
        if len(rows) >= limit:
            raise UserError("You're already playing the computer in {games} — this server allows {most} at once. "
                            "Finish one (or {resign}) to start another.", most=tn("{n} game", "{n} games", limit),
                            games=[Channel(r.channel_id) for r in rows], resign=Command("resign"))

    async def _hold_ai_games(self, guild_id: int, user_id: int, limit: int) -> None:
        """:meth:`_check_ai_games` inside the transaction that inserts the game (race-free)."""
        await self.store.hold(f"ai-games:{guild_id}:{user_id}")
        await self._check_ai_games(guild_id, user_id, limit)

    # -- counted in memory ---------------------------------------------------------------------
    async def claim_board_repost(self, game: ActiveGame) -> None:
        """Before ``/board`` or the Board button posts a game's board again: UserError pointing at the
        board posted last while the server's cooldown runs since the last re-post; else the re-post
        is counted from now (checked and counted in one step, so two at once post once)."""
        cooldown = (await self.limits(game.row.guild_id))["board_cooldown"]
        now = self.clock()
        last = self._reposts.get(game.row.id)
        if cooldown and last is not None and now < last + cooldown:
            live = await self.store.get_meta(f"board:{game.row.id}")
            channel_id, message_id = (int(x) for x in live.split(":")) if live else (game.row.channel_id, None)
            raise UserError("The board was just posted: {board}. It can be posted again {when}.",
                            board=Post(game.row.guild_id, channel_id, message_id), when=Moment(last + cooldown))
        self._reposts[game.row.id] = now
        self._reposts.move_to_end(game.row.id)
        while len(self._reposts) > _REMEMBERED_REPOSTS:
            self._reposts.popitem(last=False)

    @contextlib.asynccontextmanager
    async def replay_slot(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        """Hold one of a member's replays in the making for the block; UserError when they have the most
        the server allows already (a replay in the making frees its slot once it is posted)."""
        most = (await self.limits(guild_id))["replays"]
        if self._replaying.get(user_id, 0) >= most:
            raise UserError("Your replay is still being made — this server allows {most} at once. "
                            "Ask again once it is posted.", most=tn("{n} replay", "{n} replays", most))
        self._replaying[user_id] = self._replaying.get(user_id, 0) + 1
        try:
            yield
        finally:
            left = self._replaying[user_id] - 1
            if left:
                self._replaying[user_id] = left
            else:
                del self._replaying[user_id]


def _frees_at(rows: list[ChallengeRow], most: int) -> float:
    """When fewer than ``most`` of these open challenges are left, if none is answered first."""
    expiries = sorted(r.expires_at for r in rows)
    return expiries[len(expiries) - most]


