"""The one outbound HTTP client: refuses private, loopback and metadata addresses (SSRF guard).

How the guard works, and why this way
-------------------------------------
Checking a URL's host and then handing the URL to an HTTP client leaves a gap: the client resolves the
name again, and a hostile DNS server can answer with a public address for the check and with 127.0.0.1
for the connection (DNS rebinding). So the check lives where the socket is opened. httpx sits on
httpcore, whose connection pool opens every TCP connection through a pluggable *network backend*.
``_VettingBackend.connect_tcp`` receives the URL's host name, resolves it once itself (off the event
loop), refuses the connection if ANY resolved address is forbidden, and then connects to the vetted IP
literal, so the address checked is exactly the address connected to. httpcore still takes the TLS
server name (SNI and certificate check) from the request's origin, and httpx still writes the ``Host``
header from the URL, so virtual hosting and HTTPS work unchanged.

Everything else is plain httpx: ``trust_env=False`` so no environment proxy can stand between the check
and the target (the check would then vet the proxy, not the target); redirects are never followed by
httpx but hop by hop here, each new URL re-checked (its connection goes through the same backend); the
body is streamed and abandoned past ``max_bytes``; every call runs under a wall-clock deadline, so a
server dripping one byte at a time cannot hold a worker forever.

Addresses are classified from explicit tables (not only ``ipaddress.is_global``, whose answers changed
between Python patch releases), after unwrapping IPv6 forms that carry an IPv4 address (mapped,
translated, compatible, NAT64, 6to4), so ``::ffff:127.0.0.1`` counts as loopback. Odd IPv4 spellings
(``2130706433``, ``0177.0.0.1``, ``0x7f.1``) are read with ``inet_aton`` semantics, as the system
resolver would read them.

Deliveries (``post``) reuse connections: one httpcore pool per event loop (on the same vetting backend),
opened on first use and closed by ``aclose()`` at shutdown; POSTs go to it directly, without httpx's client
layer, whose redirects, cookies and decoding a delivery does not want. Reuse leaves the guard whole, because
a pooled connection was vetted when it was opened (through the same backend) and stays connected to that
vetted address; a pool keys connections by scheme, host and port, so a request never rides a connection
opened for another origin. Name lookups are cached for a few seconds per (host, port), and only answers that
passed the policy are cached; the address connected to is checked against the policy again at connect time
whatever the cache says, so the cache can make a connection go to an address that was vetted a moment ago,
never to one that was not.
``fetch`` keeps a client per call: documents and media are few, and redirects cross hosts.

Tests and trusted networks pass ``allow_private=True`` (``AVATAR_ALLOW_PRIVATE_URLS``) to let loopback,
RFC 1918, CGNAT and IPv6 unique-local through; link-local, cloud metadata, multicast, unspecified and
reserved addresses stay refused even then. ``address_policy``, ``resolver`` and ``ssl_context`` are
injectable so tests can map a fake public name to a local server (and trust its certificate).
"""

from __future__ import annotations

import asyncio
import ipaddress
import select
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal
from weakref import WeakKeyDictionary

import anyio
import httpcore
import httpx

