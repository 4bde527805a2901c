"""The network backend that vets each connection: resolve once, refuse a forbidden address, connect to
the vetted IP literal (so the address checked is exactly the address connected to)."""

from __future__ import annotations

import ipaddress
import select
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable

import anyio
import httpcore

from avatar_service.adapters.guarded_http.addresses import AddressPolicy, IPAddress, address_category, parse_ip_literal
from avatar_service.adapters.guarded_http.errors import FetchRefused

Resolver = Callable[[str, int], Awaitable[list[str]]]


async def system_resolver(host: str, port: int) -> list[str]:
    """Resolve with the system resolver in a worker thread (getaddrinfo blocks)."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class VettingBackend(httpcore.AsyncNetworkBackend):
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
                return PolledStream(stream)
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


class PolledStream(httpcore.AsyncNetworkStream):
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
        return PolledStream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

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
