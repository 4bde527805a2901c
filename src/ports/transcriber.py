"""Speech-to-text port: a finished utterance of mono audio to its text (the room's microphone side)."""

from typing import Any, Protocol


class Transcriber(Protocol):
    """Sync and CPU-bound: callers run it off the event loop (one utterance at a time per engine)."""

    def transcribe(self, samples: Any, sample_rate: int = 16000) -> str:
        """`samples`: 1-D numpy mono audio, float32 in -1..1 or int16; other rates are resampled.

        Returns the recognised text, stripped; "" when nothing was said.
        """
        ...
