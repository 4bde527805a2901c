"""Every API operation the CLI uses, once: its HTTP route and the use case that serves it embedded.

Keeping both sides of an operation on one line is what makes the two backends answer alike: the HTTP
backend formats `path` with the ids, the embedded one calls `run` with the same ids, body and query.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from avatar_service.core.model import (
    ApiKeyCreate,
    ConversationCreate,
    GameSessionCreate,
    KnowledgeCreate,
    KnowledgeSearch,
    MemoryBulkCreate,
    MemoryCreate,
    MemoryPatch,
    MemorySearch,
    MessageCreate,
    MoveCreate,
    PersonalityCreate,
    PersonalityPatch,
    UserCreate,
    UserPatch,
    VideoCreate,
    WebhookCreate,
    WebhookPatch,
)
from avatar_service.core.pagination import PageRequest, page_request
from avatar_service.core.validation import parse

if TYPE_CHECKING:  # only for annotations: the embedded service is imported when it is used
    from avatar_service.embedded import AvatarService

Ids = tuple[str, ...]
Body = dict[str, Any]
Run = Callable[["AvatarService", str, Ids, Body, Body], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Op:
    method: str
    path: str  # under /v1, one `{}` per id, in order
    run: Run


def _page(query: Body) -> PageRequest:
    return page_request(query.get("limit"), query.get("cursor"))


async def _every_key(service: "AvatarService") -> Any:
    keys = await service.api_keys.list_every()
    return {"data": keys, "has_more": False, "next_cursor": None}


OPS: dict[str, Op] = {
    # personalities
    "personalities.create": Op("POST", "/personalities", lambda s, o, i, b, q: s.personalities.create(
        o, parse(PersonalityCreate, b))),
    "personalities.list": Op("GET", "/personalities", lambda s, o, i, b, q: s.personalities.list(o, _page(q))),
    "personalities.get": Op("GET", "/personalities/{}", lambda s, o, i, b, q: s.personalities.get(o, i[0])),
    "personalities.update": Op("PATCH", "/personalities/{}", lambda s, o, i, b, q: s.personalities.update(
        o, i[0], parse(PersonalityPatch, b))),
    "personalities.delete": Op("DELETE", "/personalities/{}", lambda s, o, i, b, q: s.personalities.delete(o, i[0])),
    # users
    "users.create": Op("POST", "/users", lambda s, o, i, b, q: s.users.create(o, parse(UserCreate, b))),
    "users.list": Op("GET", "/users", lambda s, o, i, b, q: s.users.list(o, _page(q), q.get("external_id"))),
    "users.get": Op("GET", "/users/{}", lambda s, o, i, b, q: s.users.get(o, i[0])),
    "users.update": Op("PATCH", "/users/{}", lambda s, o, i, b, q: s.users.update(o, i[0], parse(UserPatch, b))),
    "users.delete": Op("DELETE", "/users/{}", lambda s, o, i, b, q: s.users.delete(o, i[0])),
    # memories
    "memories.create": Op("POST", "/users/{}/memories", lambda s, o, i, b, q: s.memories.create(
        o, i[0], parse(MemoryCreate, b))),
    "memories.bulk": Op("POST", "/users/{}/memories/bulk", lambda s, o, i, b, q: s.memories.bulk(
        o, i[0], parse(MemoryBulkCreate, b))),
    "memories.list": Op("GET", "/users/{}/memories", lambda s, o, i, b, q: s.memories.list(
        o, i[0], _page(q), q.get("personality_id"), q.get("category"))),
    "memories.get": Op("GET", "/users/{}/memories/{}", lambda s, o, i, b, q: s.memories.get(o, i[0], i[1])),
    "memories.update": Op("PATCH", "/users/{}/memories/{}", lambda s, o, i, b, q: s.memories.update(
        o, i[0], i[1], parse(MemoryPatch, b))),
    "memories.delete": Op("DELETE", "/users/{}/memories/{}", lambda s, o, i, b, q: s.memories.delete(o, i[0], i[1])),
    "memories.search": Op("POST", "/users/{}/memories/search", lambda s, o, i, b, q: s.memories.search(
        o, i[0], parse(MemorySearch, b))),
    # knowledge (uploads of files go through Backend.upload)
    "knowledge.add": Op("POST", "/personalities/{}/knowledge", lambda s, o, i, b, q: s.knowledge.add(
        o, i[0], parse(KnowledgeCreate, b))),
    "knowledge.list": Op("GET", "/personalities/{}/knowledge", lambda s, o, i, b, q: s.knowledge.list(
        o, i[0], _page(q), q.get("type"))),
    "knowledge.get": Op("GET", "/personalities/{}/knowledge/{}", lambda s, o, i, b, q: s.knowledge.get(
        o, i[0], i[1])),
    "knowledge.delete": Op("DELETE", "/personalities/{}/knowledge/{}", lambda s, o, i, b, q: s.knowledge.delete(
        o, i[0], i[1])),
    "knowledge.search": Op("POST", "/personalities/{}/knowledge/search", lambda s, o, i, b, q: s.knowledge.search(
        o, i[0], parse(KnowledgeSearch, b))),
    # webhooks
    "webhooks.create": Op("POST", "/webhooks", lambda s, o, i, b, q: s.webhooks.create(o, parse(WebhookCreate, b))),
    "webhooks.list": Op("GET", "/webhooks", lambda s, o, i, b, q: s.webhooks.list(o)),
    "webhooks.get": Op("GET", "/webhooks/{}", lambda s, o, i, b, q: s.webhooks.get(o, i[0])),
    "webhooks.update": Op("PATCH", "/webhooks/{}", lambda s, o, i, b, q: s.webhooks.update(
        o, i[0], parse(WebhookPatch, b))),
    "webhooks.delete": Op("DELETE", "/webhooks/{}", lambda s, o, i, b, q: s.webhooks.delete(o, i[0])),
    "webhooks.test": Op("POST", "/webhooks/{}/test", lambda s, o, i, b, q: s.webhooks.test(o, i[0])),
    "webhooks.deliveries": Op("GET", "/webhooks/{}/deliveries", lambda s, o, i, b, q: s.webhooks.deliveries(
        o, i[0], _page(q))),
    # API keys
    "keys.create": Op("POST", "/api-keys", lambda s, o, i, b, q: s.api_keys.create(o, parse(ApiKeyCreate, b))),
    "keys.list": Op("GET", "/api-keys", lambda s, o, i, b, q: s.api_keys.list(o, _page(q))),
    "keys.revoke": Op("DELETE", "/api-keys/{}", lambda s, o, i, b, q: s.api_keys.revoke(o, i[0])),
    # The operator's view, embedded: every organization's keys. Over HTTP the key's organization is all there is.
    "keys.list_every": Op("GET", "/api-keys", lambda s, o, i, b, q: _every_key(s)),
    "keys.revoke_any": Op("DELETE", "/api-keys/{}", lambda s, o, i, b, q: s.api_keys.revoke_any(i[0])),
    # conversations
    "conversations.create": Op("POST", "/conversations", lambda s, o, i, b, q: s.conversations.create(
        o, parse(ConversationCreate, b))),
    "conversations.get": Op("GET", "/conversations/{}", lambda s, o, i, b, q: s.conversations.get(
        o, i[0], bool(q.get("include_transcript")))),
    "conversations.say": Op("POST", "/conversations/{}/messages", lambda s, o, i, b, q: s.conversations.say(
        o, i[0], parse(MessageCreate, b).content)),
    "conversations.end": Op("DELETE", "/conversations/{}", lambda s, o, i, b, q: s.conversations.end(o, i[0])),
    # games
    "games.catalogue": Op("GET", "/games", lambda s, o, i, b, q: _ready(s.games.catalogue())),
    "games.create": Op("POST", "/game-sessions", lambda s, o, i, b, q: s.games.create(
        o, parse(GameSessionCreate, b))),
    "games.get": Op("GET", "/game-sessions/{}", lambda s, o, i, b, q: s.games.get(o, i[0])),
    "games.move": Op("POST", "/game-sessions/{}/move", lambda s, o, i, b, q: s.games.move(
        o, i[0], parse(MoveCreate, b))),
    "games.abandon": Op("POST", "/game-sessions/{}/abandon", lambda s, o, i, b, q: s.games.abandon(o, i[0])),
    # video generations
    "videos.create": Op("POST", "/video/generations", lambda s, o, i, b, q: s.videos.create(o, parse(VideoCreate, b))),
    "videos.get": Op("GET", "/video/generations/{}", lambda s, o, i, b, q: s.videos.get(o, i[0])),
    "videos.list": Op("GET", "/video/generations", lambda s, o, i, b, q: s.videos.list(
        o, _page(q), q.get("status"))),
    "videos.cancel": Op("POST", "/video/generations/{}/cancel", lambda s, o, i, b, q: s.videos.cancel(o, i[0])),
}


async def _ready(value: Any) -> Any:
    """Wraps a plain value for the few use cases that are not coroutines (the game catalogue)."""
    return value
