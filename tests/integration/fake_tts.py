"""Local HTTP servers that speak each provider's documented text-to-speech protocol, for adapter tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

import numpy as np

# One second of a 440 Hz tone at 24 kHz: what every fake provider "says".
PCM_24K = (np.sin(2 * np.pi * 440 * np.arange(24_000) / 24_000) * 8000).astype("<i2").tobytes()


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


Reply = tuple[int, str, bytes]


@dataclass
class FakeServer:
    url: str
    requests: list[Seen] = field(default_factory=list)


def _unauthorized(message: str) -> Reply:
    return 401, "application/json", json.dumps({"error": message}).encode()


def openai(seen: Seen) -> Reply:
    if seen.path != "/v1/audio/speech":
        return 404, "application/json", b'{"error": "not found"}'
    if seen.headers.get("authorization") != "Bearer sk-test":
        return _unauthorized("bad key")
    body = seen.json()
    assert {"model", "input", "voice"} <= body.keys()
    assert body["response_format"] == "pcm"
    assert 0.25 <= body["speed"] <= 4.0
    return 200, "audio/pcm", PCM_24K


def elevenlabs(seen: Seen) -> Reply:
    if not seen.path.startswith("/v1/text-to-speech/"):
        return 404, "application/json", b'{"detail": "not found"}'
    if seen.headers.get("xi-api-key") != "el-test":
        return _unauthorized("invalid_api_key")
    assert seen.query.get("output_format") == ["pcm_24000"]
    body = seen.json()
    assert body["text"] and body["model_id"]
    assert 0.7 <= body["voice_settings"]["speed"] <= 1.2
    return 200, "audio/pcm", PCM_24K


def cartesia(seen: Seen) -> Reply:
    if seen.path != "/tts/bytes":
        return 404, "application/json", b'{"error": "not found"}'
    if seen.headers.get("authorization") != "Bearer ca-test" or not seen.headers.get("cartesia-version"):
        return _unauthorized("missing key or version")
    body = seen.json()
    assert body["voice"]["mode"] == "id" and body["voice"]["id"]
    assert body["output_format"] == {"container": "raw", "encoding": "pcm_s16le", "sample_rate": 24000}
    assert body["transcript"] and body["model_id"]
    return 200, "audio/pcm", PCM_24K


def azure(seen: Seen) -> Reply:
    if seen.path != "/cognitiveservices/v1":
        return 404, "text/plain", b"not found"
    if seen.headers.get("ocp-apim-subscription-key") != "az-test":
        return _unauthorized("bad key")
    assert seen.headers["content-type"].startswith("application/ssml+xml")
    assert seen.headers["x-microsoft-outputformat"] == "raw-24khz-16bit-mono-pcm"
    root = ElementTree.fromstring(seen.body)  # must be well-formed SSML
    assert root.tag.endswith("speak")
    return 200, "audio/x-wav", PCM_24K


@contextmanager
def serve(handler: Callable[[Seen], Reply]) -> Iterator[FakeServer]:
    server_state = FakeServer(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("content-length", 0))
            seen = Seen(
                "POST",
                parts.path,
                parse_qs(parts.query),
                {k.lower(): v for k, v in self.headers.items()},
                self.rfile.read(length),
            )
            server_state.requests.append(seen)
            try:
                status, content_type, body = handler(seen)
            except AssertionError as exc:  # a protocol violation is the adapter's bug: answer 400
                status, content_type, body = 400, "text/plain", str(exc).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    server_state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield server_state
    finally:
        server.shutdown()
        server.server_close()
