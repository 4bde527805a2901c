"""Echo-safe barge-in, offline and deterministic: the room's real pipeline (AEC3, Silero, Whisper tiny.en) on
a simulated participant who hears the avatar on speakers and asks questions over it.

Every case plays one long Piper reply through the room's own `ConversationPipeline` (its sentences synthesised
and queued as the room does). The voice frames it sends are played by a simulated browser (a jitter buffer, then
the speaker), come back through an echo path (round trip 40-300 ms, gain 0.5-1.0 of the voice as sent, a speaker's
band-pass and a short room reverb) and are captured with a little noise; the participant's question (another
offline voice, as loud as the avatar's voice as sent) is spoken over the reply at several offsets. Microphone
frames carry their capture time (the RTP timestamp, on the browser's own clock) and reach the pipeline 10 ms
later, or, in the *loaded* profile (load average ~4 on 2 cores), late: the event loop stalls for 40-600 ms every
second or so and everything due meanwhile (microphone frames, the voice's frames, transcriptions) is handled at
once when it resumes; 1% of microphone packets are lost; speech-to-text and synthesis take 3x as long. Time is
virtual (no sleeping, no wall clock in the results), so a run is the same every time.

Measured per condition:
- **self-interruptions**: the reply alone, echoed: interruptions (or turns taken) with no question under them
  (must be 0), and pauses that resumed (hiccups the participant hears);
- **questions over the reply**: from the question's first sound to the voice going quiet for good (as played at
  the participant's end), target every one within 1 s; and whether the turn taken holds the question's key words
  (transcribed well enough to be answered).

    .venv/bin/python bench/barge_in.py [--quick] [--seed 7] [--src DIR] [--no-pts] [--profile quiet|loaded]

`--src DIR` imports `avatar_service` from DIR instead (an older commit: `git archive COMMIT src | tar -x -C DIR;
mv DIR/src DIR/avatar_service`), to measure before and after with the same harness. `--no-pts`: microphone frames
without capture times (as LiveKit hands them over).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import heapq
import inspect
import itertools
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

RATE, OUT_RATE = 16_000, 48_000
FRAME, OUT_FRAME = RATE // 50, OUT_RATE // 50  # 20 ms
NET = 0.010  # one way, each direction
BROWSER_CLOCK = 1_000.0  # the browser's media clock starts elsewhere than this process's
CACHE = Path(__file__).resolve().parent.parent / "var" / "bench_barge_in"

REPLY = ("The museum opens at nine in the morning on Sundays and closes at five in the evening. Tickets cost "
         "twelve euros and are sold at the front desk near the main entrance. The cafe on the ground floor serves "
         "coffee, tea and homemade cake until half past four. Dogs are not allowed inside, except guide dogs. "
         "The paintings are on the second floor, and guided tours start every hour in the main hall. Parking is "
         "free behind the museum, and the garden is open from April to October.")
FIRST = ("The museum is in the old town, next to the cathedral, a short walk from the station. It has three "
         "floors of paintings and a garden.")  # the conversation's first reply: AEC3 starts from nothing in it
GAP = 1.0  # between the first reply and the one the question comes over
# (question, the words it must be heard with to be answered: each alternative group needs one of its words)
QUESTIONS = [
    ("Sorry, how much is the parking?", [{"much", "cost", "price"}, {"parking", "park"}]),
    ("Wait, can I bring my dog?", [{"bring", "take"}, {"dog", "dogs"}]),
    ("Do you have a gift shop?", [{"gift"}, {"shop", "store"}]),
    ("Where are the toilets?", [{"where"}, {"toilet", "toilets", "restroom", "restrooms"}]),
]


# --- material ----------------------------------------------------------------------------------------------------


def _cached(key: str, make: Callable[[], np.ndarray]) -> np.ndarray:
    path = CACHE / (hashlib.sha256(key.encode()).hexdigest()[:16] + ".npy")
    if path.exists():
        return np.load(path)
    audio = make()
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, audio)
    return audio


class Voices:
    """The avatar's sentences (Piper's joe, as the room speaks them) and the participant's questions (the
    catalogue's iris, a different voice), synthesised once and kept under var/."""

    def __init__(self) -> None:
        from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech

        self._engine: Any = None
        self._make = CatalogueSpeech

    def _synth(self, text: str, voice: str) -> tuple[np.ndarray, int]:
        from avatar_service.ports.speech import VoiceChoice

        if self._engine is None:
            self._engine = self._make()
        audio = self._engine.synthesize(text, VoiceChoice(provider="openai", voice_id=voice))
        return np.asarray(audio.samples, dtype=np.int16), int(audio.sample_rate)

    def avatar(self, text: str) -> tuple[np.ndarray, int]:
        samples = _cached("joe|" + text, lambda: np.concatenate([[22050], self._synth(text, "joe")[0]]))
        return samples[1:].astype(np.int16), int(samples[0])

    def question16(self, text: str) -> np.ndarray:
        from avatar_service.adapters.aiortc_rooms.audio import resample

        def make() -> np.ndarray:
            samples, rate = self._synth(text, "iris")
            return resample(samples, rate, RATE)

        return _cached("iris16|" + text, make).astype(np.int16)


