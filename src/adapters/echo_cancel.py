"""Server-side acoustic echo cancellation for the room: the avatar's own voice taken out of the microphone.

A participant on speakers sends the avatar's voice back inside their microphone signal; when their browser's
echo canceller is weak or off, the VAD hears it as speech and the avatar interrupts itself. The service knows
every sample it plays, so it cancels that voice from the microphone before the VAD, with WebRTC's AEC3 (the
echo canceller Chrome runs, from the `pywebrtc-audio` wheel): an adaptive filter with its own delay estimator,
which follows an echo path up to about 400 ms behind the reference.

The reference and the microphone are lined up by time (`echo_alignment`): each voice frame where it was sent,
each microphone frame where it was captured (its RTP timestamp mapped to this process's clock), so a busy process
handling microphone frames late, a lost packet or a stalled sender does not shift the pairing. The echo path
AEC3 then has to find is the round trip (network out, the browser's playout, the room, capture, network back),
about 150-300 ms on a LAN.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from avatar_service.adapters.echo_alignment import ReferenceTimeline, StreamClock
from avatar_service.adapters.echo_doubletalk import DoubleTalk

log = logging.getLogger(__name__)

RATE = 16_000
_BLOCK = RATE // 100  # AEC3's 10 ms


class EchoCanceller(Protocol):
    def reference(self, samples: np.ndarray) -> None:
        """What is being sent to the participant's speakers now: 16 kHz mono int16, in sending order."""
        ...

    def process(self, microphone: np.ndarray, media_time: float | None = None) -> np.ndarray:
        """The participant's microphone (16 kHz mono int16) with the echo of the reference removed. `media_time`:
        the frame's capture time on the sender's clock (its RTP timestamp, in seconds), when the transport has it."""
        ...

    def near_end(self) -> float:
        """The share (0..1) of the last frame given to `process` in which the participant's voice stands out of
        the echo the reference predicts (`echo_doubletalk`): 1.0 where no echo can be (nothing cancelled)."""
        ...

    def hears_echo(self) -> bool:
        """An echo of the avatar's voice comes back along a steady path, and the avatar spoke lately."""
        ...


class EchoDetector:
    """Whether the microphone carries an echo of the reference at all, from their loudness envelopes.

    AEC3 starts out conservative: until it has found an echo path it also damps the participant's own voice
    while the avatar speaks (by 3-7 dB in the first seconds, more at word onsets), which is harmless on
    speakers but makes a participant on headphones, who sends no echo, hard to hear over the reply. So the
    canceller's output is used only while an echo is there: the envelopes (10 ms energies, in dB) are compared
    at every lag up to `max_lag` blocks, over the last seconds in which the avatar spoke; a strong correlation
    at some lag is an echo. Until 0.4 s of the avatar's voice has been heard the answer is "echo" (the safe
    side); a participant who speaks over the very start of the first reply is damped a little."""

    def __init__(self, history: int = 300, max_lag: int = 60, min_active: int = 40) -> None:
        self._ref = np.full(history, -100.0)
        self._mic = np.full(history, -100.0)
        self._max_lag, self._min_active = max_lag, min_active
        self._blocks = 0
        self.present = True
        self.correlation: float | None = None
        self.lag: int | None = None  # blocks from the reference to its echo, once an echo was found
        self._lags: list[int] = []  # the last decisions' lags

    def feed(self, reference: np.ndarray, microphone: np.ndarray) -> None:
        """One or more aligned 10 ms blocks of reference and microphone."""
        n = reference.size // _BLOCK
        if n:
            self.feed_levels(_levels(reference[: n * _BLOCK]), _levels(microphone[: n * _BLOCK]))

    def feed_levels(self, ref: np.ndarray, mic: np.ndarray) -> None:
        """The same as block levels (dB)."""
        n = ref.size
        self._ref = np.concatenate([self._ref[n:], ref])
        self._mic = np.concatenate([self._mic[n:], mic])
        self._blocks += n
        if self._blocks >= 10:  # decide again every 100 ms
            self._blocks = 0
            self._decide()

    @property
    def steady_lag(self) -> int | None:
        """The echo path's delay in blocks when the last five findings agree on it within 30 ms, else None (not
        found yet, or moving: a stalled process's voice went out late, a lost packet, a restarted track). Four of
        five, to let the participant's voice over the echo throw one off, did better in a quiet room (14 of 18
        questions stopped within 1 s instead of 13, bench/barge_in.py) and worse in a busy process (5 of 18
        instead of 9, 22 self-interruptions instead of 17)."""
        lags = self._lags
        return self.lag if len(lags) == 5 and self.present and max(lags) - min(lags) <= 3 else None

    @property
    def far_recently(self) -> bool:
        """The avatar spoke within the last 800 ms (an echo of it may still be coming back)."""
        return bool(float(self._ref[-80:].max()) > -50.0)

    def _decide(self) -> None:
        active = self._ref > -50.0  # the avatar was speaking in this block
        if int(active.sum()) < self._min_active:
            return  # not enough of the avatar's voice heard lately to tell
        best, best_lag, every_lag = -1.0, 0, True
        for lag in range(self._max_lag):
            keep = active[: active.size - lag]
            if keep.sum() < self._min_active * 3 // 4:
                every_lag = False  # the echo at this lag has not been heard yet
                continue
            a = self._ref[: self._ref.size - lag][keep]
            b = self._mic[lag:][keep]
            a, b = a - a.mean(), b - b.mean()
            denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
            if denominator > 0 and float((a * b).sum()) / denominator > best:
                best, best_lag = float((a * b).sum()) / denominator, lag
        self.correlation = best
        if best >= 0.6:  # an echo correlates at 0.9 and more; two voices by chance up to about 0.45
            self.present, self.lag = True, best_lag
            self._lags = [*self._lags[-4:], best_lag]
        elif (every_lag and best < 0.5) or float(self._mic[-self._min_active:].max()) < -55.0:
            # Every delay tried and none fits better than chance, or a microphone with nothing in it. Between
            # 0.5 and 0.6 the answer stays as it was: an echo through a reverberant room correlates at only
            # 0.55-0.6 at times, and dropping the canceller then let the echo interrupt (bench/barge_in.py).
            self.present = False


