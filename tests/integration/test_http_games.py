"""Games over HTTP on SQLite and PostgreSQL: the catalogue, sessions of every game, valid and invalid moves,
options, abandon and errors; every game played to its end; concurrent moves; filters; the idle timeout."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient
from litestar.testing.transport import TestClientTransport

from avatar_service.core.games.commentary import LINES
from avatar_service.core.services.games import GameSessions
from avatar_service.ports.dialogue import DialogueRequest
from avatar_service.ports.storage import Storage

from . import fields
from .helpers import (
    Service,
    assert_created,
    assert_error,
    assert_timestamp,
    create_personality,
    create_user,
    walk,
)

FIELDS = fields.GAME_SESSION
RESULT_FIELDS = fields.MOVE_RESULT
# game id -> (a legal first move, an illegal one)
MOVES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "tic_tac_toe": ({"cell": 4}, {"cell": 9}),
    "connect_four": ({"column": 3}, {"column": 7}),
    "chess": ({"uci": "e2e4"}, {"uci": "e2e5"}),
    "rock_paper_scissors": ({"choice": "rock"}, {"choice": "lizard"}),
    "hangman": ({"letter": "e"}, {"letter": "ab"}),
}


C4_LINES = [[(r + i * dr, c + i * dc) for i in range(4)]
            for r in range(6) for c in range(7) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            if 0 <= r + 3 * dr < 6 and 0 <= c + 3 * dc < 7]
TTT_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


async def start(client: AsyncTestClient[Any], game_id: str, personality_id: str | None = None,
                **options: Any) -> dict[str, Any]:
    if personality_id is None:
        personality_id = (await create_personality(client))["id"]
    response = await client.post("/v1/game-sessions", json={"personality_id": personality_id, "game_id": game_id,
                                                            "options": options})
    assert response.status_code == 201, response.text
    session: dict[str, Any] = response.json()
    assert session["status"] == "active"  # the opening move, if any, is made inside the request
    assert session["current_turn"] == "user"
    return session


async def play(client: AsyncTestClient[Any], session: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """One valid move; checks what every move result must hold and returns it."""
    response = await client.post(f"/v1/game-sessions/{session['id']}/move", json={"move": move})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    assert result["user_move_valid"] is True, result
    after = result["session"]
    assert after["personality_commentary"] == result["personality_message"] and result["personality_message"]
    assert after["status"] in {"active", "completed"}
    if after["status"] == "completed":
        assert after["winner"] in {"user", "personality", "draw"} and after["current_turn"] is None
        assert after["state"]["finished"] is True and after["state"]["winner"] == after["winner"]
    else:
        assert after["winner"] is None and after["current_turn"] == "user"
    fetched = await client.get(f"/v1/game-sessions/{session['id']}")
    assert fetched.json() == after
    return result


# --- the API, one move at a time --------------------------------------------------------------------------------


async def test_catalogue(client: AsyncTestClient[Any]) -> None:
    response = await client.get("/v1/games")
    assert response.status_code == 200
    games = response.json()["data"]
    assert {g["id"] for g in games} == set(MOVES)
    for game in games:
        assert isinstance(game["name"], str) and game["name"]
        assert isinstance(game["description"], str) and game["description"]
        assert game["move_schema"]["type"] == "object"
        assert game["options_schema"]["type"] == "object"


async def test_every_game_takes_a_valid_and_an_invalid_move(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    user = await create_user(client)
    for game_id, (legal, illegal) in MOVES.items():
        response = await client.post(
            "/v1/game-sessions",
            json={"personality_id": personality["id"], "game_id": game_id, "user_id": user["id"]},
        )
        session = assert_created(response, FIELDS, "gs_", "game_session")
        assert (session["game_id"], session["personality_id"], session["user_id"]) == (
            game_id,
            personality["id"],
            user["id"],
        )
        assert session["status"] == "active" and session["current_turn"] == "user"
        assert session["move_count"] == 0 and session["winner"] is None
        assert isinstance(session["state"], dict)
        assert_timestamp(session["created_at"])
        path = f"/v1/game-sessions/{session['id']}"

        bad = await client.post(f"{path}/move", json={"move": illegal})
        assert bad.status_code == 200, bad.text
        result = bad.json()
        assert set(result) == RESULT_FIELDS
        assert result["user_move_valid"] is False, game_id
        assert isinstance(result["user_move_error"], str) and result["user_move_error"]
        assert result["session"]["move_count"] == 0 and result["session"]["state"] == session["state"]

        good = await client.post(f"{path}/move", json={"move": legal, "message": "Your turn!"})
        assert good.status_code == 200, good.text
        result = good.json()
        assert set(result) == RESULT_FIELDS
        assert result["user_move_valid"] is True, (game_id, result)
        assert result["user_move_error"] is None
        assert result["session"]["move_count"] >= 1
        assert result["session"]["status"] in {"active", "completed"}
        if game_id in {"tic_tac_toe", "connect_four", "chess"}:
            assert result["session"]["move_count"] == 2  # the user's move and the personality's answer
            assert isinstance(result["personality_move"], dict) and result["personality_move"]
            assert result["session"]["current_turn"] == "user"
        assert isinstance(result["personality_message"], str) and result["personality_message"]
        assert result["session"]["personality_commentary"] == result["personality_message"]
        fetched = await client.get(path)
        assert fetched.status_code == 200 and fetched.json() == result["session"]


async def test_options(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    pid = personality["id"]
    response = await client.post(
        "/v1/game-sessions",
        json={
            "personality_id": pid,
            "game_id": "tic_tac_toe",
            "options": {"first": "personality", "difficulty": "hard"},
        },
    )
    assert response.status_code == 201, response.text
    session = response.json()
    assert session["move_count"] == 1 and session["current_turn"] == "user"
    assert session["user_id"] is None
    for game_id, options, param in [
        ("tic_tac_toe", {"difficulty": "impossible"}, "options.difficulty"),
        ("chess", {"first": "nobody"}, "options.first"),
        ("rock_paper_scissors", {"rounds": 4}, "options.rounds"),
        ("hangman", {"colour": "red"}, "options.colour"),
    ]:
        assert_error(
            await client.post(
                "/v1/game-sessions", json={"personality_id": pid, "game_id": game_id, "options": options}
            ),
            400,
            param=param,
        )


async def test_abandon_and_finished_sessions(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    session = (
        await client.post(
            "/v1/game-sessions", json={"personality_id": personality["id"], "game_id": "connect_four"}
        )
    ).json()
    path = f"/v1/game-sessions/{session['id']}"
    abandoned = await client.post(f"{path}/abandon")
    assert abandoned.status_code == 200, abandoned.text
    assert set(abandoned.json()) == FIELDS
    assert abandoned.json()["status"] == "abandoned"
    again = await client.post(f"{path}/abandon")
    assert again.status_code == 200 and again.json() == abandoned.json()
    assert_error(await client.post(f"{path}/move", json={"move": {"column": 0}}), 409, code="state_conflict")

    match = (
        await client.post(
            "/v1/game-sessions",
            json={
                "personality_id": personality["id"],
                "game_id": "rock_paper_scissors",
                "options": {"rounds": 1},
            },
        )
    ).json()
    path = f"/v1/game-sessions/{match['id']}"
    for _ in range(30):  # draws replay the round
        result = (await client.post(f"{path}/move", json={"move": {"choice": "paper"}})).json()
        assert result["user_move_valid"] is True
        if result["session"]["status"] == "completed":
            break
    assert result["session"]["status"] == "completed"
    assert result["session"]["winner"] in {"user", "personality", "draw"}
    assert_error(
        await client.post(f"{path}/move", json={"move": {"choice": "rock"}}), 409, code="state_conflict"
    )
    assert_error(await client.post(f"{path}/abandon"), 409, code="state_conflict")

    listed = await client.get("/v1/game-sessions", params={"status": "completed"})
    assert [s["id"] for s in listed.json()["data"]] == [match["id"]]
    listed = await client.get("/v1/game-sessions", params={"status": "abandoned"})
    assert [s["id"] for s in listed.json()["data"]] == [session["id"]]
    assert (await client.get("/v1/game-sessions", params={"status": "waiting"})).json()["data"] == []
    assert_error(await client.get("/v1/game-sessions", params={"status": "paused"}), 400, param="status")


async def test_create_and_move_errors(client: AsyncTestClient[Any]) -> None:
    personality = await create_personality(client)
    pid = personality["id"]
    assert_error(
        await client.post("/v1/game-sessions", json={"personality_id": pid, "game_id": "poker"}),
        404,
        code="resource_missing",
        param="game_id",
    )
    assert_error(
        await client.post(
            "/v1/game-sessions", json={"personality_id": f"personality_{'x' * 24}", "game_id": "chess"}
        ),
        404,
        code="resource_missing",
        param="personality_id",
    )
    assert_error(
        await client.post(
            "/v1/game-sessions",
            json={"personality_id": pid, "game_id": "chess", "user_id": f"user_{'x' * 24}"},
        ),
        404,
        code="resource_missing",
        param="user_id",
    )
    assert_error(
        await client.post("/v1/game-sessions", json={"game_id": "chess"}), 400, param="personality_id"
    )
    assert_error(await client.post("/v1/game-sessions", json={"personality_id": pid}), 400, param="game_id")

    session = (
        await client.post("/v1/game-sessions", json={"personality_id": pid, "game_id": "chess"})
    ).json()
    path = f"/v1/game-sessions/{session['id']}/move"
    assert_error(
        await client.post(path, json={"move": {"uci": "e2e4"}, "message": "x" * 2001}), 400, param="message"
    )
    # What is wrong inside a move object is answered in-band (test_move_content_errors_...).
    san = await client.post(path, json={"move": {"san": "Nf3"}})
    assert san.json()["user_move_valid"] is True
    for ident in (f"gs_{'x' * 24}", "garbage"):
        assert_error(await client.get(f"/v1/game-sessions/{ident}"), 404, code="resource_missing")
        assert_error(
            await client.post(f"/v1/game-sessions/{ident}/move", json={"move": {"uci": "e2e4"}}),
            404,
            code="resource_missing",
        )
        assert_error(await client.post(f"/v1/game-sessions/{ident}/abandon"), 404, code="resource_missing")


# --- move errors ------------------------------------------------------------------------------------------------


async def test_move_content_errors_are_in_band_and_a_missing_move_is_a_400(client: AsyncTestClient[Any]) -> None:
    personality = (await create_personality(client))["id"]
    wrong: dict[str, list[dict[str, Any]]] = {
        "tic_tac_toe": [{"cell": "4"}, {"cell": -1}, {"cell": True}, {"column": 3}, {"cell": 1, "x": 2}],
        "connect_four": [{"column": 7}, {"column": 2.5}, {"cell": 3}],
        "chess": [{"uci": "e7e5"}, {"san": "Nf6"}, {"uci": "e2e4", "san": "e4"}, {"uci": None}, {"uci": "zz"},
                  {"uci": 5}, {"knight": "f3"}],
        "rock_paper_scissors": [{"choice": "lizard"}, {"choice": 1}, {"throw": "rock"}],
        "hangman": [{"letter": "1"}, {"letter": "ab"}, {"word": "x"}, {"letter": "a", "word": "abc"}],
    }
    for game_id, moves in wrong.items():
        session = await start(client, game_id, personality)
        path = f"/v1/game-sessions/{session['id']}/move"
        for move in [*moves, {}]:
            response = await client.post(path, json={"move": move})
            assert response.status_code == 200, (game_id, move, response.text)
            result = response.json()
            assert result["user_move_valid"] is False, (game_id, move)
            assert isinstance(result["user_move_error"], str) and result["user_move_error"], (game_id, move)
            assert result["personality_move"] is None and result["personality_message"] is None
            assert result["session"] == session  # nothing changed
        for body in ({}, {"move": None}, {"move": "e4"}, {"move": [1]}, {"move": 3}, {"message": "hi"}):
            assert_error(await client.post(path, json=body), 400, code="parameter_invalid", param="move")
        assert (await client.get(f"/v1/game-sessions/{session['id']}")).json() == session


# --- every game to its end ------------------------------------------------------------------------------------


async def test_tic_tac_toe_hard_ends_in_a_draw_or_a_personality_win(client: AsyncTestClient[Any]) -> None:
    for first in ("user", "personality"):
        await tic_tac_toe_to_the_end(client, first)


async def tic_tac_toe_to_the_end(client: AsyncTestClient[Any], first: str) -> None:
    session = await start(client, "tic_tac_toe", difficulty="hard", first=first)
    assert session["move_count"] == (1 if first == "personality" else 0)
    for _ in range(5):
        board = session["state"]["board"]
        # a fair try: win when possible, else block, else take the centre or a corner
        mine, theirs = session["state"]["marks"]["user"], session["state"]["marks"]["personality"]
        free = [c for c in (4, 0, 2, 6, 8, 1, 3, 5, 7) if board[c] is None]

        def completing(mark: str, board: list[Any] = board, free: list[int] = free) -> list[int]:
            return [c for c in free for ln in TTT_LINES if c in ln and sum(board[i] == mark for i in ln) == 2]

        cell = (completing(mine) or completing(theirs) or free)[0]
        result = await play(client, session, {"cell": cell})
        session = result["session"]
        if session["status"] == "completed":
            break
        assert result["personality_move"]["cell"] in range(9)
    assert session["status"] == "completed"
    assert session["winner"] in {"draw", "personality"}
    assert session["move_count"] == len(session["state"]["history"]) == sum(c is not None for c in
                                                                             session["state"]["board"])


async def test_rock_paper_scissors_best_of_three_completes_with_a_winner(client: AsyncTestClient[Any]) -> None:
    session = await start(client, "rock_paper_scissors")  # rounds default to 3
    throws = ["rock", "paper", "scissors", "rock", "rock", "paper", "scissors", "scissors", "paper"]
    for i, choice in enumerate(throws):
        result = await play(client, session, {"choice": choice})
        session = result["session"]
        assert result["personality_move"]["choice"] in {"rock", "paper", "scissors"}
        assert session["state"]["history"][-1] == {"user": choice, "personality": result["personality_move"]["choice"],
                                                   "winner": session["state"]["history"][-1]["winner"]}
        assert session["move_count"] == 2 * (i + 1)  # both throws of every round count
        if session["status"] == "completed":
            break
    assert session["status"] == "completed"
    score = session["state"]["score"]
    if max(score["user"], score["personality"]) >= 2:
        assert session["winner"] == ("user" if score["user"] == 2 else "personality")
    else:  # nine throws with at most one win each: the throw cap ends it on the score
        assert session["winner"] == "draw" and score["user"] == score["personality"]


async def secret_of(service: Service, session_id: str) -> str:
    """The hangman word, read from storage: the API never shows it before the end."""
    async def read() -> str:
        async with service.container.resolve(Storage)(service.organization_id, read_only=True) as uow:
            record = await uow.game_sessions.get(session_id)
            return str(record.state["_secret"])
    return service.call(read)


async def test_hangman_guessing_the_word_wins(service: Service, client: AsyncTestClient[Any]) -> None:
    formal = (await create_personality(client, traits={"formality": 0.95, "humor": 0.0}))["id"]
    casual = (await create_personality(client, traits={"formality": 0.05, "humor": 0.0}))["id"]
    session = await start(client, "hangman", formal, difficulty="hard")
    word = await secret_of(service, session["id"])
    assert "_secret" not in session["state"] and session["state"]["word"] is None
    missing = next(c for c in "qzjxkvwy" if c not in word)
    result = await play(client, session, {"letter": missing})
    assert result["session"]["state"]["lives_left"] == result["session"]["state"]["lives"] - 1
    assert result["personality_move"] is None and result["session"]["move_count"] == 1
    listed = await client.get("/v1/game-sessions")
    # the word stays private while the game is on (as a word: a short one like "ear" is inside "year" or an id)
    assert not re.search(rf"(?<![\w-]){word}(?![\w-])", json.dumps(result) + listed.text, re.IGNORECASE)
    result = await play(client, session, {"word": word.upper()})
    final = result["session"]
    assert (final["status"], final["winner"], final["move_count"]) == ("completed", "user", 2)
    assert final["state"]["word"] == word and final["state"]["masked"] == word
    assert_error(await client.post(f"/v1/game-sessions/{session['id']}/move", json={"move": {"letter": "a"}}),
                 409, code="state_conflict")
    # the personality's line on losing follows its traits: formal, then casual
    assert result["personality_message"] in LINES["loss"][0]
    session = await start(client, "hangman", casual)
    result = await play(client, session, {"word": await secret_of(service, session["id"])})
    assert result["session"]["winner"] == "user" and result["personality_message"] in LINES["loss"][1]


async def test_chess_scholars_mate_attempt_then_abandon(client: AsyncTestClient[Any]) -> None:
    session = await start(client, "chess", difficulty="easy")
    for san in ("e4", "Bc4", "Qh5", "Qxf7#"):
        response = await client.post(f"/v1/game-sessions/{session['id']}/move", json={"move": {"san": san}})
        result = response.json()
        if not result["user_move_valid"]:
            # the personality defended: the attempt ends here, the session unchanged
            assert isinstance(result["user_move_error"], str) and result["session"] == session
            break
        session = result["session"]
        assert session["state"]["last_move"]["by"] in {"user", "personality"}
        if session["status"] == "completed":
            break
    if session["status"] == "completed":
        assert session["winner"] == "user" and session["state"]["termination"] == "checkmate"
        assert session["move_count"] == 7
        return
    abandoned = await client.post(f"/v1/game-sessions/{session['id']}/abandon")
    assert abandoned.status_code == 200
    body = abandoned.json()
    assert (body["status"], body["current_turn"], body["winner"]) == ("abandoned", None, None)
    assert body["move_count"] == session["move_count"] and body["state"] == session["state"]
    assert_error(await client.post(f"/v1/game-sessions/{session['id']}/move", json={"move": {"uci": "d2d4"}}),
                 409, code="state_conflict")


def c4_choice(board: list[list[Any]], mine: str, theirs: str) -> int:
    """Win if possible, else block, else the most central open column."""
    open_columns = sorted((c for c in range(7) if board[0][c] is None), key=lambda c: abs(3 - c))

    def landing(c: int) -> int:
        return max(r for r in range(6) if board[r][c] is None)

    for mark in (mine, theirs):
        for c in open_columns:
            r = landing(c)
            for line in C4_LINES:
                if (r, c) in line and sum(board[y][x] == mark for y, x in line) == 3:
                    return c
    return open_columns[0]


async def test_connect_four_against_easy_to_the_end(client: AsyncTestClient[Any]) -> None:
    session = await start(client, "connect_four", difficulty="easy")
    for _ in range(21):
        state = session["state"]
        column = c4_choice(state["board"], state["marks"]["user"], state["marks"]["personality"])
        result = await play(client, session, {"column": column})
        session = result["session"]
        if session["status"] == "completed":
            break
    assert session["status"] == "completed"
    board, winner = session["state"]["board"], session["winner"]
    discs = sum(cell is not None for row in board for cell in row)
    assert session["move_count"] == discs == len(session["state"]["history"])
    if winner == "draw":
        assert discs == 42
    else:
        mark = session["state"]["marks"][winner]
        four = session["state"]["winning_cells"]
        assert len(four) == 4 and all(board[r][c] == mark for r, c in four)


# --- concurrency ------------------------------------------------------------------------------------------------


class _Threaded(httpx.BaseTransport):
    """The test client's transport, usable from another thread: its requests run on the app's own loop, so
    several threads make truly concurrent requests (the async client itself sends one at a time)."""

    def __init__(self, client: AsyncTestClient[Any]) -> None:
        self.inner = TestClientTransport(client)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.inner.handle_request(request)


async def post_at_once(client: AsyncTestClient[Any], path: str, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    sync = httpx.Client(transport=_Threaded(client), base_url=str(client.base_url), headers=client.headers)
    return list(await asyncio.gather(*(asyncio.to_thread(sync.post, path, json=body) for body in bodies)))


class Gate:
    """Wraps the dialogue engine so that each move waits, after reading and computing and before writing,
    until `width` moves are in flight: the moves overlap for certain, not by luck of scheduling."""

    def __init__(self, inner: Any, width: int) -> None:
        self.inner, self.width, self.name = inner, width, "gate"
        self.waiting = 0
        self.open: asyncio.Event | None = None

    async def reply(self, request: DialogueRequest) -> str:
        self.open = self.open or asyncio.Event()
        self.waiting += 1
        if self.waiting >= self.width:
            self.open.set()
        await asyncio.wait_for(self.open.wait(), 10)
        return str(await self.inner.reply(request))

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        yield await self.reply(request)


async def test_two_moves_at_once_never_both_apply(service: Service, client: AsyncTestClient[Any]) -> None:
    games = service.container.resolve(GameSessions)
    gate = Gate(games.dialogue, width=2)
    games.dialogue = gate
    for game_id, moves in (("rock_paper_scissors", [{"choice": "rock"}, {"choice": "paper"}]),
                           ("tic_tac_toe", [{"cell": 0}, {"cell": 8}])):
        session = await start(client, game_id)
        gate.waiting, gate.open = 0, None
        path = f"/v1/game-sessions/{session['id']}/move"
        responses = await post_at_once(client, path, [{"move": m} for m in moves])
        codes = sorted(r.status_code for r in responses)
        assert codes == [200, 409], [r.text for r in responses]
        applied = next(r.json() for r in responses if r.status_code == 200)
        assert applied["user_move_valid"] is True
        assert_error(next(r for r in responses if r.status_code == 409), 409, code="state_conflict")
        stored = (await client.get(f"/v1/game-sessions/{session['id']}")).json()
        assert stored == applied["session"] and stored["move_count"] == 2
        assert len(stored["state"]["history"]) == (1 if game_id == "rock_paper_scissors" else 2)


async def test_a_burst_of_moves_loses_no_update(client: AsyncTestClient[Any]) -> None:
    """Without a gate the moves interleave as they may; whatever applied is exactly what is stored."""
    session = await start(client, "rock_paper_scissors", rounds=99)
    path = f"/v1/game-sessions/{session['id']}/move"
    responses = await post_at_once(client, path, [{"move": {"choice": c}} for c in ["rock", "paper", "scissors"] * 2])
    assert {r.status_code for r in responses} <= {200, 409}
    applied = [r.json() for r in responses if r.status_code == 200]
    assert applied and all(a["user_move_valid"] for a in applied)
    stored = (await client.get(f"/v1/game-sessions/{session['id']}")).json()
    assert len(stored["state"]["history"]) == len(applied) and stored["move_count"] == 2 * len(applied)
    assert max(a["session"]["move_count"] for a in applied) == stored["move_count"]


# --- listing and the idle timeout ---------------------------------------------------------------------------------


async def test_list_filters_by_status(client: AsyncTestClient[Any]) -> None:
    personality = (await create_personality(client))["id"]
    active = [await start(client, "chess", personality) for _ in range(3)]
    abandoned = await start(client, "connect_four", personality)
    assert (await client.post(f"/v1/game-sessions/{abandoned['id']}/abandon")).status_code == 200
    completed = await start(client, "hangman", personality)
    for letter in "qxzjkvwy"[: completed["state"]["lives"]]:  # no word of the list is one letter repeated
        completed = (await play(client, completed, {"word": letter * completed["state"]["length"]}))["session"]
    assert completed["status"] == "completed" and completed["winner"] == "personality"

    def ids(items: list[dict[str, Any]]) -> list[str]:
        return [s["id"] for s in items]

    assert ids(await walk(client, "/v1/game-sessions", 2, status="active")) == [s["id"] for s in reversed(active)]
    assert ids(await walk(client, "/v1/game-sessions", 2, status="abandoned")) == [abandoned["id"]]
    assert ids(await walk(client, "/v1/game-sessions", 2, status="completed")) == [completed["id"]]
    assert await walk(client, "/v1/game-sessions", 2, status="waiting") == []
    assert len(await walk(client, "/v1/game-sessions", 2)) == 5
    assert_error(await client.get("/v1/game-sessions", params={"status": "finished"}), 400, param="status")


IDLE_TIMEOUT = 2.0


@pytest.mark.parametrize("settings_overrides", [{"game_idle_timeout": IDLE_TIMEOUT}])
async def test_an_idle_session_is_abandoned_and_a_moving_one_is_not(service: Service,
                                                                    client: AsyncTestClient[Any]) -> None:
    # Sleeps are measured from when each request returned, so a slow machine (a move's reply can take a second
    # on a loaded CI runner) moves the checks later instead of failing them.
    personality = (await create_personality(client))["id"]
    idle = await start(client, "tic_tac_toe", personality)
    moving = await start(client, "tic_tac_toe", personality)
    created = time.monotonic()
    await asyncio.sleep(IDLE_TIMEOUT / 2)
    moved_before = time.monotonic()
    await play(client, moving, {"cell": 4})  # re-arms its timer
    moved_after = time.monotonic()
    await asyncio.sleep(max(0.0, created + IDLE_TIMEOUT + 0.1 - time.monotonic()))
    await service.drain()  # both creation timers are due; only the idle session has been idle that long
    assert (await client.get(f"/v1/game-sessions/{idle['id']}")).json()["status"] == "abandoned"
    if time.monotonic() - moved_before < IDLE_TIMEOUT:  # else even the moving one has been idle that long by now
        assert (await client.get(f"/v1/game-sessions/{moving['id']}")).json()["status"] == "active"
    await asyncio.sleep(max(0.0, moved_after + IDLE_TIMEOUT + 0.1 - time.monotonic()))
    await service.drain()
    body = (await client.get(f"/v1/game-sessions/{moving['id']}")).json()
    assert (body["status"], body["current_turn"], body["move_count"]) == ("abandoned", None, 2)
