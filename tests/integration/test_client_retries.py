"""The client's retries against a local server that answers what each test scripts: 429 with Retry-After, 503s,
lost connections; one Idempotency-Key per call, kept across its retries; giving up after max_retries."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from avatar_service.client import (
    APIConnectionError,
    APITimeoutError,
    AsyncAvatarClient,
    AvatarClient,
    BadRequestError,
    ConflictError,
    InternalServerError,
    RateLimitError,
)
from avatar_service.client._wire import RetryPolicy

USER = {"id": "user_0123456789abcdefghijklmn", "object": "user", "created_at": "2026-01-02T03:04:05Z",
        "updated_at": "2026-01-02T03:04:05Z", "external_id": "sam", "metadata": {},
        "settings": {"memory_enabled": True}}
FAST = RetryPolicy(max_retries=3, initial_delay=0.02, max_delay=0.05)


def envelope(status: int, code: str) -> bytes:
    return json.dumps({"error": {"type": "api_error", "code": code, "message": f"scripted {status}",
                                 "param": None, "request_id": "req_scripted"}}).encode()


@dataclass
class Answer:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    at: float


class Scripted:
    """Answers requests from `script` in order (the last one again once the script runs out) and records them."""

    def __init__(self, *script: Answer) -> None:
        self.script = list(script)
        self.seen: list[Seen] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.seen.append(Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                                        time.monotonic()))
                answer = server.script.pop(0) if len(server.script) > 1 else server.script[0]
                self.send_response(answer.status)
                for name, value in {"Content-Type": answer.content_type, **answer.headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            do_GET = do_POST = do_PATCH = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def scripted() -> Iterator[type[Scripted]]:
    made: list[Scripted] = []

    class Tracked(Scripted):
        def __init__(self, *script: Answer) -> None:
            super().__init__(*script)
            made.append(self)

    yield Tracked
    for server in made:
        server.close()


def fast(client: AvatarClient | AsyncAvatarClient, policy: RetryPolicy = FAST) -> None:
    client._transport.retry = policy  # the default backoff is right for a service, slow for a test


def test_a_429_is_retried_after_retry_after_with_the_same_idempotency_key(scripted: type[Scripted]) -> None:
    server = scripted(Answer(429, envelope(429, "rate_limited"), {"Retry-After": "1"}),
                      Answer(201, json.dumps(USER).encode()))
    with AvatarClient(server.url, "sk_test") as client:
        user = client.users.create(external_id="sam")
    assert user.id == USER["id"] and [s.method for s in server.seen] == ["POST", "POST"]
    first, second = server.seen
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"] != ""
    assert second.at - first.at >= 1.0  # Retry-After honoured
    assert first.headers["authorization"] == "Bearer sk_test" and first.path == "/v1/users"


async def test_the_async_client_retries_alike(scripted: type[Scripted]) -> None:
    server = scripted(Answer(429, envelope(429, "rate_limited"), {"Retry-After": "1"}), Answer(503, b"down"),
                      Answer(201, json.dumps(USER).encode()))
    async with AsyncAvatarClient(server.url, "sk_test") as client:
        user = await client.users.create(external_id="sam")
    assert user.external_id == "sam" and len(server.seen) == 3
    assert len({s.headers["idempotency-key"] for s in server.seen}) == 1
    assert server.seen[1].at - server.seen[0].at >= 1.0


def test_503s_are_retried_with_backoff_then_it_gives_up(scripted: type[Scripted]) -> None:
    down = Answer(503, envelope(503, "engine_unavailable"))
    page = {"data": [USER], "has_more": False, "next_cursor": None}
    server = scripted(down, down, Answer(200, json.dumps(page).encode()))
    with AvatarClient(server.url, "sk_test") as client:
        fast(client)
        assert [u.id for u in client.users.list().data] == [USER["id"]] and len(server.seen) == 3
        assert "idempotency-key" not in server.seen[0].headers  # GETs need none
        failing = scripted(down)
        with AvatarClient(failing.url, "sk_test", max_retries=3) as giving_up:
            fast(giving_up)
            with pytest.raises(InternalServerError) as failed:
                giving_up.users.create(external_id="sam")
    assert len(failing.seen) == 4  # the request and 3 retries
    assert len({s.headers["idempotency-key"] for s in failing.seen}) == 1
    error = failed.value
    assert (error.status, error.code, error.request_id) == (503, "engine_unavailable", "req_scripted")


def test_what_is_not_retried(scripted: type[Scripted]) -> None:
    refused = scripted(Answer(400, envelope(400, "parameter_invalid")))
    limited = scripted(Answer(429, envelope(429, "rate_limited"), {"Retry-After": "120"}))
    with AvatarClient(refused.url, "sk_test") as client:
        fast(client)
        with pytest.raises(BadRequestError):
            client.users.create(external_id="sam")
    with AvatarClient(limited.url, "sk_test") as client, pytest.raises(RateLimitError) as too_long:
        client.users.list()
    assert len(refused.seen) == 1 and len(limited.seen) == 1  # a wait longer than a minute is the caller's call
    assert too_long.value.retry_after == 120


def test_the_callers_idempotency_key_is_sent_and_an_own_key_waits_out_a_conflict(scripted: type[Scripted]) -> None:
    server = scripted(Answer(409, envelope(409, "idempotency_conflict")), Answer(201, json.dumps(USER).encode()))
    with AvatarClient(server.url, "sk_test") as client:
        fast(client)
        client.users.create(external_id="sam")  # the first request with our key still runs: wait for it
        assert len(server.seen) == 2
        theirs = scripted(Answer(409, envelope(409, "idempotency_conflict")))
        with AvatarClient(theirs.url, "sk_test") as other:
            fast(other)
            with pytest.raises(Exception, match="scripted 409"):
                other.users.create(external_id="sam", idempotency_key="signup-sam")
    assert [s.headers["idempotency-key"] for s in theirs.seen] == ["signup-sam"]  # theirs: not retried


def test_connection_failures_are_retried_then_raised() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    attempts: list[httpx.Request] = []
    http = httpx.Client(event_hooks={"request": [attempts.append]})
    with AvatarClient(f"http://127.0.0.1:{port}", "sk_test", http_client=http) as client:
        fast(client)
        with pytest.raises(APIConnectionError) as unreachable:
            client.users.list()
    assert len(attempts) == 4 and f"127.0.0.1:{port}" in str(unreachable.value)
    assert isinstance(unreachable.value.cause, httpx.ConnectError)
    http.close()


async def test_a_streamed_turn_is_retried_until_its_stream_begins(scripted: type[Scripted]) -> None:
    result = {"conversation": {"id": "conv_x", "object": "conversation", "personality_id": "personality_x",
                               "status": "active", "created_at": "2026-01-02T03:04:05Z"},
              "message": {"role": "user", "content": "Hi", "timestamp": 0.1},
              "reply": {"role": "assistant", "content": "Hello there", "timestamp": 0.2}}
    stream = (b'event: delta\ndata: {"content":"Hello"}\n\nevent: delta\ndata: {"content":" there"}\n\n'
              b"event: done\ndata: " + json.dumps(result).encode() + b"\n\n")
    server = scripted(Answer(503, envelope(503, "engine_unavailable")),
                      Answer(200, stream, content_type="text/event-stream"))
    async with AsyncAvatarClient(server.url, "sk_test") as client:
        fast(client)
        async with client.conversations.stream("conv_x", "Hi") as turn:
            pieces = [piece async for piece in turn]
    assert pieces == ["Hello", " there"] and turn.result is not None and turn.result.reply.content == "Hello there"
    assert len({s.headers["idempotency-key"] for s in server.seen}) == 1 and len(server.seen) == 2


def test_a_search_is_retried_without_an_idempotency_key(scripted: type[Scripted]) -> None:
    """A search changes nothing: retried as it is, with no key for the service to store an answer under."""
    server = scripted(Answer(503, envelope(503, "engine_unavailable")), Answer(200, b'{"data": []}'))
    with AvatarClient(server.url, "sk_test") as client:
        fast(client)
        assert client.memories.search("user_x", query="pets").data == []
    assert len(server.seen) == 2 and all("idempotency-key" not in s.headers for s in server.seen)
    assert server.seen[0].path == "/v1/users/user_x/memories/search"


def test_timeouts_are_the_callers_and_raise_typed() -> None:
    """A server that accepts the connection and never answers: the read times out after the caller's timeout,
    on each attempt, and the error says so."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections complete in the backlog; nothing ever reads or answers them
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with AvatarClient(url, "sk_test", timeout=0.3, max_retries=1) as client:
            fast(client)
            started = time.monotonic()
            with pytest.raises(APITimeoutError) as slow:
                client.users.list()
    assert time.monotonic() - started >= 0.6  # two attempts of 0.3 s
    assert isinstance(slow.value.cause, httpx.ReadTimeout) and isinstance(slow.value, APIConnectionError)


