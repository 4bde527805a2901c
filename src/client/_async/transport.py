"""The client's transport: a request with retries, typed answers, cursor walks, a streamed turn, downloads.

`_sync/transport.py` is generated from this file (scripts/unasync_client.py): edit this one, then regenerate.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import httpx
import msgspec

from avatar_service.client import _wire
from avatar_service.client.errors import APIConnectionError, APITimeoutError, IncompleteStreamError
from avatar_service.client.sse import EventDecoder, ServerSentEvent
from avatar_service.core.model import MessageResult, Page

T = TypeVar("T")
Progress = Callable[[int, int | None], None]  # bytes so far, total when known


class AsyncTransport:
    """Sends requests under `{root}/v1` with the key, retrying what is worth retrying (see RetryPolicy).

    Every POST carries an `Idempotency-Key` (the caller's, or one made per call and kept across its retries), so
    a retry of a request whose answer was lost is answered by the service from the first, never done twice; the
    searches change nothing and go without one, sparing the service a stored answer each (`_wire.changes`).
    """

    def __init__(self, base_url: str | None, api_key: str | None, *, timeout: float | httpx.Timeout | None,
                 max_retries: int, headers: Mapping[str, str] | None, http_client: httpx.AsyncClient | None) -> None:
        self.root = _wire.api_root(base_url)
        self.headers = _wire.headers(_wire.api_key(api_key), headers)
        self.retry = _wire.RetryPolicy(max_retries=max_retries)
        self.http = http_client or httpx.AsyncClient(timeout=timeout)  # a client handed in keeps its own timeout
        self._owns_http = http_client is None

    async def send(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None,
                   files: Any = None, data: Mapping[str, str] | None = None, idempotency_key: str | None = None,
                   stream: bool = False, authenticated: bool = True) -> httpx.Response:
        """A successful response (open, when `stream`); the typed error of a refusal, after the retries."""
        url = path if path.startswith(("http://", "https://")) else f"{self.root}/v1{path}"
        headers = dict(self.headers) if authenticated else {"User-Agent": self.headers["User-Agent"]}
        keyed = _wire.changes(method, url)
        own_key = keyed and idempotency_key is None
        if keyed:
            headers["Idempotency-Key"] = idempotency_key or _wire.new_idempotency_key()
        content = None
        if json is not None:
            content = _wire.encode(json)
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            # `params or None`: httpx drops a URL's own query (a media URL's signature) when given empty params
            request = self.http.build_request(method, url, content=content, params=_wire.query(params) or None,
                                              files=files, data=data, headers=headers)
            try:
                response = await self.http.send(request, stream=stream)
            except httpx.TransportError as error:
                wait = self.retry.delay(attempt, None)
                if wait is None:
                    raise _connection_error(error, request.url) from error
            else:
                if response.is_success:
                    return response
                await response.aread()  # a refusal's body is its small envelope (of a stream too)
                await response.aclose()
                wait = (self.retry.delay(attempt, _wire.retry_after(response))
                        if self.retry.retryable(response, own_key) else None)
                if wait is None:
                    raise _wire.api_error(response)
            await asyncio.sleep(wait)
            attempt += 1

    async def call(self, method: str, path: str, returns: type[T], **options: Any) -> T:
        """The answer decoded into `returns`, one of the API's Structs."""
        response = await self.send(method, path, **options)
        return _wire.decode(response.content, returns)

    async def raw(self, method: str, path: str, **options: Any) -> Any:
        """The answer as plain JSON values."""
        response = await self.send(method, path, **options)
        return msgspec.json.decode(response.content)

    async def walk(self, path: str, returns: type[Page[T]], params: Mapping[str, Any]) -> AsyncIterator[T]:
        """Every item of a list, page after page, following `next_cursor`."""
        cursor = None
        while True:
            page = await self.call("GET", path, returns, params={**params, "cursor": cursor})
            for item in page.data:
                yield item
            if not page.has_more or not page.next_cursor:
                return
            cursor = page.next_cursor

    async def download(self, url: str, target: str | Path, progress: Progress | None = None) -> int:
        """A media URL (signed: fetched without the key, as a player would) into a file; the bytes written."""
        response = await self.send("GET", url, stream=True, authenticated=False)
        total = int(response.headers.get("content-length", 0)) or None
        written = 0
        try:
            # Writes to a local file, a chunk at a time: each takes microseconds (the page cache), so no thread.
            with open(target, "wb") as out:  # noqa: ASYNC230
                async for chunk in response.aiter_bytes():
                    written += out.write(chunk)
                    if progress is not None:  # as sent, to compare with Content-Length
                        progress(response.num_bytes_downloaded, total)
        except httpx.TransportError as error:
            raise APIConnectionError(f"Downloading {url} broke off: {error}", error) from error
        finally:
            await response.aclose()
        return written

    async def aclose(self) -> None:
        if self._owns_http:
            await self.http.aclose()


class AsyncTurnStream:
    """A streamed text turn: iterating gives the reply's pieces as the engine writes them; `result` is the
    turn's `MessageResult` once the stream is done, and `text` the pieces so far joined.

        async with client.conversations.stream(conversation_id, "Hi!") as turn:
            async for piece in turn:
                print(piece, end="")
        print(turn.result.reply.content)

    Leaving early (break, an exception) closes the stream; the service then stores the reply as far as it got,
    marked interrupted. The request is retried like any POST until its stream begins, never after.
    """

    def __init__(self, transport: AsyncTransport, path: str, body: Any, idempotency_key: str | None) -> None:
        self._transport, self._path, self._body = transport, path, body
        self._idempotency_key = idempotency_key  # None: send() makes one, kept across its retries
        self._response: httpx.Response | None = None
        self._read = False
        self.pieces: list[str] = []
        self.result: MessageResult | None = None

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    async def __aenter__(self) -> AsyncTurnStream:
        await self._open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._pieces()

    async def until_done(self) -> MessageResult:
        """Reads the rest of the stream; the turn's result."""
        if self.result is None:
            async for _ in self:
                pass
        assert self.result is not None  # a stream that ends otherwise raises
        return self.result

    async def aclose(self) -> None:
        if self._response is not None:
            await self._response.aclose()

    async def _open(self) -> httpx.Response:
        if self._response is None:
            self._response = await self._transport.send("POST", self._path, json=self._body, stream=True,
                                                        idempotency_key=self._idempotency_key)
        return self._response

    async def _pieces(self) -> AsyncIterator[str]:
        if self._read:
            raise RuntimeError("A turn's stream can be read once")
        self._read = True
        response = await self._open()
        decoder = EventDecoder()
        try:
            async for line in response.aiter_lines():
                event = decoder.feed(line)
                piece = self._take(event) if event is not None else None
                if piece is not None:
                    yield piece
                if self.result is not None:
                    return
            event = decoder.end()
            if event is not None:
                self._take(event)
        except httpx.TransportError as error:
            raise IncompleteStreamError(str(error), error) from error
        finally:
            await self.aclose()
        if self.result is None:
            raise IncompleteStreamError("the stream ended before it was done")

    def _take(self, event: ServerSentEvent) -> str | None:
        """A delta's piece; records the result of `done`; raises the error of `error`."""
        if event.event == "delta":
            piece = _wire.decode(event.data.encode(), _Delta).content
            self.pieces.append(piece)
            return piece
        if event.event == "done":
            self.result = _wire.decode(event.data.encode(), MessageResult)
        elif event.event == "error":
            raise _wire.stream_error(event.data)
        return None


class _Delta(msgspec.Struct):
    content: str


def _connection_error(error: httpx.TransportError, url: httpx.URL) -> APIConnectionError:
    origin = f"{url.scheme}://{url.netloc.decode()}"
    if isinstance(error, httpx.TimeoutException):
        return APITimeoutError(f"No answer from {origin} in time: {error}", error)
    return APIConnectionError(f"Cannot reach {origin}: {error}", error)
