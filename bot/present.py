"""Builds the messages that show a game: content with mentions, an embed, the board image."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from . import images, texts
from .service import ActiveGame

EMBED_COLOUR = discord.Colour.from_rgb(214, 160, 82)
#: only the people a message names may be pinged — never @everyone or roles
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class GameMessage:
    """The parts of a message that shows a game."""

    content: str
    embed: discord.Embed
    file: discord.File

    def kwargs(self) -> dict:
        """Keyword arguments for ``send``/``followup.send``."""
        return {"content": self.content or None, "embed": self.embed, "file": self.file,
                "allowed_mentions": MENTION_USERS}


async def game_message(game: ActiveGame, names: dict[int, str], *lines: str, now: float | None = None) -> GameMessage:
    """A message with the board after ``lines`` (what happened) and what happens next (with time left at ``now``)."""
    mention, step = texts.next_step(game, names, now)
    description = "\n".join(line for line in (*lines, step) if line)
    embed = discord.Embed(title=texts.title(game), description=description[:4000], colour=EMBED_COLOUR)
    file = await images.board_file(game.position, texts.colour_names(game, names))
    embed.set_image(url=f"attachment://{file.filename}")
    players = " · ".join(texts.player(game, c, names) for c in game.position.colours)
    embed.set_footer(text=discord.utils.remove_markdown(players) + " · /move to play · /board to see it again")
    return GameMessage(mention, embed, file)
