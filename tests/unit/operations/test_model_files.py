"""Every offline engine refuses a model file that is not the pinned one (never works around it), the service
refuses to start on a tampered small file, and the VAD's fallback to the energy detector says why."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import numpy as np
import pytest

from avatar_service.adapters import dlib_faces, model_files, vad, whisper_transcriber
from avatar_service.adapters.in_memory.storage import MemoryStorage
from avatar_service.adapters.model_files import ModelFile, ModelFileMismatch
from avatar_service.adapters.speech import piper_speech
from avatar_service.adapters.speech.catalogue_speech import CatalogueSpeech
from avatar_service.adapters.speech.espeak_speech import EspeakSpeech
from avatar_service.adapters.speech.fallback import FallbackSpeech
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.speech import Audio, VoiceChoice

VOICE = VoiceChoice(provider="openai", voice_id="joe")


def tampered(pinned: ModelFile, folder: Path, name: str | None = None) -> ModelFile:
    """The pinned file's entry pointing at a file of other bytes, as a republished wheel would ship it."""
    fake = folder / (name or Path(pinned.relative).name)
    fake.write_bytes(b"not the pinned model " + pinned.what.encode())
    return ModelFile(pinned.what, None, str(fake), pinned.sha256)  # an absolute path wins over the package's


def test_a_tampered_piper_voice_is_refused_not_spoken_by_espeak(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    onnx, config = model_files.PIPER_JOE
    monkeypatch.setattr(piper_speech, "PIPER_JOE", (tampered(onnx, tmp_path), config))
    with pytest.raises(ModelFileMismatch, match=r"Piper voice en_US-joe-medium: .*en_US-joe-medium.onnx has sha256"):
        piper_speech.PiperSpeech().synthesize("Hello.", VOICE)
    # behind the fallback chain the offline voices are built with: refused too, espeak-ng never speaks instead
    spoke: list[str] = []

    class Espeak(EspeakSpeech):
        def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
            spoke.append(text)
            return Audio(samples=np.zeros(10, np.int16), sample_rate=22050)

    chain = FallbackSpeech([CatalogueSpeech(piper_speech.PiperSpeech()), Espeak()])
    with pytest.raises(ModelFileMismatch, match="Piper voice en_US-joe-medium"):
        chain.synthesize("Hello.", VOICE)
    assert spoke == []


def test_the_fallback_chain_still_passes_over_other_failures() -> None:
    class Broken:
        name = "broken"

        def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
            raise ConnectionError("provider down")

    class Quiet:
        name = "quiet"

        def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
            return Audio(samples=np.zeros(10, np.int16), sample_rate=16000)

    assert FallbackSpeech([Broken(), Quiet()]).synthesize("Hi.", VOICE).sample_rate == 16000


def test_a_tampered_whisper_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    weights, *rest = model_files.WHISPER_FILES
    monkeypatch.setattr(whisper_transcriber, "WHISPER_FILES", (tampered(weights, tmp_path), *rest))
    with pytest.raises(ModelFileMismatch, match=r"Whisper tiny.en weights: .*model.bin has sha256"):
        whisper_transcriber.packaged_model_dir()
    with pytest.raises(ModelFileMismatch, match=r"Whisper tiny\.en weights"):
        whisper_transcriber.FasterWhisperTranscriber().load()
    # a vocabulary changed alone is refused as well
    *first, vocabulary = model_files.WHISPER_FILES
    monkeypatch.setattr(whisper_transcriber, "WHISPER_FILES", (*first, tampered(vocabulary, tmp_path)))
    with pytest.raises(ModelFileMismatch, match=r"Whisper tiny.en vocabulary: .*vocabulary.txt"):
        whisper_transcriber.packaged_model_dir()


def test_a_tampered_silero_graph_is_refused_not_replaced_by_energy(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vad, "SILERO_VAD", tampered(model_files.SILERO_VAD, tmp_path))
    with pytest.raises(ModelFileMismatch, match=r"Silero VAD v6 graph: .*silero_vad_v6.onnx has sha256"):
        vad.SileroScorer()
    with pytest.raises(ModelFileMismatch, match="Silero VAD v6 graph"):
        vad.default_scorer()
    with pytest.raises(ModelFileMismatch, match="Silero VAD v6 graph"):
        vad.VoiceActivityDetector("auto")


def test_the_vad_falls_back_to_energy_with_a_warning_when_silero_cannot_run(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper.vad", None)  # as if faster-whisper were not installed
    with caplog.at_level(logging.WARNING, logger=vad.__name__):
        detector = vad.VoiceActivityDetector("auto")
    assert isinstance(detector.scorer, vad.EnergyScorer) and detector.scorer.name == "energy"
    [record] = [r for r in caplog.records if r.name == vad.__name__]
    assert record.levelno == logging.WARNING
    assert "Silero unavailable" in record.getMessage() and "faster_whisper.vad" in record.getMessage()
    assert "energy detector" in record.getMessage()


@pytest.mark.parametrize("pinned", [model_files.DLIB_LANDMARKS, model_files.DLIB_FACE_DETECTOR],
                         ids=["landmarks", "detector"])
def test_a_tampered_dlib_model_is_refused(pinned: ModelFile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "DLIB_LANDMARKS" if pinned is model_files.DLIB_LANDMARKS else "DLIB_FACE_DETECTOR"
    monkeypatch.setattr(dlib_faces, name, tampered(pinned, tmp_path))
    dlib_faces._models.cache_clear()  # loaded once per process: another test may have loaded the real ones
    try:
        with pytest.raises(ModelFileMismatch, match=rf"{pinned.what}: .*\.dat has sha256"):
            dlib_faces.DlibFaceFinder().find(np.zeros((64, 64, 3), np.uint8))
    finally:
        dlib_faces._models.cache_clear()


def test_the_service_does_not_start_with_a_tampered_small_file(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings({}, embedder="lexical", data_dir=str(tmp_path), secret_key="unit-test-secret")
    config = tampered(model_files.PIPER_JOE[1], tmp_path)
    monkeypatch.setattr(model_files, "EVERY_FILE", (*model_files.EVERY_FILE, config))
    with pytest.raises(ModelFileMismatch, match=r"Piper voice en_US-joe-medium config: .*onnx.json has sha256"):
        bootstrap.test(settings, MemoryStorage())


def test_start_up_hashes_only_small_files_and_skips_missing_packages(tmp_path: Path) -> None:
    big = tampered(model_files.WHISPER_FILES[0], tmp_path)  # 50 bytes or so, over a limit of 10
    missing = ModelFile("a model of a package not installed", "no-such-distribution-here", "x.onnx", "0" * 64)
    model_files.verify_small_files((big, missing), limit=10)
    with pytest.raises(ModelFileMismatch, match=r"Whisper tiny\.en weights"):
        model_files.verify_small_files((big, missing), limit=1000)
    model_files.verify_small_files()  # the installed files pass
