"""The avatar's voice as a queue of 20 ms frames, whatever carries it (an aiortc track today, another transport
tomorrow): speech is queued, paused, resumed or cut; every frame handed out is shown to the taps (the echo
canceller's reference, the recorder)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

OUT_RATE = 48_000
FRAME_SAMPLES = OUT_RATE // 50  # 20 ms


class VoiceQueue:
    """Queued speech, else silence, one 20 ms mono int16 frame at 48 kHz per `next_frame()`.

    `cut()` drops whatever is queued, so the next frame out is silent: that is how an interruption cuts the
    reply off. `pause()` holds the rest back instead (the user may only be saying "uh-huh"); `resume()` plays on
    from where it stopped.
    """

    def __init__(self) -> None:
        self._queue: deque[np.ndarray] = deque()
        self._texts: deque[str | None] = deque()  # what each queued chunk says; None once it has begun
        self._sent = 0  # samples handed out so far (speech only)
        self._said: deque[tuple[int, str]] = deque(maxlen=16)  # (where it began in `_sent`, text) as played
        self._queued = 0
        self.paused = False
        self.level = 0.0  # RMS (0..1) of the last frame handed out: drives the avatar's mouth
        self.frames_with_speech = 0
        self.taps: list[Callable[[np.ndarray], None]] = []  # each frame handed out, silent ones too

    @property
    def playing(self) -> bool:
        """Speech is going out now (queued and not paused)."""
        return self._queued > 0 and not self.paused

    @property
    def pending(self) -> bool:
        """Speech is queued, playing or paused."""
        return self._queued > 0

    @property
    def queued_seconds(self) -> float:
        return self._queued / OUT_RATE

    def play(self, samples: np.ndarray, text: str = "") -> None:
        """Queue mono int16 samples at 48 kHz after whatever is already queued; `text`: what they say."""
        samples = np.asarray(samples, dtype=np.int16).reshape(-1)
        if samples.size:
            self._queue.append(samples)
            self._texts.append(text)
            self._queued += samples.size

    def said(self, seconds: float) -> str:
        """The text of what went out in the last `seconds` of speech played (an echo of it may be coming back)."""
        since = self._sent - int(seconds * OUT_RATE)
        texts = [text for start, text in self._said if start >= since]
        earlier = [text for start, text in self._said if start < since]
        return " ".join(earlier[-1:] + texts)

    def cut(self) -> bool:
        """Drop the queued speech (and any pause); True when something was queued."""
        was = self.pending
        self._queue.clear()
        self._texts.clear()
        self._queued = 0
        self.paused = False
        return was

    def pause(self) -> bool:
        """Hold the queued speech back, and whatever is queued until `resume()`; True when something was playing."""
        was = self.playing
        self.paused = True
        return was

    def resume(self) -> bool:
        """Play on after a pause; True when there was something to resume."""
        was = self.paused and self.pending
        self.paused = False
        return was

    def level_ahead(self, seconds: float) -> float:
        """RMS (0..1) of the 20 ms that will go out `seconds` from now (0 when nothing is queued that far, or
        paused): the video draws the mouth from this, since its frames reach the screen later than the voice."""
        if self.paused:
            return 0.0
        skip, window = int(seconds * OUT_RATE), FRAME_SAMPLES
        parts: list[np.ndarray] = []
        for chunk in self._queue:
            if skip >= chunk.size:
                skip -= chunk.size
                continue
            part = chunk[skip : skip + window]
            skip = 0
            parts.append(part)
            window -= part.size
            if window <= 0:
                break
        if not parts:
            return 0.0
        samples = np.concatenate(parts).astype(np.float32) / 32768.0
        return float(np.sqrt(np.mean(samples * samples)))

    def next_frame(self) -> np.ndarray:
        out = np.zeros(FRAME_SAMPLES, np.int16)
        filled = 0
        while not self.paused and filled < FRAME_SAMPLES and self._queue:
            head = self._queue[0]
            text = self._texts[0]
            if text is not None:  # its first samples: it begins here
                self._said.append((self._sent + filled, text))
                self._texts[0] = None
            n = min(FRAME_SAMPLES - filled, head.size)
            out[filled : filled + n] = head[:n]
            filled += n
            if n == head.size:
                self._queue.popleft()
                self._texts.popleft()
            else:
                self._queue[0] = head[n:]
        self._queued -= filled
        self._sent += filled
        rms = float(np.sqrt(np.mean((out.astype(np.float32) / 32768.0) ** 2))) if filled else 0.0
        self.level = rms
        if rms > 0:
            self.frames_with_speech += 1
        for tap in self.taps:
            tap(out)
        return out
