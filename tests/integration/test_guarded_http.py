"""The guarded outbound client against local servers: refusals decided at connect time (DNS), redirect re-checks,
size cap, timeouts, POST deliveries. (Refusals decided before any connection: tests/unit/delivery.)"""

from __future__ import annotations

import asyncio
import datetime as dt
import ipaddress
import ssl
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from avatar_service.adapters.guarded_http import (
    FetchRefused,
    GuardedHttp,
    IPAddress,
    policy_for,
)

LOOPBACK = ipaddress.ip_address("127.0.0.1")


class _Handler(BaseHTTPRequestHandler):
    received: list[tuple[str, dict[str, str], bytes]]

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass

    def _reply(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in {
            "Content-Type": "text/plain",
            "Content-Length": str(len(body)),
            **(headers or {}),
        }.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/ok":
            self._reply(200, b"hello")
        elif url.path == "/host":
            self._reply(200, self.headers["Host"].encode())
        elif url.path == "/redirect":
            self._reply(302, b"", {"Location": query["to"]})
        elif url.path == "/loop":
            self._reply(302, b"", {"Location": "/loop"})
        elif url.path == "/missing":
            self._reply(404, b"nope")
        elif url.path == "/declared-big":
            self._reply(200, b"x" * int(query["n"]))
        elif url.path == "/stream":
            # No Content-Length: the body ends when the connection closes, so only counting can cap it.
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            self.close_connection = True
            try:
                for _ in range(int(query["chunks"])):
                    self.wfile.write(b"y" * 65536)
            except OSError:
                pass  # the client hung up at the cap, as it should
        elif url.path == "/slow":
            time.sleep(float(query.get("s", "2")))
            self._reply(200, b"late")
        elif url.path == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b"z")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
        else:
            self._reply(404, b"")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        if self.path == "/hook":
            self._reply(200, b"received")
        elif self.path == "/hook-then-hang-up":  # keep-alive promised, connection closed anyway
            self._reply(200, b"received")
            self.close_connection = True
        elif self.path == "/hook-sets-cookie":
            self._reply(200, b"received", {"Set-Cookie": "session=org-a; Path=/"})
        elif self.path == "/hook-fails":
            self._reply(500, b"boom " * 1000)
        elif self.path == "/hook-moved":
            self._reply(307, b"", {"Location": "/hook"})
        elif self.path == "/hook-slow":
            time.sleep(2)
            self._reply(200, b"late")
        else:
            self._reply(404, b"")


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients hanging up mid-body (size cap, timeouts) are what these tests provoke


class _Server:
    def __init__(self, context: ssl.SSLContext | None = None) -> None:
        handler: Any = type("Handler", (_Handler,), {"received": []})
        self.received: list[tuple[str, dict[str, str], bytes]] = handler.received
        self.httpd = _QuietServer(("127.0.0.1", 0), handler)
        if context is not None:
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def url(self, path: str, host: str = "127.0.0.1", scheme: str = "http") -> str:
        return f"{scheme}://{host}:{self.port}{path}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    yield srv
    srv.close()


def fake_dns(table: dict[str, list[str]]):
    async def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError(f"unknown host {host}")
        return table[host]

    return resolve


def public_or_loopback(ip: IPAddress) -> bool:
    """Test policy: the local server (127.0.0.1) counts as public; everything else as in production."""
    return ip == LOOPBACK or policy_for(False)(ip)


def as_public_test(**kwargs: object) -> GuardedHttp:
    """A client for which the name public.test is a public host served by the local test server."""
    return GuardedHttp(
        address_policy=public_or_loopback,
        resolver=fake_dns({"public.test": ["127.0.0.1"], "inside.test": ["10.1.2.3"]}),
        **kwargs,  # type: ignore[arg-type]
    )


# --- refusals decided at connect time (DNS) ----------------------------------------------------------


@pytest.mark.parametrize(
    "answers",
    [
        ["127.0.0.1"],
        ["10.0.0.5"],
        ["169.254.169.254"],
        ["::1"],
        ["::ffff:192.168.0.1"],
        ["93.184.215.14", "10.0.0.1"],
    ],
)
async def test_a_name_resolving_to_a_forbidden_address_is_refused(answers: list[str]) -> None:
    client = GuardedHttp(resolver=fake_dns({"evil.test": answers}))
    with pytest.raises(FetchRefused) as refused:
        await client.fetch("http://evil.test/")
    assert refused.value.code == "url_not_allowed"


