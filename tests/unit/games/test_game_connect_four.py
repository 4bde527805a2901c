"""Connect four: gravity, full columns, every direction of four, and a hard level that beats chance."""

from __future__ import annotations

import random

import pytest

from avatar_service.core.games import IllegalMove
from avatar_service.core.games.connect_four import ConnectFour

GAME = ConnectFour()


def drop_all(state: dict, columns: list[int]) -> dict:
    """Plays columns alternately for both sides (the test chooses every disc) through user_move, by
    lending the user the mover's mark. Only the user's wins are reported correctly."""
    for col in columns:
        mover, marks = state["turn"], state["marks"]
        lent = {"user": marks[mover], "personality": marks["personality" if mover == "user" else "user"]}
        state = GAME.user_move({**state, "turn": "user", "marks": lent}, {"column": col}).state
        state["marks"] = marks
        if not state["finished"]:
            state["turn"] = "personality" if mover == "user" else "user"
    return state


def test_discs_fall_to_the_bottom_and_full_columns_refuse() -> None:
    state, _ = GAME.start({}, 1)
    state = drop_all(state, [3, 3, 3, 3, 3, 3])
    assert [row[3] for row in state["board"]] == ["O", "X", "O", "X", "O", "X"]
    with pytest.raises(IllegalMove, match="column 3 is full"):
        GAME.user_move(state, {"column": 3})


@pytest.mark.parametrize(
    "columns",
    [
        [0, 0, 1, 1, 2, 2, 3],  # horizontal
        [0, 1, 0, 1, 0, 1, 0],  # vertical
        [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3],  # rising diagonal
        [6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3],  # falling diagonal
    ],
)
def test_every_direction_of_four_wins(columns: list[int]) -> None:
    state, _ = GAME.start({}, 1)
    state = drop_all(state, columns)
    assert state["finished"] and state["winner"] == "user"
    assert len(state["winning_cells"]) == 4


def test_an_open_threat_is_tagged_and_a_block_is_a_good_move() -> None:
    state, _ = GAME.start({}, 1)
    state = drop_all(state, [1, 6, 2, 6])
    outcome = GAME.user_move(state, {"column": 3})
    assert {"threat", "fork", "near_loss"} <= set(outcome.highlights)  # 0 and 4 both complete the row
    state = drop_all(GAME.start({}, 1)[0], [6, 0, 6, 1, 5, 2])
    assert "good_move" in GAME.user_move(state, {"column": 3}).highlights
    assert "blunder" in GAME.user_move(state, {"column": 4}).highlights


def test_the_personality_takes_a_win_and_blocks_a_loss() -> None:
    for difficulty in ("medium", "hard"):
        state = drop_all(GAME.start({"difficulty": difficulty}, 2)[0], [0, 6, 0, 6, 0])
        assert state["turn"] == "personality"
        assert GAME.personality_move(state)[0] == {"column": 0}  # block the vertical three
        state = drop_all(GAME.start({"difficulty": difficulty}, 2)[0], [0, 6, 1, 6, 0, 6, 2])
        move, outcome = GAME.personality_move(state)
        assert move == {"column": 6} and outcome.winner == "personality"  # winning beats blocking


def test_hard_beats_a_random_player_in_at_least_38_of_40_games() -> None:
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        state, _ = GAME.start({"difficulty": "hard", "first": "user" if seed % 2 else "personality"}, seed)
        while not state["finished"]:
            if state["turn"] == "user":
                col = rng.choice([c for c in range(7) if state["board"][0][c] is None])
                state = GAME.user_move(state, {"column": col}).state
            else:
                state = GAME.personality_move(state)[1].state
        wins += state["winner"] == "personality"
    assert wins >= 38