def _levels(samples: np.ndarray) -> np.ndarray:
    blocks = samples.astype(np.float64).reshape(-1, _BLOCK) / 32768.0
    return 10 * np.log10(np.mean(blocks * blocks, axis=1) + 1e-10)


class WebRtcEchoCanceller:
    """AEC3 over 16 kHz mono int16 (pywebrtc-audio releases the GIL; about 1 ms per 20 ms frame), its output
    used while `EchoDetector` finds an echo in the microphone."""

    name = "webrtc-aec3"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        from pywebrtc_audio import EchoCanceller as Aec3

        self._aec = Aec3(sample_rate=RATE, num_channels=1)
        self._clock = clock
        self._sent = ReferenceTimeline()
        # The voice's pacer restarts its clock after a stall of 200 ms (the frames after it go out that much
        # later for good); a microphone is only ever handled late, unless its track restarted.
        self._sending = StreamClock(RATE, rebase_by=0.15, rebase_after=0.16, captured=False)
        self._capture = StreamClock(RATE, rebase_by=0.4, rebase_after=2.0, captured=True)
        self._pending = np.zeros(0, np.int16)  # microphone samples short of a 10 ms block
        self.detector = EchoDetector()
        self.double_talk = DoubleTalk()
        self._near = 1.0

    def reference(self, samples: np.ndarray) -> None:
        samples = np.asarray(samples, dtype=np.int16).reshape(-1)
        self._sent.put(samples, self._sending.place(samples.size, self._clock()))

    def process(self, microphone: np.ndarray, media_time: float | None = None) -> np.ndarray:
        # AEC3 works in 10 ms blocks and pads a short last one with zeros: only whole blocks go in, the rest
        # waits for the next frame (so the output may be a block shorter or longer than the input).
        frame = np.asarray(microphone, dtype=np.int16).reshape(-1)
        position = self._capture.place(frame.size, self._clock(), media_time) - self._pending.size
        mic = np.concatenate([self._pending, frame])
        whole = mic.size - mic.size % _BLOCK
        self._pending = mic[whole:]
        if whole == 0:
            return mic[:0]
        reference = self._sent.take(whole, position)
        ref_db, mic_db = _levels(reference), _levels(mic[:whole])
        self.detector.feed_levels(ref_db, mic_db)
        if not self.detector.far_recently and not reference.any():
            # The avatar has been quiet for 800 ms, longer than any echo path AEC3 follows: its render buffer holds
            # only silence, and its output would not be used (below). Skipping it saves about 1 ms of CPU per 20 ms
            # frame per room while the participant speaks or nobody does (bench/room_capacity.py's profile).
            self._near = float(self.double_talk.feed(ref_db, mic_db, None, None, False).mean())
            return mic[:whole]
        cleaned = np.asarray(self._aec.process(mic[:whole], reference), dtype=np.int16)
        # An echo found once and lost since is more likely a pairing out of step (a busy process) than a participant
        # who put a headset on: their voice has to stand out of it still.
        echo = self.detector.present or self.detector.lag is not None
        near = self.double_talk.feed(ref_db, mic_db, _levels(cleaned), self.detector.steady_lag, echo)
        self._near = float(near.mean())
        # Nothing to cancel when the avatar has been quiet or no echo comes back: the microphone as it is (AEC3's
        # high-pass filter and its cautious start would only colour the participant's voice).
        return cleaned if self.detector.present and self.detector.far_recently else mic[:whole]

    def near_end(self) -> float:
        return self._near

    def hears_echo(self) -> bool:
        return self.detector.steady_lag is not None and self.detector.far_recently


class NoEchoCanceller:
    """The microphone as it is: for a room without audio out, or where the AEC wheel is missing."""

    name = "none"

    def reference(self, samples: np.ndarray) -> None:
        return None

    def process(self, microphone: np.ndarray, media_time: float | None = None) -> np.ndarray:
        return np.asarray(microphone, dtype=np.int16).reshape(-1)

    def near_end(self) -> float:
        return 1.0

    def hears_echo(self) -> bool:
        return False


def echo_canceller(clock: Callable[[], float] = time.monotonic) -> EchoCanceller:
    """AEC3 when the wheel loads, else none (the browser's own echo cancellation is then all there is)."""
    try:
        return WebRtcEchoCanceller(clock)
    except ImportError as error:
        log.warning("echo cancellation unavailable (%s): the avatar may hear itself on speakers", error)
        return NoEchoCanceller()
