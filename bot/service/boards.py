"""Which message is a game's live board: the newest one, the only one that keeps the game's controls."""

from __future__ import annotations

from .core import ServiceCore


class BoardsService(ServiceCore):
    """Remembers each game's live board message (in the store's meta, so it survives restarts)."""

    async def swap_board_message(self, game_id: int, where: tuple[int, int] | None) -> tuple[int, int] | None:
        """Remember a game's newest board message as (channel id, message id), or None once the game has
        no live board; return the one remembered before (its controls are to go)."""
        key = f"board:{game_id}"
        async with self._board_locks.lock(game_id):
            before = await self.store.get_meta(key)
            if where is None:
                await self.store.delete_meta(key)
            else:
                await self.store.set_meta(key, f"{where[0]}:{where[1]}")
        if not before:
            return None
        channel_id, message_id = before.split(":")
        return int(channel_id), int(message_id)
