"""/v1/users and their memories."""

from typing import Annotated

from litestar import Router, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from avatar_service.core.model import (
    Deleted,
    Memory,
    MemoryBulkCreate,
    MemoryBulkResult,
    MemoryCreate,
    MemoryPatch,
    MemorySearch,
    MemorySearchResult,
    Page,
    User,
    UserCreate,
    UserPatch,
)
from avatar_service.core.model.memories import MemoryCategory
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.memories import Memories
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


@post("/{user_id:str}/memories", status_code=201, opt=scopes("write"))
async def create_memory(
    user_id: FromPath[str],
    data: JSONBody[MemoryCreate],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> Memory:
    return await memory_service.create(caller.organization_id, user_id, data)


@post("/{user_id:str}/memories/bulk", status_code=201, opt=scopes("write"))
async def bulk_memories(
    user_id: FromPath[str],
    data: JSONBody[MemoryBulkCreate],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> MemoryBulkResult:
    return await memory_service.bulk(caller.organization_id, user_id, data)


@post("/{user_id:str}/memories/search", status_code=200, opt=scopes("read"))
async def search_memories(
    user_id: FromPath[str],
    data: JSONBody[MemorySearch],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> MemorySearchResult:
    return await memory_service.search(caller.organization_id, user_id, data)


@get("/{user_id:str}/memories", opt=scopes("read"))
async def list_memories(
    user_id: FromPath[str],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
    personality_id: Annotated[str | None, QueryParameter(max_length=128)] = None,
    category: FromQuery[MemoryCategory | None] = None,
) -> Page[Memory]:
    return await memory_service.list(caller.organization_id, user_id, page(limit, cursor), personality_id, category)


@get("/{user_id:str}/memories/{memory_id:str}", opt=scopes("read"))
async def get_memory(
    user_id: FromPath[str],
    memory_id: FromPath[str],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> Memory:
    return await memory_service.get(caller.organization_id, user_id, memory_id)


@patch("/{user_id:str}/memories/{memory_id:str}", opt=scopes("write"))
async def update_memory(
    user_id: FromPath[str],
    memory_id: FromPath[str],
    data: JSONBody[MemoryPatch],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> Memory:
    return await memory_service.update(caller.organization_id, user_id, memory_id, data)


@delete("/{user_id:str}/memories/{memory_id:str}", status_code=200, opt=scopes("write"))
async def delete_memory(
    user_id: FromPath[str],
    memory_id: FromPath[str],
    memory_service: NamedDependency[Memories],
    caller: NamedDependency[Caller],
) -> Deleted:
    return await memory_service.delete(caller.organization_id, user_id, memory_id)


router = Router(
    "/users",
    tags=["Users and memories"],
    route_handlers=[
        create_user,
        list_users,
        get_user,
        update_user,
        delete_user,
        create_memory,
        bulk_memories,
        search_memories,
        list_memories,
        get_memory,
        update_memory,
        delete_memory,
    ],
)
