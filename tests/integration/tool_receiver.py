"""A personality's tool as its owner would serve it: an HTTPS endpoint on loopback (a certificate from the tests'
own authority) that checks each call's Standard Webhooks signature with the `standardwebhooks` package."""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook

from .tls_authority import Authority

# What the tool answers: (status, body bytes, seconds to wait first).
Reply = tuple[int, bytes, float]


@dataclass
class ToolReceiver:
    ca: Authority
    reply: Callable[[dict[str, Any]], Reply] = lambda call: (200, b'{"temperature": 21, "sky": "clear"}', 0.0)
    secret: str | None = None  # the personality's tools_secret, once known
    calls: list[dict[str, Any]] = field(default_factory=list)  # verified calls' bodies
    refused: list[str] = field(default_factory=list)  # why a signature did not check out

    def __post_init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._server.socket = self.ca.server_context().wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def url(self, host: str = "127.0.0.1") -> str:
        return f"https://{host}:{self.port}/tools/weather"

    def __enter__(self) -> ToolReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _handler(receiver: ToolReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            try:
                if receiver.secret is None:
                    raise ValueError("no secret yet")
                Webhook(receiver.secret).verify(body, {k.lower(): v for k, v in self.headers.items()})
            except Exception as error:  # any failure to verify is a refusal
                receiver.refused.append(str(error))
                self._answer(401, b'{"error": "bad signature"}')
                return
            call = json.loads(body)
            receiver.calls.append(call)
            status, payload, wait = receiver.reply(call)
            if wait:
                time.sleep(wait)
            self._answer(status, payload)

        def _answer(self, status: int, payload: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                pass  # the caller gave up waiting

    return Handler
