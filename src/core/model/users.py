"""End users of the customer's application."""

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta, field

from avatar_service.core.model.common import UNSET, Metadata, Request, Resource, UnsetType

ExternalId = Annotated[str, Meta(min_length=1, max_length=255)]


class UserSettings(Resource, kw_only=True, forbid_unknown_fields=True):
    memory_enabled: bool = True


class User(Resource, kw_only=True):
    id: str
    object: Literal["user"] = "user"
    created_at: datetime
    updated_at: datetime
    external_id: str | None = None
    metadata: dict[str, Any] = {}
    settings: UserSettings = field(default_factory=UserSettings)


class UserRecord(User, kw_only=True):
    organization_id: str


class UserCreate(Request, kw_only=True):
    external_id: ExternalId | None = None
    metadata: Metadata = {}
    settings: UserSettings = field(default_factory=UserSettings)


class UserPatch(Request, kw_only=True):
    external_id: ExternalId | None | UnsetType = UNSET
    metadata: Metadata | UnsetType = UNSET
    settings: UserSettings | UnsetType = UNSET