class CachedSpeech:
    """The pipeline's speech engine: the avatar's sentences from `Voices`."""

    name = "cached-joe"

    def __init__(self, voices: Voices) -> None:
        self.voices = voices

    def synthesize(self, text: str, voice: Any) -> Any:
        from avatar_service.ports.speech import Audio

        samples, rate = self.voices.avatar(text)
        return Audio(samples=samples, sample_rate=rate)


def echo_response(gain: float, seed: int, reply16: np.ndarray) -> np.ndarray:
    """Speaker and room at 16 kHz: a band-pass (small speaker, no bass) and a 150-300 ms reverberant tail 20 dB
    under the direct sound, scaled so the echo of the reply is `gain` times as loud as the reply as sent."""
    rng = np.random.default_rng(seed)
    n = int(0.12 * RATE)
    t = np.arange(n) / RATE
    rt60 = rng.uniform(0.15, 0.3)
    ir = 0.1 * rng.standard_normal(n) * 10 ** (-3 * t / rt60)
    ir[: int(0.003 * RATE)] = 0.0
    ir[0] = 1.0
    ir[int(rng.integers(20, 60))] += 0.4  # a reflection off the desk
    ir = np.convolve(np.convolve(ir, [1.0, -0.92]), [0.2, 0.6, 0.2])
    wet = np.convolve(reply16.astype(np.float64), ir)[: reply16.size]
    return ir * gain * _rms(reply16) / _rms(wet)


def _rms(x: np.ndarray) -> float:
    x = np.asarray(x, dtype=np.float64)
    voiced = x[np.abs(x) > 100] if np.any(np.abs(x) > 100) else x
    return float(np.sqrt(np.mean(voiced * voiced))) if voiced.size else 0.0


# --- the simulated room --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    name: str
    jitter: float  # each event handled up to this late (s)
    stall_every: float  # mean seconds between event-loop stalls (0: none)
    loss: float  # microphone packets lost
    compute: float  # speech-to-text and synthesis take this many times their quiet time


PROFILES = {"quiet": Profile("quiet", 0.002, 0.0, 0.0, 1.0),
            "loaded": Profile("loaded", 0.015, 1.0, 0.01, 3.0)}


@dataclass(frozen=True)
class Case:
    profile: Profile
    delay: float  # round trip: voice frame sent -> its echo's microphone frame handled, at best
    gain: float
    question: int | None  # index into QUESTIONS, None: the reply alone
    onset: float  # the question's start (capture time, seconds after the second reply was queued)
    seed: int
    pts: bool = True

    @property
    def label(self) -> str:
        return f"{self.profile.name} {1000 * self.delay:.0f} ms x{self.gain:.1f}"


@dataclass
class Outcome:
    case: Case
    interruptions: list[float] = field(default_factory=list)  # capture-clock times of "interrupted"
    second: float = 0.0  # when the second reply was queued (the first one's self-interruptions come before)
    turns: list[tuple[float, str]] = field(default_factory=list)
    hiccups: int = 0  # pauses that resumed
    voice_log: list[tuple[float, str]] = field(default_factory=list)  # (when, "pause" | "resume" | "cut")
    stop: float | None = None  # question onset -> voice quiet for good, as played (None: never stopped)
    question_at: float | None = None
    answered: bool = False
    heard: str = ""
    aec_ms_per_s: float = 0.0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Reply:
    """An empty reply stream: the harness only needs the turn to be taken."""

    def __init__(self) -> None:
        self._text = ""

    def __aiter__(self) -> Reply:
        return self

    async def __anext__(self) -> str:
        raise StopAsyncIteration

    def text(self) -> str:
        return self._text

    def set_metrics(self, metrics: dict[str, float | None]) -> None:
        return None

    async def aclose(self) -> None:
        return None