async def test_a_streamed_turn_waits_out_its_own_keys_conflict(scripted: type[Scripted]) -> None:
    """A stream's refusal is read like any other: a 409 for the client's own key (its first attempt still running)
    is retried, a 409 of another kind raised with its envelope."""
    done = {"conversation": {"id": "conv_x", "object": "conversation", "personality_id": "personality_x",
                             "status": "active", "created_at": "2026-01-02T03:04:05Z"},
            "message": {"role": "user", "content": "Hi", "timestamp": 0.1},
            "reply": {"role": "assistant", "content": "Hello", "timestamp": 0.2}}
    stream = b'event: delta\ndata: {"content":"Hello"}\n\nevent: done\ndata: ' + json.dumps(done).encode() + b"\n\n"
    server = scripted(Answer(409, envelope(409, "idempotency_conflict")),
                      Answer(200, stream, content_type="text/event-stream"))
    ended = scripted(Answer(409, envelope(409, "state_conflict")))
    async with AsyncAvatarClient(server.url, "sk_test") as client:
        fast(client)
        assert (await client.conversations.stream("conv_x", "Hi").until_done()).reply.content == "Hello"
    async with AsyncAvatarClient(ended.url, "sk_test") as client:
        fast(client)
        with pytest.raises(ConflictError) as refused:
            async with client.conversations.stream("conv_x", "Hi"):
                pass
    assert len(server.seen) == 2 and len(ended.seen) == 1 and refused.value.code == "state_conflict"
