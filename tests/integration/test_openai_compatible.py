"""The OpenAI-compatible client against a local server that speaks chat completions (SSE and JSON)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from avatar_service.adapters.dialogue import DialogueUnavailable, OpenAICompatibleDialogue
from avatar_service.ports.dialogue import DialogueEngine, DialogueRequest, Persona, Turn

REQUEST = DialogueRequest(
    Persona(
        "Ava", "You are Ava, a travel guide.", "Knows Portugal well.", {"formality": 0.9, "verbosity": 0.1}
    ),
    [Turn("user", "Hi"), Turn("assistant", "Hello!"), Turn("user", "When was the Belem Tower built?")],
    knowledge=["The Belem Tower was built in the 16th century."],
    memories=["User lives in Porto"],
    user_name="Sam",
)


@dataclass
class Script:
    """What the fake server answers, one step per request; the last step repeats."""

    steps: list[tuple[str, Any]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    def next(self) -> tuple[str, Any]:
        index = min(len(self.bodies) - 1, len(self.steps) - 1)
        return self.steps[index]


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", 0))
            script.bodies.append(json.loads(self.rfile.read(length)))
            script.headers.append(dict(self.headers))
            if self.path != "/v1/chat/completions":
                return self._json(404, {"error": {"message": "no such route"}})
            kind, arg = script.next()
            if kind == "status":
                status, retry_after = arg
                self.send_response(status)
                if retry_after is not None:
                    self.send_header("Retry-After", str(retry_after))
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"error": {"message": "try later"}}')
            elif kind == "json":
                self._json(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": arg}}]})
            elif kind == "sse":
                pieces, stall = arg
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.write(b": keep-alive\n\n")
                first = {"choices": [{"index": 0, "delta": {"role": "assistant"}}]}
                self.wfile.write(f"data: {json.dumps(first)}\n\n".encode())
                for piece in pieces:
                    event = {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                if stall:
                    time.sleep(stall)
                    return
                self.wfile.write(b"data: [DONE]\n\n")
            elif kind == "sleep":
                time.sleep(arg)
                self._json(200, {"choices": [{"message": {"content": "too late"}}]})

        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True  # a handler still sleeping for a timeout test must not hold up teardown

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # the client hanging up on a stalled response is what those tests are about


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()
    httpd = _QuietServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", script
    httpd.shutdown()
    httpd.server_close()


def engine(base_url: str, **kwargs: Any) -> OpenAICompatibleDialogue:
    kwargs.setdefault("backoff", 0.01)
    return OpenAICompatibleDialogue(base_url, "test-model", api_key="sk-test", **kwargs)


async def collect(client: OpenAICompatibleDialogue) -> list[str]:
    try:
        return [piece async for piece in client.stream(REQUEST)]
    finally:
        await client.aclose()


async def test_stream_assembles_the_reply_and_sends_the_persona(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("sse", (["The Belem", " Tower was built", " in the 16th century."], 0))]
    client = engine(url)
    typed: DialogueEngine = client
    assert typed.name == "openai-compatible:test-model"
    pieces = await collect(client)
    assert "".join(pieces) == "The Belem Tower was built in the 16th century."
    assert len(pieces) == 3
    body = script.bodies[0]
    assert body["model"] == "test-model" and body["stream"] is True
    assert script.headers[0]["Authorization"] == "Bearer sk-test"
    system, *turns = body["messages"]
    assert system["role"] == "system"
    for expected in ("You are Ava", "16th century", "User lives in Porto", "Sam", "formal", "short"):
        assert expected in system["content"]
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert turns[-1]["content"] == "When was the Belem Tower built?"


async def test_reply_without_streaming(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("json", "  Sixteenth century.  ")]
    client = engine(url)
    try:
        assert await client.reply(REQUEST) == "Sixteenth century."
    finally:
        await client.aclose()
    assert script.bodies[0]["stream"] is False


async def test_stream_accepts_a_server_that_answers_with_json(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("json", "One piece.")]
    assert await collect(engine(url)) == ["One piece."]


@pytest.mark.parametrize("status", [503, 500, 429])
async def test_retries_after_server_errors_then_succeeds(server: tuple[str, Script], status: int) -> None:
    url, script = server
    script.steps = [("status", (status, 0)), ("status", (status, None)), ("sse", (["ok"], 0))]
    assert await collect(engine(url, max_retries=2)) == ["ok"]
    assert len(script.bodies) == 3
    script.bodies.clear()
    script.steps = [("status", (status, None)), ("json", "fine")]
    client = engine(url)
    try:
        assert await client.reply(REQUEST) == "fine"
    finally:
        await client.aclose()
    assert len(script.bodies) == 2


async def test_gives_up_after_max_retries(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("status", (503, None))]
    with pytest.raises(DialogueUnavailable, match="503"):
        await collect(engine(url, max_retries=2))
    assert len(script.bodies) == 3


async def test_client_errors_are_not_retried(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("status", (401, None))]
    with pytest.raises(DialogueUnavailable, match="401"):
        await collect(engine(url))
    assert len(script.bodies) == 1


async def test_connection_refused_is_retried_then_unavailable() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = engine(f"http://127.0.0.1:{port}/v1", max_retries=2, backoff=0.05)
    started = time.perf_counter()
    with pytest.raises(DialogueUnavailable, match="after 3 attempts"):
        await client.reply(REQUEST)
    assert time.perf_counter() - started >= 0.05 + 0.1  # backed off twice
    await client.aclose()


async def test_timeout_raises_dialogue_unavailable(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("sleep", 2.0)]
    started = time.perf_counter()
    with pytest.raises(DialogueUnavailable, match="timed out"):
        await collect(engine(url, timeout=0.3))
    assert time.perf_counter() - started < 1.5
    assert len(script.bodies) == 1  # a slow server is not asked again


async def test_no_retry_once_the_stream_has_started(server: tuple[str, Script]) -> None:
    url, script = server
    script.steps = [("sse", (["Half a", " reply"], 2.0)), ("sse", (["again"], 0))]
    client = engine(url, timeout=0.3)
    received: list[str] = []
    with pytest.raises(DialogueUnavailable, match="broke off"):
        async for piece in client.stream(REQUEST):
            received.append(piece)
    await client.aclose()
    assert received == ["Half a", " reply"]
    assert len(script.bodies) == 1
