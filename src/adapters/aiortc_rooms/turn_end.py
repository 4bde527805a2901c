"""Whether a turn's words read finished. A pause inside a question ("What time does the ... museum open?") ends the
VAD's utterance, not the question: a turn whose words stop on a word no English sentence ends with waits
`CONTINUATION_SECONDS` for more speech and, if it comes, is one turn with it (the VAD heard one question as two).

Only the last word is read, and only words that cannot end a sentence count ("the", "of", "and", "my"...): "I
like that" or "yes, it is" end a turn at once, as does anything Whisper closed with "?" or "!". The cost of a
wrong guess is the wait, once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from avatar_service.adapters.aiortc_rooms.barge_in import words

U = TypeVar("U")

CONTINUATION_SECONDS = 0.8
UNFINISHED_ENDINGS = frozenset({
    "a", "an", "the", "my", "your", "our", "their", "his", "its",
    "and", "or", "but", "because", "if", "than", "whether", "nor",
    "of", "to", "for", "with", "at", "from", "about", "into", "onto", "between", "during", "towards", "per",
})


def reads_unfinished(text: str) -> bool:
    """True for words that stop mid-sentence: "What time does the", "Can I bring my", "tickets for adults and"."""
    stripped = text.strip()
    if not stripped or stripped[-1] in "?!":
        return False
    if stripped.endswith(("...", "\u2026", ",", "-", "\u2014")):  # Whisper marks a trailing-off voice so
        return True
    said = words(stripped)
    return bool(said) and said[-1] in UNFINISHED_ENDINGS


async def rest_of_turn(utterances: asyncio.Queue[U], speaking: Callable[[], bool]) -> U | None:
    """The next utterance, if speech starts again (or one is queued) within `CONTINUATION_SECONDS`; else None."""
    deadline = time.monotonic() + CONTINUATION_SECONDS
    while utterances.empty() and not speaking():
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(0.02)
    return await utterances.get()
