"""chunk_text: bounded by the given tokenizer, exact offsets, overlap, paragraph and sentence boundaries."""

from __future__ import annotations

import itertools
import re

import pytest

from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder
from avatar_service.core.knowledge.chunking import Chunk, chunk_text


def words(text: str) -> int:
    return len(text.split())


def sentence(i: int, length: int = 8) -> str:
    return " ".join(["Word"] + ["word"] * (length - 3) + [f"s{i}", "end."])


def check_invariants(text: str, chunks: list[Chunk], count, max_tokens: int) -> None:
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.text == chunk.text.strip() and chunk.text
        assert chunk.token_count == count(chunk.text) <= max_tokens
    # Nothing is lost: every non-space character lies in some chunk.
    covered = bytearray(len(text))
    for chunk in chunks:
        covered[chunk.start : chunk.end] = b"\x01" * (chunk.end - chunk.start)
    assert all(covered[i] or text[i].isspace() for i in range(len(text)))
    starts = [c.start for c in chunks]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_empty_and_short_texts() -> None:
    assert chunk_text("", words) == []
    assert chunk_text("  \n\n ", words) == []
    [only] = chunk_text("  One short sentence.  ", words)
    assert only == Chunk("One short sentence.", 3, 2, 21)


def test_chunks_respect_the_limit_and_overlap_by_whole_sentences() -> None:
    text = " ".join(sentence(i) for i in range(60))  # 480 words, 8 per sentence
    chunks = chunk_text(text, words, max_tokens=50, overlap_tokens=10)
    check_invariants(text, chunks, words, 50)
    assert len(chunks) > 9
    for before, after in itertools.pairwise(chunks):
        assert after.start < before.end  # overlap...
        assert before.text.endswith(text[after.start : before.end])  # ...of the previous chunk's tail
        assert words(text[after.start : before.end]) <= 10
        assert text[after.start : after.start + 4] == "Word"  # starts at a sentence start


def test_no_overlap_when_asked_for_none() -> None:
    text = " ".join(sentence(i) for i in range(30))
    chunks = chunk_text(text, words, max_tokens=40, overlap_tokens=0)
    check_invariants(text, chunks, words, 40)
    assert all(b.start >= a.end for a, b in itertools.pairwise(chunks))


def test_paragraph_breaks_are_preferred() -> None:
    paragraphs = [" ".join(sentence(p * 10 + i) for i in range(4)) for p in range(6)]  # 32 words each
    text = "\n\n".join(paragraphs)
    chunks = chunk_text(text, words, max_tokens=80, overlap_tokens=0)
    check_invariants(text, chunks, words, 80)
    # Two paragraphs (64 words) fit; a third does not, so each chunk ends where a paragraph ends.
    for chunk in chunks:
        assert text[chunk.end : chunk.end + 2] in ("\n\n", "")


def test_a_heading_stays_with_its_paragraph() -> None:
    body = " ".join(sentence(i) for i in range(5))  # 40 words
    text = f"{body}\n\n## Next section\n\n{body}"
    chunks = chunk_text(text, words, max_tokens=60, overlap_tokens=0)
    assert chunks[0].text == body
    assert chunks[1].text.startswith("## Next section")


def test_sentences_are_not_split_at_abbreviations_or_list_numbers() -> None:
    text = "Dr. Smith met Mr. J. R. Jones at 5 p.m. on Main St. today. " * 5 + "\n1. First item\n2. Second item"
    # A 13-word sentence cannot be overlap (5); had it been cut, a chunk would start inside it.
    chunks = chunk_text(text, words, max_tokens=26, overlap_tokens=5)
    assert all(c.text.startswith(("Dr. Smith", "1. First")) for c in chunks)
    assert chunks[-1].text.endswith("1. First item\n2. Second item")


def test_a_sentence_longer_than_a_chunk_is_split_by_words() -> None:
    text = " ".join(f"w{i}" for i in range(250)) + "."
    chunks = chunk_text(text, words, max_tokens=100, overlap_tokens=0)
    check_invariants(text, chunks, words, 100)
    assert [c.token_count for c in chunks] == [100, 100, 50]


def test_a_word_longer_than_a_chunk_is_split_by_characters() -> None:
    def chars(text: str) -> int:
        return len(text)

    text = "short start. " + "x" * 95 + " end."
    chunks = chunk_text(text, chars, max_tokens=30, overlap_tokens=5)
    check_invariants(text, chunks, chars, 30)


def test_rejects_bad_limits() -> None:
    with pytest.raises(ValueError):
        chunk_text("x", words, max_tokens=0)
    with pytest.raises(ValueError):
        chunk_text("x", words, max_tokens=10, overlap_tokens=10)


def test_minilm_chunks_fit_the_model_window(minilm: MiniLMEmbedder) -> None:
    paragraph = (
        "Photosynthesis converts light energy into chemical energy. Chlorophyll absorbs mostly blue and red "
        "light, reflecting green. The Calvin cycle fixes carbon dioxide into sugars, and the whole process "
        "releases oxygen. Unbelievably, antidisestablishmentarianism-like words split into many pieces. "
    )
    text = "\n\n".join(paragraph * (i % 3 + 1) for i in range(20)) + " " + "https://example.com/" + "a" * 900
    chunks = chunk_text(text, minilm.count_tokens, max_tokens=200, overlap_tokens=30)
    check_invariants(text, chunks, minilm.count_tokens, 200)
    assert all(c.token_count <= minilm.max_tokens for c in chunks)
    # Word pieces, not words: the count is well above a whitespace split.
    assert sum(minilm.count_tokens(c.text) for c in chunks) > sum(len(re.findall(r"\S+", c.text)) for c in chunks)
