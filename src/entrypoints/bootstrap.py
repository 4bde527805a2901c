"""One function per deployment profile, each returning a punq container with every port and use case."""

import contextlib
from typing import Any

import anyio
import punq

from avatar_service.adapters.audio_decode import decode_audio
from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.embedders import LexicalEmbedder, default_embedder
from avatar_service.adapters.filesystem_blobs import FilesystemBlobs
from avatar_service.adapters.guarded_http import GuardedFetcher, GuardedHttp, GuardedSender, GuardedToolCaller
from avatar_service.adapters.hosted_rooms import HostedRooms
from avatar_service.adapters.local_rate_limit import LocalRateLimiter
from avatar_service.adapters.model_files import verify_small_files
from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.adapters.procrastinate_jobs import ProcrastinateJobQueue
from avatar_service.adapters.prometheus_metrics import PrometheusMetrics
from avatar_service.adapters.semantic_index import IndexedSemantic
from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.request_guards import SqlIdempotencyStore, SqlRateLimiter
from avatar_service.adapters.system_clock import RandomIds, SystemClock
from avatar_service.adapters.text_extraction import DocumentTextExtractor
from avatar_service.adapters.thread_offload import ThreadOffload
from avatar_service.adapters.vector_files import VectorFiles
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.avatars import Avatars
from avatar_service.core.services.base import Deps
from avatar_service.core.services.conversations import ConversationLimits, Conversations
from avatar_service.core.services.delivery import Dispatcher
from avatar_service.core.services.games import GameLimits, GameSessions
from avatar_service.core.services.knowledge import Knowledge, KnowledgeLimits
from avatar_service.core.services.knowledge_processing import KnowledgeProcessor
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.memory_extraction import MemoryExtractor
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.rooms import Rooms
from avatar_service.core.services.tool_calls import ToolRunner
from avatar_service.core.services.users import Users
from avatar_service.core.services.video_rendering import VideoRenderer
from avatar_service.core.services.videos import Videos
from avatar_service.core.services.voices import Voices
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.entrypoints.settings import Settings
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.dialogue import DialogueEngine
from avatar_service.ports.embedder import Embedder
from avatar_service.ports.extractor import TextExtractor
from avatar_service.ports.fact_extractor import FactExtractor
from avatar_service.ports.fetcher import Fetcher
from avatar_service.ports.jobs import JobQueue, JobRunner
from avatar_service.ports.metrics import Metrics, QueueStats
from avatar_service.ports.offload import Offload
from avatar_service.ports.portraits import PortraitAnalyzer
from avatar_service.ports.renderer import AvatarRenderer
from avatar_service.ports.request_guards import IdempotencyStore, RateLimiter
from avatar_service.ports.rooms import RoomProvider, RoomTokens
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.speech import AudioDecoder, SpeechEngines, VoiceCatalogue
from avatar_service.ports.storage import Storage
from avatar_service.ports.tools import ToolCaller
from avatar_service.ports.webhook_sender import WebhookSender

USE_CASES = (Deps, ApiKeys, Personalities, Users, Memories, Knowledge, KnowledgeProcessor, Conversations, Rooms,
             Videos, GameSessions, Webhooks, Dispatcher, MemoryExtractor, ToolRunner)


def _dialogue(settings: Settings) -> DialogueEngine:
    if settings.dialogue_base_url:
        from avatar_service.adapters.dialogue.openai_compatible import OpenAICompatibleDialogue

        return OpenAICompatibleDialogue(settings.dialogue_base_url, settings.dialogue_model or "default",
                                        api_key=settings.dialogue_api_key or None)
    from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue

    return OfflineGroundedDialogue()


def _facts(settings: Settings) -> FactExtractor:
    """Memory extraction: by the configured language model (the rules when it fails), else by the rules."""
    from avatar_service.core.memory.facts import RuleFacts

    if settings.dialogue_base_url:
        from avatar_service.adapters.dialogue.llm_extractor import LanguageModelFacts

        return LanguageModelFacts(settings.dialogue_base_url, settings.dialogue_model or "default",
                                  api_key=settings.dialogue_api_key or None, fallback=RuleFacts())
    return RuleFacts()


def _voices() -> VoiceCatalogue:
    from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech

    return CatalogueSpeech()  # loads Piper on first use


def _speech(settings: Settings, voices: VoiceCatalogue) -> SpeechEngines:
    from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech
    from avatar_service.adapters.speech.factory import build_offline_speech, build_speech

    # One Piper for the catalogue's previews and every provider's offline voices.
    offline = build_offline_speech(voices if isinstance(voices, CatalogueSpeech) else None)
    return SpeechEngines(build_speech(settings.speech_credentials(), offline=offline))


