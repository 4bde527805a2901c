"""/v1/personalities."""

from litestar import Router, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from avatar_service.core.model import (
    Deleted,
    Page,
    Personality,
    PersonalityCreate,
    PersonalityPatch,
    PersonalityWithSecret,
)
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.personalities import Personalities
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@post("/", status_code=201, opt=scopes("write"))
async def create_personality(
    data: JSONBody[PersonalityCreate], personalities: NamedDependency[Personalities], caller: NamedDependency[Caller]
) -> PersonalityWithSecret:
    """`tools_secret` is set when the personality is created with tools, and shown only here."""
    return await personalities.create(caller.organization_id, data)


@get("/", opt=scopes("read"))
async def list_personalities(
    personalities: NamedDependency[Personalities],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
) -> Page[Personality]:
    return await personalities.list(caller.organization_id, page(limit, cursor))


@get("/{personality_id:str}", opt=scopes("read"))
async def get_personality(
    personality_id: FromPath[str], personalities: NamedDependency[Personalities], caller: NamedDependency[Caller]
) -> Personality:
    return await personalities.get(caller.organization_id, personality_id)


@patch("/{personality_id:str}", opt=scopes("write"))
async def update_personality(
    personality_id: FromPath[str],
    data: JSONBody[PersonalityPatch],
    personalities: NamedDependency[Personalities],
    caller: NamedDependency[Caller],
) -> PersonalityWithSecret:
    """`tools_secret` is set when this update gives the personality its first tools, and shown only here."""
    return await personalities.update(caller.organization_id, personality_id, data)


@delete("/{personality_id:str}", status_code=200, opt=scopes("write"))
async def delete_personality(
    personality_id: FromPath[str], personalities: NamedDependency[Personalities], caller: NamedDependency[Caller]
) -> Deleted:
    return await personalities.delete(caller.organization_id, personality_id)


router = Router(
    "/personalities",
    tags=["Personalities"],
    route_handlers=[create_personality, list_personalities, get_personality, update_personality, delete_personality],
)
