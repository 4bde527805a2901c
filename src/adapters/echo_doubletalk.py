"""Double talk: whether the participant is speaking over the echo of the avatar's voice, block by block.

The canceller cannot say whether what is left in the microphone is the participant or an echo it has not learnt
yet (AEC3 needs seconds of the first reply to converge, and a busy process breaks the pairing now and then). The
reference can: the echo is the voice as sent, some round trip later, through a speaker and a room. So each 10 ms
block's microphone level is compared with the echo the reference predicts for it: the reference's level (dB)
held with a reverberant decay, taken at the echo path's delay (or, while that delay is not known or not steady,
the loudest of the last `unsure_reach` blocks, 1.5 s: the first reply's first second, a busy process whose pairing
moved), plus the echo path's gain (a high percentile of microphone over reference while the avatar speaks, so the
echo's louder moments are covered). A block louder than that by `margin_db` holds something the echo cannot
explain: the participant. An echo alone leaves next to no such blocks; a voice over it fills the echo's gaps
between words and syllables with many. Once AEC3 takes `converged_db` off the echo, its output is compared the
same way (a voice over a converged canceller stands out of the residue by far more), but only while the delay
is steady: a canceller out of step leaks.
"""

from __future__ import annotations

import numpy as np

_FLOOR = -100.0


class _Gain:
    """How loud a signal is over the predicted echo while only the echo is there: a high percentile of the
    difference over the blocks in which the avatar spoke (the participant speaks over it only now and then)."""

    def __init__(self, start_db: float, quantile: float) -> None:
        self._seen: list[float] = []
        self._quantile = quantile
        self.db = start_db
        self.learnt = 0

    def learn(self, difference: float) -> None:
        self.learnt += 1
        self._seen.append(difference)
        if len(self._seen) >= 400:
            del self._seen[:100]
        if len(self._seen) >= 50 and len(self._seen) % 10 == 0:
            self.db = float(np.quantile(self._seen, self._quantile))


class DoubleTalk:
    def __init__(self, reach: int = 60, unsure_reach: int = 150, decay_db: float = 2.0, margin_db: float = 8.0,
                 spread: int = 3, min_level_db: float = -48.0, gain_db: float = 0.0, quantile: float = 0.9,
                 converge_blocks: int = 300, converged_db: float = 10.0) -> None:
        self._converge_blocks, self._converged_db = converge_blocks, converged_db
        self._reach, self._decay, self._margin, self._spread = reach, decay_db, margin_db, spread
        self._min_level = min_level_db
        self._unsure_reach = unsure_reach
        # The reference's level with its reverberant tail, as far back as an echo is looked for.
        self._held = np.full(max(reach + spread, unsure_reach) + 2, _FLOOR)
        self._gains = [_Gain(gain_db, quantile), _Gain(gain_db, quantile)]  # the microphone's, the cleaned one's
        self.near = np.zeros(0, bool)  # the last blocks fed: the participant's voice is in them

    @property
    def converged(self) -> bool:
        """The canceller has heard `converge_blocks` of the avatar's voice and takes `converged_db` or more off
        the echo: only then does what it leaves tell the participant from the echo better than the microphone."""
        mic, cleaned = self._gains
        return cleaned.learnt >= self._converge_blocks and mic.db - cleaned.db >= self._converged_db

    @property
    def gains_db(self) -> tuple[float, float]:
        return self._gains[0].db, self._gains[1].db

    def feed(self, reference_db: np.ndarray, microphone_db: np.ndarray, cleaned_db: np.ndarray | None,
             lag: int | None, echo: bool = True) -> np.ndarray:
        """Aligned 10 ms block levels (dB): the reference, the microphone and the canceller's output (None when it
        did not run), and the echo path's delay in blocks (None: not known yet); whether each block holds the
        participant's voice. `echo` False (no echo path at all): any voice is theirs."""
        near = np.zeros(microphone_db.size, bool)
        for i in range(microphone_db.size):
            held = self._held
            held[:-1] = held[1:]
            held[-1] = max(float(reference_db[i]), float(held[-2]) - self._decay)
            if lag is None:
                window = held[-self._unsure_reach - 1 :]
            else:
                at = held.size - 1 - min(lag, self._reach)
                window = held[max(0, at - self._spread) : at + self._spread + 1]
            expected = float(window.max())
            m = float(microphone_db[i])
            if m <= self._min_level:
                continue
            if not echo or expected <= -60.0:
                near[i] = True
                continue
            levels = [m] if cleaned_db is None else [m, float(cleaned_db[i])]
            for level, gain in zip(levels, self._gains, strict=False):
                if expected > -50.0 and lag is not None:
                    gain.learn(level - expected)
            near[i] = m > expected + self._gains[0].db + self._margin
            cleaned = self._gains[1]
            if cleaned_db is not None and lag is not None and self.converged:  # a canceller out of step leaks
                near[i] |= float(cleaned_db[i]) > expected + cleaned.db + self._margin
        self.near = near
        return near
