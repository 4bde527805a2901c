"""Helpers shared by the integration tests: the service handle, envelope checks, a webhook receiver."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import httpx
from litestar.testing import AsyncTestClient

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys

T = TypeVar("T")


@dataclass
class Service:
    """The running app, its container, and the '*' key of organization `default`.

    The test client runs the app on a loop of its own (a blocking portal in another thread), and asyncpg
    connections belong to the loop that opened them, so every direct call into the container goes through
    that same portal.
    """

    container: Any
    client: AsyncTestClient[Any]
    organization_id: str
    secret: str
    backend: str
    _orgs: dict[str, str] = field(default_factory=dict)

    def call(self, function: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Runs a coroutine function on the app's loop."""
        return self.client.blocking_portal.call(function, *args)

    async def organization(self, slug: str) -> str:
        if slug not in self._orgs:
            self._orgs[slug] = self.call(self.container.resolve(ApiKeys).organization, slug).id
        return self._orgs[slug]

    async def make_key(self, *scopes: str, organization: str = "default", name: str = "test key") -> str:
        """A new key's secret with these scopes, in the named organization (created when missing)."""
        org = await self.organization(organization)
        created = self.call(
            self.container.resolve(ApiKeys).create, org, ApiKeyCreate(name=name, scopes=list(scopes))
        )
        return str(created.secret)

    async def drain(self) -> None:
        """Runs every due job, and the outbox dispatcher, until nothing is left."""
        self.call(self.container.resolve(DatabaseJobQueue).drain)


def auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def assert_error(
    response: Any, status: int, *, code: str | None = None, param: str | None | object = ...
) -> dict[str, Any]:
    """Checks the contract's error envelope and returns its `error` object."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"type", "code", "message", "param", "request_id"}, error
    assert error["request_id"] == response.headers["request-id"], (error, response.headers)
    assert isinstance(error["type"], str) and error["type"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code, error
    if param is not ...:
        assert error["param"] == param, error
    return error


def assert_deleted(response: Any, ident: str, kind: str) -> None:
    assert response.status_code == 200, response.text
    assert response.json() == {"id": ident, "object": kind, "deleted": True}


async def create_personality(client: AsyncTestClient[Any], **fields: Any) -> dict[str, Any]:
    response = await client.post("/v1/personalities", json={"name": "Ava", **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def create_user(client: AsyncTestClient[Any], **fields: Any) -> dict[str, Any]:
    response = await client.post("/v1/users", json=fields)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def walk(client: AsyncTestClient[Any], path: str, limit: int, **params: Any) -> list[dict[str, Any]]:
    """Every item of a list, page by page, checking the envelope on the way."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(1000):
        query = {"limit": limit, **params, **({"cursor": cursor} if cursor else {})}
        response = await client.get(path, params=query)
        assert response.status_code == 200, response.text
        page = response.json()
        assert set(page) == {"data", "has_more", "next_cursor"}
        assert len(page["data"]) <= limit
        items += page["data"]
        if not page["has_more"]:
            assert page["next_cursor"] is None
            return items
        cursor = page["next_cursor"]
        assert isinstance(cursor, str) and cursor
    raise AssertionError("the pagination never ended")


# --- a local webhook receiver -------------------------------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class _Server(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: a burst of deliveries (the dispatcher sends up to 64 at once)
    # overflowed it and the connections beyond it failed with ReadError, as no real receiver's would.
    request_queue_size = 128


class Receiver:
    """An HTTP server on 127.0.0.1 that records every POST and answers `status`, and serves `pages` on GET."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.status = 200
        self.pages: dict[str, tuple[str, bytes]] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                page = receiver.pages.get(self.path)
                self.send_response(200 if page else 404)
                body = page[1] if page else b""
                self.send_header("Content-Type", page[0] if page else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.requests.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def assert_timestamp(value: Any) -> None:
    """RFC 3339 UTC with `Z` (contract, section 3)."""
    assert isinstance(value, str) and TIMESTAMP.match(value), value


def assert_id(value: Any, prefix: str) -> None:
    """A prefix and 24 or more URL-safe characters."""
    assert isinstance(value, str) and re.fullmatch(re.escape(prefix) + r"[A-Za-z0-9_-]{24,}", value), value


def assert_created(response: Any, fields: set[str], prefix: str, kind: str) -> dict[str, Any]:
    """A 201 whose body has exactly `fields`, an id with `prefix`, `object` == `kind` and RFC 3339 timestamps;
    the body."""
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == fields
    assert_id(body["id"], prefix)
    assert body["object"] == kind
    for stamp in {"created_at", "updated_at"} & fields:
        assert_timestamp(body[stamp])
    return body


def events_of(receiver: Receiver, kind: str) -> list[dict[str, Any]]:
    """The JSON bodies of the deliveries of one event kind the receiver got."""
    bodies = [json.loads(r.body) for r in receiver.requests]
    return [body for body in bodies if body.get("type") == kind]


async def subscribe(client: AsyncTestClient[Any], url: str, *events: str) -> dict[str, Any]:
    response = await client.post("/v1/webhooks", json={"url": url, "events": list(events)})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def answers_healthz(port: int) -> bool:
    """Whether an `avatar serve` on this port is up."""
    try:
        async with httpx.AsyncClient() as http:
            return (await http.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200
    except httpx.TransportError:
        return False