__all__ = [
    "AddressPolicy",
    "FetchRefused",
    "Fetched",
    "GuardedHttp",
    "IPAddress",
    "PostResult",
    "Resolver",
    "address_category",
    "parse_ip_literal",
    "policy_for",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
AddressPolicy = Callable[[IPAddress], bool]
Resolver = Callable[[str, int], Awaitable[list[str]]]
RefusalCode = Literal["url_not_allowed", "fetch_failed", "too_large"]

DEFAULT_USER_AGENT = "avatar-service/0.1"
_EXCERPT_BYTES = 2048
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DNS_CACHE_SECONDS = 5.0  # how long a vetted answer is reused for new connections to the same (host, port)
_POOL_CONNECTIONS = 100  # delivery connections per event loop, over all endpoints
_KEEPALIVE_SECONDS = 15.0  # below the usual server idle timeouts (nginx 75 s, Node 5 s is the odd one out)


class FetchRefused(Exception):
    """An outbound request was refused or failed; ``code`` is part of the public API."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: RefusalCode = code
        self.message = message


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


# --- address classification -------------------------------------------------------------------------


def _nets(*cidrs: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(c) for c in cidrs)


# Checked first: cloud instance-metadata endpoints stay refused even with allow_private.
_METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "fd00:ec2::23")
)
# Order matters: the first matching table names the category.
_V4_TABLE: tuple[tuple[str, tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]], ...] = (
    ("unspecified", _nets("0.0.0.0/8")),
    ("loopback", _nets("127.0.0.0/8")),
    ("private", _nets("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")),
    ("cgnat", _nets("100.64.0.0/10")),
    ("link_local", _nets("169.254.0.0/16")),
    ("multicast", _nets("224.0.0.0/4")),
    (
        "reserved",
        _nets(
            "192.0.0.0/24",
            "192.0.2.0/24",
            "192.88.99.0/24",
            "198.18.0.0/15",
            "198.51.100.0/24",
            "203.0.113.0/24",
            "240.0.0.0/4",
        ),
    ),
)
_V6_TABLE: tuple[tuple[str, tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]], ...] = (
    ("unspecified", _nets("::/128")),
    ("loopback", _nets("::1/128")),
    ("unique_local", _nets("fc00::/7")),
    ("private", _nets("fec0::/10", "64:ff9b:1::/48")),  # deprecated site-local; local-use NAT64
    ("link_local", _nets("fe80::/10")),
    ("multicast", _nets("ff00::/8")),
    ("reserved", _nets("100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16")),
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_V4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # RFC 2765 "IPv4-translated"
_V4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d
_PRIVATE_OK = frozenset({"loopback", "private", "cgnat", "unique_local"})


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for, where the packet would really go to it."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _NAT64 or ip in _V4_TRANSLATED:
        return low32
    if ip in _V4_COMPATIBLE and int(ip) > 1:  # :: and ::1 are themselves, not IPv4
        return low32
    return None


def address_category(ip: IPAddress) -> str | None:
    """Why an address is not a public unicast one (``"loopback"``, ``"metadata"``...), or None if it is."""
    if isinstance(ip, ipaddress.IPv6Address):
        ip = ip if ip.scope_id is None else ipaddress.IPv6Address(int(ip))
        v4 = _embedded_v4(ip)
        if v4 is not None:
            return address_category(v4)
    if ip in _METADATA:
        return "metadata"
    for category, nets in _V4_TABLE if ip.version == 4 else _V6_TABLE:
        if any(ip in net for net in nets):
            return category
    # A backstop for ranges the tables above do not name (the stdlib's special-purpose registry).
    if ip.is_multicast:
        return "multicast"
    if not ip.is_global or ip.is_reserved:
        return "reserved"
    return None


def policy_for(allow_private: bool) -> AddressPolicy:
    """The default policy: public unicast only, or also loopback/private when ``allow_private``."""
    if allow_private:
        return lambda ip: address_category(ip) in (None, *_PRIVATE_OK)
    return lambda ip: address_category(ip) is None


def parse_ip_literal(host: str) -> IPAddress | None:
    """The address a host string denotes by itself, reading odd IPv4 spellings as ``inet_aton`` does."""
    host = host.strip("[]")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    # Decimal, octal, hex and shortened dotted forms (2130706433, 0177.0.0.1, 0x7f.1, 127.1) are
    # numeric hosts to the system resolver; read them the same way so none slips past as a "name".
    if host and all(c in "0123456789abcdefxABCDEFX." for c in host) and host[0].isdigit():
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


async def system_resolver(host: str, port: int) -> list[str]:
    """Resolve with the system resolver in a worker thread (getaddrinfo blocks)."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


# --- the network backend that vets each connection ------------------------------------------------


class _VettingBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, policy: AddressPolicy, resolver: Resolver, cache_seconds: float = 0.0) -> None:
        self._policy = policy
        self._resolver = resolver
        self._inner = httpcore.AnyIOBackend()
        self._cache_seconds = cache_seconds
        self._cache: dict[tuple[str, int], tuple[float, list[IPAddress]]] = {}

    async def vetted_addresses(self, host: str, port: int) -> list[IPAddress]:
        literal = parse_ip_literal(host)
        if literal is not None:
            addresses = [literal]
        else:
            cached = self._cache.get((host, port))
            if cached is not None and cached[0] > time.monotonic():
                addresses = cached[1]
            else:
                addresses = await self._resolve(host, port)
        # Refuse if any answer is forbidden: a name that points inside at all is not a public name.
        for ip in addresses:
            if not self._policy(ip):
                raise FetchRefused(
                    "url_not_allowed", f"{host!r} resolves to a {address_category(ip) or 'refused'} address"
                )
        if literal is None and self._cache_seconds > 0:  # only answers that passed are kept
            if len(self._cache) > 1024:
                self._cache.clear()
            self._cache[(host, port)] = (time.monotonic() + self._cache_seconds, addresses)
        return addresses

    async def _resolve(self, host: str, port: int) -> list[IPAddress]:
        try:
            addresses = [ipaddress.ip_address(a) for a in await self._resolver(host, port)]
        except (OSError, ValueError) as exc:
            raise FetchRefused("fetch_failed", f"cannot resolve {host!r}: {exc}") from None
        if not addresses:
            raise FetchRefused("fetch_failed", f"cannot resolve {host!r}: no addresses")
        return addresses

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's backend interface
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        last_error: Exception | None = None
        for ip in await self.vetted_addresses(host, port):
            if not self._policy(ip):  # authoritative, whatever a cache or a caller said before
                raise FetchRefused("url_not_allowed", f"{ip} is a {address_category(ip) or 'refused'} address")
            try:
                # An IP literal: the inner backend connects to exactly this address, no second lookup.
                stream = await self._inner.connect_tcp(
                    str(ip), port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
                return _Stream(stream)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last_error = exc
        assert last_error is not None
        raise last_error

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's backend interface
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise FetchRefused("url_not_allowed", "unix sockets are not reachable through this client")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _Stream(httpcore.AsyncNetworkStream):
    """httpcore's stream with the raw socket looked up once.

    A pool asks each idle connection whether its socket is readable (closed by the server) every time it
    assigns a request; through anyio's typed attributes that lookup cost more than the poll itself.
    """

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket: socket.socket | None = inner.get_extra_info("socket")

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's stream interface
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> object:
        if info == "socket":
            return self._socket
        if info == "is_readable":
            # As httpcore decides it: a socket without a descriptor reads as b"" at once.
            if self._socket is None or self._socket.fileno() < 0:
                return True
            poll = select.poll()
            poll.register(self._socket, select.POLLIN)
            return bool(poll.poll(0))
        return self._inner.get_extra_info(info)


class _Pool(httpcore.AsyncConnectionPool):
    """httpcore's pool with request assignment in linear time, and idle sockets polled lazily.

    httpcore 1.0's ``_assign_requests_to_connections`` counts the idle connections once per idle
    connection, scans every connection for every queued request and polls every idle socket each time:
    with the few dozen keep-alive connections of a delivery burst that was a third of the worker's CPU.
    Here an idle connection is checked (keep-alive expiry, closed by the server) when it is about to be
    reused, and all of them at most once a second; the decisions are httpcore's. If a future httpcore
    renames the method, this override is simply never called.
    """

    _SWEEP_SECONDS = 1.0
    _swept_at = 0.0

    def _assign_requests_to_connections(self) -> list[httpcore.AsyncConnectionInterface]:
        closing: list[httpcore.AsyncConnectionInterface] = []
        now = time.monotonic()
        # Closed and expired connections are dropped once a second, or at once when the pool is full; in
        # between they are merely unavailable (a closed connection never is; an idle one is checked below).
        if now - self._swept_at >= self._SWEEP_SECONDS or len(self._connections) >= self._max_connections:
            self._swept_at = now
            idle = 0
            for connection in list(self._connections):
                if connection.is_closed():
                    self._connections.remove(connection)
                elif connection.has_expired() or (
                    connection.is_idle() and idle >= self._max_keepalive_connections
                ):
                    self._connections.remove(connection)
                    closing.append(connection)
                elif connection.is_idle():
                    idle += 1
        queued = [request for request in self._requests if request.is_queued()]
        available: dict[tuple[bytes, bytes, int], list[httpcore.AsyncConnectionInterface]] = {}
        for pool_request in queued:
            origin = pool_request.request.url.origin
            key = (origin.scheme, origin.host, origin.port)  # Origin itself is not hashable
            if key not in available:
                available[key] = [c for c in self._connections if c.can_handle_request(origin) and c.is_available()]
            reusable = available[key]
            while reusable and reusable[0].is_idle() and reusable[0].has_expired():  # checked before reuse
                self._connections.remove(reusable[0])
                closing.append(reusable.pop(0))
            if reusable:
                pool_request.assign_to_connection(reusable.pop(0))
                continue
            if len(self._connections) >= self._max_connections:
                idle_connections = [c for c in self._connections if c.is_idle()]
                if not idle_connections:
                    continue  # stays queued until a connection frees up
                self._connections.remove(idle_connections[0])
                closing.append(idle_connections[0])
            connection = self.create_connection(origin)
            self._connections.append(connection)
            pool_request.assign_to_connection(connection)
        return closing


class _VettingTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport, with its connection pool opening sockets through ``_VettingBackend``.

    httpx has no public parameter for the network backend, so the pool httpx built is replaced by one
    with the same TLS context and our backend; the guard below fails loudly (rather than silently
    connecting unvetted) if a future httpx renames the attribute. Request/response conversion and
    exception mapping stay httpx's own.
    """

    def __init__(self, ssl_context: ssl.SSLContext, backend: _VettingBackend) -> None:
        super().__init__(verify=ssl_context, trust_env=False, retries=0)
        if not isinstance(getattr(self, "_pool", None), httpcore.AsyncConnectionPool):
            raise RuntimeError("httpx internals changed: cannot install the vetting network backend")
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context, max_connections=10, network_backend=backend, retries=0
        )


# --- the client -------------------------------------------------------------------------------------


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
        self._pools: WeakKeyDictionary[asyncio.AbstractEventLoop, _Pool] = WeakKeyDictionary()
        self._checked_urls: dict[str, httpx.URL] = {}

    def _client(self, timeout: float) -> httpx.AsyncClient:
        # A fresh client per fetch: documents and media are few, and gain little from keep-alive.
        backend = _VettingBackend(self._policy, self._resolver)
        return httpx.AsyncClient(
            transport=_VettingTransport(self._ssl_context, backend),
            timeout=httpx.Timeout(timeout),
            follow_redirects=False,
            trust_env=False,
            headers={"User-Agent": self.user_agent},
        )

    def _pooled(self) -> _Pool:
        """The running loop's long-lived delivery connections (keep-alive; every new connection vetted)."""
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            pool = self._pools[loop] = _Pool(
                ssl_context=self._ssl_context,
                max_connections=_POOL_CONNECTIONS,
                max_keepalive_connections=_POOL_CONNECTIONS,
                keepalive_expiry=_KEEPALIVE_SECONDS,
                network_backend=_VettingBackend(self._policy, self._resolver, cache_seconds=_DNS_CACHE_SECONDS),
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
    ) -> PostResult:
        """POST once, never following redirects; any HTTP status is returned, not raised.

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
                    excerpt = await self._excerpt(response)
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
            body_excerpt=excerpt,
            duration_ms=round((time.perf_counter() - started) * 1000),
        )

    @staticmethod
    async def _excerpt(response: httpcore.Response) -> str:
        # Receivers' bodies are only kept for the delivery log; never read more than the excerpt.
        buffer = b""
        async for chunk in response.aiter_stream():
            buffer += chunk
            if len(buffer) >= _EXCERPT_BYTES:
                break
        return buffer[:_EXCERPT_BYTES].decode("utf-8", errors="replace")
