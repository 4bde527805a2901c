"""Games over HTTP: the catalogue, sessions of every game, valid and invalid moves, abandon, errors."""

from typing import Any

from litestar.testing import AsyncTestClient

from .helpers import assert_error, assert_id, assert_timestamp, create_personality, create_user

FIELDS = {
    "id",
    "object",
    "game_id",
    "personality_id",
    "status",
    "created_at",
    "user_id",
    "current_turn",
    "state",
    "winner",
    "move_count",
    "personality_commentary",
    "updated_at",
}
RESULT_FIELDS = {"session", "user_move_valid", "user_move_error", "personality_move", "personality_message"}
# game id -> (a legal first move, an illegal one)
MOVES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "tic_tac_toe": ({"cell": 4}, {"cell": 9}),
    "connect_four": ({"column": 3}, {"column": 7}),
    "chess": ({"uci": "e2e4"}, {"uci": "e2e5"}),
    "rock_paper_scissors": ({"choice": "rock"}, {"choice": "lizard"}),
    "hangman": ({"letter": "e"}, {"letter": "ab"}),
}


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
        assert response.status_code == 201, response.text
        session = response.json()
        assert set(session) == FIELDS
        assert_id(session["id"], "gs_")
        assert session["object"] == "game_session"
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
    for body in ({}, {"move": "e2e4"}, {"move": ["e2e4"]}, {"move": None}):
        assert_error(await client.post(path, json=body), 400, code="parameter_invalid", param="move")
    assert_error(
        await client.post(path, json={"move": {"uci": "e2e4"}, "message": "x" * 2001}), 400, param="message"
    )
    # Anything wrong inside the move object is answered in-band.
    for move in ({"uci": "zz"}, {"uci": 5}, {"knight": "f3"}, {}):
        result = await client.post(path, json={"move": move})
        assert result.status_code == 200, result.text
        assert result.json()["user_move_valid"] is False
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
