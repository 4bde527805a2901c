"""Lining up the echo canceller's reference with the microphone by time, not by arrival order.

AEC3 follows an echo path a few hundred ms long; it needs each microphone sample next to the voice samples that
were being sent when it was captured. Pairing them in the order they pass through the process breaks when the
process is busy: microphone frames handled late, or a lost packet, or a stall of the voice's sender each shift
the pairing for good, and the echo leaks. So both streams are placed on this process's clock instead:

- a voice frame where its media time (samples sent so far) falls once mapped to the clock it was sent by;
- a microphone frame where its media time (its RTP timestamp, or samples received so far) falls once mapped to
  the clock it arrived by.

A stream's mapping is the least lateness it has shown (its frames' arrival minus their media time): a frame
handled late keeps its place, since a later frame that came in time shows the true offset. The mapping moves
later only when a stream's media clock jumped (a stall the voice's pacer skipped, a track that restarted), seen
as every frame for a while arriving later than that.
"""

from __future__ import annotations

import numpy as np


class StreamClock:
    """Where a stream's frames fall on the local clock, in samples at `rate`.

    `place(samples, now, media)` answers the position of the frame's first sample. `media` is its media time in
    seconds on the sender's clock (an RTP timestamp); without it the samples placed so far are counted. A
    `captured` stream's frame (a microphone's) can only have come once its last sample was captured; any other
    (the voice as sent) starts at the moment it is placed. The
    offset from media time to the local clock is the least lateness seen; it moves earlier at once when a frame
    comes sooner than it (by more than `settle` samples, so jitter does not nudge it) and later when every frame
    for `rebase_after` seconds of media has come more than `rebase_by` seconds later than it.
    """

    def __init__(self, rate: int, rebase_by: float, rebase_after: float, captured: bool,
                 settle: float = 0.002) -> None:
        self._rate, self._captured = rate, captured
        self._rebase_by, self._rebase_after = int(rebase_by * rate), int(rebase_after * rate)
        self._settle = int(settle * rate)
        self._offset: int | None = None
        self._counted = 0
        self._late_run = 0  # samples in a row that came more than `rebase_by` later than the offset
        self._late_least = 0  # the least lateness among them

    def place(self, samples: int, now: float, media: float | None = None) -> int:
        start = round(media * self._rate) if media is not None else self._counted
        self._counted = start + samples
        # A captured frame is whole only at its end; a frame sent starts going out at once.
        lateness = round(now * self._rate) - (start + samples if self._captured else start)
        offset = self._offset
        if offset is None or lateness < offset - self._settle:
            offset = lateness
        elif lateness > offset + self._rebase_by:
            self._late_least = min(self._late_least, lateness) if self._late_run else lateness
            self._late_run += samples
            if self._late_run >= self._rebase_after:
                offset = self._late_least
        else:
            self._late_run = 0
        if offset != self._offset:
            self._offset, self._late_run = offset, 0
        return start + offset


class ReferenceTimeline:
    """The voice as sent, by position on the local clock (samples), for the last `2 ** bits` samples; a range
    never written (nothing was sent then) or written over since reads as silence."""

    def __init__(self, bits: int = 16) -> None:
        self._size = 1 << bits
        self._samples = np.zeros(self._size, np.int16)
        self._at = np.full(self._size, -1, np.int64)  # the position each slot holds

    def put(self, samples: np.ndarray, position: int) -> None:
        if samples.size > self._size:
            samples, position = samples[-self._size :], position + samples.size - self._size
        where = np.arange(position, position + samples.size, dtype=np.int64)
        self._samples[where % self._size] = samples
        self._at[where % self._size] = where

    def take(self, n: int, position: int) -> np.ndarray:
        where = np.arange(position, position + n, dtype=np.int64)
        slots = where % self._size
        return np.where(self._at[slots] == where, self._samples[slots], 0).astype(np.int16)
