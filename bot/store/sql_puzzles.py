"""The SQL of playing puzzles (``/puzzle``), which both databases share: the puzzles a member may
be set, their attempts, and the puzzle ratings and streaks.

A part of :class:`~bot.store.sql.SQLStore` (one of its bases); every statement here is written
here only (``tests/bot/test_store_layout.py``).
"""

from __future__ import annotations

from typing import Any

from .rows import GameRow, PuzzleAttemptRow, PuzzleChoice, PuzzlePlayerRow, PuzzleRow, Sight
from .sql_driver import SQLDriver

#: a puzzle with its rating and its game, and one member's failed attempts at it and the last one's end
#: (``{seen}``: the sight's condition on the game; ``{own}``: only the member's games)
_CHOICES = (
    "SELECT p.game_id AS p_game_id, p.ply AS p_ply, p.mover AS p_mover, p.answer AS p_answer,"
    " p.missed AS p_missed, p.found_at AS p_found_at, p.rating AS p_rating, p.deviation AS p_deviation,"
    " p.volatility AS p_volatility, COALESCE(a.failed, 0) AS a_failed, a.last_at AS a_last_at, g.*"
    " FROM puzzles p JOIN games g ON g.id = p.game_id"
    " LEFT JOIN (SELECT game_id, ply, SUM(CASE WHEN status = 'solved' THEN 1 ELSE 0 END) AS solved,"
    " SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed, MAX(ended_at) AS last_at"
    " FROM puzzle_attempts WHERE user_id = :user_id AND status <> 'open' GROUP BY game_id, ply) a"
    " ON a.game_id = p.game_id AND a.ply = p.ply"
)
_ATTEMPT = "SELECT id, guild_id, user_id, game_id, ply, line, status, started_at, ended_at FROM puzzle_attempts"
_PLAYER = ("SELECT guild_id, user_id, rating, deviation, volatility, solved, failed, streak, best_streak, updated_at"
           " FROM puzzle_players")


def _choice(row: Any) -> PuzzleChoice:
    d = dict(row)
    puzzle = PuzzleRow(d.pop("p_game_id"), d.pop("p_ply"), d.pop("p_mover"), d.pop("p_answer"), d.pop("p_missed"),
                       d.pop("p_found_at"))
    rating, deviation, volatility = d.pop("p_rating"), d.pop("p_deviation"), d.pop("p_volatility")
    failed, last_at = int(d.pop("a_failed")), d.pop("a_last_at")
    d["variants"] = tuple(d["variants"].split())
    d["rated"] = bool(d["rated"])
    return PuzzleChoice(puzzle, rating, deviation, volatility, GameRow(**d), failed, last_at)


def _attempt(row: Any) -> PuzzleAttemptRow:
    d = dict(row)
    d["line"] = tuple(a for a in d["line"].split(";") if a)
    return PuzzleAttemptRow(**d)


