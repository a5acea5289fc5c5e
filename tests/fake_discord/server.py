""":class:`FakeDiscord`: one aiohttp server on 127.0.0.1 with the gateway, the
REST API and an attachment CDN, plus the builder and test-driving API.
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
import secrets
import socket
import sys
import time
import weakref
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import quote

import discord
from aiohttp import web

from . import rest
from .errors import (
    CommandNotSynced,
    CommandUnavailable,
    DiscordAPIError,
    FakeDiscordError,
    NotConnected,
    error_paths,
    form_error,
)
from .gateway import Gateway, GatewaySession
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    ChoiceList,
    FakeInteraction,
    InteractionResult,
    OptionBuilder,
    find_subcommand,
    wrap_subcommands,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE,
    DM,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    CommandSync,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RecordedRequest,
    Snowflakes,
    UploadedFile,
    Violation,
    to_permissions,
    user_id,
    utcnow,
)
from .permissions import MEMBER, ROLE, Overwrite, channel_permissions, permission_bits
from .ratelimits import RateLimiter, RouteLimit
from .validation import check_attachment_refs, check_message

#: Every FakeDiscord not yet garbage-collected (the test hooks collect their violations).
LIVE: "weakref.WeakSet[FakeDiscord]" = weakref.WeakSet()
#: Answers that mean "this request is invalid" (a bug in whoever sent it): Invalid Form Body, empty message.
INVALID_REQUEST_CODES = (50035, 50006)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # Discord's default upload limit for unboosted servers
GUILD_MESSAGES_INTENT, DIRECT_MESSAGES_INTENT, MESSAGE_CONTENT_INTENT = 1 << 9, 1 << 12, 1 << 15
_CREATE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | (1 << 13) | FLAG_COMPONENTS_V2


class FakeDiscord:
    """A loopback Discord for end-to-end tests of an unmodified discord.py client.

    >>> fake = FakeDiscord(token="test-token")
    >>> guild = fake.add_guild("Test Server")
    >>> games = fake.add_text_channel(guild, "games")
    >>> alice = fake.add_member(guild, "alice")
    >>> admin = fake.add_member(guild, "admin", permissions=["manage_guild"])
    >>> admin.permissions.manage_guild, alice.permissions.manage_guild
    (True, False)

    Then ``await fake.start()``, point discord.py at it with
    :func:`patch_discord`, run the bot, and drive it with :meth:`slash`,
    :meth:`autocomplete`, :meth:`click`, … Everything the bot sends is in
    :attr:`requests`; messages in :meth:`messages`, :meth:`ephemerals`,
    :meth:`dms`.

    Parameters: ``token`` the only valid bot token; ``interaction_deadline``
    seconds the bot has for its first callback (Discord: 3); ``clock`` the
    time source for latencies and deadlines (``time.monotonic``).
    """

    def __init__(
        self,
        token: str = "test-token",
        *,
        bot_name: str = "TestBot",
        application_id: int | None = None,
        interaction_deadline: float = 3.0,
        attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
        webhook_token_ttl: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        dispatch_message_events: bool = False,
        clock: Callable[[], float] = time.monotonic,
        shard_count: int = 1,
    ) -> None:
        self.token = token
        #: what GET /gateway/bot recommends; each IDENTIFY names its [shard id, shard count]
        self.shard_count = shard_count
        #: deliver every event to every session whatever its shard, as during a reshard
        #: (two processes then both see a server's events)
        self.overlap_shards = False
        self.interaction_deadline = interaction_deadline
        self.attachment_size_limit = attachment_size_limit
        self.webhook_token_ttl = webhook_token_ttl
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.dispatch_message_events = dispatch_message_events
        self.clock = clock
        #: seconds added to :attr:`clock` (see :meth:`advance`)
        self.time_offset = 0.0
        #: how old interactions are when they reach the bot (gateway lag): more than the deadline makes every
        #: initial response late
        self.interaction_age = 0.0
        #: check every answer of the fake against the spec's response schemas (the fake's own bugs);
        #: a load benchmark turns it off to measure the bot rather than this check (requests stay checked)
        self.check_own_answers = True
        self.application_flags = 0
        self.snowflakes = Snowflakes()

        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.message_index: dict[int, FakeMessage] = {}
        self.attachment_index: dict[int, FakeAttachment] = {}
        self.commands: dict[int | None, dict[int, FakeCommand]] = {}
        self.command_syncs: list[CommandSync] = []
        self.interactions: list[FakeInteraction] = []
        self.interaction_index: dict[int, FakeInteraction] = {}
        self.token_index: dict[str, FakeInteraction] = {}
        #: every HTTP request the bot made, in arrival order
        self.requests: list[RecordedRequest] = []
        #: requests refused as invalid, answers that break the spec (see :meth:`take_violations`)
        self.violations: list[Violation] = []
        self.faults: list[rest.Fault] = []
        self.delays: list[rest.Delay] = []
        #: rate limits that run out (see :meth:`rate_limit`, :meth:`global_rate_limit`)
        self.ratelimits = RateLimiter(clock)
        self.world: Any = None  # set by fixtures.standard_world

        bot_id = application_id or self.snowflakes.next()
        self.bot_user = FakeUser(bot_id, bot_name, bot=True)
        self.users[bot_id] = self.bot_user
        self.application_id = bot_id
        self.owner_user = self.add_user("app-owner")

        self._waiters: list[tuple[str, Callable[[Any], bool], asyncio.Future[Any]]] = []
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.gateway = Gateway(self)
        LIVE.add(self)

    # ------------------------------------------------------------------ lifecycle

    async def start(self, port: int = 0) -> "FakeDiscord":
        """Listen on 127.0.0.1 (a free port unless given); returns self."""
        app = web.Application(client_max_size=1024**3)
        app.router.add_get("/ws", self.gateway.handle)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._api)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._cdn)
        # A short shutdown timeout: stop() must not wait a minute for a hung bot connection.
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        # Bind the socket ourselves: loopback only, and we learn the free port without aiohttp internals.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the server."""
        for _, _, fut in self._waiters:
            if not fut.done():
                fut.cancel()
        for inter in self.interactions:
            if inter.deadline_handle is not None:
                inter.deadline_handle.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self.port is None:
            raise FakeDiscordError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be (also READY's resume_gateway_url)."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def launch_command(self, module: str, *args: str) -> list[str]:
        """argv to run ``python -m module args…`` in a fresh process pointed at this fake.

        Use with ``env=fake.launch_env()`` so ``tests.fake_discord`` is importable.
        """
        return [sys.executable, "-m", "tests.fake_discord.launch", "--url", self.url, "--", module, *args]

    @staticmethod
    def launch_env(base: dict[str, str] | None = None) -> dict[str, str]:
        """An environment whose PYTHONPATH starts with the project root (for :meth:`launch_command`)."""
        import os

        env = dict(os.environ if base is None else base)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        return env

    # ------------------------------------------------------------------ builders

    def add_user(self, name: str, *, bot: bool = False, dms_open: bool = True, global_name: str | None = None,
                 locale: str = "en-US") -> FakeUser:
        """A user (not in any guild yet)."""
        user = FakeUser(self.snowflakes.next(), name, global_name=global_name, bot=bot, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        everyone_permissions: int | discord.Permissions | Iterable[str] | None = None,
        bot_permissions: int | discord.Permissions | Iterable[str] | None = None,
        locale: str = "en-US",
    ) -> FakeGuild:
        """A guild the bot is in (with a managed bot role granting ``bot_permissions``).

        The owner (all permissions) is a separate "owner" user unless given, so
        members' permissions come only from their roles.
        """
        gid = self.snowflakes.next()
        owner = owner or self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = FakeGuild(gid, name, owner.id, self.bot_user.id, locale=locale)
        everyone = DEFAULT_EVERYONE if everyone_permissions is None else to_permissions(everyone_permissions)
        guild.roles.append(FakeRole(gid, guild, "@everyone", everyone, position=0))
        self.guilds[gid] = guild
        bot_role = self.add_role(guild, self.bot_user.name,
                                 DEFAULT_BOT_PERMISSIONS if bot_permissions is None else bot_permissions, managed=True)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, [bot_role])
        return guild

    def add_role(self, guild: FakeGuild, name: str,
                 permissions: int | discord.Permissions | Iterable[str] | None = None, *, managed: bool = False) -> FakeRole:
        """A role with the given permissions."""
        role = FakeRole(self.snowflakes.next(), guild, name, to_permissions(permissions), position=len(guild.roles),
                        managed=managed)
        guild.roles.append(role)
        return role

    def add_member(
        self,
        guild: FakeGuild,
        user: str | FakeUser,
        *,
        permissions: int | discord.Permissions | Iterable[str] | None = None,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
        dms_open: bool = True,
    ) -> FakeMember:
        """Add a user (new if given a name) to a guild.

        ``permissions`` (int, :class:`discord.Permissions` or names such as
        ``["manage_guild"]``) are granted through a role of their own, on top
        of @everyone — as on Discord.
        """
        if isinstance(user, str):
            user = self.user_named(user) if self._find_user(user) else self.add_user(user, dms_open=dms_open)
        member_roles = list(roles)
        if permissions is not None:
            member_roles.append(self.add_role(guild, f"{user.name} perms", permissions))
        member = FakeMember(user, guild, member_roles, nick=nick)
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        """A text channel."""
        position = sum(1 for c in guild.channels if not c.is_thread)
        channel = FakeChannel(self.snowflakes.next(), GUILD_TEXT, name, guild=guild, position=position, topic=topic)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        owner: FakeUser | FakeMember | None = None,
        archived: bool = False,
        locked: bool = False,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        thread_id: int | None = None,
    ) -> FakeChannel:
        """A thread under a text channel (no gateway event: use before the bot connects)."""
        assert parent.guild is not None, "threads live in guild text channels"
        owner_user = (owner.user if owner is not None else self.bot_user)
        thread = FakeChannel(
            thread_id or self.snowflakes.next(),
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            name,
            guild=parent.guild,
            parent=parent,
            owner_id=owner_user.id,
            archived=archived,
            locked=locked,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
        )
        thread.thread_members.add(owner_user.id)
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        return thread

    def dm_channel(self, user: FakeUser | FakeMember) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        user = user.user
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is user:
                return channel
        channel = FakeChannel(self.snowflakes.next(), DM, None, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def add_message(self, channel: FakeChannel, author: FakeUser | FakeMember, content: str = "", *,
                    embeds: list[dict[str, Any]] | None = None, components: list[dict[str, Any]] | None = None,
                    files: dict[str, bytes] | None = None, reply_to: FakeMessage | None = None,
                    announce: bool = True) -> FakeMessage:
        """Put a message in a channel directly (e.g. history for the bot to fetch); no gateway event.

        See :meth:`user_message` for a message the bot *receives*.
        """
        uploads = [UploadedFile(f"files[{i}]", n, d, None) for i, (n, d) in enumerate((files or {}).items())]
        data: dict[str, Any] = {"content": content}
        if embeds is not None:
            data["embeds"] = embeds
        if components is not None:
            data["components"] = components
        if reply_to is not None:
            data["message_reference"] = {"message_id": str(reply_to.id), "channel_id": str(reply_to.channel.id)}
        return self.create_message(channel, author.user, data, uploads, announce=announce)

    async def user_message(self, user: FakeUser | FakeMember, channel: FakeChannel, content: str = "", *,
                           embeds: list[dict[str, Any]] | None = None, files: dict[str, bytes] | None = None,
                           reply_to: FakeMessage | None = None) -> FakeMessage:
        """``user`` posts in ``channel``: stored, and sent to the bot as MESSAGE_CREATE.

        Honours intents like Discord: only sessions with GUILD_MESSAGES (or
        DIRECT_MESSAGES) get it, and content is blank without MESSAGE_CONTENT
        unless the bot is mentioned or it is a DM.
        """
        msg = self.add_message(channel, user, content, embeds=embeds, files=files, reply_to=reply_to, announce=False)
        await self._dispatch_message("MESSAGE_CREATE", msg)
        await self.settle()
        return msg

    def remove_member(self, guild: FakeGuild, user: FakeUser | FakeMember) -> None:
        """Take a user out of a guild (no gateway event)."""
        guild.members.pop(user.id, None)

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Someone (a server manager) deletes a text channel or a thread, as in Discord's client.

        A thread goes with THREAD_DELETE (``id``, ``guild_id``, ``parent_id``, ``type``); a channel with
        CHANNEL_DELETE (the channel object), and its threads are deleted with it without an event of
        their own, as Discord does. Both are buffered for a disconnected bot (a RESUME replays them);
        a bot that IDENTIFYs afresh just no longer finds them in GUILD_CREATE. Either way the REST API
        answers 404 10003 Unknown Channel for them from now on.
        """
        if channel.guild is None or getattr(channel, "_deleted", False):
            raise FakeDiscordError(f"{channel!r} is not a guild channel or thread that exists")
        await self.channel_deleted(channel)
        await self.settle()

    async def channel_deleted(self, channel: FakeChannel) -> None:
        """Delete a guild channel or thread and announce it (the REST route and :meth:`delete_channel`)."""
        guild = channel.guild
        assert guild is not None
        gone = [channel] + ([] if channel.is_thread else [t for t in guild.threads if t.parent is channel])
        for c in gone:
            c._deleted = True  # type: ignore[attr-defined]
            guild.channels.remove(c)
        if channel.is_thread:
            assert channel.parent is not None
            await self.dispatch("THREAD_DELETE", {"id": str(channel.id), "guild_id": str(guild.id),
                                                  "parent_id": str(channel.parent.id), "type": channel.type})
        else:
            await self.dispatch("CHANNEL_DELETE", channel.payload())

    async def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is kicked from (or leaves) a server: GUILD_DELETE without ``unavailable`` (Discord's
        sign that the bot was removed, not an outage); the server is gone from later READYs, and the
        REST API refuses the bot in its channels (no permissions there any more)."""
        if guild.members.pop(self.bot_user.id, None) is None:
            raise FakeDiscordError(f"the bot is not in {guild.name!r}")
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        await self.settle()

    # ------------------------------------------------------------------ lookups

    def _find_user(self, name: str) -> FakeUser | None:
        return next((u for u in self.users.values() if u.name == name), None)

    def user_named(self, name: str) -> FakeUser:
        """The user called ``name``."""
        user = self._find_user(name)
        if user is None:
            raise KeyError(f"no user named {name!r}")
        return user

    def channel_named(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """The (first) channel or thread called ``name``."""
        for channel in self.channels.values():
            if channel.name == name and (guild is None or channel.guild is guild):
                return channel
        raise KeyError(f"no channel named {name!r}")

    def get_user(self, value: FakeUser | FakeMember | int | str) -> FakeUser:
        """A user from a user, member, id or name."""
        if isinstance(value, str) and not value.isdigit():
            return self.user_named(value)
        uid = user_id(value)
        if uid not in self.users:
            raise KeyError(f"no user with id {uid}")
        return self.users[uid]

    def get_channel(self, channel_id: int) -> FakeChannel:
        """A channel by id."""
        return self.channels[channel_id]

    def get_message(self, message_id: int) -> FakeMessage:
        """A message by id (deleted and ephemeral ones included)."""
        return self.message_index[message_id]

    def bot_guilds(self) -> list[FakeGuild]:
        """Guilds the bot is a member of."""
        return [g for g in self.guilds.values() if g.member(self.bot_user) is not None]

    def bot_member(self, guild: FakeGuild) -> FakeMember:
        """The bot's membership of ``guild``."""
        member = guild.member(self.bot_user)
        assert member is not None
        return member

    def bot_permissions(self, channel: FakeChannel) -> discord.Permissions:
        """The bot's permissions in a channel, overwrites applied (see :mod:`.permissions`)."""
        if channel.guild is None:
            return discord.Permissions.all()
        member = channel.guild.member(self.bot_user)
        return self.member_permissions(member, channel) if member is not None else discord.Permissions.none()

    def member_permissions(self, member: FakeMember, channel: FakeChannel) -> discord.Permissions:
        """A member's permissions in a guild channel or thread, as Discord computes them."""
        return channel_permissions(member, channel)

    async def set_permissions(self, channel: FakeChannel, target: FakeRole | FakeMember | FakeGuild, *,
                              allow: Iterable[str] | int = (), deny: Iterable[str] | int = ()) -> Overwrite | None:
        """Set (replace) the overwrite of a role, a member or @everyone (the guild) on a text channel.

        Names like ``deny=["attach_files"]``. Both empty removes the overwrite.
        Announces CHANNEL_UPDATE to a connected bot, as Discord does, so its
        cache (``channel.permissions_for``) agrees with what the REST API enforces.
        """
        if channel.is_thread or channel.guild is None:
            raise FakeDiscordError("overwrites live on guild text channels (threads use their parent's)")
        if isinstance(target, FakeGuild):
            oid, otype = target.everyone.id, ROLE
        elif isinstance(target, FakeRole):
            oid, otype = target.id, ROLE
        else:
            oid, otype = target.id, MEMBER
        channel.overwrites = [o for o in channel.overwrites if o.id != oid]
        overwrite = None
        allow_bits, deny_bits = permission_bits(allow), permission_bits(deny)
        if allow_bits or deny_bits:
            overwrite = Overwrite(oid, otype, allow_bits, deny_bits)
            channel.overwrites.append(overwrite)
        if self.gateway.sessions:
            await self.dispatch("CHANNEL_UPDATE", channel.payload())
            await self.settle()
        return overwrite

    # ------------------------------------------------------------------ time

    def now(self) -> float:
        """The fake's time: :attr:`clock` plus :attr:`time_offset` (what deadlines and token lifetimes use)."""
        return self.clock() + self.time_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's time forward, e.g. past the 3 s deadline or the 15-minute token life, without waiting."""
        self.time_offset += seconds

    # ------------------------------------------------------------------ what tests read

    def messages(self, channel: FakeChannel, *, include_deleted: bool = False) -> list[FakeMessage]:
        """The channel's public history, oldest first, edits applied (no ephemerals)."""
        return [m for m in channel.messages if not m.ephemeral and (include_deleted or not m.deleted)]

    def ephemerals(self, user: FakeUser | FakeMember, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Ephemeral messages only ``user`` could see, oldest first."""
        uid = user_id(user)
        return sorted(
            (m for m in self.message_index.values()
             if m.ephemeral and m.visible_to is not None and m.visible_to.id == uid and not m.deleted
             and (channel is None or m.channel is channel)),
            key=lambda m: m.id,
        )

    def dms(self, user: FakeUser | FakeMember) -> list[FakeMessage]:
        """Messages in the bot's DM channel with ``user``."""
        uid = user_id(user)
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient is not None and channel.recipient.id == uid:
                return self.messages(channel)
        return []

    def threads(self, channel: FakeChannel) -> list[FakeChannel]:
        """Threads under a text channel (archived included)."""
        return [c for c in self.channels.values() if c.parent is channel and not getattr(c, "_deleted", False)]

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        """Requests no route matched (answered 404) — usually a gap in the fake or a bot bug."""
        return [r for r in self.requests if r.unknown]

    def requests_to(self, pattern: str) -> list[RecordedRequest]:
        """Requests whose ``"METHOD /path"`` matches the regex."""
        rx = re.compile(pattern)
        return [r for r in self.requests if rx.search(f"{r.method} {r.path}")]

    def sync_count(self, guild: FakeGuild | None | str = "any") -> int:
        """How many bulk command syncs happened (for a guild, globally with ``None``, or in all)."""
        if guild == "any":
            return len(self.command_syncs)
        gid = guild.id if isinstance(guild, FakeGuild) else None
        return sum(1 for s in self.command_syncs if s.guild_id == gid)

    def synced_commands(self, guild: FakeGuild | None = None) -> dict[str, FakeCommand]:
        """Synced commands of a scope by name."""
        return {c.name: c for c in self.commands.get(guild.id if guild else None, {}).values()}

    def latencies(self) -> list[float]:
        """Dispatch → first callback latency of every answered interaction."""
        return [i.latency for i in self.interactions if i.latency is not None]

    # ------------------------------------------------------------------ fault injection

    def fail(self, route_regex: str, status: int = 500, times: int = 1, retry_after: float = 0.05,
             *, is_global: bool = False, applied: bool = False) -> rest.Fault:
        """Make the next ``times`` requests whose ``"METHOD /path"`` matches fail.

        ``status=429`` answers like Discord's rate limiter (``X-RateLimit-*``,
        ``Retry-After``, ``Via`` and ``{"message", "retry_after", "global"}``);
        5xx answers a server error. discord.py retries both (5xx after 1 s,
        3 s, …). ``applied=True``: the request takes effect and only its answer
        is the error (a gateway timeout after the work was done; the retry then
        meets what the first attempt did). Returns the :class:`Fault`; its
        ``hits`` counts uses.
        """
        fault = rest.Fault(re.compile(route_regex), status, times, retry_after, is_global, applied)
        self.faults.append(fault)
        return fault

    def delay(self, route_regex: str, seconds: float, times: int = 1) -> rest.Delay:
        """Make the answers to the next ``times`` requests whose ``"METHOD /path"`` matches reach the bot
        ``seconds`` (real time) late; the requests themselves take effect at once, as over a slow network.
        Returns the :class:`Delay`; its ``hits`` counts uses."""
        delay = rest.Delay(re.compile(route_regex), seconds, times)
        self.delays.append(delay)
        return delay

    def rate_limit(self, route_regex: str, limit: int, per: float) -> RouteLimit:
        """Let requests whose ``"METHOD /path"`` matches make ``limit`` calls per ``per`` seconds.

        One bucket per major parameter (channel, guild, webhook token,
        interaction), real headers (``X-RateLimit-Remaining`` 0 makes
        discord.py wait); over the limit → 429. Returns the rule: ``refused``
        and ``exhausted`` count what happened.
        """
        return self.ratelimits.add_route(route_regex, limit, per)

    def global_rate_limit(self, limit: int | None, per: float = 1.0) -> None:
        """At most ``limit`` requests per ``per`` seconds across all routes but interaction responses.

        Over it: 429 with ``"global": true`` (discord.py waits ``retry_after``
        and retries). ``fake.ratelimits.global_refused`` counts them.
        """
        self.ratelimits.set_global(limit, per)

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: Any, **kwargs: Any) -> int:
        """Send a gateway DISPATCH to the connected bot(s); returns how many got it.

        Keyword arguments (``intent=``, ``transform=``) go to :meth:`Gateway.dispatch`.
        """
        kwargs.setdefault("every_shard", self.overlap_shards)
        return await self.gateway.dispatch(event, data, **kwargs)

    async def wait_until_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot finished IDENTIFY/RESUME."""
        try:
            await self.gateway.wait_ready(timeout)
        except asyncio.TimeoutError:
            raise NotConnected(f"no bot connected to the fake gateway within {timeout}s") from None

    # ------------------------------------------------------------------ messages (used by REST and tests)

    def store_attachment(self, channel: FakeChannel, filename: str, data: bytes, *, description: str | None = None,
                         ephemeral: bool = False) -> FakeAttachment:
        """Keep bytes on the CDN; returns the attachment (url under ``/attachments/``)."""
        aid = self.snowflakes.next()
        ctype = mimetypes.guess_type(filename)[0]
        path = f"/attachments/{channel.id}/{aid}/{quote(filename)}"
        att = FakeAttachment(aid, filename, data, ctype, path, lambda: self.url, description=description,
                             ephemeral=ephemeral)
        self.attachment_index[aid] = att
        return att

    def _plan_attachments(self, data: dict[str, Any], files: list[UploadedFile], existing: list[FakeAttachment],
                          ) -> tuple[list[FakeAttachment], list[tuple[UploadedFile, str, str | None]]]:
        """Which attachments to keep and which uploads to add (``attachments`` refers to ``files[n]`` by id n)."""
        for upload in files:
            if len(upload.data) > self.attachment_size_limit:
                raise DiscordAPIError(413, 40005, "Request entity too large")
        by_index: dict[int, UploadedFile] = {}
        for pos, upload in enumerate(files):
            found = re.search(r"(\d+)", upload.field)
            by_index[int(found.group(1)) if found else pos] = upload
        entries = data.get("attachments")
        if entries is None:
            return list(existing), [(u, u.filename, None) for u in files]
        kept: list[FakeAttachment] = []
        new: list[tuple[UploadedFile, str, str | None]] = []
        used: set[int] = set()
        problems = []
        for i, entry in enumerate(entries):
            eid = str(entry.get("id"))
            old = next((a for a in existing if str(a.id) == eid), None)
            if old is not None:
                kept.append(old)
            elif eid.isdigit() and int(eid) in by_index:
                upload = by_index[int(eid)]
                used.add(int(eid))
                new.append((upload, entry.get("filename") or upload.filename, entry.get("description")))
            else:
                problems.append((f"attachments.{i}.id", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {eid}"))
        if problems:
            raise form_error(problems)
        new += [(u, u.filename, None) for idx, u in by_index.items() if idx not in used]
        return kept, new

    def _mentions(self, content: str, am: dict[str, Any] | None, reference: FakeMessage | None,
                  ) -> tuple[list[FakeUser], list[int], bool]:
        """Who is actually pinged, honouring ``allowed_mentions`` (none given → everything parses)."""
        parse = None if am is None else set(am.get("parse") or [])
        users_ok = {int(u) for u in (am or {}).get("users") or []}
        roles_ok = {int(r) for r in (am or {}).get("roles") or []}
        users: list[FakeUser] = []
        for raw in re.findall(r"<@!?(\d+)>", content):
            uid = int(raw)
            if uid in self.users and (parse is None or "users" in parse or uid in users_ok):
                if self.users[uid] not in users:
                    users.append(self.users[uid])
        roles = [int(r) for r in re.findall(r"<@&(\d+)>", content) if parse is None or "roles" in parse or int(r) in roles_ok]
        everyone = bool(re.search(r"@(everyone|here)", content)) and (parse is None or "everyone" in parse)
        if reference is not None and (am is None or am.get("replied_user", True)) and reference.author not in users:
            users.append(reference.author)
        return users, roles, everyone

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        data: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: FakeInteraction | None = None,
        followup: bool = False,
        allow_empty: bool = False,
        announce: bool = True,
    ) -> FakeMessage:
        """Validate like Discord, then store a new message (raises :class:`DiscordAPIError`)."""
        problems = check_message(data, len(files))
        if problems:
            raise form_error(problems)
        _, uploads = self._plan_attachments(data, files, [])
        problems = check_attachment_refs(data.get("embeds"), {name for _, name, _ in uploads})
        if problems:
            raise form_error(problems)
        content = data.get("content") or ""
        content = content if isinstance(content, str) else str(content)
        embeds = list(data.get("embeds") or [])
        components = list(data.get("components") or [])
        if not (allow_empty or content or embeds or uploads or components or data.get("sticker_ids") or data.get("poll")):
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
        flags = int(data.get("flags") or 0) & (_CREATE_FLAGS | FLAG_LOADING)
        if interaction is None:
            flags &= ~(FLAG_EPHEMERAL | FLAG_LOADING)  # only interaction responses can be ephemeral
        ref = data.get("message_reference")
        referenced = self.message_index.get(int(ref["message_id"])) if ref and ref.get("message_id") else None
        mentions, roles, everyone = self._mentions(content, data.get("allowed_mentions"), referenced)
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        msg = FakeMessage(
            id=self.snowflakes.next(),
            channel=channel,
            author=author,
            content=content,
            embeds=embeds,
            components=components,
            flags=flags,
            tts=bool(data.get("tts")),
            allowed_mentions=data.get("allowed_mentions"),
            mentions=mentions,
            mention_roles=roles,
            mention_everyone=everyone,
            message_reference=ref if referenced is not None else None,
            poll=data.get("poll"),
            nonce=data.get("nonce"),
        )
        if referenced is not None:
            msg.type = 19
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction = interaction
            if interaction.type == APPLICATION_COMMAND and not followup:
                msg.type = 20 if interaction.data.get("type", 1) == 1 else 23
            if ephemeral:
                msg.visible_to = interaction.user
        msg.attachments = [self.store_attachment(channel, name, u.data, description=desc, ephemeral=ephemeral)
                           for u, name, desc in uploads]
        channel.messages.append(msg)
        self.message_index[msg.id] = msg
        self._message_event("MESSAGE_CREATE", msg, announce)
        return msg

    def edit_message(self, msg: FakeMessage, data: dict[str, Any], files: list[UploadedFile]) -> FakeMessage:
        """Apply an edit (fields present replace; ``attachments`` keeps/adds), validating the result."""
        problems = check_message({**data, "flags": data.get("flags", msg.flags)}, len(files))
        if problems:
            raise form_error(problems)
        kept, uploads = self._plan_attachments(data, files, msg.attachments)
        content = msg.content if "content" not in data else (data["content"] or "")
        embeds = msg.embeds if "embeds" not in data else list(data["embeds"] or [])
        problems = check_attachment_refs(embeds, {a.filename for a in kept} | {name for _, name, _ in uploads})
        if problems:
            raise form_error(problems)
        components = msg.components if "components" not in data else list(data["components"] or [])
        if not (content or embeds or kept or uploads or components or msg.poll):
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
        if msg.flags & FLAG_COMPONENTS_V2 and "flags" in data and not int(data["flags"] or 0) & FLAG_COMPONENTS_V2:
            raise form_error([("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "Cannot remove IS_COMPONENTS_V2")])
        was_loading = msg.loading
        msg.versions.append(msg.snapshot())
        msg.content, msg.embeds, msg.components = content, embeds, components
        msg.attachments = kept + [self.store_attachment(msg.channel, name, u.data, description=desc, ephemeral=msg.ephemeral)
                                  for u, name, desc in uploads]
        if "flags" in data:
            new = int(data["flags"] or 0)
            msg.flags = (msg.flags & ~FLAG_SUPPRESS_EMBEDS) | (new & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        msg.flags &= ~FLAG_LOADING
        if "allowed_mentions" in data or "content" in data:
            am = data.get("allowed_mentions", msg.allowed_mentions)
            msg.allowed_mentions = am
            msg.mentions, msg.mention_roles, msg.mention_everyone = self._mentions(msg.content, am, None)
        if not was_loading:
            msg.edited_at = utcnow()
        self._message_event("MESSAGE_UPDATE", msg)
        return msg

    async def delete_message(self, msg: FakeMessage) -> None:
        """Mark a message deleted."""
        msg.deleted = True
        self._message_event("MESSAGE_DELETE", msg)

    def _message_event(self, event: str, msg: FakeMessage, announce: bool = True) -> None:
        self._notify("message", msg)
        if announce and self.dispatch_message_events and not msg.ephemeral and self.gateway.sessions:
            asyncio.get_running_loop().create_task(self._dispatch_message(event, msg))

    async def _dispatch_message(self, event: str, msg: FakeMessage) -> int:
        """MESSAGE_CREATE/UPDATE/DELETE to sessions with the (direct/guild) messages intent.

        Like Discord, content/embeds/attachments/components are blanked for
        sessions without the privileged message-content intent, except in DMs,
        for the bot's own messages and for messages mentioning the bot.
        """
        intent = DIRECT_MESSAGES_INTENT if msg.channel.is_dm else GUILD_MESSAGES_INTENT
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild is not None:
                data["guild_id"] = str(msg.channel.guild.id)
            return await self.dispatch(event, data, intent=intent)
        exempt = msg.channel.is_dm or msg.author is self.bot_user or self.bot_user in msg.mentions

        def strip(session: GatewaySession, data: dict[str, Any]) -> dict[str, Any]:
            if exempt or session.intents & MESSAGE_CONTENT_INTENT:
                return data
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

        return await self.dispatch(event, msg.payload(), intent=intent, transform=strip)

    def _record_sync(self, scope: int | None, names: list[str]) -> None:
        self.command_syncs.append(CommandSync(scope, names, self.now()))

    def take_violations(self) -> list[Violation]:
        """The refusals of invalid requests (and spec-breaking answers) so far, clearing them.

        Every test fails if any are left at its end (``tests/conftest.py``); a
        test that sends invalid requests on purpose takes them and asserts on them.
        """
        found, self.violations = self.violations, []
        return found

    def _on_fake_problem(self, record: RecordedRequest, problem: str) -> None:
        """The fake itself broke the spec (an answer of the wrong shape, a route Discord lacks)."""
        self.violations.append(Violation(record.method, record.path, record.operation, [problem], fake_bug=True))

    def _on_api_error(self, req: rest.ApiRequest, exc: DiscordAPIError) -> None:
        """Record refusals of invalid requests; remember refusals on interactions (for timeout messages and asserts)."""
        record = req.record
        if exc.code in INVALID_REQUEST_CODES:
            problems = error_paths(exc.errors) or [exc.message]
            self.violations.append(Violation(record.method, record.path, record.operation,
                                             [f"{exc.status} {exc.code} {p}" for p in problems]))
        path = req.record.path
        found = re.match(r"^/interactions/(\d+)/", path)
        inter = self.interaction_index.get(int(found.group(1))) if found else None
        if inter is None:
            found = re.match(r"^/webhooks/\d+/([^/]+)", path)
            inter = self.token_index.get(found.group(1)) if found else None
        if inter is not None:
            inter.errors.append((exc.status, exc.code, exc.message))

    # ------------------------------------------------------------------ waiting

    def _notify(self, kind: str, obj: Any) -> None:
        for wanted, predicate, fut in list(self._waiters):
            if wanted == kind and not fut.done():
                try:
                    ok = predicate(obj)
                except Exception as exc:  # a broken predicate should fail the test, not the server
                    fut.set_exception(exc)
                    continue
                if ok:
                    fut.set_result(obj)

    def _notify_request(self, record: RecordedRequest) -> None:
        self._notify("request", record)

    async def _wait(self, kind: str, predicate: Callable[[Any], bool], timeout: float, what: str) -> Any:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        entry = (kind, predicate, fut)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            raise FakeDiscordError(f"timed out after {timeout}s waiting for {what}") from None
        finally:
            self._waiters.remove(entry)

    async def wait_for(self, predicate: Callable[[FakeMessage], bool], timeout: float = 10.0, *,
                       existing: bool = True) -> FakeMessage:
        """Wait for a message (created or edited, any channel) satisfying ``predicate``.

        With ``existing=True`` (default) current messages are checked first,
        newest first — so an event that happened just before the call is not
        missed. Use it for bot-initiated messages (timers, announcements).
        """
        if existing:
            for msg in sorted(self.message_index.values(), key=lambda m: m.id, reverse=True):
                if not msg.deleted and predicate(msg):
                    return msg
        msg = await self._wait("message", lambda m: not m.deleted and predicate(m), timeout, "a matching message")
        await self.settle()
        return msg

    async def wait_for_request(self, predicate: Callable[[RecordedRequest], bool], timeout: float = 10.0, *,
                               existing: bool = True) -> RecordedRequest:
        """Wait until the bot made (and got an answer to) a request satisfying ``predicate``."""
        if existing:
            for record in reversed(self.requests):
                if record.status is not None and predicate(record):
                    return record
        return await self._wait("request", predicate, timeout, "a matching request")

    async def settle(self, max_iterations: int = 200) -> None:
        """Let the in-process bot finish reacting to what it just received.

        Yields to the event loop until nothing else is runnable for a few
        iterations (the HTTP answer parsed, the view stored, …). A no-op in
        spirit for bots in another process.
        """
        loop = asyncio.get_running_loop()
        ready = getattr(loop, "_ready", None)
        quiet = 0
        for _ in range(max_iterations):
            await asyncio.sleep(0)
            if ready is None:
                quiet += 1
            elif len(ready) == 0:
                quiet += 1
            else:
                quiet = 0
            if quiet >= (20 if ready is None else 3):
                return

    # ------------------------------------------------------------------ driving interactions

    def _find_command(self, name: str, guild: FakeGuild | None, ctype: int = 1) -> FakeCommand:
        scopes: list[int | None] = ([guild.id] if guild is not None else []) + [None]
        for scope in scopes:
            for cmd in self.commands.get(scope, {}).values():
                if cmd.name == name and cmd.type == ctype:
                    return cmd
        synced = {("global" if s is None else f"guild {s}"): sorted(c.name for c in cmds.values())
                  for s, cmds in self.commands.items()}
        raise CommandNotSynced(
            f"/{name} was never synced to Discord (synced so far: {synced or 'nothing'}; "
            f"{len(self.command_syncs)} sync(s)). Did the bot call tree.sync() (for this guild)?"
        )

    def _check_available(self, cmd: FakeCommand, member: FakeMember | None, channel: FakeChannel) -> None:
        context = 1 if channel.is_dm else 0
        contexts = cmd.payload.get("contexts")
        if contexts is not None and context not in contexts:
            raise CommandUnavailable(f"/{cmd.name} is not offered in this context ({context}; allowed {contexts})")
        if channel.is_dm and cmd.payload.get("dm_permission") is False:
            raise CommandUnavailable(f"/{cmd.name} is not offered in DMs")
        needed = cmd.payload.get("default_member_permissions")
        if needed is not None and member is not None:
            have = member.permissions.value
            if int(needed) & have != int(needed):
                raise CommandUnavailable(
                    f"Discord hides /{cmd.name} from {member.name}: needs permissions {int(needed):#x}, has {have:#x}"
                )

    def _interaction_base(self, itype: int, user: FakeUser | FakeMember, channel: FakeChannel, data: dict[str, Any],
                          locale: str | None) -> tuple[dict[str, Any], FakeUser, FakeMember | None]:
        the_user = self.get_user(user)
        guild = channel.guild
        member = guild.member(the_user) if guild is not None else None
        if guild is not None and member is None:
            raise FakeDiscordError(f"{the_user.name} is not a member of {guild.name!r}")
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
        channel_data = channel.payload()
        payload: dict[str, Any] = {
            "id": None,
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel_data,
            "locale": locale or the_user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            assert member is not None
            channel_data["permissions"] = str(self.member_permissions(member, channel).value)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member={**member.payload(), "permissions": channel_data["permissions"]},
                app_permissions=str(self.bot_permissions(channel).value),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=the_user.payload(),
                app_permissions=str(discord.Permissions.all().value & ~discord.Permissions.administrator.flag),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        return payload, the_user, member

    async def _dispatch_interaction(self, itype: int, user: FakeUser | FakeMember, channel: FakeChannel,
                                    data: dict[str, Any], *, name: str | None, message: FakeMessage | None = None,
                                    locale: str | None = None, timeout: float = 10.0,
                                    triggered_by: FakeInteraction | None = None) -> FakeInteraction:
        payload, the_user, _ = self._interaction_base(itype, user, channel, data, locale)
        if message is not None:
            payload["message"] = message.payload()
        if not self.gateway.connected:
            await self.wait_until_connected(timeout)
        iid = self.snowflakes.next()
        payload["id"] = str(iid)
        loop = asyncio.get_running_loop()
        inter = FakeInteraction(
            id=iid, token=payload["token"], type=itype, user=the_user, channel=channel, guild=channel.guild,
            data=data, payload=payload, application_id=self.application_id,
            dispatched_at=self.now() - self.interaction_age,
            name=name, message=message, future=loop.create_future(), triggered_by=triggered_by,
        )
        self.interactions.append(inter)
        self.interaction_index[iid] = inter
        self.token_index[inter.token] = inter
        sent = await self.dispatch("INTERACTION_CREATE", payload)
        if not sent:
            raise NotConnected("the bot disconnected before the interaction could be delivered")
        if self.clock is time.monotonic:
            # Without an injected clock, fail fast at the deadline like Discord's client does.
            inter.deadline_handle = loop.call_later(max(0.0, self.interaction_deadline - self.interaction_age) + 0.001,
                                                     self._deadline, inter)
        return inter

    def _deadline(self, inter: FakeInteraction) -> None:
        if not inter.acknowledged:
            inter.fail(f"no callback within {self.interaction_deadline}s (the user sees 'The application did not respond'); "
                       + inter.summary())

    async def _finish(self, inter: FakeInteraction, timeout: float) -> InteractionResult:
        result = await inter.wait(timeout)
        await self.settle()
        return result

    async def slash(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        name: str,
        /,
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 10.0,
        locale: str | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run ``/name`` (``"group sub"`` for sub-commands) as ``user`` in ``channel``; wait for the answer.

        Options come from keyword arguments (or ``options={...}`` for names
        that aren't identifiers) and are typed from the *synced* definition:
        users/members → id + ``resolved.users``/``members``, channels, roles,
        ``(filename, bytes)`` for attachments, ints, floats, bools, strings.
        Raises :class:`CommandNotSynced`, :class:`CommandUnavailable`,
        :class:`InteractionFailed` (no/late answer) or :class:`InteractionTimeout`.
        """
        inter = await self.start_slash(user, channel, name, options=options, locale=locale, timeout=timeout, **kwargs)
        return await self._finish(inter, timeout)

    async def start_slash(self, user: FakeUser | FakeMember, channel: FakeChannel, name: str, /, *,
                          options: dict[str, Any] | None = None, locale: str | None = None, timeout: float = 10.0,
                          **kwargs: Any) -> FakeInteraction:
        """Like :meth:`slash` but returns the :class:`FakeInteraction` without waiting (``await inter.wait(t)``)."""
        top, *path = name.split()
        cmd = self._find_command(top, channel.guild)
        the_user = self.get_user(user)
        member = channel.guild.member(the_user) if channel.guild is not None else None
        self._check_available(cmd, member, channel)
        defs, chain = find_subcommand(cmd, path)
        builder = OptionBuilder(self, channel.guild, channel, member)
        values = {**(options or {}), **kwargs}
        leaf = builder.build(cmd, defs, values)
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1}
        opts = wrap_subcommands(chain, leaf)
        if opts:
            data["options"] = opts
        if builder.resolved:
            data["resolved"] = builder.resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return await self._dispatch_interaction(APPLICATION_COMMAND, the_user, channel, data, name=name,
                                                locale=locale, timeout=timeout)

    async def context_menu(self, user: FakeUser | FakeMember, channel: FakeChannel, name: str,
                           target: FakeUser | FakeMember | FakeMessage, *, timeout: float = 10.0) -> InteractionResult:
        """Run a user (target user/member) or message (target message) context-menu command."""
        ctype = 3 if isinstance(target, FakeMessage) else 2
        cmd = self._find_command(name, channel.guild, ctype)
        the_user = self.get_user(user)
        self._check_available(cmd, channel.guild.member(the_user) if channel.guild else None, channel)
        builder = OptionBuilder(self, channel.guild, channel)
        if isinstance(target, FakeMessage):
            target_id = str(target.id)
            builder.resolved["messages"] = {target_id: target.payload()}
        else:
            target_id = builder._user(target)
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": ctype, "target_id": target_id,
                                "resolved": builder.resolved}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        inter = await self._dispatch_interaction(APPLICATION_COMMAND, the_user, channel, data, name=name, timeout=timeout)
        return await self._finish(inter, timeout)

    async def autocomplete(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        name: str,
        /,
        *,
        focused: str,
        options: dict[str, Any] | None = None,
        timeout: float = 10.0,
        **kwargs: Any,
    ) -> ChoiceList:
        """Type into option ``focused`` of ``/name`` (its value: the keyword of that name, default "").

        Returns the choices the bot offered (a list of ``{"name", "value"}``
        with ``.names``, ``.values`` and ``.interaction``).
        """
        top, *path = name.split()
        cmd = self._find_command(top, channel.guild)
        the_user = self.get_user(user)
        defs, chain = find_subcommand(cmd, path)
        definition = next((d for d in defs if d["name"] == focused), None)
        if definition is not None and not definition.get("autocomplete"):
            raise CommandUnavailable(f"/{name} option {focused!r} has no autocomplete in the synced definition")
        builder = OptionBuilder(self, channel.guild, channel)
        values = {**(options or {}), **kwargs}
        leaf = builder.build(cmd, defs, values, focused=focused)
        data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": 1, "options": wrap_subcommands(chain, leaf)}
        if builder.resolved:
            data["resolved"] = builder.resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        inter = await self._dispatch_interaction(AUTOCOMPLETE, the_user, channel, data, name=name, timeout=timeout)
        await self._finish(inter, timeout)
        choices = ChoiceList(inter.choices or [])
        choices.interaction = inter
        return choices

    def _component_message(self, message: FakeMessage | InteractionResult | int) -> FakeMessage:
        if isinstance(message, InteractionResult):
            if message.message is None:
                raise FakeDiscordError("that interaction produced no message to click on")
            return message.message
        if isinstance(message, int):
            return self.message_index[message]
        return message

    async def click(self, user: FakeUser | FakeMember, message: FakeMessage | InteractionResult | int, custom_id: str,
                    *, timeout: float = 10.0) -> InteractionResult:
        """Press the button ``custom_id`` on a stored message (as it is now) and wait for the answer."""
        inter = await self.start_component(user, message, custom_id, timeout=timeout)
        return await self._finish(inter, timeout)

    async def select(self, user: FakeUser | FakeMember, message: FakeMessage | InteractionResult | int, custom_id: str,
                     values: list[Any], *, timeout: float = 10.0) -> InteractionResult:
        """Choose ``values`` in the select menu ``custom_id`` (user/role/channel selects take fake objects)."""
        inter = await self.start_component(user, message, custom_id, values=values, timeout=timeout)
        return await self._finish(inter, timeout)

    async def start_component(self, user: FakeUser | FakeMember, message: FakeMessage | InteractionResult | int,
                              custom_id: str, *, values: list[Any] | None = None,
                              timeout: float = 10.0) -> FakeInteraction:
        """Dispatch a component interaction without waiting for the answer."""
        msg = self._component_message(message)
        the_user = self.get_user(user)
        if msg.deleted:
            raise FakeDiscordError(f"message {msg.id} was deleted; nobody can click on it")
        if msg.ephemeral and msg.visible_to is not None and msg.visible_to.id != the_user.id:
            raise FakeDiscordError(f"message {msg.id} is ephemeral for {msg.visible_to.name}; {the_user.name} can't see it")
        comp = msg.component(custom_id)
        if comp.disabled:
            raise FakeDiscordError(f"component {custom_id!r} on message {msg.id} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp.type}
        if comp.type in (3, 5, 6, 7, 8):
            if values is None:
                raise FakeDiscordError(f"{custom_id!r} is a select menu: use select(..., values=[...])")
            builder = OptionBuilder(self, msg.channel.guild, msg.channel)
            if comp.type == 3:
                allowed = [o["value"] for o in comp.raw.get("options", [])]
                bad = [v for v in values if v not in allowed]
                if bad:
                    raise FakeDiscordError(f"{bad} are not options of {custom_id!r} ({allowed})")
                data["values"] = list(values)
            else:
                kinds = {5: 6, 6: 8, 7: 9, 8: 7}  # select component type → option type
                definition = {"type": kinds[comp.type], "name": custom_id}
                fake_cmd = FakeCommand(0, None, {"name": custom_id})
                data["values"] = [builder.convert(fake_cmd, definition, v, strict=False) for v in values]
                data["resolved"] = builder.resolved
        elif comp.type == 2 and values is not None:
            raise FakeDiscordError(f"{custom_id!r} is a button: use click()")
        return await self._dispatch_interaction(MESSAGE_COMPONENT, the_user, msg.channel, data, name=None,
                                                message=msg, timeout=timeout)

    async def submit_modal(self, user: FakeUser | FakeMember, shown: InteractionResult | FakeInteraction,
                           values: dict[str, str], *, timeout: float = 10.0) -> InteractionResult:
        """Fill in and submit the modal the bot showed (callback type 9): ``values`` by text-input custom_id."""
        inter = shown.interaction if isinstance(shown, InteractionResult) else shown
        modal = inter.modal
        if modal is None:
            raise FakeDiscordError("that interaction did not show a modal")

        def answer(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out = []
            for comp in components:
                ctype = comp.get("type")
                if ctype == 1:
                    out.append({"type": 1, "components": answer(comp.get("components") or [])})
                elif ctype == 18:  # label wrapping one component
                    out.append({"type": 18, "id": comp.get("id"), "component": answer([comp["component"]])[0]})
                elif ctype == 4:
                    out.append({"type": 4, "id": comp.get("id"), "custom_id": comp["custom_id"],
                                "value": values.get(comp["custom_id"], comp.get("value") or "")})
                elif ctype in (3, 5, 6, 7, 8):
                    out.append({"type": ctype, "id": comp.get("id"), "custom_id": comp["custom_id"],
                                "values": list(values.get(comp["custom_id"], []))})
                elif ctype == 10:
                    out.append({"type": 10, "id": comp.get("id")})
            return out

        unknown_ids = set(values) - {c.get("custom_id") for c in _walk(modal.get("components") or [])}
        if unknown_ids:
            raise FakeDiscordError(f"the modal has no inputs {sorted(unknown_ids)}")
        data = {"custom_id": modal["custom_id"], "components": answer(modal.get("components") or [])}
        new = await self._dispatch_interaction(MODAL_SUBMIT, inter.user, inter.channel, data, name=None,
                                               message=inter.message, timeout=timeout, triggered_by=inter)
        return await self._finish(new, timeout)

    # ------------------------------------------------------------------ HTTP entry points

    async def _api(self, request: web.Request) -> web.StreamResponse:
        return await rest.api_entry(self, request)

    async def _cdn(self, request: web.Request) -> web.Response:
        aid = request.match_info["attachment"]
        att = self.attachment_index.get(int(aid)) if aid.isdigit() else None
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"})


def _walk(components: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    from .models import walk_components

    return walk_components(components)
