"""The two ways the CLI reaches the service, behind one small interface: embedded use cases or HTTP."""

import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urlsplit

import anyio
import msgspec

from avatar_service.entrypoints.cli.operations import OPS, Body

Progress = Callable[[int, int | None], None]  # bytes so far, total when known


class CliError(Exception):
    """A failure to show the user: the API's error message (and the field it is about)."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message, self.param, self.code = message, param, code

    def __str__(self) -> str:
        return f"{self.message} (param: {self.param})" if self.param else self.message


class Backend(Protocol):
    """What every command uses; results are plain JSON values, the same from either backend."""

    async def call(self, op: str, *ids: str, body: Body | None = None, query: Body | None = None) -> Any: ...

    async def upload(self, personality_id: str, file: Path, fields: dict[str, str]) -> Any:
        """A knowledge document from a local file (multipart over HTTP)."""
        ...

    async def download(self, url: str, target: Path, progress: Progress) -> None:
        """A media URL (e.g. a video's `video_url`) into a local file."""
        ...

    async def settle(self) -> None:
        """Lets work the last call queued run before the command exits (embedded: runs due jobs)."""
        ...

    def say_streamed(self, conversation_id: str, content: str) -> AsyncIterator[str]:
        """A text turn whose reply's pieces come as the engine writes them (stored as the plain turn is)."""
        ...


class Embedded:
    """Straight on the use cases, on the database `avatar serve` uses (AVATAR_DATABASE_URL)."""

    def __init__(self, service: Any, organization_id: str) -> None:
        self.service = service
        self.organization_id = organization_id

    async def _guard(self, work: Callable[[], Awaitable[Any]]) -> Any:
        from avatar_service.core.errors import AvatarError

        try:  # validation happens while the call is built, so the call is made in here too
            return msgspec.to_builtins(await work())
        except AvatarError as error:
            raise CliError(error.message, error.param, error.code) from None

    async def call(self, op: str, *ids: str, body: Body | None = None, query: Body | None = None) -> Any:
        query = {k: v for k, v in (query or {}).items() if v is not None}
        return await self._guard(lambda: OPS[op].run(self.service, self.organization_id, ids, body or {}, query))

    async def upload(self, personality_id: str, file: Path, fields: dict[str, str]) -> Any:
        from avatar_service.core.model import KnowledgeCreate
        from avatar_service.core.services.knowledge import Upload
        from avatar_service.core.validation import parse

        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        upload = Upload(file.name, content_type, await anyio.Path(file).read_bytes())

        async def add() -> Any:
            data = parse(KnowledgeCreate, {"type": "document", **fields})
            return await self.service.knowledge.add(self.organization_id, personality_id, data, upload)

        return await self._guard(add)

    async def download(self, url: str, target: Path, progress: Progress) -> None:
        from avatar_service.ports.blobs import BlobStore

        # The signed URL names the blob after /media/; this process reads the store directly.
        key = unquote(urlsplit(url).path.split("/media/", 1)[-1])
        blobs = self.service.container.resolve(BlobStore)
        total = await blobs.size(key)
        if total is None:
            raise CliError(f"No such media: {key}")
        done = 0
        with target.open("wb") as out:
            async for chunk in blobs.read(key):
                out.write(chunk)
                done += len(chunk)
                progress(done, total)

    async def settle(self) -> None:
        await self.service.run_jobs()

    async def say_streamed(self, conversation_id: str, content: str) -> AsyncIterator[str]:
        from avatar_service.core.errors import AvatarError

        try:
            turn = await self.service.conversations.start_turn(self.organization_id, conversation_id, content)
        except AvatarError as error:
            raise CliError(error.message, error.param, error.code) from None
        try:
            async for piece in turn:
                yield piece
        except AvatarError as error:
            raise CliError(error.message, error.param, error.code) from None
        finally:
            await turn.aclose()  # a turn left early (Ctrl-C) is stored as far as it got, marked interrupted


class Http:
    """A client of a running server: the same operations as requests under /v1, sent by avatar_service.client
    (its retries on 429s, 5xx and lost connections, idempotency keys, errors and streamed turns)."""

    def __init__(self, api_url: str, api_key: str) -> None:
        import httpx

        from avatar_service.client import AsyncAvatarClient

        self.client = AsyncAvatarClient(api_url, api_key, timeout=httpx.Timeout(120.0, connect=10.0))

    async def call(self, op: str, *ids: str, body: Body | None = None, query: Body | None = None) -> Any:
        spec = OPS[op]
        path = spec.path.format(*(quote(i, safe="") for i in ids))
        with self._refusals("Cannot reach the API at {url}: {cause}"):
            return await self.client.request(spec.method, path, params=query,
                                             json=body if spec.method in ("POST", "PATCH") else None)

    async def upload(self, personality_id: str, file: Path, fields: dict[str, str]) -> Any:
        with self._refusals("Cannot reach the API at {url}: {cause}"):
            item = await self.client.knowledge.upload(personality_id, file, name=fields.get("name"),
                                                      refresh_interval=fields.get("refresh_interval"))
        return msgspec.to_builtins(item)

    async def download(self, url: str, target: Path, progress: Progress) -> None:
        from avatar_service.client import APIConnectionError, APIError

        try:
            await self.client.download(url, target, progress=progress)
        except APIError as error:
            raise CliError(f"Downloading {url} failed: HTTP {error.status}") from None
        except APIConnectionError as error:
            raise CliError(f"Downloading {url} failed: {error.cause or error.message}") from None

    async def settle(self) -> None:
        return None  # the server runs its own jobs

    async def say_streamed(self, conversation_id: str, content: str) -> AsyncIterator[str]:
        with self._refusals("The reply broke off: {cause}"):
            async with self.client.conversations.stream(conversation_id, content) as turn:
                async for piece in turn:
                    yield piece

    @contextmanager
    def _refusals(self, unreachable: str) -> Iterator[None]:
        """The client's errors as CliErrors: the API's message (and param), or what broke the connection."""
        from avatar_service.client import APIConnectionError, APIError

        try:
            yield
        except APIError as error:
            raise CliError(error.message, error.param, error.code) from None
        except APIConnectionError as error:
            cause = error.cause or error.message
            raise CliError(unreachable.format(url=f"{self.client.base_url}/", cause=cause)) from None

    async def aclose(self) -> None:
        await self.client.aclose()


@asynccontextmanager
async def connect(api_url: str | None, api_key: str | None, organization: str, *, jobs: bool = False,
                  **settings: Any) -> AsyncIterator[Backend]:
    """The HTTP backend when an API URL is given, else the embedded one (`jobs`: run background work here)."""
    if api_url:
        if not api_key:
            raise CliError("--api-url needs --api-key (or AVATAR_API_KEY)", param="api_key")
        http = Http(api_url, api_key)
        try:
            yield http
        finally:
            await http.aclose()
        return
    from avatar_service.core.errors import AvatarError
    from avatar_service.embedded import open as open_service

    async with open_service(worker=jobs, **settings) as service:
        try:
            org = await service.organization(organization)
        except AvatarError as error:
            raise CliError(error.message, error.param, error.code) from None
        yield Embedded(service, org.id)
