"""Game sessions: the catalogue, sessions that move by the state table, and the personality's turn."""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from avatar_service.core.errors import Conflict, Invalid, NotFound
from avatar_service.core.games import CATALOGUE, IllegalMove, InvalidOptions, catalogue_entry, commentary
from avatar_service.core.games.base import PRIVATE_PREFIX, Outcome
from avatar_service.core.model import (
    GameCatalogue,
    GameInfo,
    GameSession,
    GameSessionCreate,
    GameSessionRecord,
    MoveCreate,
    MoveResult,
    Page,
    PersonalityRecord,
    public,
    replace,
)
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.base import Deps, fetch, page_of
from avatar_service.core.services.conversations import persona
from avatar_service.core.services.filters import given
from avatar_service.core.states import check_move, is_final
from avatar_service.ports.dialogue import DialogueEngine, DialogueRequest, GameSituation, Turn
from avatar_service.ports.jobs import JobQueue
from avatar_service.ports.offload import Offload

log = logging.getLogger(__name__)
SAID = f"{PRIVATE_PREFIX}said"  # private state: the commentary lines said in this game, so none is said twice

@dataclass(frozen=True, slots=True)
class GameLimits:
    idle_timeout: float = 86400.0  # seconds without a move before a session is abandoned


def view(record: GameSessionRecord) -> GameSession:
    session = public(record, GameSession)
    session.state = {k: v for k, v in record.state.items() if not k.startswith(PRIVATE_PREFIX)}
    return session


