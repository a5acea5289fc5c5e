"""Answering an interaction: acknowledge at once, then answer with the visibility the answer needs.

Discord's rules this module keeps (``tests/fake_discord`` models each one):

- The first response must arrive within 3 s of the click or command, so every
  command and button calls :func:`ack` before it waits for a lock, the
  database or a drawing.
- After a "thinking…" defer the first follow-up *fills* that message and keeps
  its visibility (an ephemeral flag is ignored). So :func:`answer` deletes a
  public thinking message before a private answer (and a private one before a
  public answer): private stays private.
- The interaction's token lasts 15 minutes (and is unusable if the
  acknowledgement came too late): a public answer is then posted in the
  channel instead, as it is when Discord keeps answering 429 or 5xx after
  discord.py's retries; a private one is only logged (in the channel it would
  be public).
- An interaction is acknowledged once. During a reshard Discord may deliver
  one interaction to two processes; the one whose acknowledgement is refused
  with 40060 ("already acknowledged") drops it entirely: :func:`ack` raises
  :class:`HandledElsewhere` before any lock or database work, and
  :func:`answer` stays silent for it. The process that acknowledged it does
  the work and answers, so the user sees one answer and the action applies once.
  Except when this process's own first attempt got a 5xx (discord.py then
  retried it): a 5xx can come after Discord did the work, so the 40060 is our
  own acknowledgement and the work goes on (:class:`CallbackErrors`
  counts those 5xx answers).
- Files and embeds need Attach Files and Embed Links in the channel. When they
  are missing, the public answer goes out as text and the user gets one
  private line naming the permission and the channel (see :mod:`.access`).
"""

from __future__ import annotations

import collections
import io
import logging
import re
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

from .. import access
from ..i18n import SOURCE, Text, render, t
from ..service import UserError
from . import texts

log = logging.getLogger(__name__)

#: ``interaction.extras`` key: "public"/"private" while a thinking message waits to be filled
THINKING = "hexcord.thinking"
#: ``interaction.extras`` key: set once :func:`ack` was tried
TRIED = "hexcord.ack_tried"
#: ``interaction.extras`` key: set when the acknowledgement itself failed
UNACKNOWLEDGED = "hexcord.unacknowledged"
#: Discord's codes for an interaction that can no longer be answered through its token
GONE = {10062, 10015, 50027}
MISSING_PERMISSIONS = 50013
#: Discord's code for a second acknowledgement: another process (or an earlier attempt) answered it
ALREADY_ACKNOWLEDGED = 40060
#: ``interaction.extras`` key: set when another process acknowledged the interaction first
ELSEWHERE = "hexcord.handled_elsewhere"


#: ``interaction.extras`` key: the acknowledgement failed with 5xx, so it may have gone through; (update, private)
ACK_UNSURE = "hexcord.ack_unsure"
#: an interaction's initial-response route: ``/interactions/{id}/{token}/callback``
#: only the people a message names may be pinged — never @everyone or roles
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
#: the answer to anything that failed on our side
SORRY = t("Sorry — something went wrong on my side. Nothing you did caused it; `/board` shows the current game.")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


class CallbackErrors:
    """How many server errors (5xx) the initial-response requests of recent interactions got, as
    an aiohttp trace sees them: pass :meth:`trace` as ``Client(http_trace=…)``, one per bot.

    discord.py retries a 5xx; if the failed attempt had in fact gone through, the retry meets
    40060 ("already acknowledged"), which must not be taken for another process's answer.
    """

    def __init__(self, remembered: int = 10_000) -> None:
        # an interaction's retries all happen within seconds: the newest ids are enough
        self._counts: collections.OrderedDict[int, int] = collections.OrderedDict()
        self._remembered = remembered

    def count(self, interaction_id: int) -> int:
        """How many 5xx answers this interaction's initial responses got so far."""
        return self._counts.get(interaction_id, 0)

    def trace(self) -> aiohttp.TraceConfig:
        """The trace that does the counting."""

        async def on_request_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                                 params: aiohttp.TraceRequestEndParams) -> None:
            if params.method != "POST" or params.response.status < 500:
                return
            found = _CALLBACK.search(params.url.path)
            if found is not None:
                key = int(found.group(1))
                self._counts[key] = self._counts.get(key, 0) + 1
                while len(self._counts) > self._remembered:
                    self._counts.popitem(last=False)

        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(on_request_end)
        return trace


def _server_errors(interaction: discord.Interaction) -> int:
    """The 5xx answers this interaction's initial responses got (0 when the bot does not count them)."""
    errors = getattr(interaction.client, "callback_errors", None)
    return errors.count(interaction.id) if isinstance(errors, CallbackErrors) else 0


class HandledElsewhere(Exception):
    """Another process acknowledged this interaction first and handles it: this one does nothing more.

    Raised by :func:`ack`; the command tree's error handler and the buttons' guards drop it silently.
    """

    def __init__(self, interaction_id: int) -> None:
        super().__init__(f"interaction {interaction_id} was acknowledged by another process")


