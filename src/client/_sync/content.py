"""What personalities are and know, and whom they talk to: personalities, knowledge, users, memories, avatars,
voices. One method per operation of the API.

Generated from `_async/content.py` by scripts/unasync_client.py: edit that file and regenerate.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from avatar_service.client._sync.transport import Transport
from avatar_service.client._wire import body, path, upload
from avatar_service.core.model import (
    Avatar,
    AvatarList,
    Deleted,
    KnowledgeCreate,
    KnowledgeItem,
    KnowledgeSearch,
    KnowledgeSearchResult,
    Memory,
    MemoryBulkCreate,
    MemoryBulkResult,
    MemoryCreate,
    MemoryPatch,
    MemorySearch,
    MemorySearchResult,
    Page,
    Personality,
    PersonalityCreate,
    PersonalityPatch,
    PersonalityWithSecret,
    User,
    UserCreate,
    UserPatch,
)
from avatar_service.core.model.voices import VoiceList

File = str | os.PathLike[str] | bytes
Body = Mapping[str, Any]


class Personalities:
    """`/v1/personalities`. Bodies are the request Struct, or its fields as keywords."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, data: PersonalityCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> PersonalityWithSecret:
        return self._t.call("POST", "/personalities", PersonalityWithSecret, idempotency_key=idempotency_key,
                                  json=body(PersonalityCreate, data, fields))

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> Page[Personality]:
        return self._t.call("GET", "/personalities", Page[Personality], params={"limit": limit, "cursor": cursor})

    def list_all(self, *, page_size: int = 100) -> Iterator[Personality]:
        return self._t.walk("/personalities", Page[Personality], {"limit": page_size})

    def get(self, personality_id: str) -> Personality:
        return self._t.call("GET", path("/personalities/{}", personality_id), Personality)

    def update(self, personality_id: str, data: PersonalityPatch | Body | None = None, /,
                     **fields: Any) -> PersonalityWithSecret:
        return self._t.call("PATCH", path("/personalities/{}", personality_id), PersonalityWithSecret,
                                  json=body(PersonalityPatch, data, fields))

    def delete(self, personality_id: str) -> Deleted:
        return self._t.call("DELETE", path("/personalities/{}", personality_id), Deleted)


class Knowledge:
    """`/v1/personalities/{id}/knowledge`: items added as JSON or uploaded, and searched."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, personality_id: str, data: KnowledgeCreate | Body | None = None, /, *,
                     idempotency_key: str | None = None, **fields: Any) -> KnowledgeItem:
        return self._t.call("POST", path("/personalities/{}/knowledge", personality_id), KnowledgeItem,
                                  idempotency_key=idempotency_key, json=body(KnowledgeCreate, data, fields))

    def upload(self, personality_id: str, file: File, *, filename: str | None = None,
                     content_type: str | None = None, name: str | None = None, refresh_interval: str | None = None,
                     idempotency_key: str | None = None) -> KnowledgeItem:
        """A document from a local file (or its bytes), sent as multipart; type `document` is implied."""
        fields = {k: v for k, v in {"name": name, "refresh_interval": refresh_interval}.items() if v is not None}
        return self._t.call("POST", path("/personalities/{}/knowledge", personality_id), KnowledgeItem,
                                  files={"file": upload(file, filename, content_type)}, data=fields,
                                  idempotency_key=idempotency_key)

    def list(self, personality_id: str, *, type: str | None = None, limit: int | None = None,
                   cursor: str | None = None) -> Page[KnowledgeItem]:
        return self._t.call("GET", path("/personalities/{}/knowledge", personality_id), Page[KnowledgeItem],
                                  params={"type": type, "limit": limit, "cursor": cursor})

    def list_all(self, personality_id: str, *, type: str | None = None,
                 page_size: int = 100) -> Iterator[KnowledgeItem]:
        return self._t.walk(path("/personalities/{}/knowledge", personality_id), Page[KnowledgeItem],
                            {"type": type, "limit": page_size})

    def get(self, personality_id: str, item_id: str) -> KnowledgeItem:
        return self._t.call("GET", path("/personalities/{}/knowledge/{}", personality_id, item_id),
                                  KnowledgeItem)

    def delete(self, personality_id: str, item_id: str) -> Deleted:
        return self._t.call("DELETE", path("/personalities/{}/knowledge/{}", personality_id, item_id), Deleted)

    def search(self, personality_id: str, data: KnowledgeSearch | Body | None = None, /,
                     **fields: Any) -> KnowledgeSearchResult:
        return self._t.call("POST", path("/personalities/{}/knowledge/search", personality_id),
                                  KnowledgeSearchResult, json=body(KnowledgeSearch, data, fields))


class Users:
    """`/v1/users`."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, data: UserCreate | Body | None = None, /, *, idempotency_key: str | None = None,
                     **fields: Any) -> User:
        return self._t.call("POST", "/users", User, idempotency_key=idempotency_key,
                                  json=body(UserCreate, data, fields))

    def list(self, *, external_id: str | None = None, limit: int | None = None,
                   cursor: str | None = None) -> Page[User]:
        return self._t.call("GET", "/users", Page[User],
                                  params={"external_id": external_id, "limit": limit, "cursor": cursor})

    def list_all(self, *, external_id: str | None = None, page_size: int = 100) -> Iterator[User]:
        return self._t.walk("/users", Page[User], {"external_id": external_id, "limit": page_size})

    def get(self, user_id: str) -> User:
        return self._t.call("GET", path("/users/{}", user_id), User)

    def update(self, user_id: str, data: UserPatch | Body | None = None, /, **fields: Any) -> User:
        return self._t.call("PATCH", path("/users/{}", user_id), User, json=body(UserPatch, data, fields))

    def delete(self, user_id: str) -> Deleted:
        return self._t.call("DELETE", path("/users/{}", user_id), Deleted)


