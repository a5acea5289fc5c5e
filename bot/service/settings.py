"""Settings: a server's defaults and how a player wants reminders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..i18n import LANGUAGES
from ..store import GuildSettings
from ..timing.clocks import CLOCKS
from .core import ServiceCore
from .errors import Option, UserError
from .limits import LIMITS


class SettingsService(ServiceCore):
    """Per-server defaults and per-player notification choices."""

    async def update_guild_settings(
        self, guild_id: int, *, clock: str | None = None, challenge_minutes: int | None = None,
        always_thread: bool | None = None, limits: Mapping[str, int | None] | None = None,
    ) -> tuple[GuildSettings, bool]:
        """Change what is given of a server's defaults and limits (``limits``: name → value, see
        :data:`.limits.LIMITS`); return the settings and whether anything changed.

        Values are checked here, not only by Discord's choices: a modified client can send any text.
        Every value is checked before anything is stored, so a refusal changes nothing.
        """
        given = {name: value for name, value in (limits or {}).items() if value is not None}
        for name, value in given.items():
            if name not in LIMITS:
                raise UserError("{option} is no setting of mine; nothing was changed.", option=Option(name))
            LIMITS[name].checked(value)
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
        before = await self.store.guild_limits(guild_id)
        new_limits = {name: value for name, value in given.items() if before.get(name) != value}
        if changed != current or new_limits:
            async with self.store.transaction():
                if changed != current:
                    await self.store.put_guild_settings(changed)
                if new_limits:
                    await self.store.put_guild_limits(guild_id, new_limits)
        return changed, changed != current or bool(new_limits)

    @staticmethod
    def checked_language(language: str) -> str | None:
        """A language option's value as stored: a language's code, or None for ``auto`` (Discord's locale).

        Checked here, not only by Discord's choices: a modified client can send any text."""
        if language == "auto":
            return None
        if language not in LANGUAGES:
            raise UserError("{option} is one of {languages} or auto; nothing was changed.",
                            option=Option("language"), languages=", ".join(LANGUAGES))
        return language

    async def set_language(self, scope: str, id: int, language: str | None) -> None:
        """A member's own language (``scope`` ``user``) or a server's (``guild``); None: Discord's locale decides."""
        if language is not None:
            self.checked_language(language)
        await self.store.set_language(scope, id, language)

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """How a player wants to be reminded: direct message or a mention in the channel."""
        await self.store.set_dm(user_id, dm)
