"""Bad input never hurts: hypothesis-generated option values through the real bot and the fake.

Every string option the bot synced (found from the synced definitions, so a new
command is fuzzed too) gets huge, unicode, control-character, SQL-looking and
mention-laden text; integer options get values outside their range. Values
Discord's own client would refuse (wrong choice, too long, out of range) are
sent as a modified client could, by lifting the limits from the fake's copy of
the definitions. For every example:

* the interaction is answered, and no message shows a traceback;
* the database is unchanged (every row of every table);
* every message request carries ``allowed_mentions`` that never parse
  ``everyone``/``roles``, and no stored message pings everyone or a role.

``/move`` text and nicknames are real user input, so there the answer must
also be a private refusal written for people (not the "something went wrong"
fallback), with nothing logged at ERROR.

One bot runs per test function in a loop on a helper thread; hypothesis (a
synchronous engine) submits each example to it, derandomized and seeded.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import re
import threading
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine
from bot.app import SORRY, HexBot
from bot.config import Settings
from bot.service.limits import LIMITS
from tests import dbquery
from tests.bot.backends import sqlite_database_url as database_url  # noqa: F401  (SQLite alone: see its docstring)
from tests.bot.harness import ManualClock
from tests.fake_discord import FakeDiscord, FakeMember
from tests.fake_discord.fixtures import run_client, standard_world
from tests.fake_discord.patch import patch_discord

TOKEN = "bad-input-token"
EXAMPLES = settings(
    max_examples=40, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+")

# Text that has hurt bots before: mentions, SQL, format strings, markdown, bidi and zero-width
# characters, NUL and other control characters, notation-lookalikes of all three games.
NASTY = [
    "@everyone", "@here", "@everyone c3", "<@&{role}>", "<@{user}>", "<@!{user}>", "<#{channel}>",
    "'; DROP TABLE actions; --", "c3'); DELETE FROM games; --", "1 OR 1=1", "\" OR \"\"=\"",
    "%s%s%s%n", "{0.__class__.__mro__}", "${jndi:ldap://127.0.0.1/x}", "{{7*7}}",
    "```", "`", "||spoiler||", "**b**", "> quote", "# heading", "[link](http://127.0.0.1/)",
    "\x00", "c3\x00", "\x1b[31mred", "\r\n", "\t", "\u202ec3", "c\u200b3", "\ufeffc3", "\u0000\u0001\u0002",
    "Ｃ３", "𝔠𝟛", "c" + "\u0301" * 50, "🎲" * 50, "é" * 200, "a" * 200, " " * 200, "-" * 200,
    " c3 ", "C3", "c3 c3", "c3 d3 e3 f3 g3 h3 i3", "b2>e7>f8", "c4 d4 e5 f6", "c4>c4", "a0", "z99", "c-1",
    "c99999999999999999999", "swap swap", "move move c3", "1+4", "1+4+5", "0+0", "99+99", "-1+-2", "aside 1+1",
    "aside", "x:1+4", "o:2+3", "1 + 4", "resign", "None", "null", "NaN", "0", "-0", "1e309",
]

# Options whose value comes with the interaction's context rather than from typing.
NON_TEXT = {6: "user", 5: "bool", 4: "int", 10: "number", 7: "channel", 8: "role", 9: "mentionable", 11: "attachment"}


class LiveBot:
    """The fake Discord and the real bot on an event loop in a helper thread."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="live-bot", daemon=True)

    def __enter__(self) -> "LiveBot":
        self.thread.start()
        self.call(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.call(self._stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    def call(self, coro, timeout: float = 60.0) -> Any:
        """Run a coroutine on the bot's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.fake = FakeDiscord(token=TOKEN)
        self.world = standard_world(self.fake)
        self.lobby = self.fake.add_text_channel(self.world.guild, "lobby")
        self.game_channels = {"hex": self.world.channel}
        for game in ("inphexion", "blindhex"):
            self.game_channels[game] = self.fake.add_text_channel(self.world.guild, game)
        self.role = self.fake.add_role(self.world.guild, "players")
        await self.fake.start()
        self._patch = patch_discord(self.fake)
        self._patch.__enter__()
        settings_ = Settings(token=TOKEN, database_url=str(self.db))
        self._running = run_client(HexBot(settings_, clock=ManualClock()), self.fake)
        self.bot = await self._running.__aenter__()

    async def _stop(self) -> None:
        try:
            await self._running.__aexit__(None, None, None)
        finally:
            self._patch.__exit__(None, None, None)
            await self.fake.stop()

    def fill(self, text: str) -> str:
        """Put real ids into the mention templates of :data:`NASTY`."""
        return text.format(role=self.role.id, user=self.world.alice.id, channel=self.world.channel.id) \
            if "{" in text and "}" in text and not text.startswith(("{0", "{{", "${")) else text


def db_snapshot(db: str) -> dict[str, list[str]]:
    """Every row of every table, in a stable order."""
    return dbquery.snapshot(db)


def body_of(request) -> dict[str, Any]:
    """The JSON body of a recorded request (multipart payload_json included)."""
    return request.json if isinstance(request.json, dict) else {}


def message_data(request) -> dict[str, Any] | None:
    """The message fields a request sends (None when it sends no message)."""
    route = f"{request.method} {request.path}"
    body = body_of(request)
    if re.search(r"/interactions/\d+/[^/]+/callback$", route):
        return body.get("data") if body.get("type") in (4, 7) else None
    if re.search(r"^(POST|PATCH) /(webhooks/\d+/[^/]+(/messages/[^/]+)?|channels/\d+/messages(/\d+)?)$", route):
        return body
    return None


def assert_no_mass_mentions(fake: FakeDiscord, requests: list, messages: list) -> None:
    """Every message request sets allowed_mentions without everyone/roles; nothing pinged them."""
    for request in requests:
        data = message_data(request)
        if data is None or not (data.get("content") or data.get("embeds")):
            continue
        am = data.get("allowed_mentions")
        assert am is not None, f"{request!r} sends a message without allowed_mentions: {data.get('content')!r}"
        parse = set(am.get("parse") or [])
        assert not parse & {"everyone", "roles"}, f"{request!r} lets {parse} ping: {data.get('content')!r}"
        assert not am.get("roles"), f"{request!r} lets roles ping: {am}"
    for m in messages:
        assert not m.mention_everyone and not m.mention_roles, f"message {m.id} pinged everyone/roles: {m.content!r}"


def message_text(m) -> str:
    text = (m.content or "") + repr(m.embeds)
    for name, data in m.files.items():
        if name.endswith((".txt", ".log", ".py")):
            text += data.decode("utf-8", "replace")
    return text


@contextlib.contextmanager
def client_checks_off(fake: FakeDiscord, name: str) -> Iterator[None]:
    """As a modified client could: send /name values outside its choices, lengths and ranges."""
    synced = [c for scope in fake.commands.values() for c in scope.values() if c.name == name.split()[0]]
    saved = [(c, copy.deepcopy(c.payload)) for c in synced]

    def relax(options: list[dict[str, Any]]) -> None:
        for option in options:
            for key in ("choices", "min_value", "max_value", "min_length", "max_length"):
                option.pop(key, None)
            relax(option.get("options") or [])  # a sub-command's own options

    for c in synced:
        relax(c.payload.get("options") or [])
    try:
        yield
    finally:
        for c, payload in saved:
            c.payload = payload


class Prober:
    """Sends one interaction and checks the three promises around it."""

    def __init__(self, live: LiveBot, caplog: pytest.LogCaptureFixture) -> None:
        self.live = live
        self.fake = live.fake
        self.caplog = caplog
        #: the database when fuzzing began: no example may move it from here (so a change fails every later
        #: example too, and hypothesis reports the smallest one rather than a flaky failure)
        self.baseline = db_snapshot(live.db)

    async def probe(self, user: FakeMember, channel, name: str, options: dict[str, Any], *, relaxed: bool,
                    human: bool) -> Any:
        fake = self.fake
        first_request, first_message = len(fake.requests), max(fake.message_index, default=0)
        errors_before = len([r for r in self.caplog.records if r.levelno >= logging.ERROR])
        with client_checks_off(fake, name) if relaxed else contextlib.nullcontext():
            inter = await fake.start_slash(user, channel, name, options=options)
        result = await inter.wait(15)
        await fake.settle()
        requests = fake.requests[first_request:]
        messages = [m for mid, m in sorted(fake.message_index.items()) if mid > first_message or m is result.message]
        where = f"/{name} {options!r}"
        for m in messages:
            assert not TRACEBACK.search(message_text(m)), f"{where}: a traceback reached the user: {m.content!r}"
        assert_no_mass_mentions(fake, requests, messages)
        after = db_snapshot(self.live.db)
        changed = {t: sorted(set(rows) ^ set(self.baseline.get(t, []))) for t, rows in after.items()
                   if rows != self.baseline.get(t)}
        assert not changed, f"{where} changed the database: {changed}"
        if human:
            assert result.ephemeral, f"{where}: refusal is public: {result.content!r}"
            assert result.content and SORRY not in result.content, f"{where}: no real answer: {result.content!r}"
            errors = [r for r in self.caplog.records if r.levelno >= logging.ERROR][errors_before:]
            assert not errors, f"{where}: logged {[r.getMessage() for r in errors]}"
        return result


def text_values(live: LiveBot, *, huge: bool = False) -> st.SearchStrategy[str]:
    """Hostile text: known-nasty strings, random unicode (no lone surrogates), and mixes."""
    size = (201, 4000) if huge else (1, 200)
    random_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=size[0], max_size=size[1])
    nasty = st.sampled_from(NASTY).map(live.fill)
    mixed = st.tuples(nasty, st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), nasty).map("".join)
    if huge:
        return st.one_of(random_text, nasty.map(lambda s: (s * (4000 // max(1, len(s)) + 1))[:4000]))
    return st.one_of(nasty, random_text, mixed).map(lambda s: s[:200]).filter(bool)


def command_options(fake: FakeDiscord) -> dict[str, list[dict[str, Any]]]:
    """Every command the bot synced, by the name a member types ("tournament create" for a
    sub-command), with its options."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, cmd in sorted(fake.synced_commands().items()):
        subs = [o for o in cmd.options if o["type"] == 1]  # SUB_COMMAND
        for sub in subs:
            out[f"{name} {sub['name']}"] = sub.get("options", [])
        if not subs:
            out[name] = cmd.options
    return out


def string_options(fake: FakeDiscord) -> list[tuple[str, dict[str, Any]]]:
    """(command, option definition) of every string option the bot synced."""
    return [(name, option) for name, options in command_options(fake).items() for option in options if option["type"] == 3]


def defaults(live: LiveBot, name: str, skip: str) -> dict[str, Any]:
    """Valid values for the other required options of /name (a user is bob, a number its minimum)."""
    w = live.world
    out: dict[str, Any] = {}
    for option in command_options(live.fake)[name]:
        if option["name"] == skip or not option.get("required"):
            continue
        kind = option["type"]
        if option.get("choices"):
            out[option["name"]] = option["choices"][0]["value"]
        elif kind == 6:
            out[option["name"]] = w.bob
        elif kind in (4, 10):
            out[option["name"]] = option.get("min_value", 1)
        elif kind == 5:
            out[option["name"]] = False
        elif kind == 3:
            out[option["name"]] = "x"
        else:
            raise AssertionError(f"/{name}: no default for option type {NON_TEXT.get(kind, kind)}")
    return out


def invoker(live: LiveBot, name: str):
    """Someone who may run /name (the admin for Manage-Server commands, else alice)."""
    needed = live.fake.synced_commands()[name.split()[0]].payload.get("default_member_permissions")
    return live.world.admin if needed not in (None, "0") else live.world.alice


async def start_hex_game(live: LiveBot) -> None:
    """A Hex 5×5 game in #games with alice to move, so /move text reaches the parser."""
    w = live.world
    r = await live.fake.slash(w.alice, w.channel, "challenge", opponent=w.bob, game="hex", size=5, seat="first",
                              thread=False)
    await live.fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
    await live.fake.wait_for(lambda m: m.channel is w.channel and any(n.endswith(".png") for n in m.files))
    await board_registered(live, w.channel)


async def start_games(live: LiveBot) -> dict[str, Any]:
    """One game of each kind, each in its own channel, with alice to move or to act."""
    w = live.world
    channels = live.game_channels
    live.bot.service._seed = lambda: 5  # seeded seats and Blind Hex cut
    await start_hex_game(live)
    for game in ("inphexion", "blindhex"):
        channel = channels[game]
        r = await live.fake.slash(w.alice, channel, "challenge", opponent=w.bob, game=game, seat="first", thread=False)
        assert not r.ephemeral, r.content
        await live.fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
        await live.fake.wait_for(lambda m, ch=channel: m.channel is ch and any(n.endswith(".png") for n in m.files))
        channels[game] = channel
    for channel in channels.values():
        await board_registered(live, channel)
    return channels


async def board_registered(live: LiveBot, channel) -> None:
    """Wait until the game's new board is registered as its live one (just after it appears), so the
    database snapshot every example is compared with is taken after that."""
    g = await live.bot.service.game_in(channel.id)
    while g is not None and await live.bot.service.store.get_meta(f"board:{g.row.id}") is None:
        await asyncio.sleep(0.01)


async def mover_and_position(live: LiveBot, channel) -> tuple[FakeMember, engine.Position]:
    g = await live.bot.service.game_in(channel.id)
    assert g is not None
    users = {live.world.alice.id: live.world.alice, live.world.bob.id: live.world.bob}
    return users[g.users_to_move()[0]], g.position


def would_apply(position: engine.Position, colour: str, text: str) -> bool:
    """Whether the engine would accept ``text`` (such an example is a real move, not bad input)."""
    trial = position.copy()
    try:
        trial.play(text if position.game != "blindhex" or position.phase != "choose" else f"{colour}:{text}",
                   player=colour)
    except engine.ActionError:
        return False
    except Exception:
        return False  # the bot must cope with it as well; it is bad input all the same
    return True


# --------------------------------------------------------------------------- tests


def test_move_text_is_refused_privately_and_changes_nothing(database_url, caplog):
    """Hostile ``/move`` text in a game of each kind: a private refusal, no change, no ping."""
    with LiveBot(database_url) as live:
        channels = live.call(start_games(live))
        prober = Prober(live, caplog)

        @settings(EXAMPLES, max_examples=100)
        @given(game=st.sampled_from(sorted(channels)), text=text_values(live))
        def check(game: str, text: str) -> None:
            channel = channels[game]
            user, position = live.call(mover_and_position(live, channel))
            colour = position.to_move[0]
            assume(not would_apply(position, colour, text))
            live.call(prober.probe(user, channel, "move", {"action": text}, relaxed=False, human=True))

        check()


def test_huge_move_text_from_a_modified_client_is_refused(database_url, caplog):
    """Past the 200-character limit (a client that ignores it): still a quick private refusal."""
    with LiveBot(database_url) as live:
        live.call(start_hex_game(live))
        prober = Prober(live, caplog)

        @settings(EXAMPLES, max_examples=15)
        @given(text=text_values(live, huge=True))
        def check(text: str) -> None:
            live.call(prober.probe(live.world.alice, live.world.channel, "move", {"action": text},
                                   relaxed=True, human=True))

        check()


def test_autocomplete_survives_any_typed_text(database_url, caplog):
    """Whatever is typed into ``/move``, autocomplete answers with legal moves only (or nothing)."""
    with LiveBot(database_url) as live:
        live.call(start_hex_game(live))
        legal = set(live.call(live.bot.service.legal_for(live.world.channel.id, live.world.alice.id)))

        async def complete(text: str) -> list[str]:
            before = db_snapshot(live.db)
            choices = await live.fake.autocomplete(live.world.alice, live.world.channel, "move", focused="action",
                                                   action=text)
            assert db_snapshot(live.db) == before
            return choices.values

        @EXAMPLES
        @given(text=st.one_of(text_values(live), text_values(live, huge=True)))
        def check(text: str) -> None:
            values = live.call(complete(text))
            assert set(values) <= legal and len(values) <= 25

        check()
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, errors


#: Every string option the bot offers besides /move's (checked against the synced commands below).
STRING_OPTIONS = [("challenge", "game"), ("challenge", "seat"), ("challenge", "clock"), ("challenge", "level"),
                  ("leaderboard", "game"), ("rules", "game"), ("settings", "clock"), ("settings", "language"),
                  ("language", "language"), ("tournament create", "game"), ("tournament create", "format"),
                  ("tournament create", "clock"), ("puzzle", "answer")]
#: Every integer option with a range, and values outside it that fit in Discord's ±2**53.
NUMBER_OPTIONS = [
    ("challenge", "size", [-(2**53), -1, 0, 1, 2, 20, 21, 100, 10**6, 2**31, 2**53]),
    ("settings", "challenge_minutes", [-(2**53), -5, -1, 0, 1441, 10**6, 2**53]),
    ("record", "game", [-(2**53), -1, 0, 2**31, 2**53 - 1]),
    ("replay", "game", [-(2**53), -1, 0, 2**31, 2**53 - 1]),
    ("review", "game", [-(2**53), -1, 0, 2**31, 2**53 - 1]),
    ("tournament create", "size", [-(2**53), -1, 0, 2, 20, 10**6, 2**53]),
    ("tournament create", "rounds", [-(2**53), -1, 0, 31, 10**6, 2**53]),
    ("tournament create", "max_players", [-(2**53), 0, 1, 257, 10**6, 2**53]),
    ("tournament standings", "tournament", [-(2**53), -1, 0, 2**53 - 1]),
    # the limits against abuse (bot/data/limits.toml): just outside each one's range, and far outside
    *[("settings", name, [-(2**53), limit.low - 1, limit.high + 1, 2**53]) for name, limit in LIMITS.items()],
]


def test_the_fuzzed_options_are_all_the_options(database_url):
    """A new string or integer option must join the lists above, so that it is fuzzed too."""
    with LiveBot(database_url) as live:
        strings = {(name, o["name"]) for name, o in string_options(live.fake)}
        numbers = {(name, o["name"]) for name, options in command_options(live.fake).items() for o in options
                   if o["type"] in (4, 10)}
    assert strings == set(STRING_OPTIONS) | {("move", "action")}, \
        f"add new string options to STRING_OPTIONS: {sorted(strings - set(STRING_OPTIONS) - {('move', 'action')})}"
    assert numbers == {(name, option) for name, option, _ in NUMBER_OPTIONS}, \
        f"add new integer options (and values outside their range) to NUMBER_OPTIONS: {sorted(numbers)}"


@pytest.mark.parametrize("name, option", STRING_OPTIONS)
def test_every_string_option_is_fuzzed_without_harm(database_url, caplog, name, option):
    """Any text in a choice option (a modified client ignoring the choices): answered, unchanged, no mass ping."""
    with LiveBot(database_url) as live:
        live.call(start_hex_game(live))
        prober = Prober(live, caplog)
        definition = next(o for o in command_options(live.fake)[name] if o["name"] == option)
        choices = {c["value"] for c in definition.get("choices") or []}
        base = defaults(live, name, option)
        user = invoker(live, name)
        # /challenge in a channel without a game, or "a game is already in progress" hides the option.
        channel = live.lobby if name == "challenge" else live.world.channel
        opponents = [live.world.bob, live.fake.bot_user] if name == "challenge" else [None]

        @settings(EXAMPLES, max_examples=15)
        @given(text=text_values(live), opponent=st.sampled_from(opponents))
        def check(text: str, opponent) -> None:
            assume(text not in choices)
            options = {**base, option: text}
            if opponent is not None:
                options["opponent"] = opponent
            live.call(prober.probe(user, channel, name, options, relaxed=True, human=False))

        check()


@pytest.mark.parametrize("name, option, values", NUMBER_OPTIONS)
def test_numbers_out_of_range_change_nothing(database_url, caplog, name, option, values):
    """Integers outside the synced min/max (a modified client): answered, and no state change."""
    with LiveBot(database_url) as live:
        live.call(start_hex_game(live))
        prober = Prober(live, caplog)
        user = invoker(live, name)
        channel = live.lobby if name == "challenge" else live.world.channel
        base = defaults(live, name, option)

        @settings(EXAMPLES, max_examples=25)
        @given(value=st.one_of(st.sampled_from(values), st.integers(-(2**53), 2**53)))
        def check(value: int) -> None:
            definition = next(o for o in command_options(live.fake)[name] if o["name"] == option)
            lo, hi = definition.get("min_value"), definition.get("max_value")
            assume((lo is not None and value < lo) or (hi is not None and value > hi))
            options = {**base, option: value}
            if name == "challenge":
                options.update(opponent=live.world.bob, game="hex")
            live.call(prober.probe(user, channel, name, options, relaxed=True, human=False))

        check()


def test_hostile_nicknames_never_ping_or_break_a_game(database_url, caplog):
    """Display names are user input too: a whole challenge → board → resign round with each one."""
    with LiveBot(database_url) as live:
        w = live.world
        fake = live.fake

        async def round_with(nick: str) -> None:
            w.alice.nick = nick
            first_request, first_message = len(fake.requests), max(fake.message_index, default=0)
            r = await fake.slash(w.alice, w.channel, "challenge", opponent=w.bob, game="hex", size=3, seat="first",
                                 thread=False)
            assert not r.ephemeral, r.content
            await fake.click(w.bob, r, next(c for c in r.custom_ids if c.endswith(":accept")))
            await fake.wait_for(lambda m: m.channel is w.channel and any(n.endswith(".png") for n in m.files)
                                and m.id > first_message)
            board = await fake.slash(w.bob, w.channel, "board")
            moved = await fake.slash(w.alice, w.channel, "move", action="b2")
            stats = await fake.slash(w.bob, w.channel, "stats", player=w.alice)
            resigned = await fake.slash(w.alice, w.channel, "resign")
            for reply in (board, moved, stats, resigned):
                assert not reply.ephemeral and SORRY not in (reply.content or ""), reply
            assert any(n.endswith(".png") for n in board.attachments)
            messages = [m for mid, m in sorted(fake.message_index.items()) if mid > first_message]
            for m in messages:
                assert not TRACEBACK.search(message_text(m))
            assert_no_mass_mentions(fake, fake.requests[first_request:], messages)

        @settings(EXAMPLES, max_examples=20)
        @given(nick=st.one_of(st.sampled_from(NASTY).map(live.fill),
                              st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=32))
               .map(lambda s: s[:32]).filter(lambda s: s.strip()))
        def check(nick: str) -> None:
            live.call(round_with(nick))

        check()
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, errors
