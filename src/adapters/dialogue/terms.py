"""Terms of English text for the offline answerer: tokens, Snowball stems, related words, questions."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable

import snowballstemmer
from wordfreq import zipf_frequency  # (0.2 s to import: when the answerer is built, not on its first turn)

from avatar_service.adapters.dialogue.everyday_phrases import PHRASES
from avatar_service.adapters.dialogue.everyday_words import EVERYDAY_GROUPS
from avatar_service.adapters.dialogue.phrase_gates import Phrases
from avatar_service.core.text.lexicon import GENERIC, QUESTION_OPENERS, RELATED_GROUPS, STOPWORDS, words_of

# numbers keep their dots and colons ("22.50", "8:30"); words their apostrophes ("can't")
_TOKEN = re.compile(r"\d+(?:[.,:]\d+)*|[a-z]\d{1,2}\b|[a-z]+(?:'[a-z]+)?")  # (and sizes: "A4", "A1")
_STEMMER = snowballstemmer.stemmer("english")


_LETTER_COMPOUND = re.compile(r"\b([a-z])-(?=[a-z]{2})")  # "e-bike" is one word, "gluten-free" two


# "café" and "cafe" are one word, as people type them either way
_PLAIN_LETTERS = str.maketrans("áàâäãåçéèêëíìîïñóòôöõúùûüýÿ’", "aaaaaaceeeeiiiinooooouuuuyy'")


def words(text: str) -> list[str]:
    return _TOKEN.findall(_LETTER_COMPOUND.sub(r"\1", text.lower().translate(_PLAIN_LETTERS)))


def owners(text: str) -> list[str]:
    """The words without what follows an apostrophe: "hannah's bike" is Hannah's, "my son's" the son's."""
    return [w.split("'")[0] for w in words(text)]


# How people text: "r u open on mondays", "did i tell u?", "black n white", "b&w"
_TEXTING = [(re.compile(pattern, re.I), replacement) for pattern, replacement in (
    (r"\bu\b(?!-)", "you"), (r"\bur\b", "your"), (r"\br\b(?= (?:you|u|we|they|there|the|your|ur)\b)", "are"),
    (r"(?<=\w) n (?=\w)", " and "), (r"\bb ?& ?w\b|\bb/w\b", "black and white"), (r"\bpl[sz]\b", "please"),
    (r"\bthru\b", "through"), (r"\bwhere ?abouts\b", "whereabouts"), (r"\btmrw\b|\btmr\b", "tomorrow"),
    (r"\b(what|where|when|who|how|that|there)s\b", r"\1's"), (r"\bim\b", "i'm"), (r"\bive\b", "i've"),
    (r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should|ca|wo)nt\b", r"\1n't"),
    (r"\bnite\b", "night"), (r"\btonite\b", "tonight"), (r"\bprob\b|\bprobs\b", "probably"),
    (r"\bhow old's\b", "how old is"), (r"\bhow much's\b", "how much is"),
    (r",?\s*\bwhile (?:i'?m|i am|you'?re|you are|we'?re|we are) at it\b", ""))]  # (an aside: "it" is no referent)


@functools.lru_cache(maxsize=4096)  # every reply reads the conversation's user turns again
def spelled_out(text: str) -> str:
    """A turn as it would be written out ("r u open?" -> "are you open?"): routing reads whole words."""
    for pattern, replacement in _TEXTING:
        text = pattern.sub(replacement, text)
    return text


# Irregular verb forms and adjectives' degrees, which no stemmer meets with their word: "are children seen?" / "we see
# children from 8", "is it hard?" / "our hardest room". Left out: "left" a side, "lost" property, "found" founded, "sat"
# Saturday, "a bit", "drew" a name, "the latest", "the closest".
_IRREGULAR_FORMS = """
    see saw seen | take took taken | give gave given | go went gone | write wrote written | eat ate eaten |
    drive drove driven | ride rode ridden | wear wore worn | know knew known | show shown | choose chose chosen |
    speak spoke spoken | break broke broken | sell sold | tell told | buy bought | bring brought | keep kept |
    hold held | meet met | send sent | spend spent | build built | make made | pay paid | swim swam swum |
    throw threw thrown | fly flew flown | grow grew grown | draw drawn | hide hid hidden | feed fed |
    catch caught | teach taught | think thought | begin began begun | steal stole stolen | freeze froze frozen |
    sing sang sung | run ran | sleep slept | stand stood | win won | fight fought | bite bitten |
    hard harder hardest | easy easier easiest | cheap cheaper cheapest | big bigger biggest | small smaller smallest |
    long longer longest | short shorter shortest | young younger youngest | old older oldest | high higher highest |
    low lower lowest | busy busier busiest | quiet quieter quietest | quick quicker quickest | fast faster fastest |
    slow slower slowest | near nearer nearest | good better best | bad worse worst | early earlier earliest |
    light lit | forget forgot forgotten | lend lent | dig dug | shake shook shaken | sweep swept |
    far further furthest farther farthest
    """
