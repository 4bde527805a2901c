"""HTTP API throughput and latency: the real server (embedded default) against a bare Litestar app.

Starts both with uvicorn (one process each, same settings) and loads them from a separate process with
wrk (Debian package `wrk`). Prints requests/s, p50 and p99 for an authenticated GET of a personality and a
POST /v1/users, next to the bare app's GET of a constant, and the server's own CPU per request served (user +
system time of its process from /proc, over the run, divided by the requests wrk counted): on a shared machine
req/s follows the CPU the server was given, while CPU per request compares across runs and trees.

    .venv/bin/python bench/http_api.py [--seconds 10] [--connections 32] [--postgres URL | --database-url URL]

`--postgres postgresql+asyncpg://postgres@127.0.0.1:5432/test` runs the real server on PostgreSQL in a fresh
database of its own (created on that server and dropped at the end) instead of the embedded SQLite default;
`--database-url` names a database to use as it is (migrated; use an empty one). Prints the load average too:
on a shared machine compare figures of one run only.
"""

import argparse
import asyncio
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from postgres_admin import admin  # bench/, on the path of a script run from it
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.executable).parent
POST_LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"metadata": {"plan": "pro"}, "settings": {"memory_enabled": true}}'
"""
LATENCY_LUA = """
done = function(summary, latency, requests)
  io.write(string.format("RESULT %f %f %f %d %d\\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status, summary.requests))
end
"""


def wait_up(url: str, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"server at {url} did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used (Linux /proc; fields 14 and 15 of its stat, in clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: int, connections: int, key: str | None, script: str, pid: int
        ) -> tuple[float, float, float, int, float]:
    """req/s, p50 and p99 in ms, non-2xx answers, and the server's CPU µs per request served."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script + LATENCY_LUA)
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s", handle.name, url]
    if key:
        command[1:1] = ["-H", f"Authorization: Bearer {key}"]
    before = cpu_seconds(pid)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    used = cpu_seconds(pid) - before
    rps, p50, p99, errors, total = re.search(r"RESULT (\S+) (\S+) (\S+) (\d+) (\d+)", out).groups()  # type: ignore[union-attr]
    return float(rps), float(p50), float(p99), int(errors), 1e6 * used / max(1, int(total))


def start(args: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(args, env=env, cwd=env.get("BENCH_CWD"), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    wait_up(f"http://127.0.0.1:{port}/healthz" if "serve" in args else f"http://127.0.0.1:{port}/v1/personalities/x")
    return process


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server's URL: a fresh database on it")
    parser.add_argument("--server-src", type=Path, help="serve the avatar_service package in this folder instead "
                        "(an older commit: git archive COMMIT src | tar -x -C DIR; mv DIR/src DIR/avatar_service)")
    opts = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk: apt-get install wrk")
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    database_url = opts.database_url or f"sqlite+aiosqlite:///{work}/a.db"
    fresh = None
    if opts.postgres:
        fresh = f"bench_http_{secrets.token_hex(4)}"
        asyncio.run(admin(opts.postgres, f'CREATE DATABASE "{fresh}"'))
        database_url = make_url(opts.postgres).set(database=fresh).render_as_string(hide_password=False)
    print(f"load average {os.getloadavg()[0]:.2f} before", flush=True)
    try:
        run(opts, work, database_url)
    finally:
        if fresh:
            asyncio.run(admin(opts.postgres, f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)'))
        shutil.rmtree(work, ignore_errors=True)


def run(opts: argparse.Namespace, work: Path, database_url: str) -> None:
    env = {**os.environ, **({"PYTHONPATH": str(opts.server_src)} if opts.server_src else {}),
           "AVATAR_DATA_DIR": str(work), "AVATAR_DATABASE_URL": database_url,
           "AVATAR_LOG_LEVEL": "WARNING", "AVATAR_RATE_LIMIT_PER_MINUTE": "0", "BENCH_CWD": str(work)}
    key = subprocess.run([VENV / "avatar", "keys", "create", "--name", "bench", "--scopes", "*"], env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    rows = []
    server = start([str(VENV / "avatar"), "serve", "--port", "8011"], env, 8011)
    try:
        base = "http://127.0.0.1:8011/v1"
        created = httpx.post(f"{base}/personalities", json={"name": "Bench"},
                             headers={"Authorization": f"Bearer {key}"}).json()
        pid = server.pid
        wrk(f"{base}/personalities/{created['id']}", 2, opts.connections, key, "", pid)  # warm-up
        wrk(f"{base}/users", 2, opts.connections, key, POST_LUA, pid)
        rows.append(("GET /v1/personalities/{id}", *wrk(f"{base}/personalities/{created['id']}", opts.seconds,
                                                        opts.connections, key, "", pid)))
        rows.append(("POST /v1/users", *wrk(f"{base}/users", opts.seconds, opts.connections, key, POST_LUA, pid)))
    finally:
        server.terminate()
        server.wait()
    bare = start([str(VENV / "uvicorn"), "--app-dir", str(ROOT / "bench"), "bare_app:app", "--port", "8012",
                  "--log-level", "warning"], env, 8012)
    try:
        url = "http://127.0.0.1:8012/v1/personalities/x"
        wrk(url, 2, opts.connections, None, "", bare.pid)
        rows.append(("bare Litestar constant GET", *wrk(url, opts.seconds, opts.connections, None, "", bare.pid)))
    finally:
        bare.terminate()
        bare.wait()
    print(f"{'endpoint':32} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} {'CPU µs/req':>11}")
    for name, rps, p50, p99, errors, cpu in rows:
        print(f"{name:32} {rps:9.0f} {p50:8.2f} {p99:8.2f} {errors:8d} {cpu:11.0f}")
    print(f"authenticated GET at {100 * rows[0][1] / rows[2][1]:.0f}% of the bare app's requests/s "
          f"({opts.connections} connections, {opts.seconds} s, one uvicorn process each, "
          f"{database_url.split(':', 1)[0]}); load average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
