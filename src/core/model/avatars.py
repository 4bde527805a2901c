"""The avatars the service ships, as GET /avatars lists them."""

from avatar_service.core.model.common import Resource


class Avatar(Resource, kw_only=True):
    id: str
    name: str
    style: str
    preview_url: str | None = None


class AvatarList(Resource, kw_only=True):
    data: list[Avatar]
