"""The Discord application: a ``commands.Bot`` that wires store, service, timers and cogs."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .ai import BotAI
from .config import Settings
from .i18n import t
from .i18n.commands import CommandTranslator
from .service import GameService, UserError
from .service.puzzle_play import PuzzlePlay
from .service.reviews import ReviewsService
from .store import Store
from .timing.clock import Clock, SystemClock
from .timing.timers import Timers
from .ui.answers import MENTION_USERS, SORRY, CallbackErrors, HandledElsewhere, refuse, reply_privately
from .ui.boards import LiveBoards
from .ui.components.registry import ButtonRegistry
from .ui.languages import Languages

log = logging.getLogger(__name__)

COGS = ("bot.cogs.challenges", "bot.cogs.play", "bot.cogs.info", "bot.cogs.lifecycle", "bot.cogs.opponent",
        "bot.cogs.controls", "bot.cogs.world", "bot.cogs.tournaments", "bot.cogs.review", "bot.cogs.language",
        "bot.cogs.puzzle")


class HexTree(app_commands.CommandTree):
    """The command tree, with the bot's one handler for what goes wrong in a command."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Hand the error to :meth:`HexBot.on_app_command_error`."""
        client = self.client
        assert isinstance(client, HexBot)
        await client.on_app_command_error(interaction, error)


class HexBot(commands.Bot):
    """The hex-games bot. ``clock`` and extra client options are injectable for tests.

    ``sync_only``: set up, sync the command tree and do nothing else (``python -m bot sync``).
    """

    def __init__(self, settings: Settings, *, clock: Clock | None = None, ai: BotAI | None = None,
                 sync_only: bool = False, **client_options: Any) -> None:
        if settings.shards is not None:
            client_options.setdefault("shard_count", settings.shards.count)
            if isinstance(self, discord.AutoShardedClient):
                client_options.setdefault("shard_ids", list(settings.shards.ids))
            else:  # one shard: a plain client identifies as [shard id, shard count]
                client_options.setdefault("shard_id", settings.shards.ids[0])
        #: 5xx answers to interaction callbacks, for telling our own acknowledgement from another process's
        self.callback_errors = CallbackErrors()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=MENTION_USERS,
            tree_cls=HexTree,
            http_trace=self.callback_errors.trace(),
            **client_options,
        )
        self.settings = settings
        self.sync_only = sync_only
        self.clock: Clock = clock or SystemClock()
        self.ai = ai or BotAI()
        self.store: Store
        self.service: GameService
        self.reviews: ReviewsService
        self.puzzles: PuzzlePlay
        self.timers: Timers
        #: posts boards and keeps the controls on each game's newest one
        self.boards: LiveBoards
        #: who is spoken to in which language (members' and servers' choices, Discord's locales)
        self.languages: Languages
        #: each persistent component class → the handler of the cog that registered it
        self.button_handlers = ButtonRegistry()

    async def setup_hook(self) -> None:
        """Open the database, load the cogs (each registers its buttons), start timers, sync commands if they changed."""
        self.store = await Store.open(self.settings.database_url)
        shared = self.store.dialect == "postgres"  # other processes may use the same database
        self.timers = Timers(self.store, self.clock, shards=self.settings.shards, shared=shared)
        self.service = GameService(self.store, clock=self.clock.now, schedule=self.timers.schedule)
        self.boards = LiveBoards(self, self.service)
        #: game reviews, made in the AI workers behind the moves (issue 48)
        self.reviews = ReviewsService(self.store, self.ai.when_idle, iterations=self.ai.review_iterations,
                                      clock=self.clock.now, owns=self.owns, shared=shared)
        # a game's end may have queued its review in the background: the maker looks at once
        self.service.on_game_end = self.reviews.wake
        #: the server's puzzles: set, answers checked in the AI workers, ratings (issue 48)
        self.puzzles = PuzzlePlay(self.store, self.ai.when_idle, iterations=self.ai.review_iterations,
                                  clock=self.clock.now)
        self.languages = Languages(self.service, self)
        await self.languages.load()
        await self.tree.set_translator(CommandTranslator())
        for cog in COGS:
            await self.load_extension(cog)
        if self.sync_only:
            await self.sync_commands_if_changed(force=True)
            return
        if self.settings.shards is None or 0 in self.settings.shards.ids:
            # One process syncs (the one with shard 0); the database lock keeps two that both
            # think so during a reshard from syncing at once.
            async with self.store.exclusive("sync-commands") as mine:
                if mine:
                    await self.sync_commands_if_changed()
        self.ai.start()
        self.timers.start()
        # Reviews a restart interrupted go on (those of this process's servers).
        await self.reviews.resume(self.owns)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard a server is on (its background work is ours)."""
        return self.settings.shards is None or self.settings.shards.owns(guild_id)

    async def sync_commands_if_changed(self, force: bool = False) -> bool:
        """Sync the command tree only when its definitions differ from the last sync (rate limits)."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # the payload as it is sent, translations included: a changed translation is a change
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator else c.to_dict(self.tree)
                   for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"commands:{guild.id if guild else 'global'}"
        if not force and await self.store.get_meta(key) == digest:
            log.info("commands unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info("synced %d commands (%s)", len(payload), key)
        return True

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A refusal gets its private answer; anything else is logged and the user told briefly, never with a traceback.

        An interaction another process acknowledged first is dropped without a word (that process answers it).
        """
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, HandledElsewhere):
            return
        if isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, UserError):
            await refuse(interaction, error.original)
            return
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            message = str(error) if isinstance(error, app_commands.CheckFailure) and str(error) else \
                t("That option value isn't valid here.")
            await reply_privately(interaction, message)
            return
        log.error("command %s failed", interaction.command and interaction.command.name, exc_info=error)
        await reply_privately(interaction, SORRY)

    @property
    def user_id(self) -> int:
        """This bot's own user id (known from login on, before any event is handled)."""
        assert self.user is not None
        return self.user.id

    async def messageable(self, channel_id: int) -> discord.abc.Messageable:
        """A channel or thread to post in, from the cache or fetched."""
        channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def close(self) -> None:
        """Stop timers and close the database, then disconnect."""
        if hasattr(self, "timers"):
            await self.timers.stop()
        if hasattr(self, "reviews"):
            await self.reviews.close()
        self.ai.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()


class ShardedHexBot(HexBot, commands.AutoShardedBot):
    """The bot running several shards (SHARD_IDS) in one process, one gateway connection each."""


def make_bot(settings: Settings, **options: Any) -> HexBot:
    """The bot for these settings: sharded when SHARD_COUNT / SHARD_IDS are set."""
    if settings.shards is not None and len(settings.shards.ids) > 1:
        return ShardedHexBot(settings, **options)
    return HexBot(settings, **options)
