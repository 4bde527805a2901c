"""Mixed load against `avatar serve`: reads, writes, searches and text turns at rising concurrency.

Starts `avatar serve` (SQLite in a temporary directory, and PostgreSQL in a fresh database when
AVATAR_BENCH_POSTGRES_URL is set, e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/test) and drives it from
this process (aiohttp, asyncio workers) for `--seconds` per concurrency level. Prints per level the throughput,
p50/p99 per operation and the error rate (5xx, transport errors, unexpected 4xx) with what each error was;
afterwards reads back every acknowledged write (users, memories) and reports any that is missing (lost writes),
and counts the server log's tracebacks (the log is kept when there are any). The rate limit is off.

    .venv/bin/python bench/load.py [--seconds 60] [--levels 1,4,16,64] [--backends sqlite,postgres]
        [--server-src DIR] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import aiohttp
import httpx
from postgres_admin import admin  # bench/, on the path of a script run from it

VENV = Path(sys.executable).parent
OPS = [("read", 40), ("write", 25), ("search", 20), ("turn", 15)]
WORDS = ["river", "mountain", "violin", "harbour", "copper", "lantern", "orchard", "glacier", "meadow", "compass"]


class Answer:
    """What the load needs of a response."""

    __slots__ = ("content", "headers", "status_code")

    def __init__(self, status_code: int, content: bytes, headers: Any) -> None:
        self.status_code, self.content, self.headers = status_code, content, headers

    def json(self) -> Any:
        return json.loads(self.content)


class Client:
    """A small aiohttp client. The load was first driven with httpx, whose connection pool cost this process a
    whole core at 256 connections (about 85 requests/s) while the server sat at a quarter of one: the figures
    at 128+ clients were the load generator's, not the server's."""

    def __init__(self, base: str, key: str, connections: int) -> None:
        self.base = base
        # Idle connections expire before uvicorn's 5 s keep-alive timeout closes them (a reused connection the
        # server was closing failed as a disconnect at 128+ clients).
        connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=2.0)
        self.session = aiohttp.ClientSession(connector=connector, headers={"Authorization": f"Bearer {key}"},
                                             timeout=aiohttp.ClientTimeout(total=60))

    async def request(self, method: str, path: str, **kwargs: Any) -> Answer:
        async with self.session.request(method, self.base + path, **kwargs) as response:
            return Answer(response.status, await response.read(), response.headers)

    async def get(self, path: str, **kwargs: Any) -> Answer:
        return await self.request("GET", path, **kwargs)

    async def post(self, path: str, **kwargs: Any) -> Answer:
        return await self.request("POST", path, **kwargs)

    async def close(self) -> None:
        await self.session.close()


ERRORS = (aiohttp.ClientError, asyncio.TimeoutError)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.server_errors = 0
        self.shed = 0  # answered 503 `overloaded` by admission control (retried after Retry-After)
        self.kinds: Counter[str] = Counter()  # what the errors were: "HTTP 500", "ReadTimeout", ...

    def record(self, op: str, started: float, response: Answer | BaseException,
               ok: tuple[int, ...]) -> bool:
        if isinstance(response, Answer) and response.status_code == 503 and b'"overloaded"' in response.content:
            self.shed += 1  # not a failure: the server said "later" at once; not a completed request either
            return False
        self.latency[op].append(time.perf_counter() - started)
        if isinstance(response, BaseException) or response.status_code not in ok:
            self.errors[op] += 1
            kind = type(response).__name__ if isinstance(response, BaseException) else f"HTTP {response.status_code}"
            self.kinds[f"{op} {kind}"] += 1
            if isinstance(response, BaseException) or response.status_code >= 500:
                self.server_errors += 1
            return False
        return True


class Load:
    def __init__(self, client: Client, personality: str, users: list[str]) -> None:
        self.client, self.personality, self.users = client, personality, users
        self.written_users: list[str] = []
        self.written_memories: list[tuple[str, str]] = []

    async def call(self, stats: Stats, op: str, method: str, path: str, ok: tuple[int, ...] = (200, 201),
                   **kwargs: Any) -> Answer | None:
        started = time.perf_counter()
        for _ in range(20):  # a 503 `overloaded` is retried after its Retry-After, as a client should
            try:
                response = await self.client.request(method, path, **kwargs)
            except ERRORS as error:  # a dropped connection or a client timeout counts as a server error
                stats.record(op, started, error, ok)
                return None
            if response.status_code == 503 and b'"overloaded"' in response.content:
                stats.record(op, started, response, ok)
                await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                continue
            break
        return response if stats.record(op, started, response, ok) else None

    async def worker(self, stats: Stats, until: float, rng: random.Random) -> None:
        conversation, turns = None, 0
        names, weights = zip(*OPS, strict=True)
        while time.perf_counter() < until:
            op = rng.choices(names, weights)[0]
            if op == "read":
                if rng.random() < 0.5:
                    await self.call(stats, op, "GET", f"/v1/users/{rng.choice(self.users)}")
                else:
                    await self.call(stats, op, "GET", f"/v1/users/{rng.choice(self.users)}/memories",
                                    params={"limit": 10})
            elif op == "write":
                if rng.random() < 0.5:
                    answer = await self.call(stats, op, "POST", "/v1/users",
                                             json={"external_id": secrets.token_hex(8), "metadata": {"n": 1}})
                    if answer is not None:
                        self.written_users.append(answer.json()["id"])
                else:
                    user = rng.choice(self.users)
                    answer = await self.call(stats, op, "POST", f"/v1/users/{user}/memories", json={
                        "personality_id": self.personality,
                        "content": f"Likes the {rng.choice(WORDS)} and the {rng.choice(WORDS)}"})
                    if answer is not None:
                        self.written_memories.append((user, answer.json()["id"]))
            elif op == "search":
                await self.call(stats, op, "POST", f"/v1/personalities/{self.personality}/knowledge/search",
                                json={"query": f"{rng.choice(WORDS)} {rng.choice(WORDS)}", "limit": 5})
            else:
                if conversation is None or turns >= 40:  # well inside the transcript cap
                    answer = await self.call(stats, "turn", "POST", "/v1/conversations", json={
                        "personality_id": self.personality, "user_id": rng.choice(self.users), "mode": "voice"})
                    conversation, turns = (answer.json()["id"] if answer is not None else None), 0
                    continue
                await self.call(stats, op, "POST", f"/v1/conversations/{conversation}/messages",
                                json={"content": f"Tell me about the {rng.choice(WORDS)}"})
                turns += 2

    async def lost(self) -> tuple[int, int]:
        """Reads back every acknowledged write; returns (checked, missing)."""
        paths = [f"/v1/users/{u}" for u in self.written_users]
        paths += [f"/v1/users/{u}/memories/{m}" for u, m in self.written_memories]
        missing = 0
        gate = asyncio.Semaphore(16)

        async def check(path: str) -> None:
            nonlocal missing
            async with gate:
                for _ in range(3):
                    try:
                        response = await self.client.get(path)
                        break
                    except ERRORS:
                        await asyncio.sleep(0.5)
                else:
                    missing += 1
                    return
                if response.status_code != 200:
                    missing += 1

        await asyncio.gather(*(check(p) for p in paths))
        return len(paths), missing


async def prepare(client: Client) -> tuple[str, list[str]]:
    personality = (await client.post("/v1/personalities", json={
        "name": "Ava", "description": "A guide to rivers and mountains"})).json()["id"]
    for i in range(5):
        text = " ".join(random.Random(i).choices(WORDS, k=200))
        await client.post(f"/v1/personalities/{personality}/knowledge",
                          json={"type": "text", "name": f"notes {i}", "content": text})
    users = [(await client.post("/v1/users", json={"external_id": f"seed-{i}"})).json()["id"] for i in range(20)]
    for _ in range(100):  # knowledge ready before searching
        items = (await client.get(f"/v1/personalities/{personality}/knowledge")).json()["data"]
        if all(i["status"] == "ready" for i in items):
            break
        await asyncio.sleep(0.2)
    return personality, users


def quantile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


async def drive(base: str, key: str, levels: list[int], seconds: float) -> list[dict[str, Any]]:
    client = Client(base, key, max(levels) + 8)
    try:
        personality, users = await prepare(client)
        load = Load(client, personality, users)
        rows = []
        for level in levels:
            stats = Stats()
            until = time.perf_counter() + seconds
            started = time.perf_counter()
            await asyncio.gather(*(load.worker(stats, until, random.Random(level * 1000 + w)) for w in range(level)))
            elapsed = time.perf_counter() - started
            total = sum(len(v) for v in stats.latency.values())
            errors = sum(stats.errors.values())
            rows.append({"concurrency": level, "rps": total / elapsed, "requests": total, "errors": errors,
                         "server_errors": stats.server_errors, "kinds": dict(stats.kinds), "shed": stats.shed,
                         "ops": {op: (len(v), quantile(v, 0.5) * 1000, quantile(v, 0.99) * 1000)
                                 for op, v in sorted(stats.latency.items())}})
            print_row(rows[-1])
        checked, missing = await load.lost()
        print(f"  lost writes: {missing} of {checked} acknowledged writes missing on read-back")
        rows.append({"checked": checked, "missing": missing})
        return rows
    finally:
        await client.close()


def print_row(row: dict[str, Any]) -> None:
    ops = "  ".join(f"{op} n={n} p50={p50:.1f} p99={p99:.1f}" for op, (n, p50, p99) in row["ops"].items())
    rate = row["errors"] / max(1, row["requests"])
    print(f"  c={row['concurrency']:>3}  {row['rps']:8.1f} req/s  errors {rate:.2%} ({row['server_errors']} 5xx/"
          f"transport, {row['shed']} shed 503)  [ms] {ops}", flush=True)
    if row["kinds"]:
        print(f"         errors: {row['kinds']}", flush=True)


def table(backend: str, rows: list[dict[str, Any]]) -> None:
    """The levels as a Markdown table (the README's)."""
    print("\n| backend | clients | req/s | read p50/p99 ms | write p50/p99 | search p50/p99 | turn p50/p99 | "
          "errors | shed 503 |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        if "concurrency" not in row:
            continue
        cells = [f"{row['ops'][op][1]:.0f} / {row['ops'][op][2]:.0f}" if op in row["ops"] else "-"
                 for op in ("read", "write", "search", "turn")]
        print(f"| {backend} | {row['concurrency']} | {row['rps']:.0f} | {' | '.join(cells)} | {row['errors']} | "
              f"{row['shed']} |")
    print(flush=True)


def run_backend(backend: str, levels: list[int], seconds: float, server_src: Path | None = None,
                workers: int = 1) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="avatar-load-"))
    env = {**os.environ, "AVATAR_DATA_DIR": str(tmp), "AVATAR_EMBEDDER": os.environ.get("AVATAR_EMBEDDER", "auto"),
           "AVATAR_RATE_LIMIT_PER_MINUTE": "0"}
    if server_src is not None:  # an older tree's package served instead (PYTHONPATH wins over the editable install)
        env["PYTHONPATH"] = str(server_src)
    database = None
    if backend == "postgres":
        from sqlalchemy.engine import make_url

        base_url = os.environ["AVATAR_BENCH_POSTGRES_URL"]
        database = f"avatar_load_{secrets.token_hex(4)}"
        asyncio.run(admin(base_url, f'CREATE DATABASE "{database}"'))
        env["AVATAR_DATABASE_URL"] = make_url(base_url).set(database=database).render_as_string(hide_password=False)
    else:
        env["AVATAR_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp / 'avatar.db'}"
    port = free_port()
    server = None
    try:
        subprocess.run([VENV / "avatar", "migrate"], env=env, check=True, capture_output=True)
        key = subprocess.run([VENV / "avatar", "keys", "create", "--name", "load", "--scopes", "*"], env=env,
                             check=True, capture_output=True, text=True).stdout.strip()
        server = subprocess.Popen([VENV / "avatar", "serve", "--port", str(port), "--workers", str(workers)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=open(tmp / "server.log", "wb"))  # noqa: SIM115
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        print(f"{backend}: avatar serve on {base}, {seconds:g} s per level", flush=True)
        table(backend, asyncio.run(drive(base, key, levels, seconds)))
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
        log = (tmp / "server.log").read_text(errors="replace") if (tmp / "server.log").exists() else ""
        lines = log.splitlines()
        print(f"  server log: {log.count('Traceback')} traceback(s), up to and including shutdown", flush=True)
        for i, line in enumerate(lines):
            if line.startswith("Traceback"):
                tail = next((x for x in lines[i + 1:] if x and not x.startswith(" ")), "")
                print(f"    {tail[:200]}")
        if "Traceback" in log:  # the temporary directory goes below; the log is what explains an error
            kept = Path(tempfile.gettempdir()) / f"avatar-load-{backend}-server.log"
            kept.write_text(log)
            print(f"  server log kept at {kept}")
        if database is not None:
            drop = f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'
            asyncio.run(admin(os.environ["AVATAR_BENCH_POSTGRES_URL"], drop))
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--levels", default="1,4,16,64")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--server-src", type=Path, help="serve the avatar_service package in this folder instead "
                        "(an older commit: git archive COMMIT src | tar -x -C DIR; mv DIR/src DIR/avatar_service)")
    parser.add_argument("--workers", type=int, default=1, help="API processes of `avatar serve` (more than one: "
                        "PostgreSQL only)")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, {os.cpu_count()} CPUs")
    for backend in args.backends.split(","):
        if backend == "postgres" and not os.environ.get("AVATAR_BENCH_POSTGRES_URL"):
            print("postgres: skipped (AVATAR_BENCH_POSTGRES_URL is not set)")
            continue
        if backend == "sqlite" and args.workers > 1:
            print("sqlite: skipped (more than one process needs PostgreSQL)")
            continue
        run_backend(backend, levels, args.seconds, args.server_src, args.workers)
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
