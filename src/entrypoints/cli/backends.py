"""The two ways the CLI reaches the service, behind one small interface: embedded use cases or HTTP."""

import json
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
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
    """A client of a running server: the same operations as requests under /v1."""

    def __init__(self, api_url: str, api_key: str) -> None:
        import httpx

        base = api_url.rstrip("/").removesuffix("/v1")
        self.client = httpx.AsyncClient(base_url=f"{base}/v1", headers={"Authorization": f"Bearer {api_key}"},
                                        timeout=httpx.Timeout(120.0, connect=10.0))

    async def _send(self, method: str, path: str, **kwargs: Any) -> Any:
        import httpx

        try:
            response = await self.client.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            raise CliError(f"Cannot reach the API at {self.client.base_url}: {error}") from None
        if response.is_success:
            return response.json()
        raise _error_of(response)

    async def call(self, op: str, *ids: str, body: Body | None = None, query: Body | None = None) -> Any:
        spec = OPS[op]
        path = spec.path.format(*(quote(i, safe="") for i in ids))
        params = {k: v for k, v in (query or {}).items() if v is not None}
        return await self._send(spec.method, path, params=params,
                                json=body if spec.method in ("POST", "PATCH") else None)

    async def upload(self, personality_id: str, file: Path, fields: dict[str, str]) -> Any:
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        files = {"file": (file.name, await anyio.Path(file).read_bytes(), content_type)}
        return await self._send("POST", f"/personalities/{quote(personality_id, safe='')}/knowledge",
                                files=files, data=fields)

    async def download(self, url: str, target: Path, progress: Progress) -> None:
        import httpx

        # Media URLs are signed: fetched without the API key, as any player would.
        try:
            async with httpx.AsyncClient(timeout=120.0) as plain, plain.stream("GET", url) as response:
                if not response.is_success:
                    raise CliError(f"Downloading {url} failed: HTTP {response.status_code}")
                total = int(response.headers.get("content-length", 0)) or None
                with target.open("wb") as out:
                    async for chunk in response.aiter_bytes():
                        out.write(chunk)
                        progress(response.num_bytes_downloaded, total)
        except httpx.HTTPError as error:
            raise CliError(f"Downloading {url} failed: {error}") from None

    async def settle(self) -> None:
        return None  # the server runs its own jobs

    async def say_streamed(self, conversation_id: str, content: str) -> AsyncIterator[str]:
        import httpx

        path = OPS["conversations.say"].path.format(quote(conversation_id, safe=""))
        try:
            async with self.client.stream("POST", path, json={"content": content, "stream": True}) as response:
                if not response.is_success:
                    await response.aread()
                    raise _error_of(response)
                async for name, data in server_sent_events(response.aiter_lines()):
                    if name == "delta":
                        yield data["content"]
                    elif name == "error":
                        envelope = data["error"]
                        raise CliError(envelope["message"], envelope.get("param"), envelope.get("code"))
                    elif name == "done":
                        return
        except httpx.HTTPError as error:
            raise CliError(f"The reply broke off: {error}") from None
        raise CliError("The reply broke off: the stream ended before it was done")

    async def aclose(self) -> None:
        await self.client.aclose()


def _error_of(response: Any) -> CliError:
    """The API's error envelope of a failed response, as a CliError."""
    try:
        envelope = response.json()["error"]
        return CliError(envelope["message"], envelope.get("param"), envelope.get("code"))
    except (ValueError, KeyError, TypeError):
        return CliError(f"HTTP {response.status_code}: {response.text[:200]}")


async def server_sent_events(lines: AsyncIterator[str]) -> AsyncIterator[tuple[str, Any]]:
    """Server-sent events from a stream's lines, as (event name, decoded JSON data), in order.

    Per the event-stream format: `event:` names the event (default "message"), `data:` lines are joined with
    newlines, a blank line ends the event, lines starting with ':' are comments. Self-contained, so it can
    move to a client package as it is.
    """
    name, data = "message", list[str]()
    async for line in lines:
        if not line:
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    if data:
        yield name, json.loads("\n".join(data))


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