class Memories:
    """`/v1/users/{id}/memories`: what personalities remember about a user."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, user_id: str, data: MemoryCreate | Body | None = None, /, *,
                     idempotency_key: str | None = None, **fields: Any) -> Memory:
        return self._t.call("POST", path("/users/{}/memories", user_id), Memory, idempotency_key=idempotency_key,
                                  json=body(MemoryCreate, data, fields))

    def bulk(self, user_id: str, data: MemoryBulkCreate | Body | None = None, /, *,
                   idempotency_key: str | None = None, **fields: Any) -> MemoryBulkResult:
        """Up to 100 memories in one request."""
        return self._t.call("POST", path("/users/{}/memories/bulk", user_id), MemoryBulkResult,
                                  idempotency_key=idempotency_key, json=body(MemoryBulkCreate, data, fields))

    def list(self, user_id: str, *, personality_id: str | None = None, category: str | None = None,
                   limit: int | None = None, cursor: str | None = None) -> Page[Memory]:
        return self._t.call("GET", path("/users/{}/memories", user_id), Page[Memory], params={
            "personality_id": personality_id, "category": category, "limit": limit, "cursor": cursor})

    def list_all(self, user_id: str, *, personality_id: str | None = None, category: str | None = None,
                 page_size: int = 100) -> Iterator[Memory]:
        return self._t.walk(path("/users/{}/memories", user_id), Page[Memory],
                            {"personality_id": personality_id, "category": category, "limit": page_size})

    def get(self, user_id: str, memory_id: str) -> Memory:
        return self._t.call("GET", path("/users/{}/memories/{}", user_id, memory_id), Memory)

    def update(self, user_id: str, memory_id: str, data: MemoryPatch | Body | None = None, /,
                     **fields: Any) -> Memory:
        return self._t.call("PATCH", path("/users/{}/memories/{}", user_id, memory_id), Memory,
                                  json=body(MemoryPatch, data, fields))

    def delete(self, user_id: str, memory_id: str) -> Deleted:
        return self._t.call("DELETE", path("/users/{}/memories/{}", user_id, memory_id), Deleted)

    def search(self, user_id: str, data: MemorySearch | Body | None = None, /,
                     **fields: Any) -> MemorySearchResult:
        """Semantic search, best first, each with its `relevance`."""
        return self._t.call("POST", path("/users/{}/memories/search", user_id), MemorySearchResult,
                                  json=body(MemorySearch, data, fields))


class Avatars:
    """`/v1/avatars`: the drawn avatars the service ships and the organization's photo avatars."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self) -> AvatarList:
        return self._t.call("GET", "/avatars", AvatarList)

    def get(self, avatar_id: str) -> Avatar:
        return self._t.call("GET", path("/avatars/{}", avatar_id), Avatar)

    def create(self, image: File, *, name: str, filename: str | None = None, content_type: str | None = None,
                     idempotency_key: str | None = None) -> Avatar:
        """A photo avatar from a portrait (JPEG, PNG or WebP with one face), sent as multipart."""
        return self._t.call("POST", "/avatars", Avatar, files={"image": upload(image, filename, content_type)},
                                  data={"name": name}, idempotency_key=idempotency_key)

    def delete(self, avatar_id: str) -> Deleted:
        return self._t.call("DELETE", path("/avatars/{}", avatar_id), Deleted)


class Voices:
    """`/v1/voices`: the offline voices `voice.voice_id` may name."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def list(self) -> VoiceList:
        return self._t.call("GET", "/voices", VoiceList)
