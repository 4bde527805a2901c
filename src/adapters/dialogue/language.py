"""Light English text handling for the offline responder: terms, sentences, intents, emotions, memories."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# A sentence ends at . ! ? (or a line break) followed by something that can open a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])|\s*\n+\s*")
_BULLET = re.compile(r"^\s*(?:[#>*\-•]+|\d+[.)])\s*")

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren't",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "can't",
        "could",
        "couldn't",
        "did",
        "didn't",
        "do",
        "does",
        "doesn't",
        "doing",
        "don't",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "hadn't",
        "has",
        "hasn't",
        "have",
        "haven't",
        "having",
        "he",
        "he'd",
        "he'll",
        "he's",
        "her",
        "here",
        "here's",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "how's",
        "i",
        "i'd",
        "i'll",
        "i'm",
        "i've",
        "if",
        "in",
        "into",
        "is",
        "isn't",
        "it",
        "it's",
        "its",
        "itself",
        "let's",
        "me",
        "more",
        "most",
        "mustn't",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "shan't",
        "she",
        "she'd",
        "she'll",
        "she's",
        "should",
        "shouldn't",
        "so",
        "some",
        "such",
        "than",
        "that",
        "that's",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "there's",
        "these",
        "they",
        "they'd",
        "they'll",
        "they're",
        "they've",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "wasn't",
        "we",
        "we'd",
        "we'll",
        "we're",
        "we've",
        "were",
        "weren't",
        "what",
        "what's",
        "when",
        "when's",
        "where",
        "where's",
        "which",
        "while",
        "who",
        "who's",
        "whom",
        "why",
        "why's",
        "will",
        "with",
        "won't",
        "would",
        "wouldn't",
        "you",
        "you'd",
        "you'll",
        "you're",
        "you've",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "tell",
        "know",
        "please",
        "explain",
        "describe",
        "give",
        "thing",
        "things",
        "much",
        "many",
        "really",
        "just",
        "like",
        "get",
        "got",
        "want",
        "say",
        "said",
        "anything",
        "something",
        "everything",
        "okay",
        "ok",
        "well",
        "yes",
        "yeah",
        "hey",
        "hi",
        "hello",
        "thanks",
        "thank",
        "think",
        "kind",
        "sort",
        "lot",
        "lots",
        "bit",
        "maybe",
        "us",
        "one",
    ]
)

_QUESTION_OPENERS = frozenset(
    [
        "what",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "why",
        "how",
        "which",
        "is",
        "are",
        "am",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
        "would",
        "will",
        "should",
        "shall",
        "may",
        "might",
        "have",
        "has",
        "had",
        "tell",
        "explain",
        "describe",
        "name",
        "define",
    ]
)


def stem(word: str) -> str:
    """A crude suffix stripper: enough to match "rivers"/"river" or "studies"/"study" across texts."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 5 and w.endswith("ing"):
        return w[:-3]
    if len(w) > 4 and w.endswith("ed") and not w.endswith("eed"):
        return w[:-2]
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def content_terms(text: str) -> list[str]:
    """Stems of the words that carry meaning, in order, without repeats."""
    seen: dict[str, None] = {}
    for w in words(text):
        if w not in STOPWORDS and len(w) > 1:
            seen.setdefault(stem(w), None)
    return list(seen)


def is_question(text: str) -> bool:
    t = text.strip()
    if t.endswith("?"):
        return True
    first = words(t[:40])
    return bool(first) and first[0] in _QUESTION_OPENERS


def split_sentences(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text.strip()):
        part = _BULLET.sub("", part).strip()
        if len(words(part)) >= 3:
            out.append(part if part[-1] in ".!?\"')" else part + ".")
    return out


@dataclass(frozen=True, slots=True)
class Candidate:
    text: str
    score: float  # share of the question's weighted terms the sentence contains, plus small priors
    chunk: int
    position: int
    matched: bool = True  # False: shares no question term itself, only its chunk does (kept for elaboration)


