"""HTTP game moves per second through the real server (avatar serve, SQLite), with move latency p50 / p99.

Starts `avatar serve` on a free loopback port with a fresh SQLite file, then plays from this process with
httpx: each client plays its own session and starts a new one when a game ends. Moves/s is moves over the
wall time, which includes those creations (one per game: every 3-5 moves in tic-tac-toe and best of 3);
p50 / p99 are of the move requests alone.
A move is the whole exchange: the user's move, the personality's answer and its comment, one write.

    .venv/bin/python bench/games_http.py [--seconds 10] [--clients 1 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

VENV = Path(sys.executable).parent
TTT_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def next_move(game_id: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if game_id == "rock_paper_scissors":
        return {"choice": rng.choice(["rock", "paper", "scissors"])}
    return {"cell": rng.choice([i for i in range(9) if state["board"][i] is None])}


async def player(http: httpx.AsyncClient, game_id: str, options: dict[str, Any], personality: str,
                 until: float, latencies: list[float], seed: int) -> None:
    rng = random.Random(seed)
    session: dict[str, Any] | None = None
    while time.perf_counter() < until:
        if session is None or session["status"] != "active":
            response = await http.post("/v1/game-sessions", json={"personality_id": personality, "game_id": game_id,
                                                                  "options": options})
            response.raise_for_status()
            session = response.json()
        t0 = time.perf_counter()
        response = await http.post(f"/v1/game-sessions/{session['id']}/move",
                                   json={"move": next_move(game_id, session["state"], rng)})
        latencies.append(time.perf_counter() - t0)
        response.raise_for_status()
        result = response.json()
        assert result["user_move_valid"], result
        session = result["session"]


async def measure(base: str, key: str, game_id: str, options: dict[str, Any], clients: int,
                  seconds: float) -> tuple[float, float, float, int]:
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, limits=limits,
                                 timeout=30) as http:
        response = await http.post("/v1/personalities", json={"name": "Bench", "traits": {"humor": 0.7}})
        response.raise_for_status()
        personality = response.json()["id"]
        latencies: list[float] = []
        start = time.perf_counter()
        until = start + seconds
        await asyncio.gather(*(player(http, game_id, options, personality, until, latencies, i)
                               for i in range(clients)))
        elapsed = time.perf_counter() - start
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return len(ms) / elapsed, statistics.median(ms), p99, len(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, nargs="*", default=[1, 8])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-games-http-"))
    env = {**os.environ, "AVATAR_DATA_DIR": str(work), "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{work}/a.db",
           "AVATAR_LOG_LEVEL": "WARNING", "AVATAR_EMBEDDER": "lexical",
           "AVATAR_RATE_LIMIT_PER_MINUTE": "0"}  # the per-key limit would measure itself, not the moves
    key = subprocess.run([VENV / "avatar", "keys", "create", "--name", "bench", "--scopes", "*"], env=env,
                         cwd=work, capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    server = subprocess.Popen([VENV / "avatar", "serve", "--port", str(port)], env=env, cwd=work,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        print(f"{'game':<34}{'clients':>8}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
        cases: list[tuple[str, dict[str, Any]]] = [
            ("tic_tac_toe", {"difficulty": "hard"}),
            ("tic_tac_toe", {"difficulty": "easy"}),
            ("rock_paper_scissors", {"difficulty": "hard", "rounds": 3}),
            ("rock_paper_scissors", {"difficulty": "hard", "rounds": 99}),
        ]
        for game_id, options in cases:
            for clients in args.clients:
                rate, p50, p99, n = asyncio.run(measure(base, key, game_id, options, clients, args.seconds))
                label = f"{game_id} {options['difficulty']}" + (f" best of {options['rounds']}"
                                                                 if "rounds" in options else "")
                print(f"{label:<34}{clients:>8}{n:>8}{rate:>10.1f}{p50:>9.1f}{p99:>9.1f}", flush=True)
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