_IRREGULAR = {form: verb for group in _IRREGULAR_FORMS.split("|") for verb, *forms in [group.split()] for form in forms}


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem: "photographs" and "photograph" meet, so do "opens" and "opening" (and "seen"
    and "see")."""
    if word[:1].isdigit():
        return word
    word = word.removesuffix("'s")
    return str(_STEMMER.stemWord(_IRREGULAR.get(word, word)))


# Words of talking rather than of the topic: apologies, hedges, emphasis, asking again ("Sorry, which street was
# that?", "Where are you exactly?", "Remind me what...", "Do you teach X as well?"). A question's terms leave them
# out, so they are never what it is about nor the topic of an "I don't know" ("is there a proper kitchen?");
# "afterwards" is "after", which is no term either.
DISCOURSE = words_of(
    """sorry pardon excuse exactly precisely actually basically honestly really quite rather just simply
    again remind reminded remember recall mention mentioned wondering wonder wondered curious quick quickly
    anyway anyhow though besides perhaps maybe probably possibly still even ever never sometimes already also too well
    hi hello hey hiya oh um uh er hmm please kindly per said say tell told ask asking asked hang
    happen happens happened happening supposed totally completely altogether proper decent
    afterwards afterward alright properly lol haha
    mine""")  # ("a mate of mine": whose, as "my" is; "what happens if...", "is it supposed to be hard?")


_CONTRACTED = re.compile(r"^[a-z]+'(?:ll|d|ve|re|m)$")
_PHRASES = Phrases(PHRASES)


def terms(text: str) -> list[str]:
    """Stems of the words that carry meaning, in order, without repeats (a phrasal verb as its one word)."""
    return list(_terms(text))


@functools.lru_cache(maxsize=16384)  # the same knowledge sentences are read on every turn
def _terms(text: str) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for w in words(_PHRASES.apply(text)):
        if _CONTRACTED.match(w) and w.split("'")[0] in STOPWORDS:
            continue  # "who'll", "where'd": a stopword for all its ending
        if w not in STOPWORDS and w not in DISCOURSE and (len(w) > 1 or w.isdigit()):
            seen.setdefault(stem(w), None)
    return tuple(seen)


@functools.lru_cache(maxsize=4096)
def said_together(text: str) -> tuple[frozenset[str], ...]:
    """The terms each everyday phrase of the text is said as, when several ("come out as far as": cover, area): one
    meaning, of which any word known will do."""
    return tuple(group for pattern, replacement in _PHRASES.candidates(text) for m in pattern.finditer(text)
                 if len(group := frozenset(terms(m.expand(replacement)))) > 1)


# More groups of the same kind, for what customers of any service ask in other words than the service writes:
# buying what a shop sells, a cheaper option that is a discount or half price, a trial that is a taster, a
# wheelchair and step-free access, a little girl who is a child, a snack that is food, a wash that is a bath.
SERVICE_GROUPS = """
buy buys bought purchase purchases sell sells sold shop stock stocks
cheap cheaper cheapest discount discounts discounted reduced concession concessions half
snack snacks food meal meals feed feeds feeding fed
wash washes washing bath baths bathe
latest last
include includes included including cover covers covered
trial trials taster tasters introductory intro try
wheelchair wheelchairs accessible accessibility disabled disability step ramp lift stairs mobility knee knees hip hips
girl girls boy boys child children kid kids
son sons boy boys lad lads
daughter daughters girl girls
urgent urgently emergency emergencies
bbq bbqs barbecue barbecues barbeque
away holiday holidays vacation
client clients customer customers
page pages side sides sheet sheets
"""


# Words a group relates that exclude each other: kinds of one thing, not other words for it. "Do you groom cats?"
# is not answered by "a full groom for a small dog"; "my son" is not "your daughter".
EXCLUSIVE = """
dog dogs puppy puppies | cat cats kitten kittens | rabbit rabbits | horse horses | bird birds
son sons | daughter daughters
boy boys | girl girls
wife | husband
breakfast breakfasts | lunch lunches | dinner dinners supper
piano pianos | guitar guitars | violin violins | drum drums | cello cellos | flute flutes | saxophone
"""


def _related() -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for line in (RELATED_GROUPS + SERVICE_GROUPS + EVERYDAY_GROUPS).strip().splitlines():
        group = frozenset(stem(w) for w in line.split())
        for s in group:
            out[s] = out.get(s, frozenset()) | (group - {s})
    for line in EXCLUSIVE.strip().splitlines():
        kinds = [frozenset(stem(w) for w in part.split()) for part in line.split("|")]
        for kind in kinds:
            others = frozenset().union(*(k for k in kinds if k is not kind))
            for s in kind:
                out[s] = out.get(s, frozenset()) - others
    return out


RELATED = _related()
WEEKDAY_TERMS = frozenset(terms("monday tuesday wednesday thursday friday saturday sunday"))
# opening and closing: what a time asks ("what time do you close?"), not a case of it
OPENING_TERMS = frozenset(terms("open opens opening opened close closes closing closed shut"))
# (and verbs that stand for any doing: "can I wait while it's done?"; and how a slip is said: "what if I forget and
# light it?" asks what happens if it is lit)
GENERIC_TERMS = frozenset(stem(w) for w in GENERIC | words_of(
    "done doing happening stuff round around today tonight now currently first offer offers provide provides "
    "include includes included including "
    "instead otherwise forget forgets forgot forgotten accidentally "
    # (whoever: "does anyone give lessons?", "is it ok for someone in a wheelchair?" ask about the lessons, the chair)
    "someone somebody anyone anybody nobody "
    # (wherever: "an old pair I bought somewhere else" says where, not what is asked)
    "somewhere anywhere everywhere elsewhere else "
    # (what comes or is got back: "does it come back in a box?", "if i need them back the same day")
    "back "
    # (what the place lets one do, or shows: "do you need to see ID before you let me in?" asks about the ID)
    "let lets see "
    # (how sure, or how far along, the asker is: "roughly how much?", "i'm thinking about getting a charger")
    "roughly approximately approx thinking wondering considering "
    # (asking advice: "which class would you recommend?" asks which class)
    "recommend recommends recommended recommendation recommendations suggest suggestion "
    # (comparing: "what's the difference with the full one?" asks about the full one)
    "difference differences "
    # (when what the user tells happened: everyday_phrases reads "last night", "yesterday" as "recently")
    "recently"))


def same_family(a: str, b: str) -> bool:
    """Two stems of one word family that Snowball leaves apart, one beginning the other from 5 letters on
    ("membership" / "members", "teach" / "teacher", "plumber" / "plumbing"), or a doer and the doing ("swimmer" /
    "swim")."""
    # (one begins the other in both rules: that cheap test first, as every question term meets every stem)
    if a == b or a[:1].isdigit() or not (a.startswith(b) or b.startswith(a)):
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return len(short) >= 5 or _doer(long, short)


def _doer(noun: str, verb: str) -> bool:
    """"swimmer" of "swim", "rider" of "ride", "walker" of "walk": who does it (Snowball keeps them apart)."""
    return len(verb) >= 4 and noun not in _NOT_DOERS and \
        noun in (verb + "er", verb + verb[-1] + "er", verb + "r" if verb.endswith("e") else "")


_NOT_DOERS = frozenset(("shower", "flower", "corner", "former", "master", "number", "tower", "cover", "water"))


# Words of everyday English by their frequency in general text, on wordfreq's Zipf scale (log10 of uses per
# billion words): 5.3 is about once in 200,000 words ("head", "back", "guys", "someone", "least", "hard"), above
# the words a question that nothing answers hinges on ("student" 5.0, "parking" 4.5, "wifi" 3.9).
COMMON_ZIPF = 5.3


@functools.lru_cache(maxsize=65536)
def is_common(word: str) -> bool:
    return bool(zipf_frequency(word, "en", wordlist="small") >= COMMON_ZIPF)


def common_terms(text: str) -> frozenset[str]:
    """The stems of the text's words of everyday English (`is_common`)."""
    # (not the parts of a compound: "long-stay parking" is not "long"; nor a letter: "3D" is not "d"; nor a number)
    text = _COMPOUND.sub(" ", text)
    return frozenset(stem(w) for w in words(text)
                     if len(w) > 2 and not w[:1].isdigit() and w not in NUMBER_WORDS and is_common(w))