async def ack(interaction: discord.Interaction, *, private: bool = False, silent: bool = False) -> None:
    """Acknowledge now; the answer follows with :func:`answer`.

    ``private``: the answer will be ephemeral ("thinking…" only the user sees).
    ``silent``: a button whose answer edits its own message, or whose answers are new
    messages each with its own visibility (no thinking message).
    A failed acknowledgement is logged, not raised: the work still happens; the
    answer then tries the initial response itself, or goes to the channel when
    Discord says the interaction is gone (too late). Except when Discord says it
    was acknowledged already (40060): another process got it too and answers it,
    so this one raises :class:`HandledElsewhere` and must do nothing at all.
    """
    if interaction.extras.get(ELSEWHERE):
        raise HandledElsewhere(interaction.id)
    if interaction.response.is_done() or interaction.extras.get(TRIED):
        return
    interaction.extras[TRIED] = True  # one acknowledgement: discord.py already retried it
    update = silent and interaction.type is discord.InteractionType.component
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=private)
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED and _server_errors(interaction):
            # Our own first attempt got a 5xx yet went through: the acknowledgement is ours.
            log.warning("interaction %d: acknowledged by an attempt that got a server error", interaction.id)
            _acknowledged(interaction, update, private)
            return
        if exc.code == ALREADY_ACKNOWLEDGED:
            _elsewhere(interaction)
            raise HandledElsewhere(interaction.id) from None
        # Too late (10062) and the interaction is gone; otherwise the answer itself may still get through.
        if exc.code in GONE:
            interaction.extras[UNACKNOWLEDGED] = True
        elif exc.status >= 500:
            interaction.extras[ACK_UNSURE] = (update, private)  # see answer(): it may have gone through
        log.error("interaction %d: could not acknowledge: %s", interaction.id, exc)
        return
    _acknowledged(interaction, update, private)


def _acknowledged(interaction: discord.Interaction, update: bool, private: bool) -> None:
    """Record what kind of acknowledgement the interaction has, for :func:`answer`."""
    interaction.extras[THINKING] = None if update else "private" if private else "public"
    if not interaction.response.is_done():
        # discord.py marks the response done only when it saw the acknowledgement succeed; this
        # one succeeded on an attempt that reported a 5xx (private attribute: no public setter).
        interaction.response._response_type = (discord.InteractionResponseType.deferred_message_update if update
                                                else discord.InteractionResponseType.deferred_channel_message)


async def language(interaction: discord.Interaction, private: bool) -> str:
    """The language of an answer to ``interaction``: the member's when private, the server's when
    public (see :mod:`.languages`); English for a client without them."""
    languages = getattr(interaction.client, "languages", None)
    return SOURCE if languages is None else await languages.of(interaction, private)


async def said(interaction: discord.Interaction, content: str | Text | None, private: bool) -> str | None:
    """``content`` in the language of the answer (a plain string stays as it is)."""
    if content is None or not hasattr(content, "said_in"):
        return content
    return render(content, await language(interaction, private))


async def answer(interaction: discord.Interaction, content: str | Text | None = None, *, private: bool = False,
                 **kwargs: Any) -> discord.Message | None:
    """Send the answer (``content``, ``embed``, ``file``, ``view``, ``allowed_mentions``…) as the user should see it.

    A :class:`~bot.i18n.Text` is said in the answer's language (:func:`language`).
    Returns the message when Discord tells which it is (follow-ups and channel posts).
    Nothing is sent for an interaction another process acknowledged first.
    """
    if interaction.extras.get(ELSEWHERE):
        return None
    content = await said(interaction, content, private)
    if interaction.extras.get(UNACKNOWLEDGED) or (interaction.response.is_done() and interaction.is_expired()):
        return await _in_channel(interaction, content, private, kwargs, "token unusable")
    files = _keep_files(kwargs)
    errors_before = _server_errors(interaction)
    try:
        return await _send(interaction, content, private, kwargs)
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED and not interaction.response.is_done():
            if _server_errors(interaction) > errors_before:
                # This answer got a 5xx yet went through (discord.py's retry met it): it was delivered.
                interaction.response._response_type = discord.InteractionResponseType.channel_message
                return None
            unsure = interaction.extras.pop(ACK_UNSURE, None)
            if unsure is not None:
                # The acknowledgement that kept getting 5xx had gone through: answer as its follow-up.
                _acknowledged(interaction, *unsure)
                return await _send(interaction, content, private, _fresh(kwargs, files))
            _elsewhere(interaction)  # answered without acknowledging first, and another process was quicker
            return None
        if exc.code == MISSING_PERMISSIONS and not private:
            return await _without_pictures(interaction, content, kwargs)
        if exc.code in GONE or exc.status == 429 or exc.status >= 500:
            # Gone, or Discord kept refusing after discord.py's retries: the channel still shows a public answer.
            return await _in_channel(interaction, content, private, _fresh(kwargs, files), f"{exc.status} {exc.code}")
        raise


