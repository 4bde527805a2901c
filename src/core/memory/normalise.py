"""Memory extraction's normaliser: text as people type it, put the way the rules read it.

Chat is typed fast: "i" in lower case, "im" and "dont" without apostrophes, "wanna", "yrs", "u", "pls",
"my husbands a chef", a sentence that ends and the next one starts in lower case ("... now. do you sell
panniers?"). The rules are written for plain English, so every sentence is normalised before they read it
("User wannas" is never a memory); the sentence as said is still what a fact records as its source.
"""

from __future__ import annotations

import re

from avatar_service.core.memory.idioms import rewrite
from avatar_service.core.memory.vocabulary import LANGUAGES, RELATIONS
from avatar_service.core.text.lexicon import ABBREVIATIONS

# a word typed short or without its apostrophe, and what it stands for
_WORDS = {
    "im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "didnt": "didn't", "doesnt": "doesn't",
    "isnt": "isn't", "wasnt": "wasn't", "havent": "haven't", "hasnt": "hasn't", "hadnt": "hadn't", "hes": "he's",
    "shes": "she's", "theyre": "they're", "thats": "that's", "whats": "what's", "wont": "won't", "wouldnt": "wouldn't",
    "couldnt": "couldn't", "shouldnt": "shouldn't", "arent": "aren't", "werent": "weren't", "youre": "you're",
    "theres": "there's", "wanna": "want to", "gonna": "going to", "gotta": "have to", "kinda": "kind of",
    "sorta": "sort of", "u": "you", "ur": "your", "pls": "please", "plz": "please", "thx": "thanks", "tho": "though",
    "bc": "because", "cuz": "because", "coz": "because", "abt": "about", "rn": "right now", "atm": "at the moment",
    "bday": "birthday", "b-day": "birthday", "gf": "girlfriend", "bf": "boyfriend", "hubby": "husband",
    "tmrw": "tomorrow", "tmr": "tomorrow", "tommorow": "tomorrow", "tomorow": "tomorrow", "nite": "night",
    "yrs": "years", "yr": "year", "mos": "months", "wks": "weeks", "hrs": "hours", "bro": "brother",
    "sis": "sister", "fav": "favourite", "weds": "Wednesdays",
    "fave": "favourite", "approx": "about", "w/": "with", "&": "and",
}  # fmt: skip
_WORD = re.compile(r"(?<![\w'’/-])(?:" + "|".join(re.escape(w) for w in sorted(_WORDS, key=len, reverse=True))
                   + r")(?![\w'’/-])", re.I)
# ages and durations: "14 yo", "14y/o", "14 y.o."
# "its for my dad": "it's", when no noun of "its" could follow
_ITS = re.compile(r"\bits (?=(?:for|a|an|the|my|our|not|been|ok|okay|fine|just|really|so|too|very|me|us|\w+ing)\b)",
                  re.I)
# "I've got a 2 year old and a newborn": a child said by their age
_CHILD_BY_AGE = re.compile(r"\b(?P<a>an?|my|our) (?P<n>\d{1,2})[ -](?:yrs?|years?)[ -]old(?=\s*(?:$|[,.;!?]|and\b|"
                           r"who\b|so\b|but\b))", re.I)
_YEARS_OLD = re.compile(r"\b(?P<n>\d{1,3}) ?(?:yo|y/o|y\.o\.?|yrs? old|years? old)(?!\w)", re.I)
# "a 3 years old cockapoo" is "a 3-year-old cockapoo"
_AGED_NOUN = re.compile(r"\b(?P<n>\d{1,2})[ -](?P<unit>year|month|week)s?[ -]old (?!and\b|or\b|but\b|so\b|now\b|in\b|"
                        r"on\b|next\b|this\b|last\b|who\b|with\b|at\b)(?=[a-z])", re.I)
# "i" is always "I"; "i.e." is not a pronoun
_I = re.compile(r"(?<![\w.'’])i(?=['’\s,.!?;:)]|$)(?!\.e\.)")
# "my husbands a chef": the apostrophe of "'s" left out after a relation
_REL_S = re.compile(rf"\b(?P<who>(?:my|our) (?:[\w-]+ )?(?:{RELATIONS}))s (?=(?:an? |\d|not |now |still |just |"
                    r"very |really |so |always |also |called |named |allergic |retired\b|pregnant\b|name\b|"
                    r"birthday\b))", re.I)
# "don't really like" says what "don't like" says, in the shape the rules read
_SOFT_NOT = re.compile(r"\b(?P<not>don't|do not|doesn't|does not) (?:really|particularly|exactly|much) "
                       r"(?P<verb>like|love|enjoy|eat|drink|drive|work|care for)\b", re.I)
