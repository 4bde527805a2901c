"""Video generations that render, over HTTP on SQLite and PostgreSQL: files probed with PyAV, signed media
URLs and ranges, lip-sync of a fetched audio_url, failures with their codes, cancel mid-render, webhooks, the
concurrency cap, and a restart mid-render."""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
import time
import wave
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import av
import numpy as np
import pytest
from litestar.testing import AsyncTestClient
from standardwebhooks import Webhook

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.pyav_renderer.sprites import build_sprites
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.services.video_rendering import VideoRenderer
from avatar_service.entrypoints.settings import Settings
from avatar_service.ports.renderer import RenderRequest, RenderResult
from avatar_service.ports.storage import Storage

from .helpers import Receiver, Service, assert_error, create_personality, events_of, subscribe

RATE = 22_050
FPS = 25


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True}  # audio and images come from a server on loopback


# --- helpers -------------------------------------------------------------------------------------------------


def syllables(seconds: float, seed: int = 3) -> np.ndarray:
    """Speech-like audio: voiced bursts of varying loudness and length with pauses between."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    envelope = np.zeros(n)
    position = int(0.2 * RATE)
    while position < n:
        length = int(rng.uniform(0.08, 0.3) * RATE)
        envelope[position:position + length] = rng.uniform(0.2, 1.0) * np.hanning(length)[: n - position]
        position += length + int(rng.uniform(0.05, 0.35) * RATE)
    t = np.arange(n) / RATE
    carrier = np.sin(2 * np.pi * 140 * t) + 0.5 * np.sin(2 * np.pi * 280 * t) + 0.25 * np.sin(2 * np.pi * 900 * t)
    return (envelope * carrier * 12_000).astype(np.int16)


def wav_bytes(samples: np.ndarray) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(RATE)
        handle.writeframes(samples.tobytes())
    return out.getvalue()


def serve_audio(receiver: Receiver, name: str, samples: np.ndarray) -> str:
    receiver.pages[f"/{name}"] = ("audio/wav", wav_bytes(samples))
    return f"{receiver.url}/{name}"


async def generate(client: AsyncTestClient[Any], **fields: Any) -> dict[str, Any]:
    if "personality_id" not in fields:
        fields["personality_id"] = (await create_personality(
            client, appearance={"avatar_id": "ava", "style": "realistic"}))["id"]
    response = await client.post("/v1/video/generations", json={"resolution": "480p", **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def read(client: AsyncTestClient[Any], video_id: str) -> dict[str, Any]:
    response = await client.get(f"/v1/video/generations/{video_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def local(url: str) -> str:
    """An absolute media URL as the path and query the test client requests."""
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


async def fetch_media(client: AsyncTestClient[Any], url: str, **headers: str) -> Any:
    """GET a media URL with no API key at all: the signature is the only credential."""
    saved = client.headers.pop("Authorization", None)
    try:
        return await client.get(local(url), headers=headers)
    finally:
        if saved is not None:
            client.headers["Authorization"] = saved


def probe_path(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def leftovers(service: Service, video_id: str) -> list[Path]:
    """Files of this generation anywhere under the data directory (work files and stored media)."""
    root = Path(service.container.resolve(Settings).data_dir)
    # os.walk, not rglob: the render job may be deleting these very files while we look (errors ignored).
    return [Path(top, name) for top, _, names in os.walk(root) for name in names if video_id in f"{top}/{name}"]


class SpyRenderer:
    """Wraps the real renderer: records how many renders run at once and when each one returned."""

    def __init__(self, real: Any) -> None:
        self.real, self.name = real, real.name
        self.lock = threading.Lock()
        self.running = self.most = 0
        self.ended: list[float] = []

    def list_avatars(self) -> Any:
        return self.real.list_avatars()

    def render(self, request: RenderRequest, on_progress: Callable[[int], None],
               should_cancel: Callable[[], bool]) -> RenderResult:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return self.real.render(request, on_progress, should_cancel)  # type: ignore[no-any-return]
        finally:
            with self.lock:
                self.running -= 1
                self.ended.append(time.monotonic())


def spy(service: Service) -> SpyRenderer:
    job = service.container.resolve(VideoRenderer)
    job.renderer = SpyRenderer(job.renderer)
    return job.renderer  # type: ignore[no-any-return]


class Worker:
    """The job runner in the background on the app's loop, as `avatar serve` runs it."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def __enter__(self) -> Worker:
        jobs = self.service.container.resolve(DatabaseJobQueue)
        self.future = self.service.client.blocking_portal.start_task_soon(jobs.run)
        return self

    def __exit__(self, *exc: object) -> None:
        self.future.cancel()