class Stalls:
    """When the process's event loop is busy elsewhere: every event due in a stall is handled at its end."""

    def __init__(self, profile: Profile, rng: np.random.Generator, seconds: float) -> None:
        self._spans: list[tuple[float, float]] = []
        self._rng, self._jitter = rng, profile.jitter
        t = 0.5
        while profile.stall_every and t < seconds:
            t += float(rng.exponential(profile.stall_every))
            length = min(0.6, max(0.04, float(rng.lognormal(np.log(0.09), 0.8))))
            self._spans.append((t, t + length))
            t += length

    def handled(self, due: float) -> float:
        t = due + float(self._rng.uniform(0.0, self._jitter))
        for start, end in self._spans:
            if start <= t < end:
                return end + float(self._rng.uniform(0.0, 0.002))
        return t


class Room:
    """The participant's side: what their speaker plays (the voice frames as a browser's jitter buffer releases
    them) and what their microphone captures (the echo of it, their own voice, a little noise)."""

    def __init__(self, case: Case, ir: np.ndarray, question: np.ndarray | None, onset: float, seconds: float,
                 rng: np.random.Generator) -> None:
        import av

        self._ir = ir.astype(np.float64)
        self._pad = ir.size + RATE
        self.played = np.zeros(int(seconds * RATE) + 2 * self._pad)
        self._write: int | None = None
        self._resampler = av.AudioResampler(format="s16", layout="mono", rate=RATE)
        self._first_sent: float | None = None
        self._last_play = -1.0
        self._out = case.delay - NET - 0.005  # sent -> played (network out, the jitter buffer)
        self._acoustic = int(0.005 * RATE)
        self.user = np.zeros(self.played.size)
        if question is not None:
            at = int(onset * RATE)
            self.user[at : at + question.size] = question[: self.user.size - at]
        self._noise = rng.normal(0.0, 8.0, self.played.size)

    def play(self, frame48: np.ndarray, k: int, sent: float) -> float:
        """Voice frame `k`, sent at `sent`: when the participant hears it."""
        import av

        if self._first_sent is None:
            self._first_sent = sent
        at = max(self._first_sent + k * 0.02 + self._out, sent + NET + 0.005, self._last_play + 0.02)
        self._last_play = at
        audio = av.AudioFrame.from_ndarray(frame48.reshape(1, -1), format="s16", layout="mono")
        audio.sample_rate = OUT_RATE
        out = [f.to_ndarray().reshape(-1) for f in self._resampler.resample(audio)]
        samples = np.concatenate(out).astype(np.float64) if out else np.zeros(0)
        pos = round(at * RATE) + self._pad
        if self._write is not None and abs(pos - self._write) < 32:
            pos = self._write  # the same stream, continued
        end = min(pos + samples.size, self.played.size)
        self.played[pos:end] = samples[: end - pos]
        self._write = pos + samples.size
        return at

    def capture(self, j: int) -> np.ndarray:
        """Microphone frame `j` (the 20 ms from j * 20 ms on)."""
        start = j * FRAME + self._pad - self._acoustic
        segment = self.played[start - self._ir.size + 1 : start + FRAME]
        echo = np.convolve(segment, self._ir, mode="valid")
        at = j * FRAME
        mic = echo + self.user[at : at + FRAME] + self._noise[at : at + FRAME]
        return np.clip(np.round(mic), -32768, 32767).astype(np.int16)


# --- one case ------------------------------------------------------------------------------------------------------


class Api:
    """The pipeline under test, whichever tree it comes from (older ones take no clock or capture times)."""

    def __init__(self) -> None:
        from avatar_service.adapters.aiortc_rooms import pipeline as pipeline_module
        from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
        from avatar_service.adapters.echo_cancel import echo_canceller
        from avatar_service.adapters.whisper_transcriber import FasterWhisperTranscriber

        self.module = pipeline_module
        self.Pipeline = pipeline_module.ConversationPipeline
        self.VoiceQueue, self.echo_canceller = VoiceQueue, echo_canceller
        self.transcriber = FasterWhisperTranscriber(short_window=10.0)
        self.takes_clock = "clock" in inspect.signature(echo_canceller).parameters
        self.takes_media_time = "media_time" in inspect.signature(self.Pipeline.hear).parameters


def _cost(fn: Any, args: tuple[Any, ...]) -> float:
    """Quiet-machine seconds for an offloaded call (measured on the room's 2 cores; virtual here)."""
    name = getattr(fn, "__name__", "")
    if name == "transcribe":
        return 0.08 + 0.02 * np.asarray(args[0]).size / RATE
    if "synthesize" in name:
        return 0.03 + 0.004 * len(str(args[1]))
    return 0.0


