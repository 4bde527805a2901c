"""The room's routes outside /v1: the join page, joining, text turns and WebRTC signaling, all by room token."""

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from litestar import MediaType, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody

from avatar_service.core.errors import Invalid, NotFound, Unauthenticated
from avatar_service.core.model import Conversation, MessageCreate, MessageResult
from avatar_service.core.services.conversations import Conversations
from avatar_service.ports.rooms import RoomProvider, RoomSignaling
from avatar_service.ports.storage import Storage

JOIN_PAGE = Path(__file__).parent / "static" / "room.html"


class SessionOffer(msgspec.Struct, forbid_unknown_fields=True):
    sdp: Annotated[str, msgspec.Meta(min_length=1, max_length=64 * 1024)]
    type: Literal["offer"]


class SessionAnswer(msgspec.Struct):
    sdp: str
    type: str


async def _room_conversation(request: Request[Any, Any, Any], conversation_id: str, token: str
                             ) -> tuple[str, str]:
    """The organization of a room whose token is valid (the token is the room's only credential)."""
    rooms = request.app.state.rooms
    if not token or not rooms.verify(conversation_id, token, request.app.state.clock.now()):
        raise Unauthenticated("Invalid or expired room token", code="invalid_room_token")
    storage: Storage = request.app.state.storage
    async with storage(None) as uow:
        record = await uow.conversations.get(conversation_id)
    if record is None:
        raise NotFound("No such conversation")
    return record.organization_id, record.id


def _signaling(request: Request[Any, Any, Any]) -> RoomSignaling | None:
    provider = request.app.state.container.resolve(RoomProvider)
    return provider if isinstance(provider, RoomSignaling) else None


@get("/rooms/{conversation_id:str}", media_type=MediaType.HTML, include_in_schema=False)
async def room_page(conversation_id: FromPath[str]) -> str:
    return JOIN_PAGE.read_text()


@post("/rooms/{conversation_id:str}/join", status_code=200, tags=["Rooms"])
async def room_join(conversation_id: FromPath[str], request: Request[Any, Any, Any],
                    conversations: NamedDependency[Conversations], token: FromQuery[str] = "") -> Conversation:
    org, ident = await _room_conversation(request, conversation_id, token)
    return await conversations.joined(org, ident)


@post("/rooms/{conversation_id:str}/messages", status_code=200, tags=["Rooms"])
async def room_message(conversation_id: FromPath[str], data: JSONBody[MessageCreate], request: Request[Any, Any, Any],
                       conversations: NamedDependency[Conversations], token: FromQuery[str] = "") -> MessageResult:
    """A typed turn; when the participant is also connected by WebRTC, the reply is spoken in the room too."""
    org, ident = await _room_conversation(request, conversation_id, token)
    if not data.content.strip():
        raise Invalid("Say something", param="content")
    result = await conversations.say(org, ident, data.content)
    signaling = _signaling(request)
    if signaling is not None:
        await signaling.speak(ident, result.reply.content)
    return result


@post("/rooms/{conversation_id:str}/offer", status_code=200, tags=["Rooms"])
async def room_offer(conversation_id: FromPath[str], data: JSONBody[SessionOffer], request: Request[Any, Any, Any],
                     token: FromQuery[str] = "") -> SessionAnswer:
    """WebRTC signaling in one exchange: the page's SDP offer in, the room's answer out with its ICE
    candidates already gathered (no trickle). The conversation turns active once the media connects."""
    org, ident = await _room_conversation(request, conversation_id, token)
    signaling = _signaling(request)
    if signaling is None:
        raise NotFound("This deployment's rooms are not hosted by the service", code="resource_missing")
    sdp, kind = await signaling.answer(org, ident, data.sdp, data.type)
    return SessionAnswer(sdp=sdp, type=kind)


ROUTES = [room_page, room_join, room_message, room_offer]
