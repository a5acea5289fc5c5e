"""Running the real bot against the loopback fake Discord, with time under test control."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import AsyncIterator, Callable

from bot.ai import BotAI
from bot.app import HexBot
from bot.config import Settings
from tests.fake_discord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.fake_discord.fixtures import run_client

PNG = b"\x89PNG\r\n\x1a\n"
#: how long the computer player searches in tests (iterations, not seconds)
AI_ITERATIONS = 60


async def eventually(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait (real time, polling) until ``condition()`` is true, e.g. for a background task's effect."""
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    assert condition(), f"not true within {timeout} s"


class ManualClock:
    """A clock that moves only when the test calls :meth:`advance`."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start
        self._changed = asyncio.Event()

    def now(self) -> float:
        """The test's current time."""
        return self.t

    async def wait_until(self, when: float | None, wake: asyncio.Event) -> None:
        """Return once the test's time reaches ``when`` or ``wake`` is set."""
        while not wake.is_set() and (when is None or self.t < when):
            changed = asyncio.create_task(self._changed.wait())
            woken = asyncio.create_task(wake.wait())
            try:
                await asyncio.wait({changed, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                changed.cancel()
                woken.cancel()

    def advance(self, seconds: float) -> None:
        """Move time forward and wake whoever waits on it."""
        self.t += seconds
        self._changed.set()
        self._changed = asyncio.Event()


class Harness:
    """One bot on one database (``db``: a DATABASE_URL or a SQLite file), driven through the fake as the test's users."""

    def __init__(self, fake: FakeDiscord, db: str | Path, clock: ManualClock) -> None:
        self.fake = fake
        self.db = str(db)
        self.clock = clock
        self.world = fake.world
        self.channel = fake.world.channel
        self.bot: HexBot | None = None

    @contextlib.asynccontextmanager
    async def running(self, dev_guild_id: int | None = None, ai: BotAI | None = None) -> AsyncIterator[HexBot]:
        """Run a fresh bot process-equivalent (new client, same database) for the block.

        The computer player searches a fixed number of iterations (not its levels' time),
        so its moves are the same on any machine.
        """
        settings = Settings(token=self.fake.token, database_url=str(self.db), dev_guild_id=dev_guild_id)
        ai = ai or BotAI(workers=1, iterations=AI_ITERATIONS, warm=False)
        async with run_client(HexBot(settings, clock=self.clock, ai=ai), self.fake) as bot:
            self.bot = bot
            try:
                yield bot
            finally:
                self.bot = None

    async def slash(self, user: FakeMember, name: str, channel=None, **options) -> InteractionResult:
        """``/name`` as ``user`` in the game channel (or ``channel``); a board it posts is registered first."""
        r = await self.fake.slash(user, channel or self.channel, name, **options)
        for m in r.messages:
            await self.board_registered(m)
        return r

    async def move(self, user: FakeMember, action: str, channel=None) -> InteractionResult:
        """``/move action`` as ``user``."""
        return await self.slash(user, "move", channel, action=action)

    async def challenge(self, user: FakeMember, opponent: FakeMember, game: str, **options) -> InteractionResult:
        """``/challenge`` and return the public challenge message's result.

        The game is played in the channel itself unless ``thread`` is given (the server's
        default is a thread per game), so tests see its messages where they look."""
        options.setdefault("thread", False)
        return await self.slash(user, "challenge", opponent=opponent, game=game, **options)

    async def start_game(self, challenger: FakeMember, opponent: FakeMember, game: str, **options) -> FakeMessage:
        """Challenge, accept with the button, and return the first board message."""
        r = await self.challenge(challenger, opponent, game, **options)
        assert not r.ephemeral, r.content
        before = len(self.fake.messages(self.channel))
        known = set(self.fake.message_index)
        accept = next(c for c in r.custom_ids if c.endswith(":accept"))
        await self.fake.click(opponent, r, accept)
        return await self.board_after(before, channel=None if not options.get("thread") else "thread", known=known)

    async def board_after(self, count_before: int, channel=None, known: set[int] | None = None) -> FakeMessage:
        """The first message with a board image posted after ``count_before`` messages.

        In a thread: the first board among the messages not in ``known`` (ids taken
        before the action), whether it came before this call or comes after it.
        """
        def is_board(m: FakeMessage) -> bool:
            return any(name.endswith(".png") for name in m.files) and (channel is not None or m.channel is self.channel)

        msg = None
        if channel:
            seen = known if known is not None else set(self.fake.message_index)
            msg = await self.fake.wait_for(lambda m: is_board(m) and m.id not in seen, existing=True)
        if msg is None:
            msg = next((m for m in self.fake.messages(self.channel)[count_before:] if is_board(m)), None)
        if msg is None:
            msg = await self.fake.wait_for(is_board, existing=False)
        await self.board_registered(msg)
        return msg

    async def board_registered(self, msg: FakeMessage) -> None:
        """Wait until the bot has made ``msg`` (or a newer board) its game's live board (just after
        posting it), so that a test comparing the database before and after something sees only that."""
        ids = [re.match(r"^hx:board:(\d+):", c) for c in msg.custom_ids]
        game = next((int(m.group(1)) for m in ids if m), None)
        if game is None or self.bot is None:
            return
        for _ in range(500):
            live = await self.bot.service.store.get_meta(f"board:{game}")
            if live is not None and int(live.split(":")[1]) >= msg.id:
                return
            row = await self.bot.service.store.get_game(game)
            if live is None and (row is None or row.status != "active"):
                return  # the game is over: no board of it is live any more
            await asyncio.sleep(0.01)
        raise AssertionError(f"board {msg.id} of game {game} was never registered")


def mentions(text: str | None) -> list[int]:
    """User ids mentioned in a message text."""
    return [int(x) for x in re.findall(r"<@!?(\d+)>", text or "")]


def png_of(result: InteractionResult | FakeMessage) -> bytes:
    """The PNG attached to a reply or message."""
    files = result.attachments if isinstance(result, InteractionResult) else result.files
    pngs = [data for name, data in files.items() if name.endswith(".png")]
    assert pngs, f"no PNG in {result!r}"
    return pngs[0]