async def test_a_rebinding_name_is_resolved_once_and_that_answer_is_connected_to(server: _Server) -> None:
    # A rebinding DNS server answers "public" first and "inside" afterwards. The vetted answer must be the
    # one connected to: a second lookup (by the HTTP library, after our check) would get 10.0.0.1.
    lookups: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"] if len(lookups) == 1 else ["10.0.0.1"]

    client = GuardedHttp(address_policy=public_or_loopback, resolver=rebinding)
    fetched = await client.fetch(server.url("/ok", host="rebind.test"))
    assert fetched.body == b"hello"
    assert lookups == ["rebind.test"]


async def test_unresolvable_name_is_fetch_failed() -> None:
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(resolver=fake_dns({})).fetch("http://nowhere.test/")
    assert refused.value.code == "fetch_failed"


async def test_local_server_is_unreachable_without_allow_private(server: _Server) -> None:
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp().fetch(server.url("/ok"))
    assert refused.value.code == "url_not_allowed"
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp().post(server.url("/hook"), b"{}", {})
    assert refused.value.code == "url_not_allowed"
    assert server.received == []


# --- fetching ----------------------------------------------------------------------------------------


async def test_allow_private_fetches_a_local_server(server: _Server) -> None:
    fetched = await GuardedHttp(allow_private=True).fetch(server.url("/ok"))
    assert (fetched.status, fetched.body, fetched.content_type) == (200, b"hello", "text/plain")
    assert fetched.url_final == server.url("/ok")


async def test_connects_to_the_vetted_ip_but_keeps_the_host_header(server: _Server) -> None:
    fetched = await as_public_test().fetch(server.url("/host", host="public.test"))
    assert fetched.body == f"public.test:{server.port}".encode()


async def test_redirects_are_followed_and_each_hop_rechecked(server: _Server) -> None:
    client = as_public_test()
    fetched = await client.fetch(server.url("/redirect?to=/ok", host="public.test"))
    assert (fetched.body, fetched.url_final) == (b"hello", server.url("/ok", host="public.test"))
    for target in (
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://[::ffff:10.0.0.1]/",
        "http://0x0a000001/",
        f"http://inside.test:{server.port}/ok",  # a name that resolves inside
        "file:///etc/passwd",
        "ftp://public.test/",
    ):
        with pytest.raises(FetchRefused) as refused:
            await client.fetch(server.url(f"/redirect?to={target}", host="public.test"))
        assert refused.value.code == "url_not_allowed", target


async def test_redirect_from_an_allowed_host_to_a_local_one_is_refused(server: _Server) -> None:
    # Production policy, with an external name pointing at a redirector that sends us inside.
    redirector = _Server()
    try:
        client = GuardedHttp(
            address_policy=lambda ip: ip == LOOPBACK or policy_for(False)(ip),
            resolver=fake_dns({"public.test": ["127.0.0.1"], "localhost": ["::1"]}),
        )
        with pytest.raises(FetchRefused) as refused:
            await client.fetch(redirector.url("/redirect?to=http://localhost/admin", host="public.test"))
        assert refused.value.code == "url_not_allowed"
    finally:
        redirector.close()


async def test_too_many_redirects_is_fetch_failed(server: _Server) -> None:
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True, max_redirects=3).fetch(server.url("/loop"))
    assert refused.value.code == "fetch_failed"


async def test_http_error_status_is_fetch_failed(server: _Server) -> None:
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True).fetch(server.url("/missing"))
    assert refused.value.code == "fetch_failed"
    assert "404" in refused.value.message


async def test_connection_refused_is_fetch_failed(server: _Server) -> None:
    port = server.port
    server.close()
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True).fetch(f"http://127.0.0.1:{port}/ok")
    assert refused.value.code == "fetch_failed"


async def test_size_cap_on_a_streamed_body(server: _Server) -> None:
    client = GuardedHttp(allow_private=True, max_bytes=200_000)
    fetched = await client.fetch(server.url("/stream?chunks=3"))
    assert len(fetched.body) == 3 * 65536
    started = time.monotonic()
    with pytest.raises(FetchRefused) as refused:
        await client.fetch(server.url("/stream?chunks=100000"))  # 6.5 GB if it were read
    assert refused.value.code == "too_large"
    assert time.monotonic() - started < 5


