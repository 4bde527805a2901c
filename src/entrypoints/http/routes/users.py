"""/v1/users."""

from typing import Annotated

from litestar import Router, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from avatar_service.core.model import Deleted, Page, User, UserCreate, UserPatch
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.users import Users
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page

ExternalId = Annotated[str | None, QueryParameter(max_length=255, description="Only the user with this external_id.")]


@post("/", status_code=201, opt=scopes("write"))
async def create_user(
    data: JSONBody[UserCreate], users: NamedDependency[Users], caller: NamedDependency[Caller]
) -> User:
    return await users.create(caller.organization_id, data)


@get("/", opt=scopes("read"))
async def list_users(
    users: NamedDependency[Users],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
    external_id: ExternalId = None,
) -> Page[User]:
    return await users.list(caller.organization_id, page(limit, cursor), external_id)


@get("/{user_id:str}", opt=scopes("read"))
async def get_user(user_id: FromPath[str], users: NamedDependency[Users], caller: NamedDependency[Caller]) -> User:
    return await users.get(caller.organization_id, user_id)


@patch("/{user_id:str}", opt=scopes("write"))
async def update_user(
    user_id: FromPath[str], data: JSONBody[UserPatch], users: NamedDependency[Users], caller: NamedDependency[Caller]
) -> User:
    return await users.update(caller.organization_id, user_id, data)


@delete("/{user_id:str}", status_code=200, opt=scopes("write"))
async def delete_user(
    user_id: FromPath[str], users: NamedDependency[Users], caller: NamedDependency[Caller]
) -> Deleted:
    return await users.delete(caller.organization_id, user_id)


router = Router(
    "/users",
    tags=["Users and memories"],
    route_handlers=[create_user, list_users, get_user, update_user, delete_user],
)
