"""A phrase pattern is tried only on text that holds one of its gate's runs of letters (phrase_gates.gate): no text
of the evaluation that a pattern matches lacks them, so the gate changes no reading, only its cost."""

from __future__ import annotations

import json
import re
from pathlib import Path

from avatar_service.adapters.dialogue.everyday_phrases import PHRASES
from avatar_service.adapters.dialogue.phrase_gates import Phrases, gate
from avatar_service.core.text.sentences import answer_sentences

DATA = Path(__file__).resolve().parents[2] / "data" / "dialogue_eval.json"


def _texts() -> list[str]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for spec in data["personalities"]:
        out += [s for item in spec["knowledge"] for s in answer_sentences(item["content"])]
        out += [q["q"] for conversation in spec["conversations"] for q in conversation]
        out += [m["content"] for m in spec["user"]["memories"]]
    return out


def test_a_gate_never_leaves_out_a_pattern_that_matches() -> None:
    texts = _texts()
    for pattern, _ in PHRASES:
        letters, compiled = gate(pattern), re.compile(pattern, re.I)
        assert letters, pattern  # (every pattern of the table has one)
        missed = [t for t in texts if compiled.search(t) and not any(w in t.lower() for w in letters)]
        assert not missed, (pattern, missed[:3])


def test_gates_of_alternatives_groups_and_optional_parts() -> None:
    assert gate(r"\bon (?:my|his|her) own\b|\bunaccompanied\b") == {"own", "unaccompanied"}
    assert gate(r"\b(?:isn't|not|less) (?:so |too )?(?:loud|noisy)\b") == {"loud", "noisy"}
    assert gate(r"\b(?:log|wood)[- ]?burners?\b") == {"burner"}
    assert gate(r"\b(?:[7-9]|1[01])(?:[.:][0-5]\d)? ?pm\b") == {"pm"}
    assert gate(r"\bcall(?:ing)? off\b(?! (?:if|when)\b)") == {"call"}
    assert gate(r"\b\d+%") == frozenset()  # no letters: always tried


def test_phrases_apply_in_order_as_before() -> None:
    phrases = Phrases([(r"\btill\b", "until"), (r"\buntil when\b", "what time")])
    assert phrases.apply("open till when?") == "open what time?"
    assert phrases.apply("nothing to replace") == "nothing to replace"