async def test_size_cap_on_a_declared_length(server: _Server) -> None:
    client = GuardedHttp(allow_private=True, max_bytes=1000)
    assert len((await client.fetch(server.url("/declared-big?n=1000"))).body) == 1000
    with pytest.raises(FetchRefused) as refused:
        await client.fetch(server.url("/declared-big?n=1001"))
    assert refused.value.code == "too_large"


async def test_read_timeout_is_fetch_failed(server: _Server) -> None:
    started = time.monotonic()
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True, timeout=0.3).fetch(server.url("/slow?s=2"))
    assert refused.value.code == "fetch_failed"
    assert time.monotonic() - started < 1.5


async def test_a_dripping_server_hits_the_total_deadline(server: _Server) -> None:
    started = time.monotonic()
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True, timeout=1.0, total_timeout=0.5).fetch(server.url("/drip"))
    assert refused.value.code == "fetch_failed"
    assert time.monotonic() - started < 1.5


# --- TLS: SNI and certificate checked against the name, not the IP -------------------------------------


def _self_signed(tmp: Path, name: str) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


async def test_https_verifies_the_certificate_for_the_name(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path, "public.test")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    tls_server = _Server(server_context)
    try:
        trust = ssl.create_default_context(cafile=str(cert))
        url = tls_server.url("/host", "public.test", "https")
        fetched = await as_public_test(ssl_context=trust).fetch(url)
        assert fetched.body == f"public.test:{tls_server.port}".encode()
        # The same server reached by another name fails verification: the name, not the IP, is checked.
        other = GuardedHttp(
            address_policy=public_or_loopback,
            resolver=fake_dns({"other.test": ["127.0.0.1"]}),
            ssl_context=trust,
        )
        with pytest.raises(FetchRefused) as refused:
            await other.fetch(tls_server.url("/ok", "other.test", "https"))
        assert refused.value.code == "fetch_failed"
    finally:
        tls_server.close()


# --- POST deliveries ---------------------------------------------------------------------------------


async def test_post_delivers_and_reports_status_and_duration(server: _Server) -> None:
    client = GuardedHttp(allow_private=True)
    result = await client.post(server.url("/hook"), b'{"a":1}', {"webhook-id": "evt_1"}, timeout=2.0)
    assert (result.status, result.body_excerpt) == (200, "received")
    assert 0 <= result.duration_ms < 2000
    path, headers, body = server.received[0]
    assert (path, body, headers["webhook-id"]) == ("/hook", b'{"a":1}', "evt_1")
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"].startswith("avatar-service/")


async def test_post_returns_error_statuses_with_a_short_excerpt(server: _Server) -> None:
    result = await GuardedHttp(allow_private=True).post(server.url("/hook-fails"), b"{}", {}, timeout=2.0)
    assert result.status == 500
    assert result.body_excerpt.startswith("boom") and len(result.body_excerpt) <= 2048


async def test_post_does_not_follow_redirects(server: _Server) -> None:
    result = await GuardedHttp(allow_private=True).post(server.url("/hook-moved"), b"{}", {}, timeout=2.0)
    assert result.status == 307
    assert [path for path, _, _ in server.received] == ["/hook-moved"]


async def test_post_timeout_is_fetch_failed(server: _Server) -> None:
    started = time.monotonic()
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp(allow_private=True).post(server.url("/hook-slow"), b"{}", {}, timeout=0.3)
    assert refused.value.code == "fetch_failed"
    assert time.monotonic() - started < 1.5


# --- the pooled delivery client ------------------------------------------------------------------------


class _KeepAliveServer(_Server):
    """HTTP/1.1 with keep-alive: one connection may carry many POSTs; counts the connections it accepted."""

    def __init__(self) -> None:
        super().__init__()
        handler: Any = self.httpd.RequestHandlerClass
        handler.protocol_version = "HTTP/1.1"
        self.peers: set[tuple[str, int]] = set()
        original = handler.setup

        def setup(request_handler: BaseHTTPRequestHandler) -> None:
            self.peers.add(request_handler.client_address)
            original(request_handler)

        handler.setup = setup


