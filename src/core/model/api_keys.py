"""API keys: scopes, the public object and the stored record (hash only, never the secret)."""

from datetime import datetime
from typing import Annotated, Literal

from msgspec import Meta

from avatar_service.core.model.common import Request, Resource

Scope = Literal["*", "read", "write", "conversations", "chat", "voice", "video"]


class ApiKey(Resource, kw_only=True):
    id: str
    object: Literal["api_key"] = "api_key"
    name: str
    key_prefix: str
    scopes: list[Scope]
    created_at: datetime
    last_used_at: datetime | None = None
    # requests a minute this key may make; null: the deployment's AVATAR_RATE_LIMIT_PER_MINUTE; 0: no limit
    rate_limit_per_minute: int | None = None


class ApiKeyWithSecret(ApiKey, kw_only=True):
    """Returned once, at creation: the only time the secret is shown."""

    secret: str


class OrganizationApiKey(ApiKey, kw_only=True):
    """A key with the slug of its organization, as the operator's CLI lists every organization's keys."""

    organization: str


class ApiKeyRecord(ApiKey, kw_only=True):
    organization_id: str
    secret_hash: str
    revoked_at: datetime | None = None


class ApiKeyCreate(Request, kw_only=True):
    name: Annotated[str, Meta(min_length=1, max_length=255)]
    scopes: Annotated[list[Scope], Meta(min_length=1, max_length=7)]
    rate_limit_per_minute: Annotated[int, Meta(ge=0, le=1_000_000)] | None = None
