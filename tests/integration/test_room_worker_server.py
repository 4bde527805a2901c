"""A room worker's internal server (aiohttp, on a loopback port) answers only requests signed with the service's
secret."""

from __future__ import annotations

import msgspec
import pytest
from aiohttp.test_utils import TestClient, TestServer

from avatar_service.adapters.room_workers.server import WorkerServer
from avatar_service.adapters.room_workers.signing import HEADER, sign

SECRET = b"the service's secret"


class Rooms:
    """What the server asks of PlacedRooms, with nothing hosted."""

    livekit = None

    def local_for(self, ident: str) -> Rooms:
        return self

    def hosted(self) -> dict[str, object]:
        return {}

    async def interrupt(self, ident: str) -> bool:
        return False


async def _never(org: str, ident: str, content: str) -> object:
    raise AssertionError("no room is here")


@pytest.mark.parametrize("header", [None, "t=1,v1=00", "forged"])
async def test_the_internal_server_refuses_unsigned_requests(header: str | None) -> None:
    server = WorkerServer(Rooms(), _never, SECRET, "http://127.0.0.1:0")  # type: ignore[arg-type]
    async with TestClient(TestServer(server.app())) as client:
        headers = {HEADER: header} if header else {}
        response = await client.post("/internal/rooms/c1/interrupt", data=b"{}", headers=headers)
        assert response.status == 401
        error = (await response.json())["error"]
        assert error["code"] == "invalid_signature" and error["type"] == "authentication_error"
        assert set(error) == {"type", "code", "message", "param", "request_id"}  # the API's envelope, in shape


async def test_signed_requests_are_answered_and_bad_bodies_are_400() -> None:
    server = WorkerServer(Rooms(), _never, SECRET, "http://127.0.0.1:0")  # type: ignore[arg-type]
    async with TestClient(TestServer(server.app())) as client:
        def signed(path: str, body: bytes) -> dict[str, str]:
            return {HEADER: sign(SECRET, "POST", path, body)}

        path = "/internal/rooms/c1/interrupt"
        response = await client.post(path, data=b"{}", headers=signed(path, b"{}"))
        assert response.status == 200 and await response.json() == {"ok": False}
        path = "/internal/rooms/c1/say"
        body = msgspec.json.encode({"organization_id": "org_1", "content": "hi"})
        response = await client.post(path, data=body, headers=signed(path, body))
        assert await response.json() == {"connected": False, "result": None}  # nobody here: the API takes it
        body = b'{"content": 3}'
        response = await client.post(path, data=body, headers=signed(path, body))
        assert response.status == 400
        path = "/internal/rooms/c1/nonsense"
        response = await client.post(path, data=b"{}", headers=signed(path, b"{}"))
        assert response.status == 404
