"""End-to-end tests of the fake Discord with a real ``discord.ext.commands.Bot``.

The bot below is small but uses what a real one does: guild command sync,
typed options, ephemeral and deferred replies, follow-ups with files,
autocomplete, persistent and plain views, modals, threads, DMs and channel
messages. Every test also checks the bot made no request the fake doesn't know.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import os
import signal
import struct
import sys
import zlib
from pathlib import Path
from typing import Any, AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from . import FakeDiscord, patch_discord
from .errors import CommandNotSynced, CommandUnavailable, InteractionFailed, InteractionTimeout
from .fixtures import World, discord_runner, fake_discord, run_client, standard_world  # noqa: F401 (fixtures)
from .gateway import Gateway
from .validation import check_choices, check_command, check_message

ROOT = Path(__file__).resolve().parents[2]


def make_png(width: int, height: int) -> bytes:
    """A valid RGB PNG of the given size (no Pillow needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = make_png(3, 2)


# --------------------------------------------------------------------------- the bot under test


class AcceptView(discord.ui.View):
    """Persistent: re-registered with ``add_view`` in every bot's setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Accept", style=discord.ButtonStyle.success, custom_id="demo:accept")
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Edit the challenge in place and drop the button."""
        await interaction.response.edit_message(content=f"accepted by {interaction.user.name}", view=None)


class LaterView(discord.ui.View):
    """Deferred update (type 6), then an edit of the original message."""

    @discord.ui.button(label="Later", custom_id="demo:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Acknowledge silently, edit afterwards."""
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"done later for {interaction.user.name}", view=None)


class PickView(discord.ui.View):
    """A plain (message-bound) view with a select menu."""

    @discord.ui.select(custom_id="demo:pick", options=[discord.SelectOption(label="A", value="a"),
                                                      discord.SelectOption(label="B", value="b")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        """Show the choice."""
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class AnswerModal(discord.ui.Modal, title="Your answer"):
    """One text input."""

    answer = discord.ui.TextInput(label="Answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Echo the answer privately."""
        await interaction.response.send_message(f"got {self.answer.value}", ephemeral=True)


class DemoBot(commands.Bot):
    """The bot under test; its guild commands are synced in setup_hook."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), help_command=None)
        self.guild_id = guild_id
        self.errors: list[Exception] = []
        self.codes: list[int] = []
        self.fetched: bytes | None = None
        self.proceed = asyncio.Event()
        self.seen: list[str] = []
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        for command in build_commands():
            self.tree.add_command(command)

    async def setup_hook(self) -> None:
        """Re-arm the persistent view; sync to the test guild."""
        self.add_view(AcceptView())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        """Remember what the gateway delivered (content is blank without the intent)."""
        self.seen.append(message.content)

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Keep errors for asserts instead of logging tracebacks."""
        self.errors.append(getattr(error, "original", error))


def bot_of(interaction: discord.Interaction) -> DemoBot:
    """The DemoBot handling an interaction."""
    return interaction.client  # type: ignore[return-value]


def build_commands() -> list[app_commands.Command]:  # noqa: C901 - a list of small commands
    """Fresh command objects for each bot instance."""

    @app_commands.command(name="echo", description="Echo typed options")
    async def echo(interaction: discord.Interaction, text: str, count: int, loud: bool, who: discord.Member) -> None:
        shown = text.upper() if loud else text
        await interaction.response.send_message(
            f"{shown} x{count} for {who.name} ({type(who).__name__} {who.id})",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="secret", description="An ephemeral answer")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @app_commands.command(name="record", description="A file and an embed in the first response")
    async def record(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "the record", embed=discord.Embed(title="Game #1", description="x wins"),
            file=discord.File(io.BytesIO(b"c4 d4\nresign\n"), "game-1.txt"),
        )

    @app_commands.command(name="picture", description="Deferred, then a follow-up with a PNG")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        msg = await interaction.followup.send("here it is", file=discord.File(io.BytesIO(PNG), "board.png"), wait=True)
        bot_of(interaction).fetched = await msg.attachments[0].read()  # through the fake CDN

    @app_commands.command(name="move", description="Play a move")
    @app_commands.describe(action="your action, e.g. c4")
    async def move(interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"played {action}")

    @move.autocomplete("action")
    async def move_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cells = [f"{col}{row}" for col in "abcd" for row in range(1, 9)]
        return [app_commands.Choice(name=c, value=c) for c in cells if c.startswith(current)][:25]

    @app_commands.command(name="challenge", description="A message with a persistent button")
    async def challenge(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("A challenge!", view=AcceptView())

    @app_commands.command(name="pick", description="A message with a select menu")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=PickView())

    @app_commands.command(name="form", description="A modal")
    async def form(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(AnswerModal())

    @app_commands.command(name="thread", description="Open a thread for a game")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        created = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                              auto_archive_duration=10080)
        await created.send("first move, please")
        await interaction.followup.send(f"thread {created.id}", ephemeral=True)

    @app_commands.command(name="archive", description="Archive a thread")
    async def archive(interaction: discord.Interaction, thread_id: str) -> None:
        thread = await interaction.client.fetch_channel(int(thread_id))
        assert isinstance(thread, discord.Thread)
        await thread.edit(archived=True)
        await interaction.response.send_message("archived", ephemeral=True)

    @app_commands.command(name="say", description="Post in a channel or thread by id")
    async def say(interaction: discord.Interaction, channel_id: str, text: str) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = await interaction.client.fetch_channel(int(channel_id))
        await channel.send(text)  # type: ignore[union-attr]
        await interaction.followup.send("said", ephemeral=True)

    @app_commands.command(name="upload", description="Post a file in the channel")
    async def upload(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.channel.send("the board", file=discord.File(io.BytesIO(PNG), "board.png"))  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            await interaction.followup.send(f"upload failed: {exc.status} {exc.code}", ephemeral=True)
        else:
            await interaction.followup.send("uploaded", ephemeral=True)

    @app_commands.command(name="later", description="A button answered by defer + edit")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("press later", view=LaterView())

    @app_commands.command(name="tidy", description="History, edits, deletes, fetch_user")
    async def tidy(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        draft = await channel.send("draft")
        await draft.edit(content="final")
        extra = await channel.send("to delete")
        await extra.delete()
        history = [m.content async for m in channel.history(limit=10)]
        user = await interaction.client.fetch_user(interaction.user.id)
        await interaction.followup.send(f"{history} {user.name}", ephemeral=True)

    @app_commands.command(name="slow", description="Answers only when the test lets it")
    async def slow(interaction: discord.Interaction) -> None:
        await bot_of(interaction).proceed.wait()
        await interaction.response.send_message("finally")

    @app_commands.command(name="hang", description="Defers, follows up only when the test lets it")
    async def hang(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await bot_of(interaction).proceed.wait()
        await interaction.followup.send("at last")

    @app_commands.command(name="twice", description="Answers the same interaction twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        route = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                      interaction_id=interaction.id, interaction_token=interaction.token)
        try:
            await interaction.client.http.request(route, json={"type": 4, "data": {"content": "second"}})
        except discord.HTTPException as exc:
            bot_of(interaction).codes.append(exc.code)

    @app_commands.command(name="long", description="Too long a message, then a fallback")
    async def long(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            bot_of(interaction).codes.append(exc.code)
            await interaction.response.send_message("that was too long", ephemeral=True)

    @app_commands.command(name="dm", description="DM someone")
    async def dm(interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await who.send("psst")
        except discord.Forbidden as exc:
            await interaction.followup.send(f"cannot DM {who.name}: {exc.code}", ephemeral=True)
        else:
            await interaction.followup.send("sent", ephemeral=True)

    @app_commands.command(name="react", description="Uses a route the fake does not implement")
    async def react(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("react to me")
        message = await interaction.original_response()
        try:
            await message.add_reaction("\N{THUMBS UP SIGN}")
        except discord.NotFound as exc:
            bot_of(interaction).codes.append(exc.status)

    @app_commands.command(name="timer", description="Answers, then posts later by itself")
    async def timer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("timer set", ephemeral=True)
        bot = bot_of(interaction)
        channel = interaction.channel

        async def ring() -> None:
            await bot.proceed.wait()
            await channel.send("time is up")  # type: ignore[union-attr]

        asyncio.create_task(ring())

    @app_commands.command(name="reset", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset done", ephemeral=True)

    @app_commands.context_menu(name="High five")
    async def high_five(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"high five, {member.name}!")

    return [echo, secret, record, picture, move, challenge, pick, form, thread, archive, say, upload, later, tidy, slow, hang, twice,
            long, dm, react, timer, reset, high_five]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
async def fake(fake_discord: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    """The standard fake; fails the test if the bot used a route the fake lacks."""
    yield fake_discord
    unknown = [r for r in fake_discord.unknown_requests if "/reactions/" not in r.path]
    assert not unknown, f"bot used routes the fake does not know: {unknown}"


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[DemoBot]:
    """A connected DemoBot."""
    async with run_client(DemoBot(fake.world.guild.id), fake) as running:
        yield running


# --------------------------------------------------------------------------- connection & sync


async def test_bad_token_is_a_login_failure(fake: FakeDiscord) -> None:
    """GET /users/@me with a wrong token → 401 → discord.LoginFailure; nothing else is tried."""
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        async with run_client(client, fake, token="not-the-token"):
            pass
    assert [(r.method, r.path, r.status) for r in fake.requests] == [("GET", "/users/@me", 401)]
    assert fake.gateway.identifies == 0


async def test_ready_and_guild_visible(fake: FakeDiscord, bot: DemoBot) -> None:
    """READY + GUILD_CREATE: the bot sees the guild, its channel, members with roles and itself."""
    w: World = fake.world
    assert bot.user is not None and bot.user.id == fake.bot_user.id and bot.application_id == fake.application_id
    guild = bot.get_guild(w.guild.id)
    assert guild is not None and guild.name == "Test Server"
    assert guild.get_channel(w.channel.id).name == "games"  # type: ignore[union-attr]
    assert guild.me is not None and guild.me.id == fake.bot_user.id
    # Without the members intent discord.py caches no other members; REST fetches work.
    assert guild.member_count == 5 and guild.get_member(w.alice.id) is None
    admin, alice = await guild.fetch_member(w.admin.id), await guild.fetch_member(w.alice.id)
    assert admin.guild_permissions.manage_guild and not alice.guild_permissions.manage_guild
    assert guild.me.guild_permissions.create_public_threads
    assert fake.gateway.identifies == 1 and fake.gateway.connected


async def test_deleting_a_channel_sends_channel_delete_and_takes_its_threads(fake: FakeDiscord, bot: DemoBot) -> None:
    """A manager deletes a channel: CHANNEL_DELETE (the channel object); its threads go with it
    (discord.py drops them too); the REST API knows neither any more (404 10003)."""
    w: World = fake.world
    doomed = fake.add_text_channel(w.guild, "doomed")
    thread = fake.add_thread(doomed, "a game")
    await fake.dispatch("CHANNEL_CREATE", doomed.payload())
    await fake.dispatch("THREAD_CREATE", thread.payload())
    await fake.settle()
    assert bot.get_channel(doomed.id) is not None and bot.get_channel(thread.id) is not None
    await fake.delete_channel(doomed)
    [event] = fake.gateway.events("CHANNEL_DELETE")
    assert event["id"] == str(doomed.id) and event["type"] == 0 and event["guild_id"] == str(w.guild.id)
    assert not fake.gateway.events("THREAD_DELETE")
    assert bot.get_channel(doomed.id) is None and bot.get_channel(thread.id) is None
    for gone in (doomed, thread):
        with pytest.raises(discord.NotFound) as refused:
            await bot.fetch_channel(gone.id)
        assert refused.value.code == 10003
    assert doomed not in w.guild.channels and thread not in w.guild.channels


async def test_deleting_a_thread_sends_thread_delete_with_its_parent(fake: FakeDiscord, bot: DemoBot) -> None:
    """THREAD_DELETE carries id, guild_id, parent_id and type, as Discord's documentation says."""
    w: World = fake.world
    thread = fake.add_thread(w.channel, "a game")
    await fake.dispatch("THREAD_CREATE", thread.payload())
    await fake.settle()
    seen: list[discord.RawThreadDeleteEvent] = []

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        seen.append(payload)

    bot.add_listener(on_raw_thread_delete)
    await fake.delete_channel(thread)
    assert fake.gateway.events("THREAD_DELETE") == [
        {"id": str(thread.id), "guild_id": str(w.guild.id), "parent_id": str(w.channel.id), "type": 11}]
    assert [(p.thread_id, p.parent_id) for p in seen] == [(thread.id, w.channel.id)]
    assert bot.get_channel(thread.id) is None and bot.get_channel(w.channel.id) is not None


async def test_removing_the_bot_sends_guild_delete_without_unavailable(fake: FakeDiscord) -> None:
    """A kick is GUILD_DELETE without ``unavailable`` (discord.py: guild_remove); the next READY lacks
    the server, and a channel there is Missing Access (403 50001)."""
    w: World = fake.world
    removed: list[int] = []

    async def on_guild_remove(guild: discord.Guild) -> None:
        removed.append(guild.id)

    async with run_client(DemoBot(w.guild.id), fake) as bot:
        bot.add_listener(on_guild_remove)
        await fake.remove_bot(w.guild)
        assert fake.gateway.events("GUILD_DELETE") == [{"id": str(w.guild.id)}]
        assert removed == [w.guild.id] and bot.get_guild(w.guild.id) is None
        with pytest.raises(discord.Forbidden) as refused:
            await bot.fetch_channel(w.channel.id)
        assert refused.value.code == 50001
    other = fake.add_guild("Other Server")  # the bot's commands sync there: it is no member of the first
    async with run_client(DemoBot(other.id), fake) as bot:
        assert [g.id for g in bot.guilds] == [other.id]


async def test_a_channel_deleted_while_the_bot_is_away_is_missing_from_its_next_guild_create(fake: FakeDiscord) -> None:
    w: World = fake.world
    doomed = fake.add_text_channel(w.guild, "doomed")
    async with run_client(DemoBot(w.guild.id), fake) as bot:
        assert bot.get_channel(doomed.id) is not None
    await fake.delete_channel(doomed)
    async with run_client(DemoBot(w.guild.id), fake) as bot:
        guild = bot.get_guild(w.guild.id)
        assert guild is not None and guild.get_channel(doomed.id) is None and guild.get_channel(w.channel.id)


async def test_command_sync_recorded_and_ids_stable(fake: FakeDiscord) -> None:
    """tree.sync → PUT guild commands, echoed with ids; a second bot's sync keeps them."""
    w: World = fake.world
    async with run_client(DemoBot(w.guild.id), fake):
        pass
    first = {name: cmd.id for name, cmd in fake.synced_commands(w.guild).items()}
    assert fake.sync_count(w.guild) == 1 and fake.sync_count(None) == 0
    assert {"echo", "move", "challenge"} <= set(first)
    echo = fake.synced_commands(w.guild)["echo"]
    assert [(o["name"], o["type"]) for o in echo.options] == [("text", 3), ("count", 4), ("loud", 5), ("who", 6)]
    async with run_client(DemoBot(w.guild.id), fake):
        pass
    assert fake.sync_count(w.guild) == 2
    assert {name: cmd.id for name, cmd in fake.synced_commands(w.guild).items()} == first


async def test_unsynced_or_hidden_commands_are_refused(fake: FakeDiscord, bot: DemoBot) -> None:
    """The test API refuses what Discord's client would not offer."""
    w: World = fake.world
    with pytest.raises(CommandNotSynced, match="/nope was never synced"):
        await fake.slash(w.alice, w.channel, "nope")
    with pytest.raises(CommandUnavailable, match="hides /reset from alice"):
        await fake.slash(w.alice, w.channel, "reset")
    assert (await fake.slash(w.admin, w.channel, "reset")).content == "reset done"
    with pytest.raises(CommandUnavailable, match="required option 'who' missing"):
        await fake.slash(w.alice, w.channel, "echo", text="a", count=1, loud=True)


# --------------------------------------------------------------------------- replies


async def test_slash_with_typed_options(fake: FakeDiscord, bot: DemoBot) -> None:
    """String/int/bool/user options arrive typed; the user option resolves to a Member."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "echo", text="hi", count=3, loud=True, who=w.bob)
    assert r.type == 4 and not r.ephemeral
    assert r.content == f"HI x3 for bob (Member {w.bob.id})"
    assert fake.messages(w.channel)[-1] is r.message
    assert r.message.interaction is r.interaction and r.message.mentions == []
    assert r.latency is not None and 0 <= r.latency < fake.interaction_deadline
    options = r.interaction.data["options"]
    assert [o["value"] for o in options] == ["hi", 3, True, str(w.bob.id)]
    assert str(w.bob.id) in r.interaction.data["resolved"]["members"]


async def test_ephemeral_reply(fake: FakeDiscord, bot: DemoBot) -> None:
    """flags 64: visible to the user only, not in the channel's public history."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "secret")
    assert r.ephemeral and r.content == "only you can see this"
    assert fake.messages(w.channel) == []
    assert fake.ephemerals(w.alice) == [r.message] and fake.ephemerals(w.bob) == []


async def test_response_with_file_and_embed(fake: FakeDiscord, bot: DemoBot) -> None:
    """A type-4 callback sent as multipart (payload_json + files[0]) with an embed."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "record")
    assert r.content == "the record" and r.embed is not None and r.embed["title"] == "Game #1"
    assert r.attachments == {"game-1.txt": b"c4 d4\nresign\n"}
    assert r.message.attachments[0].content_type == "text/plain"
    callback = fake.requests_to(r"/callback$")[-1]
    assert callback.files[0].field == "files[0]" and callback.json["data"]["attachments"][0]["filename"] == "game-1.txt"


async def test_deferred_reply_then_followup_with_png(fake: FakeDiscord, bot: DemoBot) -> None:
    """Type 5 then a follow-up with a file: it fills the "thinking" message; bytes round-trip both ways."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "picture")
    assert r.type == 5 and r.content == "here it is"
    assert r.attachments == {"board.png": PNG}
    assert r.message is r.interaction.original and not r.message.loading
    attachment = r.message.attachments[0]
    assert attachment.url.startswith(fake.url + "/attachments/") and attachment.payload()["width"] == 3
    assert bot.fetched == PNG  # the bot downloaded it from the fake CDN
    callback = fake.requests_to(r"/callback$")[-1]
    assert callback.json == {"type": 5} and callback.query == {"with_response": "1"}
    upload = fake.requests_to(r"^POST /webhooks/")[-1]
    assert upload.files[0].filename == "board.png" and upload.files[0].data == PNG


async def test_autocomplete_choices(fake: FakeDiscord, bot: DemoBot) -> None:
    """Type 4 → the bot's type 8 choices for the focused option."""
    w: World = fake.world
    choices = await fake.autocomplete(w.alice, w.channel, "move", focused="action", action="c")
    assert choices.names == [f"c{n}" for n in range(1, 9)]
    assert choices.interaction.callback_type == 8
    assert (await fake.slash(w.alice, w.channel, "move", action="c4")).content == "played c4"


async def test_persistent_button_click_edits_message(fake: FakeDiscord, bot: DemoBot) -> None:
    """A click (type 3) on the stored message → type 7 update: content changed, button gone."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "challenge")
    assert r.custom_ids == ["demo:accept"] and r.labels == ["Accept"]
    clicked = await fake.click(w.bob, r, "demo:accept")
    assert clicked.type == 7 and clicked.message is r.message
    assert r.message.content == "accepted by bob" and r.message.components == []
    assert r.message.versions[0]["content"] == "A challenge!"
    assert r.content == "A challenge!"  # the result is a snapshot; the message is live


async def test_click_after_restart(fake: FakeDiscord) -> None:
    """A new bot instance (add_view in setup_hook) handles clicks on the old instance's message."""
    w: World = fake.world
    async with run_client(DemoBot(w.guild.id), fake):
        r = await fake.slash(w.alice, w.channel, "challenge")
    assert not fake.gateway.connected
    async with run_client(DemoBot(w.guild.id), fake):
        clicked = await fake.click(w.bob, r.message, "demo:accept")
    assert clicked.content == "accepted by bob"
    assert fake.gateway.identifies == 2


async def test_select_menu_and_modal(fake: FakeDiscord, bot: DemoBot) -> None:
    """Select values reach the view; a modal (type 9) is submitted (type 5) and answered."""
    w: World = fake.world
    for _ in range(3):  # also checks a plain view is stored before the click arrives
        r = await fake.slash(w.alice, w.channel, "pick")
        picked = await fake.select(w.alice, r, "demo:pick", ["b"])
        assert picked.content == "picked b"
    shown = await fake.slash(w.alice, w.channel, "form")
    assert shown.type == 9 and shown.modal is not None and shown.modal["title"] == "Your answer"
    answered = await fake.submit_modal(w.alice, shown, {"answer": "42"})
    assert answered.content == "got 42" and answered.ephemeral


# --------------------------------------------------------------------------- threads, DMs, channel messages


async def test_thread_create_archive_unarchive(fake: FakeDiscord, bot: DemoBot) -> None:
    """create_thread → THREAD_CREATE (bot caches it); archive → THREAD_UPDATE; posting unarchives."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "thread", name="alice vs bob")
    [thread] = fake.threads(w.channel)
    assert r.content == f"thread {thread.id}" and r.ephemeral
    assert thread.name == "alice vs bob" and thread.type == 11 and thread.auto_archive_duration == 10080
    assert [m.content for m in fake.messages(thread)] == ["first move, please"]
    assert isinstance(bot.get_channel(thread.id), discord.Thread)
    assert fake.gateway.events("THREAD_CREATE")[0]["newly_created"] is True

    in_thread = await fake.slash(w.bob, thread, "secret")  # commands work inside the thread too
    assert in_thread.message.channel is thread and in_thread.interaction.payload["channel"]["type"] == 11

    await fake.slash(w.alice, w.channel, "archive", thread_id=str(thread.id))
    assert thread.archived and fake.gateway.events("THREAD_UPDATE")[-1]["thread_metadata"]["archived"] is True
    await fake.slash(w.alice, w.channel, "say", channel_id=str(thread.id), text="back again")
    assert not thread.archived and fake.messages(thread)[-1].content == "back again"
    assert fake.gateway.events("THREAD_UPDATE")[-1]["thread_metadata"]["archived"] is False


async def test_closed_dms_are_403_50007(fake: FakeDiscord, bot: DemoBot) -> None:
    """Opening the DM works; posting to a user with closed DMs is Forbidden 50007."""
    w: World = fake.world
    assert (await fake.slash(w.alice, w.channel, "dm", who=w.bob)).content == "sent"
    assert [m.content for m in fake.dms(w.bob)] == ["psst"]
    w.carol.user.dms_open = False
    r = await fake.slash(w.alice, w.channel, "dm", who=w.carol)
    assert r.content == "cannot DM carol: 50007" and fake.dms(w.carol) == []


async def test_bot_initiated_message_with_wait_for(fake: FakeDiscord, bot: DemoBot) -> None:
    """wait_for catches messages the bot posts on its own (timers), without fixed sleeps."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "timer")
    assert r.ephemeral
    bot.proceed.set()
    message = await fake.wait_for(lambda m: m.content == "time is up", timeout=5)
    assert message.channel is w.channel and message.author is fake.bot_user


async def test_deferred_update_then_edit_original(fake: FakeDiscord, bot: DemoBot) -> None:
    """A click answered with type 6 settles when the bot edits @original (the clicked message)."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "later")
    clicked = await fake.click(w.carol, r, "demo:later")
    assert clicked.type == 6 and clicked.message is r.message
    assert clicked.content == "done later for carol" and clicked.components == []
    assert fake.requests_to(r"^PATCH /webhooks/\d+/[^/]+/messages/@original$")[-1].status == 200


async def test_history_edit_delete_fetch_user(fake: FakeDiscord, bot: DemoBot) -> None:
    """Channel REST routes: POST, PATCH and DELETE messages, history (newest first), GET user."""
    w: World = fake.world
    fake.add_message(w.channel, w.bob, "hello from bob")
    r = await fake.slash(w.alice, w.channel, "tidy")
    assert r.content == "['final', 'hello from bob'] alice"
    final = fake.messages(w.channel)[-1]
    assert final.content == "final" and final.edited_at is not None and final.versions[0]["content"] == "draft"
    deleted = fake.messages(w.channel, include_deleted=True)[-1]
    assert deleted.deleted and deleted.content == "to delete"


async def test_user_context_menu(fake: FakeDiscord, bot: DemoBot) -> None:
    """A user command (type 2, data.type 2) with target_id and resolved member."""
    w: World = fake.world
    r = await fake.context_menu(w.alice, w.channel, "High five", w.bob)
    assert r.content == "high five, bob!"


async def test_user_messages_respect_intents(fake: FakeDiscord, bot: DemoBot) -> None:
    """MESSAGE_CREATE: content blank without the message-content intent, unless the bot is mentioned."""
    w: World = fake.world
    await fake.user_message(w.alice, w.channel, "no intent, no content")
    await fake.user_message(w.alice, w.channel, f"hey {fake.bot_user.mention}")
    assert bot.seen == ["", f"hey {fake.bot_user.mention}"]
    assert [m.content for m in fake.messages(w.channel)] == ["no intent, no content", f"hey {fake.bot_user.mention}"]


async def test_member_chunks_and_discord_runner(fake: FakeDiscord, discord_runner: Any) -> None:
    """With the members intent, members are cached and REQUEST_GUILD_MEMBERS (op 8) is answered."""
    w: World = fake.world
    intents = discord.Intents.default()
    intents.members = True
    async with discord_runner(discord.Client(intents=intents)) as client:
        guild = client.get_guild(w.guild.id)
        assert guild is not None and guild.get_member(w.alice.id) is not None
        found = await guild.query_members("ca")
        assert [m.name for m in found] == ["carol"]


# --------------------------------------------------------------------------- validation & faults


async def test_too_long_content_is_400_50035(fake: FakeDiscord, bot: DemoBot) -> None:
    """Discord's limits are enforced: the refused callback is recorded, the fallback answers."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "long")
    assert r.content == "that was too long" and bot.codes == [50035]
    refused = fake.requests_to(r"/callback$")[0]
    assert refused.status == 400 and "2000 or fewer" in str(refused.response["errors"])
    assert r.interaction.errors == [(400, 50035, "Invalid Form Body")]
    [violation] = fake.take_violations()  # on purpose here; elsewhere it would fail the test
    assert "data.content: Must be 2000 or fewer in length." in str(violation)


async def test_500_then_429_on_upload_are_retried(fake: FakeDiscord, bot: DemoBot) -> None:
    """discord.py retries a 5xx and a 429 (with Discord's headers); the upload lands once."""
    w: World = fake.world
    route = r"^POST /channels/\d+/messages$"
    server_error = fake.fail(route, status=500, times=1)
    rate_limited = fake.fail(route, status=429, times=1, retry_after=0.01)
    r = await fake.slash(w.alice, w.channel, "upload")
    assert r.content == "uploaded"
    assert [q.status for q in fake.requests_to(route)] == [500, 429, 200]
    assert server_error.hits == rate_limited.hits == 1
    assert [m.files for m in fake.messages(w.channel)] == [{"board.png": PNG}]
    assert all(q.files[0].data == PNG for q in fake.requests_to(route))


async def test_a_delayed_answer_takes_effect_at_once_and_reaches_the_bot_late(fake: FakeDiscord, bot: DemoBot) -> None:
    """``fake.delay``: the request is handled at once (the message exists), its answer arrives later."""
    w: World = fake.world
    route = r"^POST /channels/\d+/messages$"
    slow = fake.delay(route, 0.5)
    inter = await fake.start_slash(w.alice, w.channel, "upload")
    posted = await fake.wait_for(lambda m: m.channel is w.channel and bool(m.files))
    assert posted.files == {"board.png": PNG} and not inter.done  # the bot is still waiting for the answer
    r = await inter.wait(10)
    assert r.content == "uploaded" and slow.hits == 1
    assert [q.status for q in fake.requests_to(route)] == [200]


async def test_an_applied_fault_takes_effect_and_discord_py_s_own_nonce_keeps_the_retry_from_repeating_it(
        fake: FakeDiscord, bot: DemoBot) -> None:
    """``applied=True``: the 500 comes after the message was made; discord.py's retry carries the same random
    nonce with ``enforce_nonce``, so Discord answers the message already made."""
    w: World = fake.world
    route = r"^POST /channels/\d+/messages$"
    fake.fail(route, status=500, times=1, applied=True)
    channel = bot.get_partial_messageable(w.channel.id)
    sent = await channel.send("once?")
    first, retry = fake.requests_to(route)
    assert (first.status, retry.status) == (500, 200) and first.json["nonce"] == retry.json["nonce"]
    assert [m.id for m in fake.messages(w.channel)] == [sent.id]


async def test_a_nonce_without_enforce_nonce_does_not_stop_a_second_message(fake: FakeDiscord, bot: DemoBot) -> None:
    """Only ``enforce_nonce: true`` makes Discord check the nonce."""
    w: World = fake.world
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=w.channel.id)
    for _ in range(2):
        await bot.http.request(route, json={"content": "twice", "nonce": "t9.0"})
    assert [m.content for m in fake.messages(w.channel)] == ["twice", "twice"]


async def test_a_retried_send_with_an_enforced_nonce_makes_one_message(fake: FakeDiscord, bot: DemoBot) -> None:
    """``nonce`` + ``enforce_nonce`` (discord.py sends both): the retry answers the message already made."""
    w: World = fake.world
    route = r"^POST /channels/\d+/messages$"
    fake.fail(route, status=500, times=1, applied=True)
    channel = bot.get_partial_messageable(w.channel.id)
    sent = await channel.send("once", nonce="t42.0")
    again = await channel.send("once", nonce="t42.0")
    assert [q.json["enforce_nonce"] for q in fake.requests_to(route)] == [True, True, True]
    assert [m.content for m in fake.messages(w.channel)] == ["once"]
    assert sent.id == again.id == fake.messages(w.channel)[0].id


async def test_an_enforced_nonce_is_forgotten_after_a_few_minutes(fake: FakeDiscord, bot: DemoBot) -> None:
    """Discord checks a nonce over "the past few minutes" only: later the same nonce makes a new message."""
    w: World = fake.world
    channel = bot.get_partial_messageable(w.channel.id)
    await channel.send("first", nonce="t7.0")
    fake.messages(w.channel)[0].created_at -= datetime.timedelta(minutes=3)
    await channel.send("second", nonce="t7.0")
    assert [m.content for m in fake.messages(w.channel)] == ["first", "second"]


async def test_file_over_the_limit_is_413(fake: FakeDiscord, bot: DemoBot) -> None:
    """Uploads larger than the attachment size limit are refused with 413 40005."""
    w: World = fake.world
    fake.attachment_size_limit = len(PNG) - 1
    r = await fake.slash(w.alice, w.channel, "upload")
    assert r.content == "upload failed: 413 40005"
    assert r.interaction.payload["attachment_size_limit"] == len(PNG) - 1
    assert fake.messages(w.channel) == []


async def test_late_callback_is_10062(fake: FakeDiscord, bot: DemoBot) -> None:
    """A callback after the deadline gets 404 10062 (clock injected: no real waiting)."""
    w: World = fake.world
    now = [1000.0]
    fake.clock = lambda: now[0]
    inter = await fake.start_slash(w.alice, w.channel, "slow")
    now[0] += 3.5
    bot.proceed.set()
    with pytest.raises(InteractionFailed, match="past the 3.0s deadline"):
        await inter.wait(5)
    callback = await fake.wait_for_request(lambda q: q.path.endswith("/callback"))
    assert (callback.status, callback.error_code) == (404, 10062)
    assert inter.late and inter.latency == pytest.approx(3.5)
    await fake.settle()
    assert [getattr(e, "code", None) for e in bot.errors] == [10062]


async def test_unanswered_interaction_fails_at_deadline(fake: FakeDiscord, bot: DemoBot) -> None:
    """With the real clock, a silent bot fails the interaction at the (configurable) deadline."""
    w: World = fake.world
    fake.interaction_deadline = 0.05
    with pytest.raises(InteractionFailed, match="no callback within 0.05s"):
        await fake.slash(w.alice, w.channel, "slow")
    bot.proceed.set()
    callback = await fake.wait_for_request(lambda q: q.path.endswith("/callback"))
    assert callback.error_code == 10062 and fake.interactions[-1].late


async def test_deferred_without_answer_times_out_clearly(fake: FakeDiscord, bot: DemoBot) -> None:
    """Acknowledged (type 5) but never finished: InteractionTimeout says so; the answer can still be awaited."""
    w: World = fake.world
    inter = await fake.start_slash(w.alice, w.channel, "hang")
    with pytest.raises(InteractionTimeout, match="callback type 5"):
        await inter.wait(0.1)
    assert inter.original is not None and inter.original.loading
    bot.proceed.set()
    result = await inter.wait(5)
    assert result.content == "at last" and result.message is inter.original and not result.message.loading


async def test_double_callback_is_40060(fake: FakeDiscord, bot: DemoBot) -> None:
    """Only the first callback counts; the second is 400 40060."""
    w: World = fake.world
    r = await fake.slash(w.alice, w.channel, "twice")
    assert r.content == "first"
    await fake.wait_for_request(lambda q: q.status == 400)
    await fake.settle()
    assert bot.codes == [40060]
    assert [q.status for q in fake.requests_to(r"/callback$")] == [200, 400]
    assert [m.content for m in fake.messages(w.channel)] == ["first"]


async def test_unknown_route_is_404_and_recorded(fake: FakeDiscord, bot: DemoBot) -> None:
    """A route the fake lacks answers 404 like Discord and is listed in unknown_requests."""
    w: World = fake.world
    await fake.slash(w.alice, w.channel, "react")
    record = await fake.wait_for_request(lambda q: "/reactions/" in q.path)
    assert record.status == 404 and record.unknown and fake.unknown_requests == [record]
    await fake.settle()
    assert bot.codes == [404]
    assert any(q.path.endswith("/messages/@original") and q.method == "GET" for q in fake.requests)


# --------------------------------------------------------------------------- gateway resume & processes


async def test_resume_replays_missed_events(fake: FakeDiscord, bot: DemoBot) -> None:
    """The server drops the socket (4000); the client RESUMEs and gets what it missed."""
    w: World = fake.world
    await fake.gateway.drop(4000)
    thread = fake.add_thread(w.channel, "made while away")
    await fake.dispatch("THREAD_CREATE", thread.payload() | {"newly_created": True})
    await fake.wait_until_connected()
    assert fake.gateway.resumes == 1 and fake.gateway.identifies == 1
    r = await fake.slash(w.alice, w.channel, "secret")
    assert r.content == "only you can see this"
    assert isinstance(bot.get_channel(thread.id), discord.Thread)


async def test_bot_process_crash_and_restart(fake: FakeDiscord) -> None:
    """The launcher runs a bot module in another process; SIGKILL it, start another, click still works."""
    w: World = fake.world
    env = fake.launch_env({**os.environ, "SAMPLE_BOT_TOKEN": fake.token})
    argv = fake.launch_command("tests.fake_discord.sample_bot")

    async def spawn() -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(*argv, env=env, cwd=str(ROOT),
                                                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)

    first = await spawn()
    try:
        await fake.gateway.wait_until(lambda g: g.identifies == 1 and g.connected, timeout=15)
        r = await fake.slash(w.alice, w.channel, "challenge")
        first_pid = int((await fake.slash(w.alice, w.channel, "pid")).content or 0)
        assert first_pid == first.pid and r.custom_ids == ["sample:accept"]
    finally:
        first.send_signal(signal.SIGKILL)
        await first.wait()
    await fake.gateway.wait_until(lambda g: not g.connected, timeout=5)

    second = await spawn()
    try:
        await fake.gateway.wait_until(lambda g: g.identifies == 2 and g.connected, timeout=15)
        clicked = await fake.click(w.bob, r.message, "sample:accept")
        assert clicked.content == f"accepted by bob (pid {second.pid})"
    finally:
        second.send_signal(signal.SIGKILL)
        await second.wait()
    assert fake.sync_count(None) == 2


async def test_launcher_bad_token_exits_2() -> None:
    """A rejected token in the child process: LoginFailure → exit status 2, nothing but loopback used."""
    async with FakeDiscord(token="right") as fake:
        standard_world(fake)
        proc = await asyncio.create_subprocess_exec(
            *fake.launch_command("tests.fake_discord.sample_bot"),
            env=fake.launch_env({**os.environ, "SAMPLE_BOT_TOKEN": "wrong"}), cwd=str(ROOT),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 2, err.decode()
        assert b"token rejected" in err
        assert [(r.path, r.status) for r in fake.requests] == [("/users/@me", 401)]


async def test_rest_routes_directly(fake: FakeDiscord) -> None:
    """Routes a test bot rarely hits, called raw: shapes, exact JSON content type, auth, errors."""
    import aiohttp

    w: World = fake.world
    thread = fake.add_thread(w.channel, "side")
    first = fake.add_message(w.channel, w.alice, "one")
    second = fake.add_message(w.channel, w.bob, "two", files={"notes.txt": b"hello"})
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(fake.url) as http:
        async def call(method: str, path: str, *, ok: int = 200, headers: dict[str, str] = auth, **kw: Any) -> Any:
            async with http.request(method, "/api/v10" + path, headers=headers, **kw) as resp:
                assert resp.status == ok, (method, path, resp.status, await resp.text())
                if resp.status == 204:
                    return None
                assert resp.headers["Content-Type"] == "application/json"
                return await resp.json()

        assert (await call("GET", "/gateway/bot"))["url"] == fake.gateway_url
        assert (await call("GET", "/users/@me", ok=401, headers={}))["message"] == "401: Unauthorized"
        assert (await call("GET", f"/users/{w.carol.id}"))["username"] == "carol"
        assert (await call("GET", "/users/1", ok=404))["code"] == 10013
        assert (await call("POST", "/users/@me/channels", ok=400, json={"recipient_id": "1"}))["code"] == 50033
        assert (await call("GET", f"/channels/{w.channel.id}"))["name"] == "games"
        assert (await call("GET", f"/channels/{thread.id}"))["thread_metadata"]["archived"] is False
        assert (await call("GET", "/channels/1", ok=404))["code"] == 10003
        newest = await call("GET", f"/channels/{w.channel.id}/messages", params={"limit": "1"})
        assert [m["content"] for m in newest] == ["two"] and newest[0]["attachments"][0]["filename"] == "notes.txt"
        older = await call("GET", f"/channels/{w.channel.id}/messages", params={"before": str(second.id)})
        assert [m["id"] for m in older] == [str(first.id)]
        assert (await call("GET", f"/channels/{w.channel.id}/messages/1", ok=404))["code"] == 10008
        assert (await call("PATCH", f"/channels/{w.channel.id}/messages/{first.id}", ok=403,
                           json={"content": "x"}))["code"] == 50005
        assert (await call("POST", f"/channels/{w.channel.id}/messages", ok=400, json={}))["code"] == 50006
        assert await call("PUT", f"/channels/{thread.id}/thread-members/{w.alice.id}", ok=204) is None
        assert w.alice.id in thread.thread_members
        started = await call("POST", f"/channels/{w.channel.id}/messages/{first.id}/threads", ok=201,
                             json={"name": "on one", "auto_archive_duration": 60})
        assert started["id"] == str(first.id) and first.thread is not None
        assert (await call("POST", f"/channels/{w.channel.id}/messages/{first.id}/threads", ok=400,
                           json={"name": "again"}))["code"] == 160004
        assert (await call("POST", f"/channels/{w.channel.id}/threads", ok=400, json={"name": ""}))["code"] == 50035
        assert (await call("GET", f"/guilds/{w.guild.id}"))["name"] == "Test Server"
        assert {r["name"] for r in await call("GET", f"/guilds/{w.guild.id}/roles")} >= {"@everyone", "admin perms"}
        assert [c["name"] for c in await call("GET", f"/guilds/{w.guild.id}/channels")] == ["games"]
        assert len(await call("GET", f"/guilds/{w.guild.id}/members", params={"limit": "100"})) == 5
        assert (await call("GET", f"/guilds/{w.guild.id}/members/1", ok=404))["code"] == 10007
        app = fake.application_id
        made = await call("POST", f"/applications/{app}/commands", ok=201, json={"name": "solo", "description": "d"})
        assert (await call("GET", f"/applications/{app}/commands"))[0]["id"] == made["id"]
        assert await call("DELETE", f"/applications/{app}/commands/{made['id']}", ok=204) is None
        bad = [{"name": "Bad Name", "description": "d"}]
        assert (await call("PUT", f"/applications/{app}/commands", ok=400, json=bad))["code"] == 50035
        assert (await call("POST", "/interactions/1/nope/callback", ok=404, headers={}, json={"type": 4}))["code"] == 10062
        assert (await call("POST", f"/webhooks/{app}/nope", ok=404, headers={}, json={"content": "x"}))["code"] == 10015
        assert (await call("GET", "/nowhere", ok=404))["message"] == "404: Not Found"
        async with http.get(second.attachments[0].path) as resp:
            assert resp.status == 200 and await resp.read() == b"hello"
        async with http.get(f"/attachments/{w.channel.id}/1/x.txt") as resp:
            assert resp.status == 404
    assert [r.path for r in fake.unknown_requests] == ["/nowhere"]
    refused = [(v.operation, v.problems) for v in fake.take_violations()]  # sent invalid on purpose
    assert [op for op, _ in refused] == ["create_message", "create_thread", "bulk_set_application_commands"]
    assert "name: Must be 1 or more in length." in " ".join(refused[1][1])
    fake.requests.clear()  # the fixture's "no unknown routes" check is about the bot


async def test_resolved_users_channels_roles(fake: FakeDiscord) -> None:
    """Option typing from synced definitions: members, channels, roles, attachments, numbers."""
    w: World = fake.world
    seen: dict[str, Any] = {}
    client = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @client.tree.command(name="kinds", description="All option kinds")
    async def kinds(interaction: discord.Interaction, member: discord.Member, where: discord.TextChannel,
                    role: discord.Role, file: discord.Attachment, ratio: float,
                    size: app_commands.Range[int, 3, 19] = 11) -> None:
        seen.update(member=member, where=where, role=role, data=await file.read(), ratio=ratio, size=size)
        await interaction.response.send_message("ok")

    @client.tree.command(name="where", description="Guild or DM?")
    async def where(interaction: discord.Interaction) -> None:
        kind = type(interaction.channel).__name__
        await interaction.response.send_message(f"{kind} guild={interaction.guild_id} user={interaction.user.name}")

    async with run_client(client, fake):
        await client.tree.sync()
        dm = await fake.slash(w.bob, fake.dm_channel(w.bob), "where")
        assert dm.content == "DMChannel guild=None user=bob" and dm.interaction.payload["context"] == 1
        role = w.guild.role("admin perms")
        r = await fake.slash(w.alice, w.channel, "kinds", member=w.carol, where=w.channel, role=role,
                             file=("a.txt", b"abc"), ratio=0.5)
        assert r.content == "ok"
        with pytest.raises(CommandUnavailable, match="outside 3..19"):
            await fake.slash(w.alice, w.channel, "kinds", member=w.carol, where=w.channel, role=role,
                             file=("a.txt", b"abc"), ratio=0.5, size=20)
    assert isinstance(seen["member"], discord.Member) and seen["member"].id == w.carol.id
    assert seen["where"].id == w.channel.id and seen["role"].name == "admin perms"
    assert (seen["data"], seen["ratio"], seen["size"]) == (b"abc", 0.5, 11)
    assert fake.sync_count(None) == 1


# --------------------------------------------------------------------------- plumbing


async def test_patch_discord_restores_and_blocks() -> None:
    """patch_discord swaps Route.BASE / DEFAULT_GATEWAY and restores them; other hosts are refused."""
    import socket

    from discord.gateway import DiscordWebSocket

    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as fake:
        with patch_discord(fake):
            assert Route.BASE == fake.api_base and str(DiscordWebSocket.DEFAULT_GATEWAY) == fake.gateway_url
            with pytest.raises(socket.gaierror):
                socket.getaddrinfo("discord.com", 443)
            with pytest.raises(ConnectionRefusedError, match="refused in tests"), socket.socket() as sock:
                sock.connect(("192.0.2.1", 443))
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == before


def test_validators() -> None:
    """Discord's cheap limits, checked directly."""
    assert check_message({"content": "x" * 2000}, 0) == []
    assert check_message({"content": "x" * 2001}, 0)[0][0] == "content"
    assert check_message({"embeds": [{"title": "t"}] * 11}, 0)[0][0] == "embeds"
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "x"}]}
    assert check_message({"components": [row] * 6}, 0)  # 6 rows, and duplicate custom_ids
    assert check_message({"components": [row]}, 0) == []
    assert check_choices([{"name": "n", "value": "v"}] * 25) == []
    assert check_choices([{"name": "n", "value": "v"}] * 26)[0][0] == "choices"
    assert check_choices([{"name": "", "value": "v"}])[0][0] == "choices.0.name"
    assert check_choices([{"name": "x" * 101, "value": "v"}])[0][0] == "choices.0.name"
    bad_order = {"name": "c", "description": "d", "options": [
        {"type": 3, "name": "a", "description": "d"}, {"type": 3, "name": "b", "description": "d", "required": True}]}
    assert check_command(bad_order, "0")[0][1] == "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"


def test_gateway_is_importable_without_a_loop() -> None:
    """Building a fake (and its gateway) needs no running event loop."""
    fake = FakeDiscord()
    assert isinstance(fake.gateway, Gateway) and fake.port is None
    assert sys.modules[FakeDiscord.__module__].__name__.endswith("server")