class GameSessions:
    def __init__(self, deps: Deps, jobs: JobQueue, dialogue: DialogueEngine, offload: Offload,
                 limits: GameLimits) -> None:
        self.deps, self.jobs, self.dialogue, self.offload, self.limits = deps, jobs, dialogue, offload, limits

    def catalogue(self) -> GameCatalogue:
        return GameCatalogue(data=[GameInfo(**catalogue_entry(game)) for game in CATALOGUE.values()])

    async def _comment(self, personality: PersonalityRecord, record: GameSessionRecord, halves: list[Outcome],
                       message: str | None, moves: dict[str, Any]) -> str:
        """The personality's line on the latest exchange, in its own voice, from the dialogue engine.

        `halves` are the outcomes of the user's move and of the personality's answer (either may be missing):
        both go into the situation, so a blunder or fork of the user is still remarked on after the answer.
        The offline line is computed here once, never repeating a sentence said earlier in this game (the
        lines said are kept in the session's private state).
        """
        user = next((o.highlights for o in halves if "by_user" in o.highlights), ())
        mine = next((o.highlights for o in halves if "by_personality" in o.highlights), ())
        highlights = commentary.exchange(user, mine)
        game = CATALOGUE[record.game_id]
        said: list[str] = record.state.setdefault(SAID, [])
        traits = persona(personality).traits
        line = commentary.comment(
            highlights, traits, random.Random(f"{record.id}:{record.move_count}"), game.name, said=said,
            mine=commentary.move_words(moves.get("personality_move")),
            yours=commentary.move_words(moves.get("user_move")), count=record.move_count)
        situation = GameSituation(
            game=game.name, game_id=game.id, highlights=tuple(highlights), summary=commentary.describe(highlights),
            line=line, finished=is_final("game_session", record.status), winner=record.winner,
            move_count=record.move_count, user_move=moves.get("user_move"),
            personality_move=moves.get("personality_move"))
        request = DialogueRequest(persona=persona(personality), history=[Turn("user", message or "")],
                                  situation=situation)
        try:
            text = await self.dialogue.reply(request)
        except Exception:
            # a hosted model that is down must not cost the user their move: the offline line stands in
            log.warning("dialogue engine failed on game commentary; using the offline line", exc_info=True)
            text = line
        said.append(text)
        return text

    async def _personality_turn(self, state: dict[str, Any], game_id: str) -> tuple[dict[str, Any], Outcome]:
        return await self.offload(CATALOGUE[game_id].personality_move, state)

    async def create(self, organization_id: str, data: GameSessionCreate) -> GameSession:
        game = CATALOGUE.get(data.game_id)
        if game is None:
            raise NotFound(f"No such game: '{data.game_id}' (GET /v1/games lists them)", param="game_id")
        async with self.deps.storage(organization_id, read_only=True) as uow:
            personality = await fetch(uow.personalities, "personality", data.personality_id, param="personality_id")
            if data.user_id is not None:
                await fetch(uow.users, "user", data.user_id, param="user_id")
        try:
            state, first = game.start(data.options, secrets.randbits(32))
        except InvalidOptions as error:
            raise Invalid(error.message, param=error.param) from None
        now = self.deps.clock.now()
        record = GameSessionRecord(
            id=self.deps.ids.new("game_session"), game_id=game.id, personality_id=personality.id,
            status="active", created_at=now, updated_at=now, user_id=data.user_id, current_turn=first,
            state=state, organization_id=organization_id,
        )
        if first == "personality":
            # The opening move is computed here, inside the request, so the session is created `active` with
            # the user to move; `waiting` is never observed (README, API decisions).
            move, outcome = await self._personality_turn(state, game.id)
            record = self._apply(record, outcome, 1)
            record.personality_commentary = await self._comment(personality, record, [outcome], None,
                                                                {"personality_move": move})
        async with self.deps.storage(organization_id) as uow:
            await uow.game_sessions.add(record)
            await self._arm_idle_timer(uow, record)
            await uow.commit()
        return view(record)

    async def _arm_idle_timer(self, uow: Any, record: GameSessionRecord) -> None:
        # the version says which move armed this timer: once another move is made, this timer is stale
        payload = {"organization_id": record.organization_id, "id": record.id, "version": record.version}
        await self.jobs.enqueue(uow, "game.timer", payload,
                                run_at=self.deps.clock.now() + timedelta(seconds=self.limits.idle_timeout))

    def _apply(self, record: GameSessionRecord, outcome: Outcome, moves: int) -> GameSessionRecord:
        status = check_move("game_session", record.status, "completed") if outcome.finished else record.status
        return replace(record, state=outcome.state, status=status, winner=outcome.winner,
                       current_turn=outcome.next_turn, move_count=record.move_count + moves,
                       updated_at=self.deps.clock.now())

    async def get(self, organization_id: str, session_id: str) -> GameSession:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return view(await fetch(uow.game_sessions, "game_session", session_id))

    async def list(self, organization_id: str, page: PageRequest, status: str | None = None) -> Page[GameSession]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.game_sessions.page(page, **given(status=status))
        return page_of(records, more, view)

    async def move(self, organization_id: str, session_id: str, data: MoveCreate) -> MoveResult:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.game_sessions, "game_session", session_id)
            personality = await uow.personalities.get(record.personality_id)
        if is_final("game_session", record.status):
            raise Conflict(f"The game session is {record.status}: it takes no more moves")
        game = CATALOGUE[record.game_id]
        if record.current_turn != "user":
            return MoveResult(session=view(record), user_move_valid=False,
                              user_move_error="It is not your turn: the personality is still thinking")
        try:
            outcome = await self.offload(game.user_move, record.state, data.move)
        except IllegalMove as error:
            return MoveResult(session=view(record), user_move_valid=False, user_move_error=str(error))
        halves = [outcome]
        # rock-paper-scissors throws are simultaneous: the personality's throw comes with the user's move
        personality_move = outcome.personality_move
        updated = self._apply(record, outcome, 2 if personality_move else 1)
        if not outcome.finished and outcome.next_turn == "personality":
            personality_move, outcome = await self._personality_turn(outcome.state, game.id)
            halves.append(outcome)
            updated = self._apply(updated, outcome, 1)
        updated = replace(updated, version=record.version + 1)
        message = None
        if personality is not None:
            moves = {"user_move": data.move, "personality_move": personality_move}
            message = await self._comment(personality, updated, halves, data.message, moves)
        updated = replace(updated, personality_commentary=message)
        async with self.deps.storage(organization_id) as uow:
            # Optimistic concurrency: of two moves sent at once on one session, only one applies.
            if not await uow.game_sessions.update(updated, expect={"version": record.version}):
                raise Conflict("Another move was applied to this session at the same time; read it again")
            if not is_final("game_session", updated.status):
                await self._arm_idle_timer(uow, updated)
            await uow.commit()
        return MoveResult(session=view(updated), user_move_valid=True, personality_move=personality_move,
                          personality_message=message)

    async def abandon(self, organization_id: str, session_id: str) -> GameSession:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.game_sessions, "game_session", session_id)
            if record.status == "abandoned":
                return view(record)
            if is_final("game_session", record.status):
                raise Conflict(f"The game session is already {record.status}")
            updated = replace(record, status=check_move("game_session", record.status, "abandoned"),
                              current_turn=None, updated_at=self.deps.clock.now(), version=record.version + 1)
            if not await uow.game_sessions.update(updated, expect={"version": record.version}):
                raise Conflict("The session changed meanwhile; read it again")
            await uow.commit()
        return view(updated)

    async def on_timer(self, payload: dict[str, Any]) -> None:
        """Abandons a session left idle past the limit (a later move re-arms the timer)."""
        async with self.deps.storage(payload["organization_id"]) as uow:
            record = await uow.game_sessions.get(payload["id"])
            if record is None or is_final("game_session", record.status):
                return
            if payload.get("version", record.version) != record.version:
                return  # a move came after this timer was armed, and armed a timer of its own
            idle_for = (self.deps.clock.now() - (record.updated_at or record.created_at)).total_seconds()
            if idle_for < self.limits.idle_timeout:
                return
            updated = replace(record, status=check_move("game_session", record.status, "abandoned"),
                              current_turn=None, version=record.version + 1, updated_at=self.deps.clock.now())
            if await uow.game_sessions.update(updated, expect={"version": record.version}):
                await uow.commit()


