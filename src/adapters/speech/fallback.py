"""A speech engine that tries engines in order: a provider's API first, then the offline voices."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from avatar_service.adapters.model_files import ModelFileMismatch
from avatar_service.ports.speech import Audio, SpeechSynthesizer, VoiceChoice

log = logging.getLogger(__name__)


class FallbackSpeech:
    """The first engine that answers wins; a failure is logged and the next engine speaks instead.

    Except a model file that does not match its pinned hash: that is refused (ModelFileMismatch, naming the
    file), never worked around by another voice, so a tampered voice cannot go unnoticed behind espeak-ng.
    """

    def __init__(self, engines: Sequence[SpeechSynthesizer], name: str | None = None) -> None:
        if not engines:
            raise ValueError("FallbackSpeech needs at least one engine")
        self.engines = tuple(engines)
        self.name = name or " > ".join(engine.name for engine in self.engines)

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        last_error: Exception | None = None
        for engine in self.engines:
            try:
                return engine.synthesize(text, voice)
            except ModelFileMismatch:
                raise
            except Exception as exc:  # any engine failure means "try the next one"
                log.warning("speech engine %s failed (%s); trying the next", engine.name, exc)
                last_error = exc
        assert last_error is not None
        raise last_error
