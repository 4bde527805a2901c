"""AVATAR_* environment variables, read once into a typed Struct."""

import os
import secrets
from pathlib import Path
from typing import Literal

import msgspec


class Settings(msgspec.Struct, kw_only=True, frozen=True):
    database_url: str = "sqlite+aiosqlite:///./var/avatar.db"
    data_dir: str = "./var"
    public_url: str = "http://127.0.0.1:8000"
    secret_key: str = ""  # signs media URLs and room tokens; generated into data_dir when empty
    allow_private_urls: bool = False
    worker: str = "embedded"  # "embedded": jobs run inside `avatar serve`; "external": only `avatar worker`
    max_body_bytes: int = 1024 * 1024
    max_upload_bytes: int = 20 * 1024 * 1024
    max_fetch_bytes: int = 20 * 1024 * 1024
    max_concurrent_renders: int = 1
    max_concurrent_ingestions: int = 2
    conversation_join_timeout: float = 300.0
    conversation_idle_timeout: float = 600.0
    conversation_max_duration: float = 3600.0
    max_transcript_turns: int = 2000
    game_idle_timeout: float = 86400.0
    embedder: str = "auto"  # "auto" (MiniLM when installed) or "lexical"
    dialogue_base_url: str = ""  # an OpenAI-compatible server; empty: the offline engine
    dialogue_model: str = ""
    dialogue_api_key: str = ""
    elevenlabs_api_key: str = ""
    elevenlabs_base_url: str = ""
    cartesia_api_key: str = ""
    cartesia_base_url: str = ""
    openai_api_key: str = ""
    openai_base_url: str = ""
    azure_speech_key: str = ""
    azure_speech_region: str = ""
    azure_base_url: str = ""
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"  # "json": one object per line (entrypoints/logs.py)
    metrics_token: str = ""  # set: GET /metrics wants `Authorization: Bearer <token>`; empty: /metrics is open
    metrics_dir: str = ""  # the CLI's prometheus multiprocess folder; empty: data_dir/metrics
    room_host_addresses: str = ""  # comma-separated extra ICE host addresses, e.g. "127.0.0.1" (aioice skips loopback)
    # Rooms on workers (PostgreSQL): "auto" places them on `avatar worker` processes when AVATAR_WORKER=external;
    # "workers" always; "local": the API process that takes the offer hosts the room (SQLite always does).
    room_placement: Literal["auto", "local", "workers"] = "auto"
    room_capacity: int = 0  # rooms one `avatar worker` hosts at once; 0: it hosts none
    room_lease_seconds: float = 10.0  # a room worker that has not heartbeated for this long is dead: rooms fail
    worker_url: str = ""  # the internal URL a room worker announces; empty: http://127.0.0.1:0 (a free port)
    worker_bind: str = ""  # where its internal server listens, when that is not the announced address
    livekit_url: str = ""  # set: rooms are issued on this LiveKit server instead of the service's own aiortc room
    livekit_api_key: str = ""
    livekit_api_secret: str = ""
    blob_store: str = "filesystem"  # "filesystem" (under data_dir/media) or "s3" (any S3-compatible server)
    s3_bucket: str = ""
    s3_endpoint_url: str = ""  # empty: AWS itself; e.g. http://127.0.0.1:9000 for MinIO
    s3_access_key: str = ""  # empty: boto3's usual credential chain
    s3_secret_key: str = ""
    s3_region: str = ""
    s3_prefix: str = ""  # a folder inside the bucket, when the bucket is shared
    jobs: str = "database"  # "database": jobs table and in-process runner; "procrastinate": on PostgreSQL
    job_lease_seconds: float = 30.0  # a dead worker's job runs again after this (live workers renew it)
    rate_limit_per_minute: int = 6000  # requests per API key per minute (a key may carry its own); 0: no limit
    rate_limit_storage: str = "auto"  # "auto": the database on PostgreSQL, else in-process; "database", "memory"
    vector_cache_mb: int = 2048  # cached vector namespaces per process; the least recently used go past it
    vector_ann_threshold: int = 200_000  # rows of one namespace from which an approximate (HNSW) index is used
    max_in_flight: int = 64  # requests one process works on at once; more wait in its queue
    max_model_in_flight: int = 16  # of those, requests that run a model (searches, turns, memory writes, moves)
    max_queued: int = 256  # requests waiting past that; more are answered 503 `overloaded` with Retry-After
    queue_timeout: float = 2.0  # seconds a request may wait in the queue before it is answered 503

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir)

    @property
    def metrics_path(self) -> Path:
        return Path(self.metrics_dir) if self.metrics_dir else self.data_path / "metrics"

    def signing_secret(self) -> bytes:
        if self.secret_key:
            return self.secret_key.encode()
        path = self.data_path / "secret.key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip().encode()

    def speech_credentials(self) -> dict[str, str]:
        names = ("elevenlabs_api_key", "elevenlabs_base_url", "cartesia_api_key", "cartesia_base_url",
                 "openai_api_key", "openai_base_url", "azure_speech_key", "azure_speech_region", "azure_base_url")
        return {name: getattr(self, name) for name in names}


def load_settings(environ: dict[str, str] | None = None, **overrides: object) -> Settings:
    environ = dict(os.environ if environ is None else environ)
    fields = set(Settings.__struct_fields__)
    raw: dict[str, object] = {k[7:].lower(): v for k, v in environ.items()
                              if k.startswith("AVATAR_") and k[7:].lower() in fields}
    raw.update(overrides)
    try:
        return msgspec.convert(raw, Settings, strict=False)
    except msgspec.ValidationError as error:
        raise SystemExit(f"Bad AVATAR_* setting: {error}") from None
