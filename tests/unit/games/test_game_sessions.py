"""The game-session use case on in-memory storage: idle timers on a fake clock, concurrent moves, commentary."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue
from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.adapters.system_clock import RandomIds
from avatar_service.core.errors import Conflict
from avatar_service.core.games.commentary import JOKES, LINES
from avatar_service.core.model import GameSessionCreate, MoveCreate, PersonalityRecord
from avatar_service.core.model.personalities import Traits
from avatar_service.core.services.base import Deps
from avatar_service.core.services.games import GameLimits, GameSessions
from avatar_service.ports.dialogue import DialogueRequest

ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"
IDLE = 100.0
T = TypeVar("T")
FORMAL = {"formality": 0.95, "humor": 0.0, "warmth": 0.0, "empathy": 0.0, "verbosity": 0.5}
FUNNY = {"formality": 0.05, "humor": 1.0, "warmth": 0.0, "empathy": 0.0, "verbosity": 0.5}


async def inline(fn: Callable[..., T], *args: Any) -> T:
    """The Offload port without threads: unit tests need no parallelism, only the await point."""
    await asyncio.sleep(0)
    return fn(*args)


class Recording:
    """The offline dialogue engine, keeping every request it was asked about."""

    name = "recording"

    def __init__(self) -> None:
        self.requests: list[DialogueRequest] = []
        self.inner = OfflineGroundedDialogue()

    async def reply(self, request: DialogueRequest) -> str:
        self.requests.append(request)
        return await self.inner.reply(request)

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        yield await self.reply(request)


class Gated(Recording):
    """Holds every reply until `width` requests are waiting: moves made at once overlap for certain."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width
        self.arrived = asyncio.Event()

    async def reply(self, request: DialogueRequest) -> str:
        self.requests.append(request)
        if len(self.requests) >= self.width:
            self.arrived.set()
        await asyncio.wait_for(self.arrived.wait(), 5)
        return await self.inner.reply(request)


class Broken(Recording):
    async def reply(self, request: DialogueRequest) -> str:
        raise ConnectionError("the hosted model is down")


@dataclass
class Rig:
    storage: MemoryStorage
    clock: Any
    jobs: DatabaseJobQueue
    games: GameSessions

    async def personality(self, **traits: float) -> str:
        now = datetime(2025, 1, 1, tzinfo=UTC)
        record = PersonalityRecord(id=RandomIds().new("personality"), name="Ada", created_at=now, updated_at=now,
                                   traits=Traits(**traits), organization_id=ORG)
        async with self.storage(ORG) as uow:
            await uow.personalities.add(record)
            await uow.commit()
        return record.id

    def row(self, session_id: str) -> dict[str, Any]:
        return next(r for r in self.storage.rows("game_sessions") if r["id"] == session_id)


def rig(clock: Any, dialogue: Any = None) -> Rig:
    storage = MemoryStorage()
    deps = Deps(storage, clock, RandomIds())
    jobs = DatabaseJobQueue(storage, clock, deps.ids)
    games = GameSessions(deps, jobs, dialogue or OfflineGroundedDialogue(), inline, GameLimits(IDLE))
    jobs.register("game.timer", games.on_timer)
    return Rig(storage, clock, jobs, games)


# --- the idle timer -----------------------------------------------------------------------------------------


async def test_a_stale_timer_never_abandons_a_game_that_moved_since(clock: Any) -> None:
    r = rig(clock)
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(),
                                                          game_id="tic_tac_toe"))
    clock.advance(IDLE - 10)
    await r.games.move(ORG, session.id, MoveCreate(move={"cell": 4}))  # re-arms the timer for IDLE from now
    clock.advance(10)  # the creation's timer is due now: the game has only been idle for 10 s
    await r.jobs.drain()
    assert r.row(session.id)["status"] == "active"
    clock.advance(IDLE - 11)
    await r.jobs.drain()
    assert r.row(session.id)["status"] == "active"
    clock.advance(1)  # IDLE seconds after the last move
    await r.jobs.drain()
    row = r.row(session.id)
    assert (row["status"], row["current_turn"], row["move_count"]) == ("abandoned", None, 2)
    assert (await r.games.get(ORG, session.id)).status == "abandoned"
    with pytest.raises(Conflict):
        await r.games.move(ORG, session.id, MoveCreate(move={"cell": 0}))


