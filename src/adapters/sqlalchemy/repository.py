"""One generic SQLAlchemy Core repository: rows in and out as msgspec records, keyset pages."""

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec
from sqlalchemy import ColumnElement, Table, and_, bindparam, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from avatar_service.adapters.sqlalchemy.connection import LazyConnection, conflict
from avatar_service.adapters.sqlalchemy.read_cache import CacheSession
from avatar_service.core.pagination import PageRequest

R = TypeVar("R", bound=msgspec.Struct)
_BUILTINS = (datetime, bytes)


@functools.cache
def column_names(table: Table) -> list[str]:
    # plain str names: SQLAlchemy's quoted_name keys are a str subclass msgspec will not take as keys
    return [str(name) for name in table.c.keys()]  # noqa: SIM118


@functools.cache
def select_by_id(table: Table, scoped: bool) -> Any:
    """The read of one row, built once per table (building a statement cost more than running it)."""
    clauses = [table.c.id == bindparam("ident")]
    if scoped:
        clauses.append(table.c.organization_id == bindparam("organization"))
    return select(table).where(*clauses)


@functools.cache
def insert_into(table: Table) -> Any:
    """The insert of whole rows, built once per table: a statement object made anew each time was built, then
    had its cache key computed for the compiled cache, on every write; a kept one memoizes its key."""
    return insert(table)


def to_row(table: Table, record: msgspec.Struct) -> dict[str, Any]:
    data = msgspec.to_builtins(record, builtin_types=_BUILTINS)
    return {name: data[name] for name in table.c.keys() if name in data}  # noqa: SIM118


def to_values(values: dict[str, Any]) -> dict[str, Any]:
    return {k: msgspec.to_builtins(v, builtin_types=_BUILTINS) if isinstance(v, msgspec.Struct) else v
            for k, v in values.items()}


