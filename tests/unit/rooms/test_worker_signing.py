"""Requests to a room worker's internal server are signed with the service's secret: what a signature binds.

The server itself, which refuses what is not signed, is tested on a real port in
tests/integration/test_room_worker_server.py.
"""

from __future__ import annotations

from avatar_service.adapters.room_workers.signing import sign, verify

SECRET = b"the service's secret"


def test_a_signature_binds_secret_time_method_path_and_body() -> None:
    header = sign(SECRET, "POST", "/internal/rooms/c1/offer", b'{"sdp":"x"}', now=1_000_000)
    assert verify(SECRET, header, "POST", "/internal/rooms/c1/offer", b'{"sdp":"x"}', now=1_000_030)
    assert not verify(b"another secret", header, "POST", "/internal/rooms/c1/offer", b'{"sdp":"x"}', now=1_000_000)
    assert not verify(SECRET, header, "POST", "/internal/rooms/c2/offer", b'{"sdp":"x"}', now=1_000_000)
    assert not verify(SECRET, header, "POST", "/internal/rooms/c1/offer", b'{"sdp":"y"}', now=1_000_000)
    assert not verify(SECRET, header, "POST", "/internal/rooms/c1/offer", b'{"sdp":"x"}', now=1_000_000 + 61)
    assert not verify(SECRET, "", "POST", "/x", b"", now=1_000_000)
    assert not verify(SECRET, "t=abc,v1=00", "POST", "/x", b"", now=1_000_000)
