"""Which shards a process runs, and so which servers (guilds) it owns.

Discord routes a server's events to shard ``(guild_id >> 22) % shard_count``. A bot that
outgrows one process runs several, each with ``SHARD_COUNT`` and its own ``SHARD_IDS``.
Ownership only decides who does background work (timers, the computer player); what a
user does is safe whichever process handles it, because the database serialises it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShardPlan:
    """``count`` shards in all; this process runs ``ids``."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive a server's events (direct messages: shard 0).

        >>> ShardPlan(2, (1,)).owns(1 << 22), ShardPlan(2, (1,)).owns(2 << 22), ShardPlan(2, (0,)).owns(None)
        (True, False, True)
        """
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a server's events arrive on (Discord's formula); 0 for direct messages.

    >>> shard_of(81384788765712384, 4), shard_of(None, 4)
    (2, 0)
    """
    return 0 if guild_id is None else (guild_id >> 22) % count


def parse_shards(count_text: str, ids_text: str) -> ShardPlan | None:
    """SHARD_COUNT and SHARD_IDS (``0-3`` or ``0,2``) as a plan; None when neither is set.

    >>> parse_shards("4", "0-1,3")
    ShardPlan(count=4, ids=(0, 1, 3))
    >>> parse_shards("2", "") is None, parse_shards("", "") is None
    (False, True)
    >>> parse_shards("2", "")
    ShardPlan(count=2, ids=(0, 1))
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text and not ids_text:
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError("SHARD_COUNT must be a whole number of shards (1 or more) when SHARD_IDS is set.")
    count = int(count_text)
    ids: set[int] = set()
    for part in filter(None, (p.strip() for p in (ids_text or f"0-{count - 1}").split(","))):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise ValueError(f"SHARD_IDS is a list like 0-3 or 0,2; {part!r} is not.")
        first, last = int(lo), int(hi or lo)
        if first > last or last >= count:
            raise ValueError(f"SHARD_IDS {part!r} is outside 0-{count - 1} (SHARD_COUNT is {count}).")
        ids.update(range(first, last + 1))
    return ShardPlan(count, tuple(sorted(ids)))
