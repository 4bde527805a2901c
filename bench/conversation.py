"""Conversation latency: text turns with the offline engine, and voice to voice in the WebRTC room.

1. Text turns: `Conversations.say` in-process on SQLite with 1k knowledge chunks and 1k memories for the
   user (the offline dialogue engine, the configured embedder): p50/p99 over `--turns` turns, after
   `avatar_service.settle_heap()` as a long-lived process does (`--unsettled-heap`: without) and once the room
   engines' one-off warm-up has ended. Target p99 < 50 ms.
2. Voice to voice: `avatar serve` on loopback (its own process, as deployed); an aiortc client in this process
   speaks `--utterances` Piper sentences into the room and times, for each, the end of its speech to the
   first audible reply packet it receives. Target p50 < 1 s on 2 cores.
3. `--first-delta`: streamed text turns over HTTP (`"stream": true`) against `avatar serve`: the time from the
   request to its first `delta` event and to its `done` event, with the offline engine and with a local
   OpenAI-compatible model that writes a token every 30 ms (tests/integration/openai_server.py).
4. `--slow-model`: voice to voice as in 2, with that slow model behind the room: for each utterance, the end of
   speech to the first audible reply, and to the model's last token. The first comes after the model's first
   sentence, the second after its whole reply; the gap between them is what streaming the reply saves.

    .venv/bin/python bench/conversation.py [--turns 200] [--utterances 20] [--embedder auto|lexical]
                                           [--skip-text] [--skip-voice] [--first-delta] [--slow-model]
                                           [--unsettled-heap]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np

import avatar_service
from avatar_service.core.model import (
    ConversationCreate,
    KnowledgeCreate,
    MemoryBulkCreate,
    PersonalityCreate,
    UserCreate,
)
from avatar_service.core.model.memories import MemoryItem
from avatar_service.core.services.conversations import ConversationLimits
from avatar_service.ports.rooms import RoomProvider

KNOWLEDGE_ITEMS = 7  # about 1k chunks in all
TOPICS = ["opening hours", "ticket prices", "the garden", "the cafe", "parking", "guided tours", "the gift shop",
          "school visits", "accessibility", "photography", "the library", "lost property", "membership"]
QUESTIONS = [
    "When does the museum open on Sunday?", "How much is a ticket for a student?", "Is there a cafe inside?",
    "Can I park my car near the entrance?", "Do you offer guided tours in the morning?",
    "Where is the gift shop?", "Can I take photographs of the paintings?", "Is the garden open in winter?",
    "How do I become a member?", "Is there a lift for wheelchairs?", "What is the oldest painting here?",
    "Can school groups visit for free?", "Where can I leave my coat?", "Do you sell books about the artists?",
    "Is the library open to visitors?", "What did I tell you about my dog?", "How long does a tour take?",
    "Are dogs allowed in the garden?", "When does the museum close today?", "Thank you, that was helpful.",
]


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def knowledge_text(index: int) -> str:
    """About 150 chunks' worth of varied sentences (chunks are about 200 word pieces; numbers cost several)."""
    sentences = []
    for i in range(1000):
        topic = TOPICS[(index * 7 + i) % len(TOPICS)]
        sentences.append(f"Note {index}-{i} about {topic}: the visitor desk says item {i % 97} of {topic} "
                         f"changes on weekday {i % 7} and costs {i % 23} euros for group {index}.")
    return " ".join(sentences)[:100_000]


