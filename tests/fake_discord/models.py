"""The fake's state: users, guilds, roles, members, channels, threads, messages,
attachments, commands, interactions and recorded requests.

Every model knows how to render itself as the JSON Discord would send
(``payload()``), so the REST and gateway layers only pick which ones to send.
Objects are *live*: a message edited later is the same object, with the older
versions kept in :attr:`FakeMessage.versions`.
"""

from __future__ import annotations

import copy
import datetime as _dt
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import discord

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .interactions import FakeInteraction
    from .permissions import Overwrite

DISCORD_EPOCH_MS = 1420070400000

# Message flags the fake reads (https://discord.com/developers/docs/resources/message#message-object-message-flags).
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_HAS_THREAD = 1 << 5
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

#: What @everyone may do in a fresh server (close to Discord's defaults).
DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
    use_external_stickers=True,
    create_instant_invite=True,
    change_nickname=True,
    connect=True,
    speak=True,
)

#: What the bot's own (managed) role grants on top of @everyone by default.
DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    manage_threads=True,
    manage_messages=True,
    embed_links=True,
    attach_files=True,
    create_public_threads=True,
    create_private_threads=True,
    send_messages_in_threads=True,
)


def to_permissions(value: int | discord.Permissions | Iterable[str] | None) -> discord.Permissions:
    """Accept an int, a :class:`discord.Permissions` or permission names (``["manage_guild"]``)."""
    if value is None:
        return discord.Permissions.none()
    if isinstance(value, discord.Permissions):
        return discord.Permissions(value.value)
    if isinstance(value, int):
        return discord.Permissions(value)
    perms = discord.Permissions.none()
    for name in value:
        if not hasattr(perms, name):
            raise ValueError(f"unknown permission name {name!r}")
        setattr(perms, name, True)
    return perms


def iso(dt: _dt.datetime | None) -> str | None:
    """ISO-8601 with an explicit UTC offset, like Discord's timestamps."""
    return None if dt is None else dt.isoformat()


def utcnow() -> _dt.datetime:
    """Timezone-aware now (Discord timestamps are always UTC)."""
    return _dt.datetime.now(_dt.timezone.utc)


class Snowflakes:
    """Unique, increasing snowflakes whose timestamp part is the creation time.

    Real-looking ids matter: discord.py derives ``created_at`` from them and
    sorts history by them.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A fresh id, strictly greater than every earlier one."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last


# --------------------------------------------------------------------------- users, guilds


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``dms_open=False`` makes DMs to them fail with 50007."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"

    @property
    def user(self) -> "FakeUser":
        """Itself, so users and members can be passed interchangeably."""
        return self

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}{' bot' if self.bot else ''}>"


@dataclass(eq=False)
class FakeRole:
    """A guild role; the ``@everyone`` role has the guild's id."""

    id: int
    guild: "FakeGuild"
    name: str
    permissions: discord.Permissions
    position: int = 0
    managed: bool = False
    color: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions.value),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.managed:
            data["tags"] = {"bot_id": str(self.guild.fake_bot_id)}
        return data

    @property
    def mention(self) -> str:
        """``<@&id>``."""
        return f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild (roles, nick, join time)."""

    user: FakeUser
    guild: "FakeGuild"
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: _dt.datetime = field(default_factory=utcnow)

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    @property
    def name(self) -> str:
        """The user's name."""
        return self.user.name

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return self.user.mention

    @property
    def permissions(self) -> discord.Permissions:
        """Guild-level permissions: owner/administrator → all, else @everyone | roles."""
        if self.guild.owner_id == self.user.id:
            return discord.Permissions.all()
        value = self.guild.everyone.permissions.value
        for role in self.roles:
            value |= role.permissions.value
        perms = discord.Permissions(value)
        if perms.administrator:
            return discord.Permissions.all()
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        """The guild member object (optionally without ``user`` / with ``permissions``)."""
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions.value)
        return data

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.name} guild={self.guild.name!r}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild (server) with its roles, members, channels and threads."""

    id: int
    name: str
    owner_id: int
    fake_bot_id: int
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: list["FakeChannel"] = field(default_factory=list)
    created_at: _dt.datetime = field(default_factory=utcnow)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role."""
        return self.roles[0]

    @property
    def threads(self) -> list["FakeChannel"]:
        """Threads of this guild (archived ones too)."""
        return [c for c in self.channels if c.is_thread]

    def member(self, user: "FakeUser | FakeMember | int") -> FakeMember | None:
        """The membership of ``user`` here, if any."""
        return self.members.get(user_id(user))

    def role(self, name: str) -> FakeRole:
        """The role called ``name``."""
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(name)

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload (a full guild with roles, channels, active threads, members)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "preferred_locale": self.locale,
            "home_header": None,
            "widget_enabled": False,
            "widget_channel_id": None,
            "max_presences": None,
            "max_stage_video_channel_users": 50,
            "nsfw": False,
            "features": [],
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "soundboard_sounds": [],
            "joined_at": iso(self.created_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "max_members": 500000,
            "max_video_channel_users": 25,
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_progress_bar_enabled": False,
            "application_id": None,
            "incidents_data": None,
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


def user_id(obj: "FakeUser | FakeMember | int | str") -> int:
    """The user id of a user, a member or an id."""
    if isinstance(obj, (FakeUser, FakeMember)):
        return obj.id
    return int(obj)


# --------------------------------------------------------------------------- channels


@dataclass(eq=False)
class FakeChannel:
    """A text channel, a thread (``parent`` set) or a DM channel (``recipient`` set).

    ``messages`` holds every message ever posted here, in order, including
    deleted (``deleted=True``) and ephemeral ones; use
    :meth:`FakeDiscord.messages` for what a member of the public would see.
    """

    id: int
    type: int
    name: str | None
    guild: FakeGuild | None = None
    parent: "FakeChannel | None" = None
    recipient: FakeUser | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: _dt.datetime = field(default_factory=utcnow)
    created_at: _dt.datetime = field(default_factory=utcnow)
    thread_members: set[int] = field(default_factory=set)
    messages: list["FakeMessage"] = field(default_factory=list)
    #: permission overwrites (text channels; threads use their parent's)
    overwrites: list["Overwrite"] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        """Whether this is a DM channel."""
        return self.type == DM

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> int | None:
        """Id of the newest (non-ephemeral, undeleted) message."""
        for msg in reversed(self.messages):
            if not msg.deleted and not msg.ephemeral:
                return msg.id
        return None

    def payload(self) -> dict[str, Any]:
        """The channel object for this kind of channel."""
        last = self.last_message_id
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None if last is None else str(last),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "last_message_id": None if last is None else str(last),
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            assert self.parent is not None
            count = sum(1 for m in self.messages if not m.deleted and not m.ephemeral)
            data.update(
                parent_id=str(self.parent.id),
                owner_id=str(self.owner_id),
                message_count=count,
                total_message_sent=count,
                member_count=len(self.thread_members),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.archive_timestamp),
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": iso(self.created_at),
                },
                applied_tags=[],
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[o.payload() for o in self.overwrites],
                topic=self.topic,
                parent_id=None,
                default_auto_archive_duration=1440,
                default_thread_rate_limit_per_user=0,
            )
        return data

    def __repr__(self) -> str:
        kind = {GUILD_TEXT: "text", DM: "dm", PUBLIC_THREAD: "thread", PRIVATE_THREAD: "private-thread"}.get(self.type)
        return f"<FakeChannel {kind} {self.name or ''} id={self.id}>"


