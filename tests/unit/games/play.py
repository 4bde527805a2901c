"""Test helpers: legal user moves per game, random play, and an independent check of each result."""

from __future__ import annotations

import json
import random
import string
from typing import Any

import chess

from avatar_service.core.games import CATALOGUE, Game
from avatar_service.core.games.chess_game import ChessGame, Level

# chess with tiny budgets, so that whole random games take milliseconds
QUICK_CHESS = ChessGame(
    {"easy": Level(0.3, 1, 60, 0.05), "medium": Level(0.0, 2, 150, 0.05), "hard": Level(0.0, 2, 300, 0.05)}
)
QUICK = {**CATALOGUE, "chess": QUICK_CHESS}


def legal_moves(game_id: str, state: dict) -> list[dict]:
    if game_id == "tic_tac_toe":
        return [{"cell": i} for i in range(9) if state["board"][i] is None]
    if game_id == "connect_four":
        return [{"column": c} for c in range(7) if state["board"][0][c] is None]
    if game_id == "chess":
        board = chess.Board(state["fen"])
        return [{"uci": m.uci()} for m in board.legal_moves]
    if game_id == "rock_paper_scissors":
        return [{"choice": c} for c in ("rock", "paper", "scissors")]
    letters = [{"letter": c} for c in string.ascii_lowercase if c not in state["guessed"]]
    return letters + [{"word": "x" * state["length"]}] * ("x" * state["length"] not in state["wrong_words"])


def roundtrip(state: dict) -> dict:
    """The service stores states as JSON; a state must survive that unchanged."""
    again = json.loads(json.dumps(state))
    assert again == state
    return again


def play_random(game: Game, options: dict[str, Any], seed: int) -> tuple[dict, list[tuple[str, dict, Any]]]:
    """Plays a whole game with a random user; returns the last state and [(side, move, outcome)]."""
    rng = random.Random(seed)
    state, _turn = game.start(options, seed)
    log: list[tuple[str, dict, Any]] = []
    for _ in range(3000):
        state = roundtrip(state)
        if state["finished"]:
            break
        if state["turn"] == "user":
            move = rng.choice(legal_moves(game.id, state))
            outcome = game.user_move(state, move)
            side = "user"
        else:
            before = legal_moves(game.id, state)
            move, outcome = game.personality_move(state)
            assert move in before, f"illegal personality move {move}"
            side = "personality"
        log.append((side, move, outcome))
        assert outcome.finished == outcome.state["finished"]
        assert outcome.winner == outcome.state["winner"]
        assert (outcome.next_turn is None) == outcome.finished
        assert outcome.next_turn == outcome.state["turn"]
        state = outcome.state
    assert state["finished"], "game did not end"
    return state, log
