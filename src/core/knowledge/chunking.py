"""Token-bounded text chunking with overlap, breaking at paragraphs first, then sentences, then words.

Sentences are split by `core.text.sentences`, the splitter memory extraction and the answerer use too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from avatar_service.core.text.sentences import sentence_spans, trim_span


@dataclass(frozen=True, slots=True)
class Chunk:
    """`text` is exactly `source[start:end]`; `token_count` is what `count_tokens` says of `text`."""

    text: str
    token_count: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Unit:
    start: int
    end: int
    tokens: int
    paragraph: int


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_WORD = re.compile(r"\S+")
_HEADING = re.compile(r"#{1,6}\s")

# A chunk is closed early at a paragraph break once it holds this share of `max_tokens`, so that chunks
# end where the author ended a thought instead of carrying the first lines of the next paragraph.
_PARAGRAPH_FILL = 0.5


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """Non-blank paragraphs of `text` (split at blank lines), whitespace trimmed."""
    pieces: list[tuple[int, int]] = []
    cursor = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        pieces.append((cursor, match.end()))
        cursor = match.end()
    pieces.append((cursor, len(text)))
    return [trimmed for s, e in pieces if (trimmed := trim_span(text, s, e))]


def _split_long(
    text: str, start: int, end: int, paragraph: int, count: Callable[[str], int], max_tokens: int
) -> list[_Unit]:
    """A sentence longer than a chunk: whole words packed up to max_tokens; a word too long, by characters."""
    units: list[_Unit] = []
    pending: tuple[int, int] | None = None
    for match in _WORD.finditer(text, start, end):
        s, e = match.span()
        if pending is not None and count(text[pending[0] : e]) <= max_tokens:
            pending = (pending[0], e)
            continue
        if pending is not None:
            units.append(_Unit(pending[0], pending[1], count(text[pending[0] : pending[1]]), paragraph))
        if count(text[s:e]) <= max_tokens:
            pending = (s, e)
            continue
        pending = None
        while s < e:  # a URL or a blob without spaces: the longest prefix that fits, found by bisection
            lo, hi = s + 1, e
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if count(text[s:mid]) <= max_tokens:
                    lo = mid
                else:
                    hi = mid - 1
            units.append(_Unit(s, lo, count(text[s:lo]), paragraph))
            s = lo
    if pending is not None:
        units.append(_Unit(pending[0], pending[1], count(text[pending[0] : pending[1]]), paragraph))
    return units


def _units(text: str, count: Callable[[str], int], max_tokens: int) -> list[_Unit]:
    units: list[_Unit] = []
    paragraph = 0
    for p_start, p_end in _paragraphs(text):
        for s, e in sentence_spans(text, p_start, p_end):
            tokens = count(text[s:e])
            if tokens <= max_tokens:
                units.append(_Unit(s, e, tokens, paragraph))
            else:
                units.extend(_split_long(text, s, e, paragraph, count, max_tokens))
        # A heading belongs to the paragraph under it, so a chunk never ends on one.
        if not _HEADING.match(text, p_start, p_end) or "\n" in text[p_start:p_end]:
            paragraph += 1
    return units


def chunk_text(
    text: str, count_tokens: Callable[[str], int], max_tokens: int = 200, overlap_tokens: int = 30
) -> list[Chunk]:
    """Split `text` into chunks of at most `max_tokens` tokens as `count_tokens` counts them.

    Units are sentences (or word runs of an overlong sentence) packed greedily; a chunk closes early at a
    paragraph break once half full. Each chunk after the first starts with whole trailing units of the
    previous one worth at most `overlap_tokens` (none when its last sentence alone is longer), so no
    chunk begins mid-sentence. Token counts are re-checked on the final text, since tokenizers need not
    be additive across the joins.
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    if not 0 <= overlap_tokens < max_tokens:
        raise ValueError("overlap_tokens must be in [0, max_tokens)")
    units = _units(text, count_tokens, max_tokens)
    chunks: list[Chunk] = []
    i = 0
    while i < len(units):
        first = i
        total = 0
        j = i
        while j < len(units):
            unit = units[j]
            if j > first and total + unit.tokens > max_tokens:
                break
            if (
                j > first
                and unit.paragraph != units[j - 1].paragraph
                and total >= _PARAGRAPH_FILL * max_tokens
                and total + _paragraph_tokens(units, j) > max_tokens
            ):
                break
            total += unit.tokens
            j += 1
        # Exact count of the joined text; drop trailing units until it fits (rare: non-additive joins).
        while True:
            start, end = units[first].start, units[j - 1].end
            tokens = count_tokens(text[start:end])
            if tokens <= max_tokens or j - 1 == first:
                break
            j -= 1
        chunks.append(Chunk(text[start:end], tokens, start, end))
        if j >= len(units):
            break
        i = _overlap_start(units, first, j, overlap_tokens, max_tokens)
    return chunks


def _paragraph_tokens(units: list[_Unit], j: int) -> int:
    paragraph = units[j].paragraph
    total = 0
    while j < len(units) and units[j].paragraph == paragraph:
        total += units[j].tokens
        j += 1
    return total


def _overlap_start(units: list[_Unit], first: int, end: int, overlap_tokens: int, max_tokens: int) -> int:
    """The first unit of the next chunk: back from `end` over units worth at most `overlap_tokens`."""
    start = end
    # Never so much overlap that the next new unit would not fit beside it: every chunk moves forward.
    budget = min(overlap_tokens, max_tokens - units[end].tokens)
    while start - 1 > first and units[start - 1].tokens <= budget:
        budget -= units[start - 1].tokens
        start -= 1
    return start
