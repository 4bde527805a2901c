"""One voice turn's moments and the latency figures reported from them (`metrics` on the assistant's transcript
item, and the metrics endpoint)."""

from __future__ import annotations

from dataclasses import dataclass

Figures = dict[str, float | None]


@dataclass
class TurnTiming:
    """One voice turn's moments (monotonic seconds)."""

    ended: float
    heard: float | None = None
    replied: float | None = None  # the reply's first sentence was ready to speak
    first_audio: float | None = None

    def figures(self) -> Figures:
        def ms(a: float | None, b: float | None) -> float | None:
            return None if a is None or b is None else round(1000 * (b - a), 1)

        return {"end_of_speech_to_text_ms": ms(self.ended, self.heard),
                "text_to_reply_ms": ms(self.heard, self.replied),
                "reply_to_first_audio_ms": ms(self.replied, self.first_audio),
                "end_of_speech_to_first_audio_ms": ms(self.ended, self.first_audio)}
