"""Room audio: the outgoing voice track (48 kHz, 20 ms frames, paced in real time) and resampling."""

from __future__ import annotations

import re
from fractions import Fraction

import av
import numpy as np
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from avatar_service.adapters.aiortc_rooms.pacing import Pacer
from avatar_service.adapters.aiortc_rooms.voice import FRAME_SAMPLES, OUT_RATE, VoiceQueue
from avatar_service.adapters.echo_cancel import EchoCanceller
from avatar_service.core.text.sentences import sentence_spans
from avatar_service.ports.speech import SpeechSynthesizer, VoiceChoice

__all__ = ["FRAME_SAMPLES", "IN_RATE", "OUT_RATE", "EchoReference", "MicrophoneResampler", "ReplyAudioTrack",
           "SentenceCutter", "VoiceQueue", "audio_frame", "resample", "sentences"]

IN_RATE = 16_000  # what the VAD and Whisper take
_PAUSE = re.compile(r"(?<=[;:])\s+")  # a clause ends: a voice pauses there as at a full stop
_QUICK_START_CHARS = 40  # a first sentence longer than this is cut at a comma or before a conjunction
_BREAK = re.compile(r",\s+|\s+(?=(?:and|but|so|because|or|which|where|while)\s)")


def resample(samples: np.ndarray, rate: int, target: int) -> np.ndarray:
    """Mono int16 at `rate` to mono int16 at `target`, with PyAV's resampler (drained at the end)."""
    samples = np.ascontiguousarray(np.asarray(samples, dtype=np.int16).reshape(1, -1))
    if rate == target or samples.size == 0:
        return samples.reshape(-1).copy()
    frame = av.AudioFrame.from_ndarray(samples, format="s16", layout="mono")
    frame.sample_rate = rate
    resampler = av.AudioResampler(format="s16", layout="mono", rate=target)
    out = resampler.resample(frame) + resampler.resample(None)
    if not out:
        return np.zeros(0, np.int16)
    return np.concatenate([f.to_ndarray().reshape(-1) for f in out]).astype(np.int16, copy=False)


def audio_frame(chunk: np.ndarray, pts: int) -> av.AudioFrame:
    """One outgoing 20 ms frame: mono int16 samples at OUT_RATE, stamped `pts` samples into the track."""
    frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
    frame.sample_rate = OUT_RATE
    frame.pts = pts
    frame.time_base = Fraction(1, OUT_RATE)
    return frame


class MicrophoneResampler:
    """Incoming WebRTC frames (48 kHz stereo from the Opus decoder, or anything else) to 16 kHz mono int16."""

    def __init__(self) -> None:
        self._resampler = av.AudioResampler(format="s16", layout="mono", rate=IN_RATE)

    def __call__(self, frame: av.AudioFrame) -> np.ndarray:
        frames = self._resampler.resample(frame)
        if not frames:
            return np.zeros(0, np.int16)
        return np.concatenate([f.to_ndarray().reshape(-1) for f in frames]).astype(np.int16, copy=False)


def sentences(text: str) -> list[str]:
    """Reply text cut where a speaker pauses, so the first piece can play while the next is synthesised: the
    sentences of `core.text.sentences` ("Dr. Vos" stays whole), each cut again after a semicolon or colon.

    Synthesis time grows with length, so a long first sentence is cut at its first comma (or before a
    conjunction): the listener hears the voice sooner, and the break falls where a voice may pause anyway.
    """
    parts = [clause[s:e] for clause in _PAUSE.split(text) for s, e in sentence_spans(clause)]
    if parts and len(parts[0]) > _QUICK_START_CHARS:
        head = _quick_start(parts[0])
        if head is not None:
            parts[:1] = [head, parts[0][len(head):].strip()]
    return parts


def _quick_start(first: str) -> str | None:
    """The head of a long first sentence up to its first break with 3+ words before and 2+ after: a comma, or
    else the space before a conjunction ("and", "but", "so", ...) with 4+ words before. The earliest break that
    qualifies wins, so a sentence still being written is cut where the finished one would be."""
    for brk in _BREAK.finditer(first):
        comma = brk.group(0).startswith(",")
        head, tail = first[: brk.start() + 1] if comma else first[: brk.start()], first[brk.end() :]
        if len(head.split()) >= (3 if comma else 4) and len(tail.split()) >= 2:
            return head
    return None