async def test_a_stale_timer_is_told_by_the_version_as_well_as_by_the_clock(clock: Any) -> None:
    r = rig(clock)
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(),
                                                          game_id="rock_paper_scissors"))
    await r.games.move(ORG, session.id, MoveCreate(move={"choice": "rock"}))
    clock.advance(IDLE * 3)
    first, second = sorted(r.storage.rows("jobs"), key=lambda j: j["payload"]["version"])
    await r.games.on_timer(first["payload"])  # armed at creation (version 0): stale, whatever the clock says
    assert r.row(session.id)["status"] == "active"
    await r.games.on_timer({k: v for k, v in first["payload"].items() if k != "version"})  # an older payload
    assert r.row(session.id)["status"] == "abandoned"
    await r.games.on_timer(second["payload"])  # nothing left to do; a final session stays as it is
    assert r.row(session.id)["status"] == "abandoned"


async def test_a_finished_game_is_left_alone_by_its_timers(clock: Any) -> None:
    r = rig(clock)
    pid = await r.personality()
    session = await r.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="hangman"))
    word = r.row(session.id)["state"]["_secret"]
    result = await r.games.move(ORG, session.id, MoveCreate(move={"word": word}))
    assert result.session.status == "completed" and result.session.winner == "user"
    assert len(r.storage.rows("jobs")) == 1  # a finished game arms no timer
    clock.advance(IDLE * 2)
    await r.jobs.drain()
    assert r.row(session.id)["status"] == "completed"


# --- optimistic concurrency ---------------------------------------------------------------------------------


async def test_of_two_moves_sent_at_once_exactly_one_applies(clock: Any) -> None:
    r = rig(clock, Gated(width=2))
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(),
                                                          game_id="rock_paper_scissors"))
    results = await asyncio.gather(
        r.games.move(ORG, session.id, MoveCreate(move={"choice": "rock"})),
        r.games.move(ORG, session.id, MoveCreate(move={"choice": "paper"})),
        return_exceptions=True,
    )
    applied = [x for x in results if not isinstance(x, BaseException)]
    refused = [x for x in results if isinstance(x, BaseException)]
    assert len(applied) == 1 and applied[0].user_move_valid
    assert len(refused) == 1 and isinstance(refused[0], Conflict)
    row = r.row(session.id)
    assert (row["version"], row["move_count"], len(row["state"]["history"])) == (1, 2, 1)
    assert row["state"]["history"][0]["user"] == applied[0].session.state["history"][0]["user"]


async def test_an_invalid_move_changes_nothing(clock: Any) -> None:
    r = rig(clock)
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(), game_id="chess"))
    before = r.row(session.id)
    for move in ({"uci": "e2e5"}, {"san": "Ke2"}, {"uci": "e2e4", "san": "e4"}, {}):
        result = await r.games.move(ORG, session.id, MoveCreate(move=move))
        assert result.user_move_valid is False and result.user_move_error
        assert result.session.state == session.state
    assert r.row(session.id) == before and len(r.storage.rows("jobs")) == 1


# --- commentary ---------------------------------------------------------------------------------------------


async def test_the_situation_carries_both_halves_of_the_exchange(clock: Any) -> None:
    dialogue = Recording()
    r = rig(clock, dialogue)
    pid = await r.personality()
    session = await r.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="tic_tac_toe",
                                                          options={"difficulty": "hard", "first": "personality"}))
    opening = r.row(session.id)["state"]["history"][0]
    assert dialogue.requests[-1].situation and dialogue.requests[-1].situation.personality_move == {
        "cell": opening}
    # the user never blocks: the perfect personality threatens, the user plays elsewhere (a blunder), and
    # the personality completes its line; the last exchange holds the user's blunder and the personality's win
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    for _ in range(4):
        state = r.row(session.id)["state"]
        board, mine = state["board"], state["marks"]["personality"]
        threatened = {c for line in lines if [board[i] for i in line].count(mine) == 2
                      for c in line if board[c] is None}
        free = [c for c in range(9) if board[c] is None]
        cell = next((c for c in free if c not in threatened), free[0])
        result = await r.games.move(ORG, session.id, MoveCreate(move={"cell": cell}, message="hello"))
        if result.session.status == "completed":
            break
    assert result.session.winner == "personality"
    situation = dialogue.requests[-1].situation
    assert situation is not None and dialogue.requests[-1].history[-1].content == "hello"
    assert {"blunder:user", "win"} <= set(situation.highlights)
    assert situation.winner == "personality" and situation.finished is True
    assert "the user made a blunder" in situation.summary and "personality won" in situation.summary
    assert situation.user_move == {"cell": cell}
    assert situation.personality_move == result.personality_move
    # default traits: the formal register, one sentence, about the most telling situation (the win)
    assert result.personality_message in {line.format(game="Tic-tac-toe") for line in LINES["win"][0]}


