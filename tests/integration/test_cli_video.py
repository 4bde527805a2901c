"""`avatar video render` embedded: text and a local audio file to a 480p MP4 with progress, checked with PyAV."""

from __future__ import annotations

import math
import os
import struct
import subprocess
import sys
import wave
from pathlib import Path
from typing import Any

import av
import pytest

import avatar_service
from avatar_service.core.model import PersonalityCreate
from avatar_service.core.pagination import PageRequest

AVATAR = str(Path(sys.executable).with_name("avatar"))


@pytest.fixture
async def world(tmp_path: Path) -> dict[str, Any]:
    url = f"sqlite+aiosqlite:///{tmp_path}/avatar.db"
    async with avatar_service.open(url, worker=False, embedder="lexical", data_dir=str(tmp_path)) as svc:
        org = (await svc.organization()).id
        await svc.personalities.create(org, PersonalityCreate(name="Ava"))
    env = {**os.environ, "AVATAR_DATABASE_URL": url, "AVATAR_DATA_DIR": str(tmp_path), "AVATAR_EMBEDDER": "lexical",
           "AVATAR_LOG_LEVEL": "WARNING"}
    for name in ("AVATAR_API_URL", "AVATAR_API_KEY", "AVATAR_ALLOW_PRIVATE_URLS"):
        env.pop(name, None)
    return {"url": url, "dir": tmp_path, "env": env, "org": org}


def render(world: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([AVATAR, "video", "render", "Ava", "--resolution", "480p", *args], env=world["env"],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def probe(path: Path) -> tuple[int, float]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return stream.codec_context.height, float(container.duration or 0) / av.time_base


def tone(path: Path, seconds: float = 1.5, rate: int = 16000) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * 220 * i / rate)))
                                 for i in range(int(seconds * rate))))


async def test_render_text_and_local_audio_to_files(world: dict[str, Any]) -> None:
    spoken = world["dir"] / "hello.mp4"
    done = render(world, "--text", "Hello from the terminal.", "--out", str(spoken))
    assert "100%" in done.stdout  # the progress bar's last frame
    assert f"wrote {spoken}" in done.stderr
    height, seconds = probe(spoken)
    assert height == 480 and seconds > 0.3

    audio = world["dir"] / "tone.wav"
    tone(audio)
    synced = world["dir"] / "tone.mp4"
    render(world, "--audio", str(audio), "--out", str(synced))  # served to the render job on loopback
    height, seconds = probe(synced)
    assert height == 480 and 1.0 < seconds < 2.5

    async with avatar_service.open(world["url"], worker=False, embedder="lexical", data_dir=str(world["dir"])) as svc:
        videos = (await svc.videos.list(world["org"], PageRequest(limit=10))).data
        assert [v.status for v in videos] == ["completed", "completed"]
        assert all(v.progress == 100 and v.video_url for v in videos)