def places_rooms_on_workers(settings: Settings) -> bool:
    """Whether rooms live on `avatar worker` processes (AVATAR_ROOM_PLACEMENT; PostgreSQL only)."""
    if settings.room_placement == "local":
        return False
    postgres = settings.database_url.startswith("postgresql")
    if settings.room_placement == "workers" and not postgres:
        raise SystemExit("AVATAR_ROOM_PLACEMENT=workers needs PostgreSQL: on SQLite the server hosts its rooms")
    return postgres and (settings.room_placement == "workers" or settings.worker == "external")


def _rooms(settings: Settings, hosted: HostedRooms, speech: SpeechEngines, offload: Offload, blobs: BlobStore,
           storage: Storage, clock: Clock, secret: bytes, metrics: Metrics) -> RoomProvider:
    from avatar_service.adapters.aiortc_rooms import AiortcRooms, is_loopback_url

    extra = [address for address in settings.room_host_addresses.split(",") if address.strip()]
    if not extra and is_loopback_url(settings.public_url):  # a local service serves local browsers
        extra = ["127.0.0.1"]
    # Recordings are put together under the data dir, then stored in the blob store; turns go to the Metrics
    # port (the container's, so a test or an embedding application that registers its own sees them).
    local = AiortcRooms(hosted, speech, offload, host_addresses=extra, blobs=blobs,
                        work_dir=settings.data_path / "work" / "rooms", observe=metrics.room_turn)
    livekit = _livekit(settings, local, storage) if settings.livekit_url else None
    if not places_rooms_on_workers(settings):
        return livekit or local
    from avatar_service.adapters.database_room_hosts import SqlRoomHosts
    from avatar_service.adapters.room_workers.placed import PlacedRooms

    placed = PlacedRooms(local, SqlRoomHosts(storage.engine), clock, secret, livekit)  # type: ignore[attr-defined]
    if livekit is not None:
        livekit.dispatch = placed.place_livekit  # the avatar joins from a room worker
    return placed


def _livekit(settings: Settings, engines: Any, storage: Storage) -> Any:
    """Rooms on a LiveKit server, the avatar joining them with this process's room engines (or a worker's)."""
    from avatar_service.adapters.livekit_agent.agents import LiveKitAgents
    from avatar_service.adapters.livekit_rooms import LiveKitRooms

    async def organization_of(conversation_id: str) -> str | None:
        async with storage(None, read_only=True) as uow:
            record = await uow.conversations.get(conversation_id)
        return None if record is None else record.organization_id

    rooms = LiveKitRooms(settings.livekit_url, settings.livekit_api_key, settings.livekit_api_secret,
                         lookup=organization_of)
    rooms.agents = LiveKitAgents(engines, rooms.url, rooms.agent_token)
    rooms.dispatch = rooms.join_here
    return rooms


def _semantic(settings: Settings, embedder: Embedder, offload: Offload) -> IndexedSemantic:
    """Vectors cached per process within AVATAR_VECTOR_CACHE_MB, HNSW past AVATAR_VECTOR_ANN_THRESHOLD rows,
    namespaces saved under the data directory so a restart loads them fast."""
    from avatar_service.adapters.usearch_ann import build

    index = NumpyVectorIndex(settings.vector_cache_mb * 1024 * 1024, settings.vector_ann_threshold, build)
    return IndexedSemantic(embedder, offload, index, VectorFiles(settings.data_path / "vectors"))


def _renderer() -> AvatarRenderer:
    from avatar_service.adapters.pyav_renderer import PyAVRenderer

    return PyAVRenderer()


def _portraits() -> PortraitAnalyzer:
    from avatar_service.adapters.dlib_faces import DlibFaceFinder
    from avatar_service.adapters.portrait_analysis import PortraitAnalysis

    return PortraitAnalysis(DlibFaceFinder())  # the models load on the first upload


def _blobs(settings: Settings) -> BlobStore:
    if settings.blob_store == "s3":
        if not settings.s3_bucket:
            raise SystemExit("AVATAR_BLOB_STORE=s3 needs AVATAR_S3_BUCKET")
        from avatar_service.adapters.s3_blobs import S3Blobs

        return S3Blobs(settings.s3_bucket, endpoint_url=settings.s3_endpoint_url, access_key=settings.s3_access_key,
                       secret_key=settings.s3_secret_key, region=settings.s3_region, prefix=settings.s3_prefix)
    if settings.blob_store != "filesystem":
        raise SystemExit(f"AVATAR_BLOB_STORE must be filesystem or s3, not {settings.blob_store!r}")
    return FilesystemBlobs(settings.data_path / "media")


