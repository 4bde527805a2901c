"""Tic-tac-toe: rules, move validation and a minimax personality (perfect on hard)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import msgspec

from .base import (
    IllegalMove,
    Outcome,
    Side,
    Winner,
    build_move_schema,
    build_state_schema,
    clone,
    finish,
    move_field,
    new_seed,
    other,
    require_turn,
    rng_for,
)
from .options import TurnOptions, parse_options

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
# chance that the personality plays a random move instead of a sound one
SLOPPINESS = {"easy": 0.6, "medium": 0.25, "hard": 0.0}


def winner_mark(board: tuple) -> str | None:
    for a, b, c in LINES:
        if board[a] is not None and board[a] == board[b] == board[c]:
            return board[a]
    return None


def winning_cells(board: tuple, mark: str) -> list[int]:
    """Empty cells where `mark` would complete a line."""
    out = []
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(mark) == 2 and marks.count(None) == 1:
            out.append(line[marks.index(None)])
    return sorted(set(out))


@cache
def minimax(board: tuple, to_move: str) -> int:
    """Score for `to_move`; wins count more the sooner they come, so the search prefers quick wins."""
    if winner_mark(board) is not None:
        return -(1 + board.count(None))  # the previous mover completed a line
    if None not in board:
        return 0
    nxt = "O" if to_move == "X" else "X"
    return max(-minimax((*board[:i], to_move, *board[i + 1 :]), nxt) for i in range(9) if board[i] is None)


def best_cells(board: tuple, mark: str) -> list[int]:
    nxt = "O" if mark == "X" else "X"
    scores = {i: -minimax((*board[:i], mark, *board[i + 1 :]), nxt) for i in range(9) if board[i] is None}
    top = max(scores.values())
    return [i for i, s in scores.items() if s == top]


class TicTacToeOptions(TurnOptions):
    """Tic-tac-toe's options: how well the personality plays, and who moves first."""


class TicTacToe:
    id = "tic_tac_toe"
    name = "Tic-tac-toe"
    description = "Three in a row on a 3x3 grid. The first player plays X. Hard is perfect play."
    move_schema = build_move_schema(
        cell={"type": "integer", "minimum": 0, "maximum": 8,
              "description": "cell index, row-major: 0 1 2 / 3 4 5 / 6 7 8"},
    )
    options_type = TicTacToeOptions
    state_schema = build_state_schema(
        "",
        {
            "board": {"type": "array", "description": "9 cells, row-major, each 'X', 'O' or null"},
            "marks": {"type": "object", "description": "{'user': 'X'|'O', 'personality': 'X'|'O'}"},
            "history": {"type": "array", "description": "cells played, in order"},
            "winning_line": {"type": ["array", "null"], "description": "the three cells of the win"},
        },
    )

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]:
        opts = parse_options(options, TicTacToeOptions)
        first: Side = opts.first
        marks = {first: "X", other(first): "O"}
        state = {
            "board": [None] * 9,
            "marks": marks,
            "options": msgspec.to_builtins(opts),
            "history": [],
            "turn": first,
            "finished": False,
            "winner": None,
            "winning_line": None,
            "_seed": new_seed(seed),
        }
        return state, first

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome:
        require_turn(state, "user")
        _, cell = move_field(move, ("cell",))
        if not isinstance(cell, int) or isinstance(cell, bool):
            raise IllegalMove("'cell' must be an integer from 0 to 8")
        if not 0 <= cell <= 8:
            raise IllegalMove(f"cell {cell} is off the board; cells are numbered 0 to 8")
        if state["board"][cell] is not None:
            raise IllegalMove(f"cell {cell} is already taken")
        return self._play(state, cell, "user")

    def personality_move(self, state: dict) -> tuple[dict, Outcome]:
        require_turn(state, "personality")
        board = tuple(state["board"])
        mark = state["marks"]["personality"]
        rng = rng_for(state, len(state["history"]))
        empty = [i for i in range(9) if board[i] is None]
        if rng.random() < SLOPPINESS[state["options"]["difficulty"]]:
            cell = rng.choice(empty)
        else:
            cell = rng.choice(best_cells(board, mark))
        return {"cell": cell}, self._play(state, cell, "personality")

    def _play(self, state: dict, cell: int, side: Side) -> Outcome:
        new = clone(state)
        mark, theirs = new["marks"][side], new["marks"][other(side)]
        before = tuple(new["board"])
        tags = [f"by_{side}"]
        if len(new["history"]) < 2:
            tags.append("opening")
        new["board"][cell] = mark
        new["history"].append(cell)
        board = tuple(new["board"])
        if winning_cells(before, theirs) and cell not in winning_cells(before, theirs):
            tags.append("blunder")  # left the opponent's open line unblocked
        elif winning_cells(before, mark) and winner_mark(board) is None:
            tags.append("blunder")  # had a win and did not take it
        threats = winning_cells(board, mark)
        if len(threats) >= 2:
            tags.append("fork")
        if threats:
            tags.append("threat")
            tags.append("near_win" if side == "personality" else "near_loss")
        if side == "user" and cell in winning_cells(before, theirs):
            tags.append("good_move")
        winner: Winner | None = None
        if winner_mark(board):
            winner = side
            new["winning_line"] = next(list(ln) for ln in LINES if all(board[i] == mark for i in ln))
        elif None not in board:
            winner = "draw"
        return finish(new, winner, other(side), tags)
