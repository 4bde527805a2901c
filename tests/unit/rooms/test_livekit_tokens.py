"""LiveKit rooms: the access token's claims let exactly one conversation's room be joined, until it expires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
import pytest

from avatar_service.adapters.livekit_rooms import LiveKitRooms

KEY, SECRET = "APIkey123", "s3cret-that-is-long-enough-for-hs256-signing"


def _claims(token: str) -> dict[str, object]:
    return dict(jwt.decode(token, SECRET, algorithms=["HS256"], leeway=5))


async def test_participant_token_claims() -> None:
    rooms = LiveKitRooms("wss://livekit.example.com/", KEY, SECRET)
    expires = datetime.now(UTC) + timedelta(minutes=30)
    access = await rooms.open("conv_abc", expires)
    assert access.room_url == "wss://livekit.example.com"
    claims = _claims(access.room_token)
    assert claims["iss"] == KEY and claims["sub"] == "user"
    assert claims["video"] == {"roomJoin": True, "room": "conv_abc", "canPublish": True, "canSubscribe": True,
                               "canPublishData": True}
    assert abs(int(claims["exp"]) - int(expires.timestamp())) <= 2  # type: ignore[call-overload]
    assert int(claims["nbf"]) <= int(datetime.now(UTC).timestamp())  # type: ignore[call-overload]
    assert '"conv_abc"' in str(claims["metadata"])


async def test_token_is_bound_to_the_secret_and_expires() -> None:
    rooms = LiveKitRooms("wss://lk.example", KEY, SECRET)
    access = await rooms.open("conv_x", datetime.now(UTC) - timedelta(hours=1))
    # A conversation past its end still gets the one-minute floor, never a token that is born expired.
    assert int(_claims(access.room_token)["exp"]) > datetime.now(UTC).timestamp()  # type: ignore[call-overload]
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(access.room_token, "another-secret-that-is-long-enough-for-hs256", algorithms=["HS256"])


async def test_agent_token_is_marked_as_agent() -> None:
    rooms = LiveKitRooms("wss://lk.example", KEY, SECRET)
    claims = _claims(rooms.agent_token("conv_y", datetime.now(UTC) + timedelta(minutes=5)))
    assert claims["sub"] == "avatar"
    assert claims["video"]["agent"] is True and claims["video"]["room"] == "conv_y"  # type: ignore[index]


def test_credentials_are_required() -> None:
    with pytest.raises(ValueError):
        LiveKitRooms("wss://lk.example", "", SECRET)
