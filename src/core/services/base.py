"""What every use case shares: storage, time, ids, and turning records into pages."""

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from msgspec import Struct, to_builtins

from avatar_service.core.errors import missing
from avatar_service.core.ids import looks_like
from avatar_service.core.model import Event, Page, public
from avatar_service.core.pagination import encode_cursor
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.storage import Repository, Storage, UnitOfWork

R = TypeVar("R", bound=Struct)
V = TypeVar("V", bound=Struct)


class Deps:
    """The ports nearly every use case needs, resolved once by the container."""

    def __init__(self, storage: Storage, clock: Clock, ids: Ids) -> None:
        self.storage = storage
        self.clock = clock
        self.ids = ids


async def fetch(repo: Repository[R], kind: str, ident: str, *, param: str | None = None) -> R:
    """The record, or NotFound: a malformed id and another organization's id look the same."""
    record = await repo.get(ident) if looks_like(kind, ident) else None
    if record is None:
        raise missing(kind.replace("_", " ").replace(".", " "), ident, param=param)
    return record


async def fetch_owned(parents: Repository[Any], parent_kind: str, parent_id: str, repo: Repository[R], kind: str,
                      ident: str, owner_field: str) -> R:
    """A record under a parent (a personality's knowledge item, a user's memory): NotFound when the parent is
    missing, the record is, or the record belongs to another parent (which looks the same as missing)."""
    await fetch(parents, parent_kind, parent_id)
    record: R = await fetch(repo, kind, ident)
    if getattr(record, owner_field) != parent_id:
        raise missing(kind.replace("_", " "), ident)
    return record


def page_of(records: Sequence[Any], has_more: bool, view: type[V] | Callable[[Any], V]) -> Page[V]:
    """A page of public views: `view` is the view type, or a function for views with computed fields."""
    convert = (lambda r: public(r, view)) if isinstance(view, type) else view
    data = [convert(r) for r in records]
    cursor = encode_cursor(records[-1].created_at, records[-1].id) if has_more and records else None
    return Page(data=data, has_more=has_more, next_cursor=cursor)


async def emit(uow: UnitOfWork, deps: Deps, organization_id: str, kind: str, data: Struct, *,
               target_url: str | None = None, target_secret: str | None = None) -> None:
    """Writes an event to the outbox inside the caller's transaction (delivered after commit).

    Without a target it goes to the organization's subscribed webhooks; with one, only to that URL,
    signed with `target_secret` (a video's own `webhook_url`).
    """
    await uow.outbox.add(
        Event(
            id=deps.ids.new("event"),
            organization_id=organization_id,
            type=kind,
            created_at=deps.clock.now(),
            data=to_builtins(data),
            target_url=target_url,
            target_secret=target_secret,
        )
    )

