"""Connect-four bitboards and an alpha-beta search bounded by depth and node count."""

from __future__ import annotations

import random
import time

# Column c holds bits c*7 .. c*7+5 (bottom to top); bit c*7+6 is a sentinel so shifts never wrap.
ROWS, COLS, H1 = 6, 7, 7
BOTTOM = sum(1 << (c * H1) for c in range(COLS))
FULL = BOTTOM * ((1 << ROWS) - 1)
CENTER = ((1 << ROWS) - 1) << (3 * H1)
WIN = 1000
ORDER = (3, 2, 4, 1, 5, 0, 6)


def top_bit(c: int) -> int:
    return 1 << (c * H1 + ROWS - 1)


def column_mask(c: int) -> int:
    return ((1 << ROWS) - 1) << (c * H1)


def can_play(mask: int, c: int) -> bool:
    return not mask & top_bit(c)


def drop(mask: int, c: int) -> int:
    """The bit of the cell a stone dropped in column c lands on."""
    return (mask + (1 << (c * H1))) & column_mask(c)


def aligned(p: int) -> bool:
    for s in (1, H1, H1 - 1, H1 + 1):
        m = p & (p >> s)
        if m & (m >> (2 * s)):
            return True
    return False


def winning_cells(p: int, mask: int) -> int:
    """Empty cells where stones `p` would complete four (vertical, horizontal, both diagonals)."""
    r = (p << 1) & (p << 2) & (p << 3)
    for s in (H1, H1 - 1, H1 + 1):
        a = (p << s) & (p << 2 * s)
        r |= a & (p << 3 * s)
        r |= a & (p >> s)
        a = (p >> s) & (p >> 2 * s)
        r |= a & (p << s)
        r |= a & (p >> 3 * s)
    return r & (FULL ^ mask) & FULL


def playable(mask: int) -> int:
    return (mask + BOTTOM) & FULL


class OutOfBudget(Exception):
    pass


class Search:
    """Negamax over (stones of the side to move, all stones); scores are for the side to move."""

    def __init__(self, max_nodes: int, max_seconds: float) -> None:
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + max_seconds
        self.nodes = 0

    def evaluate(self, me: int, mask: int, w_me: int | None = None) -> int:
        opp = me ^ mask
        if w_me is None:
            w_me = winning_cells(me, mask)
        w_opp = winning_cells(opp, mask)
        # threats anywhere count; threats that are playable right now count a lot more
        now = playable(mask)
        return (
            4 * (w_me.bit_count() - w_opp.bit_count())
            + 12 * ((w_me & now).bit_count() - (w_opp & now).bit_count())
            + (me & CENTER).bit_count()
            - (opp & CENTER).bit_count()
        )

    def negamax(self, me: int, mask: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise OutOfBudget
        stones = mask.bit_count()
        # one bitboard test for "some playable cell completes four" instead of trying the seven columns;
        # a leaf's evaluation reuses the same cells
        w_me = winning_cells(me, mask)
        if w_me & playable(mask):
            return WIN - ply
        if stones >= ROWS * COLS - 1:
            return 0
        if depth == 0:
            return self.evaluate(me, mask, w_me)
        best = -WIN
        for c in ORDER:
            if not can_play(mask, c):
                continue
            nm = mask | drop(mask, c)
            score = -self.negamax(me ^ mask, nm, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def best_move(self, me: int, mask: int, max_depth: int, rng: random.Random) -> int:
        """Iterative deepening; the last fully searched depth decides, ties broken by the seeded rng."""
        cols = [c for c in ORDER if can_play(mask, c)]
        rng.shuffle(cols)
        cols.sort(key=lambda c: abs(3 - c) + rng.random() * 1.5)  # mostly central first, some variety
        choice = cols[0]
        for c in cols:
            if aligned(me | drop(mask, c)):
                return c
        for depth in range(1, max_depth + 1):
            try:
                scores = {}
                alpha = -WIN - 1
                for c in cols:
                    nm = mask | drop(mask, c)
                    scores[c] = -self.negamax(me ^ mask, nm, depth - 1, -WIN - 1, -alpha, 1)
                    alpha = max(alpha, scores[c])
            except OutOfBudget:
                break
            cols.sort(key=lambda c: -scores[c])
            choice = cols[0]
            if abs(scores[choice]) > WIN - 50:  # forced result found; deeper search adds nothing
                break
        return choice