# Words a question uses for what the material says differently ("how many people live" / "residents").
_RELATED_GROUPS = [
    "people resident population inhabitant citizen live",
    "build built construct constructed erect erected",
    "found founded establish established start started create created",
    "big large size area huge",
    "old age year",
    "cost price cheap expensive pay fee",
    "tall height high",
    "far distance away",
    "die died death",
    "born birth",
    "job work career profession",
    "eat food dish cuisine meal",
    "open hour time",
    "invent invented invention create created",
    "speak spoken language",
]
RELATED: dict[str, frozenset[str]] = {}
for _group in _RELATED_GROUPS:
    _stems = frozenset(stem(w) for w in _group.split())
    for _s in _stems:
        RELATED[_s] = RELATED.get(_s, frozenset()) | (_stems - {_s})


_NUMBER_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "hundred",
        "thousand",
        "million",
        "billion",
        "dozen",
        "half",
        "century",
        "decade",
    ]
)


def _has_new_number(sentence: str, asked: set[str]) -> bool:
    """A number the question did not already contain ("tram 28" does not answer "how much")."""
    return any((w[:1].isdigit() or w in _NUMBER_WORDS) and w not in asked for w in words(sentence)) or bool(
        re.search(r"\d{1,3}(,\d{3})+", sentence)
    )


def rank_sentences(
    query: dict[str, float], chunks: Sequence[str], question: str, exclude: str = ""
) -> list[Candidate]:
    """Sentences of the given chunks, best answer to ``query`` first (term weights, idf over these chunks).

    A question term counts fully when the sentence has it, 0.6 when it has a related word, and 0.3 when
    only the sentence's chunk has it (so "The city has 545,000 residents" still answers about Lisbon).
    """
    per_chunk = [split_sentences(chunk) for chunk in chunks]
    sentences = [(ci, si, s) for ci, ss in enumerate(per_chunk) for si, s in enumerate(ss)]
    if not sentences or not query:
        return []
    term_sets = [set(content_terms(s)) for _, _, s in sentences]
    chunk_terms: list[set[str]] = [set() for _ in per_chunk]
    for (ci, _, _), terms in zip(sentences, term_sets, strict=True):
        chunk_terms[ci] |= terms
    n = len(sentences)
    df: dict[str, int] = {}
    for terms in term_sets:
        for t in terms & query.keys():
            df[t] = df.get(t, 0) + 1
    # A question term absent from every sentence keeps the highest weight: the chunks cannot answer it.
    idf = {t: math.log(1.0 + n / (1 + df.get(t, 0))) for t in query}
    total = sum(idf[t] * w for t, w in query.items()) or 1.0
    q = question.lower()
    wants_number = bool(re.search(r"\b(how (many|much|old|long|far|tall|big)|when|what year|what date)\b", q))
    said = exclude.lower()  # sentences the previous reply already quoted (inside its own lead-ins)
    asked = set(words(question))
    ranked = []
    for (ci, si, text), terms in zip(sentences, term_sets, strict=True):
        if said and text.lower().rstrip(".!?") in said:
            continue
        direct = related = context = 0.0
        for t, w in query.items():
            if t in terms:
                direct += idf[t] * w
            elif RELATED.get(t, frozenset()) & terms:
                related += 0.6 * idf[t] * w
            elif t in chunk_terms[ci]:
                context += 0.3 * idf[t] * w
        score = (direct + related + context) / total + 0.04 / (1 + ci) + (0.01 if si == 0 else 0.0)
        if wants_number and _has_new_number(text, asked):
            score += 0.1
        ranked.append(Candidate(text, score, ci, si, matched=direct + related > 0))
    ranked.sort(key=lambda c: (not c.matched, -c.score, c.chunk, c.position))
    return ranked


# --- emotions --------------------------------------------------------------------------------------------

EMOTIONS: dict[str, str] = {}
for _kind, _words in {
    "sad": "sad unhappy depressed upset lonely miserable heartbroken grieving crying hurt gloomy",
    "stressed": "stressed stress stressful overwhelmed anxious anxiety worried worry nervous scared afraid "
    "frightened panicking panicked tense pressure",
    "angry": "angry mad furious annoyed frustrated frustrating irritated pissed",
    "tired": "tired exhausted drained sleepy",
    "happy": "happy glad excited thrilled delighted proud overjoyed ecstatic cheerful joyful relieved "
    "grateful thankful stoked pumped",
}.items():
    for _w in _words.split():
        EMOTIONS[_w] = _kind
