"""What the bot needs in a channel to show games, and how to say what it lacks.

Discord refuses a post with 403 (50013 Missing Permissions) when the bot lacks
Send Messages (Send Messages in Threads in a thread), Attach Files (the board
picture), Embed Links (the board's caption) or Create Public Threads (a game
in its own thread). Channel overwrites can take any of these away in one
channel only, so the bot checks the permissions Discord computed for the
channel (``interaction.app_permissions`` or ``channel.permissions_for``).
"""

from __future__ import annotations

from typing import Any

import discord

from .i18n import Text, t, tc, tn
from .i18n.text import Listed

#: permission attribute → the name a server manager sees in Discord's settings
LABELS = {
    "view_channel": tc("permission", "View Channel"),
    "send_messages": tc("permission", "Send Messages"),
    "send_messages_in_threads": tc("permission", "Send Messages in Threads"),
    "attach_files": tc("permission", "Attach Files"),
    "embed_links": tc("permission", "Embed Links"),
    "create_public_threads": tc("permission", "Create Public Threads"),
}


def needed(*, thread: bool = False, files: bool = True, embeds: bool = True, make_threads: bool = False) -> list[str]:
    """The permissions a post of this kind needs (attribute names, in :data:`LABELS` order)."""
    names = ["view_channel", "send_messages_in_threads" if thread else "send_messages"]
    if files:
        names.append("attach_files")
    if embeds:
        names.append("embed_links")
    if make_threads:
        names.append("create_public_threads")
    return names


def needed_for(kwargs: dict[str, Any], *, thread: bool = False, channel_post: bool = True) -> list[str]:
    """The permissions sending ``kwargs`` (``content``/``file``/``embed``…) needs.

    An interaction's own answer needs no Send Messages (``channel_post=False``).
    """
    files = bool(kwargs.get("file") or kwargs.get("files"))
    embeds = bool(kwargs.get("embed") or kwargs.get("embeds"))
    names = needed(thread=thread, files=files, embeds=embeds)
    return names if channel_post else [n for n in names if n in ("attach_files", "embed_links")]


def lacking(perms: discord.Permissions, names: list[str]) -> list[str]:
    """Which of ``names`` ``perms`` does not grant."""
    return [name for name in names if not getattr(perms, name)]


def listed(names: list[str]) -> Listed:
    """``**Attach Files** and **Embed Links**`` (as each language names them and lists things)."""
    return Listed([t("**{permission}**", permission=LABELS.get(n, n)) for n in names])


AFTER_BOARD = t("Nothing is lost — a server manager can allow it in the channel's settings, then `/board` shows the game.")


def missing_line(names: list[str], channel_id: int) -> Text:
    """One private line for the player: that the bot could not show the board, where, which permission
    it lacks, what next."""
    return tn("I can't show the board in <#{channel}>: I'm missing the {permissions} permission there. {after}",
              "I can't show the board in <#{channel}>: I'm missing the {permissions} permissions there. {after}",
              len(names), channel=channel_id, permissions=listed(names), after=AFTER_BOARD)


def settings_line(perms: discord.Permissions, channel_id: int, *, thread: bool) -> Text:
    """For ``/settings``: what the bot lacks in this channel for games, or that it has it all."""
    names = lacking(perms, needed(thread=thread, make_threads=not thread))
    if not names:
        return t("In {channel} I have every permission games need.", channel=f"<#{channel_id}>")
    return t("In {channel} I'm missing {permissions} — games here can't be shown fully until a manager allows it.",
             channel=f"<#{channel_id}>", permissions=listed(names))
