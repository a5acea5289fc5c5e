"""Channel permissions as Discord computes them: guild roles, then the channel's
permission overwrites (@everyone, the member's roles, the member), threads
inheriting from their parent channel.

Discord's algorithm ("Permission Overwrites" in the permissions topic):
base = @everyone | every role of the member (owner or administrator: all);
then ``base &= ~everyone.deny; base |= everyone.allow``; then the member's
role overwrites combined (``deny`` of all of them, then ``allow`` of all);
then the member's own overwrite. Implicit rules: without View Channel nothing
else applies, and without Send Messages in a text channel the permissions
that only make sense when sending (Attach Files, Embed Links, Mention
Everyone, Send TTS) are gone too (in a thread: without Send Messages in
Threads).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:  # pragma: no cover
    from .models import FakeChannel, FakeMember, FakeRole

ROLE, MEMBER = 0, 1  # overwrite target types

#: gone when Send Messages is denied in a text channel (Discord's implicit denial)
_SEND_DEPENDENT = (discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True,
                                       send_tts_messages=True)).value


@dataclass
class Overwrite:
    """One permission overwrite of a channel: a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        """The overwrite object (``allow``/``deny`` as strings, like Discord)."""
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


def permission_bits(names: Iterable[str] | int | discord.Permissions) -> int:
    """Permission names (``["attach_files"]``), an int or :class:`discord.Permissions` as bits."""
    if isinstance(names, discord.Permissions):
        return names.value
    if isinstance(names, int):
        return names
    perms = discord.Permissions.none()
    for name in names:
        if not hasattr(perms, name):
            raise ValueError(f"unknown permission name {name!r}")
        setattr(perms, name, True)
    return perms.value


def channel_permissions(member: FakeMember, channel: FakeChannel) -> discord.Permissions:
    """What ``member`` may do in ``channel`` (a thread uses its parent's overwrites)."""
    base = member.permissions
    if base.administrator or base.value == discord.Permissions.all().value:
        return discord.Permissions.all()
    source = channel.parent if channel.is_thread and channel.parent is not None else channel
    value = base.value
    overwrites = {o.id: o for o in source.overwrites}
    assert channel.guild is not None
    everyone = overwrites.get(channel.guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    roles: list[FakeRole] = list(member.roles)
    allow = deny = 0
    for role in roles:
        ow = overwrites.get(role.id)
        if ow is not None and ow.type == ROLE:
            allow |= ow.allow
            deny |= ow.deny
    value = (value & ~deny) | allow
    own = overwrites.get(member.id)
    if own is not None and own.type == MEMBER:
        value = (value & ~own.deny) | own.allow
    perms = discord.Permissions(value)
    if not perms.view_channel:
        return discord.Permissions.none()
    if not (perms.send_messages_in_threads if channel.is_thread else perms.send_messages):
        perms = discord.Permissions(perms.value & ~_SEND_DEPENDENT)
    return perms