async def hangman_endings(r: Rig, pid: str) -> tuple[str, str]:
    """The personality's message when it loses (the word is guessed) and when it wins (lives run out)."""
    lost = await r.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="hangman"))
    word = r.row(lost.id)["state"]["_secret"]
    loss = await r.games.move(ORG, lost.id, MoveCreate(move={"word": word}))
    assert loss.session.winner == "user"
    won = await r.games.create(ORG, GameSessionCreate(personality_id=pid, game_id="hangman"))
    state = r.row(won.id)["state"]
    wrong_words = [c * state["length"] for c in "qxzjkvwy" if c * state["length"] != state["_secret"]]
    for wrong in wrong_words[: state["lives"]]:
        win = await r.games.move(ORG, won.id, MoveCreate(move={"word": wrong}))
        assert win.user_move_valid, win.user_move_error
    assert win.session.winner == "personality"
    assert loss.personality_message and win.personality_message
    return loss.personality_message, win.personality_message


async def test_commentary_follows_the_traits_and_the_result(clock: Any) -> None:
    r = rig(clock)
    formal_loss, formal_win = await hangman_endings(r, await r.personality(**FORMAL))
    funny_loss, funny_win = await hangman_endings(r, await r.personality(**FUNNY))
    assert len({formal_loss, formal_win, funny_loss, funny_win}) == 4
    game = "Hangman"
    assert formal_win in {line.format(game=game) for line in LINES["win"][0]}
    assert formal_loss in {line.format(game=game) for line in LINES["loss"][0]}
    for text, kind in ((funny_win, "win"), (funny_loss, "loss")):
        rest = next(text[len(line.format(game=game)) :] for line in LINES[kind][1]
                    if text.startswith(line.format(game=game)))
        assert rest.strip() in {joke.format(game=game) for joke in JOKES}  # a humorous personality jokes
    assert not any(joke.format(game=game) in formal_loss + formal_win for joke in JOKES)


async def test_a_failing_dialogue_engine_costs_no_move(clock: Any) -> None:
    r = rig(clock, Broken())
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(**FORMAL),
                                                          game_id="connect_four", options={"first": "personality"}))
    assert session.personality_commentary
    result = await r.games.move(ORG, session.id, MoveCreate(move={"column": 3}))
    assert result.user_move_valid and result.personality_message
    assert r.row(session.id)["move_count"] == 3


@pytest.mark.parametrize("traits", [FORMAL, FUNNY, {**FORMAL, "verbosity": 0.1}])
async def test_commentary_never_repeats_a_line_within_a_game(clock: Any, traits: dict[str, float]) -> None:
    r = rig(clock)
    session = await r.games.create(ORG, GameSessionCreate(personality_id=await r.personality(**traits),
                                                          game_id="connect_four", options={"difficulty": "easy"}))
    said = [session.personality_commentary] if session.personality_commentary else []
    column = 0
    while True:
        state = r.row(session.id)["state"]
        free = [c for c in range(7) if state["board"][0][c] is None]
        column = next(c for c in [*range(column, 7), *range(column)] if c in free)
        result = await r.games.move(ORG, session.id, MoveCreate(move={"column": column}))
        assert result.user_move_valid and result.personality_message
        said.append(result.personality_message)
        # each line is tied to the moves: the personality's column is in it while the game goes on
        if result.session.status != "completed" and result.personality_move:
            assert f"column {result.personality_move['column']}" in result.personality_message
        if result.session.status == "completed":
            break
        column = (column + 1) % 7
    sentences = [s for line in said for s in re.split(r"(?<=[.!?])\s+", line)]
    assert len(said) >= 4 and len(sentences) == len(set(sentences)), said
