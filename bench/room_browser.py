"""The live room as a browser hears it: Debian's Chromium joins a fresh `avatar serve` with a fake microphone.

One command, three sessions against one freshly started server (so turn 1 is the first turn after start):

1. **Spoken turns** (`--turns`, video on unless `--no-video`): the microphone is a WAV of questions spoken by
   the offline voice, 2-14 s of silence before each. The page's own audio is measured with WebAudio (the local
   microphone track and the remote voice track into one ScriptProcessor, RMS per 5.3 ms on the AudioContext's
   clock): voice to voice is the end of a question in the local track to the first remote audio after it.
   First-word drops compare the transcript's user lines with the spoken questions. Then **typed
   interruptions**: while a long reply plays, a message is typed into the page; timed from the submit to the
   old voice going quiet and to the new reply's first audio.
2. **Echo** (`--echo-turns`): the remote voice is fed back into the microphone at speaker level (gain
   `--echo-gain`, 60 ms later, after the browser's own processing, so its echo canceller cannot help), with
   short silences so some questions come over the reply. Counted: replies interrupted with no question under
   them (self-interruption), user lines that are not a question (the avatar heard itself), and questions
   spoken over a reply that did interrupt it (barge-in still works).
3. The server's own per-turn figures (the transcript's `metrics`, medians) show where the time goes.

Playwright is used as a library with `executable_path` (never `playwright install`).

    .venv/bin/python bench/room_browser.py [--turns 20] [--echo-turns 8] [--typed 2] [--no-video] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np

CHROMIUM = "/usr/bin/chromium"
RATE = 48_000
KNOWLEDGE = ("The museum opens at 9am on Sundays and closes at 5pm. Tickets cost 12 euros and are sold at the "
             "front desk. The cafe on the ground floor serves coffee and cake. Dogs are not allowed, except guide "
             "dogs. The paintings are on the second floor. Guided tours start every hour in the main hall. "
             "Parking is free behind the museum. The garden is open from April to October.")
QUESTIONS = [
    "What time does the museum open?", "Where can I buy tickets?", "How much does a ticket cost?",
    "Is there a cafe in the museum?", "Can I bring my dog?", "When does the museum close?",
    "Which floor has the paintings?", "Do you have guided tours?", "Where can I park my car?",
    "Is the garden open in winter?", "Tell me about the cafe.", "Could I see the paintings today?",
]
LONG_ASK = "Tell me everything about the museum, the tickets, the cafe and the garden."
TYPED = ["What does a ticket for a child cost?", "Where can I leave my coat?"]  # none of them a spoken question
SPEECH_RMS = 0.01  # a block louder than this (-40 dBFS) is voice
GAP_S = 0.45  # a quieter stretch shorter than this is inside one utterance

INSTRUMENT = """
(() => {
  const B = window.__bench = {levels: [], events: [], echo: %ECHO%};
  const ctx = new AudioContext({sampleRate: 48000});
  B.ctx = ctx;
  B.now = () => ctx.currentTime;
  B.mark = (what) => B.events.push([ctx.currentTime, {type: what}]);
  const merger = ctx.createChannelMerger(2);
  const proc = ctx.createScriptProcessor(1024, 2, 1);
  merger.connect(proc); proc.connect(ctx.destination);
  proc.onaudioprocess = (e) => {
    const l = e.inputBuffer.getChannelData(0), r = e.inputBuffer.getChannelData(1), n = 256;
    for (let i = 0; i < l.length; i += n) {
      let sl = 0, sr = 0;
      for (let j = i; j < i + n; j++) { sl += l[j] * l[j]; sr += r[j] * r[j]; }
      B.levels.push([e.playbackTime + i / 48000, Math.sqrt(sl / n), Math.sqrt(sr / n)]);
    }
  };
  const gum = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (c) => {
    const stream = await gum(c);
    if (ctx.state !== "running") await ctx.resume();
    const source = ctx.createMediaStreamSource(stream);
    source.connect(merger, 0, 0);
    if (!B.echo) return stream;
    // The voice played back into the microphone, after the browser's processing: its echo canceller cannot help.
    const out = ctx.createMediaStreamDestination();
    out.channelCount = 1;
    source.connect(out);
    B.echoDelay = ctx.createDelay(1); B.echoDelay.delayTime.value = 0.06;
    const gain = ctx.createGain(); gain.gain.value = B.echo;
    B.echoDelay.connect(gain).connect(out);
    return out.stream;
  };
  const Native = window.RTCPeerConnection;
  function Instrumented(...args) {
    const pc = new Native(...args);
    B.pc = pc;
    pc.addEventListener("track", (ev) => {
      if (ev.track.kind !== "audio") return;
      const stream = new MediaStream([ev.track]);
      const sink = new Audio(); sink.muted = true; sink.srcObject = stream;  // Chromium feeds WebAudio only then
      const remote = ctx.createMediaStreamSource(stream);
      remote.connect(merger, 0, 1);
      if (B.echoDelay) remote.connect(B.echoDelay);
    });
    const create = pc.createDataChannel.bind(pc);
    pc.createDataChannel = (...a) => {
      const channel = create(...a);
      channel.addEventListener("message", (m) => B.events.push([ctx.currentTime, JSON.parse(m.data)]));
      return channel;
    };
    return pc;
  }
  Instrumented.prototype = Native.prototype;
  Object.setPrototypeOf(Instrumented, Native);
  window.RTCPeerConnection = Instrumented;
})();
"""


# --- the microphone file -------------------------------------------------------------------------------------


def speak(lines: list[str]) -> list[np.ndarray]:
    """Each line in the offline voice (Piper), 48 kHz int16, leading and trailing silence trimmed."""
    from avatar_service.adapters.aiortc_rooms.audio import resample
    from avatar_service.adapters.speech.piper_speech import PiperSpeech
    from avatar_service.ports.speech import VoiceChoice

    piper = PiperSpeech()
    out = []
    for line in lines:
        audio = piper.synthesize(line, VoiceChoice(provider="openai", voice_id="joe"))
        samples = resample(np.asarray(audio.samples), audio.sample_rate, RATE)
        loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > 300)
        out.append(samples[loud[0]: loud[-1] + 1] if loud.size else samples)
    return out


def microphone_file(path: Path, clips: list[np.ndarray], silences: list[float], tail: float) -> None:
    parts: list[np.ndarray] = []
    for clip, silence in zip(clips, silences, strict=True):
        parts += [np.zeros(int(silence * RATE), np.int16), clip]
    parts.append(np.zeros(int(tail * RATE), np.int16))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.concatenate(parts).tobytes())


# --- the server ------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(tmp: Path, source: Path | None = None) -> Iterator[tuple[str, str, float]]:
    """`avatar serve` on a free loopback port with a fresh SQLite file; its URL, a '*' key, and when it answered.
    `source`: a folder holding another `avatar_service` package to serve instead (an older commit, to compare)."""
    port = _free_port()
    extra = {"PYTHONPATH": str(source)} if source is not None else {}
    env = {**os.environ, **extra, "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/avatar.db",
           "AVATAR_DATA_DIR": str(tmp),
           "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}", "AVATAR_ROOM_HOST_ADDRESSES": "127.0.0.1",
           "AVATAR_EMBEDDER": "lexical", "AVATAR_LOG_LEVEL": "INFO"}
    env.pop("AVATAR_DIALOGUE_BASE_URL", None)
    cli = [sys.executable, "-m", "avatar_service"]
    subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
    key = subprocess.run([*cli, "keys", "create", "--name", "bench", "--scopes", "*"], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    with (tmp / "server.log").open("wb") as sink:
        started = time.monotonic()
        server = subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                                  stdout=sink, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            yield base, key, time.monotonic() - started
        finally:
            server.terminate()
            server.wait(timeout=30)


# --- one browser session -----------------------------------------------------------------------------------------


@dataclass
class Session:
    levels: np.ndarray  # rows of (context seconds, local RMS, remote RMS)
    events: list[tuple[float, dict[str, Any]]]
    transcript: list[dict[str, Any]]
    typed: list[tuple[float, str]] = field(default_factory=list)  # (submitted at, the message)
    conversation: dict[str, Any] = field(default_factory=dict)


async def run_session(base: str, key: str, wav: Path, seconds: float, video: bool, echo: float,
                      typed: list[str]) -> Session:
    from playwright.async_api import async_playwright

    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as api:
        personality = (await api.post("/v1/personalities", json={
            "name": "Ava", "voice": {"provider": "openai", "voice_id": "joe"}})).json()  # the voice speak() uses
        await api.post(f"/v1/personalities/{personality['id']}/knowledge", json={"type": "text", "content": KNOWLEDGE})
        for _ in range(200):
            items = (await api.get(f"/v1/personalities/{personality['id']}/knowledge")).json()["data"]
            if all(i["status"] == "ready" for i in items):
                break
            await asyncio.sleep(0.1)
        conversation = (await api.post("/v1/conversations", json={
            "personality_id": personality["id"], "config": {"video_enabled": video}})).json()
        url = f"{conversation['room_url']}?token={conversation['room_token']}"
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=[
                "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                f"--use-file-for-fake-audio-capture={wav}", "--autoplay-policy=no-user-gesture-required",
                "--allow-loopback-in-peer-connection", "--no-sandbox"])
            page = await browser.new_page(viewport={"width": 1366, "height": 768})
            await page.add_init_script(INSTRUMENT.replace("%ECHO%", json.dumps(echo)))
            await page.goto(url)
            await page.wait_for_function("window.__bench && window.__bench.pc && "
                                         "window.__bench.pc.connectionState === 'connected'", timeout=60_000)
            await asyncio.sleep(seconds)
            result = Session(np.zeros((0, 3)), [], [])
            for text in typed:
                result.typed.append((await typed_interruption(page, text), text))
            data = await page.evaluate("[window.__bench.levels, window.__bench.events]")
            await browser.close()
        await asyncio.sleep(0.5)
        body = (await api.get(f"/v1/conversations/{conversation['id']}", params={"include_transcript": "true"})).json()
        await api.delete(f"/v1/conversations/{conversation['id']}")
    result.levels = np.asarray(data[0], dtype=np.float64).reshape(-1, 3)
    result.events = [(float(t), e) for t, e in data[1]]
    result.transcript = list(body.get("transcript") or [])
    result.conversation = body
    return result


async def typed_interruption(page: Any, text: str) -> float:
    """Asks for a long reply by typing; once it has played a second, types `text`. Returns the submit time (the
    page's audio clock)."""
    remote = "window.__bench.levels.length ? window.__bench.levels[window.__bench.levels.length - 1][2] : 0"
    quiet_since, deadline = time.monotonic(), time.monotonic() + 60
    while time.monotonic() - quiet_since < 2 and time.monotonic() < deadline:  # the spoken turns are all answered
        if await page.evaluate(remote) > SPEECH_RMS:
            quiet_since = time.monotonic()
        await asyncio.sleep(0.05)
    await page.fill("#text", LONG_ASK)
    await page.press("#text", "Enter")
    deadline = time.monotonic() + 20
    loud_since = None
    while time.monotonic() < deadline:  # wait for a second of the long reply
        if await page.evaluate(remote) > SPEECH_RMS:
            loud_since = loud_since or time.monotonic()
            if time.monotonic() - loud_since > 1.0:
                break
        await asyncio.sleep(0.05)
    submitted = await page.evaluate("window.__bench.now()")
    await page.fill("#text", text)
    await page.press("#text", "Enter")
    await asyncio.sleep(10)
    return submitted


def typed_figures(s: Session, submitted: float, text: str) -> tuple[float | None, float | None]:
    """For the message `text` typed at `submitted` (context seconds) over a long reply: how long the old voice
    went on after the submit, and when the typed message's reply began to be heard. The reply's start is found
    from its end: the last voice heard, less the reply's length (its sentences synthesised here by the same
    Piper voice), so the gaps between sentences make it a little early."""
    items = s.transcript
    at = next((i for i, item in enumerate(items) if item["role"] == "user" and item["content"] == text), None)
    if at is None or at + 1 >= len(items) or items[at + 1]["role"] != "assistant":
        return None, None
    from avatar_service.adapters.aiortc_rooms.audio import sentences

    length = sum(clip.size for clip in speak(sentences(items[at + 1]["content"]))) / RATE
    t, remote = s.levels[:, 0], s.levels[:, 2]
    window = (t >= submitted) & (t < submitted + 10)
    heard = voiced(t[window], remote[window], gap=0.15)
    if not heard:
        return None, None
    start = heard[-1][1] - length - submitted
    old = sum(max(0.0, min(b, submitted + start) - a) for a, b in heard if a < submitted + start)
    return old, max(start, 0.0)


# --- analysis -----------------------------------------------------------------------------------------------------


def voiced(times: np.ndarray, rms: np.ndarray, gap: float = GAP_S, threshold: float = SPEECH_RMS
           ) -> list[tuple[float, float]]:
    """(start, end) of the stretches louder than `threshold`, merging quieter gaps shorter than `gap`."""
    loud = times[rms > threshold]
    if loud.size == 0:
        return []
    segments: list[list[float]] = [[loud[0], loud[0]]]
    for t in loud[1:]:
        if t - segments[-1][1] > gap:
            segments.append([t, t])
        else:
            segments[-1][1] = t
    return [(a, b + 0.005) for a, b in segments if b - a >= 0.05]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def first_word_kept(spoken: str, heard: str) -> bool:
    said, got = words(spoken), words(heard)
    return bool(got) and got[0] == said[0]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


def spoken_turns(s: Session, asked: list[str]) -> tuple[list[float], list[tuple[str, str]]]:
    """Voice to voice per question (seconds), and (asked, heard) pairs from the transcript."""
    t, local, remote = s.levels[:, 0], s.levels[:, 1], s.levels[:, 2]
    questions = voiced(t, local)[: len(asked)]
    latencies = []
    for (_, end) in questions:
        after = t[(t > end) & (remote > SPEECH_RMS)]
        latencies.append(float(after[0] - end) if after.size else float("nan"))
    typed = {LONG_ASK, *TYPED}
    users = [i["content"] for i in s.transcript if i["role"] == "user" and i["content"] not in typed][: len(asked)]
    return latencies, list(zip(asked, users, strict=False))


def echo_figures(s: Session, asked: list[str]) -> dict[str, Any]:
    t, local, remote = s.levels[:, 0], s.levels[:, 1], s.levels[:, 2]
    questions = voiced(t, local)
    interruptions = [at for at, e in s.events if e.get("type") == "interrupted"]
    under_question = [at for at in interruptions if any(a - 0.2 <= at <= b + 2.0 for a, b in questions)]
    stops = []  # questions that began while the avatar was speaking: how long until its voice stopped
    for a, _ in questions:
        window = (t > a - 0.3) & (t < a)
        if window.any() and float(remote[window].max()) > SPEECH_RMS:
            after = voiced(t[t >= a], remote[t >= a], gap=0.15)
            stops.append(after[0][1] - a if after else 0.0)
    replies = " ".join(i["content"] for i in s.transcript if i["role"] == "assistant")
    users = [i["content"] for i in s.transcript if i["role"] == "user"]
    # A line made of the avatar's own words and not of any question: its echo, heard as a turn.
    echoes = [u for u in users if _similar(u, replies, 0.8) and not any(_similar(u, q) for q in asked)]
    return {"questions": len(questions), "self_interruptions": len(interruptions) - len(under_question),
            "heard_itself": len(echoes), "over_reply": len(stops),
            "stopped_within_1s": sum(stop <= 1.0 for stop in stops),
            "stop_median": statistics.median(stops) if stops else float("nan")}


def _similar(heard: str, said: str, share: float = 0.5) -> bool:
    """Whether `heard` holds at least `share` of the words of `said` (with `share` 0.8 and a long `said`: whether
    nearly all of `heard`'s words are among `said`'s)."""
    a, b = set(words(heard)), set(words(said))
    if not a:
        return False
    return len(a & b) >= share * (len(a) if share > 0.5 else len(b))


def stage_medians(transcript: list[dict[str, Any]]) -> dict[str, float]:
    keys = ("end_of_speech_to_text_ms", "text_to_reply_ms", "reply_to_first_audio_ms",
            "end_of_speech_to_first_audio_ms")
    out = {}
    for k in keys:
        figures = [i["metrics"] for i in transcript if i["role"] == "assistant" and isinstance(i.get("metrics"), dict)]
        values = [float(f[k]) for f in figures if f.get(k) is not None]
        if values:
            out[k] = statistics.median(values)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--echo-turns", type=int, default=8)
    parser.add_argument("--echo-gain", type=float, default=0.8)
    parser.add_argument("--typed", type=int, default=2)
    parser.add_argument("--no-video", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--dump", type=Path, help="write the raw levels, events and transcripts here (JSON)")
    parser.add_argument("--server-src", type=Path, help="serve the avatar_service package in this folder instead "
                        "(an older commit: git archive COMMIT src | tar -x -C DIR; mv DIR/src DIR/avatar_service)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(args.turns)]
    echo_asked = [QUESTIONS[(i + 3) % len(QUESTIONS)] for i in range(args.echo_turns)]
    clips = dict(zip(QUESTIONS, speak(QUESTIONS), strict=True))
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        silences = [3.0] + [rng.uniform(2.0, 14.0) for _ in asked[1:]]
        microphone_file(tmp / "mic.wav", [clips[q] for q in asked], silences, tail=120)
        spoken_seconds = sum(silences) + sum(clips[q].size / RATE for q in asked) + 6
        echo_silences = [3.0] + [rng.choice([1.5, 2.0, 6.0, 8.0]) for _ in echo_asked[1:]]
        if echo_asked:
            microphone_file(tmp / "echo.wav", [clips[q] for q in echo_asked], echo_silences, tail=120)
        echo_seconds = sum(echo_silences) + sum(clips[q].size / RATE for q in echo_asked) + 8
        load = os.getloadavg()
        with serving(tmp, args.server_src) as (base, key, boot):
            main_run = asyncio.run(run_session(base, key, tmp / "mic.wav", spoken_seconds, not args.no_video, 0.0,
                                               TYPED[: args.typed]))
            echo_run = (asyncio.run(run_session(base, key, tmp / "echo.wav", echo_seconds, not args.no_video,
                                                args.echo_gain, [])) if args.echo_turns else None)
        load_after = os.getloadavg()
        log = (tmp / "server.log").read_text(errors="replace")
    if args.dump:
        runs = [r for r in (main_run, echo_run) if r is not None]
        args.dump.write_text(json.dumps([{"levels": r.levels.tolist(), "events": r.events, "transcript": r.transcript,
                                          "typed": r.typed} for r in runs]))
        (args.dump.with_suffix(".log")).write_text(log)
    report(args, main_run, echo_run, asked, echo_asked, boot, load, load_after, log)


def report(args: argparse.Namespace, run: Session, echo_run: Session | None, asked: list[str],
           echo_asked: list[str], boot: float, load: tuple[float, ...], load_after: tuple[float, ...],
           log: str) -> None:
    latencies, pairs = spoken_turns(run, asked)
    first, rest = latencies[0] if latencies else float("nan"), [v for v in latencies[1:] if v == v]
    drops = [(a, h) for a, h in pairs if not first_word_kept(a, h)]
    rows = [
        ("load average (1 min) before / after", f"{load[0]:.1f} / {load_after[0]:.1f}", ""),
        ("server start to /healthz", f"{boot:.1f} s", ""),
        ("video", "off" if args.no_video else "on (480x360, 15 fps)", ""),
        ("voice to voice p50", f"{1000 * pct(rest, 50):.0f} ms", "<= 800 ms"),
        ("voice to voice p99", f"{1000 * pct(rest, 99):.0f} ms", "<= 1200 ms"),
        ("voice to voice max", f"{1000 * max(rest, default=float('nan')):.0f} ms", ""),
        ("first turn after start", f"{1000 * first:.0f} ms", "<= 1200 ms"),
        ("turns measured", f"{len(latencies)} of {len(asked)} ({len(pairs)} heard)", ""),
        ("first-word drops", f"{len(drops)} of {len(pairs)}", "0"),
    ]
    for i, (submitted, text) in enumerate(run.typed, 1):
        old, new = typed_figures(run, submitted, text)
        rows.append((f"typed message {i} over a reply: old voice went on / its reply heard after",
                     f"{_ms(old)} / {_ms(new)}", "stops at once"))
    if echo_run is not None:
        e = echo_figures(echo_run, echo_asked)
        rows += [(f"echo: questions asked (gain {args.echo_gain:.1f}, 60 ms)", str(e["questions"]), ""),
                 ("echo: self-interruptions", str(e["self_interruptions"]), "0"),
                 ("echo: user lines made of the avatar's own words", str(e["heard_itself"]), "0"),
                 ("echo: questions over a reply: stopped within 1 s",
                  f"{e['stopped_within_1s']} of {e['over_reply']} (median {_ms(e['stop_median'])})", "all")]
    for stage, value in stage_medians(run.transcript).items():
        rows.append((f"server median {stage}", f"{value:.0f} ms", ""))
    width = max(len(r[0]) for r in rows)
    print(f"\n{'measure':<{width}} | {'value':<28} | target")
    print(f"{'-' * width}-+-{'-' * 28}-+-------")
    for name, value, target in rows:
        print(f"{name:<{width}} | {value:<28} | {target}")
    print("\nper turn (ms):", " ".join(f"{1000 * v:.0f}" for v in latencies))
    for a, h in drops:
        print(f"  first word lost: said {a!r}, heard {h!r}")
    timings = re.findall(r"first reply audio queued (\d+) ms", log)
    if timings:
        print("server log, first reply audio queued (ms):", " ".join(timings))


def _ms(value: float | None) -> str:
    return "never" if value is None else f"{1000 * value:.0f} ms"


if __name__ == "__main__":
    main()
