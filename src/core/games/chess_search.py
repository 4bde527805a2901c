"""Chess personality search: alpha-beta with a transposition table, MVV-LVA ordering and quiescence.

Evaluation is material plus piece-square tables (Michniewski's "simplified evaluation function"), kept
incrementally along the search path, with a mop-up term that drives a lone king to the edge so that a
won endgame is actually converted instead of drifting into a repetition.
"""

from __future__ import annotations

import random
import time

import chess

VALUE = {
    chess.PAWN: 100,
    chess.KNIGHT: 320,
    chess.BISHOP: 330,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}
MATE = 100_000
# tables read as printed: rank 8 first, file a first, from white's side
_TABLES = {
    chess.PAWN: """0 0 0 0 0 0 0 0 50 50 50 50 50 50 50 50 10 10 20 30 30 20 10 10 5 5 10 25 25 10 5 5
        0 0 0 20 20 0 0 0 5 -5 -10 0 0 -10 -5 5 5 10 10 -20 -20 10 10 5 0 0 0 0 0 0 0 0""",
    chess.KNIGHT: """-50 -40 -30 -30 -30 -30 -40 -50 -40 -20 0 0 0 0 -20 -40 -30 0 10 15 15 10 0 -30
        -30 5 15 20 20 15 5 -30 -30 0 15 20 20 15 0 -30 -30 5 10 15 15 10 5 -30
        -40 -20 0 5 5 0 -20 -40 -50 -40 -30 -30 -30 -30 -40 -50""",
    chess.BISHOP: """-20 -10 -10 -10 -10 -10 -10 -20 -10 0 0 0 0 0 0 -10 -10 0 5 10 10 5 0 -10
        -10 5 5 10 10 5 5 -10 -10 0 10 10 10 10 0 -10 -10 10 10 10 10 10 10 -10
        -10 5 0 0 0 0 5 -10 -20 -10 -10 -10 -10 -10 -10 -20""",
    chess.ROOK: """0 0 0 0 0 0 0 0 5 10 10 10 10 10 10 5 -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5
        -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5 0 0 0 5 5 0 0 0""",
    chess.QUEEN: """-20 -10 -10 -5 -5 -10 -10 -20 -10 0 0 0 0 0 0 -10 -10 0 5 5 5 5 0 -10
        -5 0 5 5 5 5 0 -5 0 0 5 5 5 5 0 -5 -10 5 5 5 5 5 0 -10 -10 0 5 0 0 0 0 -10
        -20 -10 -10 -5 -5 -10 -10 -20""",
    chess.KING: """-30 -40 -40 -50 -50 -40 -40 -30 -30 -40 -40 -50 -50 -40 -40 -30
        -30 -40 -40 -50 -50 -40 -40 -30 -30 -40 -40 -50 -50 -40 -40 -30
        -20 -30 -30 -40 -40 -30 -30 -20 -10 -20 -20 -20 -20 -20 -20 -10
        20 20 0 0 0 0 20 20 20 30 10 0 0 10 30 20""",
}
_KING_END = """-50 -40 -30 -20 -20 -30 -40 -50 -30 -20 -10 0 0 -10 -20 -30 -30 -10 20 30 30 20 -10 -30
    -30 -10 30 40 40 30 -10 -30 -30 -10 30 40 40 30 -10 -30 -30 -10 20 30 30 20 -10 -30
    -30 -30 0 0 0 0 -30 -30 -50 -30 -30 -30 -30 -30 -30 -50"""


def _square_table(text: str, color: chess.Color) -> list[int]:
    printed = [int(v) for v in text.split()]
    # printed index 0 is a8; a white piece on square sq reads row (7 - rank), black mirrors the ranks
    return [
        printed[(7 - chess.square_rank(sq) if color else chess.square_rank(sq)) * 8 + chess.square_file(sq)]
        for sq in chess.SQUARES
    ]


def _psq(endgame: bool) -> dict:
    out = {}
    for color in chess.COLORS:
        for pt, text in _TABLES.items():
            text = _KING_END if endgame and pt == chess.KING else text
            out[color, pt] = [VALUE[pt] + v for v in _square_table(text, color)]
    return out


PSQ_MID, PSQ_END = _psq(False), _psq(True)


def is_endgame(board: chess.Board) -> bool:
    queens = len(board.pieces(chess.QUEEN, chess.WHITE)) + len(board.pieces(chess.QUEEN, chess.BLACK))
    minors = sum(
        len(board.pieces(pt, c)) for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK) for c in chess.COLORS
    )
    return queens == 0 or minors <= 2


def static_eval(board: chess.Board, psq: dict) -> int:
    """Material + tables from white's point of view."""
    score = 0
    for sq, piece in board.piece_map().items():
        v = psq[piece.color, piece.piece_type][sq]
        score += v if piece.color else -v
    return score


def move_delta(board: chess.Board, move: chess.Move, psq: dict) -> int:
    """Change of the white-relative evaluation that `move` causes, computed before pushing it."""
    color = board.turn
    pt = board.piece_type_at(move.from_square)
    assert pt is not None
    table = psq[color, pt]
    gain = psq[color, move.promotion or pt][move.to_square] - table[move.from_square]
    if board.is_en_passant(move):
        gain += psq[not color, chess.PAWN][move.to_square + (-8 if color else 8)]
    else:
        victim = board.piece_type_at(move.to_square)
        if victim:
            gain += psq[not color, victim][move.to_square]
    if pt == chess.KING and abs(move.to_square - move.from_square) == 2:
        rook = psq[color, chess.ROOK]
        rf, rt = (
            (move.to_square + 1, move.to_square - 1)
            if move.to_square > move.from_square
            else (move.to_square - 2, move.to_square + 1)
        )
        gain += rook[rt] - rook[rf]
    return gain if color else -gain