_COMPOUND = re.compile(r"\w+(?:-\w+)+")
NUMBER_WORDS = words_of("""one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred thousand first second third half dozen""")


def is_question(text: str) -> bool:
    t = text.strip()
    if t.endswith("?"):
        return True
    first = words(t[:40])
    return bool(first) and first[0].split("'")[0] in QUESTION_OPENERS  # ("what's the furthest you'll go")


def of_the_family(asked: Iterable[str], own: set[str]) -> frozenset[str]:
    """The asked terms that are the personality's own words or of their family ("plumber" of "a plumbing firm")."""
    return frozenset(t for t in asked if t in own or any(same_family(t, o) for o in own))


def related_in(weights: Iterable[str], vocabulary: set[str]) -> dict[str, frozenset[str]]:
    """Each question term's related stems: the table's, and the candidates' stems of its word family."""
    # a family's stems begin one with the other: the stems that begin with t (a range of the sorted vocabulary) and
    # those t begins with (its prefixes) are all that need the closer look
    ordered, out = sorted(vocabulary), {}
    for t in weights:
        longer = ordered[bisect.bisect_left(ordered, t):bisect.bisect_left(ordered, t + "\uffff")]
        shorter = [t[:end] for end in range(1, len(t)) if t[:end] in vocabulary]
        family = frozenset(v for v in (*longer, *shorter) if same_family(t, v))
        out[t] = RELATED.get(t, frozenset()) | family
    return out