_NEGATIVE_PHRASES = {"bad day": "sad", "rough day": "sad", "hard time": "sad", "burned out": "tired"}
_SELF = frozenset(["i", "i'm", "im", "i've", "i'd", "me", "my", "myself", "feel", "feeling", "felt"])
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
    if not _SELF.intersection(ws):
        return None
    lowered = " ".join(ws)
    for phrase, kind in _NEGATIVE_PHRASES.items():
        if phrase in lowered:
            return Emotion(kind, phrase)
    for i, w in enumerate(ws):
        felt = EMOTIONS.get(w)
        if felt is None:
            continue
        if _NEGATORS.intersection(ws[max(0, i - 3) : i]):
            # "not happy" is a low mood; "not sad" is no emotion worth answering
            if felt == "happy":
                return Emotion("sad", "unhappy")
            continue
        return Emotion(felt, w)
    return None


# --- memories ----------------------------------------------------------------------------------------

_NAME_IN_MEMORY = [
    re.compile(r"\bname is ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"),
    re.compile(r"\b(?:is called|goes by|prefers to be called|likes to be called) ([A-Z][\w'-]+)"),
    re.compile(r"^([A-Z][\w'-]+) is the user'?s name"),
]
_NAME_IN_TURN = re.compile(
    r"\b(?:my name is|my name's|call me|i'm called|i am called)\s+([A-Za-z][\w'-]+)", re.I
)


def name_from(memories: Sequence[str]) -> str | None:
    for memory in memories:
        for pattern in _NAME_IN_MEMORY:
            m = pattern.search(memory)
            if m:
                return m.group(1)
    return None


def name_in_turn(text: str) -> str | None:
    m = _NAME_IN_TURN.search(text)
    if not m or m.group(1).lower() in STOPWORDS:
        return None
    return m.group(1)[:1].upper() + m.group(1)[1:]


_SUBJECT = re.compile(r"^(?:the user's|user's|users'|the user|user|they|he|she)\b\s*", re.I)
_FIRST_PERSON = [
    (re.compile(r"\bI am\b"), "you are"),
    (re.compile(r"\bI'm\b"), "you're"),
    (re.compile(r"\bI've\b"), "you've"),
    (re.compile(r"\bI\b"), "you"),
    (re.compile(r"\b[Mm]y\b"), "your"),
    (re.compile(r"\b[Mm]e\b"), "you"),
]
_IRREGULAR = {
    "is": "are",
    "was": "were",
    "has": "have",
    "does": "do",
    "isn't": "aren't",
    "wasn't": "weren't",
    "hasn't": "haven't",
    "doesn't": "don't",
    "'s": "'re",
}


