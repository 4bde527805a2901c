"""Resource limits (OWASP API4): each has an AVATAR_* setting, a default, and holds with a clean 4xx or a queue.

Body cap (413), per-key rate limit (429 with Retry-After and RateLimit-* headers), upload cap (413), fetched
size (the item fails `too_large`), transcript length (409 `transcript_full`), and the per-process caps on
concurrent renders and ingestions: a burst queues, never more than N run at once, and every job finishes.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from integration.helpers import Receiver, assert_error
from litestar.routes import HTTPRoute
from litestar.testing import AsyncTestClient

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue
from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.core.model import KnowledgeCreate, PersonalityCreate, VideoCreate
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.knowledge_processing import KnowledgeProcessor
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.videos import Videos
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.fetcher import Fetched
from avatar_service.ports.renderer import AvatarInfo, RenderRequest, RenderResult
from avatar_service.ports.speech import Audio, SpeechEngines, VoiceChoice

from .conftest import build_app, prepare, settings_for

ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"


def test_every_limit_has_a_setting_and_a_default() -> None:
    defaults = load_settings({})
    assert (defaults.max_body_bytes, defaults.max_upload_bytes, defaults.max_fetch_bytes) == (2**20, 20 * 2**20,
                                                                                              20 * 2**20)
    assert (defaults.max_concurrent_renders, defaults.max_concurrent_ingestions) == (1, 2)
    assert (defaults.rate_limit_per_minute, defaults.max_transcript_turns) == (6000, 2000)
    names = ["MAX_BODY_BYTES", "MAX_UPLOAD_BYTES", "MAX_FETCH_BYTES", "MAX_CONCURRENT_RENDERS",
             "MAX_CONCURRENT_INGESTIONS", "RATE_LIMIT_PER_MINUTE", "MAX_TRANSCRIPT_TURNS"]
    read = load_settings({f"AVATAR_{name}": str(7 + i) for i, name in enumerate(names)})
    assert [getattr(read, name.lower()) for name in names] == [7 + i for i in range(len(names))]


class Api:
    def __init__(self, client: AsyncTestClient[Any], secret: str) -> None:
        self.client, self.headers = client, {"Authorization": f"Bearer {secret}"}

    async def post(self, path: str, **kwargs: Any) -> Any:
        return await self.client.post(path, headers=self.headers, **kwargs)


async def _api(tmp_path: Path, **limits: Any) -> AsyncIterator[Api]:
    settings = settings_for(tmp_path, allow_private_urls=True, **{"rate_limit_per_minute": 0, **limits})
    secrets = await prepare(settings, {"a": ("org-a", ["*"])})
    async with AsyncTestClient(build_app(settings)) as client:
        yield Api(client, secrets["a"])


@pytest.fixture
async def small(tmp_path: Path) -> AsyncIterator[Api]:
    async for api in _api(tmp_path, max_body_bytes=4096, max_upload_bytes=64 * 1024, max_fetch_bytes=64 * 1024,
                          max_transcript_turns=6):
        yield api


async def test_a_body_over_the_cap_is_a_413_envelope(small: Api) -> None:
    response = await small.post("/v1/personalities", json={"name": "Ada", "description": "x" * 8000})
    assert_error(response, 413)
    assert response.json()["error"]["code"] == "payload_too_large"
    assert (await small.post("/v1/personalities", json={"name": "Ada", "description": "x" * 1000})).status_code == 201


async def test_an_upload_over_the_cap_is_a_413(small: Api) -> None:
    pid = (await small.post("/v1/personalities", json={"name": "Ada"})).json()["id"]
    path = f"/v1/personalities/{pid}/knowledge"
    big = await small.post(path, files={"file": ("big.txt", b"word " * 20_000, "text/plain")})  # 100 kB
    assert_error(big, 413, param="file")
    fits = await small.post(path, files={"file": ("ok.txt", b"word " * 10_000, "text/plain")})  # 50 kB
    assert fits.status_code == 201, fits.text


async def test_an_avatar_upload_over_the_cap_is_a_413(small: Api) -> None:
    """POST /v1/avatars takes AVATAR_MAX_UPLOAD_BYTES for its image (not the API's body cap): a portrait over it
    is a 413 naming `image` (413 per the contract's 'body too large', as for knowledge uploads), whether the
    route measures the file or the body is already past the cap plus the multipart framing; nothing is stored."""
    import cv2

    portrait = cv2.imread(str(Path(__file__).parents[1] / "data" / "astronaut.png"))

    def jpeg(quality: int) -> bytes:
        ok, data = cv2.imencode(".jpg", portrait, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return data.tobytes()

    async def upload(image: bytes) -> Any:
        return await small.post("/v1/avatars", files={"image": ("me.jpg", image, "image/jpeg")},
                                data={"name": "Eileen"})

    cap = 64 * 1024
    over = jpeg(95)  # about 97 kB: over the cap, within the body limit (cap + 64 kB of framing)
    assert cap < len(over) < 2 * cap
    refused = await upload(over)
    assert_error(refused, 413, code="payload_too_large", param="image")
    assert str(cap) in refused.json()["error"]["message"]
    far = (Path(__file__).parents[1] / "data" / "astronaut.png").read_bytes()  # 790 kB: past the body limit
    assert_error(await upload(far), 413, code="payload_too_large", param=None)  # refused before the form is read
    listed = (await small.client.get("/v1/avatars", headers=small.headers)).json()["data"]
    assert [a for a in listed if a["style"] == "realistic"] == []
    fits = await upload(jpeg(80))  # about 45 kB
    assert len(jpeg(80)) < cap and fits.status_code == 201, fits.text
    assert fits.json()["style"] == "realistic"


async def test_a_fetch_over_the_cap_fails_the_item_too_large(small: Api) -> None:
    pid = (await small.post("/v1/personalities", json={"name": "Ada"})).json()["id"]
    with Receiver() as site:
        site.pages["/big.txt"] = ("text/plain", b"lorem ipsum " * 20_000)  # 240 kB
        site.pages["/small.txt"] = ("text/plain", b"The sky is blue. " * 100)
        big = (await small.post(f"/v1/personalities/{pid}/knowledge",
                                json={"type": "url", "url": site.url + "/big.txt"})).json()
        fine = (await small.post(f"/v1/personalities/{pid}/knowledge",
                                 json={"type": "url", "url": site.url + "/small.txt"})).json()
        queue: DatabaseJobQueue = small.client.app.state.container.resolve(DatabaseJobQueue)
        await queue.drain()
    got = {i: (await small.client.get(f"/v1/personalities/{pid}/knowledge/{i}", headers=small.headers)).json()
           for i in (big["id"], fine["id"])}
    assert got[big["id"]]["status"] == "failed" and got[big["id"]]["error"]["code"] == "too_large"
    assert got[fine["id"]]["status"] == "ready"


async def test_a_full_transcript_is_a_409_transcript_full(small: Api) -> None:
    pid = (await small.post("/v1/personalities", json={"name": "Ada"})).json()["id"]
    cid = (await small.post("/v1/conversations", json={"personality_id": pid})).json()["id"]
    answers = [await small.post(f"/v1/conversations/{cid}/messages", json={"content": f"turn {i}"})
               for i in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 409]  # 6 turns: three exchanges
    assert_error(answers[-1], 409)
    assert answers[-1].json()["error"]["code"] == "transcript_full"
    conversation = await small.client.get(f"/v1/conversations/{cid}", headers=small.headers,
                                          params={"include_transcript": "true"})
    assert len(conversation.json()["transcript"]) == 6


async def test_the_rate_limit_answers_429_with_retry_after(tmp_path: Path) -> None:
    async for api in _api(tmp_path, rate_limit_per_minute=5):
        answers = [await api.client.get("/v1/personalities", headers=api.headers) for _ in range(7)]
        assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
        assert [int(a.headers["RateLimit-Remaining"]) for a in answers[:5]] == [4, 3, 2, 1, 0]
        assert all(a.headers["RateLimit-Limit"] == "5" for a in answers)
        refused = answers[-1]
        assert_error(refused, 429)
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["Retry-After"]) <= 60 and "RateLimit-Reset" in refused.headers


# --- concurrency caps: a burst queues ---------------------------------------------------------------------------


class Gauge:
    """Counts how many calls are inside at once, from any thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = self.peak = self.done = 0

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1
            self.done += 1


class SlowRenderer:
    name = "slow-renderer"

    def __init__(self, gauge: Gauge) -> None:
        self.gauge = gauge

    def list_avatars(self) -> list[AvatarInfo]:
        return [AvatarInfo("ava", "Ava", "realistic")]

    def render(self, request: RenderRequest, on_progress: Any, should_cancel: Any) -> RenderResult:
        self.gauge.enter()
        try:
            time.sleep(0.15)
            request.out_dir.mkdir(parents=True, exist_ok=True)
            video, thumb = request.out_dir / "v.mp4", request.out_dir / "t.jpg"
            video.write_bytes(b"mp4")
            thumb.write_bytes(b"jpg")
            return RenderResult(video, thumb, 0.1, "video/mp4")
        finally:
            self.gauge.leave()


class SlowFetcher:
    def __init__(self, gauge: Gauge) -> None:
        self.gauge = gauge

    async def fetch(self, url: str) -> Fetched:
        self.gauge.enter()
        try:
            await asyncio.sleep(0.15)
            return Fetched(url, 200, "text/plain", b"The sky is blue and the grass is green.")
        finally:
            self.gauge.leave()


class Speech:
    name = "fake-speech"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        return Audio(samples=[0] * 2400, sample_rate=24_000)


@pytest.mark.parametrize(("kind", "cap"), [("renders", 1), ("renders", 3), ("ingestions", 2)])
async def test_a_burst_of_jobs_queues_under_the_concurrency_cap(tmp_path: Path, kind: str, cap: int) -> None:
    gauge = Gauge()
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="limits",
                             max_concurrent_renders=cap, max_concurrent_ingestions=cap)
    storage = MemoryStorage()
    speech = SpeechEngines({p: Speech() for p in ("elevenlabs", "cartesia", "openai", "azure")})
    container = bootstrap.test(settings, storage, renderer=SlowRenderer(gauge), dialogue=OfflineGroundedDialogue(),
                               speech=speech)
    container.resolve(KnowledgeProcessor).fetcher = SlowFetcher(gauge)
    pid = (await container.resolve(Personalities).create(ORG, PersonalityCreate(name="Ada"))).id
    burst = 8
    for i in range(burst):
        if kind == "renders":
            await container.resolve(Videos).create(ORG, VideoCreate(personality_id=pid, text=f"Hello number {i}"))
        else:
            await container.resolve(Knowledge).add(ORG, pid, KnowledgeCreate(type="url", url=f"https://x.test/{i}"))
    table, final = ("videos", "completed") if kind == "renders" else ("knowledge", "ready")
    worker = asyncio.create_task(container.resolve(DatabaseJobQueue).run())
    try:
        for _ in range(600):  # up to 30 s; the rows are polled, as a client would
            if all(r["status"] == final for r in storage.rows(table)):
                break
            await asyncio.sleep(0.05)
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
        await storage.close()
    assert [r["status"] for r in storage.rows(table)] == [final] * burst  # all finished: queued, not dropped
    assert gauge.done == burst
    assert gauge.peak == cap, f"{gauge.peak} ran at once under a cap of {cap}"


async def test_the_upload_route_takes_bodies_as_large_as_the_upload_cap(tmp_path: Path) -> None:
    """Its body cap follows AVATAR_MAX_UPLOAD_BYTES (it was a fixed 25 MB: a larger setting could never be
    used); every other route keeps AVATAR_MAX_BODY_BYTES."""
    from avatar_service.entrypoints.http.routes.knowledge import UPLOAD_OVERHEAD

    async for api in _api(tmp_path, max_body_bytes=4096, max_upload_bytes=40 * 2**20):
        caps = {(method, route.path): handler.resolve_request_max_body_size()
                for route in api.client.app.routes if isinstance(route, HTTPRoute)
                for method, (handler, _model) in route.route_handler_map.items()}
        assert caps[("POST", "/v1/personalities/{personality_id:str}/knowledge")] == 40 * 2**20 + UPLOAD_OVERHEAD
        assert caps[("GET", "/v1/personalities/{personality_id:str}/knowledge")] == 4096
        assert caps[("POST", "/v1/personalities")] == 4096
        pid = (await api.post("/v1/personalities", json={"name": "Ada"})).json()["id"]
        path = f"/v1/personalities/{pid}/knowledge"
        too_big = b"w" * (40 * 2**20 + UPLOAD_OVERHEAD + 1)
        over = await api.post(path, files={"file": ("big.txt", too_big, "text/plain")})
        assert_error(over, 413)
