"""Speech over the avatar's voice: an interruption, a backchannel ("uh-huh"), or the avatar's own echo.

When the VAD hears speech while the reply plays, the voice pauses at once (within a frame), so a real
interruption feels immediate. What happens next depends on what it was:

- it goes on past `BACKCHANNEL_SECONDS`: an interruption; the reply is cut and its writing stopped;
- it ends sooner: its words decide. Nothing, a backchannel ("uh-huh", "yeah", "okay", "right"...) or words of
  the reply itself (an echo the canceller let through) resume the reply where it paused and are no turn;
  anything else ("stop", "wait", "no") is an interruption and a turn of its own.
"""

from __future__ import annotations

import re

BACKCHANNEL_SECONDS = 0.6
# Short acknowledgements that mean "go on", not "stop": said while listening, not to take the turn.
BACKCHANNELS = frozenset({
    "uh", "huh", "uh-huh", "uhhuh", "mhm", "mm", "mmm", "hmm", "hm", "mm-hmm", "mmhmm", "yeah", "yes", "yep", "yup",
    "ok", "okay", "right", "sure", "aha", "ah", "oh", "i", "see", "cool", "nice", "great", "got", "it", "alright",
    "all", "true", "exactly", "indeed", "wow", "really", "ha", "haha",
})
_WORD = re.compile(r"[a-z0-9']+(?:-[a-z0-9']+)*")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def is_backchannel(text: str) -> bool:
    """True for nothing at all or a few words that are all acknowledgements ("uh-huh", "okay, I see")."""
    said = words(text)
    return len(said) <= 3 and all(word in BACKCHANNELS for word in said)


def is_echo(text: str, spoken: str) -> bool:
    """True when what was heard is made of the words the avatar is saying (its own voice, come back)."""
    heard, said = words(text), set(words(spoken))
    if not heard or not said:
        return False
    return sum(word in said for word in heard) >= max(1, round(0.75 * len(heard)))


def keeps_reply(text: str, spoken: str) -> bool:
    """Whether a short stretch of speech over the reply lets it play on."""
    return is_backchannel(text) or is_echo(text, spoken)
