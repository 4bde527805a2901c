"""Properties shared by every game: catalogue, options, random legal play, correct winners, bad moves."""

from __future__ import annotations

import copy

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from avatar_service.core.games import CATALOGUE, IllegalMove, InvalidOptions, Outcome, catalogue_entry
from avatar_service.core.games.connect_four import four_cells
from avatar_service.core.games.tic_tac_toe import winner_mark

from .play import QUICK, legal_moves, play_random

IDS = ["tic_tac_toe", "connect_four", "chess", "rock_paper_scissors", "hangman"]


def expected_winner(game_id: str, state: dict) -> str:
    """The winner recomputed from the final state, without the engine's own bookkeeping."""
    if game_id == "tic_tac_toe":
        mark = winner_mark(tuple(state["board"]))
        assert mark or None not in state["board"]
        return {v: k for k, v in state["marks"].items()}[mark] if mark else "draw"
    if game_id == "connect_four":
        marks = {v: k for k, v in state["marks"].items()}
        wins = [m for m in ("X", "O") if four_cells(state["board"], m)]
        assert len(wins) <= 1
        assert wins or all(c is not None for row in state["board"] for c in row)
        return marks[wins[0]] if wins else "draw"
    if game_id == "chess":
        board = chess.Board()
        for uci in state["history"]:
            board.push_uci(uci)
        assert board.fen() == state["fen"]
        if board.is_checkmate():
            loser = "white" if board.turn == chess.WHITE else "black"
            return {v: k for k, v in state["colors"].items() if v != loser}.popitem()[1]
        assert (
            board.is_stalemate()
            or board.is_insufficient_material()
            or board.is_repetition(3)
            or board.halfmove_clock >= 100
            or board.is_seventyfive_moves()
        )
        return "draw"
    if game_id == "rock_paper_scissors":
        score = {"user": 0, "personality": 0}
        for rnd in state["history"]:
            if rnd["winner"] != "draw":
                score[rnd["winner"]] += 1
        assert score == {k: state["score"][k] for k in score}
        need = state["rounds"] // 2 + 1
        if max(score.values()) >= need:
            return "user" if score["user"] >= need else "personality"
        assert len(state["history"]) == 3 * state["rounds"]
        return "draw" if score["user"] == score["personality"] else max(score, key=score.__getitem__)
    word = state["word"]
    assert word == state["_secret"]
    if all(c in state["guessed"] for c in word) or state["masked"] == word:
        return "user"
    assert state["lives_left"] == 0
    return "personality"


def test_catalogue_order_and_entries() -> None:
    assert list(CATALOGUE) == IDS
    for game in CATALOGUE.values():
        entry = catalogue_entry(game)
        assert set(entry) == {
            "id",
            "name",
            "description",
            "move_schema",
            "options_schema",
            "state_schema",
            "options_defaults",
        }
        assert entry["options_defaults"]["difficulty"] == "medium"
    assert catalogue_entry(CATALOGUE["chess"])["options_defaults"] == {
        "difficulty": "medium",
        "first": "user",
    }
    assert catalogue_entry(CATALOGUE["rock_paper_scissors"])["options_defaults"] == {
        "difficulty": "medium",
        "rounds": 3,
    }


@pytest.mark.parametrize("game_id", IDS)
def test_defaults_are_filled_into_the_state(game_id: str) -> None:
    state, first = CATALOGUE[game_id].start({}, 1)
    assert first == "user"
    assert state["options"] == catalogue_entry(CATALOGUE[game_id])["options_defaults"]
    assert state["turn"] == "user" and state["finished"] is False and state["winner"] is None


@pytest.mark.parametrize(
    ("game_id", "options", "param"),
    [
        ("tic_tac_toe", {"difficulty": "impossible"}, "options.difficulty"),
        ("connect_four", {"first": "computer"}, "options.first"),
        ("chess", {"colour": "white"}, "options.colour"),
        ("rock_paper_scissors", {"rounds": 4}, "options.rounds"),
        ("rock_paper_scissors", {"rounds": 101}, "options.rounds"),
        ("rock_paper_scissors", {"rounds": "3"}, "options.rounds"),
        ("rock_paper_scissors", {"rounds": True}, "options.rounds"),
        ("rock_paper_scissors", {"rounds": -1}, "options.rounds"),
        ("hangman", {"difficulty": None}, "options.difficulty"),
        ("hangman", {"first": "nobody"}, "options.first"),
        ("chess", [], "options"),
    ],
)
def test_bad_options_name_the_parameter(game_id: str, options: object, param: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        CATALOGUE[game_id].start(options, 1)  # type: ignore[arg-type]
    assert err.value.param == param
    assert err.value.message


def test_first_and_difficulty_are_tolerated_where_they_do_not_apply() -> None:
    state, first = CATALOGUE["rock_paper_scissors"].start({"first": "personality", "rounds": 5}, 1)
    assert first == "user" and state["options"] == {"difficulty": "medium", "rounds": 5}
    state, first = CATALOGUE["hangman"].start({"first": "personality", "difficulty": "easy"}, 1)
    assert first == "user" and state["options"] == {"difficulty": "easy"}


@pytest.mark.parametrize("game_id", ["tic_tac_toe", "connect_four", "chess"])
def test_personality_can_go_first(game_id: str) -> None:
    game = QUICK[game_id]
    state, first = game.start({"first": "personality"}, 3)
    assert first == "personality" and state["turn"] == "personality"
    with pytest.raises(IllegalMove, match="not your turn"):
        game.user_move(state, legal_moves(game_id, state)[0])
    move, outcome = game.personality_move(state)
    assert move in legal_moves(game_id, state)
    assert outcome.next_turn == "user" and "by_personality" in outcome.highlights


@pytest.mark.parametrize("game_id", IDS)
@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
    first=st.sampled_from(["user", "personality"]),
)
def test_random_play_stays_legal_and_ends_with_the_right_winner(
    game_id: str, seed: int, difficulty: str, first: str
) -> None:
    options = {"difficulty": difficulty}
    if game_id in ("tic_tac_toe", "connect_four", "chess"):
        options["first"] = first
    state, log = play_random(QUICK[game_id], options, seed)
    assert state["winner"] == expected_winner(game_id, state)
    for _, _, outcome in log:
        assert isinstance(outcome, Outcome)
        assert sum(t in ("by_user", "by_personality") for t in outcome.highlights) == 1
    last = log[-1][2]
    assert {"win", "loss", "draw"} & set(last.highlights)


