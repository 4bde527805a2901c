"""Whole video generations through the service: POST /v1/video/generations until GET says `completed`.

Everything a caller waits for is in the figure: the request, the job queue picking it up, speech synthesis
(text) or fetching and decoding (audio_url), the render, the upload to the blob store and the final commit.
The HTTP app runs in-process with its embedded worker, on a fresh SQLite file (or AVATAR_DATABASE_URL).

Run: .venv/bin/python bench/video_service.py [--resolutions 480p,720p,1080p] [--repeats 2]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import statistics
import tempfile
import threading
import time
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from litestar.testing import AsyncTestClient

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.http.app import create_app
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.speech import VoiceChoice

TEXT = (
    "Hello, and welcome to the museum. I am your guide for today, and I will show you the paintings of the "
    "east wing. Please stay close, keep your voice down, and ask me anything you like along the way."
)


def audio_server(wav: bytes) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "audio/wav")
            self.send_header("Content-Length", str(len(wav)))
            self.end_headers()
            self.wfile.write(wav)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/speech.wav"


def speech_wav() -> bytes:
    """The same text spoken once up front, so the audio_url runs show the pipeline without speech synthesis."""
    from avatar_service.adapters.speech import PiperSpeech

    audio = PiperSpeech().synthesize(TEXT, VoiceChoice(provider="openai"))
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(audio.sample_rate)
        handle.writeframes(audio.samples.tobytes())
    return out.getvalue()


async def generation(client: AsyncTestClient[Any], body: dict[str, Any]) -> tuple[float, float]:
    """Seconds from the request to `completed`, and the video's duration."""
    started = time.perf_counter()
    response = await client.post("/v1/video/generations", json=body)
    assert response.status_code == 201, response.text
    path = f"/v1/video/generations/{response.json()['id']}"
    for _ in range(60_000):
        video = (await client.get(path)).json()
        assert "status" in video, video
        if video["status"] not in ("pending", "processing"):
            break
        await asyncio.sleep(0.05)  # a polling client: often enough to time it, rarely enough not to load the CPU
    elapsed = time.perf_counter() - started
    assert video["status"] == "completed", video
    return elapsed, float(video["duration"])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resolutions", default="480p,720p,1080p")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--background", default="blur")
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("AVATAR_DATABASE_URL") or f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        storage = SqlStorage(url)
        await upgrade(storage.engine)
        await storage.close()
        settings = load_settings({}, database_url=url, data_dir=str(Path(tmp) / "data"), allow_private_urls=True,
                                 embedder="lexical", secret_key="bench", rate_limit_per_minute=0)
        container = bootstrap.embedded(settings)
        keys: ApiKeys = container.resolve(ApiKeys)
        org = await keys.organization("default")
        secret = (await keys.create(org.id, ApiKeyCreate(name="bench", scopes=["*"]))).secret
        server, audio_url = audio_server(speech_wav())
        app = create_app(container, run_worker=True)
        async with AsyncTestClient(app) as client:
            client.headers["Authorization"] = f"Bearer {secret}"
            personality = (await client.post("/v1/personalities", json={"name": "Ava"})).json()["id"]
            # One warm-up: loads the voice and draws the avatar once, as a running server already has.
            await generation(client, {"personality_id": personality, "text": "Hello.", "resolution": "480p"})
            print(f"cpus: {os.cpu_count()}, background {args.background}, max concurrent renders "
                  f"{settings.max_concurrent_renders}, median of {args.repeats}")
            print("res     input      video s  request->completed  x real time")
            for resolution in args.resolutions.split(","):
                for kind, source in (("text", {"text": TEXT}), ("audio_url", {"audio_url": audio_url})):
                    body = {"personality_id": personality, "resolution": resolution,
                            "background": args.background, **source}
                    runs = [await generation(client, body) for _ in range(args.repeats)]
                    wall = statistics.median(r[0] for r in runs)
                    seconds = runs[0][1]
                    print(f"{resolution:<7} {kind:<10} {seconds:7.1f}  {wall:15.2f} s  {seconds / wall:9.2f}x")
        server.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
