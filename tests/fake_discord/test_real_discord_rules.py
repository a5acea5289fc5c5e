"""What real Discord does that a lenient fake would not: channel permissions
(403 50013), the 3-second deadline (10062), 15-minute interaction tokens
(401 50027), the first follow-up after a defer taking its visibility, and
rate limits that run out — each seen through the real discord.py client.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from . import FakeDiscord
from .errors import InteractionFailed
from .fixtures import World, fake_discord, run_client  # noqa: F401 (fixtures)
from .permissions import Overwrite, channel_permissions

FILE = b"\x89PNG\r\n\x1a\nnot really"


class RulesBot(commands.Bot):
    """A small bot whose commands wait for the test (``proceed``) at the interesting moment."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.proceed = asyncio.Event()
        self.errors: list[discord.HTTPException] = []
        self._commands()

    async def setup_hook(self) -> None:
        """Sync to the test guild."""
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    def _commands(self) -> None:
        tree = self.tree

        @tree.command(description="answer after the test says so")
        async def late(interaction: discord.Interaction) -> None:
            await self.proceed.wait()
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(description="defer, then follow up when the test says so")
        @app_commands.describe(private="make the follow-up ephemeral", delete="delete the thinking message first")
        async def think(interaction: discord.Interaction, private: bool = False, delete: bool = False) -> None:
            await interaction.response.defer(thinking=True)
            await self.proceed.wait()
            try:
                if delete:
                    await interaction.delete_original_response()
                await interaction.followup.send("done", ephemeral=private)
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.channel.send("done (in the channel)")  # type: ignore[union-attr]

        @tree.command(description="defer, then follow up with a file")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            try:
                await interaction.followup.send(file=discord.File(io.BytesIO(FILE), "board.png"))
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(description="edit the original after the test says so")
        async def edit(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await self.proceed.wait()
            try:
                await interaction.edit_original_response(content="edited")
            except discord.HTTPException as exc:
                self.errors.append(exc)


@pytest.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[RulesBot]:  # noqa: F811
    """The RulesBot, connected."""
    async with run_client(RulesBot(fake_discord.world.guild.id), fake_discord) as running:
        yield running


async def send(bot: RulesBot, channel_id: int, **kwargs) -> int | None:
    """``channel.send`` as the bot; the error code if Discord refused."""
    channel = bot.get_channel(channel_id)
    assert channel is not None
    try:
        await channel.send(**kwargs)  # type: ignore[union-attr]
    except discord.HTTPException as exc:
        assert exc.status == 403, exc
        return exc.code
    return None


# --------------------------------------------------------------------------- permissions


def test_overwrites_apply_everyone_then_roles_then_the_member(fake_discord):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    players = fake.add_role(w.guild, "players")
    member = fake.add_member(w.guild, "dora", roles=[players])
    ch = w.channel
    ch.overwrites = [Overwrite(w.guild.id, 0, deny=discord.Permissions(send_messages=True).value)]
    assert not channel_permissions(member, ch).send_messages
    ch.overwrites.append(Overwrite(players.id, 0, allow=discord.Permissions(send_messages=True).value))
    assert channel_permissions(member, ch).send_messages
    ch.overwrites.append(Overwrite(member.id, 1, deny=discord.Permissions(send_messages=True).value))
    assert not channel_permissions(member, ch).send_messages
    # Without Send Messages, what only goes with sending is gone too; without View Channel, everything.
    assert not channel_permissions(member, ch).attach_files
    ch.overwrites = [Overwrite(w.guild.id, 0, deny=discord.Permissions(view_channel=True).value)]
    assert channel_permissions(member, ch).value == 0
    # The owner and administrators are not bound by overwrites.
    boss = fake.add_member(w.guild, "boss", permissions=["administrator"])
    assert channel_permissions(boss, ch) == discord.Permissions.all()


async def test_a_denied_send_is_403_50013_and_the_bots_cache_agrees(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    assert await send(bot, w.channel.id, content="hello") is None
    await fake.set_permissions(w.channel, w.bot, deny=["send_messages"])
    assert await send(bot, w.channel.id, content="hello") == 50013
    assert not bot.get_channel(w.channel.id).permissions_for(bot.get_guild(w.guild.id).me).send_messages
    assert fake.requests[-1].response == {"message": "Missing Permissions", "code": 50013}
    await fake.set_permissions(w.channel, w.bot)  # removed again
    assert await send(bot, w.channel.id, content="hello") is None
    assert [m.content for m in fake.messages(w.channel)] == ["hello", "hello"]


async def test_files_embeds_and_threads_each_need_their_permission(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    await fake.set_permissions(w.channel, w.guild, deny=["attach_files", "embed_links", "create_public_threads"])
    await fake.set_permissions(w.channel, w.bot.roles[0], deny=["attach_files", "embed_links", "create_public_threads"])
    assert await send(bot, w.channel.id, content="pic", file=discord.File(io.BytesIO(FILE), "a.png")) == 50013
    assert await send(bot, w.channel.id, embed=discord.Embed(title="board")) == 50013
    assert await send(bot, w.channel.id, content="plain text still works") is None
    with pytest.raises(discord.Forbidden):
        await bot.get_channel(w.channel.id).create_thread(name="game", type=discord.ChannelType.public_thread)
    assert [m.content for m in fake.messages(w.channel)] == ["plain text still works"]


async def test_threads_take_their_parents_overwrites(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    thread = await bot.get_channel(w.channel.id).create_thread(name="game", type=discord.ChannelType.public_thread)
    await fake.set_permissions(w.channel, w.bot, deny=["send_messages_in_threads"])
    assert await send(bot, thread.id, content="in the thread") == 50013
    assert await send(bot, w.channel.id, content="in the channel") is None


async def test_interaction_payloads_carry_channel_permissions(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    await fake.set_permissions(w.channel, w.bot, deny=["attach_files"])
    bot.proceed.set()
    r = await fake.slash(w.alice, w.channel, "late")
    assert not discord.Permissions(int(r.interaction.payload["app_permissions"])).attach_files


# --------------------------------------------------------------------------- deadline and token life


async def test_an_answer_after_three_seconds_of_fake_time_is_10062(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    inter = await fake.start_slash(w.alice, w.channel, "late")
    fake.advance(3.2)  # no real waiting
    bot.proceed.set()
    with pytest.raises(InteractionFailed, match="deadline"):
        await inter.wait(5)
    await fake.settle()
    assert [(e.status, e.code) for e in bot.errors] == [(404, 10062)]


async def test_a_follow_up_after_fifteen_minutes_is_401_50027_and_the_channel_still_works(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    inter = await fake.start_slash(w.alice, w.channel, "think")
    await fake.wait_for_request(lambda q: q.path.endswith("/callback"))
    fake.advance(15 * 60 + 1)
    bot.proceed.set()
    await fake.wait_for(lambda m: m.content == "done (in the channel)")
    assert [(e.status, e.code) for e in bot.errors] == [(401, 50027)]
    assert inter.original is not None and inter.original.loading  # the token's message was never filled


async def test_editing_the_original_after_fifteen_minutes_is_refused(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    await fake.start_slash(w.alice, w.channel, "edit")
    await fake.wait_for_request(lambda q: q.path.endswith("/callback"))
    fake.advance(15 * 60 + 1)
    bot.proceed.set()
    await fake.wait_for_request(lambda q: q.method == "PATCH")
    await fake.settle()
    assert [(e.status, e.code) for e in bot.errors] == [(401, 50027)]


# --------------------------------------------------------------------------- visibility after a defer


async def test_the_first_follow_up_after_a_public_defer_is_public_even_if_asked_ephemeral(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    bot.proceed.set()
    r = await fake.slash(w.alice, w.channel, "think", private=True)
    assert r.content == "done" and not r.ephemeral
    assert r.message is r.interaction.original


async def test_after_deleting_the_thinking_message_a_follow_up_can_be_private(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    bot.proceed.set()
    r = await fake.slash(w.alice, w.channel, "think", private=True, delete=True)
    assert r.content == "done" and r.ephemeral
    assert r.interaction.original.deleted
    assert fake.messages(w.channel) == []


# --------------------------------------------------------------------------- rate limits


async def test_a_route_bucket_runs_out_and_discord_py_waits_for_it(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    rule = fake.rate_limit(r"^POST /channels/\d+/messages$", limit=2, per=0.2)
    codes = await asyncio.gather(*(send(bot, w.channel.id, content=f"m{i}") for i in range(6)))
    assert codes == [None] * 6
    assert sorted(m.content for m in fake.messages(w.channel)) == [f"m{i}" for i in range(6)]
    assert rule.exhausted >= 2  # discord.py saw Remaining: 0 and had to wait for the reset
    sent = fake.requests_to(r"^POST /channels/\d+/messages$")
    assert {q.status for q in sent} <= {200, 429}
    assert sent[0].headers is not None


async def test_the_global_limit_answers_429_and_discord_py_retries(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    channels = [fake.add_text_channel(w.guild, f"room-{i}") for i in range(5)]
    for ch in channels:
        await fake.dispatch("CHANNEL_CREATE", ch.payload())
    await fake.settle()
    fake.global_rate_limit(2, per=0.2)
    codes = await asyncio.gather(*(send(bot, ch.id, content=ch.name) for ch in channels))
    assert codes == [None] * 5
    assert all([m.content for m in fake.messages(ch)] == [ch.name] for ch in channels)
    assert fake.ratelimits.global_refused > 0
    refused = [q for q in fake.requests if q.status == 429]
    assert refused and all(set(q.response) == {"message", "retry_after", "global", "code"} and q.response["global"]
                           for q in refused)


async def test_interaction_answers_are_outside_the_global_limit(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    fake.global_rate_limit(0, per=60)  # nothing else may pass for a minute
    bot.proceed.set()
    r = await fake.slash(w.alice, w.channel, "think")
    assert r.content == "done" and fake.ratelimits.global_refused == 0


async def test_a_follow_up_with_a_file_needs_attach_files_even_without_send_messages(fake_discord, bot):  # noqa: F811
    fake, w = fake_discord, fake_discord.world
    await fake.set_permissions(w.channel, w.bot.roles[0], deny=["send_messages"])
    bot.proceed.set()
    r = await fake.slash(w.alice, w.channel, "think")  # text through the interaction: no Send Messages needed
    assert r.content == "done"
    await fake.set_permissions(w.channel, w.bot.roles[0], deny=["attach_files"])
    inter = await fake.start_slash(w.alice, w.channel, "picture")
    await fake.wait_for_request(lambda q: q.route == "POST /webhooks/{app_id}/{token}" and q.status == 403)
    assert inter.errors == [(403, 50013, "Missing Permissions")]