async def text_turns(turns: int, embedder: str, settle: bool = True) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        async with avatar_service.open(url, worker=False, data_dir=tmp, embedder=embedder) as avatars:
            org = (await avatars.organization("default")).id
            ava = await avatars.personalities.create(org, PersonalityCreate(name="Ava"))
            user = await avatars.users.create(org, UserCreate(external_id="alice"))
            started = time.perf_counter()
            items = [await avatars.knowledge.add(org, ava.id, KnowledgeCreate(type="text", name=f"k{i}",
                                                                              content=knowledge_text(i)))
                     for i in range(KNOWLEDGE_ITEMS)]
            await avatars.run_jobs()
            chunks = sum([(await avatars.knowledge.get(org, ava.id, item.id)).chunk_count or 0 for item in items])
            for batch in range(10):
                items = [MemoryItem(content=f"Alice mentioned fact {batch * 100 + j}: she likes {TOPICS[j % 13]} "
                                    f"and visits on day {j % 7}", category="preference") for j in range(100)]
                await avatars.memories.bulk(org, user.id, MemoryBulkCreate(personality_id=ava.id, memories=items))
            await avatars.run_jobs()
            print(f"set-up: {KNOWLEDGE_ITEMS} knowledge items ({chunks} chunks), 1000 memories, "
                  f"embedder {embedder}, {time.perf_counter() - started:.1f} s")
            conversation = await avatars.conversations.create(org, ConversationCreate(personality_id=ava.id,
                                                                                      user_id=user.id, mode="voice"))
            for i in range(5):  # warm the vector index and the engine
                await avatars.conversations.say(org, conversation.id, QUESTIONS[i])
            if settle:  # what `avatar serve` does once started, and the README advises a long-lived embedder to do
                avatar_service.settle_heap()
            # Opening the conversation's room started the room engines' warm-up (Whisper, Piper and Silero loaded
            # and run once, on a worker thread): seconds of CPU, once per process. The turns timed beside it (about
            # the first 40) were most of the p99, of wall and of CPU time, so it is waited for: the turns timed are
            # a warmed process's, as every turn is after the first seconds of a process's first room.
            warm = getattr(avatars.container.resolve(RoomProvider), "warm", None)
            if warm is not None:
                waited = time.perf_counter()
                await warm()
                print(f"room engines' warm-up: waited {time.perf_counter() - waited:.1f} s after the first turns")
            timings, cpu = [], []
            limit = avatars.container.resolve(ConversationLimits)
            for i in range(turns):
                if (i + 6) * 2 >= limit.max_transcript:
                    break
                t, c = time.perf_counter(), time.process_time()
                await avatars.conversations.say(org, conversation.id, QUESTIONS[i % len(QUESTIONS)])
                timings.append(1000 * (time.perf_counter() - t))
                cpu.append(1000 * (time.process_time() - c))
    print(f"text turn ({len(timings)} turns, heap {'settled' if settle else 'as started'}): p50 "
          f"{percentile(timings, 50):.1f} ms, p99 {percentile(timings, 99):.1f} ms (target p99 < 50 ms)")
    # CPU time of this process per turn (all its threads): what the turn costs, whatever else runs on the machine
    print(f"text turn CPU time: p50 {percentile(cpu, 50):.1f} ms, p99 {percentile(cpu, 99):.1f} ms")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


STAGES = {"hangover": r"queued (\d+) ms", "speech-to-text": r"speech-to-text (\d+) ms", "turn": r"turn (\d+) ms",
          "first audio queued": r"first reply audio queued (\d+) ms"}


def stage_report(log: Path) -> None:
    """Medians of the server's own per-turn timings (its INFO log lines), to show where the time goes."""
    text = log.read_text(errors="replace")
    parts = []
    for stage, pattern in STAGES.items():
        values = [float(v) for v in re.findall(pattern, text)]
        if values:
            parts.append(f"{stage} {statistics.median(values):.0f} ms")
    print("server side, medians: " + ", ".join(parts))


