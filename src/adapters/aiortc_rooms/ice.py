"""Extra ICE host addresses for aiortc: aioice never gathers loopback, so local rooms need it added."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

import aioice.ice

# aioice builds host candidates from `get_host_addresses` and leaves out 127.0.0.1 (RFC 8445 5.1.1.1 says
# loopback MUST NOT be gathered). A service on a laptop, a test on loopback or a container whose only route
# to the browser is a forwarded port needs it anyway, and aiortc exposes no option for it; wrapping the one
# function aioice calls is the narrowest hook. The wrapper is process-wide and only ever adds addresses.
_EXTRA: list[str] = []
_ORIGINAL: Any = aioice.ice.get_host_addresses


def _with_extra(use_ipv4: bool, use_ipv6: bool) -> list[str]:
    found: list[str] = list(_ORIGINAL(use_ipv4=use_ipv4, use_ipv6=use_ipv6))
    for address in _EXTRA:
        version = ipaddress.ip_address(address).version
        if address not in found and ((version == 4 and use_ipv4) or (version == 6 and use_ipv6)):
            found.append(address)
    return found


def add_host_addresses(addresses: Iterable[str]) -> None:
    """Also offer these local addresses as ICE host candidates (e.g. "127.0.0.1")."""
    for address in addresses:
        address = str(ipaddress.ip_address(address.strip()))  # rejects anything that is not an address
        if address not in _EXTRA:
            _EXTRA.append(address)
    if _EXTRA and aioice.ice.get_host_addresses is not _with_extra:
        aioice.ice.get_host_addresses = _with_extra


def is_loopback_url(url: str) -> bool:
    """True when the service's public URL names this machine only (a local deployment or a test)."""
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
