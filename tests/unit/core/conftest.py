"""The core wired by the `test` bootstrap profile on in-memory storage, a fake clock and cheap fakes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import punq
import pytest

from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue
from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.core.model import PersonalityCreate, UserCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.conversations import Conversations
from avatar_service.core.services.games import GameSessions
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.users import Users
from avatar_service.core.services.videos import Videos
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.renderer import AvatarInfo
from avatar_service.ports.speech import Audio, SpeechEngines, VoiceChoice

ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"
OTHER_ORG = "org_bbbbbbbbbbbbbbbbbbbbbbbb"


class FakeRenderer:
    """Lists avatars; unit tests never render (the renderer has its own tests)."""

    name = "fake-renderer"

    def list_avatars(self) -> list[AvatarInfo]:
        return [
            AvatarInfo("ava", "Ava", "realistic"),
            AvatarInfo("leo", "Leo", "realistic"),
            AvatarInfo("mia", "Mia", "cartoon"),
        ]

    def render(self, *args: Any) -> Any:
        raise AssertionError("unit tests do not render")


class FakeSpeech:
    name = "fake-speech"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        return Audio(samples=[0] * 2400, sample_rate=24_000)


@dataclass
class Core:
    """The use cases of one container, with the store and clock behind them."""

    container: punq.Container
    storage: MemoryStorage
    clock: Any
    api_keys: ApiKeys
    personalities: Personalities
    users: Users
    memories: Memories
    conversations: Conversations
    videos: Videos
    games: GameSessions
    webhooks: Webhooks

    async def personality(self, org: str = ORG, **fields: Any) -> str:
        return (await self.personalities.create(org, PersonalityCreate(name="Ada", **fields))).id

    async def user(self, org: str = ORG, **fields: Any) -> str:
        return (await self.users.create(org, UserCreate(**fields))).id

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [e for e in self.storage.rows("outbox") if kind is None or e["type"] == kind]

    def jobs(self, kind: str) -> list[dict[str, Any]]:
        return [j for j in self.storage.rows("jobs") if j["kind"] == kind]


@pytest.fixture
async def core(tmp_path: Path, clock: Any) -> AsyncIterator[Core]:
    storage = MemoryStorage()
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    container = bootstrap.test(
        settings,
        storage,
        clock=clock,
        renderer=FakeRenderer(),
        speech=SpeechEngines({p: FakeSpeech() for p in ("elevenlabs", "cartesia", "openai", "azure")}),
        dialogue=OfflineGroundedDialogue(),
    )
    yield Core(
        container,
        storage,
        clock,
        *(
            container.resolve(kind)
            for kind in (
                ApiKeys,
                Personalities,
                Users,
                Memories,
                Conversations,
                Videos,
                GameSessions,
                Webhooks,
            )
        ),
    )
    await storage.close()
