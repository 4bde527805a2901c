"""Early transcription: start speech-to-text in the VAD's hang-over, so the silence wait and Whisper overlap."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import numpy as np

QUIET_PEAK_RMS = 330  # int16, about -40 dBFS: quieter than any voice, louder than a noise-suppressed mic at rest


def loud(samples: np.ndarray) -> bool:
    """A 16 kHz int16 frame holding sound above a quiet microphone's."""
    return bool(samples.size) and float(np.sqrt(np.mean(samples.astype(np.float32) ** 2))) >= QUIET_PEAK_RMS


class EarlyTranscription:
    """Watches the audio of an utterance in progress; once it has been quiet for `quiet_frames` frames, starts
    transcribing what was said so far (the VAD's utterance, its pre-roll included). If the speaker goes on, that
    guess is dropped (and another one starts at the next pause); if the VAD then ends the utterance, `take()`
    hands over the guess already under way.

    The VAD waits for its whole hang-over (a few hundred ms) before it ends an utterance; Whisper takes about as
    long again. Started at the first quiet moment, they run side by side instead of one after the other. The
    cost is a wasted transcription whenever the speaker pauses within a sentence.
    """

    def __init__(self, start: Callable[[np.ndarray], asyncio.Future[str]], speech_so_far: Callable[[], np.ndarray],
                 quiet_frames: int = 4) -> None:
        self._start, self._so_far, self._quiet_frames = start, speech_so_far, quiet_frames
        self._quiet = 0
        self._guess: asyncio.Future[str] | None = None
        self.guesses = 0  # started (tests, tuning)

    def feed(self, samples: np.ndarray, in_speech: bool) -> None:
        """One incoming 16 kHz int16 frame, with the VAD's state after it."""
        if not in_speech:
            self._quiet = 0
            self._drop()
            return
        if loud(samples):
            self._quiet = 0
            self._drop()  # they go on talking: the guess would miss the rest
            return
        self._quiet += 1
        if self._quiet == self._quiet_frames and self._guess is None:
            speech = self._so_far()
            if speech.size:
                self._guess = self._start(speech)
                self.guesses += 1

    @property
    def quiet_frames(self) -> int:
        """Quiet frames in a row at the end of the utterance so far."""
        return self._quiet

    def text(self) -> str | None:
        """The guess's text once it is ready (None before, or when it failed)."""
        guess = self._guess
        if guess is None or not guess.done() or guess.cancelled() or guess.exception() is not None:
            return None
        return guess.result()

    def take(self) -> asyncio.Future[str] | None:
        """At the VAD's end of utterance: the transcription already under way, if it covers all that was said."""
        guess, self._guess = self._guess, None
        self._quiet = 0
        return guess

    def _drop(self) -> None:
        if self._guess is not None:
            # The thread runs to its end regardless; only its answer is ignored (and its error retrieved).
            self._guess.add_done_callback(lambda f: f.cancelled() or f.exception())
            self._guess = None
