"""API keys: create (secret shown once), list, revoke, and authenticate a bearer secret."""

from __future__ import annotations

import asyncio
import builtins
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

import msgspec

from avatar_service.core.errors import Unauthenticated, missing
from avatar_service.core.model import ApiKey, ApiKeyCreate, ApiKeyRecord, ApiKeyWithSecret, Deleted, Organization
from avatar_service.core.model import Page as PageOf
from avatar_service.core.model.api_keys import OrganizationApiKey
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, fetch, page_of

TOUCH_EVERY = timedelta(minutes=1)  # last_used_at is written at most this often per key
CACHE_SECONDS = 2.0  # how long a verified key is trusted without a read (revocation here is immediate)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling: their organization and what their key may do."""

    organization_id: str
    scopes: frozenset[str]
    key_id: str | None = None
    rate_limit_per_minute: int | None = None  # the key's own limit; None: the deployment's


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class ApiKeys:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        # secret hash -> (verified at, the key, its Caller): the Caller is made once per read, not per request
        self._cache: dict[str, tuple[float, ApiKeyRecord, Caller]] = {}
        self._lookups: dict[str, asyncio.Future[ApiKeyRecord | None]] = {}

    async def create(self, organization_id: str, data: ApiKeyCreate) -> ApiKeyWithSecret:
        secret = "sk_" + secrets.token_urlsafe(32)
        record = ApiKeyRecord(
            id=self.deps.ids.new("api_key"),
            name=data.name,
            key_prefix=secret[:8],
            scopes=sorted(set(data.scopes)),
            created_at=self.deps.clock.now(),
            organization_id=organization_id,
            secret_hash=hash_secret(secret),
            rate_limit_per_minute=data.rate_limit_per_minute,
        )
        async with self.deps.storage(organization_id) as uow:
            await uow.api_keys.add(record)
            await uow.commit()
        return ApiKeyWithSecret(**{f: getattr(record, f) for f in ApiKey.__struct_fields__}, secret=secret)

    async def get(self, organization_id: str, key_id: str) -> ApiKey:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.api_keys, "api_key", key_id)
        if record.revoked_at is not None:  # a revoked key is gone for its owners too
            raise missing("api key", key_id)
        return _view(record)

    async def list(self, organization_id: str, page: PageRequest) -> PageOf[ApiKey]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.api_keys.page(page, revoked_at=None)
        return page_of(records, more, ApiKey)

    async def revoke(self, organization_id: str, key_id: str) -> Deleted:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.api_keys, "api_key", key_id)
            if record.revoked_at is None:
                await uow.api_keys.set(record.id, revoked_at=self.deps.clock.now())
                await uow.commit()
        self._cache.pop(record.secret_hash, None)
        return Deleted(id=key_id, object="api_key")

    async def list_every(self) -> builtins.list[OrganizationApiKey]:  # (`list` is a method here)
        """Every organization's live keys, newest first (the operator's view: `avatar keys list`)."""
        async with self.deps.storage(None, read_only=True) as uow:
            records = await uow.api_keys.find(revoked_at=None)
            slugs = {org.id: org.slug for org in await uow.organizations.find()}
        return [OrganizationApiKey(**msgspec.structs.asdict(_view(r)), organization=slugs.get(r.organization_id, "?"))
                for r in records]

    async def revoke_any(self, key_id: str) -> Deleted:
        """Revokes a key of any organization, found by its id (the operator's `avatar keys revoke`)."""
        async with self.deps.storage(None, read_only=True) as uow:
            found = await uow.api_keys.find(id=key_id, limit=1)
        if not found:
            raise missing("api key", key_id)
        return await self.revoke(found[0].organization_id, key_id)

    async def authenticate(self, secret: str) -> Caller:
        if not secret.startswith("sk_") or len(secret) > 200:
            raise Unauthenticated("Invalid API key")
        digest = hash_secret(secret)
        now = self.deps.clock.now()
        cached = self._cache.get(digest)
        if cached is None or now.timestamp() - cached[0] >= CACHE_SECONDS:
            found = await self._look_up(digest)
            if found is None or not hmac.compare_digest(found.secret_hash, digest):
                raise Unauthenticated("Invalid API key")
            caller = Caller(found.organization_id, frozenset(found.scopes), found.id, found.rate_limit_per_minute)
            cached = self._cache[digest] = (now.timestamp(), found, caller)
        _, record, caller = cached
        if record.revoked_at is not None:
            raise Unauthenticated("This API key has been revoked")
        if record.last_used_at is None or now - record.last_used_at >= TOUCH_EVERY:
            record.last_used_at = now
            async with self.deps.storage(record.organization_id) as uow:
                await uow.api_keys.set(record.id, last_used_at=now)
                await uow.commit()
        return caller

    async def _look_up(self, digest: str) -> ApiKeyRecord | None:
        """One read for all the requests that miss the cache at once: when a busy key's entry expires, dozens of
        requests would otherwise each take a connection for the same row."""
        lookup = self._lookups.get(digest)
        if lookup is None or lookup.get_loop() is not asyncio.get_running_loop():  # (one left by a closed loop)
            lookup = self._lookups[digest] = asyncio.ensure_future(self._read(digest))
            lookup.add_done_callback(lambda _: self._lookups.pop(digest, None))
        return await asyncio.shield(lookup)  # a caller that goes away does not cancel the others' read

    async def _read(self, digest: str) -> ApiKeyRecord | None:
        async with self.deps.storage(None, read_only=True) as uow:
            return await uow.api_keys.by_hash(digest)

    async def organization(self, slug: str) -> Organization:
        """The organization with this slug, created when missing (the CLI's first key)."""
        async with self.deps.storage(None) as uow:
            found = await uow.organizations.find(slug=slug, limit=1)
            if found:
                return found[0]
            org = Organization(id=self.deps.ids.new("organization"), slug=slug, created_at=self.deps.clock.now())
            await uow.organizations.add(org)
            await uow.commit()
        return org


def _view(record: ApiKeyRecord) -> ApiKey:
    return ApiKey(**{f: getattr(record, f) for f in ApiKey.__struct_fields__})
