"""End users: create (external_id unique per organization), read, list, update, delete with memories."""

from __future__ import annotations

from collections.abc import Awaitable

from avatar_service.core.errors import Conflict
from avatar_service.core.model import Deleted, Page, User, UserCreate, UserPatch, UserRecord, public, replace
from avatar_service.core.model.common import UNSET
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, fetch, page_of
from avatar_service.core.services.filters import given
from avatar_service.core.validation import check_metadata
from avatar_service.ports.storage import UnitOfWork


class Users:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    async def _unique(self, uow: UnitOfWork, external_id: str | None, own_id: str | None = None) -> None:
        if external_id is None:
            return
        found = await uow.users.find(external_id=external_id, limit=1)
        if found and found[0].id != own_id:
            raise Conflict(f"A user with external_id '{external_id}' already exists", param="external_id",
                           code="resource_exists")

    async def _write(self, uow: UnitOfWork, write: Awaitable[object], external_id: str | None) -> None:
        """Writes and commits. A concurrent request may take the external_id after the look-up: the unique index
        then decides, at the write or at the commit (a storage may hold an insert back until then)."""
        try:
            await write
            await uow.commit()
        except Conflict as error:
            raise Conflict(f"A user with external_id '{external_id}' already exists", param="external_id",
                           code="resource_exists") from error

    async def create(self, organization_id: str, data: UserCreate) -> User:
        check_metadata(data.metadata)
        now = self.deps.clock.now()
        record = UserRecord(
            id=self.deps.ids.new("user"),
            created_at=now,
            updated_at=now,
            external_id=data.external_id,
            metadata=data.metadata,
            settings=data.settings,
            organization_id=organization_id,
        )
        async with self.deps.storage(organization_id) as uow:
            await self._unique(uow, data.external_id)
            await self._write(uow, uow.users.add(record), data.external_id)
        return public(record, User)

    async def get(self, organization_id: str, user_id: str) -> User:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return public(await fetch(uow.users, "user", user_id), User)

    async def list(self, organization_id: str, page: PageRequest, external_id: str | None = None) -> Page[User]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.users.page(page, **given(external_id=external_id))
        return page_of(records, more, User)

    async def update(self, organization_id: str, user_id: str, patch: UserPatch) -> User:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.users, "user", user_id)
            changes = {n: getattr(patch, n) for n in ("external_id", "metadata", "settings")
                       if getattr(patch, n) is not UNSET}
            if "metadata" in changes:
                check_metadata(patch.metadata)  # type: ignore[arg-type]
            if "external_id" in changes:
                await self._unique(uow, patch.external_id, record.id)  # type: ignore[arg-type]
            record = replace(record, **changes, updated_at=self.deps.clock.now())
            await self._write(uow, uow.users.update(record), record.external_id)
        return public(record, User)

    async def delete(self, organization_id: str, user_id: str) -> Deleted:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.users, "user", user_id)
            await uow.memories.delete_where(user_id=record.id)
            await uow.users.delete(record.id)
            await uow.commit()
        return Deleted(id=record.id, object="user")