async def run_case(case: Case, api: Api, voices: Voices) -> Outcome:
    from avatar_service.ports.rooms import RoomMedia
    from avatar_service.ports.speech import VoiceChoice

    rng = np.random.default_rng(case.seed)
    question = voices.question16(QUESTIONS[case.question][0]) if case.question is not None else None
    reply16 = _reply16(voices)
    second = voices.avatar(FIRST)[0].size / 22050 + GAP + 0.3 * case.profile.compute
    onset = second + case.onset
    seconds = second + ((case.onset + question.size / RATE + 3.0) if question is not None else reply16.size / RATE + 2)
    room = Room(case, echo_response(case.gain, case.seed, reply16), question, onset, seconds + 1.0, rng)
    stalls = Stalls(case.profile, rng, seconds + 1.0)
    clock, loop = Clock(), asyncio.get_running_loop()
    queue: list[tuple[float, int, Callable[[], None]]] = []
    order = itertools.count()

    def at(t: float, action: Callable[[], None]) -> None:
        heapq.heappush(queue, (t, next(order), action))

    async def offload(fn: Any, *args: Any) -> Any:
        result = fn(*args)  # on the CPU now; ready `cost` virtual seconds later
        ready = loop.create_future()
        at(stalls.handled(clock.now + _cost(fn, args) * case.profile.compute),
           lambda: ready.done() or ready.set_result(result))
        return await ready

    out = Outcome(case, second=second)
    turns: list[tuple[float, str]] = out.turns

    class Host:
        async def voice_turn(self, organization_id: str, conversation_id: str, content: str) -> Any:
            turns.append((clock.now, content))
            return Reply()

    events: list[tuple[float, dict[str, Any]]] = []
    media = RoomMedia(organization_id="org", conversation_id="bench", voice=VoiceChoice(provider="openai",
                      voice_id="joe"), video_enabled=False)
    voice = api.VoiceQueue()
    echo = api.echo_canceller(clock) if api.takes_clock else api.echo_canceller()
    p = api.Pipeline(media, Host(), CachedSpeech(voices), api.transcriber, offload, voice,
                     lambda e: events.append((clock.now, e)), lambda e: None, echo, hangover_ms=350)
    aec_seconds = [0.0]
    process = p.echo.process

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return process(*args, **kwargs)
        finally:
            aec_seconds[0] += time.perf_counter() - started

    p.echo.process = timed
    p.start()
    p.speak_soon(FIRST)
    at(second, lambda: p.speak_soon(REPLY))

    played: list[tuple[float, bool]] = []  # (heard at, voice playing) per voice frame
    pacer = {"start": 0.0}

    def send(k: int) -> None:
        frame = voice.next_frame()
        playing = bool(frame.any()) or (voice.pending and not voice.paused)  # a pause between sentences too
        played.append((room.play(frame, k, clock.now), playing))
        due = pacer["start"] + (k + 1) * 0.02
        t = stalls.handled(max(due, clock.now))
        if t - due > 0.2:  # aiortc's pacer (Pacer(resync_after=0.2)) restarts its clock after a long stall
            pacer["start"] = t - (k + 1) * 0.02
        at(t, lambda: send(k + 1))

    def hear(j: int) -> None:
        samples = room.capture(j)
        if api.takes_media_time and case.pts:
            p.hear(samples, media_time=BROWSER_CLOCK + j * 0.02)
        else:
            p.hear(samples)

    at(0.0, lambda: send(0))
    last = 0.0
    for j in range(int(seconds / 0.02)):
        if case.profile.loss and rng.random() < case.profile.loss:
            continue
        t = max(last, stalls.handled((j + 1) * 0.02 + NET))
        last = t
        at(t, lambda j=j: hear(j))
    state = "playing"
    while queue:
        t, _, action = heapq.heappop(queue)
        if t > seconds:
            break
        clock.now = t
        action()
        for _ in range(4):
            await asyncio.sleep(0)
        now = "paused" if voice.paused else "playing" if voice.pending else "idle"
        if now != state:
            if state == "paused" and now == "playing":
                out.hiccups += 1
            out.voice_log.append((t, {"paused": "pause", "playing": "resume", "idle": "cut"}[now]))
            state = now
    p.close()
    await asyncio.sleep(0)

    out.interruptions = [t for t, e in events if e.get("type") == "interrupted"]
    out.aec_ms_per_s = 1000 * aec_seconds[0] / seconds
    if question is not None:
        loud = np.flatnonzero(np.abs(question) > 500)
        out.question_at = onset + (int(loud[0]) if loud.size else 0) / RATE
        playing_after = [i for i, (_, on) in enumerate(played) if on]
        early = any(t < out.question_at - 0.05 for t in out.interruptions)  # a self-interruption: no stop to time
        if out.interruptions and playing_after and not early:
            last_on = playing_after[-1]
            if last_on + 1 < len(played):
                out.stop = played[last_on + 1][0] - out.question_at
        later = [text for t, text in turns if t >= out.question_at]
        out.heard = later[0] if later else ""
        out.answered = _answers(out.heard, QUESTIONS[case.question][1])  # type: ignore[index]
    return out


