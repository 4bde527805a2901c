"""The guarded outbound client's address policy, and the URLs it refuses before any connection is attempted."""

from __future__ import annotations

import ipaddress

import pytest

from avatar_service.adapters.guarded_http import (
    FetchRefused,
    GuardedHttp,
    address_category,
    parse_ip_literal,
    policy_for,
)

# --- refusals, before any connection ------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.8.9.10:8080/x",
        "http://10.0.0.1/",
        "http://172.16.0.1/",
        "http://172.31.255.254/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://169.254.1.1/",
        "http://100.64.0.1/",
        "http://100.100.100.200/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::ffff:169.254.169.254]/",
        "http://[64:ff9b::10.0.0.1]/",
        "http://[2002:7f00:1::]/",
        "http://[fd00:ec2::254]/",
        "http://[fc00::1]/",
        "http://[fe80::1]/",
        "http://[ff02::1]/",
        "http://[::]/",
        "http://0.0.0.0/",
        "http://0/",
        "http://224.0.0.1/",
        "http://255.255.255.255/",
        "http://240.0.0.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f000001/",
        "http://0x7f.1/",
        "http://127.1/",
        "http://017700000001/",
        "https://127.0.0.1/",
        "ftp://example.com/file",
        "file:///etc/passwd",
        "gopher://example.com/",
        "javascript:alert(1)",
        "//example.com/",
        "http:///nohost",
        "not a url",
    ],
)
async def test_forbidden_urls_are_refused(url: str) -> None:
    with pytest.raises(FetchRefused) as refused:
        await GuardedHttp().fetch(url)
    assert refused.value.code == "url_not_allowed"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("8.8.8.8", None),
        ("2606:4700:4700::1111", None),
        ("::ffff:8.8.8.8", None),
        ("127.0.0.1", "loopback"),
        ("10.9.8.7", "private"),
        ("100.64.1.1", "cgnat"),
        ("169.254.169.254", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("169.254.3.4", "link_local"),
        ("fe80::1", "link_local"),
        ("fc00::1", "unique_local"),
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:0:127.0.0.1", "loopback"),
        ("::", "unspecified"),
        ("0.1.2.3", "unspecified"),
        ("239.1.1.1", "multicast"),
        ("ff05::2", "multicast"),
        ("192.0.2.1", "reserved"),
        ("2001:db8::1", "reserved"),
    ],
)
def test_address_categories(text: str, category: str | None) -> None:
    assert address_category(ipaddress.ip_address(text)) == category


def test_odd_ipv4_spellings_are_read_like_inet_aton() -> None:
    for spelling in ("2130706433", "0177.0.0.1", "0x7f000001", "0x7f.1", "127.1", "[::1]"):
        literal = parse_ip_literal(spelling)
        assert literal is not None and literal.is_loopback, spelling
    assert parse_ip_literal("example.com") is None
    assert parse_ip_literal("1e100.net") is None


def test_allow_private_still_refuses_metadata_and_link_local() -> None:
    allowed = policy_for(True)
    for ok in ("127.0.0.1", "::1", "10.0.0.1", "192.168.0.10", "100.64.0.1", "fd12::1", "::ffff:127.0.0.1"):
        assert allowed(ipaddress.ip_address(ok)), ok
    for refused in ("169.254.169.254", "fd00:ec2::254", "169.254.1.1", "fe80::1", "0.0.0.0", "224.0.0.1"):
        assert not allowed(ipaddress.ip_address(refused)), refused
