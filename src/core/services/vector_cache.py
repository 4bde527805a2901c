"""Keeps this process's cached vector namespaces in step with storage, across processes and restarts.

Every change to a namespace's vectors (a user's memories, a personality's chunks) bumps the namespace's
stored version in the same transaction and logs the vector ids it changed. Before a search, one primary-key
read compares the stored version with the one the cache reflects. When another process (a second API
process, `avatar worker`) wrote since, only the logged ids are read again, by primary key, and applied
(inserted, updated, or deleted when the row is gone); the namespace is read in full only when nothing is
cached and no local file holds it, when the log no longer reaches back to the version held (pruned), or when
most of it changed. The version is read before the rows, so the cache can only be newer than the version it
claims, never older.
"""

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import UnitOfWork

BATCH = 500  # ids per primary-key read


@dataclass(frozen=True, slots=True)
class Stored:
    """Vectors as storage holds them."""

    ids: Sequence[str]
    vectors: Sequence[bytes]
    groups: Sequence[str]


@dataclass(frozen=True, slots=True)
class Source:
    """How to read a namespace's vectors: all of them, or those of some ids (the ones that still exist)."""

    everything: Callable[[], Awaitable[Stored]]
    some: Callable[[Sequence[str]], Awaitable[Stored]]


def stored(rows: Sequence[tuple[Any, ...]]) -> Stored:
    """Rows of (id, group, embedding) as Stored."""
    return Stored([r[0] for r in rows], [r[2] for r in rows], [r[1] for r in rows])


async def in_batches(read: Callable[[Sequence[str]], Awaitable[Stored]], ids: Sequence[str]) -> Stored:
    found = Stored([], [], [])
    for start in range(0, len(ids), BATCH):
        part = await read(ids[start:start + BATCH])
        found = Stored([*found.ids, *part.ids], [*found.vectors, *part.vectors], [*found.groups, *part.groups])
    return found


async def fresh(uow: UnitOfWork, semantic: Semantic, namespace: str, source: Source) -> None:
    """Makes the cached namespace at least as new as the stored version."""
    version, floor = await uow.vector_versions.state(namespace)
    held = semantic.version(namespace)
    if held is not None and held >= version:
        return  # this process's own commits may already be past what was read
    if held is None and version > 0:
        held = await semantic.restore(namespace)  # a file from before a restart, if there is one
        if held == version:
            return
    if held is not None and floor <= held < version:
        changed = await uow.vector_versions.changed_since(namespace, held)
        if len(changed) <= max(BATCH, semantic.count(namespace) // 2):
            rows = await in_batches(source.some, changed)
            gone = set(changed).difference(rows.ids)
            await semantic.catch_up(namespace, held, version, ids=rows.ids, vectors=rows.vectors, groups=rows.groups,
                                    removed=[ident for ident in changed if ident in gone])
            now = semantic.version(namespace)
            if now is not None and now >= version:
                return
    rows = await source.everything()
    await semantic.load(namespace, version, rows.ids, rows.vectors, rows.groups)


async def reload(uow: UnitOfWork, semantic: Semantic, namespace: str, source: Source) -> None:
    """Rebuilds the namespace whatever its version says."""
    semantic.forget(namespace)
    await fresh(uow, semantic, namespace, source)


async def rows_missing(uow: UnitOfWork, semantic: Semantic, namespace: str, source: Source,
                       missing: Sequence[str]) -> None:
    """A search named vectors whose rows were not there when read. When storage moved on since the cache was
    brought up to date (a commit landed between the two reads: a knowledge refresh replacing its chunks), the
    cache catches up with it, so the next search finds the new rows instead of none. When it did not (a row
    deleted without a version bump: its personality's), the vectors leave the cache."""
    held = semantic.version(namespace)
    await fresh(uow, semantic, namespace, source)
    if semantic.version(namespace) == held:
        semantic.discard(namespace, missing)
