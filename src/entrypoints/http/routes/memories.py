"""/v1/users/{id}/memories: what a personality remembers about a user."""

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
)
from avatar_service.core.model.memories import MemoryCategory
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.memories import Memories
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


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
        create_memory,
        bulk_memories,
        search_memories,
        list_memories,
        get_memory,
        update_memory,
        delete_memory,
    ],
)