class SqlRepository(Generic[R]):
    def __init__(self, conn: LazyConnection, table: Table, record: type[R], organization_id: str | None,
                 cache: CacheSession | None = None) -> None:
        self.conn, self.table, self.record, self.org = conn, table, record, organization_id
        self.cache = cache if cache is not None and cache.caches(table.name) else None
        self._order = table.c.get("created_at")
        self._names = column_names(table)
        self._scoped = organization_id is not None and "organization_id" in table.c  # rows of one organization

    def _load(self, row: Any) -> R:
        return msgspec.convert(dict(zip(self._names, row, strict=True)), self.record)

    def _where(self, equals: dict[str, Any]) -> list[ColumnElement[bool]]:
        clauses: list[ColumnElement[bool]] = []
        if self._scoped:
            clauses.append(self.table.c.organization_id == self.org)
        for name, value in equals.items():
            column = self.table.c[name]
            if value is None:
                clauses.append(column.is_(None))
            elif isinstance(value, list | tuple):
                clauses.append(column.in_(value))
            else:
                clauses.append(column == value)
        return clauses

    async def _write(self, statement: Any, rows: Any = None) -> Any:
        try:
            return await (self.conn.execute(statement, rows) if rows is not None else self.conn.execute(statement))
        except IntegrityError as error:
            raise conflict(error) from error

    async def add(self, record: R) -> None:
        await self.conn.insert(insert_into(self.table), [to_row(self.table, record)])

    async def add_many(self, records: Sequence[R]) -> None:
        if records:
            await self.conn.insert(insert_into(self.table), [to_row(self.table, r) for r in records])

    async def get(self, ident: str) -> R | None:
        if self.cache is None:
            return await self._read(ident)
        token = await self.cache.token()
        if token is None:  # the cache cannot tell whether it is exact now
            return await self._read(ident)
        key, cache = (self.table.name, ident), self.cache.cache
        record = cache.get(key, self.org, self.record)
        if record is None:
            record = await self._read(ident)
            if record is not None:
                cache.put(key, self.org, record, token)
        return record

    async def _read(self, ident: str) -> R | None:
        parameters = {"ident": ident, "organization": self.org} if self._scoped else {"ident": ident}
        row = (await self.conn.execute(select_by_id(self.table, self._scoped), parameters)).first()
        return self._load(row) if row else None

    async def update(self, record: R, expect: dict[str, Any] | None = None) -> bool:
        values = to_row(self.table, record)
        ident = values.pop("id")
        statement = update(self.table).where(*self._where({"id": ident, **(expect or {})})).values(values)
        return (await self._write(statement)).rowcount == 1

    async def set(self, ident: str, expect: dict[str, Any] | None = None, **values: Any) -> bool:
        statement = update(self.table).where(*self._where({"id": ident, **(expect or {})})).values(to_values(values))
        return (await self._write(statement)).rowcount == 1

    async def delete(self, ident: str) -> bool:
        return (await self.conn.execute(delete(self.table).where(*self._where({"id": ident})))).rowcount == 1

    async def delete_where(self, **equals: Any) -> int:
        return (await self.conn.execute(delete(self.table).where(*self._where(equals)))).rowcount

    def _newest_first(self) -> list[Any]:
        return [self._order.desc(), self.table.c.id.desc()] if self._order is not None else [self.table.c.id]

    async def page(self, request: PageRequest, **equals: Any) -> tuple[list[R], bool]:
        clauses = self._where(equals)
        if request.after is not None and self._order is not None:
            at, ident = request.after
            clauses.append(or_(self._order < at, and_(self._order == at, self.table.c.id < ident)))
        statement = select(self.table).where(*clauses).order_by(*self._newest_first()).limit(request.limit + 1)
        rows = (await self.conn.execute(statement)).all()
        return [self._load(r) for r in rows[: request.limit]], len(rows) > request.limit

    async def find(self, *, limit: int | None = None, **equals: Any) -> list[R]:
        statement = select(self.table).where(*self._where(equals)).order_by(*self._newest_first())
        if limit is not None:
            statement = statement.limit(limit)
        return [self._load(r) for r in (await self.conn.execute(statement)).all()]

    async def get_many(self, ids: Sequence[str]) -> list[R]:
        # By primary key alone, the organization checked on the rows: with `organization_id = ?` in the WHERE
        # clause SQLite chose the (organization_id, ...) index and walked every row of the organization (20 ms at
        # 100k memories) instead of looking each id up; and no ORDER BY, which did the same.
        if not ids:
            return []
        rows = (await self.conn.execute(select(self.table).where(self.table.c.id.in_(list(ids))))).all()
        if self._scoped:
            org = self._names.index("organization_id")
            rows = [r for r in rows if r[org] == self.org]
        return [self._load(r) for r in rows]

    async def columns(self, names: Sequence[str], **equals: Any) -> list[tuple[Any, ...]]:
        statement = select(*(self.table.c[name] for name in names)).where(*self._where(equals))
        return [tuple(row) for row in (await self.conn.execute(statement)).all()]

    async def due(self, column: str, before: datetime, limit: int, **equals: Any) -> list[R]:
        col = self.table.c[column]
        statement = (select(self.table).where(col.is_not(None), col <= before, *self._where(equals))
                     .order_by(col).limit(limit))
        return [self._load(r) for r in (await self.conn.execute(statement)).all()]

    async def claim_due(self, column: str, before: datetime, limit: int, until: datetime, **equals: Any) -> list[R]:
        col = self.table.c[column]
        if self.conn.dialect.name != "postgresql":
            # SQLite: one writer at a time (BEGIN IMMEDIATE), so a read and an update in this transaction
            # are as good as one statement (and SQLite's RETURNING cannot name an UPDATE ... FROM table).
            records = await self.due(column, before, limit, **equals)
            if records:
                await self.conn.execute(update(self.table).where(self.table.c.id.in_([r.id for r in records]))  # type: ignore[attr-defined]
                                        .values({column: until}))
            return records
        due = (select(self.table.c.id, col.label("claimed_was"))
               .where(col.is_not(None), col <= before, *self._where(equals)).order_by(col).limit(limit)
               .with_for_update(skip_locked=True).subquery())
        # One statement: UPDATE ... FROM (the due rows, locked, others' locked rows skipped) RETURNING each
        # row with the value it had before.
        statement = (update(self.table).where(self.table.c.id == due.c.id).values({column: until})
                     .returning(*self.table.c, due.c.claimed_was))
        rows = (await self.conn.execute(statement)).all()
        index = self._names.index(column)
        return [self._load((*row[:index], row[-1], *row[index + 1:-1])) for row in rows]

    async def set_many(self, changes: Sequence[dict[str, Any]]) -> None:
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for change in changes:
            values = to_values({k: v for k, v in change.items() if k != "id"})
            groups.setdefault(tuple(sorted(values)), []).append({"_ident": change["id"], **values})
        for rows in groups.values():  # one executemany per set of columns written
            statement = update(self.table).where(self.table.c.id == bindparam("_ident"), *self._where({}))
            await self._write(statement, rows)
