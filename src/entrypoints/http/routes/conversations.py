"""/v1/conversations: create (mode scopes), read with transcript, list, end, text turns."""

from typing import Annotated

from litestar import Router, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from avatar_service.core.model import Conversation, ConversationCreate, MessageCreate, MessageResult, Page
from avatar_service.core.model.conversations import ConversationStatus
from avatar_service.core.scopes import READ_CONVERSATIONS, for_mode, require
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.conversations import Conversations
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page
from avatar_service.entrypoints.http.sse import EventStream, StreamedTurnOperation, stream_turn

Id = Annotated[str | None, QueryParameter(max_length=128)]


@post("/", status_code=201, opt=scopes("conversations"))
async def create_conversation(
    data: JSONBody[ConversationCreate], conversations: NamedDependency[Conversations], caller: NamedDependency[Caller]
) -> Conversation:
    require(caller.scopes, *for_mode(data.mode))
    return await conversations.create(caller.organization_id, data)


@get("/", opt=scopes(READ_CONVERSATIONS))
async def list_conversations(
    conversations: NamedDependency[Conversations],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
    status: FromQuery[ConversationStatus | None] = None,
    personality_id: Id = None,
    user_id: Id = None,
) -> Page[Conversation]:
    return await conversations.list(caller.organization_id, page(limit, cursor), status, personality_id, user_id)


@get("/{conversation_id:str}", opt=scopes(READ_CONVERSATIONS))
async def get_conversation(
    conversation_id: FromPath[str],
    conversations: NamedDependency[Conversations],
    caller: NamedDependency[Caller],
    include_transcript: FromQuery[bool] = False,
) -> Conversation:
    return await conversations.get(caller.organization_id, conversation_id, include_transcript)


@delete("/{conversation_id:str}", status_code=200, opt=scopes("conversations"))
async def end_conversation(
    conversation_id: FromPath[str], conversations: NamedDependency[Conversations], caller: NamedDependency[Caller]
) -> Conversation:
    return await conversations.end(caller.organization_id, conversation_id)


@post("/{conversation_id:str}/messages", status_code=200, opt=scopes("chat"), operation_class=StreamedTurnOperation)
async def send_message(
    conversation_id: FromPath[str],
    data: JSONBody[MessageCreate],
    conversations: NamedDependency[Conversations],
    caller: NamedDependency[Caller],
) -> MessageResult | EventStream:
    """A text turn. With `"stream": true` the reply comes as server-sent events (`text/event-stream`): `delta`
    events (`{"content"}`) whose contents join to the reply, then `done` with this operation's ordinary result;
    a failure after the stream began is one `error` event with the error envelope."""
    if data.stream:
        return stream_turn(await conversations.start_turn(caller.organization_id, conversation_id, data.content))
    return await conversations.say(caller.organization_id, conversation_id, data.content)


router = Router(
    "/conversations",
    tags=["Conversations"],
    route_handlers=[create_conversation, list_conversations, get_conversation, end_conversation, send_message],
)
