"""The SQL of tournaments (issue 46), which both databases share: tournaments, their entrants,
rounds and games, and a server's tournament settings.

A part of :class:`~bot.store.sql.SQLStore` (one of its bases); every statement here is written
here only (``tests/bot/test_store_layout.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import storable_name
from .rows import EntrantRow, RoundRow, TournamentGameRow, TournamentRow
from .sql_driver import Row, SQLDriver


def tournament_row(row: Row) -> TournamentRow:
    """A stored tournament as handed out (variants split, ``rated`` as bool whichever database)."""
    d = dict(row)
    d["variants"] = tuple(d["variants"].split())
    d["rated"] = bool(d["rated"])
    return TournamentRow(**d)


class TournamentSQL(SQLDriver):
    """The tournament methods of the store."""

    async def insert_tournament(
        self, *, guild_id: int, channel_id: int, organiser_id: int, game: str, size: int, variants: tuple[str, ...],
        format: str, rounds: int | None, cycles: int, clock: str, max_players: int, rated: bool, now: float,
    ) -> TournamentRow:
        """Record a new tournament open for sign-up (inside a transaction)."""
        self._require_tx()
        return tournament_row(await self._returning(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, game, size, variants, format, rounds, cycles,"
            " clock, max_players, rated, created_at) VALUES (:guild_id, :channel_id, :organiser_id, :game, :size,"
            " :variants, :format, :rounds, :cycles, :clock, :max_players, :rated, :now) RETURNING *",
            guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, game=game, size=size,
            variants=" ".join(variants), format=format, rounds=rounds, cycles=cycles, clock=clock,
            max_players=max_players, rated=rated, now=now,
        ))

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by id."""
        row = await self._one("SELECT * FROM tournaments WHERE id = :id", id=tournament_id)
        return None if row is None else tournament_row(row)

    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        """Hold a tournament's row to the end of the transaction (inside one): sign-ups, the start and
        each round's pairing of one tournament happen one at a time, whichever process asks."""
        self._require_tx("lock_tournament")
        row = await self._one(f"SELECT * FROM tournaments WHERE id = :id{self.FOR_UPDATE}", id=tournament_id)
        return None if row is None else tournament_row(row)

    async def newest_tournament_in(self, channel_id: int, statuses: Sequence[str]) -> TournamentRow | None:
        """The newest tournament created in a channel whose status is one of ``statuses``."""
        which, params = self._any("status", "status", list(statuses), "text")
        row = await self._one(f"SELECT * FROM tournaments WHERE channel_id = :channel_id AND {which}"
                              " ORDER BY id DESC LIMIT 1", channel_id=channel_id, **params)
        return None if row is None else tournament_row(row)

    async def tournaments_of(self, guild_id: int, statuses: Sequence[str],
                             organiser_id: int | None = None) -> list[TournamentRow]:
        """A server's tournaments whose status is one of ``statuses`` (only ``organiser_id``'s, if given), oldest first."""
        which, params = self._any("status", "status", list(statuses), "text")
        mine = "" if organiser_id is None else " AND organiser_id = :organiser_id"
        if organiser_id is not None:
            params["organiser_id"] = organiser_id
        rows = await self._all(f"SELECT * FROM tournaments WHERE guild_id = :guild_id AND {which}{mine} ORDER BY id",
                               guild_id=guild_id, **params)
        return [tournament_row(r) for r in rows]

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember a tournament's sign-up message (to edit it as people join)."""
        await self._write_one("UPDATE tournaments SET message_id = :message_id WHERE id = :id",
                              message_id=message_id, id=tournament_id)

    async def move_tournament(self, tournament_id: int, before: str, after: str) -> bool:
        """Move a tournament from status ``before`` to ``after`` (inside a transaction); False if it
        was no longer ``before`` (someone else got there first)."""
        return await self._run("UPDATE tournaments SET status = :after WHERE id = :id AND status = :before",
                               after=after, id=tournament_id, before=before) == 1

    async def add_entrant(self, tournament_id: int, user_id: int, name: str) -> None:
        """Sign a player up, after everyone so far (inside a transaction holding the tournament's row);
        :class:`Conflict` when they are signed up already."""
        await self._run(
            "INSERT INTO tournament_entrants (tournament_id, user_id, seq, name) SELECT :tournament_id, :user_id,"
            " COALESCE(MAX(seq), 0) + 1, :name FROM tournament_entrants WHERE tournament_id = :tournament_id",
            tournament_id=tournament_id, user_id=user_id, name=storable_name(name))

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a player off a tournament's sign-up (inside a transaction); False if they were not on it."""
        return await self._run("DELETE FROM tournament_entrants WHERE tournament_id = :tournament_id"
                               " AND user_id = :user_id", tournament_id=tournament_id, user_id=user_id) == 1

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """A tournament's entrants in sign-up order."""
        rows = await self._all("SELECT * FROM tournament_entrants WHERE tournament_id = :tournament_id ORDER BY seq",
                               tournament_id=tournament_id)
        return [EntrantRow(**dict(r)) for r in rows]

    async def set_entrant_rating(self, tournament_id: int, user_id: int, rating: float | None) -> None:
        """Keep the rating a player was seeded by (inside a transaction)."""
        await self._run("UPDATE tournament_entrants SET rating = :rating WHERE tournament_id = :tournament_id"
                        " AND user_id = :user_id", rating=rating, tournament_id=tournament_id, user_id=user_id)

    async def withdraw_entrant(self, tournament_id: int, user_id: int, round: int, reason: str) -> bool:
        """Withdraw a player during round ``round`` (inside a transaction); False if they had withdrawn already."""
        return await self._run(
            "UPDATE tournament_entrants SET withdrawn_round = :round, withdrawn_reason = :reason"
            " WHERE tournament_id = :tournament_id AND user_id = :user_id AND withdrawn_round IS NULL",
            round=round, reason=reason, tournament_id=tournament_id, user_id=user_id) == 1

    async def insert_round(self, tournament_id: int, number: int, byes: Sequence[int],
                           games: Sequence[tuple[int, int]], now: float) -> None:
        """Record a paired round: its byes and its games (first seat, second seat) in board order
        (inside a transaction). :class:`Conflict` when the round was paired already: the guard
        that pairs each round once, whichever process or rerun tries."""
        await self._run("INSERT INTO tournament_rounds (tournament_id, number, byes, paired_at) VALUES"
                        " (:tournament_id, :number, :byes, :now)",
                        tournament_id=tournament_id, number=number, byes=" ".join(map(str, byes)), now=now)
        if games:
            await self._run_many(
                "INSERT INTO tournament_games (tournament_id, round, board, first_id, second_id) VALUES"
                " (:tournament_id, :round, :board, :first_id, :second_id)",
                [{"tournament_id": tournament_id, "round": number, "board": board, "first_id": a, "second_id": b}
                 for board, (a, b) in enumerate(games, start=1)])

    async def tournament_rounds(self, tournament_id: int) -> list[RoundRow]:
        """A tournament's paired rounds in order."""
        rows = await self._all("SELECT * FROM tournament_rounds WHERE tournament_id = :tournament_id ORDER BY number",
                               tournament_id=tournament_id)
        return [RoundRow(r["tournament_id"], r["number"], tuple(int(b) for b in r["byes"].split()), r["paired_at"],
                         bool(r["announced"])) for r in rows]

    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRow]:
        """A tournament's games, round by round in board order."""
        rows = await self._all("SELECT * FROM tournament_games WHERE tournament_id = :tournament_id"
                               " ORDER BY round, board", tournament_id=tournament_id)
        return [TournamentGameRow(**dict(r)) for r in rows]

    async def set_tournament_game(self, tournament_id: int, round: int, board: int, game_id: int) -> bool:
        """Link a round's game to the game started for it (inside a transaction); False if it had one."""
        return await self._run(
            "UPDATE tournament_games SET game_id = :game_id WHERE tournament_id = :tournament_id AND round = :round"
            " AND board = :board AND game_id IS NULL",
            game_id=game_id, tournament_id=tournament_id, round=round, board=board) == 1

    async def tournament_game_of(self, game_id: int) -> TournamentGameRow | None:
        """The tournament game a game was started for, if any."""
        row = await self._one("SELECT * FROM tournament_games WHERE game_id = :game_id", game_id=game_id)
        return None if row is None else TournamentGameRow(**dict(row))

    async def record_tournament_result(self, game_id: int, winner_id: int, ending: str) -> bool:
        """Record a tournament game's result (inside the transaction that ends the game); False if the
        game is no tournament's or already has a result."""
        return await self._run("UPDATE tournament_games SET winner_id = :winner_id, ending = :ending"
                               " WHERE game_id = :game_id AND winner_id IS NULL",
                               winner_id=winner_id, ending=ending, game_id=game_id) == 1

    async def mark_round_announced(self, tournament_id: int, number: int) -> bool:
        """Note that a round's announcement went out; False if it was noted already."""
        async with self.transaction():
            return await self._run("UPDATE tournament_rounds SET announced = TRUE WHERE tournament_id = :tournament_id"
                                   " AND number = :number AND NOT announced",
                                   tournament_id=tournament_id, number=number) == 1

    async def tournament_staff_only(self, guild_id: int) -> bool:
        """Whether only members with Manage Server may create tournaments in a server."""
        return bool(await self._val("SELECT staff_only FROM tournament_settings WHERE guild_id = :guild_id",
                                    guild_id=guild_id))

    async def set_tournament_staff_only(self, guild_id: int, staff_only: bool) -> None:
        """Set whether only members with Manage Server may create tournaments in a server."""
        await self._write_one(
            "INSERT INTO tournament_settings (guild_id, staff_only) VALUES (:guild_id, :staff_only)"
            " ON CONFLICT (guild_id) DO UPDATE SET staff_only = excluded.staff_only",
            guild_id=guild_id, staff_only=staff_only)