def assemble(settings: Settings, storage: Storage, clock: Clock | None = None, ids: Ids | None = None,
             **overrides: object) -> punq.Container:
    """Wires every port and use case; `overrides` replace single ports by name (tests)."""
    # A tampered config, tokenizer or small graph stops start-up here (~10 ms); large weights are checked when
    # loaded (adapters/model_files.py says what is checked when).
    verify_small_files()
    c = punq.Container()
    clock = clock or SystemClock()
    ids = ids or RandomIds()
    secret = settings.signing_secret()
    offload = ThreadOffload(threads=4)
    jobs = _jobs(settings, storage, clock, ids)
    http: GuardedHttp = overrides.pop("http", None) or GuardedHttp(  # type: ignore[assignment]
        allow_private=settings.allow_private_urls, max_bytes=settings.max_fetch_bytes)
    embedder = LexicalEmbedder() if settings.embedder == "lexical" else default_embedder()
    rooms = HostedRooms(settings.public_url, secret)
    voices: VoiceCatalogue = overrides.pop("voices", None) or _voices()  # type: ignore[assignment]
    speech: SpeechEngines = overrides.pop("speech", None) or _speech(settings, voices)  # type: ignore[assignment]
    avatar_renderer: AvatarRenderer = overrides.pop("renderer", None) or _renderer()  # type: ignore[assignment]
    portrait_analyzer: PortraitAnalyzer | None = overrides.pop("portraits", None)  # type: ignore[assignment]
    fetcher = GuardedFetcher(http)
    blobs = _blobs(settings)
    metrics: Metrics = overrides.pop("metrics", None) or PrometheusMetrics()  # type: ignore[assignment]
    room_provider = _rooms(settings, rooms, speech, offload, blobs, storage, clock, secret, metrics)
    ports: dict[object, object] = {
        Settings: settings, Storage: storage, Clock: clock, Ids: ids, Offload: offload, JobQueue: jobs,
        QueueStats: jobs, Metrics: metrics,
        GuardedHttp: http, JobRunner: jobs, Fetcher: fetcher, WebhookSender: GuardedSender(http),
        ToolCaller: GuardedToolCaller(http),
        Semantic: _semantic(settings, embedder, offload), TextExtractor: DocumentTextExtractor(),
        FactExtractor: overrides.pop("facts", None) or _facts(settings),
        AvatarRenderer: avatar_renderer, SpeechEngines: speech, VoiceCatalogue: voices,
        AudioDecoder: decode_audio, DialogueEngine: overrides.pop("dialogue", None) or _dialogue(settings),
        RoomProvider: room_provider, RoomTokens: rooms, MediaSigner: MediaSigner(settings.public_url, secret),
        BlobStore: blobs,
        ConversationLimits: ConversationLimits(settings.conversation_join_timeout, settings.conversation_idle_timeout,
                                               settings.conversation_max_duration, settings.max_transcript_turns),
        GameLimits: GameLimits(settings.game_idle_timeout),
        KnowledgeLimits: KnowledgeLimits(settings.max_upload_bytes),
    }
    if isinstance(jobs, DatabaseJobQueue):
        ports[DatabaseJobQueue] = jobs
    if isinstance(storage, SqlStorage):
        ports[IdempotencyStore] = SqlIdempotencyStore(storage)
        shared = settings.rate_limit_storage == "database" or (
            settings.rate_limit_storage == "auto" and settings.database_url.startswith("postgresql"))
        ports[RateLimiter] = SqlRateLimiter(storage) if shared else LocalRateLimiter()
    if overrides:
        raise TypeError(f"unknown overrides: {sorted(overrides)}")
    for key, instance in ports.items():
        c.register(key, instance=instance)
    for use_case in USE_CASES:
        c.register(use_case, scope=punq.Scope.singleton)
    avatars = Avatars(c.resolve(Deps), avatar_renderer, portrait_analyzer or _portraits(), blobs,
                      c.resolve(MediaSigner), offload, settings.data_path / "work" / "avatars")
    c.register(Avatars, instance=avatars)
    renderer = VideoRenderer(c.resolve(Deps), c.resolve(Videos), speech, decode_audio, avatar_renderer, fetcher,
                             blobs, offload, settings.data_path / "work", portraits=avatars)
    c.register(VideoRenderer, instance=renderer)
    c.register(Voices, instance=Voices(voices, blobs, c.resolve(MediaSigner), offload, clock,
                                       settings.data_path / "work" / "voices"))
    if hasattr(room_provider, "attach"):  # the room calls back into conversations, which needs the room
        room_provider.attach(c.resolve(Conversations), avatars)
    _register_jobs(c, jobs, settings)
    return c


