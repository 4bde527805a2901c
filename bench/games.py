"""Personality move latency per game and difficulty (p50 / p99 / max), against a random user.

Run: .venv/bin/python bench/games.py [--games N]. Targets: p99 < 300 ms everywhere except chess hard
(< 2 s). For rock-paper-scissors and hangman the personality decides inside user_move, so that is timed.
Wall-clock figures depend on how busy the host is; the CPU p99 column (the process's own CPU time per move)
does not, and the load average printed first says how busy it was.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import string
import time

import chess

from avatar_service.core.games import CATALOGUE

SIMULTANEOUS = {"rock_paper_scissors", "hangman"}


def random_move(game_id: str, state: dict, rng: random.Random) -> dict:
    if game_id == "tic_tac_toe":
        return {"cell": rng.choice([i for i in range(9) if state["board"][i] is None])}
    if game_id == "connect_four":
        return {"column": rng.choice([c for c in range(7) if state["board"][0][c] is None])}
    if game_id == "chess":
        return {"uci": rng.choice(list(chess.Board(state["fen"]).legal_moves)).uci()}
    if game_id == "rock_paper_scissors":
        return {"choice": rng.choice(["rock", "paper", "scissors"])}
    return {"letter": rng.choice([c for c in string.ascii_lowercase if c not in state["guessed"]])}


def timings(game_id: str, difficulty: str, games: int, max_plies: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of every personality decision."""
    game = CATALOGUE[game_id]
    out: list[float] = []
    cpu: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        options: dict = {"difficulty": difficulty}
        if game_id not in SIMULTANEOUS:
            options["first"] = "user" if seed % 2 else "personality"
        state, _ = game.start(options, seed)
        for _ in range(max_plies):
            if state["finished"]:
                break
            t0, c0 = time.perf_counter(), time.process_time()
            if state["turn"] == "personality":
                state = game.personality_move(state)[1].state
                out.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                continue
            move = random_move(game_id, state, rng)
            t0, c0 = time.perf_counter(), time.process_time()
            state = game.user_move(state, move).state
            if game_id in SIMULTANEOUS:
                out.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
    return out, cpu


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--only", nargs="*", default=list(CATALOGUE), help="game ids to measure")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'game':<22}{'difficulty':<12}{'moves':>7}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}{'CPU p99 ms':>12}")
    for game_id in args.only:
        for difficulty in ("easy", "medium", "hard"):
            # chess hard spends up to ~1 s a move: fewer, shorter games keep the run to a few minutes
            slow = game_id == "chess" and difficulty == "hard"
            samples, cpu = timings(
                game_id,
                difficulty,
                max(2, args.games // 4) if slow else args.games,
                60 if game_id == "chess" else 400,
            )
            ms = sorted(s * 1000 for s in samples)
            print(
                f"{game_id:<22}{difficulty:<12}{len(ms):>7}{statistics.median(ms):>10.2f}{p99(ms):>10.2f}"
                f"{ms[-1]:>10.2f}{p99(cpu) * 1000:>12.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
