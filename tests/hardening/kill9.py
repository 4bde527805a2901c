"""What the kill -9 durability test drives: the processes it kills, the workload it sends, the writes it saw
acknowledged."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal
import string
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from integration.helpers import Receiver
from integration.test_workers_faults import SlowPages, log_tail, start, stop
from standardwebhooks.webhooks import Webhook

SUBSCRIBED = ["memory.created", "knowledge.processed", "video.completed", "video.failed"]
FINAL = {"knowledge": {"ready", "failed"}, "video": {"completed", "failed", "cancelled"}}
WORDS = ["river", "harbour", "violin", "copper", "lantern", "orchard", "glacier", "meadow", "compass", "falcon"]


# --- the processes ------------------------------------------------------------------------------------------


@dataclass
class Process:
    name: str
    args: list[str]
    log: Path
    popen: subprocess.Popen[bytes] | None = None
    starts: int = 0
    kills: int = 0


class Cluster:
    """One `avatar serve` (AVATAR_WORKER=external: it runs no jobs) and `avatar worker`s on one database.

    A process that exits without being killed here is a crash: it is recorded with its log, never restarted
    in silence.
    """

    def __init__(self, env: dict[str, str], port: int, log_dir: Path, workers: int) -> None:
        self.env, self.port = env, port
        self.api = Process("api", ["serve", "--port", str(port)], log_dir / "api.log")
        self.workers = [Process(f"worker{n}", ["worker"], log_dir / f"worker{n}.log") for n in range(workers)]
        self.crashes: list[str] = []

    @property
    def processes(self) -> list[Process]:
        return [self.api, *self.workers]

    def launch(self, process: Process) -> None:
        process.popen = start(process.args, self.env, process.log)
        process.starts += 1

    def kill(self, process: Process) -> None:
        popen = process.popen
        assert popen is not None
        if popen.poll() is None:
            popen.send_signal(signal.SIGKILL)
            popen.wait(10)
            process.kills += 1
        else:
            self.crashes.append(f"{process.name} exited with {popen.returncode} on its own:\n{log_tail(process.log)}")
        process.popen = None

    def revive(self) -> None:
        """Starts what was killed; notes what died on its own."""
        for process in self.processes:
            if process.popen is not None and process.popen.poll() is not None:
                self.crashes.append(f"{process.name} exited with {process.popen.returncode} on its own:\n"
                                    f"{log_tail(process.log)}")
                process.popen = None
            if process.popen is None:
                self.launch(process)

    async def api_up(self, seconds: float = 90.0) -> None:
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                try:
                    if (await http.get(f"http://127.0.0.1:{self.port}/healthz")).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.2)
        raise AssertionError(f"the API did not come back in {seconds} s\n{log_tail(self.api.log)}")

    def stop(self) -> None:
        for process in self.processes:
            if process.popen is not None:
                stop(process.popen)


async def chaos(cluster: Cluster, rng: random.Random, until: float) -> list[str]:
    """SIGKILLs at random moments before `until`: the API, a worker, all workers, or everything; each victim
    is started again after a random pause (the workload keeps sending meanwhile). Returns what was killed."""
    done: list[str] = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        left = until - time.monotonic()
        if left <= 0.2:
            break
        await asyncio.sleep(rng.uniform(0.1, left))
        choice = rng.choice(["api", "worker", "workers", "api+worker", "everything"])
        victims = {"api": [cluster.api], "worker": [rng.choice(cluster.workers)], "workers": cluster.workers,
                   "api+worker": [cluster.api, rng.choice(cluster.workers)],
                   "everything": cluster.processes}[choice]
        for process in victims:
            cluster.kill(process)
        done.append(choice)
        await asyncio.sleep(rng.uniform(0.0, 1.5))
        cluster.revive()
    return done


# --- the acknowledged writes --------------------------------------------------------------------------------


@dataclass
class Write:
    """A write that got a 2xx answer, and what reading it back must show."""

    kind: str  # user, memory, knowledge, video, webhook
    id: str
    path: str  # where it is read back
    expect: dict[str, Any]  # fields as acknowledged
    sent_at: float  # when its request left: a webhook made before gets its events
    round: int
    secret: str | None = None  # a webhook's signing secret, or a video's per-generation one
    hook_path: str | None = None  # the receiver path of a webhook, or of a video's webhook_url
    deleted: bool = False  # a memory whose DELETE was acknowledged: reading it back is a 404
    final: dict[str, Any] | None = None  # knowledge items and videos: the resource once final


@dataclass
class Ledger:
    writes: list[Write] = field(default_factory=list)
    unsure: set[str] = field(default_factory=set)  # a DELETE sent and not answered: either outcome is right
    unexpected: list[str] = field(default_factory=list)  # answers that are neither 2xx nor a dead connection

    def of(self, *kinds: str) -> list[Write]:
        return [w for w in self.writes if w.kind in kinds]


class Workload:
    """Writers that send the scripted mix over HTTP and record every acknowledged write."""

    WEIGHTS = {"user": 2, "memory": 4, "forget": 1, "text": 2, "page": 2, "video": 1.5, "webhook": 0.4}
    MAX_HOOKS = 6

    def __init__(self, http: httpx.AsyncClient, ledger: Ledger, pages: SlowPages, receiver_url: str,
                 personality: str, users: list[str]) -> None:
        self.http, self.ledger, self.pages, self.receiver_url = http, ledger, pages, receiver_url
        self.personality, self.users = personality, users
        self.numbers = itertools.count()
        self.round = 0

    async def run(self, rng: random.Random, until: float) -> None:
        kinds, weights = zip(*self.WEIGHTS.items(), strict=True)
        while time.monotonic() < until:
            kind = rng.choices(kinds, weights)[0]
            answered = await getattr(self, kind)(rng, next(self.numbers))
            await asyncio.sleep(rng.uniform(0.02, 0.2) if answered else 0.2)  # the API may be down: no spin

    async def _send(self, method: str, path: str, body: Any = None) -> tuple[dict[str, Any] | None, float, bool]:
        """(2xx body or None, when it was sent, whether any answer came)."""
        sent = time.monotonic()
        try:
            response = await self.http.request(method, path, json=body)
        except httpx.HTTPError:  # the API was killed before or while answering: not acknowledged
            return None, sent, False
        if response.status_code not in (200, 201):
            self.ledger.unexpected.append(f"{method} {path} -> {response.status_code} {response.text[:300]}")
            return None, sent, True
        return response.json(), sent, True

    def _add(self, kind: str, body: dict[str, Any], path: str, expect: dict[str, Any], sent: float,
             **extra: Any) -> None:
        self.ledger.writes.append(Write(kind, body["id"], path, expect, sent, self.round, **extra))

    async def user(self, rng: random.Random, n: int) -> bool:
        expect = {"external_id": f"durable-{n}", "metadata": {"n": n, "word": rng.choice(WORDS)}}
        body, sent, answered = await self._send("POST", "/users", expect)
        if body:
            self._add("user", body, f"/users/{body['id']}", expect, sent)
            self.users.append(body["id"])
        return answered

    async def memory(self, rng: random.Random, n: int) -> bool:
        user = rng.choice(self.users)
        expect = {"personality_id": self.personality, "content": f"Memory {n}: likes the {rng.choice(WORDS)}"}
        body, sent, answered = await self._send("POST", f"/users/{user}/memories", expect)
        if body:
            self._add("memory", body, f"/users/{user}/memories/{body['id']}", {**expect, "user_id": user}, sent)
        return answered

    async def forget(self, rng: random.Random, n: int) -> bool:
        kept = [w for w in self.ledger.of("memory") if not w.deleted and w.id not in self.ledger.unsure]
        if not kept:
            return True
        write = rng.choice(kept)
        body, _, answered = await self._send("DELETE", write.path)
        if body:
            write.deleted = True
        elif not answered:
            self.ledger.unsure.add(write.id)
        return answered

    async def text(self, rng: random.Random, n: int) -> bool:
        # made-up words of its own, so that afterwards a search for them finds this item's chunks first
        expect = {"type": "text", "name": f"note {n}"}
        words = " ".join("".join(rng.choices(string.ascii_lowercase, k=9)) for _ in range(4))
        content = f"Note {n} about the {rng.choice(WORDS)}: {words}."
        body, sent, answered = await self._send("POST", f"/personalities/{self.personality}/knowledge",
                                                {**expect, "content": content})
        if body:
            self._add("knowledge", body, f"/personalities/{self.personality}/knowledge/{body['id']}",
                      {**expect, "search": words}, sent)
        return answered

    async def page(self, rng: random.Random, n: int) -> bool:
        path = f"/page/{n}"
        self.pages.delay[path] = rng.uniform(0.0, 2.5)  # a fetch in flight is what a kill should hit
        expect = {"type": "url", "name": f"page {n}", "source_url": self.pages.url + path}
        body, sent, answered = await self._send("POST", f"/personalities/{self.personality}/knowledge",
                                                {"type": "url", "name": expect["name"], "url": expect["source_url"]})
        if body:
            self._add("knowledge", body, f"/personalities/{self.personality}/knowledge/{body['id']}", expect, sent)
        return answered

    async def video(self, rng: random.Random, n: int) -> bool:
        request: dict[str, Any] = {"personality_id": self.personality, "resolution": "480p",
                                   "text": f"Hello, this is clip {n}.", "background": "#203040"}
        hook = f"/video/{n}" if rng.random() < 0.4 else None
        if hook:
            request["webhook_url"] = self.receiver_url + hook
        body, sent, answered = await self._send("POST", "/video/generations", request)
        if body:
            self._add("video", body, f"/video/generations/{body['id']}", {"personality_id": self.personality}, sent,
                      secret=body.get("webhook_secret"), hook_path=hook)
        return answered

    async def webhook(self, rng: random.Random, n: int) -> bool:
        if len(self.ledger.of("webhook")) >= self.MAX_HOOKS:
            return True
        hook = f"/hooks/{n}"
        expect = {"url": self.receiver_url + hook, "events": sorted(rng.sample(SUBSCRIBED, rng.randint(1, 4)))}
        body, _, answered = await self._send("POST", "/webhooks", expect)
        if body:
            # events of writes sent after this answer are owed to it (sent_at is the acknowledgement here)
            self._add("webhook", body, f"/webhooks/{body['id']}", expect, time.monotonic(), secret=body["secret"],
                      hook_path=hook)
        return answered


# --- what the receiver got ----------------------------------------------------------------------------------


class Inbox:
    """The receiver's deliveries as {path: {webhook-id: event}}, each signature checked with its endpoint's
    secret soon after arrival (Standard Webhooks refuses timestamps over 5 minutes old; the test runs longer).

    A delivery to a path whose secret is unknown waits for it (the write's answer may still be on its way);
    endpoints whose creation was never acknowledged have none, and their deliveries count unverified.
    """

    def __init__(self, receiver: Receiver, ledger: Ledger, secrets: dict[str, str]) -> None:
        self.receiver, self.ledger, self.secrets = receiver, ledger, secrets
        self.events: dict[str, dict[str, dict[str, Any]]] = {}
        self.seen = 0
        self.waiting: list[Any] = []
        self.unverified = 0

    def take(self, *, last: bool = False) -> None:
        new = self.receiver.requests[self.seen:]
        self.seen += len(new)
        secrets = {**self.secrets, **{w.hook_path: w.secret for w in self.ledger.of("webhook", "video")
                                      if w.hook_path and w.secret}}
        pending, self.waiting = [*self.waiting, *new], []
        for request in pending:
            secret = secrets.get(request.path)
            if secret is not None:
                event = Webhook(secret).verify(request.body, request.headers)
            elif last:
                event = json.loads(request.body)
                self.unverified += 1
            else:
                self.waiting.append(request)
                continue
            assert event["id"] == request.headers["webhook-id"], request.headers
            self.events.setdefault(request.path, {})[event["id"]] = event

    async def watch(self) -> None:
        while True:
            self.take()
            await asyncio.sleep(0.5)