_REPLY16: list[np.ndarray] = []


def _reply16(voices: Voices) -> np.ndarray:
    """The whole reply at 16 kHz (only to scale the echo path)."""
    if not _REPLY16:
        from avatar_service.adapters.aiortc_rooms.audio import resample, sentences

        parts = [resample(*voices.avatar(line), RATE) for line in sentences(REPLY)]
        _REPLY16.append(np.concatenate(parts))
    return _REPLY16[0]


def _answers(heard: str, needs: list[set[str]]) -> bool:
    said = set(re.findall(r"[a-z']+", heard.lower()))
    return all(said & group for group in needs)


# --- the grid and the table ----------------------------------------------------------------------------------------


def cases(profiles: list[str], quick: bool, seed: int, pts: bool) -> list[Case]:
    delays = [0.04, 0.15, 0.3] if not quick else [0.15, 0.3]
    gains = [0.5, 1.0] if not quick else [1.0]
    onsets = [2.5, 6.0, 9.5] if not quick else [4.0]
    out = []
    for name in profiles:
        for n, (delay, gain) in enumerate(itertools.product(delays, gains)):
            base = seed * 1000 + n * 10
            out.append(Case(PROFILES[name], delay, gain, None, 0.0, base, pts))
            for i, onset in enumerate(onsets):
                out.append(Case(PROFILES[name], delay, gain, (n + i) % len(QUESTIONS), onset, base + i + 1, pts))
    return out


def table(outcomes: list[Outcome]) -> str:
    rows = [("condition", "self-interruptions: first reply / later", "hiccups", "questions stopped <= 1 s",
             "stop median / max (s)", "heard well enough to answer")]
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.case.label, []).append(o)
    for name in PROFILES:
        mine = [o for o in outcomes if o.case.profile.name == name]
        if mine:
            groups[f"{name}: all"] = mine
    for label, group in groups.items():
        asked = [o for o in group if o.case.question is not None]
        # An interruption before the question started (or with none asked) is a self-interruption.
        selfish = [t for o in group for t in o.interruptions if t < (o.question_at or float("inf")) - 0.05]
        first = sum(t < o.second for o in group for t in o.interruptions if t < (o.question_at or float("inf")) - 0.05)
        stops = [o.stop if o.stop is not None else float("inf") for o in asked]
        finite = [x for x in stops if x != float("inf")]
        rows.append((label, f"{first} / {len(selfish) - first}", str(sum(o.hiccups for o in group)),
                     f"{sum(x <= 1.0 for x in stops)} of {len(stops)}",
                     f"{statistics.median(stops):.2f} / {max(stops):.2f}" if finite else "-",
                     f"{sum(o.answered for o in asked)} of {len(asked)}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    lines.insert(1, "| " + " | ".join("-" * w for w in widths) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smaller grid (for a first look)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument("--no-pts", action="store_true", help="microphone frames without capture times")
    parser.add_argument("--src", type=Path, help="import avatar_service from this folder (an older tree)")
    parser.add_argument("--verbose", action="store_true", help="one line per case")
    args = parser.parse_args()
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    import logging

    logging.basicConfig(level=logging.WARNING)
    api, voices = Api(), Voices()
    profiles = list(PROFILES) if args.profile == "both" else [args.profile]
    outcomes = []
    started = time.perf_counter()
    for case in cases(profiles, args.quick, args.seed, not args.no_pts):
        o = asyncio.run(run_case(case, api, voices))
        outcomes.append(o)
        if args.verbose:
            what = (f"q{case.question} at {case.onset:.1f}s: stop {o.stop if o.stop is None else round(o.stop, 2)}"
                    f" heard {o.heard!r}" if case.question is not None else "alone")
            print(f"{case.label}: {what}; interrupted at {[round(t, 2) for t in o.interruptions]}, "
                  f"turns {[(round(t, 2), s) for t, s in o.turns]}, voice {[(round(t, 2), s) for t, s in o.voice_log]}",
                  flush=True)
    print(table(outcomes))
    aec = statistics.mean(o.aec_ms_per_s for o in outcomes)
    print(f"\nimported from {Path(api.module.__file__).parents[2]}; capture times "
          f"{'used' if api.takes_media_time and not args.no_pts else 'not used'}; echo canceller "
          f"{aec:.1f} ms of CPU per second of audio; {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
