"""Chess: move formats, endings (mate, stalemate, repetition, fifty moves, material), and strength."""

from __future__ import annotations

import random

import chess
import pytest

from avatar_service.core.games import IllegalMove
from avatar_service.core.games.chess_game import ChessGame, Level

GAME = ChessGame()
# the hard level with a small node budget: the strength test plays 20 whole games in seconds
QUICK_HARD = ChessGame({"hard": Level(0.0, 20, 2_500, 0.5)})


def at(fen: str, turn: str = "user", user: str = "white") -> dict:
    """A state that starts from `fen` (the state keeps its start position and replays the history)."""
    state, _ = GAME.start({"first": "user" if user == "white" else "personality"}, 1)
    return {**state, "start_fen": fen, "fen": fen, "board_ascii": str(chess.Board(fen)), "turn": turn}


def test_uci_and_san_both_work_and_the_state_follows() -> None:
    state, _ = GAME.start({}, 1)
    assert state["colors"] == {"user": "white", "personality": "black"}
    outcome = GAME.user_move(state, {"san": "e4"})
    assert outcome.state["history"] == ["e2e4"] and outcome.next_turn == "personality"
    assert outcome.state["last_move"] == {"uci": "e2e4", "san": "e4", "by": "user"}
    assert (
        outcome.state["fen"]
        == chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()
    )
    assert GAME.user_move(state, {"uci": "G1F3"}).state["history"] == ["g1f3"]
    assert "opening" in outcome.highlights


def test_reasons_for_bad_moves() -> None:
    promo = at("8/4P3/8/8/8/k7/8/K7 w - - 0 1")
    with pytest.raises(IllegalMove, match=r"promotion: add the piece, e\.g\. e7e8q"):
        GAME.user_move(promo, {"uci": "e7e8"})
    assert GAME.user_move(promo, {"uci": "e7e8n"}).state["last_move"]["san"] == "e8=N"
    checked = at("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    with pytest.raises(IllegalMove, match="in check"):
        GAME.user_move(checked, {"uci": "e1f2"})
    knights = at("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(IllegalMove, match="ambiguous"):
        GAME.user_move(knights, {"san": "Nd2"})


def test_mate_in_one_is_found_and_ends_the_game() -> None:
    state = at("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", turn="personality", user="black")
    for difficulty in ("medium", "hard"):
        move, outcome = GAME.personality_move(
            {**state, "options": {"difficulty": difficulty, "first": "personality"}}
        )
        assert move == {"uci": "a1a8"}
        assert (
            outcome.finished
            and outcome.winner == "personality"
            and outcome.state["termination"] == "checkmate"
        )
        assert {"check", "win", "by_personality"} <= set(outcome.highlights)


def test_fools_mate_is_a_loss_for_the_user() -> None:
    state, _ = GAME.start({}, 1)
    for uci in ("f2f3", "e7e5", "g2g4"):
        state = GAME.user_move({**state, "turn": "user"}, {"uci": uci}).state
    black = {**state, "turn": "user", "colors": {"user": "black", "personality": "white"}}
    outcome = GAME.user_move(black, {"san": "Qh4#"})
    assert outcome.winner == "user" and outcome.state["result"] == "0-1"


def test_stalemate_and_insufficient_material_are_draws() -> None:
    outcome = GAME.user_move(at("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"), {"uci": "g6f7"})
    assert outcome.winner == "draw" and outcome.state["termination"] == "stalemate"
    outcome = GAME.user_move(at("7k/8/8/8/8/8/6p1/K6B w - - 0 1"), {"uci": "h1g2"})
    assert outcome.winner == "draw" and outcome.state["termination"] == "insufficient_material"


def test_threefold_repetition_ends_the_game_as_a_draw() -> None:
    state, _ = GAME.start({}, 1)
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    for uci in moves:
        state = GAME.user_move({**state, "turn": "user"}, {"uci": uci}).state
    assert state["finished"] and state["winner"] == "draw"
    assert state["termination"] == "threefold_repetition"


def test_fifty_moves_without_capture_or_pawn_move_is_a_draw() -> None:
    outcome = GAME.user_move(at("7k/8/8/8/8/8/R7/K7 w - - 99 80"), {"uci": "a2b2"})
    assert outcome.winner == "draw" and outcome.state["termination"] == "fifty_moves"


def test_a_hung_queen_is_a_blunder_and_a_fork_is_seen() -> None:
    state = at("r3k3/8/8/8/8/8/3Q4/4K3 w - - 0 1")
    assert "blunder" in GAME.user_move(state, {"uci": "d2a5"}).highlights  # the rook on a8 takes it
    fork = at("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    assert {"fork", "check"} <= set(GAME.user_move(fork, {"san": "Nc7+"}).highlights)


def play_hard_against_random(game: ChessGame, seeds: range) -> int:
    wins = 0
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = game.start({"difficulty": "hard", "first": "user" if seed % 2 else "personality"}, seed)
        while not state["finished"]:
            if state["turn"] == "user":
                move = rng.choice(list(chess.Board(state["fen"]).legal_moves))
                state = game.user_move(state, {"uci": move.uci()}).state
            else:
                state = game.personality_move(state)[1].state
        wins += state["winner"] == "personality"
    return wins


def test_hard_with_a_small_budget_beats_a_random_mover_19_of_20() -> None:
    assert play_hard_against_random(QUICK_HARD, range(20)) >= 19


@pytest.mark.slow
def test_hard_at_full_budget_beats_a_random_mover() -> None:
    assert play_hard_against_random(GAME, range(4)) == 4
