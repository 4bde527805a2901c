"""Durability under kill -9, on PostgreSQL, with real processes: `avatar serve` (AVATAR_WORKER=external) and
two `avatar worker`s are SIGKILLed at random moments of a scripted workload (users, memories and deletes,
knowledge from text and from a slow local page server, 480p video generations with and without their own
webhook_url, webhook endpoints), and started again, round after round.

After every round: every write that got a 2xx answer reads back with the acknowledged content (an
acknowledged DELETE stays deleted), and every knowledge item and video reaches a final status within
FINISH_SECONDS of the restart. At the end: ready knowledge is searchable, completed videos' media is served,
and every event is received at least once (deduplicated by webhook-id, signatures checked) where it is owed:
each outbox row at the endpoint subscribed to everything since the start (or at the video's own
webhook_url), each acknowledged memory's `memory.created`, each final item's `knowledge.processed`, each
video's `video.completed`/`video.failed`, at every later endpoint subscribed to that kind. No answer may be
a 5xx or an unexpected 4xx, and no process may exit unless killed.

Minutes, not CI: AVATAR_DURABILITY=1 [AVATAR_DURABILITY_ROUNDS=20] [AVATAR_DURABILITY_JOBS=procrastinate] \
    .venv/bin/python -m pytest tests/hardening/test_durability.py -p no:cacheprovider -s
PostgreSQL: AVATAR_TEST_POSTGRES_URL, else postgresql+asyncpg://postgres@127.0.0.1:5432/test; the test
creates a database of its own there and drops it afterwards.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from integration.conftest import _admin
from integration.helpers import Receiver
from integration.test_workers_faults import SlowPages, service_env
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from .kill9 import FINAL, SUBSCRIBED, Cluster, Inbox, Ledger, Workload, Write, chaos

ROUNDS = int(os.environ.get("AVATAR_DURABILITY_ROUNDS", "20"))
JOBS = os.environ.get("AVATAR_DURABILITY_JOBS", "database")  # or procrastinate
DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
WRITERS = 3
FINISH_SECONDS = 90.0  # a knowledge item or video must be final this long after the round's restart
# A worker killed mid-pass leaves its claimed deliveries leased for the dispatcher's 120 s; then they go again.
DELIVERY_SECONDS = 240.0

pytestmark = [
    pytest.mark.skipif(os.environ.get("AVATAR_DURABILITY") != "1",
                       reason="the kill -9 durability loop takes minutes: set AVATAR_DURABILITY=1 to run it"),
    pytest.mark.timeout(ROUNDS * 150 + 900),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def database() -> AsyncIterator[str]:
    """A database of this test's own on the PostgreSQL server (others may run the suite on theirs)."""
    admin = os.environ.get("AVATAR_TEST_POSTGRES_URL", "").strip() or DEFAULT_POSTGRES
    name = f"avatar_durability_{uuid.uuid4().hex[:10]}"
    try:
        await asyncio.wait_for(_admin(admin, f'CREATE DATABASE "{name}"'), 10)
    except Exception as error:
        pytest.skip(f"PostgreSQL at {make_url(admin).render_as_string()} is unreachable: {error!r}")
    url = make_url(admin)
    url = url.set(drivername="postgresql+asyncpg", database=name) if not url.drivername.startswith(
        "postgresql+") else url.set(database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        await _admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pages() -> Iterator[SlowPages]:
    served = SlowPages()
    yield served
    served.close()


def _created(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def _avatar(args: list[str], env: dict[str, str]) -> str:
    avatar = Path(sys.executable).with_name("avatar")
    return subprocess.run([str(avatar), *args], env=env, check=True, capture_output=True, text=True).stdout.strip()


async def test_kill_9_at_random_loses_nothing(database: str, pages: SlowPages, tmp_path: Path) -> None:
    seed = int(os.environ.get("AVATAR_DURABILITY_SEED", str(random.randrange(1 << 30))))
    rng = random.Random(seed)
    print(f"\ndurability: {ROUNDS} rounds, AVATAR_JOBS={JOBS}, seed {seed} (AVATAR_DURABILITY_SEED repeats it)",
          flush=True)
    port = _free_port()
    env = service_env(database, tmp_path / "data", JOBS, AVATAR_WORKER="external", AVATAR_RATE_LIMIT_PER_MINUTE="0")
    _avatar(["migrate"], env)
    key = _avatar(["keys", "create", "--name", "durability", "--scopes", "*"], env)
    cluster = Cluster(env, port, tmp_path, workers=2)
    ledger = Ledger()
    started = time.monotonic()
    with Receiver() as receiver:
        try:
            cluster.revive()
            await cluster.api_up()
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/v1", timeout=30,
                                         headers={"Authorization": f"Bearer {key}"}) as http:
                # Made before any kill, subscribed to everything: every outbox event is owed to it.
                everything = _created(await http.post("/webhooks", json={"url": receiver.url + "/hooks/all",
                                                                         "events": SUBSCRIBED}))
                personality = _created(await http.post("/personalities", json={"name": "Ava"}))["id"]
                users = [_created(await http.post("/users", json={}))["id"] for _ in range(3)]
                workload = Workload(http, ledger, pages, receiver.url, personality, users)
                inbox = Inbox(receiver, ledger, {urlsplit(everything["url"]).path: everything["secret"]})
                watching = asyncio.create_task(inbox.watch())
                for number in range(1, ROUNDS + 1):
                    workload.round = number
                    began = time.monotonic()
                    until = began + rng.uniform(4.0, 8.0)
                    writers = [workload.run(random.Random(rng.random()), until) for _ in range(WRITERS)]
                    killed, *_ = await asyncio.gather(chaos(cluster, rng, until), *writers)
                    cluster.revive()
                    await cluster.api_up()
                    restarted = time.monotonic()
                    await read_back(http, ledger)
                    await until_final(http, ledger, cluster)
                    made = sum(w.round == number for w in ledger.writes)
                    print(f"round {number:>2}: killed {', '.join(killed) or 'nothing'}; {made} writes acknowledged; "
                          f"all final {time.monotonic() - restarted:.1f} s after the restart; "
                          f"round {time.monotonic() - began:.1f} s", flush=True)
                    assert not cluster.crashes, cluster.crashes
                    assert not ledger.unexpected, ledger.unexpected[:20]
                await read_back(http, ledger, deep=True)
                if watching.done():
                    watching.result()  # a signature that did not verify
                watching.cancel()
                await until_delivered(database, ledger, inbox, everything)
        finally:
            cluster.stop()
    assert not ledger.unexpected, ledger.unexpected[:20]
    assert not cluster.crashes, cluster.crashes
    for process in cluster.processes:  # a restart finds what the kill left without complaint
        logged = process.log.read_text(errors="replace")
        assert not re.search(r"^(ERROR|CRITICAL)|Traceback", logged, re.M), f"{process.name}:\n{logged[-5000:]}"
    kills = {p.name: p.kills for p in cluster.processes}
    counts = {kind: len(ledger.of(kind)) for kind in ("user", "memory", "knowledge", "video", "webhook")}
    print(f"durability: {ROUNDS} rounds passed in {time.monotonic() - started:.0f} s; SIGKILLs {kills}; "
          f"acknowledged {counts}, {sum(w.deleted for w in ledger.writes)} memories deleted; "
          f"{len(receiver.requests)} deliveries received", flush=True)


# --- checks -------------------------------------------------------------------------------------------------


async def read_back(http: httpx.AsyncClient, ledger: Ledger, *, deep: bool = False) -> None:
    """Every acknowledged write reads back as acknowledged. `deep`: ready knowledge is found by a search for
    its own words, and completed videos' files are served."""
    gate = asyncio.Semaphore(8)
    wrong: list[str] = []

    async def check(write: Write) -> None:
        async with gate:
            response = await http.get(write.path)
            if write.id in ledger.unsure:
                return
            if write.deleted:
                if response.status_code != 404:
                    wrong.append(f"{write.kind} {write.id}: deleted, yet {response.status_code}")
                return
            if response.status_code != 200:
                wrong.append(f"{write.kind} {write.id} (round {write.round}): {response.status_code} {response.text}")
                return
            body = response.json()
            differs = {k: (v, body.get(k)) for k, v in write.expect.items() if k != "search" and body.get(k) != v}
            if differs:
                wrong.append(f"{write.kind} {write.id}: (acknowledged, read) {differs}")
            if deep and write.final is not None:
                wrong.extend(await _deep(http, write, body))

    await asyncio.gather(*(check(w) for w in ledger.writes))
    assert not wrong, "\n".join(wrong[:30])


async def _deep(http: httpx.AsyncClient, write: Write, body: dict[str, Any]) -> list[str]:
    if write.kind == "knowledge":
        if body["status"] != "ready" or body["chunk_count"] < 1:
            return [f"knowledge {write.id}: {body['status']} with {body['chunk_count']} chunks, {body.get('error')}"]
        if "search" in write.expect:
            pid = write.path.split("/")[2]
            hits = (await http.post(f"/personalities/{pid}/knowledge/search",
                                    json={"query": write.expect["search"], "limit": 3})).json()["data"]
            if write.id not in {hit["knowledge_item_id"] for hit in hits}:
                return [f"knowledge {write.id}: a search for its own words does not find it"]
        return []
    if body["status"] != "completed":
        return [f"video {write.id}: {body['status']} {body.get('error')}"]
    async with httpx.AsyncClient(timeout=30) as plain:  # media URLs are signed: no key
        media = await plain.get(body["video_url"])
    if media.status_code != 200 or media.content[4:8] != b"ftyp":
        return [f"video {write.id}: its file answers {media.status_code}, {len(media.content)} bytes"]
    return []


async def until_final(http: httpx.AsyncClient, ledger: Ledger, cluster: Cluster) -> None:
    """Every acknowledged knowledge item and video reaches a final status within FINISH_SECONDS."""
    deadline = time.monotonic() + FINISH_SECONDS
    waiting = [w for w in ledger.of("knowledge", "video") if w.final is None]
    while waiting:
        for write in waiting:
            body = (await http.get(write.path)).json()
            if body["status"] in FINAL[write.kind]:
                write.final = body
        waiting = [w for w in waiting if w.final is None]
        if waiting and time.monotonic() > deadline:
            states = [f"{w.kind} {w.id} (round {w.round})" for w in waiting]
            logs = "\n".join(p.log.read_text()[-2000:] for p in cluster.processes if p.log.exists())
            raise AssertionError(f"stuck past {FINISH_SECONDS} s: {states}\n{logs}")
        await asyncio.sleep(0.3)


async def _outbox(database: str) -> list[tuple[str, str, str | None]]:
    engine = create_async_engine(database)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT id, type, target_url FROM outbox"))
            return [(row.id, row.type, row.target_url) for row in rows]
    finally:
        await engine.dispose()


def _owed(ledger: Ledger, everything: dict[str, Any]) -> list[tuple[str, set[str], str, Any]]:
    """(receiver path, event kinds, resource id, check of the event) for every event an acknowledged write owes."""
    hooks = [(urlsplit(everything["url"]).path, set(SUBSCRIBED), 0.0)]
    hooks += [(w.hook_path or "", set(w.expect["events"]), w.sent_at) for w in ledger.of("webhook")]
    owed: list[tuple[str, set[str], str, Any]] = []
    for write in ledger.writes:
        if write.kind == "memory":
            kinds, check = {"memory.created"}, write.expect["content"]
        elif write.kind == "knowledge" and write.final:
            kinds, check = {"knowledge.processed"}, write.final["status"]
        elif write.kind == "video" and write.final and write.final["status"] != "cancelled":
            kinds, check = {f"video.{write.final['status']}"}, write.final["status"]
            if write.hook_path:
                owed.append((write.hook_path, kinds, write.id, check))
        else:
            continue
        owed += [(path, kinds, write.id, check) for path, subscribed, at in hooks
                 if kinds <= subscribed and write.sent_at > at]
    return owed


async def until_delivered(database: str, ledger: Ledger, inbox: Inbox, everything: dict[str, Any]) -> None:
    """Every event is received at least once where it is owed, within DELIVERY_SECONDS."""
    owed = _owed(ledger, everything)
    deadline = time.monotonic() + DELIVERY_SECONDS
    while True:
        inbox.take(last=True)
        received = inbox.events
        outbox = await _outbox(database)
        missing = [f"outbox {event_id} ({kind}) at {target or everything['url']}" for event_id, kind, target in outbox
                   if event_id not in received.get(urlsplit(target or everything["url"]).path, {})]
        for path, kinds, ident, check in owed:
            events = received.get(path, {}).values()
            if not any(e["type"] in kinds and e["data"]["id"] == ident and _matches(e, check) for e in events):
                missing.append(f"{sorted(kinds)} of {ident} at {path}")
        if not missing:
            print(f"deliveries: {len(outbox)} outbox events and {len(owed)} owed deliveries all received "
                  f"({sum(map(len, received.values()))} distinct, {inbox.seen} requests, {inbox.unverified} to "
                  "endpoints whose creation was not acknowledged)", flush=True)
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(missing)} events never received after {DELIVERY_SECONDS} s: {missing[:20]}\n"
                                 + await _what_the_database_says(database, missing[:10]))
        await asyncio.sleep(1.0)


