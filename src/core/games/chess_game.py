"""Chess on the `chess` package's rules, with an alpha-beta personality bounded per difficulty."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import chess
import msgspec

from . import chess_search as cs
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


@dataclass(frozen=True, slots=True)
class Level:
    random_move: float  # chance of a random legal move, so easy games are winnable
    depth: int
    nodes: int  # the node budget makes a move a pure function of the state...
    seconds: float  # ...and the time cap only bites on a host much slower than expected


LEVELS = {
    "easy": Level(0.3, 2, 600, 0.1),
    "medium": Level(0.0, 20, 6_000, 0.22),
    "hard": Level(0.0, 30, 36_000, 1.3),
}


def replay(state: Mapping[str, Any]) -> chess.Board:
    """The board with its full move stack, so repetition and the fifty-move rule are known."""
    board = chess.Board(state["start_fen"])
    for uci in state["history"]:
        board.push(chess.Move.from_uci(uci))
    return board


def game_result(board: chess.Board) -> str | None:
    """'1-0', '0-1', '1/2-1/2' or None; threefold repetition and fifty moves end the game at once."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result()
    if board.is_repetition(3) or board.halfmove_clock >= 100:
        return "1/2-1/2"
    return None


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(cs.VALUE[p.piece_type] for p in board.piece_map().values() if p.color == color)


class ChessOptions(TurnOptions):
    """Chess's options: how well the personality plays, and who moves first."""


