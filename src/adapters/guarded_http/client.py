"""``GuardedHttp``: outbound GETs (fetch, redirects re-checked hop by hop, size and time capped) and webhook
POSTs (pooled keep-alive connections), every connection through the vetting backend."""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import anyio
import httpcore
import httpx

from avatar_service.adapters.guarded_http.addresses import (
    AddressPolicy,
    address_category,
    parse_ip_literal,
    policy_for,
)
from avatar_service.adapters.guarded_http.backend import Resolver, VettingBackend, system_resolver
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.adapters.guarded_http.pool import DeliveryPool
from avatar_service.adapters.guarded_http.transport import VettingTransport

DEFAULT_USER_AGENT = "avatar-service/0.1"
_EXCERPT_BYTES = 2048
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DNS_CACHE_SECONDS = 5.0  # how long a vetted answer is reused for new connections to the same (host, port)
_POOL_CONNECTIONS = 100  # delivery connections per event loop, over all endpoints
_KEEPALIVE_SECONDS = 15.0  # below the usual server idle timeouts (nginx 75 s, Node 5 s is the odd one out)


@dataclass(frozen=True, slots=True)
class Fetched:
    url_final: str
    status: int
    content_type: str | None
    body: bytes


@dataclass(frozen=True, slots=True)
class PostResult:
    status: int
    body_excerpt: str
    duration_ms: int
    body: bytes = b""  # the answer's first `keep_bytes` bytes
    truncated: bool = False  # the answer went on past `keep_bytes` (and was not read further)


