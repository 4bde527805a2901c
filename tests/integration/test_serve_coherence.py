"""`avatar serve --workers 2` on PostgreSQL: both processes cache reads and vectors, and a write answered by
either is seen by the next read and the next search, whichever process answers them."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import httpx

from .helpers import answers_healthz, free_port
from .test_serve_processes import spawned_by
from .test_workers_faults import eventually, service_env, start, stop


async def test_two_processes_stay_coherent(postgres_database: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    env = service_env(postgres_database, tmp_path / "data", "database", AVATAR_WORKER="external",
                      AVATAR_RATE_LIMIT_PER_MINUTE="0")
    avatar = Path(sys.executable).with_name("avatar")
    process = start(["serve", "--port", str(port), "--workers", "2"], env, log)
    try:
        await eventually(lambda: answers_healthz(port), 60, "the API to answer", log)
        assert len(spawned_by(process.pid)) == 2, log.read_text()
        made = await anyio.run_process([str(avatar), "keys", "create", "--name", "t", "--scopes", "*"], env=env)
        key = made.stdout.decode().strip()
        # One connection per request: the kernel hands each to either process.
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}/v1", limits=httpx.Limits(
                max_keepalive_connections=0), headers={"Authorization": f"Bearer {key}"}) as http:
            personality = (await http.post("/personalities", json={"name": "Ava"})).json()["id"]
            user = (await http.post("/users", json={})).json()["id"]
            for round_ in range(15):
                for _ in range(4):  # both processes have it cached
                    assert (await http.get(f"/personalities/{personality}")).status_code == 200
                assert (await http.patch(f"/personalities/{personality}",
                                         json={"name": f"Ava {round_}"})).status_code == 200
                names = {(await http.get(f"/personalities/{personality}")).json()["name"] for _ in range(6)}
                assert names == {f"Ava {round_}"}
            for round_, word in enumerate(["violin", "harbour", "lantern", "orchard"]):
                for _ in range(3):  # both processes have the user's vectors cached
                    await http.post(f"/users/{user}/memories/search", json={"query": "anything"})
                created = (await http.post(f"/users/{user}/memories", json={
                    "personality_id": personality, "content": f"User plays the {word}"})).json()
                for _ in range(4):
                    hits = (await http.post(f"/users/{user}/memories/search", json={"query": word})).json()["data"]
                    assert hits and hits[0]["id"] == created["id"], (round_, hits)
                assert (await http.delete(f"/users/{user}/memories/{created['id']}")).status_code == 200
                for _ in range(4):
                    hits = (await http.post(f"/users/{user}/memories/search", json={"query": word})).json()["data"]
                    assert created["id"] not in [hit["id"] for hit in hits]
    finally:
        stop(process)
    assert "Traceback" not in log.read_text(), log.read_text()
