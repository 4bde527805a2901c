"""What happens with personalities: conversations and their turns (plain or streamed), video generations,
games and game sessions. One method per operation of the API.

`_sync/activity.py` is generated from this file (scripts/unasync_client.py): edit this one, then regenerate.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from avatar_service.client._async.transport import AsyncTransport, AsyncTurnStream
from avatar_service.client._wire import body, path
from avatar_service.core.model import (
    Conversation,
    ConversationCreate,
    GameCatalogue,
    GameSession,
    GameSessionCreate,
    MessageCreate,
    MessageResult,
    MoveCreate,
    MoveResult,
    Page,
    VideoCreate,
    VideoGeneration,
    VideoGenerationCreated,
)

Body = Mapping[str, Any]


class Conversations:
    """`/v1/conversations`: sessions with a personality, and text turns in them."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, data: ConversationCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> Conversation:
        return await self._t.call("POST", "/conversations", Conversation, idempotency_key=idempotency_key,
                                  json=body(ConversationCreate, data, fields))

    async def list(self, *, status: str | None = None, personality_id: str | None = None, user_id: str | None = None,
                   limit: int | None = None, cursor: str | None = None) -> Page[Conversation]:
        return await self._t.call("GET", "/conversations", Page[Conversation], params={
            "status": status, "personality_id": personality_id, "user_id": user_id, "limit": limit, "cursor": cursor})

    def list_all(self, *, status: str | None = None, personality_id: str | None = None, user_id: str | None = None,
                 page_size: int = 100) -> AsyncIterator[Conversation]:
        return self._t.walk("/conversations", Page[Conversation], {
            "status": status, "personality_id": personality_id, "user_id": user_id, "limit": page_size})

    async def get(self, conversation_id: str, *, include_transcript: bool = False) -> Conversation:
        return await self._t.call("GET", path("/conversations/{}", conversation_id), Conversation,
                                  params={"include_transcript": include_transcript or None})

    async def end(self, conversation_id: str) -> Conversation:
        return await self._t.call("DELETE", path("/conversations/{}", conversation_id), Conversation)

    async def send(self, conversation_id: str, content: str, *, idempotency_key: str | None = None) -> MessageResult:
        """A text turn: the user's message and the personality's reply, answered once the reply is written."""
        return await self._t.call("POST", path("/conversations/{}/messages", conversation_id), MessageResult,
                                  json=MessageCreate(content=content), idempotency_key=idempotency_key)

    def stream(self, conversation_id: str, content: str, *, idempotency_key: str | None = None) -> AsyncTurnStream:
        """The same turn with the reply streamed as it is written (see AsyncTurnStream)."""
        return AsyncTurnStream(self._t, path("/conversations/{}/messages", conversation_id),
                               MessageCreate(content=content, stream=True), idempotency_key)


class Videos:
    """`/v1/video/generations`: renders of a personality speaking."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, data: VideoCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> VideoGenerationCreated:
        return await self._t.call("POST", "/video/generations", VideoGenerationCreated, idempotency_key=idempotency_key,
                                  json=body(VideoCreate, data, fields))

    async def list(self, *, status: str | None = None, limit: int | None = None,
                   cursor: str | None = None) -> Page[VideoGeneration]:
        return await self._t.call("GET", "/video/generations", Page[VideoGeneration],
                                  params={"status": status, "limit": limit, "cursor": cursor})

    def list_all(self, *, status: str | None = None, page_size: int = 100) -> AsyncIterator[VideoGeneration]:
        return self._t.walk("/video/generations", Page[VideoGeneration], {"status": status, "limit": page_size})

    async def get(self, video_id: str) -> VideoGeneration:
        return await self._t.call("GET", path("/video/generations/{}", video_id), VideoGeneration)

    async def cancel(self, video_id: str, *, idempotency_key: str | None = None) -> VideoGeneration:
        return await self._t.call("POST", path("/video/generations/{}/cancel", video_id), VideoGeneration,
                                  idempotency_key=idempotency_key)


class Games:
    """`/v1/games`: the catalogue of games a personality plays."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def list(self) -> GameCatalogue:
        return await self._t.call("GET", "/games", GameCatalogue)


class GameSessions:
    """`/v1/game-sessions`: games between a user and a personality, a move at a time."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, data: GameSessionCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> GameSession:
        return await self._t.call("POST", "/game-sessions", GameSession, idempotency_key=idempotency_key,
                                  json=body(GameSessionCreate, data, fields))

    async def list(self, *, status: str | None = None, limit: int | None = None,
                   cursor: str | None = None) -> Page[GameSession]:
        return await self._t.call("GET", "/game-sessions", Page[GameSession],
                                  params={"status": status, "limit": limit, "cursor": cursor})

    def list_all(self, *, status: str | None = None, page_size: int = 100) -> AsyncIterator[GameSession]:
        return self._t.walk("/game-sessions", Page[GameSession], {"status": status, "limit": page_size})

    async def get(self, session_id: str) -> GameSession:
        return await self._t.call("GET", path("/game-sessions/{}", session_id), GameSession)

    async def move(self, session_id: str, data: MoveCreate | Body | None = None, /, *,
                   idempotency_key: str | None = None, **fields: Any) -> MoveResult:
        """The user's move (e.g. `move={"cell": 4}`) and the personality's answer; a wrong move is in-band."""
        return await self._t.call("POST", path("/game-sessions/{}/move", session_id), MoveResult,
                                  idempotency_key=idempotency_key, json=body(MoveCreate, data, fields))

    async def abandon(self, session_id: str, *, idempotency_key: str | None = None) -> GameSession:
        return await self._t.call("POST", path("/game-sessions/{}/abandon", session_id), GameSession,
                                  idempotency_key=idempotency_key)
