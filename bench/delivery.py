"""Webhook delivery benchmark: events delivered per second to a local receiver with 1 and 2 `avatar worker`
processes, and end-to-end latency from the change (the event's created_at, written in the change's
transaction) to the receiver, p50/p99. Zero loss is checked by webhook-id.

    AVATAR_BENCH_POSTGRES_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test .venv/bin/python bench/delivery.py

Needs a PostgreSQL server; a database of its own is created and dropped. Events are made by the real use case
(bulk memory creation: one memory.created event each): a backlog made before the workers start (how fast
the dispatchers drain it, first to last receipt), a burst made while they run (throughput from the first
event made to the last received, which includes making them), then a steady rate (latency without a
backlog). Next to the rates: the workers' CPU per delivery in the burst and the load average before and
after it, since the figures move with whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from postgres_admin import admin  # bench/, on the path of a script run from it
from sqlalchemy.engine import make_url


def cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds the processes have used so far (Linux /proc; None elsewhere)."""
    try:
        total = 0
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def receiver_process(port_out: Any, count: Any, results: Any) -> None:
    """A minimal HTTP/1.1 server on asyncio: answers 200 to every POST, records webhook-id and latency."""

    seen: dict[str, tuple[float, float]] = {}  # webhook-id -> (created_at, latency)

    class Protocol(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport, self.buffer = transport, b""

        def data_received(self, data: bytes) -> None:
            self.buffer += data
            while b"\r\n\r\n" in self.buffer:
                head, _, rest = self.buffer.partition(b"\r\n\r\n")
                headers = {k.strip().lower(): v.strip() for k, _, v in
                           (line.partition(b":") for line in head.split(b"\r\n")[1:])}
                length = int(headers.get(b"content-length", b"0"))
                if len(rest) < length:
                    return
                body, self.buffer = rest[:length], rest[length:]
                now = time.time()
                webhook_id = headers.get(b"webhook-id", b"").decode()
                created = datetime.fromisoformat(json.loads(body)["created_at"].replace("Z", "+00:00")).timestamp()
                if webhook_id not in seen:
                    seen[webhook_id] = (created, now - created)
                count.value += 1
                self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Protocol, "127.0.0.1", 0, backlog=1024)
        port_out.value = server.sockets[0].getsockname()[1]
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        results.put(seen)

    asyncio.run(main())