# --------------------------------------------------------------------------- messages


@dataclass(eq=False)
class FakeAttachment:
    """An uploaded file, served by the fake's CDN at :attr:`url`."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    #: CDN path, ``/attachments/{channel}/{id}/{filename}``
    path: str
    #: returns the fake's ``http://127.0.0.1:PORT`` (read late: attachments may be made before start)
    base: Callable[[], str]
    description: str | None = None
    ephemeral: bool = False

    @property
    def url(self) -> str:
        """Where the fake's CDN serves the bytes (also the ``proxy_url``)."""
        return self.base() + self.path

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        """The attachment object (with width/height for PNG/GIF images, like Discord)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        dims = image_size(self.data)
        if dims is not None:
            data["width"], data["height"] = dims
        if self.description is not None:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        return data

    def __repr__(self) -> str:
        return f"<FakeAttachment {self.filename} {self.size} bytes>"


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF from its header, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    return None


@dataclass(frozen=True)
class ComponentInfo:
    """One interactive component of a message, flattened out of its rows/containers."""

    type: int
    custom_id: str | None
    label: str | None
    style: int | None
    disabled: bool
    url: str | None
    raw: dict[str, Any]

    @property
    def is_button(self) -> bool:
        """Whether it is a button (type 2)."""
        return self.type == 2


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first (rows, containers, sections' accessories, labels)."""
    for comp in components:
        yield comp
        children = list(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        yield from walk_components(children)


def embed_payload(embed: dict[str, Any], attachments: list["FakeAttachment"]) -> dict[str, Any]:
    """An embed as Discord sends it back: ``type`` "rich", fields' ``inline``, and
    ``attachment://name`` URLs resolved to that attachment's CDN URL."""
    data = copy.deepcopy(embed)
    data.setdefault("type", "rich")
    for fld in data.get("fields") or []:
        fld.setdefault("inline", False)
    by_name = {a.filename: a for a in attachments}
    for part, key in (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"), ("footer", "icon_url")):
        obj = data.get(part)
        url = obj.get(key) if isinstance(obj, dict) else None
        if isinstance(url, str) and url.startswith("attachment://") and url[13:] in by_name:
            att = by_name[url[13:]]
            obj[key] = att.url
            obj["proxy_url" if key == "url" else "proxy_icon_url"] = att.url
    return data


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``components`` with Discord's numeric ``id`` on each (1, 2, … depth first, keeping given ones).

    Discord numbers every component of a message it stores and sends the ids back.
    """
    copies = copy.deepcopy(components)
    taken = {c["id"] for c in walk_components(copies) if isinstance(c.get("id"), int)}
    next_id = 1
    for comp in walk_components(copies):
        if not isinstance(comp.get("id"), int):
            while next_id in taken:
                next_id += 1
            comp["id"] = next_id
            taken.add(next_id)
    return copies


@dataclass(eq=False)
class FakeMessage:
    """A message; edits mutate it in place (older versions in :attr:`versions`)."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    allowed_mentions: dict[str, Any] | None = None
    mentions: list[FakeUser] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: "FakeInteraction | None" = None
    message_reference: dict[str, Any] | None = None
    visible_to: FakeUser | None = None
    created_at: _dt.datetime = field(default_factory=utcnow)
    edited_at: _dt.datetime | None = None
    deleted: bool = False
    thread: FakeChannel | None = None
    poll: dict[str, Any] | None = None
    nonce: str | int | None = None
    versions: list[dict[str, Any]] = field(default_factory=list)

    # ---- convenient views for tests

    @property
    def ephemeral(self) -> bool:
        """Whether only :attr:`visible_to` can see it (flag 64)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is still a deferred "Bot is thinking…" placeholder (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        """Attachments by filename → bytes."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def component_list(self) -> list[ComponentInfo]:
        """Interactive components (buttons, selects, text inputs), flattened."""
        out = []
        for comp in walk_components(self.components):
            if comp.get("type") in (2, 3, 4, 5, 6, 7, 8):
                out.append(
                    ComponentInfo(
                        type=comp["type"],
                        custom_id=comp.get("custom_id"),
                        label=comp.get("label"),
                        style=comp.get("style"),
                        disabled=bool(comp.get("disabled", False)),
                        url=comp.get("url"),
                        raw=comp,
                    )
                )
        return out

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of the interactive components, in order."""
        return [c.custom_id for c in self.component_list if c.custom_id]

    @property
    def buttons(self) -> list[ComponentInfo]:
        """Just the buttons."""
        return [c for c in self.component_list if c.is_button]

    def component(self, custom_id: str) -> ComponentInfo:
        """The component with this custom_id (KeyError if absent)."""
        for comp in self.component_list:
            if comp.custom_id == custom_id:
                return comp
        raise KeyError(f"no component with custom_id {custom_id!r} on message {self.id}; have {self.custom_ids}")

    def snapshot(self) -> dict[str, Any]:
        """A frozen copy of the user-visible state (used for :attr:`versions`)."""
        return {
            "content": self.content,
            "embeds": [dict(e) for e in self.embeds],
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    # ---- wire format

    def payload(self) -> dict[str, Any]:
        """The message object."""
        ch = self.channel
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(ch.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": [embed_payload(e, self.attachments) for e in self.embeds],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": numbered(self.components),
        }
        if ch.guild is not None:
            data["guild_id"] = str(ch.guild.id)
            member = ch.guild.member(self.author)
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
            data["interaction"] = self.interaction.legacy_metadata()
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if ch.is_thread:
            data["position"] = [m for m in ch.messages if not m.ephemeral].index(self) if not self.ephemeral else 0
        if self.poll is not None:
            data["poll"] = self.poll
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " deleted" if self.deleted else ""
        return f"<FakeMessage id={self.id} channel={self.channel.id}{extra} content={self.content[:40]!r}>"


# --------------------------------------------------------------------------- commands & requests


@dataclass(eq=False)
class FakeCommand:
    """An application command as synced by the bot (``payload`` is what we echoed back)."""

    id: int
    guild_id: int | None
    payload: dict[str, Any]

    @property
    def name(self) -> str:
        """The command name."""
        return self.payload["name"]

    @property
    def type(self) -> int:
        """1 slash, 2 user, 3 message."""
        return self.payload.get("type", 1)

    @property
    def options(self) -> list[dict[str, Any]]:
        """Option definitions."""
        return self.payload.get("options") or []


@dataclass
class CommandSync:
    """One bulk overwrite (``PUT …/commands``) of a command scope."""

    guild_id: int | None
    names: list[str]
    at: float


@dataclass
class UploadedFile:
    """A ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes
    content_type: str | None


@dataclass(eq=False)
class RecordedRequest:
    """One HTTP request the bot made to the fake, with what the fake answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    at: float
    route: str | None = None
    status: int | None = None
    response: Any = None
    fault: bool = False
    #: the spec's operationId the request was matched to (None: not in the spec)
    operation: str | None = None

    @property
    def unknown(self) -> bool:
        """Whether no fake route matched (answered 404)."""
        return self.route is None

    @property
    def error_code(self) -> int | None:
        """Discord's JSON error code of the answer, if it was an error."""
        if isinstance(self.response, dict) and self.status is not None and self.status >= 400:
            return self.response.get("code")
        return None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status}>"



@dataclass
class Violation:
    """A request real Discord would refuse (400 Invalid Form Body…), or an answer of the fake
    that breaks the spec — either way a test that produced one must fail."""

    method: str
    path: str
    operation: str | None
    problems: list[str]
    fake_bug: bool = False  # the fake answered something the spec does not allow

    def __str__(self) -> str:
        who = "the fake's answer to" if self.fake_bug else "refused:"
        op = f" ({self.operation})" if self.operation else ""
        return f"{who} {self.method} {self.path}{op}: " + "; ".join(self.problems)
