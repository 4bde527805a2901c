"""/v1/avatars: the avatars the service ships."""

from litestar import get
from litestar.di import NamedDependency
from litestar.params import SkipValidation

from avatar_service.core.model import Avatar, AvatarList
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.ports.renderer import AvatarRenderer


@get("/avatars", opt=scopes("read"), tags=["Avatars"])
async def list_avatars(renderer: NamedDependency[SkipValidation[AvatarRenderer]]) -> AvatarList:
    return AvatarList(data=[Avatar(id=a.id, name=a.name, style=a.style) for a in renderer.list_avatars()])
