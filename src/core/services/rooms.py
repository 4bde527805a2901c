"""The room's own door (/rooms/{id}/...): a room token is the only credential; a valid one lets its holder
join, talk, and connect the room's media."""

from dataclasses import dataclass

from avatar_service.core.errors import Invalid, NotFound, Unauthenticated
from avatar_service.core.model import Conversation, MessageResult
from avatar_service.core.services.base import Deps
from avatar_service.core.services.conversations import Conversations
from avatar_service.ports.rooms import RemoteRoomTurns, RoomProvider, RoomSignaling, RoomTokens


@dataclass(frozen=True, slots=True)
class RoomGuest:
    """Whose room a valid token opens."""

    organization_id: str
    conversation_id: str


class Rooms:
    def __init__(self, deps: Deps, tokens: RoomTokens, provider: RoomProvider, conversations: Conversations) -> None:
        self.deps, self.tokens, self.conversations = deps, tokens, conversations
        self.signaling = provider if isinstance(provider, RoomSignaling) else None

    async def admit(self, conversation_id: str, token: str) -> RoomGuest:
        """The conversation a valid, unexpired token opens; Unauthenticated otherwise."""
        if not token or not self.tokens.verify(conversation_id, token, self.deps.clock.now()):
            raise Unauthenticated("Invalid or expired room token", code="invalid_room_token")
        async with self.deps.storage(None, read_only=True) as uow:
            record = await uow.conversations.get(conversation_id)
        if record is None:
            raise NotFound("No such conversation")
        return RoomGuest(record.organization_id, record.id)

    async def join(self, conversation_id: str, token: str) -> Conversation:
        guest = await self.admit(conversation_id, token)
        return await self.conversations.joined(guest.organization_id, guest.conversation_id)

    async def say(self, conversation_id: str, token: str, content: str) -> MessageResult:
        """A typed turn. When the participant is also connected by WebRTC, it interrupts the reply being spoken (as
        speech does, with interruption enabled), and its own reply is spoken sentence by sentence as it is
        written; the transcript keeps the order in which things were heard."""
        guest = await self.admit(conversation_id, token)
        if not content.strip():
            raise Invalid("Say something", param="content")
        return await self.say_in_room(guest.organization_id, guest.conversation_id, content)

    async def say_in_room(self, org: str, ident: str, content: str) -> MessageResult:
        """`say` once admitted (a room worker takes typed turns for its rooms through this)."""
        if isinstance(self.signaling, RemoteRoomTurns):
            result = await self.signaling.say(org, ident, content)
            if result is not None:
                return result  # type: ignore[no-any-return]
        if self.signaling is None or not await self.signaling.interrupt(ident):
            return await self.conversations.say(org, ident, content)
        turn = await self.conversations.start_turn(org, ident, content)
        if not await self.signaling.reply(ident, content, turn):  # the participant left meanwhile
            return await turn.collect()
        if turn.result is None:  # stopped before it was stored (the room closed): store what there is
            await turn.aclose()
        assert turn.result is not None
        return turn.result

    async def leave(self, conversation_id: str, token: str, closing: bool = False) -> Conversation:
        """The participant leaves: the conversation ends (reason `left`). `closing`: their page is going away
        (it may be a reload), so the room ends it in a few seconds unless they join again."""
        guest = await self.admit(conversation_id, token)
        if closing and self.signaling is not None:
            await self.signaling.departing(guest.organization_id, guest.conversation_id)
            return await self.conversations.get(guest.organization_id, guest.conversation_id)
        return await self.conversations.end(guest.organization_id, guest.conversation_id, reason="left")

    async def state(self, conversation_id: str, token: str) -> Conversation:
        """The conversation as its participant may see it: status, why it ended, the transcript so far."""
        guest = await self.admit(conversation_id, token)
        view = await self.conversations.get(guest.organization_id, guest.conversation_id, include_transcript=True)
        view.room_token = None  # the page has it already; an answer that shows it could be cached elsewhere
        return view

    async def answer(self, conversation_id: str, token: str, sdp: str, kind: str) -> tuple[str, str]:
        """The room's SDP answer, as (sdp, type), to the page's offer."""
        guest = await self.admit(conversation_id, token)
        if self.signaling is None:
            raise NotFound("This deployment's rooms are not hosted by the service", code="resource_missing")
        return await self.signaling.answer(guest.organization_id, guest.conversation_id, sdp, kind)