async def test_posts_reuse_one_vetted_connection() -> None:
    srv = _KeepAliveServer()
    lookups: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["127.0.0.1"]

    client = GuardedHttp(address_policy=public_or_loopback, resolver=resolve)
    try:
        for n in range(5):
            result = await client.post(srv.url("/hook", host="public.test"), b"{}", {"webhook-id": f"m{n}"})
            assert result.status == 200
        assert len(srv.peers) == 1  # one connection carried all five
        assert lookups == ["public.test"]
    finally:
        await client.aclose()
        srv.close()


async def test_a_pooled_connection_the_server_closed_is_not_reused() -> None:
    srv = _KeepAliveServer()
    client = GuardedHttp(allow_private=True)
    try:
        for n in range(3):
            result = await client.post(srv.url("/hook-then-hang-up"), b"{}", {"webhook-id": f"m{n}"})
            assert result.status == 200
            await asyncio.sleep(0.05)  # the server's FIN arrives while the connection sits in the pool
        assert len(srv.peers) == 3
    finally:
        await client.aclose()
        srv.close()


async def test_the_pooled_client_keeps_no_cookies(server: _Server) -> None:
    client = GuardedHttp(allow_private=True)
    try:
        await client.post(server.url("/hook-sets-cookie"), b"{}", {})
        await client.post(server.url("/hook"), b"{}", {})
        assert "cookie" not in server.received[1][1]
    finally:
        await client.aclose()


async def test_pooled_client_refuses_a_private_peer_on_a_new_connection(
    server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test server closes every connection after one request (HTTP/1.0), so each POST opens a new one.
    # After a first delivery over the pool, the name is rebound to a private address: the next
    # connection is vetted again and refused, and nothing reaches the server.
    monkeypatch.setattr("avatar_service.adapters.guarded_http.client._DNS_CACHE_SECONDS", 0.0)
    answers = {"hook.test": ["127.0.0.1"]}
    client = GuardedHttp(address_policy=public_or_loopback, resolver=fake_dns(answers))
    try:
        assert (await client.post(server.url("/hook", host="hook.test"), b"{}", {})).status == 200
        for inside in (["10.0.0.7"], ["127.0.0.1", "169.254.169.254"], ["::ffff:192.168.0.1"]):
            answers["hook.test"] = inside
            with pytest.raises(FetchRefused) as refused:
                await client.post(server.url("/hook", host="hook.test"), b"{}", {})
            assert refused.value.code == "url_not_allowed", inside
        # Without allow_private the production policy refuses the loopback peer itself, pool or not.
        strict = GuardedHttp(resolver=fake_dns({"hook.test": ["127.0.0.1"]}))
        with pytest.raises(FetchRefused) as refused:
            await strict.post(server.url("/hook", host="hook.test"), b"{}", {})
        assert refused.value.code == "url_not_allowed"
        await strict.aclose()
        assert len(server.received) == 1
    finally:
        await client.aclose()


async def test_dns_cache_keeps_only_vetted_answers(server: _Server) -> None:
    lookups: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        lookups.append(host)
        return ["10.0.0.1"] if host == "inside.test" else ["127.0.0.1"]

    client = GuardedHttp(address_policy=public_or_loopback, resolver=resolve)
    try:
        for _ in range(2):  # a refused answer is never cached: each attempt asks again
            with pytest.raises(FetchRefused):
                await client.post(server.url("/hook", host="inside.test"), b"{}", {})
        for _ in range(3):  # a vetted answer is reused for the new connections of the next seconds
            assert (await client.post(server.url("/hook", host="public.test"), b"{}", {})).status == 200
        assert lookups == ["inside.test", "inside.test", "public.test"]
    finally:
        await client.aclose()


def test_the_pool_belongs_to_its_event_loop(server: _Server) -> None:
    client = GuardedHttp(allow_private=True)

    async def deliver() -> int:
        return (await client.post(server.url("/hook"), b"{}", {})).status

    assert asyncio.run(deliver()) == 200
    assert asyncio.run(deliver()) == 200  # a new loop gets a new pool, not the dead loop's connections

    async def deliver_and_close() -> None:
        await deliver()
        await client.aclose()
        assert await deliver() == 200  # after aclose, a new pool is opened on demand
        await client.aclose()

    asyncio.run(deliver_and_close())
    assert len(server.received) == 4