class ChessGame:
    id = "chess"
    name = "Chess"
    description = (
        "Standard chess. Moves in UCI ('e2e4', 'e7e8q') or SAN ('e4', 'Nf3', 'O-O'). "
        "Threefold repetition, fifty moves and insufficient material are draws."
    )
    move_schema = build_move_schema(
        uci={"type": "string", "description": "e.g. 'e2e4', promotion 'e7e8q'"},
        san={"type": "string", "description": "e.g. 'e4', 'Nxf7+', 'O-O'"},
    )
    options_type = ChessOptions
    state_schema = build_state_schema(
        "The side that moves first plays white.",
        {
            "fen": {"type": "string"},
            "start_fen": {"type": "string"},
            "board_ascii": {"type": "string", "description": "rank 8 first; uppercase white, '.' empty"},
            "colors": {"type": "object", "description": "{'user': 'white'|'black', 'personality': ...}"},
            "history": {"type": "array", "description": "all moves in UCI"},
            "last_move": {"type": ["object", "null"], "description": "{'uci', 'san', 'by'}"},
            "check": {"type": "boolean"},
            "result": {"type": ["string", "null"], "description": "'1-0', '0-1', '1/2-1/2' when finished"},
            "termination": {"type": ["string", "null"], "description": "e.g. 'checkmate', 'stalemate'"},
        },
    )

    def __init__(self, levels: Mapping[str, Level] | None = None) -> None:
        # tests pass smaller budgets to play many games quickly
        self.levels = dict(levels or LEVELS)

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]:
        opts = parse_options(options, ChessOptions)
        first: Side = opts.first
        board = chess.Board()
        state: dict[str, Any] = {
            "fen": board.fen(),
            "start_fen": board.fen(),
            "board_ascii": str(board),
            "colors": {first: "white", other(first): "black"},
            "history": [],
            "last_move": None,
            "check": False,
            "result": None,
            "termination": None,
            "options": msgspec.to_builtins(opts),
            "turn": first,
            "finished": False,
            "winner": None,
            "_seed": new_seed(seed),
        }
        return state, first

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome:
        require_turn(state, "user")
        kind, text = move_field(move, ("uci", "san"))
        if not isinstance(text, str) or not text.strip():
            raise IllegalMove(f"'{kind}' must be a non-empty string")
        text = text.strip()
        board = replay(state)
        try:
            parsed = board.parse_uci(text.lower()) if kind == "uci" else board.parse_san(text)
        except chess.InvalidMoveError:
            raise IllegalMove(f"{text!r} is not a valid {kind.upper()} move") from None
        except chess.AmbiguousMoveError:
            raise IllegalMove(f"{text!r} is ambiguous; name the file or rank of the piece") from None
        except chess.IllegalMoveError:
            raise IllegalMove(self._why_illegal(board, kind, text)) from None
        return self._play(state, board, parsed, "user")

    @staticmethod
    def _why_illegal(board: chess.Board, kind: str, text: str) -> str:
        if kind == "uci" and len(text) == 4:
            try:
                queen = chess.Move.from_uci(text.lower() + "q")
            except chess.InvalidMoveError:
                queen = None
            if queen is not None and board.is_legal(queen):
                return f"{text} is a promotion: add the piece, e.g. {text.lower()}q"
        if board.is_check():
            return f"{text} is illegal: your king is in check"
        return f"{text} is not a legal move in this position"

    def personality_move(self, state: dict) -> tuple[dict, Outcome]:
        require_turn(state, "personality")
        board = replay(state)
        level = self.levels[state["options"]["difficulty"]]
        rng = rng_for(state, len(state["history"]))
        if rng.random() < level.random_move:
            move = rng.choice(list(board.legal_moves))
        else:
            move = cs.Search(board.copy(), level.nodes, level.seconds).best_move(level.depth, rng)
        return {"uci": move.uci()}, self._play(state, board, move, "personality")

    def _play(self, state: dict, board: chess.Board, move: chess.Move, side: Side) -> Outcome:
        new = clone(state)
        mover = board.turn
        tags = [f"by_{side}"]
        if board.fullmove_number <= 3:
            tags.append("opening")
        if board.is_capture(move):
            tags.append("capture")
        before = self._balance(board, mover)
        san = board.san(move)
        board.push(move)
        if board.is_check():
            tags.append("check")
        if self._forks(board, move.to_square, mover):
            tags.append("fork")
        if not board.is_game_over():
            # what the opponent can win by force in captures tells a hung piece from a good trade
            after = -self._balance(board, not mover)
            if after <= before - 250:
                tags.append("blunder")
            elif side == "user" and after >= before + 250:
                tags.append("good_move")
        lead = material(board, mover) - material(board, not mover)
        if abs(lead) >= 500:
            ahead = side if lead > 0 else other(side)
            tags.append("near_win" if ahead == "personality" else "near_loss")
        new["history"].append(move.uci())
        new.update(
            fen=board.fen(),
            board_ascii=str(board),
            check=board.is_check(),
            last_move={"uci": move.uci(), "san": san, "by": side},
        )
        result = game_result(board)
        winner: Winner | None = None
        if result is not None:
            new["result"] = result
            outcome = board.outcome()
            new["termination"] = (
                outcome.termination.name.lower()
                if outcome
                else ("threefold_repetition" if board.is_repetition(3) else "fifty_moves")
            )
            winner = "draw" if result == "1/2-1/2" else side
        return finish(new, winner, other(side), tags)

    @staticmethod
    def _balance(board: chess.Board, color: chess.Color) -> int:
        """Material plus what the side to move wins in a capture-only search, for `color`."""
        search = cs.Search(board.copy(stack=False), 2_000, 0.05)
        psq = {k: [cs.VALUE[k[1]]] * 64 for k in search.psq}  # material only: tables would add noise
        search.psq, search.mopup = psq, False
        try:
            v = search.quiesce(cs.static_eval(board, psq), -cs.MATE, cs.MATE, 0, 4)
        except cs.OutOfBudget:
            v = search.leaf(cs.static_eval(board, psq))
        return v if board.turn == color else -v

    @staticmethod
    def _forks(board: chess.Board, square: chess.Square, mover: chess.Color) -> bool:
        """The moved piece attacks two enemy pieces worth more than it (or the king and one more)."""
        piece = board.piece_at(square)
        if piece is None or piece.piece_type in (chess.KING, chess.QUEEN):
            return False
        targets = [board.piece_at(t) for t in board.attacks(square)]
        big = [
            p
            for p in targets
            if p
            and p.color != mover
            and (p.piece_type == chess.KING or cs.VALUE[p.piece_type] > cs.VALUE[piece.piece_type])
        ]
        return len(big) >= 2
