"""Playing with taps: the controls under every board and the private Play panel.

Play opens an ephemeral panel for the player whose turn it is (built by
:mod:`bot.ui.components.panel_steps` from the engine's legal actions); each completed choice goes
through the same service call as ``/move``. Board, Takeback, Resign and Abort
sit beside it (Resign and Abort ask first). Only the newest board of a game
keeps its controls; a finished game's boards have none.

Every press is acknowledged before anything else is done (database, locks, pictures).
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial
from typing import TYPE_CHECKING, Any, AsyncIterator

import discord
from discord.ext import commands

from engine import ActionError

from ..i18n import Text, t
from ..i18n.text import Joined, Listed
from ..service import ActiveGame, Command, GameService, PlayResult, StaleChoice, UserError, position_version
from ..service.locks import KeyLocks
from ..ui import pictures, texts
from ..ui.answers import MISSING_PERMISSIONS, NO_MENTIONS, SORRY, HandledElsewhere, ack, answer, language, said
from ..ui.components import panel_steps
from ..ui.components.board import BoardButton, confirm_view
from ..ui.components.labels import localized
from ..ui.components.panel import PanelButton, PanelSelect, panel_view
from .lifecycle import ask_takeback
from .play import announce, post_position, secret_line

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)

OVER = t("This game is over — {history} lists it, {challenge} starts a new one.",
         history=texts.Shown(Command("history")), challenge=texts.Shown(Command("challenge")))
#: how many panels to remember as used (a second tap on a used panel is ignored, not refused)
_USED_PANELS = 512


class Controls(commands.Cog):
    """The buttons under boards, the Play panel and its choices."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot
        self._panel_locks = KeyLocks()
        #: panel message id → (the version a choice on it was played for, what the panel said then)
        self._used: dict[int, tuple[str, str]] = {}

    @property
    def service(self) -> GameService:
        """The bot's game service."""
        return self.bot.service

    async def cog_load(self) -> None:
        """Register the controls, so presses on messages from before a restart work too."""
        buttons = self.bot.button_handlers
        buttons.register(self.bot, BoardButton, self.board_press)
        buttons.register(self.bot, PanelButton, self.panel_press)
        buttons.register(self.bot, PanelSelect, self.panel_press)

    async def cog_unload(self) -> None:
        """Unregister the controls."""
        self.bot.button_handlers.unregister(BoardButton, PanelButton, PanelSelect)

    # -- presses on a board ------------------------------------------------------------
    async def board_press(self, interaction: discord.Interaction, button: BoardButton) -> None:
        """A board control (or a Resign/Abort confirmation) was pressed."""
        game_id, n, act = button.game_id, button.n, button.act
        async with self._answering_failures(interaction, f"board control {act} of game {game_id}"):
            await self._board_press(interaction, game_id, n, act)

    async def _board_press(self, interaction: discord.Interaction, game_id: int, n: int, act: str) -> None:
        if act in ("takeback", "board"):
            # The answer may be public (a takeback request, the board) or private (a refusal, a game that
            # ended): acknowledge without a "thinking…" message, so each answer is a new message with its
            # own visibility and nothing private ever fills a public placeholder.
            await ack(interaction, silent=True)
        if act == "takeback":
            await self._takeback(interaction, game_id, n)
            return
        if act == "board":
            g = await self.service.game(game_id)
            if g is None or g.row.status != "active":
                await self._say(interaction, OVER)
                return
            await post_position(self.bot, interaction, g)
            return
        in_place = _on_ephemeral(interaction)
        # A press inside a private panel edits it in place; on a public board the answer is a private message.
        await ack(interaction, silent=in_place, private=not in_place)
        g = await self.service.game(game_id)
        if g is None or g.row.status != "active":
            await self._say(interaction, OVER)
            return
        colour = g.colour_of(interaction.user.id)
        if colour is None:
            players = Listed([f"<@{u}>" for u in g.row.seats])
            await self._say(interaction, t("Only {players} play in this game; start your own with {challenge}.",
                                           players=players, challenge=texts.Shown(Command("challenge"))))
            return
        if act == "play":
            await self._open_panel(interaction, g, colour)
        elif act in ("resign", "abort"):
            what = t("Resign? Your opponent wins the game.") if act == "resign" else \
                t("Abort? The game ends with no result and no rating change (only while it has barely started).")
            await self._say(interaction, t("Game #{id}: {what}", id=g.row.id, what=what), view=confirm_view(game_id, n, act))
        elif act == "keep":
            await self._say(interaction, t("Nothing changed — play on."))
        elif act in ("resign!", "abort!"):
            await self._end(interaction, g, act[:-1])

    async def _open_panel(self, interaction: discord.Interaction, g: ActiveGame, colour: str,
                          note: str | Text = "") -> None:
        """Show the panel's first step, or why there is none."""
        pos = g.position
        if colour not in pos.to_move:
            if pos.choosing_in_secret():
                why = t("You have already chosen your cards; waiting for your opponent to choose.")
            else:
                why = t("It's not your turn — waiting for {players}.", players=Listed([f"<@{u}>" for u in g.users_to_move()]))
            await self._say(interaction, Joined([note, why], "\n") if note else why)
            return
        step = panel_steps.panel(pos, colour, ())
        assert isinstance(step, panel_steps.Step)  # an empty path never completes an action
        await self._show(interaction, g, position_version(g.row.id, pos), step, note)

    async def _show(self, interaction: discord.Interaction, g: ActiveGame, version: str, step: panel_steps.Step,
                    note: str | Text = "") -> None:
        """Show a panel step, with a picture of the position when the step points at cells."""
        picture = None
        speaks = await language(interaction, private=True)
        if step.preview is not None:
            names = await self.service.names(g.row.guild_id, g.row.seats)
            picture = await pictures.board_file(g.position, texts.colour_names(g, names), "preview.png",
                                              chosen=step.preview.chosen, choices=step.preview.choices,
                                              language=speaks)
        await self._say(interaction, Joined([note, step.text], "\n") if note else step.text,
                        view=panel_view(g.row.id, version, step, speaks), picture=picture)

    async def _takeback(self, interaction: discord.Interaction, game_id: int, n: int) -> None:
        """Takeback under a board (already acknowledged): refused privately, or asked like ``/takeback``."""
        g = await self.service.game(game_id)
        if g is None or g.row.status != "active":
            await self._say(interaction, OVER)
            return
        if len(g.position.public_record()) != n:
            await self._say(interaction, t("The game has moved on since this board: a takeback undoes the last turn "
                                           "only. Use the newest board's Takeback or {takeback}.",
                                           takeback=texts.Shown(Command("takeback"))))
            return
        await ask_takeback(self.bot, interaction)

    async def _end(self, interaction: discord.Interaction, g: ActiveGame, act: str) -> None:
        """A confirmed Resign or Abort: the same service calls as ``/resign`` and ``/abort``."""
        if act == "resign":
            result = await self.service.resign(g.row.channel_id, interaction.user.id)
        else:
            await self.service.abort(g.row.channel_id, interaction.user.id)
        await self._say(interaction, t("You resigned game #{id}.", id=g.row.id) if act == "resign"
                        else t("You aborted game #{id}.", id=g.row.id))
        if act == "resign":
            names = partial(self.service.names, result.game.row.guild_id, result.game.row.seats)
            await self.bot.boards.reply_with_result(interaction, result, names, self.bot.clock.now())
            return
        self.bot.dispatch("game_closed", g.row.id)
        await answer(
            interaction, t("Game #{id} was aborted by **{name}**: no result, no rating change.", id=g.row.id,
                           name=texts.clean(interaction.user.display_name)), allowed_mentions=NO_MENTIONS)

    # -- presses in a panel ------------------------------------------------------------
    async def panel_press(self, interaction: discord.Interaction, item: PanelButton | PanelSelect) -> None:
        """A choice in a Play panel: the next step, or the action played through the service."""
        game_id, version, path = item.game_id, item.version, item.chosen(interaction)
        await ack(interaction, silent=True)
        key = interaction.message.id if interaction.message else interaction.id
        async with self._answering_failures(interaction, f"panel choice {path} of game {game_id}"):
            async with self._panel_locks.lock(key):  # two taps on one panel: one after the other
                await self._panel_press(interaction, key, game_id, version, path)

    async def _panel_press(self, interaction: discord.Interaction, key: int, game_id: int, version: str,
                           path: tuple[str, ...]) -> None:
        used = self._used.get(key)
        if used is not None and used[0] == version:
            # A second tap on a choice already played: it applied once; the panel keeps saying so.
            await self._say(interaction, used[1])
            return
        g = await self.service.game(game_id)
        if g is None or g.row.status != "active":
            await self._say(interaction, OVER)
            return
        colour = g.colour_of(interaction.user.id)
        if colour is None:
            await self._say(interaction, t("You are not playing in this game."))
            return
        stale = t("That panel is out of date (the game has moved on since) — nothing was played.")
        if position_version(game_id, g.position) != version:
            await self._open_panel(interaction, g, colour, note=stale)
            return
        try:
            step = panel_steps.panel(g.position, colour, path)
        except panel_steps.PanelError:
            await self._open_panel(interaction, g, colour, note=t("That choice is not available now."))
            return
        if isinstance(step, panel_steps.Step):
            await self._show(interaction, g, version, step)
            return
        try:
            result = await self.service.play(g.row.channel_id, interaction.user.id, step.action, version=version)
        except StaleChoice:
            fresh = await self.service.game(game_id)
            if fresh is None or fresh.row.status != "active":
                await self._say(interaction, OVER)
            else:
                await self._open_panel(interaction, fresh, colour, note=stale)
            return
        except ActionError as exc:
            await self._say(interaction, texts.engine_reason(exc))
            return
        said = await self._after_play(interaction, result, colour)
        self._remember_used(key, version, said)

    async def _after_play(self, interaction: discord.Interaction, result: PlayResult, colour: str) -> str:
        """Tell the player privately (and the next step of the same turn), then post the board;
        return what the panel says now."""
        said = secret_line(result) if result.secret else t("Played **{actions}**.", actions=" ".join(result.actions))
        pos = result.game.position
        if not result.secret and colour in pos.to_move and pos.outcome is None:
            # The same player acts again (an inpHeXion relocation, a second letter): the next step right here.
            await self._open_panel(interaction, result.game, colour, note=said)
        else:
            await self._say(interaction, said)
        await announce(self.bot, interaction, result)
        return said

    def _remember_used(self, key: int, version: str, said: str) -> None:
        self._used[key] = (version, said)
        while len(self._used) > _USED_PANELS:
            self._used.pop(next(iter(self._used)))

    # -- only the newest board keeps its controls -----------------------------------------
    @commands.Cog.listener()
    async def on_game_closed(self, game_id: int) -> None:
        """A game ended without a board (aborted): its last board loses its controls."""
        await self.bot.boards.closed(game_id)

    # -- answering ---------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _answering_failures(self, interaction: discord.Interaction, what: str) -> AsyncIterator[None]:
        """Answer a refusal or an unexpected error of the block in place of the panel or
        confirmation (as :meth:`_say` does), where ``registry.guarded`` would send a new reply."""
        try:
            yield
        except HandledElsewhere:
            raise  # another process answers this press (registry.guarded drops it)
        except UserError as exc:
            await self._say(interaction, texts.refusal(exc, await language(interaction, private=True)))
        except Exception:
            log.exception("%s failed", what)
            await self._say(interaction, SORRY)

    async def _say(self, interaction: discord.Interaction, text: str | Text, view: discord.ui.View | None = None,
                   picture: discord.File | None = None) -> None:
        """Answer privately: replace the panel / confirmation in place (its picture too, or
        none), or fill the private reply."""
        try:
            try:
                await self._private(interaction, text, view, picture)
            except discord.HTTPException as exc:
                if picture is None or exc.code != MISSING_PERMISSIONS:
                    raise
                # No Attach Files here: the panel still works, in words and buttons.
                await self._private(interaction, text, view, None)
        except discord.HTTPException:
            log.warning("could not answer a control press", exc_info=True)

    @staticmethod
    async def _private(interaction: discord.Interaction, text: str | Text, view: discord.ui.View | None,
                       picture: discord.File | None) -> None:
        text = await said(interaction, text, private=True) or ""
        if view is not None:
            view = localized(view, await language(interaction, private=True))
        if interaction.response.is_done() and _on_ephemeral(interaction):
            await interaction.edit_original_response(content=text, view=view, allowed_mentions=NO_MENTIONS,
                                                     attachments=[picture] if picture is not None else [])
        else:
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if picture is not None:
                extra["file"] = picture
            await answer(interaction, text, private=True, allowed_mentions=NO_MENTIONS, **extra)


def _on_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether the press came from a private message (a panel or a confirmation)."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Controls(bot))
