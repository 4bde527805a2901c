"""SSRF probes through the API, with AVATAR_ALLOW_PRIVATE_URLS off: every URL the service fetches or posts to.

Forbidden targets: loopback, private ranges, link-local and metadata, IPv6 forms, odd IPv4 spellings; and, through
the GuardedHttp seams (an address policy that treats 127.0.0.1 as the one public server, a resolver for test
names), a redirect from that allowed server to a forbidden one and a name that resolves to a forbidden address.
The forbidden loopback address 127.0.0.2 runs a server that records every hit: it must never see one.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.guarded_http import GuardedHttp, IPAddress, policy_for

from .conftest import build_app, prepare, settings_for

PUBLIC = ipaddress.ip_address("127.0.0.1")  # the stand-in for a public server in these tests


class Recorder:
    """A server on one address that records every request; `redirect` makes it answer 302 to that URL."""

    def __init__(self, host: str, redirect: str | None = None) -> None:
        self.hits: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                recorder.hits.append(f"{self.command} {self.path}")
                self.send_response(302 if redirect else 200)
                if redirect:
                    self.send_header("Location", redirect)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def inside() -> Iterator[Recorder]:
    recorder = Recorder("127.0.0.2")
    yield recorder
    recorder.close()


@pytest.fixture
def redirector(inside: Recorder) -> Iterator[Recorder]:
    recorder = Recorder("127.0.0.1", redirect=f"http://inside.test:{inside.port}/secret")
    yield recorder
    recorder.close()


def forbidden_urls(inside: Recorder, redirector: Recorder) -> list[str]:
    port = inside.port
    return [
        f"http://127.0.0.2:{port}/x", f"http://localhost:{port}/x", "http://10.0.0.1/x", "http://172.16.5.4/x",
        "http://192.168.1.1/x", "http://100.64.0.1/x", "http://169.254.169.254/latest/meta-data/",
        "http://169.254.1.1/x", "http://0.0.0.0/x", f"http://[::1]:{port}/x", f"http://[::ffff:127.0.0.2]:{port}/x",
        "http://[fd00::1]/x", "http://[fe80::1]/x", f"http://2130706434:{port}/x",  # 127.0.0.2 in decimal
        f"http://0177.0.0.2:{port}/x", f"http://0x7f.0.0.2:{port}/x", f"http://127.2:{port}/x",
        f"http://inside.test:{port}/x",  # a name that resolves to a forbidden address
        f"http://public.test:{redirector.port}/start",  # allowed, but redirects to inside.test
    ]


async def resolver(host: str, port: int) -> list[str]:
    names = {"public.test": ["127.0.0.1"], "inside.test": ["127.0.0.2"], "localhost": ["127.0.0.1", "::1"]}
    if host not in names:
        raise OSError(f"no such test name {host}")
    return names[host]


def only_public(ip: IPAddress) -> bool:
    return ip == PUBLIC or policy_for(False)(ip)


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[AsyncTestClient[Any], DatabaseJobQueue]]:
    settings = settings_for(tmp_path, rate_limit_per_minute=0)  # allow_private_urls stays off
    secret = (await prepare(settings, {"root": ("default", ["*"])}))["root"]
    app = build_app(settings)
    http: GuardedHttp = app.state.container.resolve(GuardedHttp)
    http._policy, http._resolver = only_public, resolver
    async with AsyncTestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {secret}"
        yield client, app.state.container.resolve(DatabaseJobQueue)


async def test_knowledge_fetches_refuse_forbidden_addresses(
    api: tuple[AsyncTestClient[Any], DatabaseJobQueue], inside: Recorder, redirector: Recorder
) -> None:
    client, jobs = api
    personality = (await client.post("/v1/personalities", json={"name": "Ava"})).json()["id"]
    items = []
    for url in forbidden_urls(inside, redirector):
        for kind in ("url", "feed", "document"):
            response = await client.post(f"/v1/personalities/{personality}/knowledge", json={"type": kind, "url": url})
            assert response.status_code == 201, response.text
            items.append((url, response.json()["id"]))
    client.blocking_portal.call(jobs.drain)
    for url, item in items:
        body = (await client.get(f"/v1/personalities/{personality}/knowledge/{item}")).json()
        assert body["status"] == "failed", (url, body)
        assert body["error"]["code"] == "url_not_allowed", (url, body)
    assert inside.hits == []
    assert redirector.hits  # the allowed server was reached, the redirect's target was not


async def test_video_media_urls_refuse_forbidden_addresses(
    api: tuple[AsyncTestClient[Any], DatabaseJobQueue], inside: Recorder, redirector: Recorder
) -> None:
    client, jobs = api
    personality = (await client.post("/v1/personalities", json={"name": "Ava"})).json()["id"]
    videos = []
    for url in forbidden_urls(inside, redirector):
        for body in ({"audio_url": url}, {"text": "Hello", "background": url}):
            sent = {"personality_id": personality, "webhook_url": f"http://127.0.0.2:{inside.port}/hook", **body}
            response = await client.post("/v1/video/generations", json=sent)
            assert response.status_code == 201, response.text
            videos.append((url, response.json()["id"]))
    client.blocking_portal.call(jobs.drain)
    for url, video in videos:
        body = (await client.get(f"/v1/video/generations/{video}")).json()
        assert body["status"] == "failed", (url, body)
        assert body["error"]["code"] == "url_not_allowed", (url, body)
    assert inside.hits == []  # neither the media URL nor the video's webhook_url reached inside


async def test_webhook_deliveries_refuse_forbidden_addresses(
    api: tuple[AsyncTestClient[Any], DatabaseJobQueue], inside: Recorder, redirector: Recorder
) -> None:
    client, _ = api
    for url in forbidden_urls(inside, redirector):
        response = await client.post("/v1/webhooks", json={"url": url, "events": ["memory.created"]})
        assert response.status_code == 201, response.text
        attempt = (await client.post(f"/v1/webhooks/{response.json()['id']}/test")).json()
        assert attempt["status"] == "failed", (url, attempt)
        if "public.test" not in url:  # a redirect is not followed by a delivery: it fails as an answer
            assert "url_not_allowed" in str(attempt.get("error")), (url, attempt)
        await client.delete(f"/v1/webhooks/{response.json()['id']}")
    assert inside.hits == []
