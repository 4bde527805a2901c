"""LiveKit rooms against the network: ending a conversation when the LiveKit server cannot be reached."""

from __future__ import annotations

import socket

from avatar_service.adapters.livekit_rooms import LiveKitRooms

KEY, SECRET = "APIkey123", "s3cret-that-is-long-enough-for-hs256-signing"


async def test_close_against_an_unreachable_server_does_not_raise() -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    rooms = LiveKitRooms(f"http://127.0.0.1:{port}", KEY, SECRET, close_timeout=2.0)
    await rooms.close("conv_z")
