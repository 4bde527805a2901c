"""The resource commands through subprocesses, embedded and against `avatar serve`, checked in the database."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import avatar_service
from avatar_service.core.pagination import PageRequest

AVATAR = str(Path(sys.executable).with_name("avatar"))
TIMEOUT = 120  # seconds per command: generous, the machine is shared


class Avatar:
    """Runs `avatar ...` as a user would, in one environment (one SQLite file, one data directory)."""

    def __init__(self, data: Path, extra: list[str] | None = None) -> None:
        self.data = data
        self.url = f"sqlite+aiosqlite:///{data}/avatar.db"
        self.env = {**os.environ, "AVATAR_DATABASE_URL": self.url, "AVATAR_DATA_DIR": str(data),
                    "AVATAR_EMBEDDER": "lexical", "AVATAR_LOG_LEVEL": "WARNING", "COLUMNS": "200"}
        for name in ("AVATAR_API_URL", "AVATAR_API_KEY"):
            self.env.pop(name, None)
        self.extra = extra or []

    def __call__(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([AVATAR, *args, *self.extra], env=self.env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert done.returncode == code, f"avatar {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json").stdout)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[tuple[str, str]]:
    """`avatar serve` on a free loopback port, on the same database the embedded commands use."""
    avatar = Avatar(data)
    key = avatar("keys", "create", "--name", "cli tests", "--scopes", "*").stdout.strip()
    port = _free_port()
    env = {**avatar.env, "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    process = subprocess.Popen([AVATAR, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, "avatar serve exited"
            assert time.monotonic() < deadline, "avatar serve did not come up"
            time.sleep(0.3)
        yield base, key
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(params=["embedded", "http"])
def avatar(request: pytest.FixtureRequest, data: Path) -> Avatar:
    if request.param == "http":
        base, key = request.getfixturevalue("server")
        return Avatar(data, ["--api-url", base, "--api-key", key])
    # a separate organization, so the two backends' lists do not meet in the shared database
    return Avatar(data, ["--organization", "cli-embedded"])


async def test_resource_commands_do_what_they_say(avatar: Avatar, tmp_path: Path) -> None:
    ava = avatar.json("personalities", "create", "--name", "Ava", "--traits", '{"humor": 0.8}')
    assert ava["object"] == "personality" and ava["traits"]["humor"] == 0.8
    updated = avatar.json("personalities", "update", ava["id"], "--description", "A barista")
    assert updated["description"] == "A barista" and updated["traits"]["humor"] == 0.8  # merged, not replaced
    listed = avatar("personalities", "list").stdout
    assert any(ava["id"] in line and "Ava" in line for line in listed.splitlines())  # a table, one row each

    sam = avatar.json("users", "create", "--external-id", "sam", "--metadata", '{"plan": "pro"}')
    memories = tmp_path / "memories.csv"
    memories.write_text("content,category\nSam lives in Lisbon,location\nSam drinks green tea,preference\n")
    bulk = avatar("memories", "bulk", "sam", str(memories), "--personality", "Ava")  # by external id and name
    assert "Sam lives in Lisbon" in bulk.stdout and "created 2 memories" in bulk.stderr
    found = avatar.json("memories", "search", "sam", "where does Sam live in Lisbon", "--personality", ava["id"])
    assert found["data"][0]["content"] == "Sam lives in Lisbon" and 0 < found["data"][0]["relevance"] <= 1

    added = avatar("knowledge", "add", "Ava", "--text", "The cafe opens at 8am and closes at 6pm on weekdays.",
                   "--name", "hours")
    assert "ready: 1 chunks" in added.stderr and "hours" in added.stdout

    hook = avatar.json("webhooks", "create", "--url", "https://example.com/hook", "--events",
                       "memory.created,knowledge.processed")
    assert hook["secret"].startswith("whsec_") and sorted(hook["events"]) == ["knowledge.processed", "memory.created"]

    # errors: the API's message and exit 1; usage mistakes exit 2 before anything is sent
    missing = avatar("personalities", "get", "personality_doesnotexist", code=1)
    assert "No such personality" in missing.stderr
    invalid = avatar("memories", "add", sam["id"], "x", "--personality", ava["id"], "--category", "nonsense", code=1)
    assert "category" in invalid.stderr
    avatar("users", "create", "--metadata", "{not json", code=2)

    # the database holds what was done
    organization = "cli-embedded" if "--organization" in avatar.extra else "default"
    async with avatar_service.open(avatar.url, worker=False, embedder="lexical", data_dir=str(avatar.data)) as svc:
        org = (await svc.organization(organization)).id
        stored = await svc.personalities.get(org, ava["id"])
        assert stored.description == "A barista" and stored.traits.humor == 0.8
        user = await svc.users.get(org, sam["id"])
        assert user.external_id == "sam" and user.metadata == {"plan": "pro"}
        rows = (await svc.memories.list(org, sam["id"], PageRequest(limit=10))).data
        assert sorted(m.content for m in rows) == ["Sam drinks green tea", "Sam lives in Lisbon"]
        assert {m.source.type for m in rows} == {"bulk"} and all(m.personality_id == ava["id"] for m in rows)
        items = (await svc.knowledge.list(org, ava["id"], PageRequest(limit=10))).data
        assert [(i.name, i.status, i.chunk_count) for i in items] == [("hours", "ready", 1)]
        assert [w.id for w in (await svc.webhooks.list(org)).data] == [hook["id"]]


def test_keys_over_http_and_embedded_see_the_same_keys(data: Path, server: tuple[str, str]) -> None:
    base, key = server
    remote = Avatar(data, ["--api-url", base, "--api-key", key])
    created = remote.json("keys", "create", "--name", "reader", "--scopes", "read,write")
    assert created["secret"].startswith("sk_") and created["scopes"] == ["read", "write"]
    listed = Avatar(data).json("keys", "list")  # embedded, organization "default": the server's
    assert created["id"] in [k["id"] for k in listed["data"]]
    remote("keys", "revoke", created["id"])
    reader = Avatar(data, ["--api-url", base, "--api-key", created["secret"]])
    refused = reader("personalities", "list", code=1)
    assert "error:" in refused.stderr and "key" in refused.stderr.lower()  # the API's 401 message


def test_operator_keys_span_organizations(data: Path) -> None:
    """Embedded, the CLI is the operator's: `keys list` shows every organization's keys with an organization
    column, and `keys revoke` finds a key by its id in any organization; `--organization` narrows both."""
    operator = Avatar(data)
    other = Avatar(data, ["--organization", "acme"])
    mine = operator.json("keys", "create", "--name", "home", "--scopes", "*")
    theirs = other.json("keys", "create", "--name", "acme backend", "--scopes", "read", "--rate-limit", "120")
    assert theirs["rate_limit_per_minute"] == 120

    every = {k["id"]: k for k in operator.json("keys", "list")["data"]}
    assert every[mine["id"]]["organization"] == "default" and every[theirs["id"]]["organization"] == "acme"
    table = operator("keys", "list").stdout
    assert any(theirs["id"] in line and "acme" in line and "120" in line for line in table.splitlines())
    assert [k["id"] for k in other.json("keys", "list")["data"]] == [theirs["id"]]  # one organization, when named

    operator("keys", "revoke", theirs["id"])  # another organization's key, by its id
    assert theirs["id"] not in [k["id"] for k in operator.json("keys", "list")["data"]]
    refused = Avatar(data, ["--organization", "default"])("keys", "revoke", mine["id"] + "x", code=1)
    assert "No such api key" in refused.stderr