_NAME_S = re.compile(r"\b(?P<whose>his|her|its|their|my) name(?:'s|’s)", re.I)
_PROPER = re.compile(rf"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
                     rf"june|july|august|september|october|november|december|{LANGUAGES})s?\b", re.I)
_MAY = re.compile(r"\b(?P<before>in|of|since|early|late|mid|until|till|by|\d+(?:st|nd|rd|th)?) may\b", re.I)
_SPACES = re.compile(r"\s{2,}")
# set phrases put plainly: "a Londoner born and bred" is a Londoner; "we video call" is one verb
_IDIOM = {"born and bred": "", "born and raised": "", "video call": "video-call", "video calls": "video-calls",
          "tying the knot": "getting married", "tie the knot": "get married"}
_IDIOMS = re.compile(r",?\s*\bborn and (?:bred|raised)\b(?=\s*(?:$|[,.;!?]))|\bvideo calls?\b|"
                     r"\bti(?:e|ying) the knot\b", re.I)


def proper(content: str) -> str:
    """A memory with days, months and languages capitalised ("User can't do Thursdays")."""
    return _MAY.sub(lambda m: f"{m.group('before')} May", _PROPER.sub(lambda m: m.group()[:1].upper() + m.group()[1:],
                                                                      content))


# "my boss is sending me to Berlin" is where the user is going; "the kids are 4 and 7" are the user's kids
_SENT = re.compile(r"\b(?:my \w+|work|the company|they)(?:'s|’s| is|'re|’re| are) sending me (?=to\b)", re.I)
_THE_KIDS = re.compile(r"(?:^|(?<=, )|(?<=\band ))(?:the) (?=(?:kids|children|twins|little ones|boys|girls|baby)\b"
                       r"(?! (?:shop|section|aisle|menu|seat|club|room|area|pool|class|classes)\b))", re.I)
# "the missus drives", "the other half loves": the user's partner, called the way people do
_THE_PARTNER = re.compile(r"(?:^|(?<=, )|(?<=\band ))(?:the|my) (?:missus|missis|wife|husband|other half|better half|"
                          r"old man|old lady)\b(?! of\b)", re.I)
_PARTNER = {"missus": "wife", "missis": "wife", "other half": "partner", "better half": "partner",
            "old man": "husband", "old lady": "wife"}


def normalise(sentence: str) -> str:
    """The sentence in plain written English (see the module docstring)."""
    text = _WORD.sub(lambda m: _WORDS[m.group().lower()], sentence)
    text = _SENT.sub("I'm going ", text)
    text = _THE_KIDS.sub("my ", text)
    text = _THE_PARTNER.sub(lambda m: "my " + _PARTNER.get(m.group().split(" ", 1)[1].lower(),
                                                           m.group().split(" ", 1)[1].lower()), text)
    text = _ITS.sub("it's ", text)
    text = _IDIOMS.sub(lambda m: _IDIOM[m.group().lower().strip(" ,")], text)
    text = _CHILD_BY_AGE.sub(lambda m: f"{m.group('a')} {m.group('n')}-year-old child", text)
    text = _YEARS_OLD.sub(lambda m: f"{m.group('n')} years old", text)
    text = _AGED_NOUN.sub(lambda m: f"{m.group('n')}-{m.group('unit').lower()}-old ", text)
    text = _I.sub("I", text)
    text = _REL_S.sub(lambda m: f"{m.group('who')}'s ", text)
    text = _NAME_S.sub(lambda m: f"{m.group('whose')} name is", text)
    text = _SOFT_NOT.sub(lambda m: f"{m.group('not')} {m.group('verb')}", text)
    text = _PROPER.sub(lambda m: m.group()[:1].upper() + m.group()[1:], text)
    text = _MAY.sub(lambda m: f"{m.group('before')} May", text)
    return rewrite(_SPACES.sub(" ", text).strip())


# a sentence that ends and the next that starts in lower case: "i cycle everywhere now. do you sell panniers?"
_LOWER_END = re.compile(r"(?<=[a-z0-9)])[.!?]+\s+(?=[a-z])")


def sentences_of(sentence: str) -> list[str]:
    """A sentence the splitter kept whole because the next one starts in lower case, cut there; a full stop
    after a short form ("St. mary's") or a single letter still cuts nothing."""
    out: list[str] = []
    start = 0
    for m in _LOWER_END.finditer(sentence):
        before = sentence[start:m.start()].split()
        word = before[-1].lower().strip("(\"'“") if before else ""
        if not word or word in ABBREVIATIONS or len(word) == 1 or "." in word:
            continue
        out.append(sentence[start:m.end()].strip())
        start = m.end()
    out.append(sentence[start:].strip())
    return [s for s in out if s]
