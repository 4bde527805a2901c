"""The client's pieces that do no I/O: the event-stream decoder, the retry policy, bodies, errors, and that it stays
a client (nothing of the server imported) whose sync half is what the async half makes."""

from __future__ import annotations

import email.utils
import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import httpx
import msgspec
import pytest

from avatar_service.client import BadRequestError, InternalServerError, NotFoundError, RateLimitError
from avatar_service.client._wire import RetryPolicy, api_error, body, path, query, retry_after
from avatar_service.client.sse import EventDecoder, ServerSentEvent
from avatar_service.core.model import PersonalityCreate

ROOT = Path(__file__).resolve().parents[3]


def events(lines: list[str]) -> list[tuple[str, str]]:
    decoder = EventDecoder()
    found = [decoder.feed(line) for line in lines] + [decoder.end()]
    return [(e.event, e.data) for e in found if e is not None]


def test_server_sent_events_are_decoded_as_the_format_says() -> None:
    lines = [": keep-alive", "", "event: delta", 'data: {"content":', 'data: "a"}', "", "data: 1", "", "event: done",
             "data:{}", "id: 7", "retry: 10", "", "event: ignored", ""]
    assert events(lines) == [("delta", '{"content":\n"a"}'), ("message", "1"), ("done", "{}")]
    assert events(["event: delta", 'data: {"content": "cut"}']) == [("delta", '{"content": "cut"}')]  # no blank line
    assert EventDecoder().feed("data") is None and ServerSentEvent("a", "b").data == "b"


def test_backoff_grows_with_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_retries=4, initial_delay=0.5, max_delay=3.0, max_retry_after=30)
    for attempt, ceiling in enumerate([0.5, 1.0, 2.0, 3.0]):
        waits = [policy.delay(attempt, None) for _ in range(200)]
        assert all(w is not None and 0.75 * ceiling <= w <= ceiling for w in waits)
        assert len(set(waits)) > 100  # jittered, not one fixed value
    assert policy.delay(4, None) is None  # retries used up
    assert 2.0 <= (policy.delay(0, 2.0) or 0) <= 2.2  # Retry-After as given (plus up to 10%)
    assert policy.delay(0, 31.0) is None  # longer than the client will wait: the 429 is raised at once


def test_retry_after_in_seconds_or_as_a_date() -> None:
    def response(value: str | None) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": value} if value is not None else {})

    assert retry_after(response("3")) == 3.0 and retry_after(response(None)) is None
    assert retry_after(response("soon")) is None
    later = retry_after(response(email.utils.formatdate(time.time() + 20, usegmt=True)))
    assert later is not None and 17 <= later <= 21


def test_which_answers_are_retried() -> None:
    policy = RetryPolicy()
    conflict = httpx.Response(409, json={"error": {"code": "idempotency_conflict", "message": "still running"}})
    for status in (429, 500, 502, 503, 504, 408):
        assert policy.retryable(httpx.Response(status), own_key=True)
    for status in (400, 401, 403, 404, 413):
        assert not policy.retryable(httpx.Response(status), own_key=True)
    assert policy.retryable(conflict, own_key=True)  # our own key's first request is still running
    assert not policy.retryable(conflict, own_key=False)  # the caller's key: theirs to sort out
    assert not policy.retryable(httpx.Response(409, json={"error": {"code": "state_conflict"}}), own_key=True)


def test_errors_carry_the_envelope() -> None:
    envelope = {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": "No such user",
                          "param": "user_id", "request_id": "req_abc"}}
    error = api_error(httpx.Response(404, json=envelope))
    assert isinstance(error, NotFoundError)
    assert (error.status, error.code, error.param, error.message, error.request_id, error.type) == (
        404, "resource_missing", "user_id", "No such user", "req_abc", "invalid_request_error")
    assert str(error) == "404 resource_missing: No such user (param: user_id)"
    limited = api_error(httpx.Response(429, json=envelope, headers={"Retry-After": "7", "Request-Id": "req_h"}))
    assert isinstance(limited, RateLimitError) and limited.retry_after == 7.0
    plain = api_error(httpx.Response(502, text="<html>bad gateway</html>", headers={"Request-Id": "req_h"}))
    assert isinstance(plain, InternalServerError) and plain.message == "HTTP 502: <html>bad gateway</html>"
    assert plain.request_id == "req_h" and plain.code is None
    assert isinstance(api_error(httpx.Response(400, json=envelope)), BadRequestError)


def test_bodies_from_structs_mappings_or_keywords() -> None:
    made = PersonalityCreate(name="Ava")
    assert body(PersonalityCreate, made, {}) is made
    assert body(PersonalityCreate, {"name": "Ava"}, {}) == made == body(PersonalityCreate, None, {"name": "Ava"})
    with pytest.raises(msgspec.ValidationError, match="traits"):  # checked before anything is sent
        body(PersonalityCreate, None, {"name": "Ava", "traits": {"warmth": 2}})
    with pytest.raises(msgspec.ValidationError, match="nmae"):  # request bodies refuse unknown fields
        body(PersonalityCreate, None, {"nmae": "Ava"})
    with pytest.raises(TypeError):
        body(PersonalityCreate, made, {"name": "Eve"})
    assert path("/users/{}/memories/{}", "user_a/b", "mem 1") == "/users/user_a%2Fb/memories/mem%201"
    assert query({"limit": 5, "cursor": None, "include_transcript": True}) == {"limit": 5,
                                                                               "include_transcript": "true"}


def test_the_client_imports_nothing_of_the_server() -> None:
    code = ("import sys, avatar_service.client\n"
            "server = ('litestar', 'sqlalchemy', 'alembic', 'uvicorn', 'punq', 'numpy', 'aiortc', 'av')\n"
            "print([m for m in sys.modules if m.split('.')[0] in server or m.startswith(('avatar_service.adapters', "
            "'avatar_service.entrypoints', 'avatar_service.core.services', 'avatar_service.embedded'))])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_the_sync_client_is_what_the_async_one_makes() -> None:
    spec = importlib.util.spec_from_file_location("unasync_client", ROOT / "scripts" / "unasync_client.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    made = generator.generate()
    assert len(made) == 5
    for target, text in made.items():
        assert target.read_text() == text, f"{target} is stale: run scripts/unasync_client.py"
        assert "async " not in text and "await " not in text and "Async" not in text.replace("httpx.AsyncClient", "")


def test_every_post_but_the_searches_carries_an_idempotency_key() -> None:
    from avatar_service.client._wire import changes

    assert changes("POST", "http://h/v1/users") and changes("POST", "http://h/v1/conversations/c/messages")
    assert not changes("POST", "http://h/v1/users/u/memories/search")
    assert not changes("POST", "http://h/v1/personalities/p/knowledge/search?x=1")
    assert not changes("GET", "http://h/v1/users") and not changes("PATCH", "http://h/v1/users/u")
