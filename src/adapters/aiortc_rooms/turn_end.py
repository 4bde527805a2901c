"""Whether a turn's words read finished. A pause inside a question ("What time does the ... museum open?") ends the
VAD's utterance, not the question: a turn whose words stop on a word no English sentence ends with waits
`CONTINUATION_SECONDS` for more speech and, if it comes, is one turn with it (the VAD heard one question as two).

Only the last word is read, and only words that cannot end a sentence count ("the", "of", "and", "my"...): "I
like that" or "yes, it is" end a turn at once, as does anything Whisper closed with "?" or "!". The cost of a
wrong guess is the wait, once.
"""

from __future__ import annotations

from avatar_service.adapters.aiortc_rooms.barge_in import words

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
