"""Feelings the user says they have ("I'm so stressed"), for the offline answerer's empathy."""

from __future__ import annotations

import re
from dataclasses import dataclass

from avatar_service.adapters.dialogue.terms import words
from avatar_service.core.text.lexicon import WH_WORDS

EMOTIONS: dict[str, str] = {}
for _kind, _words in {
    "sad": "sad unhappy depressed upset lonely miserable heartbroken grieving crying hurt gloomy",
    "stressed": "stressed stress stressful overwhelmed anxious anxiety worried worry nervous scared afraid "
    "frightened panicking panicked tense",
    "angry": "angry mad furious annoyed frustrated frustrating irritated pissed",
    "tired": "tired exhausted drained sleepy",
    "happy": "happy glad excited thrilled delighted proud overjoyed ecstatic cheerful joyful relieved "
    "grateful thankful stoked pumped",
}.items():
    for _w in _words.split():
        EMOTIONS[_w] = _kind
# ("under pressure" is a feeling; "blood pressure" and "tyre pressure" are not)
_NEGATIVE_PHRASES = {"bad day": "sad", "rough day": "sad", "hard time": "sad", "burned out": "tired",
                     "under pressure": "stressed", "so much pressure": "stressed", "lot of pressure": "stressed"}
_AS_FELT = {"stress": "stressed", "stressful": "stressed", "anxiety": "anxious", "worry": "worried"}  # "feeling {word}"
_SELF = frozenset(["i", "i'm", "im", "i've", "i'd", "me", "my", "myself", "feel", "feeling", "felt"])
# asking to be told again what the user said: a question about their memories, whatever words it holds
_RECALLING = re.compile(r"\b(?:remind me|do you (?:know|remember|recall)|did i (?:say|tell you|mention)|"
                        r"have i (?:said|told you|mentioned))\b", re.I)
_BODY_OWNERS = frozenset(["my", "his", "her", "their", "our", "your", "a", "the", "myself", "himself", "herself",
                          "themselves", "itself"])
_NEGATORS = frozenset(["not", "no", "never", "don't", "didn't", "isn't", "wasn't", "aren't", "hardly"])


@dataclass(frozen=True, slots=True)
class Emotion:
    kind: str  # sad | stressed | angry | tired | happy
    word: str

    @property
    def positive(self) -> bool:
        return self.kind == "happy"


def detect_emotion(text: str) -> Emotion | None:
    """The feeling the user says they have ("I'm so stressed"), not feelings they ask about."""
    ws = words(text)
    if not _SELF.intersection(ws) or (ws and ws[0] in WH_WORDS) or _RECALLING.search(text):
        return None  # "what am I scared of?", "remind me what makes me nervous": a fact asked for, not a feeling
    lowered = " ".join(ws)
    for phrase, kind in _NEGATIVE_PHRASES.items():
        if phrase in lowered:
            return Emotion(kind, "under pressure" if "pressure" in phrase else phrase)
    for i, w in enumerate(ws):
        felt = EMOTIONS.get(w)
        if felt is None:
            continue
        if WH_WORDS.intersection(ws[:i]) and text.rstrip().endswith("?"):
            return None  # "so which part makes me nervous?": the feeling is what the question is about
        if w == "hurt" and ws[i + 1 : i + 2] and ws[i + 1] in _BODY_OWNERS:
            continue  # "she's hurt her knee": an injury, not a feeling
        if _NEGATORS.intersection(ws[max(0, i - 3) : i]):
            # "not happy" is a low mood; "not sad" is no emotion worth answering
            if felt == "happy":
                return Emotion("sad", "unhappy")
            continue
        return Emotion(felt, _AS_FELT.get(w, w))
    return None
