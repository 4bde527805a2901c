"""httpx's transport with its connection pool swapped for one that connects through the vetting backend."""

import ssl

import httpcore
import httpx

from avatar_service.adapters.guarded_http.backend import VettingBackend


class VettingTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport, with its connection pool opening sockets through ``VettingBackend``.

    httpx has no public parameter for the network backend, so the pool httpx built is replaced by one
    with the same TLS context and our backend; the guard below fails loudly (rather than silently
    connecting unvetted) if a future httpx renames the attribute. Request/response conversion and
    exception mapping stay httpx's own.
    """

    def __init__(self, ssl_context: ssl.SSLContext, backend: VettingBackend) -> None:
        super().__init__(verify=ssl_context, trust_env=False, retries=0)
        if not isinstance(getattr(self, "_pool", None), httpcore.AsyncConnectionPool):
            raise RuntimeError("httpx internals changed: cannot install the vetting network backend")
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context, max_connections=10, network_backend=backend, retries=0
        )
