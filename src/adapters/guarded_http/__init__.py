"""The one outbound HTTP client: refuses private, loopback and metadata addresses (SSRF guard).

How the guard works, and why this way
-------------------------------------
Checking a URL's host and then handing the URL to an HTTP client leaves a gap: the client resolves the
name again, and a hostile DNS server can answer with a public address for the check and with 127.0.0.1
for the connection (DNS rebinding). So the check lives where the socket is opened. httpx sits on
httpcore, whose connection pool opens every TCP connection through a pluggable *network backend*.
``VettingBackend.connect_tcp`` receives the URL's host name, resolves it once itself (off the event
loop), refuses the connection if ANY resolved address is forbidden, and then connects to the vetted IP
literal, so the address checked is exactly the address connected to. httpcore still takes the TLS
server name (SNI and certificate check) from the request's origin, and httpx still writes the ``Host``
header from the URL, so virtual hosting and HTTPS work unchanged.

Everything else is plain httpx: ``trust_env=False`` so no environment proxy can stand between the check
and the target (the check would then vet the proxy, not the target); redirects are never followed by
httpx but hop by hop here, each new URL re-checked (its connection goes through the same backend); the
body is streamed and abandoned past ``max_bytes``; every call runs under a wall-clock deadline, so a
server dripping one byte at a time cannot hold a worker forever.

Addresses are classified from explicit tables (``addresses.py``), IPv6 forms carrying IPv4 unwrapped.

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

The layers, one file each, from the bottom: ``addresses.py`` (which IPs are allowed), ``backend.py`` (the
httpcore network backend that resolves and vets), ``pool.py`` (the delivery pool), ``transport.py`` (httpx's
transport on the vetting backend), ``client.py`` (``GuardedHttp``); ``fetcher.py``, ``sender.py`` and
``tools.py`` put the Fetcher, WebhookSender and ToolCaller ports on it.
"""

from avatar_service.adapters.guarded_http.addresses import (
    AddressPolicy,
    IPAddress,
    address_category,
    parse_ip_literal,
    policy_for,
)
from avatar_service.adapters.guarded_http.backend import Resolver
from avatar_service.adapters.guarded_http.client import Fetched, GuardedHttp, PostResult
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.adapters.guarded_http.fetcher import GuardedFetcher
from avatar_service.adapters.guarded_http.sender import GuardedSender
from avatar_service.adapters.guarded_http.tools import GuardedToolCaller

__all__ = [
    "AddressPolicy",
    "FetchRefused",
    "Fetched",
    "GuardedFetcher",
    "GuardedHttp",
    "GuardedSender",
    "GuardedToolCaller",
    "IPAddress",
    "PostResult",
    "Resolver",
    "address_category",
    "parse_ip_literal",
    "policy_for",
]
