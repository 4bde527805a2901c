"""Address policy: which IP addresses an outbound connection may reach.

Addresses are classified from explicit tables (not only ``ipaddress.is_global``, whose answers changed
between Python patch releases), after unwrapping IPv6 forms that carry an IPv4 address (mapped,
translated, compatible, NAT64, 6to4), so ``::ffff:127.0.0.1`` counts as loopback. Odd IPv4 spellings
(``2130706433``, ``0177.0.0.1``, ``0x7f.1``) are read with ``inet_aton`` semantics, as the system
resolver would read them.
"""

import ipaddress
import socket
from collections.abc import Callable

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
AddressPolicy = Callable[[IPAddress], bool]


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
