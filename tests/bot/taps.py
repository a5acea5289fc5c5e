"""Playing through the fake Discord by pressing components only, as a phone user would.

:class:`Tapper` presses Play under the newest board, then reads the private panel
the way a person does (labels and menu options) and taps towards one action.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from engine import Position
from tests.fake_discord import FakeChannel, FakeDiscord, FakeMember, FakeMessage, InteractionResult

PLAY = re.compile(r"^hx:board:\d+:\d+:play$")


def has_controls(message: FakeMessage) -> bool:
    """Whether a message carries a board's Play control."""
    return any(c.custom_id and PLAY.match(c.custom_id) for c in message.component_list)


def play_id(message: FakeMessage) -> str:
    """The custom_id of a board's Play control."""
    return next(c.custom_id for c in message.component_list if c.custom_id and PLAY.match(c.custom_id))


def taps_for(position: Position, action: str) -> list[str]:
    """What a player looks for in the panel, in order, to play ``action`` (canonical notation)."""
    if action == "swap":
        return ["Swap"]
    if position.game == "blindhex":
        if ":" in action or action.startswith("aside"):
            cards = action.split(":")[-1].replace("aside ", "").split("+")
            return [*cards, "Confirm"]
        return [action]
    if position.game == "inphexion":
        if ">" in action:
            return [action.split(">")[1]]
        parts = action.split()
        if len(parts) == 1 and position.phase == "move":
            return ["Place a disc instead", parts[0]]
        return parts
    return [action]


class Tapper:
    """Drives one game channel through its components."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel) -> None:
        self.fake = fake
        self.channel = channel

    def board(self) -> FakeMessage:
        """The newest message in the game channel with the game's controls."""
        boards = [m for m in self.fake.messages(self.channel) if has_controls(m)]
        assert boards, "no board with controls in the channel"
        return boards[-1]

    async def open_panel(self, user: FakeMember) -> InteractionResult:
        """Press Play under the newest board."""
        board = self.board()
        return await self.fake.click(user, board, play_id(board))

    async def tap(self, user: FakeMember, panel: FakeMessage, look_for: str) -> bool:
        """One tap on the panel towards ``look_for``: a button or menu option showing it (True),
        or else the menu option of the row holding that cell (False: the cell comes next)."""
        comps = panel.component_list
        for c in comps:
            if c.type == 2 and not c.disabled and c.label and c.custom_id and (
                    c.label == look_for or c.label.endswith(" " + look_for) or c.label.startswith(look_for + " ")):
                await self.fake.click(user, panel, c.custom_id)
                return True
        for c in comps:
            for o in c.raw.get("options", []) if c.type == 3 and c.custom_id else []:
                if o["label"] == look_for:
                    await self.fake.select(user, panel, c.custom_id, [o["value"]])
                    return True
        m = re.match(r"^[a-z](\d+)$", look_for)
        for c in comps if m else []:
            for o in c.raw.get("options", []) if c.type == 3 and c.custom_id else []:
                if o["label"].startswith(f"Row {m.group(1)}:"):  # type: ignore[union-attr]
                    await self.fake.select(user, panel, c.custom_id, [o["value"]])
                    return False
        raise AssertionError(f"nothing to tap for {look_for!r} on {panel.content!r}: "
                             f"{[(c.label, c.raw.get('options')) for c in comps]}")

    async def play(self, user: FakeMember, position: Position, action: str,
                   seen: Callable[[FakeMessage], None] | None = None) -> FakeMessage:
        """Play ``action`` with taps only; return the message the channel got (board or "has chosen" line).

        ``seen`` is shown the panel as it is after opening it and after each tap.
        """
        count = len(self.fake.messages(self.channel))
        opened = await self.open_panel(user)
        assert opened.ephemeral, opened.content
        panel = opened.message
        assert panel is not None
        wanted = taps_for(position, action)
        while wanted:
            if seen is not None:
                seen(panel)
            if await self.tap(user, panel, wanted[0]):
                wanted.pop(0)
        if seen is not None:
            seen(panel)
        return await self.new_message(count)

    async def new_message(self, count: int, timeout: float = 10.0) -> FakeMessage:
        """The first public message in the game channel after ``count`` messages."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            fresh = [m for m in self.fake.messages(self.channel)[count:] if not m.ephemeral and not m.loading]
            done = [m for m in fresh if m.files or any(w in (m.content or "") for w in ("has chosen", " wrote at "))]
            if done:
                return done[0]
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no new board after {count} messages: {[m.content for m in fresh]}")
            await asyncio.sleep(0.01)