class SentenceCutter:
    """`sentences` for a reply that is still being written: `feed` each piece as it comes and get the sentences
    it completed, at once, so the first can be synthesised and played while the model writes the rest; `end`
    gives what is left. For any cut of a text into pieces the sentences are those `sentences` gives the whole."""

    def __init__(self) -> None:
        self._pending = ""  # text after the last sentence given out
        self._first = True

    def feed(self, piece: str) -> list[str]:
        self._pending += piece
        done: list[str] = []
        *clauses, self._pending = _PAUSE.split(self._pending)
        for clause in clauses:  # a pause point is written: the clause before it is whole
            for s, e in sentence_spans(clause):
                done += self._give(clause[s:e])
        spans = sentence_spans(self._pending)
        # A sentence is out once the next one has begun: whether "no." or "p.m." ends it depends on what follows.
        for s, e in spans[:-1]:
            done += self._give(self._pending[s:e])
        self._pending = self._pending[spans[-1][0]:] if spans else ""
        lead = self._pending.lstrip()
        if self._first and len(lead.rstrip()) > _QUICK_START_CHARS:
            head = _quick_start(lead.rstrip())  # a long first sentence: out at its comma already
            if head is not None:
                self._first = False
                self._pending = lead[len(head):]
                done.append(head)
        return done

    def end(self) -> list[str]:
        rest, self._pending = self._pending.strip(), ""
        return self._give(rest) if rest else []

    def closed_first(self) -> list[str]:
        """The first sentence, given out as soon as a piece closes it (".", "!" or "?") instead of when the next one
        begins: a reply of one sentence is otherwise only given out after its last piece was taken, when the turn
        has been stored already without the figures of its first audio. (An abbreviation that ends a piece, "9
        a.m." before " on Sundays", then splits the first sentence in two lines.)"""
        rest = self._pending.strip()
        if not self._first or not rest or rest[-1] not in ".!?":
            return []
        self._pending = ""
        return self._give(rest)

    def _give(self, sentence: str) -> list[str]:
        if self._first:
            self._first = False
            if len(sentence) > _QUICK_START_CHARS and (head := _quick_start(sentence)) is not None:
                return [head, sentence[len(head):].strip()]
        return [sentence]


class ReplyAudioTrack(MediaStreamTrack):
    """The personality's voice on the wire: the `VoiceQueue`'s frames, paced in real time.

    `play`, `cut`, `playing` and `level` are the queue's (see `VoiceQueue`); a cut silences the next frame out,
    at most 20 ms later.
    """

    kind = "audio"

    def __init__(self, queue: VoiceQueue | None = None) -> None:
        super().__init__()
        self.queue = queue or VoiceQueue()
        self._pacer = Pacer(resync_after=0.2)
        self._pts = 0

    @property
    def playing(self) -> bool:
        return self.queue.playing

    @property
    def level(self) -> float:
        return self.queue.level

    @property
    def frames_with_speech(self) -> int:
        return self.queue.frames_with_speech

    def play(self, samples: np.ndarray) -> None:
        self.queue.play(samples)

    def cut(self) -> bool:
        return self.queue.cut()

    async def recv(self) -> av.AudioFrame:
        if self.readyState != "live":
            raise MediaStreamError
        await self._pacer.wait(self._pts / OUT_RATE)
        frame = audio_frame(self.queue.next_frame(), self._pts)
        self._pts += FRAME_SAMPLES
        return frame


class EchoReference:
    """The voice's frames (48 kHz) as the echo canceller's reference (16 kHz), resampled as one stream."""

    def __init__(self, echo: EchoCanceller) -> None:
        self._echo = echo
        self._resampler = av.AudioResampler(format="s16", layout="mono", rate=IN_RATE)

    def __call__(self, frame: np.ndarray) -> None:
        audio = av.AudioFrame.from_ndarray(frame.reshape(1, -1), format="s16", layout="mono")
        audio.sample_rate = OUT_RATE
        for out in self._resampler.resample(audio):
            self._echo.reference(out.to_ndarray().reshape(-1))


def synthesize_48k(speech: SpeechSynthesizer, text: str, voice: VoiceChoice) -> np.ndarray:
    """A line of the reply in the voice, at the rate the room sends."""
    audio = speech.synthesize(text, voice)
    return resample(np.asarray(audio.samples), audio.sample_rate, OUT_RATE)
