"""End users of the customer's application."""

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta

from avatar_service.core.model.common import UNSET, Metadata, Request, Resource, UnsetType

ExternalId = Annotated[str, Meta(min_length=1, max_length=255)]


class UserSettings(Resource, forbid_unknown_fields=True):
    memory_enabled: bool = True


class User(Resource):
    id: str
    object: Literal["user"] = "user"
    created_at: datetime
    updated_at: datetime
    external_id: str | None = None
    metadata: dict[str, Any] = {}
    settings: UserSettings = UserSettings()


class UserRecord(User):
    organization_id: str


class UserCreate(Request):
    external_id: ExternalId | None = None
    metadata: Metadata = {}
    settings: UserSettings = UserSettings()


class UserPatch(Request):
    external_id: ExternalId | None | UnsetType = UNSET
    metadata: Metadata | UnsetType = UNSET
    settings: UserSettings | UnsetType = UNSET
