"""The one sentence splitter: knowledge chunking, memory extraction and the offline answerer all use it.

A sentence ends at . ! ? or … (with any closing quotes or brackets) before whitespace, or at a line break
(list items, headings and verse are one line each). A full stop does not end a sentence after a title or
short form ("Dr. Vos", "St. Mary's", "e.g. rye"), after a single initial ("J. R. R. Tolkien"), after the
number of a list item ("6. Conversations") or when the next word starts in lower case ("at 5 p.m. on
Main St."). Numbers such as 22.50 never split: their dot is not followed by whitespace.
"""

from __future__ import annotations

import functools
import re

from avatar_service.core.text.lexicon import ABBREVIATIONS

_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|[.!?…]+[\"'”’)\]]*$|\n")
_TIMES = frozenset(["a.m", "p.m"])  # "closes at 5 p.m. The cafe..." ends there when a capital follows


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence of text[start:end], surrounding whitespace trimmed, in order."""
    end = len(text) if end is None else end
    pieces: list[tuple[int, int]] = []
    cursor = start
    for match in _SENTENCE_END.finditer(text, start, end):
        if match.group() != "\n" and _goes_on(text, cursor, match.start(), match.end()):
            continue
        pieces.append((cursor, match.end()))
        cursor = match.end()
    pieces.append((cursor, end))
    return [trimmed for s, e in pieces if (trimmed := trim_span(text, s, e))]


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, each as written (whitespace around it trimmed)."""
    return [text[s:e] for s, e in sentence_spans(text)]


_BULLET = re.compile(r"^\s*(?:[#>*\-•]+|\d+[.)])\s*")
_WORD = re.compile(r"[A-Za-z0-9]+")
_PRICED = re.compile(r"[£$€]\s?\d")


def answer_sentences(chunk: str) -> list[str]:
    """The sentences of a knowledge chunk that can answer a question: list bullets and numbers taken off,
    headings and other pieces of fewer than three words (and no price) left out. The offline answerer ranks these,
    and the per-process cache of sentence embeddings (core.services.sentence_vectors) is keyed by them."""
    return list(_answer_sentences(chunk))


@functools.lru_cache(maxsize=4096)  # a turn reads its chunks' sentences twice, and the next turns the same chunks
def _answer_sentences(chunk: str) -> tuple[str, ...]:
    out = []
    for sentence in split_sentences(chunk):
        sentence = _BULLET.sub("", sentence).strip()
        if len(_WORD.findall(sentence)) >= 3 or _PRICED.search(sentence):  # ("Adults £12." is no heading)
            out.append(sentence)
    return tuple(out)


def _goes_on(text: str, start: int, stop: int, after: int) -> bool:
    """Whether the full stop at text[stop] is not the end of a sentence (see the module docstring)."""
    if text[stop] != ".":
        return False
    rest = text[after : after + 8].lstrip()
    if rest and rest[0].islower():
        return True
    before = text[start:stop].split()
    if not before:
        return True
    word = before[-1].lower().lstrip("(\"'“")
    if word == "no":  # "No. 5" is a number; "I said no." ends a sentence
        return bool(rest) and rest[0].isdigit()
    if word in _TIMES:
        return False
    return (
        word in ABBREVIATIONS
        or (len(word) == 1 and word.isalpha() and word != "i")
        or ("." in word and word.replace(".", "").isalpha())  # "U.S." and other dotted short forms
        or (len(before) == 1 and word.isdigit())
    )


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """text[start:end] without the whitespace around it, as (start, end); None when nothing else is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def sentence_pieces(text: str) -> list[str]:
    """The reply cut after each sentence; joined back they give the reply exactly."""
    ends = [end for _, end in sentence_spans(text)]
    pieces, start = [], 0
    for end in ends[:-1]:
        pieces.append(text[start:end])
        start = end
    pieces.append(text[start:])
    return [p for p in pieces if p]
