"""Keeps this process's cached vector namespaces in step with storage, across processes and restarts.

Every change to a namespace's vectors (a user's memories, a personality's chunks) bumps the namespace's
stored version in the same transaction. Before a search, one primary-key read compares the stored version
with the one the cache reflects; when another process (a second API process, `avatar worker`) wrote since,
or nothing is cached yet (a restart), the namespace is rebuilt from the stored embeddings. The version is
read before the rows, so a rebuild can only be newer than the version it claims, never older.
"""

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import UnitOfWork


@dataclass(frozen=True, slots=True)
class Stored:
    """A namespace's vectors as storage holds them."""

    ids: Sequence[str]
    vectors: Sequence[bytes]
    groups: Sequence[str]


Loader = Callable[[], Awaitable[Stored]]


async def fresh(uow: UnitOfWork, semantic: Semantic, namespace: str, loader: Loader) -> None:
    """Makes the cached namespace at least as new as the stored version."""
    stored = await uow.vector_versions.get(namespace)
    if semantic.version(namespace) != stored:
        rows = await loader()
        await semantic.load(namespace, stored, rows.ids, rows.vectors, rows.groups)


async def reload(uow: UnitOfWork, semantic: Semantic, namespace: str, loader: Loader) -> None:
    """Rebuilds the namespace whatever its version says (a search found a vector whose row is gone)."""
    semantic.forget(namespace)
    await fresh(uow, semantic, namespace, loader)