class GuardedHttp:
    """Outbound GETs (knowledge, media) and POSTs (webhook deliveries) that cannot reach inside."""

    def __init__(
        self,
        allow_private: bool = False,
        max_bytes: int = 20 * 1024 * 1024,
        timeout: float = 10.0,
        max_redirects: int = 5,
        user_agent: str = DEFAULT_USER_AGENT,
        *,
        total_timeout: float = 60.0,
        address_policy: AddressPolicy | None = None,
        resolver: Resolver | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.allow_private = allow_private
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.total_timeout = total_timeout
        self.max_redirects = max_redirects
        self.user_agent = user_agent
        self._policy = address_policy or policy_for(allow_private)
        self._resolver = resolver or system_resolver
        # Loading the CA store costs milliseconds; do it once, not per request. A caller may bring its own
        # context (a private CA on a trusted network, a test CA).
        self._ssl_context = ssl_context or httpx.create_ssl_context()
        # Connections belong to the loop that opened them: one pool per loop, dropped with its loop.
        self._pools: WeakKeyDictionary[asyncio.AbstractEventLoop, DeliveryPool] = WeakKeyDictionary()
        self._checked_urls: dict[str, httpx.URL] = {}

    def _client(self, timeout: float) -> httpx.AsyncClient:
        # A fresh client per fetch: documents and media are few, and gain little from keep-alive.
        backend = VettingBackend(self._policy, self._resolver)
        return httpx.AsyncClient(
            transport=VettingTransport(self._ssl_context, backend),
            timeout=httpx.Timeout(timeout),
            follow_redirects=False,
            trust_env=False,
            headers={"User-Agent": self.user_agent},
        )

    def _pooled(self) -> DeliveryPool:
        """The running loop's long-lived delivery connections (keep-alive; every new connection vetted)."""
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            pool = self._pools[loop] = DeliveryPool(
                ssl_context=self._ssl_context,
                max_connections=_POOL_CONNECTIONS,
                max_keepalive_connections=_POOL_CONNECTIONS,
                keepalive_expiry=_KEEPALIVE_SECONDS,
                network_backend=VettingBackend(self._policy, self._resolver, cache_seconds=_DNS_CACHE_SECONDS),
                retries=0,
            )
        return pool

    def _checked_delivery_url(self, url: str) -> httpx.URL:
        """``_check_url`` remembered per URL string: a delivery goes to one of a few endpoints' URLs."""
        checked = self._checked_urls.get(url)
        if checked is None:
            checked = self._check_url(url)  # refusals raise and are not remembered
            if len(self._checked_urls) >= 1024:
                self._checked_urls.clear()
            self._checked_urls[url] = checked
        return checked

    async def aclose(self) -> None:
        """Closes the running loop's delivery connections (at shutdown); the next ``post`` opens new ones."""
        pool = self._pools.pop(asyncio.get_running_loop(), None)
        if pool is not None:
            await pool.aclose()

    def _check_url(self, url: str | httpx.URL) -> httpx.URL:
        """Scheme and literal-address checks, before any connection is attempted.

        The URL is parsed by httpx, the parser whose reading is then used to connect, so the two cannot
        disagree about the host. Names are vetted later, at connect time, against what they resolve to.
        """
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise FetchRefused("url_not_allowed", f"malformed URL: {exc}") from None
        if parsed.scheme not in ("http", "https"):
            raise FetchRefused("url_not_allowed", f"scheme {parsed.scheme or '(none)'!r} is not http(s)")
        if not parsed.host:
            raise FetchRefused("url_not_allowed", "URL has no host")
        literal = parse_ip_literal(parsed.host)
        if literal is not None and not self._policy(literal):
            raise FetchRefused("url_not_allowed", f"{parsed.host!r} is a {address_category(literal)} address")
        return parsed

    async def fetch(self, url: str) -> Fetched:
        """GET ``url``, following up to ``max_redirects`` redirects, each hop re-checked."""
        try:
            with anyio.fail_after(self.total_timeout):
                async with self._client(self.timeout) as client:
                    return await self._fetch(client, self._check_url(url))
        except TimeoutError:
            raise FetchRefused("fetch_failed", f"gave up after {self.total_timeout:g} s") from None
        except httpx.TimeoutException as exc:
            raise FetchRefused("fetch_failed", f"timed out: {type(exc).__name__}") from None
        except httpx.HTTPError as exc:
            raise FetchRefused("fetch_failed", f"{type(exc).__name__}: {exc}") from None

    async def _fetch(self, client: httpx.AsyncClient, url: httpx.URL) -> Fetched:
        request = client.build_request("GET", url)
        for _hop in range(self.max_redirects + 1):
            response = await client.send(request, stream=True)
            try:
                if response.status_code in _REDIRECT_STATUSES and response.next_request is not None:
                    request = response.next_request
                    self._check_url(request.url)
                    continue
                if response.status_code >= 400:
                    raise FetchRefused("fetch_failed", f"{request.url} answered HTTP {response.status_code}")
                body = await self._read_capped(response)
                return Fetched(
                    url_final=str(response.url),
                    status=response.status_code,
                    content_type=response.headers.get("content-type"),
                    body=body,
                )
            finally:
                await response.aclose()
        raise FetchRefused("fetch_failed", f"more than {self.max_redirects} redirects")

    async def _read_capped(self, response: httpx.Response) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise FetchRefused("too_large", f"body of {declared} bytes exceeds {self.max_bytes}")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():  # decoded bytes: the cap also bounds gzip bombs
            size += len(chunk)
            if size > self.max_bytes:
                raise FetchRefused("too_large", f"body exceeds {self.max_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    async def post(
        self,
        url: str,
        content: bytes,
        headers: Mapping[str, str],
        timeout: float | None = None,  # noqa: ASYNC109 - the per-attempt limit the delivery log records
        *,
        keep_bytes: int = _EXCERPT_BYTES,
    ) -> PostResult:
        """POST once, never following redirects; any HTTP status is returned, not raised. At most `keep_bytes`
        of the answer are read (a delivery keeps an excerpt for its log; a tool call needs its whole answer).

        Straight on the pooled httpcore connections: a delivery needs none of httpx's client layer (redirects,
        cookies, auth, content decoding), which cost about as much CPU as the HTTP exchange itself.
        """
        limit = self.timeout if timeout is None else timeout
        started = time.perf_counter()
        checked = self._checked_delivery_url(url)
        request = httpcore.Request(
            b"POST",
            httpcore.URL(scheme=checked.raw_scheme, host=checked.raw_host, port=checked.port, target=checked.raw_path),
            headers=[
                (b"Host", checked.netloc),
                (b"User-Agent", self.user_agent.encode()),
                (b"Content-Type", b"application/json"),
                (b"Content-Length", str(len(content)).encode()),
                *((name.encode(), value.encode()) for name, value in headers.items()),
            ],
            content=content,
            extensions={"timeout": {"connect": limit, "read": limit, "write": limit, "pool": limit}},
        )
        try:
            with anyio.fail_after(limit):
                response = await self._pooled().handle_async_request(request)
                try:
                    body = await self._read_up_to(response, keep_bytes)
                finally:
                    await response.aclose()
        except TimeoutError:
            raise FetchRefused("fetch_failed", f"no answer within {limit:g} s") from None
        except httpcore.TimeoutException as exc:
            raise FetchRefused("fetch_failed", f"timed out: {type(exc).__name__}") from None
        except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol) as exc:
            raise FetchRefused("fetch_failed", f"{type(exc).__name__}: {exc}") from None
        return PostResult(
            status=response.status,
            body_excerpt=body[:_EXCERPT_BYTES].decode("utf-8", errors="replace"),
            duration_ms=round((time.perf_counter() - started) * 1000),
            body=body[:keep_bytes],
            truncated=len(body) > keep_bytes,
        )

    @staticmethod
    async def _read_up_to(response: httpcore.Response, limit: int) -> bytes:
        """At most `limit` + 1 bytes of the answer (one more tells that it went on); never more is read."""
        buffer = b""
        async for chunk in response.aiter_stream():
            buffer += chunk
            if len(buffer) > limit:
                break
        return buffer[: limit + 1]
