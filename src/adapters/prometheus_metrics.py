"""The service's metrics on prometheus-client, and their exposition for `GET /metrics`.

Counters and histograms are this process's (or, in multiprocess mode, every process's that shares the
folder named by `PROMETHEUS_MULTIPROC_DIR`: `avatar serve --workers N` and `avatar worker`s on one machine).
The job queue gauges are not kept here: they are read from the database at each scrape (QueueStats), so they
are exact whichever process answers.

prometheus-client picks its storage (memory or files) when it is first imported, from the environment; it
is imported here only when a metric is first used, so the CLI can set that environment before (cli/runtime.py).
Every label takes values from a fixed set: route templates (never raw paths), known methods, job kinds,
outcome names, status codes.
"""

import functools
import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from avatar_service.ports.metrics import QueueFigures, RoomTurnStage

if TYPE_CHECKING:
    from prometheus_client.metrics_core import Metric

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
JOB_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
DELIVERY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TURN_BUCKETS = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)


class Instruments:
    """Every counter and histogram, created once per process (the default registry refuses duplicates)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Histogram

        route = ["method", "route", "status"]
        self.requests: Counter = Counter("avatar_http_requests", "HTTP requests answered, by route template "
                                         "(`unmatched` when no route matched) and status", route)
        self.request_seconds: Histogram = Histogram(
            "avatar_http_request_duration_seconds", "Time from a request's arrival to its response's last byte "
            "(a streamed turn counts until its stream ends)", route, buckets=REQUEST_BUCKETS)
        self.jobs: Counter = Counter("avatar_jobs_finished", "Background jobs that ran, by kind and outcome "
                                     "(failed: the attempt raised; it may be retried)", ["kind", "outcome"])
        self.job_seconds: Histogram = Histogram(
            "avatar_job_duration_seconds", "How long one attempt of a background job ran: video.render is a "
            "render, knowledge.process an ingestion", ["kind", "outcome"], buckets=JOB_BUCKETS)
        self.deliveries: Counter = Counter(
            "avatar_webhook_deliveries", "Webhook delivery attempts by outcome (delivered: 2xx; http_error: "
            "another status; refused: the URL is not allowed; failed: no response)", ["outcome"])
        self.delivery_seconds: Histogram = Histogram(
            "avatar_webhook_delivery_duration_seconds", "Time of one webhook delivery attempt",
            ["outcome"], buckets=DELIVERY_BUCKETS)
        self.room_turns: Histogram = Histogram(
            "avatar_room_turn_seconds", "A room's voice turn by stage: speech_to_text, reply (the reply's "
            "text), first_audio (end of the user's speech to the first reply audio)", ["stage"],
            buckets=TURN_BUCKETS)


@functools.cache
def instruments() -> Instruments:
    return Instruments()


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    count, timing = _request_series(method, route, status)
    count.inc()
    timing.observe(seconds)


@functools.cache  # one lookup per request instead of two labels() calls (each a lock and a tuple of strings)
def _request_series(method: str, route: str, status: int) -> tuple[Any, Any]:
    made, labels = instruments(), (method, route, str(status))
    return made.requests.labels(*labels), made.request_seconds.labels(*labels)


def observe_job(kind: str, outcome: str, seconds: float) -> None:
    made = instruments()
    made.jobs.labels(kind, outcome).inc()
    made.job_seconds.labels(kind, outcome).observe(seconds)


def observe_delivery(outcome: str, seconds: float) -> None:
    made = instruments()
    made.deliveries.labels(outcome).inc()
    made.delivery_seconds.labels(outcome).observe(seconds)


def observe_room_turn(stage: RoomTurnStage, seconds: float) -> None:
    instruments().room_turns.labels(stage).observe(seconds)


class PrometheusMetrics:
    """The Metrics port (ports/metrics.py)."""

    def room_turn(self, stage: RoomTurnStage, seconds: float) -> None:
        observe_room_turn(stage, seconds)


def multiprocess() -> bool:
    """Whether this process's metrics are files shared with its siblings (decided at prometheus-client's
    import, so read from it rather than from the environment, which may have changed since)."""
    from prometheus_client import values

    return values.ValueClass is not values.MutexValue


class _QueueCollector:
    def __init__(self, figures: list[QueueFigures]) -> None:
        self.figures = figures

    def collect(self) -> Iterator["Metric"]:
        from prometheus_client.core import GaugeMetricFamily

        gauges = {
            "queued": GaugeMetricFamily("avatar_job_queue_depth", "Jobs due and waiting for a worker", labels=["kind"]),
            "running": GaugeMetricFamily("avatar_jobs_running", "Jobs held by a worker now", labels=["kind"]),
            "scheduled": GaugeMetricFamily("avatar_jobs_scheduled", "Jobs waiting for a later time (timers, "
                                           "retries)", labels=["kind"]),
            "oldest_seconds": GaugeMetricFamily("avatar_job_queue_oldest_age_seconds", "How long the oldest "
                                                "queued job has been due (0 when none is queued)", labels=["kind"]),
        }
        for figure in self.figures:
            for field, gauge in gauges.items():
                gauge.add_metric([figure.kind], float(getattr(figure, field)))
        yield from gauges.values()


class _Together:
    """Several collectors exposed as one registry."""

    def __init__(self, collectors: Iterable[Any]) -> None:
        self.collectors = list(collectors)

    def collect(self) -> Iterator["Metric"]:
        for collector in self.collectors:
            yield from collector.collect()


def exposition(queues: list[QueueFigures], accept: str | None) -> tuple[bytes, str]:
    """The scrape's body and content type (Prometheus text, or OpenMetrics when the scraper asks for it)."""
    from prometheus_client import REGISTRY, CollectorRegistry
    from prometheus_client.exposition import choose_encoder

    instruments()  # every series family is present from the first scrape, even before its first observation
    if multiprocess():
        from prometheus_client.multiprocess import MultiProcessCollector

        processes = CollectorRegistry()
        MultiProcessCollector(processes, path=os.environ[MULTIPROCESS_ENV])
        base: Any = processes
    else:
        base = REGISTRY
    encoder, content_type = choose_encoder(accept or "")
    return encoder(_Together([base, _QueueCollector(queues)])), content_type
