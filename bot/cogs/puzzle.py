"""``/puzzle``: practice on the server's own missed wins (issue 48), privately.

``/puzzle`` sets a puzzle (``mine:true``: the member's own missed wins first, with spaced
repetition), framed "find the winning move", with a picture and the same tap panel as a game.
A typed answer is ``/puzzle answer:<move>``, not ``/move``: ``/move`` always means the game of
the channel it is typed in, so a member with a game there could not type a puzzle answer, and
one without would see ``/move`` answered by a puzzle they may have forgotten; the puzzle's own
command says what it acts on everywhere. Answers are checked by the search in the AI workers
(:mod:`bot.service.puzzle_play`), after the interaction is acknowledged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from ..i18n import Text, t, tn
from ..i18n.text import Joined
from ..service import GAME_TITLES, Command, Option
from ..service.puzzle_play import MAX_ANSWERS, Answered, Puzzle, cells, stale
from ..ui import pictures, texts
from ..ui.answers import NO_MENTIONS, ack, answer, language, said
from ..ui.components import panel_steps
from ..ui.components.labels import localized
from ..ui.components.puzzle import PuzzleButton, PuzzleSelect, puzzle_view
from ..ui.visibility import sight_of

if TYPE_CHECKING:
    from ..app import HexBot

log = logging.getLogger(__name__)


def frame(p: Puzzle) -> Text:
    """What the puzzle is: from which game, whose turn, the size; never the answer."""
    g = p.choice.game
    return t("**Puzzle** from game #{id} ({game} {size}×{size}, puzzle rating {rating}): you play **{colour}** "
             "and it is your turn — find the winning move.", id=g.id, game=GAME_TITLES[g.game], size=g.size,
             rating=round(p.choice.rating), colour=texts.COLOURS.get(p.solver, p.solver))


def typed_hint() -> Text:
    """How to answer without the panel."""
    # No example move: any cell named here could be the puzzle's answer.
    return t("Choose below, or type your move with {command} and its {option} option.",
             command=texts.Shown(Command("puzzle")), option=texts.Shown(Option("answer")))


def result_line(r: Answered) -> Text:
    """What an answer did, in one or two sentences."""
    played, reply = " ".join(r.played), " ".join(r.reply)
    if r.outcome == "partial":
        return t("Played **{move}**; your turn goes on.", move=played)
    if r.outcome == "next":
        return t("✅ **{move}** wins. Your opponent answers **{reply}** (on the board). Find the next winning move "
                 "({step} of {steps}).", move=played, reply=reply, step=r.puzzle.answered + 1, steps=MAX_ANSWERS)
    before, after = r.rating or (0.0, 0.0)
    if r.outcome == "solved":
        how = t("the rest of the win is proved by the computer's search") if r.rest_proven else t("the game is won")
        return t("🎉 Solved! **{move}** wins: {how}. Puzzle rating {before} → {after} · streak {streak}.",
                 move=played, how=how, before=round(before), after=round(after), streak=r.streak)
    back = tn("It comes back in {n} day.", "It comes back in {n} days.", r.back_in_days)
    if reply:
        return t("❌ **{move}** does not win: your opponent answers **{reply}** (on the board). Puzzle failed — "
                 "rating {before} → {after}. {back}", move=played, reply=reply, before=round(before),
                 after=round(after), back=back)
    return t("❌ **{move}** does not win. Puzzle failed — rating {before} → {after}. {back}",
             move=played, before=round(before), after=round(after), back=back)


class Puzzles(commands.Cog):
    """``/puzzle`` and its tap panel."""

    def __init__(self, bot: HexBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Answer the puzzle panels (also those posted before a restart)."""
        self.bot.button_handlers.register(self.bot, PuzzleButton, self.panel_press)
        self.bot.button_handlers.register(self.bot, PuzzleSelect, self.panel_press)

    async def cog_unload(self) -> None:
        """Stop answering them."""
        self.bot.button_handlers.unregister(PuzzleButton, PuzzleSelect)

    @app_commands.command(name="puzzle", description="Practice: find the winning move a player of this server missed")
    @app_commands.guild_only()
    @app_commands.describe(mine="your own missed wins first (failed puzzles come back after 1, 3 and 7 days)",
                           answer="your move in your open puzzle, as /move takes it (e.g. c3)")
    async def puzzle(self, interaction: discord.Interaction, mine: bool = False, answer: str | None = None) -> None:
        """A puzzle (or the open one again), or a typed answer to the open one; always private."""
        await ack(interaction, private=True)
        guild, user = interaction.guild_id or 0, interaction.user.id
        if answer is not None:
            result = await self.bot.puzzles.answer(guild, user, answer.strip()[:100])
            await self._show_result(interaction, result, in_place=False)
            return
        p, again = await self.bot.puzzles.puzzle(guild, user, sight_of(interaction), mine=mine)
        note = t("You have this puzzle open: answer it first.") if again else ""
        await self._show(interaction, p, note, in_place=False)

    # -- the panel -----------------------------------------------------------------------
    async def panel_press(self, interaction: discord.Interaction, item: PuzzleButton | PuzzleSelect) -> None:
        """A choice in a puzzle's panel: its next step, or the answer checked."""
        # A press on the private panel edits it in place; one on any other message (a client that
        # made the id up on a public one) is answered with a new private message, never in its place.
        in_place = interaction.message is not None and interaction.message.flags.ephemeral
        await ack(interaction, silent=in_place, private=not in_place)
        path = item.chosen(interaction)
        guild, user = interaction.guild_id or 0, interaction.user.id
        # A refusal (someone else's panel, a second tap, a panel of an earlier step or of a puzzle
        # that ended) goes up to the registry's guard: a new private line, and the panel's message
        # keeps what it says.
        p = await self.bot.puzzles.current(guild, user, item.attempt_id)
        if p.version != item.version:
            raise stale()
        try:
            step = panel_steps.panel(p.position, p.solver, path)
        except panel_steps.PanelError:
            await self._show(interaction, p, t("That choice is not available now."), in_place=in_place)
            return
        if isinstance(step, panel_steps.Step):
            await self._show(interaction, p, "", in_place=in_place, step=step)
            return
        result = await self.bot.puzzles.answer(guild, user, step.action, attempt_id=item.attempt_id,
                                               version=item.version)
        await self._show_result(interaction, result, in_place=in_place)

    # -- answering -------------------------------------------------------------------------
    async def _show(self, interaction: discord.Interaction, p: Puzzle, note: str | Text, *, in_place: bool,
                    step: panel_steps.Step | None = None, shown: tuple[int, ...] = ()) -> None:
        """The puzzle with its picture and the panel's step (the first when ``step`` is None)."""
        if step is None:
            first = panel_steps.panel(p.position, p.solver, ())
            assert isinstance(first, panel_steps.Step)  # an empty path never completes an action
            step = first
        chosen = step.preview.chosen if step.preview else shown
        choices = step.preview.choices if step.preview else ()
        text = Joined([x for x in (note, frame(p), step.text, typed_hint()) if x], "\n")
        view = puzzle_view(p.attempt.id, p.version, step, await language(interaction, private=True))
        await self._send(interaction, text, view,
                         await self._picture(interaction, p, chosen, choices), in_place)

    async def _show_result(self, interaction: discord.Interaction, r: Answered, *, in_place: bool) -> None:
        """What an answer did, and the next step when the puzzle goes on."""
        line = result_line(r)
        shown = cells(r.puzzle.position, r.reply)
        if r.outcome in ("partial", "next"):
            await self._show(interaction, r.puzzle, line, in_place=in_place, shown=shown)
            return
        await self._send(interaction, Joined([line, t("{puzzle} gives the next puzzle.",
                                                      puzzle=texts.Shown(Command("puzzle")))], "\n"),
                         None, await self._picture(interaction, r.puzzle, shown, ()), in_place)

    async def _picture(self, interaction: discord.Interaction, p: Puzzle, chosen: tuple[int, ...],
                       choices: tuple[int, ...]) -> discord.File:
        lang = await language(interaction, private=True)
        you, them = t("you"), t("opponent")  # short: a picture's name pill holds about 12 letters
        names = {c: str(await said(interaction, you if c == p.solver else them, True)) for c in p.position.colours}
        return await pictures.board_file(p.position, names, f"puzzle-{p.attempt.id}.png", chosen=chosen,
                                         choices=choices, language=lang)

    async def _send(self, interaction: discord.Interaction, text: Text | Joined, view: discord.ui.View | None,
                    picture: discord.File | None, in_place: bool) -> None:
        """Privately: in place of the panel (a press on it), or as the command's answer."""
        content = await said(interaction, text, private=True) or ""
        if view is not None:
            view = localized(view, await language(interaction, private=True))
        if in_place:
            await interaction.edit_original_response(content=content, view=view, allowed_mentions=NO_MENTIONS,
                                                     attachments=[picture] if picture is not None else [])
            return
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if picture is not None:
            extra["file"] = picture
        await answer(interaction, content, private=True, allowed_mentions=NO_MENTIONS, **extra)


async def setup(bot: HexBot) -> None:
    """Load the cog."""
    await bot.add_cog(Puzzles(bot))