class PuzzleSQL(SQLDriver):
    """The puzzle-playing methods of the store."""

    async def puzzle_choices(self, guild_id: int, user_id: int, sight: Sight | None, *, own: bool,
                             limit: int) -> list[PuzzleChoice]:
        """Puzzles of a server's finished games (only those ``sight`` sees) that a member has not
        solved, newest first; ``own``: only from games the member played."""
        seen, params = self._seen_by(sight)
        mine = " AND (g.seat0_id = :user_id OR g.seat1_id = :user_id)" if own else ""
        rows = await self._all(
            _CHOICES + f" WHERE g.guild_id = :guild_id AND COALESCE(a.solved, 0) = 0{mine}{seen}"
            " ORDER BY p.found_at DESC, p.game_id DESC, p.ply LIMIT :limit",
            guild_id=guild_id, user_id=user_id, limit=limit, **params)
        return [_choice(r) for r in rows]

    async def puzzle_choice(self, user_id: int, game_id: int, ply: int) -> PuzzleChoice | None:
        """One puzzle with its rating, its game and a member's history with it."""
        row = await self._one(_CHOICES + " WHERE p.game_id = :game_id AND p.ply = :ply",
                              user_id=user_id, game_id=game_id, ply=ply)
        return None if row is None else _choice(row)

    async def lock_puzzle_rating(self, game_id: int, ply: int) -> tuple[float, float, float] | None:
        """Inside a transaction: a puzzle's own rating (rating, deviation, volatility), held until it
        ends, so that two members finishing it at once each move it from the other's result."""
        self._require_tx("lock_puzzle_rating")
        row = await self._one("SELECT rating, deviation, volatility FROM puzzles WHERE game_id = :game_id AND ply = :ply"
                              + self.FOR_UPDATE, game_id=game_id, ply=ply)
        return None if row is None else (float(row[0]), float(row[1]), float(row[2]))

    async def start_puzzle_attempt(self, guild_id: int, user_id: int, game_id: int, ply: int,
                                   now: float) -> PuzzleAttemptRow:
        """Open a member's attempt at a puzzle. Raises :class:`Conflict` when they have one open."""
        async with self.transaction():
            row = await self._returning(
                "INSERT INTO puzzle_attempts (guild_id, user_id, game_id, ply, started_at)"
                " VALUES (:guild_id, :user_id, :game_id, :ply, :now) RETURNING id",
                guild_id=guild_id, user_id=user_id, game_id=game_id, ply=ply, now=now)
        return PuzzleAttemptRow(int(row[0]), guild_id, user_id, game_id, ply, (), "open", now)

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttemptRow | None:
        """An attempt by its id."""
        row = await self._one(_ATTEMPT + " WHERE id = :id", id=attempt_id)
        return None if row is None else _attempt(row)

    async def open_puzzle_attempt(self, guild_id: int, user_id: int) -> PuzzleAttemptRow | None:
        """A member's open attempt in a server, if any."""
        row = await self._one(_ATTEMPT + " WHERE guild_id = :guild_id AND user_id = :user_id AND status = 'open'",
                              guild_id=guild_id, user_id=user_id)
        return None if row is None else _attempt(row)

    async def advance_puzzle_attempt(self, attempt_id: int, was: tuple[str, ...], line: tuple[str, ...]) -> bool:
        """Set an open attempt's moves to ``line`` if they are still ``was`` (False: another answer came first)."""
        async with self.transaction():
            changed = await self._run(
                "UPDATE puzzle_attempts SET line = :line WHERE id = :id AND status = 'open' AND line = :was",
                line=";".join(line), id=attempt_id, was=";".join(was))
        return changed == 1

    async def end_puzzle_attempt(self, attempt: PuzzleAttemptRow, line: tuple[str, ...], status: str, now: float,
                                 player: PuzzlePlayerRow | None, puzzle: tuple[float, float, float] | None) -> bool:
        """Close an open attempt whose moves are still ``attempt.line``, with the new ratings (see
        :meth:`Store.end_puzzle_attempt`)."""
        async with self.transaction():
            changed = await self._run(
                "UPDATE puzzle_attempts SET line = :line, status = :status, ended_at = :now"
                " WHERE id = :id AND status = 'open' AND line = :was",
                line=";".join(line), status=status, now=now, id=attempt.id, was=";".join(attempt.line))
            if changed != 1:
                return False
            if player is not None:
                await self._run(
                    "INSERT INTO puzzle_players (guild_id, user_id, rating, deviation, volatility, solved, failed,"
                    " streak, best_streak, updated_at) VALUES (:guild_id, :user_id, :rating, :deviation, :volatility,"
                    " :solved, :failed, :streak, :best_streak, :updated_at) ON CONFLICT (guild_id, user_id) DO UPDATE"
                    " SET rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,"
                    " solved = excluded.solved, failed = excluded.failed, streak = excluded.streak,"
                    " best_streak = excluded.best_streak, updated_at = excluded.updated_at",
                    guild_id=player.guild_id, user_id=player.user_id, rating=player.rating,
                    deviation=player.deviation, volatility=player.volatility, solved=player.solved,
                    failed=player.failed, streak=player.streak, best_streak=player.best_streak,
                    updated_at=player.updated_at)
            if puzzle is not None:
                await self._run(
                    "UPDATE puzzles SET rating = :rating, deviation = :deviation, volatility = :volatility"
                    " WHERE game_id = :game_id AND ply = :ply",
                    rating=puzzle[0], deviation=puzzle[1], volatility=puzzle[2], game_id=attempt.game_id,
                    ply=attempt.ply)
        return True

    async def puzzle_player(self, guild_id: int, user_id: int) -> PuzzlePlayerRow | None:
        """A member's puzzle rating and streak in a server (None before their first puzzle)."""
        row = await self._one(_PLAYER + " WHERE guild_id = :guild_id AND user_id = :user_id",
                              guild_id=guild_id, user_id=user_id)
        return None if row is None else PuzzlePlayerRow(**dict(row))


__all__ = ["PuzzleSQL"]