async def _what_the_database_says(database: str, missing: list[str]) -> str:
    """The outbox rows, deliveries and endpoints behind missing events, for the failure message."""
    idents = [word for line in missing for word in line.split() if word.startswith(("mem_", "kb_", "vid_", "evt_"))]
    engine = create_async_engine(database)
    lines: list[str] = []
    try:
        async with engine.connect() as conn:
            for ident in idents:
                events = (await conn.execute(text(
                    "SELECT id, type, created_at, dispatched, target_url FROM outbox "
                    "WHERE id = :i OR data->>'id' = :i"), {"i": ident})).all()
                lines.append(f"{ident}: outbox {[tuple(e) for e in events]}")
                for event in events:
                    rows = await conn.execute(text(
                        "SELECT webhook_id, url, status, attempt, error, next_retry_at, created_at "
                        "FROM webhook_deliveries WHERE event_id = :e ORDER BY created_at"), {"e": event.id})
                    lines += [f"    delivery {tuple(row)}" for row in rows]
            hooks = await conn.execute(text("SELECT id, url, events, enabled, created_at FROM webhooks"))
            lines += [f"webhook {tuple(row)}" for row in hooks]
    finally:
        await engine.dispose()
    return "\n".join(lines)


def _matches(event: dict[str, Any], check: Any) -> bool:
    data = event["data"]
    return bool(data.get("content") == check if event["type"] == "memory.created" else data.get("status") == check)