@pytest.mark.parametrize("game_id", IDS)
def test_the_same_state_gives_the_same_personality_move(game_id: str) -> None:
    game = QUICK[game_id]
    options = {"first": "personality"} if game_id in ("tic_tac_toe", "connect_four", "chess") else {}
    state, _ = game.start(options, 42)
    if state["turn"] != "personality":
        state = game.user_move(state, legal_moves(game_id, state)[0]).state
    if state["turn"] == "personality":
        assert game.personality_move(state)[0] == game.personality_move(copy.deepcopy(state))[0]


BAD_MOVES = {
    "tic_tac_toe": [
        ({"cell": 9}, "off the board"),
        ({"cell": "4"}, "integer"),
        ({"cell": True}, "integer"),
        ({"square": 1}, "unknown move field"),
        ({}, "exactly one"),
    ],
    "connect_four": [
        ({"column": -1}, "off the board"),
        ({"column": 3.0}, "integer"),
        ({"column": 1, "row": 2}, "unknown move field"),
    ],
    "chess": [
        ({"uci": "e2e5"}, "not a legal move"),
        ({"san": "Ke2"}, "not a legal move"),
        ({"uci": "zz"}, "not a valid UCI"),
        ({"san": ""}, "non-empty"),
        ({"uci": "e2e4", "san": "e4"}, "exactly one"),
        ({"uci": 5}, "string"),
    ],
    "rock_paper_scissors": [({"choice": "lizard"}, "rock"), ({"choice": None}, "rock")],
    "hangman": [
        ({"letter": "ab"}, "single letter"),
        ({"letter": "7"}, "single letter"),
        ({"word": "a b"}, "letters"),
        ({"word": 3}, "string"),
        ({"letter": "é"}, "single letter"),
    ],
}


@pytest.mark.parametrize(
    ("game_id", "move", "reason"), [(g, m, r) for g, cases in BAD_MOVES.items() for m, r in cases]
)
def test_bad_moves_raise_with_a_reason_and_change_nothing(game_id: str, move: dict, reason: str) -> None:
    state, _ = QUICK[game_id].start({}, 5)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=reason):
        QUICK[game_id].user_move(state, move)
    assert state == before


ANY_MOVE = {
    "tic_tac_toe": {"cell": 0},
    "connect_four": {"column": 0},
    "chess": {"san": "e4"},
    "rock_paper_scissors": {"choice": "rock"},
    "hangman": {"letter": "q"},
}


@pytest.mark.parametrize("game_id", IDS)
def test_moves_after_the_end_are_refused(game_id: str) -> None:
    state, _ = play_random(QUICK[game_id], {"difficulty": "easy"}, 9)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match="over"):
        QUICK[game_id].user_move(state, ANY_MOVE[game_id])
    assert state == before


@pytest.mark.parametrize("game_id", IDS)
def test_a_move_never_edits_the_callers_state(game_id: str) -> None:
    game = QUICK[game_id]
    state, _ = game.start({}, 11)
    before = copy.deepcopy(state)
    outcome = game.user_move(state, legal_moves(game_id, state)[0])
    assert state == before and outcome.state != before
    if outcome.next_turn == "personality":
        snapshot = copy.deepcopy(outcome.state)
        game.personality_move(outcome.state)
        assert outcome.state == snapshot


@pytest.mark.parametrize("game_id", IDS)
def test_the_options_schema_is_the_options_struct(game_id: str) -> None:
    schema = catalogue_entry(CATALOGUE[game_id])["options_schema"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["difficulty"]["enum"] == ["easy", "medium", "hard"]  # in order, not sorted
    assert {k: v["default"] for k, v in schema["properties"].items()} == CATALOGUE[game_id].start({}, 1)[0]["options"]
    if "rounds" in schema["properties"]:
        assert schema["properties"]["rounds"] | {"x-odd": True} == schema["properties"]["rounds"]
        assert (schema["properties"]["rounds"]["minimum"], schema["properties"]["rounds"]["maximum"]) == (1, 99)
