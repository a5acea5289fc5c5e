"""Which of a server's games a member may see: those in channels they can view, and their own.

Discord decides who sees a channel (View Channel, from the member's roles and the channel's
permission overwrites; a thread by its parent channel). The bot works that out for the
member who invokes a command without any privileged intent: the interaction carries the
member's roles, and the gateway's cache holds the server's roles, channels and their
overwrites (``GuildChannel.permissions_for`` applies Discord's rules to them).
"""

from __future__ import annotations

import discord

from ..store import Sight


def sight_of(interaction: discord.Interaction) -> Sight:
    """What the member behind ``interaction`` may see of its server's games.

    Without the server in the cache (an outage) nothing can be checked: they see their own games only.
    """
    user, guild = interaction.user, interaction.guild
    if guild is None or not isinstance(user, discord.Member) or guild.unavailable:
        return Sight(user.id, frozenset())
    channels = {c.id for c in guild.channels if c.permissions_for(user).view_channel}
    # A thread is seen by whoever sees its parent (games in a thread opened by a player hold the thread's id).
    channels.update(t.id for t in guild.threads if t.parent_id in channels)
    return Sight(user.id, frozenset(channels))
