"""Connect four (6 rows x 7 columns): rules, move validation and an alpha-beta personality."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from . import c4_search as c4
from .base import (
    IllegalMove,
    Outcome,
    Side,
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

# (chance of a random column, search depth, node budget, seconds cap); the node budget keeps the move a
# pure function of the state, the seconds cap only guards against a very slow host
LEVELS = {
    "easy": (0.35, 2, 2_000, 0.1),
    "medium": (0.05, 5, 6_000, 0.2),
    "hard": (0.0, 9, 9_000, 0.25),
}


def to_bits(board: list, mark: str) -> tuple[int, int]:
    """(stones of `mark`, all stones) from rows listed top to bottom."""
    me = mask = 0
    for r in range(c4.ROWS):
        for c in range(c4.COLS):
            cell = board[c4.ROWS - 1 - r][c]
            if cell is not None:
                bit = 1 << (c * c4.H1 + r)
                mask |= bit
                if cell == mark:
                    me |= bit
    return me, mask


def four_cells(board: list, mark: str) -> list[list[int]] | None:
    """[row, column] pairs (row 0 at the top) of a completed line of `mark`, if any."""
    for r in range(c4.ROWS):
        for c in range(c4.COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < c4.ROWS and 0 <= x < c4.COLS and board[y][x] == mark for y, x in cells):
                    return [[y, x] for y, x in cells]
    return None


class ConnectFourOptions(TurnOptions):
    """Connect four's options: how well the personality plays, and who moves first."""


class ConnectFour:
    id = "connect_four"
    name = "Connect four"
    description = "Drop discs into a 7-column, 6-row grid; four in a row wins. The first player plays X."
    move_schema = build_move_schema(
        column={"type": "integer", "minimum": 0, "maximum": 6,
                "description": "column to drop a disc into, 0 = leftmost"},
    )
    options_type = ConnectFourOptions
    state_schema = build_state_schema(
        "",
        {
            "board": {"type": "array", "description": "6 rows, top row first, of 7 cells 'X', 'O' or null"},
            "marks": {"type": "object", "description": "{'user': 'X'|'O', 'personality': 'X'|'O'}"},
            "history": {"type": "array", "description": "columns played, in order"},
            "winning_cells": {"type": ["array", "null"], "description": "[row, column] pairs of the four"},
        },
    )

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]:
        opts = parse_options(options, ConnectFourOptions)
        first: Side = opts.first
        state = {
            "board": [[None] * c4.COLS for _ in range(c4.ROWS)],
            "marks": {first: "X", other(first): "O"},
            "options": msgspec.to_builtins(opts),
            "history": [],
            "turn": first,
            "finished": False,
            "winner": None,
            "winning_cells": None,
            "_seed": new_seed(seed),
        }
        return state, first

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome:
        require_turn(state, "user")
        _, col = move_field(move, ("column",))
        if not isinstance(col, int) or isinstance(col, bool):
            raise IllegalMove("'column' must be an integer from 0 to 6")
        if not 0 <= col < c4.COLS:
            raise IllegalMove(f"column {col} is off the board; columns are numbered 0 to 6")
        if state["board"][0][col] is not None:
            raise IllegalMove(f"column {col} is full")
        return self._play(state, col, "user")

    def personality_move(self, state: dict) -> tuple[dict, Outcome]:
        require_turn(state, "personality")
        sloppy, depth, nodes, seconds = LEVELS[state["options"]["difficulty"]]
        me, mask = to_bits(state["board"], state["marks"]["personality"])
        rng = rng_for(state, len(state["history"]))
        if rng.random() < sloppy:
            col = rng.choice([c for c in range(c4.COLS) if c4.can_play(mask, c)])
        else:
            col = c4.Search(nodes, seconds).best_move(me, mask, depth, rng)
        return {"column": col}, self._play(state, col, "personality")

    def _play(self, state: dict, col: int, side: Side) -> Outcome:
        new = clone(state)
        mark = new["marks"][side]
        me, mask = to_bits(new["board"], mark)
        opp = me ^ mask
        now = c4.playable(mask)
        my_wins, opp_wins = c4.winning_cells(me, mask) & now, c4.winning_cells(opp, mask) & now
        bit = c4.drop(mask, col)
        row = c4.ROWS - 1 - (bit.bit_length() - 1 - col * c4.H1)
        new["board"][row][col] = mark
        new["history"].append(col)
        me, mask = me | bit, mask | bit
        tags = [f"by_{side}"]
        if len(new["history"]) <= 2:
            tags.append("opening")
        if c4.aligned(me):
            new["winning_cells"] = four_cells(new["board"], mark)
            return finish(new, side, None, tags)
        if my_wins or (opp_wins & ~bit) or (c4.winning_cells(opp, mask) & c4.playable(mask) & ~opp_wins):
            tags.append("blunder")  # missed a win, left a threat open, or gave a square under a threat
        elif side == "user" and opp_wins & bit:
            tags.append("good_move")
        threats = c4.winning_cells(me, mask) & c4.playable(mask)
        if threats.bit_count() >= 2:
            tags.append("fork")
        if threats:
            tags += ["threat", "near_win" if side == "personality" else "near_loss"]
        if mask.bit_count() == c4.ROWS * c4.COLS:
            return finish(new, "draw", None, tags)
        return finish(new, None, other(side), tags)