async def until(check: Callable[[], bool], within: float, step: float = 0.02) -> bool:
    """Polls `check` until it holds or `within` seconds passed; returns its last answer."""
    deadline = time.monotonic() + within
    for _ in range(int(within / step) + 1):
        if check() or time.monotonic() > deadline:
            break
        await asyncio.sleep(step)
    return check()


async def wait_for(client: AsyncTestClient[Any], video_id: str, done: Callable[[dict[str, Any]], bool],
                   within: float = 30.0, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + within
    video: dict[str, Any] = {}
    for _ in range(int(within / 0.03) + 1):
        video = await read(client, video_id)
        if seen is not None:
            seen.append(video)
        if done(video) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.03)
    assert done(video), f"timed out; last seen {video}"
    return video


# --- the happy paths -----------------------------------------------------------------------------------------


async def test_text_generation_end_to_end(service: Service, client: AsyncTestClient[Any], tmp_path: Path) -> None:
    created = await generate(client, text="Hello, and welcome to the museum.", background="#336699")
    assert created["status"] == "pending" and created["progress"] == 0
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    assert video["progress"] == 100 and video["error"] is None and video["completed_at"]
    assert video["video_url"].startswith("http") and video["thumbnail_url"].startswith("http")

    response = await fetch_media(client, video["video_url"])
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "video/mp4" and response.headers["accept-ranges"] == "bytes"
    data = response.content
    assert int(response.headers["content-length"]) == len(data)
    with av.open(str(probe_path(tmp_path, "v.mp4", data))) as container:
        assert "mp4" in container.format.name
        stream, sound = container.streams.video[0], container.streams.audio[0]
        assert (stream.codec_context.name, sound.codec_context.name) == ("h264", "aac")
        assert (stream.codec_context.width, stream.codec_context.height) == (854, 480)
        frames = sum(1 for _ in container.decode(video=0))
    with av.open(str(tmp_path / "v.mp4")) as container:
        pcm = np.concatenate([f.to_ndarray().reshape(-1) for f in container.decode(audio=0)])
        audio_seconds = len(pcm) / container.streams.audio[0].rate / len(container.streams.audio[0].layout.channels)
    assert 1.0 < video["duration"] < 6.0  # one short sentence
    assert abs(frames / FPS - video["duration"]) < 0.05
    assert abs(audio_seconds - video["duration"]) < 0.15  # the sound lasts as long as the picture
    assert float(np.sqrt(np.mean(pcm.astype(np.float64) ** 2))) > 0.01  # and it is not silence

    thumb = await fetch_media(client, video["thumbnail_url"])
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/jpeg"
    with av.open(str(probe_path(tmp_path, "t.jpg", thumb.content))) as container:
        image = next(container.decode(video=0))
    assert (image.width, image.height) == (854, 480)

    # Ranges, as a browser seeks.
    part = await fetch_media(client, video["video_url"], Range="bytes=100-1099")
    assert part.status_code == 206
    assert part.headers["content-range"] == f"bytes 100-1099/{len(data)}"
    assert part.content == data[100:1100]
    tail = await fetch_media(client, video["video_url"], Range="bytes=-500")
    assert tail.status_code == 206 and tail.content == data[-500:]
    beyond = await fetch_media(client, video["video_url"], Range=f"bytes={len(data)}-")
    assert beyond.status_code == 416

    # The signature is the credential: tampered, moved to another key, or expired, it is refused.
    url = video["video_url"]
    flipped = url[:-1] + ("0" if url[-1] != "0" else "1")
    assert_error(await fetch_media(client, flipped), 403, code="url_expired")
    assert_error(await fetch_media(client, url.replace(".mp4", "-thumbnail.jpg")), 403, code="url_expired")
    signer = service.container.resolve(MediaSigner)
    key = urlsplit(url).path.split("/media/", 1)[1]
    stale = signer.url(key, datetime.now(UTC) - timedelta(days=3))
    assert_error(await fetch_media(client, stale), 403, code="url_expired")
    assert (await fetch_media(client, signer.url(key, datetime.now(UTC)))).status_code == 200


