"""create_app(container): the Litestar application, mountable inside another ASGI app."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import punq
from litestar import Litestar, Request, Response, Router
from litestar.di import Provide
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from avatar_service import __version__
from avatar_service.adapters.speech.voices import offline_voice_map
from avatar_service.adapters.vad import default_scorer
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.avatars import Avatars
from avatar_service.core.services.conversations import Conversations
from avatar_service.core.services.games import GameSessions
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.rooms import Rooms
from avatar_service.core.services.users import Users
from avatar_service.core.services.videos import Videos
from avatar_service.core.services.voices import Voices
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.entrypoints import heap
from avatar_service.entrypoints.bootstrap import shut_down
from avatar_service.entrypoints.http import metrics, public, rooms
from avatar_service.entrypoints.http.admission import AdmissionMiddleware
from avatar_service.entrypoints.http.auth import authenticate, current_caller
from avatar_service.entrypoints.http.dependency_order import resolve_in_order
from avatar_service.entrypoints.http.errors import HANDLERS
from avatar_service.entrypoints.http.idempotency import IdempotencyMiddleware
from avatar_service.entrypoints.http.openapi_doc import document
from avatar_service.entrypoints.http.options import answer_options
from avatar_service.entrypoints.http.rate_limit import RateLimitMiddleware
from avatar_service.entrypoints.http.request_ids import RequestIdMiddleware
from avatar_service.entrypoints.http.routes import (
    api_keys,
    avatars,
    conversations,
    games,
    knowledge,
    memories,
    personalities,
    users,
    videos,
    voices,
    webhooks,
)
from avatar_service.entrypoints.http.static_files import docs_ui, static_routes
from avatar_service.entrypoints.http.strict_input import check_input
from avatar_service.entrypoints.settings import Settings
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.clock import Clock
from avatar_service.ports.dialogue import DialogueEngine
from avatar_service.ports.jobs import JobRunner
from avatar_service.ports.metrics import QueueStats
from avatar_service.ports.renderer import AvatarRenderer
from avatar_service.ports.request_guards import IdempotencyStore, RateLimiter
from avatar_service.ports.rooms import RoomProvider
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.speech import SpeechEngines
from avatar_service.ports.storage import Storage

log = logging.getLogger(__name__)

# Each use case and port a handler may name, resolved once from the container. No name may equal a body
# field: Litestar drops validation errors whose key is a dependency name and answers 500 instead of 400
# (hence `memory_service`, as bulk bodies have a `memories` field).
INJECTED: dict[str, Any] = {
    "api_keys": ApiKeys, "avatars": Avatars, "personalities": Personalities, "users": Users, "memory_service": Memories,
    "knowledge": Knowledge, "conversations": Conversations, "rooms": Rooms, "videos": Videos, "games": GameSessions,
    "webhooks": Webhooks, "renderer": AvatarRenderer, "signer": MediaSigner, "blobs": BlobStore, "clock": Clock,
    "storage": Storage, "voices": Voices,
}


def engines(container: punq.Container) -> dict[str, Any]:
    """Which engine serves each capability, for /healthz (contract, section 7). The VAD is the one a room of this
    process gets, found by making one (Silero's session loads once per process, so a first room reuses it)."""
    speech: SpeechEngines = container.resolve(SpeechEngines)
    return {
        "voice": {provider: engine.name for provider, engine in speech.engines.items()},
        "offline_voices": offline_voice_map(speech.engines),
        "embedder": container.resolve(Semantic).embedder_name,
        "speech_to_text": "faster-whisper:tiny.en",
        "voice_activity": default_scorer().name,  # silero-v6, or energy when Silero cannot run (a warning says why)
        "dialogue": container.resolve(DialogueEngine).name,
        "renderer": container.resolve(AvatarRenderer).name,
        "rooms": container.resolve(RoomProvider).name,
    }


def guards(container: punq.Container) -> list[DefineMiddleware]:
    """Rate limits (outermost: their headers go on every answer, replays too), then idempotency."""
    settings: Settings = container.resolve(Settings)
    clock: Clock = container.resolve(Clock)
    try:
        limiter, store = container.resolve(RateLimiter), container.resolve(IdempotencyStore)
    except punq.MissingDependencyError:  # storage without these tables (in-memory tests)
        return []
    api_keys = container.resolve(ApiKeys)
    return [DefineMiddleware(RateLimitMiddleware, limiter=limiter, limit=settings.rate_limit_per_minute,
                             api_keys=api_keys, clock=clock),
            DefineMiddleware(IdempotencyMiddleware, store=store, api_keys=api_keys, clock=clock)]


async def before_request(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """OPTIONS is answered here (with every method of the path); other requests get their input checked."""
    answer = await answer_options(request)
    if answer is None:
        await check_input(request)
    return answer


async def before_api_request(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """The same under /v1, where every request but OPTIONS is authenticated before its input is looked at."""
    if request.method != "OPTIONS":
        await authenticate(request)
    return await before_request(request)


def create_app(container: punq.Container, *, run_worker: bool | None = None) -> Litestar:
    settings: Settings = container.resolve(Settings)
    jobs: JobRunner = container.resolve(JobRunner)
    worker = settings.worker == "embedded" if run_worker is None else run_worker

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        heap.settle()  # what exists now lives as long as the process: out of the collector's way
        async with anyio.create_task_group() as group:
            if worker:
                await jobs.recover()
                group.start_soon(jobs.run)
            try:
                yield
            finally:
                group.cancel_scope.cancel()
        await shut_down(container)

    def provider(kind: Any) -> Provide:
        instance = container.resolve(kind)
        return Provide(lambda: instance, use_cache=True, sync_to_thread=False)

    avatar_ids = [avatar.id for avatar in container.resolve(AvatarRenderer).list_avatars()]

    async def before_schema_request(request: Request[Any, Any, Any]) -> Response[Any] | None:
        # The OpenAPI document is generated and completed (openapi_doc.py) on its first request rather than with
        # every app: generating it costs about 0.3 s, which every test and every CLI-started app paid.
        if not request.app.state.get("documented"):
            document(request.app, avatar_ids)
            request.app.state.documented = True
        return await before_request(request)  # a router's hook replaces the app's: run it too

    v1 = Router(
        "/v1", before_request=before_api_request,
        route_handlers=[api_keys.router, personalities.router, knowledge.router,
                        knowledge.knowledge_uploads(settings.max_upload_bytes), users.router, memories.router,
                        conversations.router, videos.router, games.router, webhooks.router,
                        avatars.router(settings.max_upload_bytes),
                        voices.list_voices],
        dependencies={"caller": Provide(current_caller, sync_to_thread=False)},
    )
    app = Litestar(
        route_handlers=[v1, *public.ROUTES, *rooms.ROUTES, *static_routes(),
                        metrics.route(settings.metrics_token, container.resolve(QueueStats), container.resolve(Clock))],
        dependencies={name: provider(kind) for name, kind in INJECTED.items()},
        exception_handlers=HANDLERS,
        middleware=guards(container),  # app level: a router's middleware is deep-copied with its arguments
        before_request=before_request,
        lifespan=[lifespan],
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="avatar_service", version=__version__, path="/schema",
            openapi_router=Router("/schema", route_handlers=[], include_in_schema=False,
                                  before_request=before_schema_request),
            render_plugins=[docs_ui()],
            components=Components(security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer")}),
            security=[{"bearer": []}],
        ),
        debug=False,
        logging_config=None,  # Litestar's own would replace the root logger's handlers (entrypoints/logs.py)
    )
    # Request ids, then metrics, outside everything else: the app-level middleware above runs only for requests
    # that found a route, while these must also see 404s, 405s and what the exception handlers answer.
    # Admission control inside them (its 503s are counted and carry a request id), before any work is done.
    app.state.admission = admission = AdmissionMiddleware(app.asgi_handler, settings.max_in_flight,
                                                          settings.max_queued, settings.queue_timeout,
                                                          settings.max_model_in_flight)
    app.asgi_handler = RequestIdMiddleware(metrics.HttpMetricsMiddleware(admission))
    resolve_in_order(app)
    app.state.api_keys = container.resolve(ApiKeys)
    app.state.engines = engines(container)
    app.state.container = container
    return app
