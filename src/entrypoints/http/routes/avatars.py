"""/v1/avatars: the drawn avatars the service ships and the organization's photo avatars (a portrait upload)."""

from dataclasses import dataclass
from typing import Any

from litestar import Request, Router, delete, get, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import OpenAPIFormat, OpenAPIMediaType, OpenAPIType, Operation, RequestBody, Schema
from litestar.params import FromPath

from avatar_service.core.errors import Invalid, TooLarge
from avatar_service.core.model import Avatar, AvatarList, Deleted
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.avatars import Avatars
from avatar_service.entrypoints.http.auth import scopes

UPLOAD_OVERHEAD = 64 * 1024  # bytes of multipart boundaries, part headers and the name field


@get("/avatars", opt=scopes("read"))
async def list_avatars(avatars: NamedDependency[Avatars], caller: NamedDependency[Caller]) -> AvatarList:
    return await avatars.list(caller.organization_id)


@get("/avatars/{avatar_id:str}", opt=scopes("read"))
async def get_avatar(avatar_id: FromPath[str], avatars: NamedDependency[Avatars],
                     caller: NamedDependency[Caller]) -> Avatar:
    return await avatars.get(caller.organization_id, avatar_id)


@delete("/avatars/{avatar_id:str}", status_code=200, opt=scopes("write"))
async def delete_avatar(avatar_id: FromPath[str], avatars: NamedDependency[Avatars],
                        caller: NamedDependency[Caller]) -> Deleted:
    return await avatars.delete(caller.organization_id, avatar_id)


@dataclass
class _UploadOperation(Operation):
    """The body is read by hand (multipart), so the document describes it here."""

    def __post_init__(self) -> None:
        form = Schema(
            type=OpenAPIType.OBJECT,
            required=["image", "name"],
            properties={
                "image": Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.BINARY,
                                description="A JPEG, PNG or WebP portrait: one face at least 96 px wide"),
                "name": Schema(type=OpenAPIType.STRING, min_length=1, max_length=255, pattern=r"\S"),
            },
            additional_properties=False,
        )
        self.request_body = RequestBody(required=True,
                                        content={"multipart/form-data": OpenAPIMediaType(schema=form)})


def create_avatar(max_upload_bytes: int) -> HTTPRouteHandler:
    @post("/avatars", status_code=201, opt=scopes("write"), operation_class=_UploadOperation)
    async def create(request: Request[Any, Any, Any], avatars: NamedDependency[Avatars],
                     caller: NamedDependency[Caller]) -> Avatar:
        """Uploads a portrait (multipart `image` and `name`) as a photo avatar (style `realistic`)."""
        if request.content_type[0] != "multipart/form-data":
            raise Invalid("Send multipart/form-data with the fields 'image' and 'name'", param="image")
        form = await request.form()
        for field in form:
            if field not in ("image", "name"):  # as for JSON bodies: a typo never passes in silence
                raise Invalid(f"Unknown field '{field}': send 'image' and 'name'", param=field)
        image, name = form.get("image"), form.get("name")
        if image is None or isinstance(image, str):
            raise Invalid("A photo avatar needs an 'image' file field", param="image")
        if not isinstance(name, str):
            raise Invalid("A photo avatar needs a 'name' field", param="name")
        data = await image.read()
        if len(data) > max_upload_bytes:
            raise TooLarge(f"Uploads are limited to {max_upload_bytes} bytes", param="image")
        return await avatars.create(caller.organization_id, name, data)

    return create


def router(max_upload_bytes: int) -> Router:
    """The avatars; POST on a router of its own cap: its body holds an uploaded image, so AVATAR_MAX_UPLOAD_BYTES
    (plus the multipart framing) applies rather than the API's body cap."""
    uploads = Router("/", route_handlers=[create_avatar(max_upload_bytes)],
                     request_max_body_size=max_upload_bytes + UPLOAD_OVERHEAD)
    return Router("/", tags=["Avatars"], route_handlers=[list_avatars, get_avatar, delete_avatar, uploads])
