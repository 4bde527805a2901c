"""`GET /metrics`: Prometheus text with requests by route template, the job queue read from the database,
webhook deliveries by outcome, a token when one is set, and no series for a path nobody routes."""

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from avatar_service.adapters.procrastinate_jobs import ProcrastinateJobQueue
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.jobs import JobRunner
from avatar_service.ports.metrics import QueueStats
from avatar_service.ports.storage import Storage

from .conftest import _truncate_all
from .helpers import Receiver, Service, assert_error, auth, create_personality

TOKEN = "scrape-secret"


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    return {"allow_private_urls": True, "metrics_token": TOKEN}  # the receiver listens on 127.0.0.1


async def scrape(client: AsyncTestClient[Any]) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of one scrape, by name and labels."""
    response = await client.get("/metrics", headers=auth(TOKEN))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_requests_are_counted_by_route_template_and_status(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    route = {"method": "GET", "route": "/v1/personalities/{personality_id}"}
    before = await scrape(client)
    for _ in range(3):
        assert (await client.get(f"/v1/personalities/{personality['id']}")).status_code == 200
    assert (await client.get("/v1/personalities/personality_" + "0" * 24)).status_code == 404
    after = await scrape(client)
    assert value(after, "avatar_http_requests_total", **route, status="200") - \
        value(before, "avatar_http_requests_total", **route, status="200") == 3
    assert value(after, "avatar_http_requests_total", **route, status="404") - \
        value(before, "avatar_http_requests_total", **route, status="404") == 1
    assert value(after, "avatar_http_request_duration_seconds_count", **route, status="200") - \
        value(before, "avatar_http_request_duration_seconds_count", **route, status="200") == 3


async def test_random_paths_share_one_series(client: AsyncTestClient[Any]) -> None:
    before = await scrape(client)
    paths = [f"/{uuid.uuid4().hex}/{uuid.uuid4().hex}" for _ in range(5)]
    for path in paths:
        assert (await client.get(path)).status_code == 404
    after = await scrape(client)
    unmatched = {"method": "GET", "route": "unmatched", "status": "404"}
    assert value(after, "avatar_http_requests_total", **unmatched) - \
        value(before, "avatar_http_requests_total", **unmatched) == 5
    labels = {value for _, pairs in after for _, value in pairs}
    assert not any(part in label for path in paths for part in path.split("/")[1:] for label in labels)
    routes = {dict(pairs).get("route") for name, pairs in after if name == "avatar_http_requests_total"}
    assert all(route == "unmatched" or route.startswith("/") for route in routes), routes


async def test_queue_depth_and_job_durations(service: Service, client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    created = await client.post(f"/v1/personalities/{personality['id']}/knowledge",
                                json={"type": "text", "name": "Facts", "content": "The sky is blue."})
    assert created.status_code in (200, 201, 202), created.text
    queued = await scrape(client)
    assert value(queued, "avatar_job_queue_depth", kind="knowledge.process") == 1
    assert 0 <= value(queued, "avatar_job_queue_oldest_age_seconds", kind="knowledge.process") < 60
    assert value(queued, "avatar_job_queue_depth", kind="video.render") == 0  # every kind has its series
    assert ("avatar_jobs_running", (("kind", "video.render"),)) in queued
    await service.drain()
    done = await scrape(client)
    assert value(done, "avatar_job_queue_depth", kind="knowledge.process") == 0
    assert value(done, "avatar_job_queue_oldest_age_seconds", kind="knowledge.process") == 0
    ran = {"kind": "knowledge.process", "outcome": "succeeded"}
    assert value(done, "avatar_job_duration_seconds_count", **ran) - \
        value(queued, "avatar_job_duration_seconds_count", **ran) == 1


async def test_render_durations(service: Service, client: AsyncTestClient[Any]) -> None:
    """kind="video.render" is the render duration: one short sentence rendered, one attempt timed."""
    personality = await create_personality(client)
    created = await client.post("/v1/video/generations", json={"personality_id": personality["id"], "text": "Hi.",
                                                               "resolution": "480p"})
    assert created.status_code == 201, created.text
    before = await scrape(client)
    assert value(before, "avatar_job_queue_depth", kind="video.render") == 1
    await service.drain()
    video = (await client.get(f"/v1/video/generations/{created.json()['id']}")).json()
    assert video["status"] == "completed", video
    after = await scrape(client)
    ran = {"kind": "video.render", "outcome": "succeeded"}
    assert value(after, "avatar_job_duration_seconds_count", **ran) - \
        value(before, "avatar_job_duration_seconds_count", **ran) == 1
    assert value(after, "avatar_jobs_finished_total", **ran) - value(before, "avatar_jobs_finished_total", **ran) == 1
    took = value(after, "avatar_job_duration_seconds_sum", **ran) - \
        value(before, "avatar_job_duration_seconds_sum", **ran)
    assert 0 < took < 60
    assert value(after, "avatar_job_queue_depth", kind="video.render") == 0


async def test_webhook_deliveries_by_outcome(client: AsyncTestClient[Any], receiver: Receiver) -> None:
    hook = (await client.post("/v1/webhooks", json={"url": receiver.url + "/hook",
                                                    "events": ["memory.created"]})).json()
    before = await scrape(client)
    assert (await client.post(f"/v1/webhooks/{hook['id']}/test")).status_code == 200
    receiver.status = 500
    assert (await client.post(f"/v1/webhooks/{hook['id']}/test")).status_code == 200
    after = await scrape(client)
    for outcome in ("delivered", "http_error"):
        assert value(after, "avatar_webhook_deliveries_total", outcome=outcome) - \
            value(before, "avatar_webhook_deliveries_total", outcome=outcome) == 1
        assert value(after, "avatar_webhook_delivery_duration_seconds_count", outcome=outcome) - \
            value(before, "avatar_webhook_delivery_duration_seconds_count", outcome=outcome) == 1


async def test_the_token_is_required_when_set(client: AsyncTestClient[Any], key: str) -> None:
    for headers in ({"Authorization": ""}, auth("wrong"), auth(key), {"Authorization": f"Basic {TOKEN}"}):
        missing = await client.get("/metrics", headers=headers)
        assert_error(missing, 401, code="invalid_metrics_token")
        assert missing.headers["www-authenticate"].startswith("Bearer")
    assert (await client.get("/metrics", headers={"Authorization": f"bearer {TOKEN}"})).status_code == 200


@pytest.mark.parametrize("settings_overrides", [{"metrics_token": ""}])
async def test_open_without_a_token(client: AsyncTestClient[Any]) -> None:
    response = await client.get("/metrics", headers={"Authorization": ""})
    assert response.status_code == 200 and "avatar_http_requests_total" in response.text
    openmetrics = await client.get("/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"})
    assert openmetrics.headers["content-type"].startswith("application/openmetrics-text")
    assert openmetrics.text.rstrip().endswith("# EOF")


async def test_procrastinate_queue_figures(postgres_database: str, tmp_path: Path) -> None:
    """AVATAR_JOBS=procrastinate: the gauges come from procrastinate's own table."""
    await _truncate_all(postgres_database)
    settings = load_settings({}, database_url=postgres_database, data_dir=str(tmp_path), jobs="procrastinate",
                             embedder="lexical")
    container = bootstrap.server(settings)
    queue: ProcrastinateJobQueue = container.resolve(JobRunner)
    engine: Any = container.resolve(Storage).engine  # type: ignore[attr-defined]
    try:
        await queue.prepare()
        async with queue.app.open_async():
            for ident in ("kb_1", "kb_2"):
                await queue.app.tasks["knowledge.process"].defer_async(organization_id="org", id=ident)
            await queue.app.tasks["game.timer"].configure(schedule_in={"hours": 1}).defer_async(id="game_1")
            running = await queue.app.tasks["video.render"].defer_async(id="video_1")
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE procrastinate_jobs SET status = 'doing' WHERE id = :id"), {"id": running})
        figures = {figure.kind: figure for figure in await container.resolve(QueueStats).queue_figures(
            datetime.now(UTC) + timedelta(seconds=5))}
        knowledge, timer, render = figures["knowledge.process"], figures["game.timer"], figures["video.render"]
        assert (knowledge.queued, knowledge.running, knowledge.scheduled) == (2, 0, 0)
        assert 5 <= knowledge.oldest_seconds < 60  # since the first was deferred
        assert (timer.queued, timer.scheduled, timer.oldest_seconds) == (0, 1, 0.0)
        assert (render.queued, render.running) == (0, 1)
        assert figures["memory.extract"].queued == 0
    finally:
        await container.resolve(Storage).close()
