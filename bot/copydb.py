"""``python -m bot copy-db SOURCE_URL TARGET_URL``: move a server's data to another database.

Typically from the zero-setup SQLite file to PostgreSQL when the bot grows. Every table
is copied row by row with its ids (so custom ids on buttons and timers keep pointing at
the right rows), identity counters are moved past the copied ids, and the copy is
verified: the same number of rows in every table, and every game's record replays in the
engine to the same actions on both sides. The bot must be stopped meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import engine

from .store import Store
from .store.base import TABLES


class CopyError(Exception):
    """The copy can't be made or did not verify; the message says why, in one line."""


@dataclass
class CopyReport:
    """What was copied: rows per table, and how many game records replayed identically."""

    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0

    def summary(self) -> str:
        """One line per table, then the replay check."""
        lines = [f"{table:15} {count:>9} rows" for table, count in self.rows.items()]
        lines.append(f"{'replayed':15} {self.games_replayed:>9} game records, identical on both sides")
        return "\n".join(lines)


async def copy_database(source_url: str, target_url: str) -> CopyReport:
    """Copy every row from ``source_url`` into the empty database at ``target_url`` and verify it."""
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            for table in TABLES:
                if await target.count_rows(table):
                    raise CopyError(f"the target already has rows in {table}; copy into an empty database")
            report = CopyReport()
            async with target.transaction():
                for table in TABLES:
                    rows = await source.table_rows(table)
                    await target.insert_rows(table, rows)
                    report.rows[table] = len(rows)
                # Past every id the source ever gave out, not only those still stored.
                await target.after_bulk_insert(await source.id_high_water())
            await _verify(source, target, report)
            return report
        finally:
            await target.close()
    finally:
        await source.close()


async def _verify(source: Store, target: Store, report: CopyReport) -> None:
    """Row counts equal table by table; every game's record replays to the same actions on both sides."""
    for table in TABLES:
        copied = await target.count_rows(table)
        if copied != report.rows[table]:
            raise CopyError(f"{table}: {report.rows[table]} rows read but {copied} in the target")
    for row in await source.table_rows("games"):
        game_id = row["id"]
        assert isinstance(game_id, int)
        game = await target.get_game(game_id)
        if game is None:
            raise CopyError(f"game {game_id} is missing from the target")
        before, after = await source.actions(game.id), await target.actions(game.id)
        if before != after:
            raise CopyError(f"game {game.id}: its record differs after the copy")
        options = engine.make_options(game.game, game.size, game.variants, game.first)
        try:
            engine.Record(options, after).replay()
        except Exception as exc:  # any engine error: the record does not replay
            raise CopyError(f"game {game.id}: its record does not replay ({exc})") from exc
        report.games_replayed += 1