async def answer_privately(interaction: discord.Interaction, content: str | Text,
                           mentions: discord.AllowedMentions | None = None) -> None:
    """A short private answer (refusals, errors); never raises for Discord's sake. Pings nobody by default."""
    content = await said(interaction, content, True) or ""
    try:
        await answer(interaction, content, private=True, allowed_mentions=mentions or discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        # Never the text itself: a private answer may hold what only its reader may know (a secret
        # Blind Hex choice), and logs are read by others.
        log.warning("could not answer user %d privately (%d characters): %s", interaction.user.id, len(content), exc)


async def reply_privately(
    interaction: discord.Interaction, message: str | Text, mentions: discord.AllowedMentions = NO_MENTIONS
) -> None:
    """Answer with an ephemeral message, whether or not the interaction was acknowledged (publicly or not) already."""
    await answer_privately(interaction, message, mentions)


async def refuse(interaction: discord.Interaction, error: UserError) -> None:
    """The one answer to a refused request: a private message saying what is wrong (changes nothing).

    Called by the command tree's error handler and the components' (``registry.guarded``), so
    commands and buttons just let the service's :class:`UserError` propagate.
    """
    await reply_privately(interaction, texts.refusal(error, await language(interaction, private=True)))


def _elsewhere(interaction: discord.Interaction) -> None:
    """Remember that another process acknowledged this interaction: nothing more goes out for it here."""
    interaction.extras[ELSEWHERE] = True
    log.info("interaction %d: acknowledged by another process; dropped here", interaction.id)


async def _send(interaction: discord.Interaction, content: str | None, private: bool,
                kwargs: dict[str, Any]) -> discord.Message | None:
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=private, **kwargs)
        return None
    thinking = interaction.extras.get(THINKING)
    if thinking is not None and thinking != ("private" if private else "public"):
        # The first follow-up would fill the thinking message and take *its* visibility.
        await interaction.delete_original_response()
        interaction.extras[THINKING] = None
    message = await interaction.followup.send(content, ephemeral=private, wait=True, **kwargs)  # type: ignore[call-overload]
    interaction.extras[THINKING] = None
    return message


async def _without_pictures(interaction: discord.Interaction, content: str | None,
                            kwargs: dict[str, Any]) -> discord.Message | None:
    """Discord refused the files/embeds: answer in text, and tell the user privately what is missing."""
    names = access.lacking(interaction.app_permissions, access.needed_for(kwargs, channel_post=False)) or \
        access.needed_for(kwargs, channel_post=False)
    text = _as_text(content, kwargs)
    allowed = kwargs.get("allowed_mentions", discord.AllowedMentions.none())
    log.warning("interaction %d: missing %s in channel %s", interaction.id, names, interaction.channel_id)
    message = await answer(interaction, text, allowed_mentions=allowed)
    await answer_privately(interaction, access.missing_line(names, interaction.channel_id or 0))
    return message


async def _in_channel(interaction: discord.Interaction, content: str | None, private: bool, kwargs: dict[str, Any],
                      why: str) -> discord.Message | None:
    """The interaction's token is no good any more: a public answer goes to the channel."""
    if private or interaction.channel is None:
        # Not its text: a private answer may hold a secret (see answer_privately).
        log.warning("interaction %d: private answer lost with its token (%s)", interaction.id, why)
        return None
    log.info("interaction %d: token unusable (%s); answering in the channel", interaction.id, why)
    try:
        return await interaction.channel.send(content, **kwargs)  # type: ignore[union-attr]
    except discord.HTTPException as exc:
        log.error("interaction %d: the answer could not go to channel %s either: %s",
                  interaction.id, interaction.channel_id, exc)
        return None


def _as_text(content: str | None, kwargs: dict[str, Any]) -> str:
    """The answer without pictures: its text and its embed's title and description."""
    parts = [content or ""]
    for embed in ([kwargs["embed"]] if kwargs.get("embed") else []) + list(kwargs.get("embeds") or []):
        parts += [embed.title or "", embed.description or ""]
    return "\n".join(p for p in parts if p)[:2000] or "(no text)"


def _keep_files(kwargs: dict[str, Any]) -> list[tuple[str, bytes]]:
    """The bytes of the answer's files (a failed send closes them; a retry in the channel needs new ones)."""
    out = []
    for f in ([kwargs["file"]] if kwargs.get("file") else []) + list(kwargs.get("files") or []):
        pos = f.fp.tell()
        out.append((f.filename, f.fp.read()))
        f.fp.seek(pos)
    return out


def _fresh(kwargs: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
    new = {k: v for k, v in kwargs.items() if k not in ("file", "files")}
    if files:
        new["files"] = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
    return new

