"""Speech over the avatar's voice: an interruption, a backchannel ("uh-huh"), or the avatar's own echo.

When the VAD hears speech while the reply plays, the voice pauses at once (within a frame), so a real
interruption feels immediate. What happens next depends on what it was:

- it goes on past `BACKCHANNEL_SECONDS` of the participant's voice: an interruption; the reply is cut and its
  writing stopped. Only the time in which the voice stands out of the echo the reply predicts counts
  (`echo_doubletalk`): an echo the canceller let through is no voice of theirs however long it lasts;
- it ends sooner: its words decide. Nothing, a backchannel ("uh-huh", "yeah", "okay", "right"...) or words of
  what the avatar said in the last seconds (an echo the canceller let through), or one word over and over (what
  Whisper makes of noise: "Enter. Enter. Enter.") resume the reply where it paused
  and are no turn; anything else ("stop", "wait", "no") is an interruption and a turn of its own, unless it
  is a few words of which hardly any stood out of the echo (`WEAK_SECONDS`): that is held for `HOLD_SECONDS`,
  then resumed as an echo (Whisper makes "Thank you." of a garbled echo), unless more speech comes meanwhile,
  which then decides with the words of both (a question the VAD split in two). A plain request to stop
  ("stop", "wait", "hold on"...) is never held: said over a reply before the canceller has learnt whether an
  echo comes back at all, it may not stand out of the echo assumed meanwhile, and it means what it says.
"""

from __future__ import annotations

import itertools
import re

BACKCHANNEL_SECONDS = 0.6
WEAK_SECONDS = 0.15  # less of the participant's voice than this standing out of the echo: maybe no voice of theirs
WEAK_WORDS = 4  # what Whisper makes of an echo it cannot read is this short ("Thank you.", "Hold.", "That's it.")
HOLD_SECONDS = 0.6
SAID_SECONDS = 3.0  # an echo carries words the avatar said this long ago at most (round trip, and the utterance)
# Short acknowledgements that mean "go on", not "stop": said while listening, not to take the turn. "Thank you"
# and "you" are also what Whisper makes of an echo or a breath (seen as turns in bench/room_browser.py's echo runs).
BACKCHANNELS = frozenset({
    "thank", "thanks", "you",
    "uh", "huh", "uh-huh", "uhhuh", "mhm", "mm", "mmm", "hmm", "hm", "mm-hmm", "mmhmm", "yeah", "yes", "yep", "yup",
    "ok", "okay", "right", "sure", "aha", "ah", "oh", "i", "see", "cool", "nice", "great", "got", "it", "alright",
    "all", "true", "exactly", "indeed", "wow", "really", "ha", "haha", "that's", "thats", "fine", "good", "perfect",
    "lovely",
})
# Words that mean it when said over and over ("no, no, no"), unlike Whisper's repetitions of noise
MEANT_REPEATED = frozenset({"no", "nope", "what", "sorry", "hello", "hey", "hi"})
# Words that ask the avatar to stop: taken at their word even when they hardly stood out of the echo. Not "hold"
# alone, which Whisper makes of a garbled echo.
STOP_WORDS = frozenset({"stop", "wait", "pause", "enough", "quiet", "hush", "shush"})
STOP_PHRASES = (("hold", "on"), ("hang", "on"), ("shut", "up"), ("one", "moment"), ("one", "second"))
_WORD = re.compile(r"[a-z0-9']+(?:-[a-z0-9']+)*")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def is_backchannel(text: str) -> bool:
    """True for nothing at all or a few words that are all acknowledgements ("uh-huh", "okay, I see")."""
    said = words(text)
    return len(said) <= 3 and all(word in BACKCHANNELS for word in said)


def _stem(word: str) -> str:
    """A word without its commonest endings, as Whisper may hear an echo's "opens" as "open", "Sundays" as
    "Sunday"."""
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def is_echo(text: str, spoken: str) -> bool:
    """True when what was heard is made of the words the avatar is saying (its own voice, come back)."""
    heard, said = words(text), {_stem(word) for word in words(spoken)}
    if not heard or not said:
        return False
    return sum(_stem(word) in said for word in heard) >= max(1, round(0.75 * len(heard)))


def is_repetition(text: str) -> bool:
    """One word said three times or more and nothing else ("Enter. Enter. Enter."): what Whisper makes of noise or
    an echo it cannot read, not what people say."""
    said = words(text)
    return (len(said) >= 3 and len(set(said)) == 1 and said[0] not in MEANT_REPEATED
            and not asks_to_stop(text))  # "no, no, no" and "stop stop stop" mean it


def keeps_reply(text: str, spoken: str) -> bool:
    """Whether a short stretch of speech over the reply lets it play on."""
    return is_backchannel(text) or is_echo(text, spoken) or is_repetition(text)


class Overlap:
    """Speech over the paused reply so far: its voiced samples, and those in which the participant's voice stood
    out of the echo (`near`)."""

    def __init__(self, rate: int) -> None:
        self._rate = rate
        self.voiced = 0
        self.near = 0

    def feed(self, samples: int, near_end: float) -> bool:
        """A voiced frame and the share of it holding the participant's voice; True once it is an interruption."""
        self.voiced += samples
        if near_end > 0:
            self.near += samples
        return self.near >= (BACKCHANNEL_SECONDS - 0.1) * self._rate  # speech_start came ~0.1 s into it

    @property
    def weak(self) -> bool:
        """Hardly any of it stood out of an echo (short speech with no echo to stand out of is not weak)."""
        return self.near < min(WEAK_SECONDS * self._rate, 0.75 * self.voiced)


def asks_to_stop(text: str) -> bool:
    """True when the words ask the avatar to stop ("Wait, stop please.", "hold on")."""
    said = words(text)
    return any(word in STOP_WORDS for word in said) or any(pair in STOP_PHRASES for pair in itertools.pairwise(said))


def maybe_echo(text: str, weak: bool) -> bool:
    """A few words over the reply hardly louder than its echo: what Whisper made of the echo, or the first words of
    a question the VAD split in two. Not a request to stop.

    A lone word that did stand out is not held, though a misheard echo can be one ("towards." for "tours", seen in
    bench/room_browser.py on a loaded machine): held, a question Whisper caught only a word of ("toilets") never
    stopped the reply in bench/barge_in.py."""
    return weak and len(words(text)) <= WEAK_WORDS and not asks_to_stop(text)


class EarlyPause:
    """The participant's voice standing out of the echo for `frames` frames in a row pauses the reply before the VAD
    is sure: over a loud echo AEC3 damps their voice, and Silero may hear a first word ("Wait,") a second late or
    not at all. If the VAD has not heard speech `wait` frames later, the reply plays on (a hiccup)."""

    def __init__(self, frames: int = 3, wait: int = 25) -> None:
        self._frames, self._wait = frames, wait
        self._run = 0
        self._waiting: int | None = None  # frames left before playing on, while paused by this

    def feed(self, near_end: float, echo: bool, playing: bool, in_speech: bool) -> str | None:
        """One frame: "pause", "resume" or nothing to do."""
        if in_speech:  # the VAD heard it: its own rules take over
            self._run, self._waiting = 0, None
            return None
        if self._waiting is not None:
            self._waiting -= 1
            if self._waiting <= 0:
                self._waiting = None
                return "resume"
            return None
        self._run = self._run + 1 if echo and playing and near_end >= 1.0 else 0
        if self._run >= self._frames:
            self._run, self._waiting = 0, self._wait
            return "pause"
        return None
