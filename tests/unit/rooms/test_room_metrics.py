"""A room's voice turns are reported through the container's Metrics port (what `GET /metrics` exposes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from avatar_service.adapters.aiortc_rooms import AiortcRooms
from avatar_service.adapters.aiortc_rooms.session import RoomSession
from avatar_service.adapters.in_memory.storage import MemoryStorage
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.metrics import Metrics, RoomTurnStage
from avatar_service.ports.rooms import RoomMedia, RoomProvider
from avatar_service.ports.speech import SpeechEngines, VoiceChoice

from .test_room_session import Beeps, Host, Transcriber, _talk, _until, inline


class Recorded:
    """The Metrics port, keeping what it is told."""

    def __init__(self) -> None:
        self.turns: list[tuple[RoomTurnStage, float]] = []

    def room_turn(self, stage: RoomTurnStage, seconds: float) -> None:
        self.turns.append((stage, seconds))


def container(tmp_path: Path, **overrides: Any) -> Any:
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    speech = SpeechEngines({p: Beeps() for p in ("elevenlabs", "cartesia", "openai", "azure")})
    return bootstrap.test(settings, MemoryStorage(), speech=speech, **overrides)


async def test_a_room_turn_reaches_the_metrics_port_the_container_holds(tmp_path: Path) -> None:
    recorded = Recorded()
    built = container(tmp_path, metrics=recorded)
    assert built.resolve(Metrics) is recorded
    rooms = built.resolve(RoomProvider)
    assert isinstance(rooms, AiortcRooms)
    media = RoomMedia(organization_id="org", conversation_id="conv", voice=VoiceChoice(provider="openai"),
                      video_enabled=False, vad_enabled=False)
    # what AiortcRooms.answer gives each session, without the WebRTC negotiation
    session = RoomSession(media, Host(), Beeps(), Transcriber(), inline, None, lambda s: None, observe=rooms.observe)
    session.pipeline.start()
    await _talk(session)
    assert await _until(lambda: {stage for stage, _ in recorded.turns} == {"speech_to_text", "reply", "first_audio"})
    assert all(seconds >= 0 for _, seconds in recorded.turns)
    await session.close()


async def test_by_default_the_turns_go_to_prometheus(tmp_path: Path) -> None:
    from prometheus_client import REGISTRY

    rooms = container(tmp_path).resolve(RoomProvider)
    series = ("avatar_room_turn_seconds_count", {"stage": "first_audio"})
    before = REGISTRY.get_sample_value(*series) or 0.0
    rooms.observe("first_audio", 0.4)
    assert REGISTRY.get_sample_value(*series) == before + 1