def _base_verb(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


_USER_PRONOUNS = [
    (re.compile(r"\bthey were\b"), "you were"),
    (re.compile(r"\bthey are\b"), "you are"),
    (re.compile(r"\bthey're\b"), "you're"),
    (re.compile(r"\bthey\b"), "you"),
    (re.compile(r"\bthemselves\b"), "yourself"),
    (re.compile(r"\bthem\b"), "you"),
    (re.compile(r"\btheir\b"), "your"),
]


def second_person(memory: str, user_name: str | None = None) -> str:
    """ "User lives in Lisbon" -> "you live in Lisbon"; "User's dog is Rex" -> "your dog is Rex".

    Memory extraction writes facts in the third person with "User" (or "they") for the user; first-person
    notes ("I live in Porto") and bare predicates ("Likes hiking") are turned around too.
    """
    text = memory.strip().rstrip(".")
    if user_name:
        text = re.sub(rf"^{re.escape(user_name)}\b", "User", text)
    m = _SUBJECT.match(text)
    if m:
        subject = m.group(0).strip().lower()
        rest = text[m.end() :]
        if subject.endswith("'s") or subject.endswith("'"):
            text = "your " + rest
        else:
            verb, _, tail = rest.partition(" ")
            if verb.endswith("ly") and tail:  # "usually calls their mum": the verb comes second
                second, _, tail = tail.partition(" ")
                verb = f"{verb} {_base_verb(second) if second.islower() else second}"
            elif verb.islower():
                verb = _base_verb(verb)
            text = f"you {verb} {tail}".rstrip()
        for pattern, repl in _USER_PRONOUNS:
            text = pattern.sub(repl, text)
    elif text.lower().startswith(("you ", "your ")):
        pass
    elif re.match(r"^(I|My|I'm)\b", text):
        for pattern, repl in _FIRST_PERSON:
            text = pattern.sub(repl, text)
    else:
        # A bare predicate ("Likes hiking"): read it as said of the user; anything else is quoted as is.
        first, _, tail = text.partition(" ")
        if first.lower().endswith("s") and first[:1].isupper() and tail:
            text = f"you {_base_verb(first.lower())} {tail}"
        else:
            return "this: " + text[:1].lower() + text[1:]
    return text[:1].lower() + text[1:]


MEMORY_TOPICS: dict[str, frozenset[str]] = {
    "location": frozenset(
        [
            "live",
            "lives",
            "living",
            "lived",
            "based",
            "from",
            "moved",
            "home",
            "city",
            "town",
            "country",
            "reside",
            "resides",
            "address",
        ]
    ),
    "likes": frozenset(
        [
            "like",
            "likes",
            "love",
            "loves",
            "enjoy",
            "enjoys",
            "favorite",
            "favourite",
            "prefer",
            "prefers",
            "fan",
            "hobby",
            "hobbies",
            "into",
            "passion",
            "passionate",
        ]
    ),
    "work": frozenset(
        [
            "work",
            "works",
            "working",
            "job",
            "career",
            "employed",
            "engineer",
            "teacher",
            "doctor",
            "profession",
        ]
    ),
    "family": frozenset(
        [
            "wife",
            "husband",
            "partner",
            "son",
            "daughter",
            "kid",
            "kids",
            "child",
            "children",
            "mother",
            "father",
            "mom",
            "dad",
            "sister",
            "brother",
            "dog",
            "cat",
            "pet",
        ]
    ),
}

_SELF_QUESTIONS: list[tuple[str, re.Pattern[str]]] = [
    ("name", re.compile(r"\b(what'?s my name|what is my name|who am i\b|(know|remember) my name)")),
    (
        "location",
        re.compile(
            r"\b(where (do|did) i (live|stay|come from|grow up)|where am i (from|based)|"
            r"where'?s my home|where is my home|what city do i)"
        ),
    ),
    (
        "likes",
        re.compile(
            r"\b(what (do|did) i (like|love|enjoy|prefer)|my fav(ou)?rite|what am i into|"
            r"what are my hobbies|what do i do for fun)"
        ),
    ),
    (
        "work",
        re.compile(r"\b(what do i do for (a )?(living|work)|where do i work|what'?s my job|what is my job)"),
    ),
    (
        "family",
        re.compile(
            r"\b(my (wife|husband|partner|son|daughter|kids?|children|mom|mother|dad|father|"
            r"sister|brother|dog|cat|pet)'?s? name|do i have (a|any) )"
        ),
    ),
    (
        "all",
        re.compile(
            r"\b(what do you (know|remember) about me|do you remember (me|anything)|"
            r"tell me about (me|myself)|what have i told you)"
        ),
    ),
]


def self_question(text: str) -> str | None:
    """Which fact about themselves the user asks for, if any: name, location, likes, work, family, all."""
    t = " ".join(words(text))
    for kind, pattern in _SELF_QUESTIONS:
        if pattern.search(t):
            return kind
    return None


def memories_about(kind: str, query: str, memories: Sequence[str]) -> list[str]:
    """Memories that answer a self-question, best first (the caller's order breaks ties)."""
    if kind == "all":
        return list(memories)
    topic = MEMORY_TOPICS.get(kind, frozenset())
    q = set(content_terms(query)) - {"user"}
    scored = []
    for rank, memory in enumerate(memories):
        ws = set(words(memory))
        score = 2 * len(topic & ws) + len(q & set(content_terms(memory)))
        if score:
            scored.append((-score, rank, memory))
    return [m for _, _, m in sorted(scored)]