async def test_transparent_background_gives_webm_with_alpha(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver, tmp_path: Path) -> None:
    created = await generate(client, audio_url=serve_audio(receiver, "a.wav", syllables(1.0)),
                             background="transparent")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    response = await fetch_media(client, video["video_url"])
    assert response.status_code == 200 and response.headers["content-type"] == "video/webm"
    with av.open(str(probe_path(tmp_path, "v.webm", response.content))) as container:
        assert "webm" in container.format.name
        stream = container.streams.video[0]
        assert container.streams.audio[0].codec_context.name == "opus"
        # FFmpeg's native VP9 decoder ignores the alpha side data; libvpx's decoder restores it.
        decoder = av.CodecContext.create("libvpx-vp9", "r")
        frame = next(f for packet in container.demux(stream) for f in decoder.decode(packet))
    assert frame.format.name == "yuva420p"
    alpha = np.frombuffer(bytes(frame.planes[3]), np.uint8).reshape(frame.height, -1)[:, : frame.width]
    assert alpha[0, 0] < 16 and alpha[frame.height // 2, frame.width // 2] > 240  # clear corner, opaque face
    thumb = await fetch_media(client, video["thumbnail_url"])
    assert thumb.headers["content-type"] == "image/png"
    with av.open(str(probe_path(tmp_path, "t.png", thumb.content))) as container:
        rgba = next(container.decode(video=0)).to_ndarray(format="rgba")
    assert rgba[0, 0, 3] == 0 and rgba[240, 427, 3] == 255


async def test_audio_url_is_lip_synced(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver, tmp_path: Path) -> None:
    samples = syllables(2.0, seed=11)
    created = await generate(client, audio_url=serve_audio(receiver, "speech.wav", samples), background="#203040")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    assert abs(video["duration"] - 2.0) < 0.05
    response = await fetch_media(client, video["video_url"])
    r0, c0, r1, c1 = build_sprites("ava", "realistic", 854, 480).mouth_rect
    openness: list[float] = []
    with av.open(str(probe_path(tmp_path, "v.mp4", response.content))) as container:
        for frame in container.decode(video=0):
            luma = frame.to_ndarray(format="gray")[r0 - 6:r1 + 6, c0 - 6:c1 + 6]
            openness.append(float((luma < 70).mean()))  # the open mouth's dark inside
    hop = RATE / FPS
    pcm = samples.astype(np.float64)
    rms = [np.sqrt(np.mean(pcm[int(i * hop):int((i + 1) * hop)] ** 2)) for i in range(len(openness))]
    assert np.corrcoef(openness, rms)[0, 1] > 0.6


async def test_background_image_url_covers_the_frame(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver, tmp_path: Path) -> None:
    # A tall red image with a green band at the top: "cover" crops the band away and fills every pixel.
    image = np.zeros((400, 200, 3), np.uint8)
    image[:, :] = (220, 30, 30)
    image[:40] = (30, 220, 30)
    frame = av.VideoFrame.from_ndarray(image, format="rgb24")
    png = io.BytesIO()
    with av.open(png, "w", format="image2pipe") as out:
        stream = out.add_stream("png")
        stream.width, stream.height, stream.pix_fmt = 200, 400, "rgb24"
        for packet in stream.encode(frame):
            out.mux(packet)
    receiver.pages["/bg.png"] = ("image/png", png.getvalue())
    receiver.pages["/page.html"] = ("text/html", b"<html>not an image</html>")
    audio = serve_audio(receiver, "a.wav", syllables(0.6))
    created = await generate(client, audio_url=audio, background=f"{receiver.url}/bg.png")
    refused = await generate(client, audio_url=audio, background=f"{receiver.url}/page.html")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    with av.open(str(probe_path(tmp_path, "v.mp4", (await fetch_media(client, video["video_url"])).content))) as c:
        rgb = next(c.decode(video=0)).to_ndarray(format="rgb24").astype(int)
    for y, x in ((2, 2), (2, 850), (477, 2), (477, 850)):  # corners: red, no bars, no green band
        assert rgb[y, x, 0] > 160 and rgb[y, x, 1] < 90, (y, x, rgb[y, x])
    failed = await read(client, refused["id"])
    assert failed["status"] == "failed" and failed["error"]["code"] == "unsupported_media", failed


# --- failures ------------------------------------------------------------------------------------------------


async def test_failures_carry_codes_and_events(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    await subscribe(client, f"{receiver.url}/hooks", "video.failed")
    receiver.pages["/garbage.wav"] = ("audio/wav", bytes(range(256)) * 64)
    cases = {
        "audio_undecodable": {"audio_url": f"{receiver.url}/garbage.wav"},
        "fetch_failed": {"audio_url": f"{receiver.url}/missing.wav"},
        "content_empty": {"text": "... !!! ---"},
    }
    ids = {code: (await generate(client, **fields))["id"] for code, fields in cases.items()}
    await service.drain()
    for code, ident in ids.items():
        video = await read(client, ident)
        assert video["status"] == "failed", video
        assert video["error"]["code"] == code and video["error"]["message"], video
        assert video["video_url"] is None and video["completed_at"]
        assert not leftovers(service, ident)
    failed = {event["data"]["id"]: event["data"]["error"]["code"] for event in events_of(receiver, "video.failed")}
    assert failed == {ident: code for code, ident in ids.items()}
    # A failed generation cannot be cancelled.
    assert_error(await client.post(f"/v1/video/generations/{ids['fetch_failed']}/cancel"), 409)


# --- cancel, the concurrency cap, webhooks --------------------------------------------------------------------


async def test_cancel_during_render_stops_it_and_leaves_no_files(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    renders = spy(service)
    created = await generate(client, audio_url=serve_audio(receiver, "long.wav", syllables(30.0)),
                             resolution="720p", background="#203040")
    seen: list[dict[str, Any]] = []
    with Worker(service):
        await wait_for(client, created["id"], lambda v: v["status"] == "processing" and v["progress"] > 5,
                       seen=seen)
        assert renders.running == 1
        cancelled_at = time.monotonic()
        response = await client.post(f"/v1/video/generations/{created['id']}/cancel")
        assert response.status_code == 200 and response.json()["status"] == "cancelled"
        assert await until(lambda: not renders.running, within=5)
        assert renders.ended[0] - cancelled_at < 1.0, "the render went on after the cancel"
        assert await until(lambda: not leftovers(service, created["id"]), within=2), "partial files remain"
    video = await read(client, created["id"])
    assert video["status"] == "cancelled" and video["video_url"] is None and video["progress"] < 100
    progress = [v["progress"] for v in seen]
    assert progress == sorted(progress) and progress[0] >= 0
    # Cancelling again returns it unchanged; the job is gone from the queue.
    assert (await client.post(f"/v1/video/generations/{created['id']}/cancel")).json() == video
    storage = service.container.resolve(Storage)

    async def queued() -> int:
        async with storage(None) as uow:
            return len(await uow.jobs.claim(datetime.now(UTC), 60, 10, ["video.render"]))

    assert service.call(queued) == 0


async def test_concurrency_cap_queues_a_burst(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    assert service.container.resolve(Settings).max_concurrent_renders == 1
    renders = spy(service)
    audio = serve_audio(receiver, "a.wav", syllables(4.0))
    first, second = [await generate(client, audio_url=audio, background="#203040") for _ in range(2)]
    seen: list[dict[str, Any]] = []
    states: set[tuple[str, str]] = set()
    with Worker(service):
        for _ in range(1200):  # a minute at most
            pair = [await read(client, first["id"]), await read(client, second["id"])]
            seen.extend(pair)
            states.add((pair[0]["status"], pair[1]["status"]))
            if all(v["status"] == "completed" for v in pair):
                break
            await asyncio.sleep(0.05)
    assert renders.most == 1 and len(renders.ended) == 2
    assert {"completed"} == {v["status"] for v in seen[-2:]}
    # While one rendered, the other waited its turn.
    assert ("processing", "pending") in states or ("pending", "processing") in states, states
    assert ("processing", "processing") not in states
    for ident in (first["id"], second["id"]):
        progress = [v["progress"] for v in seen if v["id"] == ident]
        assert progress == sorted(progress) and progress[-1] == 100


async def test_completed_is_signed_to_webhooks_and_to_webhook_url(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    hook = await subscribe(client, f"{receiver.url}/hooks", "video.completed")
    created = await generate(client, audio_url=serve_audio(receiver, "a.wav", syllables(0.8)),
                             background="#203040", webhook_url=f"{receiver.url}/own")
    assert created["webhook_secret"].startswith("whsec_")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed"
    by_path = {r.path: r for r in receiver.requests}
    assert set(by_path) == {"/hooks", "/own"}, [r.path for r in receiver.requests]
    for path, secret in (("/hooks", hook["secret"]), ("/own", created["webhook_secret"])):
        delivery = by_path[path]
        payload = Webhook(secret).verify(delivery.body, delivery.headers)
        assert payload["type"] == "video.completed" and payload["id"] == delivery.headers["webhook-id"]
        assert payload["data"]["id"] == video["id"] and payload["data"]["status"] == "completed"
        assert payload["data"]["video_url"] and payload["data"]["duration"] == video["duration"]
        with pytest.raises(Exception, match=r"(?i)signature"):
            Webhook(secret).verify(delivery.body.replace(b"completed", b"c0mpleted"), delivery.headers)
    # Each endpoint's own secret: the generation's secret does not verify the subscription's delivery.
    with pytest.raises(Exception, match=r"(?i)signature"):
        Webhook(created["webhook_secret"]).verify(by_path["/hooks"].body, by_path["/hooks"].headers)
    assert json.loads(by_path["/own"].body)["data"] == json.loads(by_path["/hooks"].body)["data"]


# --- a restart mid-render -----------------------------------------------------------------------------------


async def _die_mid_render(service: Service, video_id: str, lock_seconds: float, times: int = 1) -> None:
    """What a process killed mid-render leaves: the job claimed and locked, the video `processing` at 40%,
    and half-written files in a work directory of its own (one per attempt that died)."""
    storage = service.container.resolve(Storage)

    async def crash() -> None:
        async with storage(None) as uow:
            assert len(await uow.jobs.claim(datetime.now(UTC), lock_seconds, 1, ["video.render"])) == 1
            await uow.commit()
        async with storage(service.organization_id) as uow:
            assert await uow.videos.set(video_id, expect={"status": "pending"}, status="processing", progress=40)
            await uow.commit()

    service.call(crash)
    for attempt in range(times):
        stale = Path(service.container.resolve(Settings).data_dir) / "work" / video_id / f"dead{attempt}"
        stale.mkdir(parents=True)
        (stale / "video.mp4").write_bytes(b"half a video")


async def test_a_restart_mid_render_resumes_and_cleans_up(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    audio = serve_audio(receiver, "a.wav", syllables(0.8))
    # A lock still leased may belong to a live worker elsewhere: recover() on start leaves it alone.
    held = await generate(client, audio_url=audio, background="#203040")
    await _die_mid_render(service, held["id"], lock_seconds=3600)
    service.call(service.container.resolve(DatabaseJobQueue).recover)
    await service.drain()
    assert (await read(client, held["id"]))["status"] == "processing"

    # Another worker, once the dead one's lock has expired.
    expired = await generate(client, audio_url=audio, background="#203040")
    await _die_mid_render(service, expired["id"], lock_seconds=-1)
    await service.drain()
    video = await read(client, expired["id"])
    assert video["status"] == "completed", video
    assert (await fetch_media(client, video["video_url"])).status_code == 200
    assert [p.name for p in leftovers(service, expired["id"]) if "work" in p.parts] == []

    # A render that takes its process down every time fails after the third death instead of looping.
    doomed = await generate(client, audio_url=audio, background="#203040")
    await _die_mid_render(service, doomed["id"], lock_seconds=-1, times=3)
    await service.drain()
    video = await read(client, doomed["id"])
    assert video["status"] == "failed" and video["error"]["code"] == "render_failed", video
    assert leftovers(service, doomed["id"]) == []
