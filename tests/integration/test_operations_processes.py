"""`avatar serve` as a process: JSON logs on stderr, `/metrics` behind its token, one count for several workers."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .helpers import answers_healthz, free_port
from .test_workers_faults import eventually, service_env, start, stop

TOKEN = "scrape-secret"


async def healthz_count(http: httpx.AsyncClient, port: int) -> float:
    response = await http.get(f"http://127.0.0.1:{port}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    return sum(sample.value for family in text_string_to_metric_families(response.text)
               for sample in family.samples if sample.name == "avatar_http_requests_total"
               and sample.labels == {"method": "GET", "route": "/healthz", "status": "200"})


async def serve_and_count(database_url: str, tmp_path: Path, workers: int) -> Path:
    """Runs `avatar serve`, checks /metrics counts every /healthz whichever process answered it, returns the log."""
    port, log = free_port(), tmp_path / "serve.log"
    env = service_env(database_url, tmp_path / "data", "database", AVATAR_WORKER="external",
                      AVATAR_LOG_FORMAT="json", AVATAR_LOG_LEVEL="INFO", AVATAR_METRICS_TOKEN=TOKEN)
    process = start(["serve", "--port", str(port), "--workers", str(workers)], env, log)
    try:
        await eventually(lambda: answers_healthz(port), 60, "the API to answer", log)
        async with httpx.AsyncClient() as http:
            assert (await http.get(f"http://127.0.0.1:{port}/metrics")).status_code == 401
            before = await healthz_count(http, port)
            for _ in range(20):
                assert (await http.get(f"http://127.0.0.1:{port}/healthz")).headers["request-id"].startswith("req_")
            assert await healthz_count(http, port) - before == 20, log.read_text()
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    finally:
        stop(process)
    assert list((tmp_path / "data" / "metrics").glob("*.db")), "the processes' metrics files"
    return log


def json_lines(log: Path) -> list[dict[str, object]]:
    """Every line of the output, each of which must be one JSON object."""
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


async def test_one_process_on_sqlite(tmp_path: Path) -> None:
    log = await serve_and_count(f"sqlite+aiosqlite:///{tmp_path}/avatar.db", tmp_path, 1)
    lines = json_lines(log)
    assert any(str(line["message"]).startswith("avatar_service on http://") for line in lines), lines
    assert all({"timestamp", "level", "logger", "message"} <= set(line) for line in lines)


async def test_two_processes_add_up_on_postgres(postgres_database: str, tmp_path: Path) -> None:
    log = await serve_and_count(postgres_database, tmp_path, 2)
    assert not any("exception" in line for line in json_lines(log)), log.read_text()
