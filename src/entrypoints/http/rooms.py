"""The room's routes outside /v1: the join page, joining, text turns, WebRTC signaling, leaving and the
conversation's state, all by room token."""

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from litestar import MediaType, Router, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import File
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from avatar_service.core.model import Conversation, MessageCreate, MessageResult
from avatar_service.core.services.rooms import Rooms

STATIC = Path(__file__).parent / "static"
JOIN_PAGE = STATIC / "room.html"
# Any page may embed a room (avatar-room.js and <avatar-room>): the room token in the URL is the only credential,
# never a cookie, so answering every origin gives a page nothing it could not do with the token anyway.
CORS = [(b"access-control-allow-origin", b"*"), (b"access-control-allow-methods", b"GET, POST, OPTIONS"),
        (b"access-control-allow-headers", b"content-type"), (b"access-control-max-age", b"600")]


def any_origin(app: ASGIApp) -> ASGIApp:
    """Adds the CORS headers to every answer of the room's routes (preflight OPTIONS included)."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        async def with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *CORS]
            await send(message)

        await app(scope, receive, with_cors if scope["type"] == "http" else send)

    return middleware


class SessionOffer(msgspec.Struct, forbid_unknown_fields=True):
    sdp: Annotated[str, msgspec.Meta(min_length=1, max_length=64 * 1024)]
    type: Literal["offer"]


class SessionAnswer(msgspec.Struct):
    sdp: str
    type: str


@get("/static/avatar-room.js", include_in_schema=False)
async def room_sdk() -> File:
    """The room SDK, an ES module another origin may import (modules are fetched with CORS)."""
    return File(STATIC / "avatar-room.js", media_type="text/javascript", content_disposition_type="inline",
                headers={"Cache-Control": "public, max-age=300"})


@get("/{conversation_id:str}", media_type=MediaType.HTML, include_in_schema=False)
async def room_page(conversation_id: FromPath[str]) -> str:
    return JOIN_PAGE.read_text()


@post("/{conversation_id:str}/join", status_code=200, tags=["Rooms"])
async def room_join(conversation_id: FromPath[str], rooms: NamedDependency[Rooms], token: FromQuery[str] = ""
                    ) -> Conversation:
    return await rooms.join(conversation_id, token)


@post("/{conversation_id:str}/messages", status_code=200, tags=["Rooms"])
async def room_message(conversation_id: FromPath[str], data: JSONBody[MessageCreate], rooms: NamedDependency[Rooms],
                       token: FromQuery[str] = "") -> MessageResult:
    """A typed turn; when the participant is also connected by WebRTC, the reply is spoken in the room too."""
    return await rooms.say(conversation_id, token, data.content)


@post("/{conversation_id:str}/leave", status_code=200, tags=["Rooms"])
async def room_leave(conversation_id: FromPath[str], rooms: NamedDependency[Rooms], token: FromQuery[str] = "",
                     closing: FromQuery[bool] = False) -> Conversation:
    """The participant leaves: the conversation ends (`ended`, `end_reason` `left`, `conversation.ended`).
    `closing=true` (the page's `pagehide` beacon): it ends a few seconds later unless the page joins again
    (a reload)."""
    return await rooms.leave(conversation_id, token, closing)


@get("/{conversation_id:str}/state", tags=["Rooms"])
async def room_state(conversation_id: FromPath[str], rooms: NamedDependency[Rooms], token: FromQuery[str] = ""
                     ) -> Conversation:
    """The conversation's status (and `end_reason` once over) and its transcript so far: for a page that joins
    (the lines before it) or lost its connection."""
    return await rooms.state(conversation_id, token)


@post("/{conversation_id:str}/offer", status_code=200, tags=["Rooms"])
async def room_offer(conversation_id: FromPath[str], data: JSONBody[SessionOffer], rooms: NamedDependency[Rooms],
                     token: FromQuery[str] = "") -> SessionAnswer:
    """WebRTC signaling in one exchange: the page's SDP offer in, the room's answer out with its ICE
    candidates already gathered (no trickle). The conversation turns active once the media connects."""
    sdp, kind = await rooms.answer(conversation_id, token, data.sdp, data.type)
    return SessionAnswer(sdp=sdp, type=kind)


ROUTES: list[Any] = [
    Router("/rooms", route_handlers=[room_page, room_join, room_message, room_offer, room_leave, room_state],
           middleware=[any_origin]),
    Router("/", route_handlers=[room_sdk], middleware=[any_origin]),
]