async def run(url: str, workers: int, backlog: int, burst: int, steady_rate: int, steady_seconds: float
              ) -> dict[str, Any]:
    from avatar_service.adapters.sqlalchemy.migrate import upgrade
    from avatar_service.core.model import ApiKeyCreate, MemoryBulkCreate, PersonalityCreate, UserCreate
    from avatar_service.core.model.memories import MemoryItem
    from avatar_service.core.services.api_keys import ApiKeys
    from avatar_service.core.services.memories import Memories
    from avatar_service.core.services.personalities import Personalities
    from avatar_service.core.services.users import Users
    from avatar_service.core.services.webhooks import Webhooks
    from avatar_service.entrypoints import bootstrap
    from avatar_service.entrypoints.settings import load_settings
    from avatar_service.ports.storage import Storage

    name = f"avatar_bench_{uuid.uuid4().hex[:10]}"
    await admin(url, f'CREATE DATABASE "{name}"')
    db_url = make_url(url).set(database=name).render_as_string(hide_password=False)
    data_dir = Path(tempfile.mkdtemp(prefix="avatar-bench-"))
    port, count = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
    results: multiprocessing.Queue[dict[str, tuple[float, float]]] = multiprocessing.Queue()
    receiver = multiprocessing.Process(target=receiver_process, args=(port, count, results), daemon=True)
    receiver.start()
    procs: list[subprocess.Popen[bytes]] = []
    settings = load_settings({}, database_url=db_url, data_dir=str(data_dir), embedder="lexical",
                             allow_private_urls=True, secret_key="bench")
    container = bootstrap.server(settings)
    try:
        await upgrade(container.resolve(Storage).engine)
        while not port.value:  # noqa: ASYNC110 - a counter in another process: polling is what there is
            await asyncio.sleep(0.01)
        org = (await container.resolve(ApiKeys).organization("default")).id
        await container.resolve(ApiKeys).create(org, ApiKeyCreate(name="bench", scopes=["*"]))
        from avatar_service.core.model import WebhookCreate

        await container.resolve(Webhooks).create(org, WebhookCreate(url=f"http://127.0.0.1:{port.value}/hook",
                                                                    events=["memory.created"]))
        pid = (await container.resolve(Personalities).create(org, PersonalityCreate(name="Ava"))).id
        uid = (await container.resolve(Users).create(org, UserCreate())).id
        memories: Memories = container.resolve(Memories)
        env = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
        env.update({"AVATAR_DATABASE_URL": db_url, "AVATAR_DATA_DIR": str(data_dir), "AVATAR_EMBEDDER": "lexical",
                    "AVATAR_ALLOW_PRIVATE_URLS": "1", "AVATAR_SECRET_KEY": "bench", "AVATAR_LOG_LEVEL": "WARNING"})
        avatar = str(Path(sys.executable).with_name("avatar"))

        async def make(n: int) -> None:
            await memories.bulk(org, uid, MemoryBulkCreate(personality_id=pid, memories=[
                MemoryItem(content=f"Fact {uuid.uuid4().hex[:8]} number {i}") for i in range(n)]))

        # Backlog: events waiting before any worker runs, then drained (the dispatchers alone, no producer).
        for _ in range(backlog // 100):
            await make(100)
        backlog = backlog // 100 * 100
        backlog_end = time.time()
        procs = [subprocess.Popen([avatar, "worker"], env=env) for _ in range(workers)]  # noqa: ASYNC220
        pids = [proc.pid for proc in procs]
        waited = time.perf_counter()
        while count.value < backlog and time.perf_counter() - waited < 120:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        await asyncio.sleep(max(0.0, 6 - (time.perf_counter() - waited)))  # the workers start (imports, LISTEN)

        # Burst: throughput while the events are being made, from the first one made to the last received.
        cpu_before, load_before = cpu_seconds(pids), os.getloadavg()[0]
        burst_start = time.time()
        started = time.perf_counter()
        for _ in range(burst // 100):
            await make(100)
        produced = time.perf_counter() - started
        while count.value < backlog + burst and time.perf_counter() - started < 120:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        burst_seconds = time.perf_counter() - started
        burst_received = count.value - backlog
        cpu_after = cpu_seconds(pids)
        worker_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
        # Steady: latency at a rate the workers keep up with.
        steady_start = time.time()
        per_tick, ticks = max(1, steady_rate // 10), int(steady_seconds * 10)
        for _ in range(ticks):
            tick = time.perf_counter()
            await make(per_tick)
            await asyncio.sleep(max(0.0, 0.1 - (time.perf_counter() - tick)))
        total = backlog + burst + per_tick * ticks
        deadline = time.perf_counter() + 60
        while count.value < total and time.perf_counter() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
        receiver.terminate()
        seen: dict[str, tuple[float, float]] = results.get(timeout=10)
        burst_latency = sorted(lat for created, lat in seen.values() if burst_start <= created < steady_start)
        drained = [created + lat for created, lat in seen.values() if created < backlog_end]
        drain_seconds = max(drained) - min(drained) if len(drained) > 1 else 0.0
        steady = sorted(lat for created, lat in seen.values() if created >= steady_start)
        return {
            "workers": workers,
            "backlog_events": backlog,
            "backlog_drain_per_s": round(len(drained) / drain_seconds) if drain_seconds else None,
            "burst_events": burst, "burst_produce_s": round(produced, 2),
            "burst_delivered": burst_received, "burst_per_s": round(burst_received / burst_seconds),
            # CPU the worker processes spent in the burst, per delivery: less sensitive to the machine's load
            "burst_worker_cpu_ms_per_delivery": None if worker_cpu is None else round(
                1000 * worker_cpu / max(1, burst_received), 2),
            "load_avg_1m": [round(load_before, 1), round(os.getloadavg()[0], 1)],
            "total_events": total, "unique_received": len(seen), "requests": count.value,
            "lost": total - len(seen),
            "steady_rate_per_s": per_tick * 10,
            "steady_latency_p50_ms": round(1000 * statistics.median(steady)),
            "steady_latency_p99_ms": round(1000 * steady[int(len(steady) * 0.99) - 1]),
            "burst_latency_p50_ms": round(1000 * statistics.median(burst_latency)),
            "burst_latency_p99_ms": round(1000 * burst_latency[int(len(burst_latency) * 0.99) - 1]),
        }
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if receiver.is_alive():
            receiver.kill()
        await container.resolve(Storage).close()
        await admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backlog", type=int, default=2000, help="events made before the workers start")
    parser.add_argument("--burst", type=int, default=3000)
    parser.add_argument("--steady-rate", type=int, default=200, help="events per second in the latency phase")
    parser.add_argument("--steady-seconds", type=float, default=5.0)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    url = os.environ.get("AVATAR_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    for workers in (int(w) for w in args.workers.split(",")):
        figures = asyncio.run(run(url, workers, args.backlog, args.burst, args.steady_rate, args.steady_seconds))
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
