"""Lexical fallback embedder: hashed word and character n-grams, for when no sentence model is installed."""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Sequence

import numpy as np

from avatar_service.core.text.lexicon import FUNCTION_WORDS

# Words and single punctuation marks, the split BERT's pre-tokenizer makes: the documented token unit of
# this embedder (`count_tokens`). It under-counts word pieces a little; chunks stay well inside any window.
_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# Function words carry no topic; leaving them out keeps "where do I live" from matching every "do I". The
# extraction's "User" subject and the pieces of split contractions ("don't" -> "don", "t") go too.
_STOPWORDS = FUNCTION_WORDS | {"user", "users", "s", "t", "d", "ll", "m", "re", "ve"}

_WORD_WEIGHT = 1.0
_BIGRAM_WEIGHT = 0.5
_CHAR_WEIGHT = 0.35  # char n-grams let "cooking" meet "cook" and "Lisbon" meet "Lisboa"
_CHAR_SIZES = (3, 4, 5)


def _hash(feature: str) -> int:
    # crc32 is stable across processes (Python's hash() is salted per process), which stored vectors need.
    return zlib.crc32(feature.encode("utf-8"))


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def _stem(word: str) -> str:
    # A light suffix strip so plurals and -ing/-ed forms share a word feature. Not the Snowball stemmer the
    # answerer uses: these features are hashed into stored vectors, and another stemmer would move them all.
    for suffix in ("ing", "edly", "ed", "ies", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


class LexicalEmbedder:
    """Signed feature hashing of stemmed words, word bigrams and character n-grams, tf log-scaled, L2."""

    name = "lexical-hash"

    def __init__(self, dimensions: int = 512, max_tokens: int = 256) -> None:
        self.dimensions = dimensions
        self._max_tokens = max_tokens

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def count_tokens(self, text: str) -> int:
        return len(_TOKEN.findall(text))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, weight in self._features(text).items():
                h = _hash(feature)
                # The top bit picks the sign, so colliding features tend to cancel instead of adding up.
                out[row, h % self.dimensions] += weight if h & 0x80000000 else -weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.clip(norms, 1e-12, None)

    def _features(self, text: str) -> dict[str, float]:
        words = [w for w in _WORD.findall(_fold(text)) if w not in _STOPWORDS]
        stems = [_stem(w) for w in words]
        counts: Counter[str] = Counter()
        for stem in stems:
            counts["w:" + stem] += 1
        for left, right in itertools.pairwise(stems):
            counts[f"b:{left}_{right}"] += 1
        char_counts: Counter[str] = Counter()
        for word in words:
            padded = f"<{word}>"
            for size in _CHAR_SIZES:
                for i in range(len(padded) - size + 1):
                    char_counts["c:" + padded[i : i + size]] += 1
        weights: dict[str, float] = {}
        for feature, n in counts.items():
            base = _WORD_WEIGHT if feature.startswith("w:") else _BIGRAM_WEIGHT
            weights[feature] = base * (1.0 + math.log(n))
        # Character n-grams are many per word: scale them so they add up to about the word features' weight.
        if char_counts:
            scale = _CHAR_WEIGHT * math.sqrt(max(len(stems), 1) / sum(char_counts.values()))
            for feature, n in char_counts.items():
                weights[feature] = scale * (1.0 + math.log(n))
        return weights
