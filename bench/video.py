"""Video render speed in seconds of video per wall-clock second, beside a pure-encode baseline.

Run: .venv/bin/python bench/video.py [--seconds 10] [--avatar ava] [--style realistic] [--background blur]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from avatar_service.adapters.pyav_renderer import RESOLUTIONS, PyAVRenderer
from avatar_service.adapters.pyav_renderer.encoder import MediaWriter
from avatar_service.adapters.pyav_renderer.renderer import _Session
from avatar_service.ports.renderer import RenderRequest
from avatar_service.ports.speech import Audio, VoiceChoice

TEXT = (
    "Hello, and welcome. I am a rendered avatar, and this is a benchmark of how quickly my videos are made. "
    "Every frame you see is drawn from a handful of pictures prepared once, then handed to the encoder. "
    "The mouth follows the loudness of the voice, the eyes blink now and then, and the head sways a little."
)


def speech(seconds: float) -> Audio:
    from avatar_service.adapters.speech import PiperSpeech

    piper = PiperSpeech()
    started = time.perf_counter()
    audio = piper.synthesize(TEXT, VoiceChoice(provider="openai", voice_id="alloy"))
    elapsed = time.perf_counter() - started
    speed = audio.duration / elapsed
    print(
        f"piper (first call, model load included): {audio.duration:.1f} s of speech, {speed:.1f}x real time"
    )
    repeats = int(np.ceil(seconds / audio.duration))
    samples = np.tile(audio.samples, repeats)[: int(seconds * audio.sample_rate)]
    return Audio(samples=samples, sample_rate=audio.sample_rate)


def encode_only(request: RenderRequest, renderer: PyAVRenderer, audio: Audio, tmp: Path) -> float:
    """Baseline: the very same frames, made beforehand, so only encoding and muxing are timed."""
    session = _Session.prepare(request, renderer.fps)
    frames = list(session.frames())
    transparent = session.composer.transparent
    path = tmp / ("baseline.webm" if transparent else "baseline.mp4")
    started = time.perf_counter()
    writer = MediaWriter(path, *session.size, renderer.fps, transparent, audio)
    for index, frame in enumerate(frames):
        writer.write(frame, index)
    writer.finish()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--avatar", default="ava")
    parser.add_argument("--style", default="realistic")
    parser.add_argument("--background", default="blur")
    parser.add_argument("--resolutions", default=",".join(RESOLUTIONS))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    audio = speech(args.seconds)
    renderer = PyAVRenderer()
    look = f"{args.avatar}/{args.style}, background {args.background}"
    print(f"cpus: {os.cpu_count()}, clip: {audio.duration:.1f} s, {look}")
    print("res     cold render        warm render        encode only        warm/baseline  cold/baseline")
    with tempfile.TemporaryDirectory() as tmp:
        for resolution in args.resolutions.split(","):
            request = RenderRequest(
                audio, args.avatar, args.style, args.background, resolution, Path(tmp) / "r"
            )
            # Cold: the first render at this size draws the sprites; warm: they come from the cache.
            started = time.perf_counter()
            result = renderer.render(request, lambda _: None, lambda: False)
            cold_time = time.perf_counter() - started
            # Renders and baselines alternate and the best of each counts, so other load on the
            # machine skews both sides alike rather than whichever ran at the wrong moment.
            render_times, encode_times = [], []
            for _ in range(args.repeats):
                started = time.perf_counter()
                result = renderer.render(request, lambda _: None, lambda: False)
                render_times.append(time.perf_counter() - started)
                encode_times.append(encode_only(request, renderer, audio, Path(tmp)))
            render_time, encode_time = min(render_times), min(encode_times)
            cold_speed = result.duration / cold_time
            render_speed, encode_speed = result.duration / render_time, result.duration / encode_time
            print(
                f"{resolution:<7} {cold_time:5.2f} s {cold_speed:5.2f}x   "
                f"{render_time:5.2f} s {render_speed:5.2f}x"
                f"   {encode_time:5.2f} s {encode_speed:5.2f}x   {render_speed / encode_speed:>12.0%}"
                f"   {cold_speed / encode_speed:>12.0%}"
            )


if __name__ == "__main__":
    main()
