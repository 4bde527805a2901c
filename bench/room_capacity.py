"""How many live room conversations one process holds: 1, 2, 4, 8 ... at once, until turns get slow.

Starts a fresh `avatar serve` (SQLite: the server hosts the rooms itself), or with `--room-workers N` an API process
on PostgreSQL plus N `avatar worker` processes that host the rooms (`AVATAR_WORKER=external`). At each level it
opens that many conversations with the project's own aiortc client (`adapters/aiortc_rooms/client.py`; video
received unless `--no-video`), and each participant speaks a question (WAV files made once with the offline voice,
under var/bench/) every few seconds for `--seconds`: it speaks, waits for the reply's first audio and for the
reply to play out, and a second later asks the next. Per level:

- voice to voice p50 / p99: the end of the client's speech to the first audible reply frame it receives;
- video fps: avatar frames each client received per second (15 sent when the server keeps up);
- audio frames missing: the share of the 50 voice frames a second each client should have received that never came
  (the server's pacer skips what a stalled loop could not send in time);
- CPU: cores used by the API process and by each room worker, apart (all their threads; /proc), and by this
  client process. With workers, the API's own figure shows whether it stays free for HTTP while they hold the rooms.

The capacity is the last level before p50 first crosses 1 s; the run goes on until p50 passes 2 s. The clients
run on the same machine (Opus and VP8 decoding): on 2 cores they take CPU from the server, so the figures are a
lower bound.

    .venv/bin/python bench/room_capacity.py [--levels 1,2,4,8,16] [--seconds 30] [--no-video]
    .venv/bin/python bench/room_capacity.py --room-workers 2 --postgres postgresql+asyncpg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import wave
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np

QUESTIONS = ["When does the museum open on Sunday?", "How much does a ticket cost?", "Is there a cafe in the museum?"]
KNOWLEDGE = ("The museum opens at 9am on Sundays and closes at 5pm. Tickets cost 12 euros. The cafe on the ground "
             "floor serves coffee and cake.")
CLIP_DIR = Path("var/bench")
TICK = os.sysconf("SC_CLK_TCK")


def recorded_questions() -> list[tuple[np.ndarray, int]]:
    """The questions as WAV files spoken by the offline voice, made on the first run and read back after."""
    CLIP_DIR.mkdir(parents=True, exist_ok=True)
    clips = []
    for index, text in enumerate(QUESTIONS):
        path = CLIP_DIR / f"room_question_{index}.wav"
        if not path.exists():
            from avatar_service.adapters.speech.piper_speech import PiperSpeech
            from avatar_service.ports.speech import VoiceChoice

            audio = PiperSpeech().synthesize(text, VoiceChoice(provider="openai"))
            with wave.open(str(path), "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(2)
                out.setframerate(audio.sample_rate)
                out.writeframes(np.asarray(audio.samples, dtype=np.int16).tobytes())
        with wave.open(str(path), "rb") as clip:
            clips.append((np.frombuffer(clip.readframes(clip.getnframes()), np.int16), clip.getframerate()))
    return clips


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def cpu_seconds(pids: list[int]) -> list[float]:
    """CPU time (user + system, all threads) each process has used so far, in the order of `pids`."""
    used = []
    for pid in pids:
        seconds = 0.0
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / TICK
        used.append(seconds)
    return used


def cores(figures: dict[str, Any]) -> str:
    """The API's cores, then each worker's: '0.12c' alone, or '0.05c | 0.91c 0.88c' with room workers."""
    api, *workers = figures["cpu"]
    return f"{api:.2f}c" + (" | " + " ".join(f"{w:.2f}c" for w in workers) if workers else "")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def deployment(room_workers: int, postgres: str, capacity: int) -> Iterator[tuple[str, str, list[int]]]:
    """The server processes; yields the API's base URL, a '*' key and the pids whose CPU is counted (the API's
    first, then each room worker's)."""
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
        env.update({"AVATAR_DATA_DIR": tmp, "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}",
                    "AVATAR_ROOM_HOST_ADDRESSES": "127.0.0.1", "AVATAR_LOG_LEVEL": "WARNING",
                    "AVATAR_EMBEDDER": "lexical", "AVATAR_SECRET_KEY": "room-capacity-bench"})
        database = None
        if room_workers:
            database = f"avatar_bench_rooms_{uuid.uuid4().hex[:8]}"
            admin(postgres, f'CREATE DATABASE "{database}"')
            env.update({"AVATAR_DATABASE_URL": postgres.rsplit("/", 1)[0] + f"/{database}",
                        "AVATAR_WORKER": "external", "AVATAR_ROOM_CAPACITY": str(capacity)})
        else:
            env["AVATAR_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp}/avatar.db"
        cli = [sys.executable, "-m", "avatar_service"]
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
        key = subprocess.run([*cli, "keys", "create", "--name", "bench", "--scopes", "*"], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        processes: list[subprocess.Popen[bytes]] = []
        try:
            with (Path(tmp) / "server.log").open("wb") as sink:
                processes.append(subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(port)],
                                                  env=env, stdout=sink, stderr=subprocess.STDOUT))
                for _ in range(room_workers):
                    processes.append(subprocess.Popen([*cli, "worker"], env=env, stdout=sink,
                                                      stderr=subprocess.STDOUT))
            yield f"http://127.0.0.1:{port}", key, [p.pid for p in processes]
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
            if database is not None:
                admin(postgres, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            tail = (Path(tmp) / "server.log").read_text(errors="replace")[-1500:]
            if "Traceback" in tail:
                print("server log ends:\n" + tail)


def admin(url: str, statement: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:  # called from the bench's own running loop
        pool.submit(asyncio.run, run()).result()


@dataclass
class Participant:
    room: Any
    conversation: dict[str, Any]
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0


async def talk(person: Participant, clips: list[tuple[np.ndarray, int]], until: float, offset: int) -> None:
    room = person.room
    index = offset
    while time.monotonic() < until:
        room.microphone.say(*clips[index % len(clips)])
        index += 1
        if not await room.wait_for(lambda: room.microphone.speech_ended_at is not None, 20):
            break
        ended = room.microphone.speech_ended_at
        if await room.wait_for(lambda end=ended: any(t > end for t in room.heard.audible), 10, step=0.01):
            person.latencies.append(min(t for t in room.heard.audible if t > ended) - ended)
        else:
            person.unanswered += 1
        # The reply plays out (no audible frame for 0.5 s, 8 s at most); a second later, the next question.
        await room.wait_for(lambda: bool(room.heard.audible) and time.monotonic() - room.heard.audible[-1] > 0.5, 8)
        await asyncio.sleep(1.0)


async def level(api: httpx.AsyncClient, personality: str, count: int, seconds: float, video: bool,
                clips: list[tuple[np.ndarray, int]], pids: list[int]) -> dict[str, Any] | None:
    from avatar_service.adapters.aiortc_rooms.client import RoomClient

    people: list[Participant] = []
    refused = 0
    for _ in range(count):
        conversation = (await api.post("/v1/conversations", json={
            "personality_id": personality, "config": {"video_enabled": video}})).json()
        people.append(Participant(RoomClient(receive_video=video), conversation))

    async def join(person: Participant) -> bool:
        async def post_offer(sdp: str, kind: str) -> tuple[str, str]:
            answer = await api.post(f"/rooms/{person.conversation['id']}/offer",
                                    params={"token": person.conversation["room_token"]},
                                    json={"sdp": sdp, "type": kind})
            if answer.status_code != 200:
                raise RuntimeError(f"offer refused: {answer.status_code} {answer.text[:200]}")
            return answer.json()["sdp"], answer.json()["type"]
        try:
            await person.room.join(post_offer)
        except RuntimeError as error:
            print(f"    {error}")
            return False
        return bool(await person.room.wait_for(lambda: person.room.pc.connectionState == "connected", 30))

    try:
        joined = await asyncio.gather(*[join(p) for p in people])
        refused = joined.count(False)
        people = [p for p, ok in zip(people, joined, strict=True) if ok]
        if not people:
            return None
        await asyncio.sleep(3)  # the microphones send silence first, as a browser's do
        frames = [(p.room.heard.video_frames, p.room.heard.audio_frames) for p in people]
        cpu, client_cpu, started = cpu_seconds(pids), time.process_time(), time.monotonic()
        until = started + seconds
        await asyncio.gather(*[talk(p, clips, until, i) for i, p in enumerate(people)])
        wall = time.monotonic() - started
        used = [(after - before) / wall for before, after in zip(cpu, cpu_seconds(pids), strict=True)]
        client_used = (time.process_time() - client_cpu) / wall
        video_fps = [(p.room.heard.video_frames - v) / wall for p, (v, _) in zip(people, frames, strict=True)]
        audio = [(p.room.heard.audio_frames - a) for p, (_, a) in zip(people, frames, strict=True)]
        missing = 100 * max(0.0, 1 - statistics.mean(audio) / (50 * wall))
        latencies = [t for p in people for t in p.latencies]
        unanswered = sum(p.unanswered for p in people)
    finally:
        for person in people:
            await person.room.close()
            await api.delete(f"/v1/conversations/{person.conversation['id']}")
    if not latencies:
        return None
    return {"rooms": len(people), "refused": refused, "turns": len(latencies), "unanswered": unanswered,
            "p50": statistics.median(latencies), "p99": percentile(latencies, 99),
            "fps": statistics.mean(video_fps) if video else 0.0, "fps_min": min(video_fps) if video else 0.0,
            "missing": missing, "cpu": used, "client_cpu": client_used}


async def run(args: argparse.Namespace) -> None:
    clips = recorded_questions()
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())} on {os.cpu_count()} cores")
    with deployment(args.room_workers, args.postgres, args.capacity) as (base, key, pids):
        async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as api:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await api.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.2)
            if args.room_workers:
                await asyncio.sleep(8)  # the workers load the app and announce themselves
            ava = (await api.post("/v1/personalities", json={"name": "Ava"})).json()
            item = (await api.post(f"/v1/personalities/{ava['id']}/knowledge",
                                   json={"type": "text", "content": KNOWLEDGE})).json()
            for _ in range(300):
                status = (await api.get(f"/v1/personalities/{ava['id']}/knowledge/{item['id']}")).json()["status"]
                if status in ("ready", "failed"):
                    break
                await asyncio.sleep(0.2)
            # One warm-up conversation (models load on the first one), not counted.
            await level(api, ava["id"], 1, 6, args.video, clips, pids)
            server = "API | each worker CPU" if args.room_workers else "server CPU"
            print(f"{'rooms':>5} {'turns':>5} {'p50 ms':>7} {'p99 ms':>7} {'video fps':>10} {'audio missing':>13} "
                  f"{'client CPU':>10}  {server}")
            capacity, crossed = 0, False
            for count in args.levels:
                figures = await level(api, ava["id"], count, args.seconds, args.video, clips, pids)
                if figures is None:
                    print(f"{count:>5} no room answered")
                    break
                note = ""
                if figures["refused"]:
                    note += f"  ({figures['refused']:.0f} refused: no place)"
                if figures["unanswered"]:
                    note += f"  ({figures['unanswered']:.0f} questions unanswered within 10 s)"
                print(f"{figures['rooms']:>5.0f} {figures['turns']:>5.0f} {1000 * figures['p50']:>7.0f} "
                      f"{1000 * figures['p99']:>7.0f} {figures['fps']:>5.1f} (min {figures['fps_min']:>4.1f}) "
                      f"{figures['missing']:>11.1f} % {figures['client_cpu']:>9.2f}c  {cores(figures)}{note}",
                      flush=True)
                if figures["p50"] > 1.0:
                    crossed = True
                elif not crossed:
                    capacity = int(figures["rooms"])
                if figures["p50"] > 2.0:
                    break  # well past it: the next level tells nothing more
    print(f"capacity (largest level with voice-to-voice p50 under 1 s): {capacity} rooms")
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,2,4,8,16", help="simultaneous rooms per level")
    parser.add_argument("--seconds", type=float, default=30.0, help="talking time per level")
    parser.add_argument("--no-video", dest="video", action="store_false", help="audio-only rooms")
    parser.add_argument("--room-workers", type=int, default=0, help="rooms on this many `avatar worker` processes")
    parser.add_argument("--capacity", type=int, default=32, help="AVATAR_ROOM_CAPACITY of each room worker")
    parser.add_argument("--postgres", default=os.environ.get("AVATAR_BENCH_POSTGRES_URL", ""),
                        help="a PostgreSQL server URL (a database is made on it and dropped); needed with workers")
    args = parser.parse_args()
    args.levels = [int(v) for v in args.levels.split(",")]
    if args.room_workers and not args.postgres:
        parser.error("--room-workers needs --postgres")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
