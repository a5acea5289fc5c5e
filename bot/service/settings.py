"""Settings: a server's defaults and how a player wants reminders."""

from __future__ import annotations

from dataclasses import replace

from ..store import GuildSettings
from .clocks import CLOCKS
from .core import ServiceCore
from .errors import Option, UserError


class SettingsService(ServiceCore):
    """Per-server defaults and per-player notification choices."""

    async def update_guild_settings(
        self, guild_id: int, *, clock: str | None = None, challenge_minutes: int | None = None,
        always_thread: bool | None = None,
    ) -> tuple[GuildSettings, bool]:
        """Change what is given of a server's defaults; return the settings and whether they changed.

        Values are checked here, not only by Discord's choices: a modified client can send any text.
        """
        if clock is not None and clock not in CLOCKS:
            raise UserError("{clock} is one of {clocks} (time per move); nothing was changed.",
                            clock=Option("clock"), clocks=", ".join(CLOCKS))
        if challenge_minutes is not None and not 1 <= challenge_minutes <= 1440:
            raise UserError("{minutes} is from 1 to 1440; nothing was changed.", minutes=Option("challenge_minutes"))
        current = await self.store.guild_settings(guild_id)
        changed = replace(
            current,
            default_clock=current.default_clock if clock is None else clock,
            challenge_minutes=current.challenge_minutes if challenge_minutes is None else challenge_minutes,
            always_thread=current.always_thread if always_thread is None else always_thread,
        )
        if changed != current:
            await self.store.put_guild_settings(changed)
        return changed, changed != current

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """How a player wants to be reminded: direct message or a mention in the channel."""
        await self.store.set_dm(user_id, dm)