def mvv_lva(board: chess.Board, move: chess.Move) -> int:
    victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(move.to_square)
    attacker = board.piece_type_at(move.from_square)
    return VALUE.get(victim or 0, 0) * 10 - VALUE.get(attacker or 0, 0) // 10 + (800 if move.promotion else 0)


class OutOfBudget(Exception):
    pass


class Search:
    def __init__(self, board: chess.Board, max_nodes: int, max_seconds: float) -> None:
        self.board = board
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + max_seconds
        self.nodes = 0
        self.psq = PSQ_END if is_endgame(board) else PSQ_MID
        self.tt: dict = {}
        self.killers: dict[int, list[chess.Move]] = {}
        self.mopup = self.psq is PSQ_END

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 511 == 0 and time.perf_counter() > self.deadline):
            raise OutOfBudget

    def leaf(self, score: int) -> int:
        """Side-to-move evaluation, plus mop-up in endgames for whoever is ahead."""
        board = self.board
        if self.mopup and abs(score) >= 300:
            strong = chess.WHITE if score > 0 else chess.BLACK
            weak_king, strong_king = board.king(not strong), board.king(strong)
            if weak_king is not None and strong_king is not None:
                f, r = chess.square_file(weak_king), chess.square_rank(weak_king)
                edge = max(3 - f, f - 4) + max(3 - r, r - 4)
                bonus = 10 * edge + 4 * (14 - chess.square_manhattan_distance(weak_king, strong_king))
                score += bonus if strong else -bonus
        return score if board.turn else -score

    def ordered(self, moves: list[chess.Move], ply: int, tt_move: chess.Move | None) -> list[chess.Move]:
        board, killers = self.board, self.killers.get(ply, ())

        def key(m: chess.Move) -> int:
            if m == tt_move:
                return 10**7
            if board.is_capture(m) or m.promotion:
                return 10**5 + mvv_lva(board, m)
            return 1000 if m in killers else 0

        return sorted(moves, key=key, reverse=True)

    def quiesce(self, score: int, alpha: int, beta: int, ply: int, depth: int) -> int:
        self.tick()
        board = self.board
        stand = self.leaf(score)
        if stand >= beta or depth == 0:
            return stand
        alpha = max(alpha, stand)
        captures = [m for m in board.generate_legal_captures()]
        captures.sort(key=lambda m: mvv_lva(board, m), reverse=True)
        for m in captures:
            d = move_delta(board, m, self.psq)
            board.push(m)
            try:
                v = -self.quiesce(score + d, -beta, -alpha, ply + 1, depth - 1)
            finally:
                board.pop()
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return alpha

    def negamax(self, score: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        board = self.board
        if ply and (board.halfmove_clock >= 100 or board.is_repetition(2)):
            return 0  # a repeated position is a draw for the search: avoided when ahead, sought when behind
        in_check = board.is_check()
        if depth <= 0 and not in_check:
            return self.quiesce(score, alpha, beta, ply, 6)
        self.tick()
        moves = list(board.legal_moves)
        if not moves:
            return -MATE + ply if in_check else 0
        if board.is_insufficient_material():
            return 0
        key = board._transposition_key()
        entry = self.tt.get(key)
        tt_move = None
        if entry:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth and ply:
                e_score = (
                    e_score - ply
                    if e_score > MATE - 1000
                    else e_score + ply
                    if e_score < -MATE + 1000
                    else e_score
                )
                if e_flag == 0 or (e_flag > 0 and e_score >= beta) or (e_flag < 0 and e_score <= alpha):
                    return e_score
        orig_alpha, best, best_move = alpha, -MATE - 1, None
        for m in self.ordered(moves, ply, tt_move):
            d = move_delta(board, m, self.psq)
            board.push(m)
            try:
                v = -self.negamax(score + d, depth - 1, -beta, -alpha, ply + 1)
            finally:
                board.pop()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if not board.is_capture(m):
                            self.killers[ply] = [m, *self.killers.get(ply, [])[:1]]
                        break
        flag = 1 if best >= beta else -1 if best <= orig_alpha else 0
        stored = best + ply if best > MATE - 1000 else best - ply if best < -MATE + 1000 else best
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def best_move(self, max_depth: int, rng: random.Random) -> chess.Move:
        """Iterative deepening over root moves shuffled by the seeded rng, so equal moves vary by game."""
        board = self.board
        root = list(board.legal_moves)
        rng.shuffle(root)
        root = self.ordered(root, 0, None)
        choice = root[0]
        base = static_eval(board, self.psq)
        for depth in range(1, max_depth + 1):
            alpha, scores = -MATE - 1, {}
            try:
                for m in root:
                    d = move_delta(board, m, self.psq)
                    board.push(m)
                    try:
                        scores[m] = -self.negamax(base + d, depth - 1, -MATE - 1, -alpha, 1)
                    finally:
                        board.pop()
                    alpha = max(alpha, scores[m])
            except OutOfBudget:
                # a partial iteration is still usable when the previous best was searched first
                if scores and max(scores.values()) > scores.get(root[0], -MATE - 1):
                    choice = max(scores, key=scores.__getitem__)
                break
            root.sort(key=lambda m: -scores[m])
            choice = root[0]
            if scores[choice] > MATE - 1000:
                break
        return choice
