"""The room's routes outside /v1: the join page, joining, text turns and WebRTC signaling, all by room token."""

from pathlib import Path
from typing import Annotated, Literal

import msgspec
from litestar import MediaType, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody

from avatar_service.core.model import Conversation, MessageCreate, MessageResult
from avatar_service.core.services.rooms import Rooms

JOIN_PAGE = Path(__file__).parent / "static" / "room.html"


class SessionOffer(msgspec.Struct, forbid_unknown_fields=True):
    sdp: Annotated[str, msgspec.Meta(min_length=1, max_length=64 * 1024)]
    type: Literal["offer"]


class SessionAnswer(msgspec.Struct):
    sdp: str
    type: str


@get("/rooms/{conversation_id:str}", media_type=MediaType.HTML, include_in_schema=False)
async def room_page(conversation_id: FromPath[str]) -> str:
    return JOIN_PAGE.read_text()


@post("/rooms/{conversation_id:str}/join", status_code=200, tags=["Rooms"])
async def room_join(conversation_id: FromPath[str], rooms: NamedDependency[Rooms], token: FromQuery[str] = ""
                    ) -> Conversation:
    return await rooms.join(conversation_id, token)


@post("/rooms/{conversation_id:str}/messages", status_code=200, tags=["Rooms"])
async def room_message(conversation_id: FromPath[str], data: JSONBody[MessageCreate], rooms: NamedDependency[Rooms],
                       token: FromQuery[str] = "") -> MessageResult:
    """A typed turn; when the participant is also connected by WebRTC, the reply is spoken in the room too."""
    return await rooms.say(conversation_id, token, data.content)


@post("/rooms/{conversation_id:str}/offer", status_code=200, tags=["Rooms"])
async def room_offer(conversation_id: FromPath[str], data: JSONBody[SessionOffer], rooms: NamedDependency[Rooms],
                     token: FromQuery[str] = "") -> SessionAnswer:
    """WebRTC signaling in one exchange: the page's SDP offer in, the room's answer out with its ICE
    candidates already gathered (no trickle). The conversation turns active once the media connects."""
    sdp, kind = await rooms.answer(conversation_id, token, data.sdp, data.type)
    return SessionAnswer(sdp=sdp, type=kind)


ROUTES = [room_page, room_join, room_message, room_offer]
