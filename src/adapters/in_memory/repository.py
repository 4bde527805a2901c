"""One generic in-memory repository: rows kept as builtin dicts and read back as msgspec records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec

from avatar_service.core.errors import Conflict
from avatar_service.core.pagination import PageRequest

if TYPE_CHECKING:
    from avatar_service.adapters.in_memory.storage import MemoryUnitOfWork

R = TypeVar("R", bound=msgspec.Struct)
Row = dict[str, Any]
_BUILTINS = (datetime, bytes)

# The SQL schema's unique constraints besides the primary key. A key containing None never clashes
# (NULLs are distinct in unique indexes on SQLite and PostgreSQL).
UNIQUE: dict[str, list[tuple[str, ...]]] = {
    "organizations": [("slug",)],
    "api_keys": [("secret_hash",)],
    "users": [("organization_id", "external_id")],
}


def to_row(record: msgspec.Struct | Row) -> Row:
    """A deep copy as builtins, so callers mutating a record never change the store."""
    return msgspec.to_builtins(record, builtin_types=_BUILTINS)  # type: ignore[no-any-return]


def matches(row: Row, equals: dict[str, Any]) -> bool:
    """SQL's filters: None is IS NULL, a list or tuple is IN, anything else is equality."""
    for name, value in equals.items():
        column = row[name]
        if isinstance(value, list | tuple):
            if column not in value:
                return False
        elif column != value:  # None == None stands in for IS NULL
            return False
    return True


class MemoryRepository(Generic[R]):
    def __init__(
        self, uow: MemoryUnitOfWork, table: str, record: type[R], organization_id: str | None
    ) -> None:
        self.uow, self.table, self.record = uow, table, record
        self._fields = set(record.__struct_fields__)
        # like the SQL adapter: only tables with an organization_id column are scoped
        self.org = organization_id if "organization_id" in self._fields else None
        self._dated = "created_at" in self._fields

    def _load(self, row: Row) -> R:
        # convert() passes `Any` values through as they are: copy first, so no record shares the store's lists
        return msgspec.convert(to_row(row), self.record)

    def _check_columns(self, names: Any) -> None:
        unknown = set(names) - self._fields
        if unknown:  # SQL fails on an unknown column too; a typo must not filter on nothing
            raise KeyError(f"{self.table} has no column(s) {sorted(unknown)}")

    def _rows(self, equals: dict[str, Any]) -> list[Row]:
        self._check_columns(equals)
        if self.org is not None:
            equals = {**equals, "organization_id": self.org}
        return [row for row in self.uow.read(self.table).values() if matches(row, equals)]

    def _newest_first(self, rows: list[Row]) -> list[Row]:
        if self._dated:
            return sorted(rows, key=lambda r: (r["created_at"], r["id"]), reverse=True)
        return sorted(rows, key=lambda r: r["id"])  # the SQL adapter orders undated tables by id

    async def _write(self, change: Callable[[dict[str, Row]], None]) -> None:
        """Applies `change` to a copy of the table, kept only if no constraint breaks (atomic statements)."""
        await self.uow.lock()
        rows = dict(self.uow.read(self.table))
        change(rows)
        for columns in UNIQUE.get(self.table, []):
            seen: set[tuple[Any, ...]] = set()
            for row in rows.values():
                key = tuple(row[c] for c in columns)
                if None in key:
                    continue
                if key in seen:
                    raise Conflict("The resource conflicts with one that exists", code="resource_exists")
                seen.add(key)
        self.uow.replace(self.table, rows)

    async def add(self, record: R) -> None:
        await self.add_many([record])

    async def add_many(self, records: Sequence[R]) -> None:
        if not records:
            return

        def insert(rows: dict[str, Row]) -> None:
            for record in records:
                row = to_row(record)
                if row["id"] in rows:
                    raise Conflict("The resource conflicts with one that exists", code="resource_exists")
                rows[row["id"]] = row

        await self._write(insert)

    async def get(self, ident: str) -> R | None:
        found = self._rows({"id": ident})
        return self._load(found[0]) if found else None

    async def _set(self, ident: str, expect: dict[str, Any] | None, values: Row) -> bool:
        self._check_columns(values)
        await self.uow.lock()  # read under the writer lock, so `expect` sees the latest commit
        found = self._rows({"id": ident, **(expect or {})})
        if not found:
            return False
        await self._write(lambda rows: rows.__setitem__(ident, {**found[0], **values}))
        return True

    async def update(self, record: R, expect: dict[str, Any] | None = None) -> bool:
        values = to_row(record)
        return await self._set(values.pop("id"), expect, values)

    async def set(self, ident: str, expect: dict[str, Any] | None = None, **values: Any) -> bool:
        return await self._set(ident, expect, msgspec.to_builtins(values, builtin_types=_BUILTINS))

    async def delete(self, ident: str) -> bool:
        return await self.delete_where(id=ident) == 1

    async def delete_where(self, **equals: Any) -> int:
        await self.uow.lock()
        doomed = [row["id"] for row in self._rows(equals)]

        def remove(rows: dict[str, Row]) -> None:
            for ident in doomed:
                del rows[ident]

        if doomed:
            await self._write(remove)
        return len(doomed)

    async def page(self, request: PageRequest, **equals: Any) -> tuple[list[R], bool]:
        rows = self._newest_first(self._rows(equals))
        if request.after is not None and self._dated:
            at, ident = request.after
            rows = [r for r in rows if r["created_at"] < at or (r["created_at"] == at and r["id"] < ident)]
        return [self._load(r) for r in rows[: request.limit]], len(rows) > request.limit

    async def find(self, *, limit: int | None = None, **equals: Any) -> list[R]:
        rows = self._newest_first(self._rows(equals))
        return [self._load(r) for r in rows[:limit]]

    async def get_many(self, ids: Sequence[str]) -> list[R]:
        return [self._load(r) for r in self._rows({"id": list(ids)})]

    async def columns(self, names: Sequence[str], **equals: Any) -> list[tuple[Any, ...]]:
        self._check_columns(names)
        return [tuple(r[name] for name in names) for r in self._rows(equals)]

    async def due(self, column: str, before: datetime, limit: int, **equals: Any) -> list[R]:
        self._check_columns([column])
        rows = [r for r in self._rows(equals) if r[column] is not None and r[column] <= before]
        return [self._load(r) for r in sorted(rows, key=lambda r: r[column])[:limit]]

    async def claim_due(self, column: str, before: datetime, limit: int, until: datetime, **equals: Any) -> list[R]:
        await self.uow.lock()  # claimed under the writer lock, as SQLite's one writer claims them
        due = await self.due(column, before, limit, **equals)
        await self.set_many([{"id": record.id, column: until} for record in due])  # type: ignore[attr-defined]
        return due

    async def set_many(self, changes: Sequence[dict[str, Any]]) -> None:
        for change in changes:
            values = {k: v for k, v in change.items() if k != "id"}
            await self.set(change["id"], **values)