def _jobs(settings: Settings, storage: Storage, clock: Clock, ids: Ids) -> DatabaseJobQueue | ProcrastinateJobQueue:
    """AVATAR_JOBS picks the job queue adapter; the core only sees the JobQueue port."""
    if settings.jobs == "procrastinate":
        from avatar_service.adapters.procrastinate_jobs import ProcrastinateJobQueue

        return ProcrastinateJobQueue(storage, clock, ids, stalled_after=settings.job_lease_seconds)
    if settings.jobs != "database":
        raise SystemExit(f"AVATAR_JOBS must be 'database' or 'procrastinate', not {settings.jobs!r}")
    return DatabaseJobQueue(storage, clock, ids, lease_seconds=settings.job_lease_seconds)


def _register_jobs(c: punq.Container, jobs: DatabaseJobQueue | ProcrastinateJobQueue, settings: Settings) -> None:
    processor: KnowledgeProcessor = c.resolve(KnowledgeProcessor)
    jobs.register("knowledge.process", processor, concurrency=settings.max_concurrent_ingestions)
    # At start (periodic tasks run once at once) and every 5 minutes: no knowledge item is left unfinished
    # without a job to finish it.
    jobs.every(300.0, processor.sweep)
    jobs.register("video.render", c.resolve(VideoRenderer), concurrency=settings.max_concurrent_renders)
    jobs.register("memory.extract", c.resolve(MemoryExtractor))
    jobs.register("conversation.timer", c.resolve(Conversations).on_timer, concurrency=4)
    jobs.register("game.timer", c.resolve(GameSessions).on_timer, concurrency=4)
    dispatcher: Dispatcher = c.resolve(Dispatcher)
    provider = c.resolve(RoomProvider)
    if hasattr(provider, "sweep"):  # rooms on workers: any job runner fails the rooms of a dead one
        jobs.every(settings.room_lease_seconds / 4, provider.sweep)

    jobs.every(0.5, dispatcher.run, on_wake=True)
    _register_purge(c, jobs)


def _register_purge(c: punq.Container, jobs: DatabaseJobQueue | ProcrastinateJobQueue) -> None:
    """Hourly (and at start): idempotency keys past their 24 hours and rate-limit buckets past their minute
    are deleted, or both tables would keep a row for every key ever sent and every client address ever seen."""
    try:
        store, limiter = c.resolve(IdempotencyStore), c.resolve(RateLimiter)
    except punq.MissingDependencyError:  # storage without these tables (in-memory tests)
        return
    clock: Clock = c.resolve(Clock)

    async def purge_request_guards() -> None:
        now = clock.now()
        await store.purge(now)
        await limiter.purge(now)

    jobs.every(3600.0, purge_request_guards)


def embedded(settings: Settings) -> punq.Container:
    """The single-process default: SQLite (or any URL given), jobs run inside the server process."""
    return assemble(settings, SqlStorage(settings.database_url))


def server(settings: Settings) -> punq.Container:
    """API processes on PostgreSQL; with AVATAR_WORKER=external the jobs run in `avatar worker` processes."""
    if not settings.database_url.startswith("postgresql"):
        raise SystemExit("The server profile needs AVATAR_DATABASE_URL=postgresql+asyncpg://...")
    return assemble(settings, SqlStorage(settings.database_url))


def test(settings: Settings, storage: Storage, clock: Clock | None = None, **overrides: object) -> punq.Container:
    """Tests: the storage they give (in-memory or a real database), optional fake clock and ports."""
    return assemble(settings, storage, clock, **overrides)


async def shut_down(container: punq.Container) -> None:
    """What every process does last: its rooms close (their last writes made), then the delivery connections it
    kept alive, then storage (which waits for units of work still open). Each runs whatever the one before raised,
    and no cancellation cuts them short."""
    with anyio.CancelScope(shield=True):
        async with contextlib.AsyncExitStack() as closing:  # (run last to first)
            closing.push_async_callback(container.resolve(Storage).close)
            closing.push_async_callback(container.resolve(GuardedHttp).aclose)
            closing.push_async_callback(container.resolve(RoomProvider).aclose)
