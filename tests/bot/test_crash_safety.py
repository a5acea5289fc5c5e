"""Crash safety: the real bot as a separate process on a real SQLite file, SIGKILLed at
random moments while four games are played at once.

Seeded: the scripts, where the kills fall (after a random number of actions),
and how (at once; after a short random delay; just after a move was committed
and deferred; just as a reply reached the fake). After every kill, before the bot
restarts, straight from the SQLite file:

* ``PRAGMA integrity_check`` is ``ok``;
* every game holds a whole number of its script's lines — at least every line
  whose reply reached the fake, at most every line sent — with sequence
  numbers 0..n-1, a status that matches the record (a finished game has its
  result, its rating changes and no timers; a running one has its timers);
* ratings agree with rating changes, challenges with games and timers.

After every restart: ``/board`` shows exactly the stored position (same
picture as rendering it here), challenge messages posted before a kill are
accepted with their old buttons, and the games go on. At least 10 kills over
at least 250 actions; the bot logs no error in any run.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from contextlib import suppress

import render
from tests.bot.crash_driver import (
    BotProcess,
    Line,
    Slot,
    check_everything_else,
    integrity,
    make_script,
    position_after,
    public_count,
    rows,
    stored_lines,
)
from tests.fake_discord import FakeDiscord, FakeInteraction, InteractionFailed, InteractionResult, InteractionTimeout
from tests.fake_discord.fixtures import standard_world

SEED = 20_261_122
KILLS = 10
ACTIONS = 250
MAX_CYCLES = 80
STYLES = ("at once", "after a random delay", "after a commit", "just after a reply")


def _consume(future: asyncio.Future) -> None:
    """Interactions lost with a killed bot fail later; nobody waits for them."""
    if not future.cancelled():
        future.exception()


def reached(inter: FakeInteraction | None) -> InteractionResult | None:
    """The final answer of an interaction, if one reached the fake."""
    if inter is None or inter.future is None or not inter.future.done() or inter.future.cancelled():
        return None
    if inter.future.exception() is not None:
        return None
    return inter.future.result()


def is_success(line: Line, r: InteractionResult) -> bool:
    if not r.ephemeral:
        # a board, or words for a Blind Hex letter after which the same player writes again
        return any(n.endswith(".png") for n in r.attachments) or " wrote at " in (r.content or "")
    return "You chose" in (r.content or "")  # a Blind Hex choice, confirmed privately until the reveal


class CrashRun:
    def __init__(self, fake: FakeDiscord, bot: BotProcess, rng: random.Random) -> None:
        self.fake = fake
        self.bot = bot
        self.rng = rng
        self.actions = 0
        self.kills = 0
        self.stats: Counter[str] = Counter()
        self.changed = asyncio.Event()
        #: set just before a SIGKILL: from then on, a missing answer is expected, not a failure
        self.killed = False
        self.pending: dict[int, tuple[str, FakeInteraction]] = {}  # slot index → (what, interaction)

    # -- sending ------------------------------------------------------------------------------
    def _track(self, inter: FakeInteraction) -> FakeInteraction:
        assert inter.future is not None
        inter.future.add_done_callback(_consume)
        self.actions += 1
        self.changed.set()
        return inter

    async def slash(self, user, channel, name: str, **options) -> FakeInteraction:
        self._alive()
        return self._track(await self.fake.start_slash(user, channel, name, **options))

    async def click(self, user, message_id: int, custom_id: str) -> FakeInteraction:
        self._alive()
        return self._track(await self.fake.start_component(user, message_id, custom_id))

    def _alive(self) -> None:
        if self.killed:
            raise asyncio.CancelledError  # the bot is dead: this driver stops here

    async def answer(self, inter: FakeInteraction) -> InteractionResult:
        """The final answer; a driver that outlived the kill by a moment just stops."""
        try:
            return await inter.wait(20)
        except (InteractionFailed, InteractionTimeout):
            self._alive()
            raise

    def kill(self) -> None:
        self.killed = True
        self.bot.kill_now()

    # -- one slot ---------------------------------------------------------------------------
    async def adopt(self, slot: Slot, row) -> None:
        slot.row, slot.game_id = row, row["id"]
        slot.lines = make_script(row, random.Random(f"{SEED}-{row['id']}"))
        slot.done = slot.confirmed = 0
        slot.challenge = None
        slot.games_played += 1

    async def post_challenge(self, i: int, slot: Slot) -> None:
        a, b = slot.players
        options = {"opponent": b, "game": slot.game, "thread": False}  # played in the slot's channel
        if slot.size:
            options["size"] = slot.size
        inter = await self.slash(a, slot.channel, "challenge", **options)
        self.pending[i] = ("challenge", inter)
        r = await self.answer(inter)
        del self.pending[i]
        if r.ephemeral and "already challenged" in (r.content or ""):
            # Committed just before a kill, its answer lost with the process: the bot kept the
            # challenge (one open challenge to a member), so the opponent takes it with /accept.
            await self.accept_kept_challenge(i, slot)
            return
        self.note_challenge(slot, r)

    async def accept_kept_challenge(self, i: int, slot: Slot) -> None:
        inter = await self.slash(slot.players[1], slot.channel, "accept")
        self.pending[i] = ("accept", inter)
        r = await self.answer(inter)
        del self.pending[i]
        # /accept answers its caller privately ("Accepted — game #N."); the board is posted for all.
        assert (r.content or "").startswith("Accepted"), f"/accept of a kept challenge failed: {r!r}"
        self.stats["challenge kept across a kill, accepted with /accept"] += 1
        (row,) = rows(self.bot.db, "SELECT * FROM games WHERE channel_id = ? AND status = 'active'", slot.channel.id)
        await self.adopt(slot, row)

    def note_challenge(self, slot: Slot, r: InteractionResult) -> None:
        assert not r.ephemeral and r.message is not None, f"challenge refused: {r.content}"
        accept = next(c for c in r.custom_ids if c.endswith(":accept"))
        slot.challenge = (r.message.id, accept, self.bot.generation)

    async def accept_old_challenge(self, i: int, slot: Slot) -> None:
        assert slot.challenge is not None
        message_id, accept, generation = slot.challenge
        inter = await self.click(slot.players[1], message_id, accept)
        self.pending[i] = ("accept", inter)
        r = await self.answer(inter)
        del self.pending[i]
        assert not r.ephemeral and "accepted" in (r.content or ""), f"old Accept button failed: {r!r}"
        if generation < self.bot.generation:
            self.stats["accepted with a button from before a kill"] += 1
        (row,) = rows(self.bot.db, "SELECT * FROM games WHERE channel_id = ? AND status = 'active'", slot.channel.id)
        await self.adopt(slot, row)

    async def drive(self, i: int, slot: Slot) -> None:
        """Play the slot's script until it ends (then post the next challenge) or the bot dies."""
        if slot.over:
            if slot.challenge is None:
                await self.post_challenge(i, slot)
            return
        while not slot.over:
            idx = slot.done
            line = slot.lines[idx]
            user = slot.user(line.user_id)
            if line.resign:
                inter = await self.slash(user, slot.channel, "resign")
            else:
                inter = await self.slash(user, slot.channel, "move", action=line.text)
            self.pending[i] = (f"line {idx}", inter)
            r = await self.answer(inter)
            del self.pending[i]
            assert is_success(line, r), f"game {slot.game_id} line {idx} {line.text!r} refused: {r.content!r}"
            slot.done = slot.confirmed = idx + 1
        self.stats["games played to the end"] += 1
        await self.post_challenge(i, slot)

    # -- one cycle --------------------------------------------------------------------------------
    async def check_boards(self, slots: list[Slot]) -> None:
        """After a restart, /board shows exactly what the database holds."""
        for slot in slots:
            if slot.over:
                continue
            assert slot.row is not None
            pos = position_after(slot.row, slot.lines, slot.done)
            watcher = self.fake.world.admin
            r = await (await self.slash(watcher, slot.channel, "board")).wait(20)
            await self.fake.settle()
            n = public_count(pos)
            assert f"after {n} action{'s' if n != 1 else ''}." in r.embed["description"], \
                (slot.game_id, n, r.embed["description"])
            names = {c: slot.user(slot.row["seat0_id"] if pos.seat_of_colour(c) == 0 else slot.row["seat1_id"]).name
                     for c in pos.colours}
            png = next(data for name, data in r.attachments.items() if name.endswith(".png"))
            assert png == render.render_position(pos, names=names), f"/board of game {slot.game_id} differs"
            self.stats["boards checked"] += 1

    async def cycle(self, slots: list[Slot], kill_at: int) -> None:
        """Start the bot, check it, play until ``kill_at`` actions, kill it, check the file."""
        await self.bot.start()
        self.killed = False
        await self.check_boards(slots)
        for i, slot in enumerate(slots):
            if slot.over:
                active = rows(self.bot.db, "SELECT * FROM games WHERE channel_id = ? AND status = 'active'",
                              slot.channel.id)
                if active and (slot.row is None or active[0]["id"] != slot.row["id"]):
                    await self.adopt(slot, active[0])  # accepted just before a kill; the reply was lost
                elif slot.challenge is not None:
                    await self.accept_old_challenge(i, slot)
        drivers = [asyncio.create_task(self.drive(i, s), name=f"slot-{i}") for i, s in enumerate(slots)]
        for task in drivers:
            task.add_done_callback(lambda _: self.changed.set())
        try:
            style = await self.wait_for_kill_moment(kill_at, drivers)
        finally:
            if self.bot.proc is not None:
                self.kill()
            for task in drivers:
                task.cancel()
        for task in drivers:
            with suppress(asyncio.CancelledError):
                await task  # a failed assertion in a driver surfaces here
        await self.bot.reap()
        self.kills += 1
        self.stats[f"killed {style}"] += 1
        self.check_file(slots)

    async def wait_for_kill_moment(self, kill_at: int, drivers: list[asyncio.Task]) -> str:
        while self.actions < kill_at and not all(t.done() for t in drivers):
            self.changed.clear()
            await self.changed.wait()
        for t in drivers:
            if t.done() and not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
        style = self.rng.choice(STYLES)
        if style == "after a random delay":
            await asyncio.sleep(self.rng.uniform(0.0, 0.05))
        elif style in ("after a commit", "just after a reply"):
            def moment(q) -> bool:
                body = q.json if isinstance(q.json, dict) else {}
                if style == "after a commit":  # the move is stored; the deferral just went out
                    return q.path.endswith("/callback") and body.get("type") == 5
                return q.method == "POST" and q.path.startswith("/webhooks/")
            waiter = asyncio.create_task(self.fake.wait_for_request(moment, timeout=10, existing=False))
            idle = asyncio.create_task(asyncio.wait(drivers))
            await asyncio.wait({waiter, idle}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            idle.cancel()
            with suppress(BaseException):
                await waiter
        return style

    def check_file(self, slots: list[Slot]) -> None:
        """With the bot dead: the file is sound and holds every acknowledged line, whole."""
        db = self.bot.db
        assert integrity(db) == "ok"
        check_everything_else(db)
        for i, slot in enumerate(slots):
            what, inter = self.pending.pop(i, ("", None))
            answer = reached(inter)
            if what == "challenge" and answer is not None:
                self.note_challenge(slot, answer)
            if what == "accept" and answer is not None:
                assert rows(db, "SELECT 1 FROM games WHERE channel_id = ? AND status = 'active'", slot.channel.id), \
                    "an acknowledged accept left no game"
            if slot.row is None:
                continue
            k = stored_lines(db, slot)
            sent = slot.done + (1 if what.startswith("line") else 0)
            acked = slot.confirmed + (1 if what.startswith("line") and answer is not None else 0)
            assert acked <= k <= sent, f"game {slot.game_id}: {k} lines stored, {acked} acknowledged, {sent} sent"
            if k > acked:
                self.stats["committed but unanswered when killed"] += 1
            elif what.startswith("line") and answer is None:
                self.stats["lost with the process (never committed)"] += 1
            slot.done = slot.confirmed = k


async def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path, database_url):
    rng = random.Random(SEED)
    fake = FakeDiscord(token="crash-safety-token")
    w = standard_world(fake)
    dave = fake.add_member(w.guild, "dave")
    slots = [
        Slot(w.channel, (w.alice, w.bob), "hex", 7),
        Slot(fake.add_text_channel(w.guild, "inphexion"), (w.carol, dave), "inphexion", 7),
        Slot(fake.add_text_channel(w.guild, "blind"), (w.bob, w.carol), "blindhex", None),
        Slot(fake.add_text_channel(w.guild, "quick"), (dave, w.alice), "hex", 5),
    ]
    await fake.start()
    bot = BotProcess(fake, tmp_path, database_url)
    run = CrashRun(fake, bot, rng)
    try:
        # The first games: challenges posted in the first run, accepted with their buttons after the first kill.
        await bot.start()
        await fake.wait_for_request(lambda r: r.method == "PUT" and "/commands" in r.path, timeout=30)
        for i, slot in enumerate(slots):
            await run.post_challenge(i, slot)
        run.kill()
        await bot.reap()
        run.kills += 1
        run.stats["killed at once"] += 1
        run.check_file(slots)
        cycles = 0
        while run.kills < KILLS or run.actions < ACTIONS:
            cycles += 1
            assert cycles <= MAX_CYCLES, f"no progress: {run.stats}"
            await run.cycle(slots, run.actions + rng.randint(12, 38))
        # One last start: everything still there, and every game goes on.
        await bot.start()
        run.killed = False
        await run.check_boards(slots)
        for i, slot in enumerate(slots):
            if slot.over:
                if slot.challenge is not None:
                    await run.accept_old_challenge(i, slot)
                continue
            line = slot.lines[slot.done]
            name, options = ("resign", {}) if line.resign else ("move", {"action": line.text})
            r = await (await run.slash(slot.user(line.user_id), slot.channel, name, **options)).wait(20)
            assert is_success(line, r), r.content
        await bot.stop()
        assert integrity(bot.db) == "ok"
        check_everything_else(bot.db)
    finally:
        await bot.stop()
        await fake.stop()
    print(f"\ncrash safety: {run.kills} kills, {run.actions} actions, {dict(run.stats)}")
    assert run.kills >= KILLS and run.actions >= ACTIONS
    assert run.stats["accepted with a button from before a kill"] >= 4
    assert run.stats["boards checked"] >= KILLS
    assert sum(slot.games_played for slot in slots) >= 6
    assert not bot.problems(), bot.problems()[:10]
