"""The driver primitives every shared SQL method stands on, which each backend supplies
(:mod:`.sqlite`, :mod:`.postgres`): the base of the modules of shared statements (:mod:`.sql`,
:mod:`.sql_puzzles`, :mod:`.sql_tournaments`)."""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .base import Store
from .rows import Sight


class Row(Protocol):
    """A result row as both drivers hand it out (``sqlite3.Row``, ``asyncpg.Record``): by column
    position or name, and convertible with ``dict()``."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class SQLDriver(Store):
    """A store on a database driver: the primitives the shared statements run on."""

    #: appended to a SELECT that must hold its rows to the end of the transaction (PostgreSQL's
    #: ``FOR UPDATE``; SQLite's BEGIN IMMEDIATE already holds the whole file)
    FOR_UPDATE: str = ""

    @abc.abstractmethod
    async def _all(self, sql: str, /, **params: Any) -> Sequence[Row]:
        """Every row of a query (inside the caller's transaction if it holds one)."""

    @abc.abstractmethod
    async def _one(self, sql: str, /, **params: Any) -> Row | None:
        """The first row of a query, or None."""

    @abc.abstractmethod
    async def _val(self, sql: str, /, **params: Any) -> Any:
        """The first column of the first row of a query (None when there is no row)."""

    @abc.abstractmethod
    async def _run(self, sql: str, /, **params: Any) -> int:
        """Execute a write inside :meth:`transaction`; the rows it touched. A uniqueness rule broken
        raises :class:`~bot.store.base.Conflict`."""

    @abc.abstractmethod
    async def _returning(self, sql: str, /, **params: Any) -> Row:
        """Execute a write ending in ``RETURNING`` inside :meth:`transaction`; its one row."""

    @abc.abstractmethod
    async def _write_one(self, sql: str, /, **params: Any) -> None:
        """Execute one write as part of the caller's transaction, or atomically on its own."""

    @abc.abstractmethod
    def _require_tx(self, what: str = "writes") -> None:
        """Raise RuntimeError unless the calling task is inside :meth:`transaction`."""

    @abc.abstractmethod
    def _any(self, column: str, name: str, values: Sequence[Any], sql_type: str) -> tuple[str, dict[str, Any]]:
        """The condition "``column`` is one of ``values``" and its parameters (named from ``name``);
        ``sql_type`` is the values' PostgreSQL type (``bigint``, ``int``, ``text``)."""

    @abc.abstractmethod
    async def _run_many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        """Execute a write once per parameter set in ``rows``, in one trip to the driver (inside
        :meth:`transaction`)."""

    @abc.abstractmethod
    def _seen_by(self, sight: Sight | None) -> tuple[str, dict[str, Any]]:
        """The condition (`` AND (…)``) keeping only the games ``sight`` sees, and its parameters."""
