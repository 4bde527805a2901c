"""Tic-tac-toe: hard is perfect (checked over every user line), easier levels can be beaten, tags."""

from __future__ import annotations

import pytest

from avatar_service.core.games import IllegalMove
from avatar_service.core.games.tic_tac_toe import TicTacToe, best_cells

GAME = TicTacToe()


def losses_over_all_lines(state: dict) -> tuple[int, int]:
    """(games the personality lost, games played) over every sequence of user moves from `state`."""
    if state["finished"]:
        return int(state["winner"] == "user"), 1
    if state["turn"] == "personality":
        return losses_over_all_lines(GAME.personality_move(state)[1].state)
    lost = played = 0
    for cell in range(9):
        if state["board"][cell] is None:
            a, b = losses_over_all_lines(GAME.user_move(state, {"cell": cell}).state)
            lost, played = lost + a, played + b
    return lost, played


def test_hard_never_loses_whatever_the_user_plays() -> None:
    for first in ("user", "personality"):
        for seed in range(8):
            state, _ = GAME.start({"difficulty": "hard", "first": first}, seed)
            lost, played = losses_over_all_lines(state)
            assert lost == 0 and played > 50


def perfect_user_wins(difficulty: str, seeds: range) -> int:
    wins = 0
    for seed in seeds:
        state, _ = GAME.start({"difficulty": difficulty}, seed)
        while not state["finished"]:
            if state["turn"] == "user":
                cell = best_cells(tuple(state["board"]), state["marks"]["user"])[0]
                state = GAME.user_move(state, {"cell": cell}).state
            else:
                state = GAME.personality_move(state)[1].state
        wins += state["winner"] == "user"
    return wins


def test_easy_can_be_beaten_and_more_often_than_medium() -> None:
    easy, medium = perfect_user_wins("easy", range(60)), perfect_user_wins("medium", range(60))
    assert easy > medium > 0
    assert perfect_user_wins("hard", range(20)) == 0


def test_state_describes_the_board_and_the_win() -> None:
    state, _ = GAME.start({"first": "user"}, 1)
    assert state["board"] == [None] * 9 and state["marks"] == {"user": "X", "personality": "O"}
    # X: 0 1 2 along the top; O is placed by hand to keep the test independent of the search
    for cell, o_cell in ((0, 3), (1, 4)):
        state = GAME.user_move(state, {"cell": cell}).state
        state = {
            **state,
            "board": [*state["board"][:o_cell], "O", *state["board"][o_cell + 1 :]],
            "turn": "user",
            "history": [*state["history"], o_cell],
        }
    outcome = GAME.user_move(state, {"cell": 2})
    assert outcome.finished and outcome.winner == "user" and outcome.next_turn is None
    assert outcome.state["winning_line"] == [0, 1, 2]
    assert "loss" in outcome.highlights and "by_user" in outcome.highlights


def test_a_missed_block_is_a_blunder_and_a_block_a_good_move() -> None:
    state, _ = GAME.start({"first": "personality"}, 1)
    # O (user) to move; X threatens 0-1-2 by holding 0 and 1
    state = {
        **state,
        "board": ["X", "X", None, None, "O", None, None, None, None],
        "turn": "user",
        "history": [0, 4, 1],
    }
    assert "blunder" in GAME.user_move(state, {"cell": 8}).highlights
    assert "good_move" in GAME.user_move(state, {"cell": 2}).highlights
    with pytest.raises(IllegalMove, match="cell 0 is already taken"):
        GAME.user_move(state, {"cell": 0})