@contextlib.contextmanager
def serving(settings: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """`avatar serve` on a free loopback port with a fresh SQLite file; its base URL and a '*' key."""
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        env = {**os.environ, "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/avatar.db", "AVATAR_DATA_DIR": tmp,
               "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}", "AVATAR_ROOM_HOST_ADDRESSES": "127.0.0.1",
               "AVATAR_LOG_LEVEL": "INFO", **(settings or {})}
        cli = [sys.executable, "-m", "avatar_service"]
        log = Path(tmp) / "server.log"
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
        key = subprocess.run([*cli, "keys", "create", "--name", "bench", "--scopes", "*"], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        with log.open("wb") as sink:
            server = subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                                      stdout=sink, stderr=subprocess.STDOUT)
            try:
                yield f"http://127.0.0.1:{port}", key
            finally:
                server.terminate()
                server.wait(timeout=20)
        stage_report(log)


async def voice_to_voice(base: str, key: str, utterances: int, model: Any = None) -> None:
    """`model`: the slow FakeModel behind the server, whose last tokens are timed too (same clock as the room's)."""
    from avatar_service.adapters.aiortc_rooms.client import RoomClient
    from avatar_service.adapters.speech.piper_speech import PiperSpeech
    from avatar_service.ports.speech import VoiceChoice

    piper = PiperSpeech()
    lines = [piper.synthesize(q, VoiceChoice(provider="openai")) for q in QUESTIONS[:utterances]]
    room = RoomClient()
    latencies: list[float] = []
    written: list[float] = []  # with `model`: end of speech -> the model's last token
    try:
        async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as api:
            for _ in range(300):
                try:
                    if (await api.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.2)
            ava = (await api.post("/v1/personalities", json={"name": "Ava"})).json()
            await api.post(f"/v1/personalities/{ava['id']}/knowledge", json={
                "type": "text", "content": "The museum opens at 9am and closes at 5pm. Tickets cost 12 euros, "
                "students pay 6. The cafe is on the ground floor. Tours start at 10am and take an hour."})
            conversation = (await api.post("/v1/conversations", json={
                "personality_id": ava["id"], "mode": "voice", "config": {"video_enabled": False}})).json()

            async def post_offer(sdp: str, kind: str) -> tuple[str, str]:
                answer = (await api.post(f"/rooms/{conversation['id']}/offer",
                                         params={"token": conversation["room_token"]},
                                         json={"sdp": sdp, "type": kind})).json()
                return answer["sdp"], answer["type"]

            await room.join(post_offer)
            if not await room.wait_for(lambda: room.pc.connectionState == "connected", 20):
                raise SystemExit("the room did not connect")
            await asyncio.sleep(4)  # the server loads Whisper when the participant joins
            for index, line in enumerate(lines):
                room.microphone.say(np.asarray(line.samples), line.sample_rate)
                await room.wait_for(lambda: room.microphone.speech_ended_at is not None, 30)
                ended = room.microphone.speech_ended_at or 0.0
                if await room.wait_for(lambda end=ended: any(t > end for t in room.heard.audible), 20):
                    first = min(t for t in room.heard.audible if t > ended)
                    latencies.append(first - ended)
                    whole = ""
                    if model is not None and await room.wait_for(
                            lambda end=ended: any(t > end for t in model.finished_at), 30):
                        written.append(min(t for t in model.finished_at if t > ended) - ended)
                        whole = f", whole reply written {1000 * written[-1]:6.0f} ms"
                    print(f"  {index + 1:2d}. {1000 * latencies[-1]:6.0f} ms{whole}  {QUESTIONS[index]}")
                else:
                    print(f"  {index + 1:2d}. no reply within 20 s  {QUESTIONS[index]}")
                # Let the reply play on a little, then speak again (which interrupts what is left of it).
                await asyncio.sleep(1.5)
            transcript = (await api.get(f"/v1/conversations/{conversation['id']}",
                                        params={"include_transcript": "true"})).json()["transcript"]
            heard = sum(1 for t in transcript if t["role"] == "user")
    finally:
        await room.close()
    if latencies:
        print(f"voice to voice ({len(latencies)}/{utterances} answered, {heard} user turns transcribed): "
              f"p50 {1000 * statistics.median(latencies):.0f} ms, p99 {1000 * percentile(latencies, 99):.0f} ms "
              f"(target p50 < 1000 ms)")
    if written:
        print(f"with a model writing a token every {1000 * TOKEN_SECONDS:.0f} ms: end of speech to first reply audio "
              f"p50 {1000 * statistics.median(latencies):.0f} ms; to the model's last token p50 "
              f"{1000 * statistics.median(written):.0f} ms (the reply is {len(SLOW_REPLY.split())} words)")


# --- streamed replies: time to the first delta over HTTP, and a slow model behind the room ---------------------

TOKEN_SECONDS = 0.03  # the slow model writes a token every 30 ms
SLOW_REPLY = ("The museum opens at nine every morning. It closes at five in the evening, except on Fridays when it "
              "stays open until nine. Tickets cost twelve euros for adults and six for students. Guided tours start "
              "at ten and take about an hour. Is there anything else you would like to know?")


@contextlib.contextmanager
def slow_model() -> Iterator[Any]:
    """A local OpenAI-compatible server answering every request with SLOW_REPLY, one word-token every 30 ms."""
    from tests.integration.openai_server import FakeModel, Say

    with FakeModel(lambda body: Say(SLOW_REPLY, delay=TOKEN_SECONDS)) as model:
        yield model


def model_settings(model: Any) -> dict[str, str]:
    return {"AVATAR_DIALOGUE_BASE_URL": model.base_url, "AVATAR_DIALOGUE_MODEL": "slow-fake"}


async def first_delta(base: str, key: str, turns: int, engine: str) -> None:
    """Streamed turns over HTTP: request -> first `delta` event, and request -> `done`."""
    firsts: list[float] = []
    dones: list[float] = []
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as api:
        for _ in range(300):
            try:
                if (await api.get("/healthz")).status_code == 200:
                    break
            except httpx.HTTPError:
                await asyncio.sleep(0.2)
        ava = (await api.post("/v1/personalities", json={"name": "Ava"})).json()
        await api.post(f"/v1/personalities/{ava['id']}/knowledge", json={
            "type": "text", "content": "The museum opens at 9am and closes at 5pm. Tickets cost 12 euros, "
            "students pay 6. The cafe is on the ground floor. Tours start at 10am and take an hour."})
        conversation = (await api.post("/v1/conversations", json={"personality_id": ava["id"], "mode": "voice"})).json()
        for index in range(turns + 2):  # the first two warm the server up
            started, first = time.perf_counter(), None
            async with api.stream("POST", f"/v1/conversations/{conversation['id']}/messages",
                                  json={"content": QUESTIONS[index % len(QUESTIONS)], "stream": True}) as response:
                async for line in response.aiter_lines():
                    if first is None and line == "event: delta":
                        first = time.perf_counter() - started
                    elif line == "event: done":
                        if index >= 2 and first is not None:
                            firsts.append(first)
                            dones.append(time.perf_counter() - started)
                    elif line == "event: error":
                        raise SystemExit(f"the stream failed: {await response.aread()!r}")
    print(f"streamed text turn over HTTP, {engine} ({len(firsts)} turns): first delta p50 "
          f"{1000 * statistics.median(firsts):.0f} ms, p99 {1000 * percentile(firsts, 99):.0f} ms; done p50 "
          f"{1000 * statistics.median(dones):.0f} ms, p99 {1000 * percentile(dones, 99):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--utterances", type=int, default=20)
    parser.add_argument("--embedder", default="auto", choices=["auto", "lexical"])
    parser.add_argument("--skip-text", action="store_true")
    parser.add_argument("--skip-voice", action="store_true")
    parser.add_argument("--unsettled-heap", action="store_true", help="text turns without avatar_service.settle_heap()")
    parser.add_argument("--first-delta", action="store_true", help="streamed turns over HTTP: time to first delta")
    parser.add_argument("--stream-turns", type=int, default=20)
    parser.add_argument("--slow-model", action="store_true", help="the room with a model writing a token every 30 ms")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if not args.skip_text:
        asyncio.run(text_turns(args.turns, args.embedder, settle=not args.unsettled_heap))
    if not args.skip_voice:
        with serving() as (base, key):
            asyncio.run(voice_to_voice(base, key, min(args.utterances, len(QUESTIONS))))
    if args.first_delta:
        with serving() as (base, key):
            asyncio.run(first_delta(base, key, args.stream_turns, "offline engine"))
        with slow_model() as model, serving(model_settings(model)) as (base, key):
            asyncio.run(first_delta(base, key, args.stream_turns, f"a model writing a token every "
                                    f"{1000 * TOKEN_SECONDS:.0f} ms ({len(SLOW_REPLY.split())} words)"))
    if args.slow_model:
        with slow_model() as model, serving(model_settings(model)) as (base, key):
            asyncio.run(voice_to_voice(base, key, min(args.utterances, len(QUESTIONS)), model))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
