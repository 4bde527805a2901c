"""/v1/api-keys: create (secret shown once), read, list, revoke. Needs the `*` scope."""

from litestar import Router, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from avatar_service.core.model import ApiKey, ApiKeyCreate, ApiKeyWithSecret, Deleted, Page
from avatar_service.core.services.api_keys import ApiKeys, Caller
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@post("/", status_code=201, opt=scopes("*"))
async def create_key(
    data: JSONBody[ApiKeyCreate], api_keys: NamedDependency[ApiKeys], caller: NamedDependency[Caller]
) -> ApiKeyWithSecret:
    return await api_keys.create(caller.organization_id, data)


@get("/", opt=scopes("*"))
async def list_keys(
    api_keys: NamedDependency[ApiKeys], caller: NamedDependency[Caller], limit: Limit = 20, cursor: Cursor = None
) -> Page[ApiKey]:
    return await api_keys.list(caller.organization_id, page(limit, cursor))


@get("/{key_id:str}", opt=scopes("*"))
async def get_key(key_id: FromPath[str], api_keys: NamedDependency[ApiKeys], caller: NamedDependency[Caller]) -> ApiKey:
    return await api_keys.get(caller.organization_id, key_id)


@delete("/{key_id:str}", status_code=200, opt=scopes("*"))
async def revoke_key(
    key_id: FromPath[str], api_keys: NamedDependency[ApiKeys], caller: NamedDependency[Caller]
) -> Deleted:
    return await api_keys.revoke(caller.organization_id, key_id)


router = Router("/api-keys", route_handlers=[create_key, list_keys, get_key, revoke_key], tags=["API keys"])
