"""Lining the echo canceller's reference up with the microphone by time: a frame handled late keeps its place, a
lost one leaves a gap, a stream whose clock jumped is placed anew; and the echo detector's hysteresis."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from avatar_service.adapters.echo_alignment import ReferenceTimeline, StreamClock
from avatar_service.adapters.echo_cancel import EchoDetector

RATE = 16_000


def test_a_microphone_frame_handled_late_keeps_its_place() -> None:
    clock = StreamClock(RATE, rebase_by=0.4, rebase_after=2.0, captured=True)
    on_time = [clock.place(320, 1.03 + 0.02 * j, 500.0 + 0.02 * j) for j in range(10)]
    # The process stalls for 300 ms: the next ten frames come at once, then on time again.
    late = [clock.place(320, 1.53 + 0.001 * j, 500.2 + 0.02 * j) for j in range(10)]
    after = clock.place(320, 1.63 + 0.02 * 10, 500.2 + 0.02 * 10)
    positions = [*on_time, *late, after]
    assert all(b - a == 320 for a, b in pairwise(positions))
    assert on_time[0] == round(1.01 * RATE)  # captured 20 ms before it came, a frame's length


def test_a_lost_microphone_frame_leaves_a_gap_and_counting_does_not() -> None:
    stamped = StreamClock(RATE, rebase_by=0.4, rebase_after=2.0, captured=True)
    a = stamped.place(320, 0.03, 10.0)
    b = stamped.place(320, 0.07, 10.04)  # the frame of 10.02 was lost
    assert b - a == 640
    counted = StreamClock(RATE, rebase_by=0.4, rebase_after=2.0, captured=True)
    assert counted.place(320, 0.03) + 320 == counted.place(320, 0.07)  # without timestamps: nothing to see


def test_a_frame_that_comes_sooner_moves_the_mapping_earlier() -> None:
    clock = StreamClock(RATE, rebase_by=0.4, rebase_after=2.0, captured=True)
    first = clock.place(320, 0.2, 0.0)  # the first frame was handled 180 ms late
    second = clock.place(320, 0.06, 0.02)
    assert first == round(0.18 * RATE) and second == round(0.04 * RATE)


def test_a_stream_whose_clock_jumped_is_placed_anew() -> None:
    sent = StreamClock(RATE, rebase_by=0.15, rebase_after=0.16, captured=False)
    before = [sent.place(320, 0.02 * k) for k in range(20)]
    assert before[0] == 0 and before[-1] == 19 * 320
    # The pacer stalled 300 ms and restarted its clock: every frame from then on goes out 300 ms later.
    after = [sent.place(320, 0.7 + 0.02 * k) for k in range(20)]
    assert after[-1] == round((0.7 + 0.02 * 19) * RATE)
    # A stall it caught up from (a burst) moves nothing.
    steady = StreamClock(RATE, rebase_by=0.15, rebase_after=0.16, captured=False)
    for k in range(10):
        steady.place(320, 0.02 * k)
    burst = [steady.place(320, 0.38) for _ in range(10)]
    assert burst[-1] == 19 * 320


def test_the_timeline_reads_silence_where_nothing_was_sent() -> None:
    timeline = ReferenceTimeline(bits=10)
    timeline.put(np.arange(1, 101, dtype=np.int16), 5_000)
    out = timeline.take(200, 4_950)
    assert not out[:50].any() and list(out[50:150]) == list(range(1, 101)) and not out[150:].any()
    timeline.put(np.full(1024, 7, np.int16), 6_000)  # written over
    assert not timeline.take(100, 5_000).any()


def _speech_like(seconds: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    envelope = np.repeat(rng.uniform(0.0, 1.0, int(seconds * 10)) ** 3, RATE // 10)
    return (envelope * rng.normal(0, 6000, envelope.size)).astype(np.int16)


def test_a_reverberant_echo_is_still_an_echo() -> None:
    """Through a room the envelopes correlate at 0.55-0.7 only: that is an echo, not a headset."""
    voice = _speech_like(4.0, 1)
    room = np.exp(-np.arange(2400) / 500.0) * np.random.default_rng(2).normal(0, 1, 2400)
    room[0] = 3.0
    echo = np.convolve(voice.astype(np.float64), room)[: voice.size]
    echo = np.concatenate([np.zeros(2400), echo])[: voice.size]
    echo *= 0.8 * np.std(voice) / np.std(echo)
    echo += np.random.default_rng(3).normal(0, 300, echo.size)
    detector = EchoDetector()
    answers = []
    for i in range(0, voice.size, 320):
        detector.feed(voice[i:i + 320], echo[i:i + 320].astype(np.int16))
        answers.append(detector.present)
    assert all(answers), detector.correlation


def test_a_headset_is_no_echo() -> None:
    voice, participant = _speech_like(6.0, 4), _speech_like(6.0, 5)
    detector = EchoDetector()
    for i in range(0, voice.size, 320):
        detector.feed(voice[i:i + 320], participant[i:i + 320])
    assert not detector.present
