"""A room's conversation, whatever carries its media: microphone frames in, the avatar's voice out.

microphone (16 kHz) -> echo canceller -> VAD (early transcription in its hang-over) -> Whisper -> the
conversation's turn -> sentences as they are written -> speech -> `VoiceQueue`; events for the participant (what
was heard and said, interruptions) go to a `send` callback. The transport (aiortc's peer connection today) feeds
`hear()` and sends the queue's frames; nothing here knows about it.

The reply streams: each sentence is synthesised and played as soon as the dialogue engine has written it. Speech
over the reply pauses it at once; `barge_in` decides whether it was an interruption (the reply is cut and its
writing stopped, kept as far as it got, marked interrupted), a backchannel or an echo (it plays on). A typed
message interrupts the same way. Each assistant turn is stored with its latency figures (`metrics`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from avatar_service.adapters.aiortc_rooms.audio import (
    IN_RATE,
    EchoReference,
    SentenceCutter,
    sentences,
    synthesize_48k,
)
from avatar_service.adapters.aiortc_rooms.barge_in import (
    HOLD_SECONDS,
    SAID_SECONDS,
    EarlyPause,
    Overlap,
    keeps_reply,
    maybe_echo,
)
from avatar_service.adapters.aiortc_rooms.early import EarlyTranscription, loud
from avatar_service.adapters.aiortc_rooms.turn_end import reads_unfinished, rest_of_turn
from avatar_service.adapters.aiortc_rooms.turn_timing import Figures, TurnTiming
from avatar_service.adapters.aiortc_rooms.voice import VoiceQueue
from avatar_service.adapters.echo_cancel import EchoCanceller, NoEchoCanceller
from avatar_service.adapters.vad import VadEvent, VoiceActivityDetector
from avatar_service.core.errors import Conflict, Unavailable
from avatar_service.ports.metrics import RoomTurnStage
from avatar_service.ports.offload import Offload
from avatar_service.ports.rooms import ReplyStream, RoomHost, RoomMedia
from avatar_service.ports.speech import SpeechSynthesizer
from avatar_service.ports.transcriber import Transcriber

log = logging.getLogger(__name__)

MAX_PUSH_TO_TALK_SECONDS = 30.0
PRE_ROLL_MS = 544  # Silero decides ~100-250 ms into a word, then waits 96 ms more: keep the first word whole, with
# two windows to spare (at 480 ms an onnxruntime build that scored one window differently cut 5 ms too close)
# A question is a turn's end: once the early transcription reads one and this much quiet has followed, the turn
# ends without waiting out the rest of the hang-over.
QUESTION_END_SECONDS = 0.24
Observe = Callable[[RoomTurnStage, float], None]  # (stage, seconds): the metrics endpoint's room turn histogram


@dataclass
class _Utterance:
    audio: np.ndarray | asyncio.Future[str]  # the samples, or their transcription already under way
    ended: float  # monotonic: when the speech ended
    over_reply: bool = False  # short speech over the reply, which paused: resume unless it says something
    weak: bool = False  # over the reply, hardly any of it stood out of the echo


class ConversationPipeline:
    """One participant's conversation: call `start()`, feed `hear()`, and `close()` at the end.

    With `vad_enabled`, Silero VAD cuts the microphone into utterances; without it, `talk("start"|"stop")`
    brackets each utterance (push to talk). With `interruption_enabled`, the user's speech, a press of the talk
    button or a typed message stops the reply being spoken.
    """

    def __init__(self, media: RoomMedia, host: RoomHost, speech: SpeechSynthesizer, transcriber: Transcriber,
                 offload: Offload, voice: VoiceQueue | None, send: Callable[[dict[str, Any]], None],
                 on_broken: Callable[[BaseException], None], echo: EchoCanceller | None = None,
                 observe: Observe | None = None, hangover_ms: int = 350) -> None:
        self.media, self.host, self.speech, self.transcriber, self.offload = media, host, speech, transcriber, offload
        self.voice, self.send, self._on_broken, self._observe = voice, send, on_broken, observe
        self.echo = echo or NoEchoCanceller()
        self.vad = (VoiceActivityDetector(hangover_ms=hangover_ms, pre_roll_ms=PRE_ROLL_MS)
                    if media.vad_enabled else None)
        self.early = (EarlyTranscription(self._transcribe_soon, self.vad.speech_so_far)
                      if self.vad is not None else None)
        self._hangover = hangover_ms / 1000
        self._utterances: asyncio.Queue[_Utterance] = asyncio.Queue()
        self._talking: list[np.ndarray] | None = None  # push to talk: audio since "start"
        self._overlap: Overlap | None = None  # speech heard over the paused reply so far
        self._early = EarlyPause()
        self._held: tuple[str, int] | None = None  # (what was heard, samples left) of speech that may be an echo
        self._replying: set[asyncio.Task[Any]] = set()  # the reply's writing and speaking: an interruption ends them
        self._writer: asyncio.Task[Any] | None = None  # the reply being written: the next turn waits for it
        self.tasks: set[asyncio.Task[Any]] = set()  # running: closing cancels them, a shutdown waits for them
        self._closed = False
        self.microphone_taps: list[Callable[[np.ndarray], None]] = []  # the cleaned microphone (the recorder)
        self.heard: list[str] = []  # what the transcriber made of each utterance (tests, debugging)
        self.turn_latencies: list[float] = []  # end of speech -> first reply audio queued, seconds
        self.reply_latencies: list[float] = []  # end of speech -> the whole reply written, seconds
        self.backchannels = 0  # short speech over the reply that let it play on
        if voice is not None and not isinstance(self.echo, NoEchoCanceller):
            voice.taps.append(EchoReference(self.echo))

    @property
    def user_speaking(self) -> bool:
        if self.vad is not None:
            return self.vad.in_speech
        return self._talking is not None

    @property
    def replying(self) -> bool:
        return bool(self._replying) or (self.voice is not None and self.voice.pending)

    # --- tasks -------------------------------------------------------------------------------------------------

    def start(self) -> None:
        self._spawn(asyncio.ensure_future(self._turns()))

    def _spawn(self, task: asyncio.Task[Any]) -> asyncio.Task[Any]:
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if task.cancelled() or self._closed:
            return
        error = task.exception()
        if error is not None:
            log.error("room %s: media pipeline broke", self.media.conversation_id, exc_info=error)
            self._on_broken(error)

    def _reply_task(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = self._spawn(asyncio.ensure_future(coroutine))
        self._replying.add(task)
        task.add_done_callback(self._replying.discard)
        return task

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        current = asyncio.current_task()
        for task in list(self.tasks):
            if task is not current:
                task.cancel()

    # --- hearing -----------------------------------------------------------------------------------------------

    def hear(self, samples: np.ndarray, media_time: float | None = None) -> None:
        """One microphone frame, 16 kHz mono int16; `media_time`: its capture time on the sender's clock (the RTP
        timestamp, in seconds), which lines it up with the voice for the echo canceller."""
        samples = self.echo.process(samples, media_time)
        for tap in self.microphone_taps:
            tap(samples)
        if self.vad is None:
            talking = self._talking
            if talking is not None and len(talking) * max(samples.size, 1) < MAX_PUSH_TO_TALK_SECONDS * IN_RATE:
                talking.append(samples)
            return
        for event in self.vad.feed(samples):
            if event.kind == "speech_start":
                self._speech_started()
            else:  # the VAD decides `hangover_ms` after the last voiced window: that is when speech ended
                self._ended(event, self._hangover)
        if self.early is not None:
            self.early.feed(samples, self.vad.in_speech)
            quiet = self.early.quiet_frames * samples.size / IN_RATE
            if self.vad.in_speech and quiet >= QUESTION_END_SECONDS and (self.early.text() or "").endswith("?"):
                for event in self.vad.flush():
                    self._ended(event, quiet)
        if self.voice is not None and self.media.interruption_enabled:
            echo, playing, in_speech = self.echo.hears_echo(), self.voice.playing, self.vad.in_speech
            step = self._early.feed(self.echo.near_end(), echo, playing, in_speech)
            if step == "pause":
                self.voice.pause()
            elif step == "resume" and self._overlap is None and self._held is None:
                self.voice.resume()
        over = self._overlap  # its voiced time only: the hang-over is silence
        if over is not None and self.vad.in_speech and loud(samples) and over.feed(samples.size, self.echo.near_end()):
            self._overlap = None  # too long for "uh-huh": they are taking the turn
            self.interrupt()
        self._hold_on(samples.size)

    def _hold_on(self, samples: int) -> None:
        """Speech that may have been an echo holds the reply a little longer; with no more speech, it plays on."""
        if self._held is None or self.vad is None or self.vad.in_speech or self._overlap is not None:
            return
        text, left = self._held
        self._held = (text, left - samples) if left > samples else None
        if self._held is None and self.voice is not None and self.voice.paused:
            self.backchannels += 1
            self.voice.resume()

    def _ended(self, event: VadEvent, silence: float) -> None:
        """The VAD closed an utterance `silence` seconds after its last voiced sound."""
        if event.samples is None or not event.samples.size:
            return
        ended = time.monotonic() - silence
        guess = self.early.take() if self.early is not None else None
        audio = guess if guess is not None else (event.samples * 32767).astype(np.int16)
        overlap, self._overlap = self._overlap, None
        self._utterances.put_nowait(_Utterance(audio, ended, overlap is not None, overlap is not None and overlap.weak))

    def _speech_started(self) -> None:
        if not self.media.interruption_enabled:
            return
        if self.voice is not None and self.voice.pending:
            # Over the reply: hold it at once; what the speech turns out to be decides whether it goes on.
            self.voice.pause()
            self._overlap = Overlap(IN_RATE)
        else:
            self.interrupt()

    def talk(self, state: str) -> None:
        """Push to talk: "start" opens an utterance (and interrupts), "stop" closes it."""
        if self.vad is not None:
            return
        if state == "start":
            self._talking = []
            self.interrupt()
        elif state == "stop" and self._talking is not None:
            chunks, self._talking = self._talking, None
            if chunks:
                self._utterances.put_nowait(_Utterance(np.concatenate(chunks), time.monotonic()))

    def _transcribe_soon(self, samples: np.ndarray) -> asyncio.Future[str]:
        return asyncio.ensure_future(self.offload(self.transcriber.transcribe, samples, IN_RATE))

    def interrupt(self) -> None:
        """The user takes the turn: with interruption enabled, the reply being spoken stops (within a frame), and
        so does the writing of the rest of it."""
        if not self.media.interruption_enabled:
            return
        self._overlap = None
        for task in list(self._replying):
            task.cancel()
        if self.voice is not None and self.voice.cut():
            self.send({"type": "interrupted"})

    async def settle(self) -> None:
        """Interrupts, then waits until the reply being written is stored (so what comes next follows it)."""
        self.interrupt()
        writer = self._writer
        if writer is not None and not writer.done():
            await asyncio.wait([writer])

    # --- turns -------------------------------------------------------------------------------------------------

    async def _transcribed(self, utterance: _Utterance) -> str:
        if isinstance(utterance.audio, np.ndarray):
            return (await self.offload(self.transcriber.transcribe, utterance.audio, IN_RATE)).strip()
        return (await utterance.audio).strip()

    async def _turns(self) -> None:
        org, ident = self.media.organization_id, self.media.conversation_id
        while True:
            utterance = await self._utterances.get()
            started = time.monotonic()
            text = await self._transcribed(utterance)
            timing = TurnTiming(ended=utterance.ended, heard=time.monotonic())
            if self._held is not None:  # what came before, held as a maybe-echo: the same speech
                text, self._held = f"{self._held[0]} {text}".strip(), None
            if utterance.over_reply and self.voice is not None and self.voice.paused:
                if keeps_reply(text, self.voice.said(SAID_SECONDS)):
                    self.backchannels += 1
                    self.voice.resume()
                    log.info("room %s: %r over the reply: it plays on", ident, text)
                    continue
                if maybe_echo(text, utterance.weak):
                    self._held = (text, int(HOLD_SECONDS * IN_RATE))
                    log.info("room %s: %r over the reply, hardly louder than its echo: held", ident, text)
                    continue
                self.interrupt()
            if self.vad is not None and reads_unfinished(text):  # the VAD may have cut a question in two
                rest = await rest_of_turn(self._utterances, lambda: self.user_speaking)
                if rest is not None:  # one turn, timed from the end of its second part
                    text = f"{text} {await self._transcribed(rest)}".strip()
                    timing = TurnTiming(ended=rest.ended, heard=time.monotonic())
            if not text:
                continue
            self.heard.append(text)
            self.send({"type": "transcript", "role": "user", "content": text})
            if self._writer is not None:  # one reply is written at a time, so the transcript keeps its order
                await asyncio.wait([self._writer])
            try:
                turn = await self.host.voice_turn(org, ident, text)
            except Conflict as error:  # ended, or the transcript is full: nothing more to say here
                self.send({"type": "error", "message": str(error)})
                self._on_broken(error)
                return
            log.info("room %s: queued %.0f ms, speech-to-text %.0f ms (%s), turn begun %.0f ms", ident,
                     1000 * (started - utterance.ended), 1000 * (timing.heard - started),  # type: ignore[operator]
                     "begun early" if not isinstance(utterance.audio, np.ndarray) else "after the hang-over",
                     1000 * (time.monotonic() - timing.heard))  # type: ignore[operator]
            self.reply(turn, timing)

    def reply(self, turn: ReplyStream, timing: TurnTiming | None = None) -> asyncio.Task[Any]:
        """Writes and speaks a turn's reply (a voice turn's, with its `timing`, or a typed one's); the task ends
        once the reply is written and stored."""
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        first_audio = asyncio.Event()
        if self.voice is not None:
            self._reply_task(self._speak(lines, timing, first_audio))
        else:
            first_audio.set()
        self._writer = self._reply_task(self._write(turn, lines, timing, first_audio))
        return self._writer

    async def _write(self, turn: ReplyStream, lines: asyncio.Queue[str | None], timing: TurnTiming | None,
                     first_audio: asyncio.Event) -> None:
        """Takes the reply's pieces as they are written and hands each sentence on to be spoken once complete."""
        cutter, whole = SentenceCutter(), False
        if timing is not None:
            turn.set_metrics(timing.figures())  # kept up to date: a turn cut short is stored with what happened
        try:
            async for piece in turn:
                for line in cutter.feed(piece) + cutter.closed_first():
                    await self._line(lines, line, turn, timing, first_audio)
            for line in cutter.end():
                await self._line(lines, line, turn, timing, first_audio)
            whole = True
        except Unavailable as error:  # the engine broke off: what it said is spoken and kept; the room goes on
            self.send({"type": "error", "message": error.message})
        finally:
            lines.put_nowait(None)
            figures = timing.figures() if timing is not None else None
            if figures is not None:
                turn.set_metrics(figures)
            await turn.aclose()  # cut short (interrupted, hung up): the model stops; the part is kept, marked
            event: dict[str, Any] = {"type": "transcript", "role": "assistant", "content": turn.text()}
            if not whole:
                event["interrupted"] = True
            if figures is not None:
                event["metrics"] = figures
                self._report(figures)
            self.send(event)
            if whole and timing is not None:
                self.reply_latencies.append(time.monotonic() - timing.ended)

    async def _line(self, lines: asyncio.Queue[str | None], line: str, turn: ReplyStream, timing: TurnTiming | None,
                    first_audio: asyncio.Event) -> None:
        lines.put_nowait(line)
        if timing is not None and timing.replied is None:
            timing.replied = time.monotonic()
            turn.set_metrics(timing.figures())
            # The turn is stored when its last piece is taken; holding the rest until the first sentence is heard
            # lets it be stored with every figure (the voice plays from the queue meanwhile; nothing waits on it).
            await first_audio.wait()
            turn.set_metrics(timing.figures())

    async def _speak(self, lines: asyncio.Queue[str | None], timing: TurnTiming | None,
                     first_audio: asyncio.Event) -> None:
        """Speaks sentences as they come: each is synthesised while the one before plays."""
        try:
            while (line := await lines.get()) is not None:
                samples = await self.offload(synthesize_48k, self.speech, line, self.media.voice)
                if self._closed or self.voice is None:
                    return
                self.voice.play(samples, line)
                if not first_audio.is_set():
                    first_audio.set()
                    if timing is not None:
                        timing.first_audio = time.monotonic()
                        self.turn_latencies.append(timing.first_audio - timing.ended)
                        log.info("room %s: first reply audio queued %.0f ms after the end of speech",
                                 self.media.conversation_id, 1000 * self.turn_latencies[-1])
        finally:
            first_audio.set()

    def _report(self, figures: Figures) -> None:
        if self._observe is None:
            return
        stages: tuple[tuple[RoomTurnStage, str], ...] = (
            ("speech_to_text", "end_of_speech_to_text_ms"), ("reply", "text_to_reply_ms"),
            ("first_audio", "end_of_speech_to_first_audio_ms"))
        for stage, key in stages:
            value = figures.get(key)
            if value is not None:
                self._observe(stage, value / 1000)

    async def say(self, text: str) -> None:
        """Speaks a text that is no turn (a reply already stored elsewhere); an interruption stops it too."""
        if self.voice is None:
            return
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        for line in [*sentences(text), None]:
            lines.put_nowait(line)
        await self._speak(lines, None, asyncio.Event())

    def speak_soon(self, text: str) -> None:
        self._reply_task(self.say(text))
