"""The everyday phrases (everyday_phrases.PHRASES) applied to a sentence, each tried only where it could match.

A knowledge sentence the answerer has not read before is read once: its phrases replaced, its words stemmed. Tried
one by one, the 120-odd phrase patterns cost about half a millisecond a sentence (Python's `re` tries every pattern
at every position), nine tenths of reading it, and a turn's first answer reads some 50 new sentences. But every
pattern needs some literal letters to match ("turn up", "half-price for", "pm"): a pattern whose letters are all
absent from the sentence cannot match it and is not tried (`gate`). `tests/unit/dialogue/test_phrase_gates.py`
checks on every text of the evaluation that a gate never leaves out a pattern that matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence


def gate(pattern: str) -> frozenset[str]:
    """Lower-case runs of letters that every match of `pattern` holds at least one of ("own" of "on my own", "loud" or
    "noisy" of "not so loud"); empty when some match may hold none (the pattern is then always tried)."""
    source = _without_lookarounds(pattern)
    source = re.sub(r"\\[a-zA-Z]|\[(?:\\.|[^\]])*\]|\(\?[a-zA-Z]+\)", " ", source)
    sure = [_sure(alternative) for alternative in _top_level_alternatives(source)]
    return frozenset().union(*sure) if all(sure) else frozenset()  # type: ignore[arg-type]


def _sure(alternative: str) -> frozenset[str] | None:
    """Runs of letters of which every match of `alternative` holds one: its longest run outside any group, or else
    the runs of whichever group it always goes through whose branches each hold the longest such runs."""
    outside, groups = [], []
    depth, start, i = 0, 0, 0
    while i < len(alternative):
        ch = alternative[i]
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                after = alternative[i + 1:i + 4]
                if not (after[:1] in ("?", "*") or after.startswith(("{0", "{,"))):
                    groups.append(alternative[start + 1:i].removeprefix("?:"))
                outside.append(" ")
        elif depth == 0:
            outside.append(ch)
        i += 1
    runs = re.findall(r"[a-z]{2,}", re.sub(r"[a-zA-Z][?*]|\{\d*,?\d*\}", " ", "".join(outside)).lower())
    if runs:
        return frozenset((max(runs, key=len),))
    best: frozenset[str] | None = None
    for inner in groups:
        branches = [_sure(branch) for branch in _top_level_alternatives(inner)]
        if all(branches):
            held = frozenset().union(*branches)  # type: ignore[arg-type]
            if best is None or min(map(len, held)) > min(map(len, best)):
                best = held
    return best


def _without_lookarounds(pattern: str) -> str:
    """The pattern without its lookaheads and lookbehinds, whose letters a match does not hold (or must not)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            depth, j = 0, i
            while j < len(pattern):
                if pattern[j] == "\\":
                    j += 2
                    continue
                depth += {"(": 1, ")": -1}.get(pattern[j], 0)
                j += 1
                if depth == 0:
                    break
            i = j
            continue
        out.append(pattern[i:i + 2] if pattern[i] == "\\" else pattern[i])
        i += 2 if pattern[i] == "\\" else 1
    return "".join(out)


def _top_level_alternatives(source: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(source):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
    return [*parts, source[start:]]


class Phrases:
    """Compiled phrase patterns with their gates, applied in order (a later pattern reads what an earlier wrote)."""

    def __init__(self, phrases: Sequence[tuple[str, str]]) -> None:
        self.compiled = [(re.compile(p, re.I), r, gate(p)) for p, r in phrases]
        self.letters = sorted(frozenset().union(*(letters for _, _, letters in self.compiled)))

    def candidates(self, text: str) -> Iterator[tuple[re.Pattern[str], str]]:
        """The patterns that may match `text`, with their replacements."""
        held = self._held(text)
        for pattern, replacement, letters in self.compiled:
            if not letters or not letters.isdisjoint(held):
                yield pattern, replacement

    def apply(self, text: str) -> str:
        """`text` with every phrase replaced by what it says, in order."""
        held = self._held(text)
        for pattern, replacement, letters in self.compiled:
            if (not letters or not letters.isdisjoint(held)) and pattern.search(text):
                text = pattern.sub(replacement, text)
                held = self._held(text)
        return text

    def _held(self, text: str) -> set[str]:
        """The gates' runs of letters that `text` holds (one pass over them all, not one a pattern)."""
        lowered = text.lower()
        return {w for w in self.letters if w in lowered}
