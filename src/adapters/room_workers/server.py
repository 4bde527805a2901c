"""A room worker's internal HTTP server: the API forwards the signaling of the rooms placed here.

Not for participants: every request must carry the API's signature (signing.py), anything else is a 401. It
runs on the worker's own event loop (aiohttp, which installs no signal handlers), bound to the address of
`AVATAR_WORKER_URL` (or `AVATAR_WORKER_BIND`); port 0 takes a free port, and the URL announced carries it.

POST /internal/rooms/{id}/offer      {organization_id, sdp, type} -> {sdp, type}
POST /internal/rooms/{id}/say        {organization_id, content}   -> {connected, result: MessageResult | null}
POST /internal/rooms/{id}/speak      {text}                       -> {ok}
POST /internal/rooms/{id}/interrupt  {}                           -> {ok}
POST /internal/rooms/{id}/departing  {organization_id}            -> {ok}
POST /internal/rooms/{id}/hang-up    {status, reason, message}    -> {ok}
POST /internal/rooms/{id}/present    {}                           -> {present}
POST /internal/rooms/{id}/livekit    {organization_id, expires_at} -> {ok}  (the avatar joins the LiveKit room)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgspec
from aiohttp import web

from avatar_service.adapters.room_workers.signing import HEADER, verify
from avatar_service.core.errors import AvatarError, Conflict, Invalid, NotFound, Unavailable
from avatar_service.core.model import MessageResult

log = logging.getLogger(__name__)
STATUS = {Invalid: 400, NotFound: 404, Conflict: 409, Unavailable: 503}
MAX_BODY = 256 * 1024  # an SDP offer is a few kilobytes
Say = Callable[[str, str, str], Awaitable[MessageResult]]  # (organization, conversation, content)


class _Offer(msgspec.Struct):
    organization_id: str
    sdp: str
    type: str


class _Said(msgspec.Struct):
    organization_id: str
    content: str


class _Speak(msgspec.Struct):
    text: str


class _Departing(msgspec.Struct):
    organization_id: str


class _LiveKit(msgspec.Struct):
    organization_id: str
    expires_at: datetime


class _HangUp(msgspec.Struct):
    status: str
    reason: str
    message: str


class WorkerServer:
    """Serves `rooms` (this worker's own rooms: `PlacedRooms.local_for`) to the API; `say` takes a typed turn."""

    def __init__(self, rooms: Any, say: Say, secret: bytes, bind_url: str) -> None:
        self.rooms, self._say, self._secret = rooms, say, secret
        self._bind = urlsplit(bind_url)
        self._runner: web.AppRunner | None = None
        self.url = bind_url

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._signed])
        app.router.add_post("/internal/rooms/{conversation_id}/{action}", self._room)
        return app

    async def start(self, announce_url: str | None = None) -> str:
        """Listens; returns the URL to announce (`announce_url`, or the bound one, with the port taken)."""
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._bind.hostname or "127.0.0.1", self._bind.port or 0)
        await site.start()
        server = getattr(site, "_server", None)
        port = server.sockets[0].getsockname()[1] if server is not None and server.sockets else self._bind.port
        target = urlsplit(announce_url or self.url)
        if not target.port:  # the port was left to the system (0) or not given: announce the one bound
            host = target.hostname or "127.0.0.1"
            target = target._replace(netloc=f"{host}:{port}")
        self.url = urlunsplit(target)
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _signed(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                      ) -> web.StreamResponse:
        body = await request.read()
        if not verify(self._secret, request.headers.get(HEADER, ""), request.method, request.path, body):
            return _error(401, "invalid_signature", "This endpoint is for the service's own API processes")
        return await handler(request)

    async def _room(self, request: web.Request) -> web.Response:
        ident, action = request.match_info["conversation_id"], request.match_info["action"]
        body = await request.read()
        try:
            return web.json_response(await self._act(ident, action, body), dumps=_dumps)
        except msgspec.ValidationError as error:
            return _error(400, "parameter_invalid", str(error))
        except msgspec.DecodeError:
            return _error(400, "body_invalid", "The body is not valid JSON")
        except AvatarError as error:
            status = next((s for kind, s in STATUS.items() if isinstance(error, kind)), 400)
            return _error(status, error.code, error.message, error.param)

    async def _act(self, ident: str, action: str, body: bytes) -> dict[str, Any]:
        placed, rooms = self.rooms, self.rooms.local_for(ident)
        if action == "offer":
            offer = msgspec.json.decode(body, type=_Offer)
            sdp, kind = await placed.local.answer(offer.organization_id, ident, offer.sdp, offer.type)
            return {"sdp": sdp, "type": kind}
        if action == "say":
            said = msgspec.json.decode(body, type=_Said)
            if ident not in placed.hosted():
                return {"connected": False, "result": None}
            return {"connected": True, "result": msgspec.to_builtins(await self._say(said.organization_id, ident,
                                                                                     said.content))}
        if action == "speak":
            return {"ok": await rooms.speak(ident, msgspec.json.decode(body, type=_Speak).text)}
        if action == "interrupt":
            return {"ok": await rooms.interrupt(ident)}
        if action == "departing":
            await rooms.departing(msgspec.json.decode(body, type=_Departing).organization_id, ident)
            return {"ok": True}
        if action == "hang-up":
            end = msgspec.json.decode(body, type=_HangUp)
            await rooms.hang_up(ident, end.status, end.reason, end.message)
            return {"ok": True}
        if action == "present":
            return {"present": ident in placed.hosted()}
        if action == "livekit" and placed.livekit is not None and placed.livekit.agents is not None:
            joining = msgspec.json.decode(body, type=_LiveKit)
            await placed.livekit.agents.join(joining.organization_id, ident, joining.expires_at)
            return {"ok": True}
        raise NotFound(f"No such room action: {action}")


def _dumps(value: Any) -> str:
    return msgspec.json.encode(value).decode()


# The API's envelope in shape ({"error": {type, code, message, param, request_id}}) but built here: an adapter does not
# import the entrypoints, and entrypoints/http/errors.py is Litestar's. Only caller.py reads it, and raises the error
# again in the API process, whose envelope then carries the participant's request_id; a worker has none of its own.
_TYPES = {401: "authentication_error", 503: "api_error"}


def _error(status: int, code: str, message: str, param: str | None = None) -> web.Response:
    error = {"type": _TYPES.get(status, "invalid_request_error"), "code": code, "message": message, "param": param,
             "request_id": None}
    return web.json_response({"error": error}, status=status)
