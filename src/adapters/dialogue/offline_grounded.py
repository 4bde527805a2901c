"""The offline default dialogue engine: a retrieval-grounded responder whose wording follows the traits."""

from __future__ import annotations

import importlib
import random
import re
import zlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

from anyio.lowlevel import checkpoint

from avatar_service.adapters.dialogue import phrases as P
from avatar_service.adapters.dialogue.language import (
    STOPWORDS,
    Candidate,
    Emotion,
    content_terms,
    detect_emotion,
    is_question,
    memories_about,
    name_from,
    name_in_turn,
    rank_sentences,
    second_person,
    self_question,
    words,
)
from avatar_service.adapters.dialogue.style import Bank, Style
from avatar_service.ports.dialogue import DialogueRequest, Turn

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|yo)\b[\s,!.]*", re.I
)
_BYE = re.compile(
    r"\b(bye|goodbye|good night|see you|see ya|farewell|talk (to you )?later|gotta go|have to go)\b"
)
_THANKS = re.compile(r"\b(thanks|thank you|thx|cheers|appreciate it|much appreciated)\b")
_HOW_ARE_YOU = re.compile(
    r"\b(how (are|r) (you|u)|how's it going|how is it going|how are things|how have you been|how do you do|"
    r"how's your day|how is your day)\b"
)
_WHO_ARE_YOU = re.compile(
    r"\b(who are you|what's your name|what is your name|tell me about yourself|introduce yourself|"
    r"what are you)\b"
)
_MORE = re.compile(
    r"\b(tell me more|go on|more about (that|it|this)|what else|keep going|and then|say more)\b"
)
_ACK = re.compile(
    r"^(ok|okay|alright|all right|cool|sure|great|nice|yes|no|yep|nope|got it|i see|hmm+|ah)\W*$"
)
_JOKE = re.compile(r"\b(tell me a joke|make me laugh|say something funny|know any jokes)\b")
_TOPIC_SKIP = frozenset(
    [
        "what",
        "who",
        "where",
        "when",
        "why",
        "how",
        "which",
        "is",
        "are",
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
        "you",
        "me",
        "tell",
        "know",
        "anything",
        "something",
        "about",
        "please",
        "explain",
        "describe",
        "i",
        "wonder",
        "wondering",
        "so",
        "and",
        "but",
        "um",
        "uh",
        "much",
        "many",
        "it",
        "there",
        "any",
        "have",
        "has",
        "info",
        "information",
        "on",
        "regarding",
        "a",
        "bit",
        "little",
        "more",
        "give",
        "some",
        "details",
        "detail",
    ]
)
_LOWER_STARTERS = frozenset(
    [
        "The",
        "A",
        "An",
        "It",
        "This",
        "That",
        "These",
        "Those",
        "There",
        "In",
        "On",
        "At",
        "For",
        "Most",
        "Many",
        "Some",
        "Each",
        "Every",
        "Its",
        "Their",
        "Our",
        "When",
        "If",
        "During",
        "After",
        "Before",
        "Since",
        "As",
        "By",
        "With",
        "Unlike",
        "Although",
        "While",
        "Today",
        "Now",
    ]
)
# Too common to tie a memory to a question ("how many people live in Lisbon" is not about where you live).
_GENERIC = frozenset(
    [
        "live",
        "like",
        "love",
        "go",
        "make",
        "use",
        "work",
        "need",
        "good",
        "time",
        "day",
        "people",
        "year",
        "way",
    ]
)
_MIN_ANSWER = 0.3  # share of the question's weighted terms the best sentence must hold to count as an answer
_MIN_SHARE = 0.5  # a statement (not a question) only gets facts back when they match it this well


def _lower_first(sentence: str) -> str:
    first = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if first in _LOWER_STARTERS else sentence


_DETERMINERS = frozenset(
    ["the", "a", "an", "your", "this", "that", "these", "those", "his", "her", "their", "its"]
)
_PREPOSITIONS = frozenset(["in", "of", "about", "on", "at", "from", "for", "with", "near"])
_TRAILING = frozenset(
    [
        "built",
        "made",
        "founded",
        "located",
        "called",
        "named",
        "mean",
        "means",
        "work",
        "works",
        "happen",
        "happened",
        "do",
        "go",
        "start",
        "started",
        "end",
        "ended",
        "cost",
        "costs",
        "take",
        "takes",
        "formed",
        "created",
        "invented",
        "discovered",
        "written",
        "born",
        "die",
        "died",
        "live",
        "lives",
        "lived",
        "come",
        "comes",
        "used",
        "look",
        "like",
        "for",
        "of",
        "in",
        "on",
        "to",
        "at",
        "is",
        "are",
        "was",
        "were",
    ]
)


def _topic(text: str) -> str:
    """The thing asked about, in the user's words ("the capital of Mongolia"), for honest 'I don't know's.

    Falls back to "that" when the words left over do not look like a noun phrase.
    """
    ws = re.findall(r"[A-Za-z0-9][\w'-]*", text.split("?")[0])
    while ws and ws[0].lower() in _TOPIC_SKIP:
        ws.pop(0)
    while ws and ws[-1].lower() in _TRAILING:
        ws.pop()
    swap = {"my": "your", "i": "you", "me": "you", "i'm": "you're", "mine": "yours"}
    ws = [swap.get(w.lower(), w) for w in ws]
    if ws and ws[0].lower() not in _DETERMINERS and not ws[0][:1].isupper():
        # "people live in Lisbon" -> "Lisbon": after a verb-led span, the object of the last preposition
        cut = max((i for i, w in enumerate(ws) if w.lower() in _PREPOSITIONS), default=-1)
        if cut >= 0:
            ws = ws[cut + 1 :]
    if not ws or len(ws) > 6:
        return "that"
    return " ".join(ws)


def word_groups(text: str, size: int = 3) -> list[str]:
    """Splits a reply into groups of ``size`` words; joined back they give the reply exactly."""
    tokens = re.findall(r"\s*\S+", text)
    return ["".join(tokens[i : i + size]) for i in range(0, len(tokens), size)]


class OfflineGroundedDialogue:
    """Offline default. NOT a language model: a retrieval-grounded responder.

    It answers from the knowledge chunks and memories it is handed (picking the sentences that share the
    most weighted terms with the question; the chunks were already retrieved semantically), greets the user
    by name, answers "what's my name / where do I live / what do I like" from memories, handles thanks, bye
    and small talk, says plainly when it does not know and asks a question back. The persona's system prompt
    is not followed as instructions (nothing here can); its name and description are used for "who are you".

    Traits shape the wording measurably: formality (contractions and casual words vs formal phrasing),
    verbosity (how many sentences), warmth (friendly openers, the user's name), humor (light quips),
    empathy (acknowledging feelings the user expresses). Deterministic: the choices are seeded from the
    persona and the user's text, so the same request always gets the same reply. Well under 5 ms a reply.
    """

    name = "offline-grounded"

    async def reply(self, request: DialogueRequest) -> str:
        return self.compose(request)

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        for group in word_groups(self.compose(request)):
            yield group
            await checkpoint()  # give the room's audio tasks a turn between pieces

    def compose(self, request: DialogueRequest) -> str:
        return _Reply(request).text()


class _Reply:
    """One reply under construction: parts in the persona's register, joined with spaces."""

    def __init__(self, request: DialogueRequest) -> None:
        self.request = request
        history = list(request.history)
        self.user_text = history[-1].content.strip() if history and history[-1].role == "user" else ""
        self.lowered = " ".join(words(self.user_text))
        seed = zlib.crc32(f"{request.persona.name}\x00{self.user_text}\x00{len(history)}".encode())
        self.style = Style.from_traits(request.persona.traits, random.Random(seed))
        self.previous_user = next((t.content for t in reversed(history[:-1]) if t.role == "user"), "")
        self.previous_reply = next((t.content for t in reversed(history) if t.role == "assistant"), "")
        self.user_name = request.user_name or _name_in_history(history) or name_from(request.memories)
        self.emotion: Emotion | None = detect_emotion(self.user_text)
        self.parts: list[str] = []

    # --- assembling ---------------------------------------------------------------------------------

    def say(self, bank: Bank, **values: str) -> None:
        self.parts.append(self.style.own(self.style.pick(bank, **values)))

    def say_around(self, bank: Bank, quoted: str) -> None:
        """A template wrapped around quoted material: only the template's words are restyled."""
        template = self.style.pick(bank, s="\x00")
        before, _, after = template.partition("\x00")
        if not before.strip():
            quoted = quoted[:1].upper() + quoted[1:]
        self.parts.append(self.style.own(before) + quoted + self.style.own(after))

    def name_comma(self, warmth_needed: float = 0.5) -> str:
        return f", {self.user_name}" if self.user_name and self.style.warmth >= warmth_needed else ""

    def quip(self, kind: str) -> None:
        s = self.style
        if s.humor >= 0.5 and s.verbosity >= 0.2 and not self.negative and s.chance(s.humor - 0.2):
            self.parts.append(s.own(s.rng.choice(P.QUIPS[kind])))

    @property
    def negative(self) -> bool:
        return self.emotion is not None and not self.emotion.positive

    def text(self) -> str:
        self.route()
        return " ".join(p.strip() for p in self.parts if p.strip())

    # --- routing ------------------------------------------------------------------------------------

    def route(self) -> None:
        if self.request.situation is not None:
            return self.game(self.request.situation)
        if not self.user_text:
            return self.greeting(opening=True)
        t = self.lowered
        greeted = _GREETING.match(self.user_text)
        rest = self.user_text[greeted.end() :] if greeted else self.user_text
        substantive = len(content_terms(rest)) > 0 and (is_question(rest) or len(words(rest)) > 3)
        if greeted and substantive:
            self.say(P.GREETING, name_comma=f", {self.user_name}" if self.user_name else "")
        self.acknowledge_feeling()
        stated_name = name_in_turn(self.user_text)
        if stated_name:
            self.user_name = stated_name
            self.say(P.NICE_TO_MEET, name=stated_name)
            if not substantive or self.lowered.startswith(
                ("my name", "call me", "i'm called", "i am called")
            ):
                return self.say(P.OFFER_HELP)
        if greeted and not substantive and not _HOW_ARE_YOU.search(t):
            return self.greeting(opening=len(self.request.history) <= 1)
        if _BYE.search(t) and not is_question(rest):
            return self.goodbye()
        if _THANKS.search(t) and not is_question(rest):
            return self.thanks()
        if _HOW_ARE_YOU.search(t):
            return self.how_are_you(greeted is not None)
        if _WHO_ARE_YOU.search(t):
            return self.who_am_i()
        if _JOKE.search(t):
            return self.joke()
        kind = self_question(rest)
        if kind is not None:
            return self.from_memories(kind, rest)
        if _ACK.match(t) and not self.emotion:
            self.say(P.ACK)
            return self.say(P.WHAT_NEXT)
        return self.answer(rest)

    # --- small talk ---------------------------------------------------------------------------------

    def greeting(self, opening: bool) -> None:
        s = self.style
        self.say(P.GREETING, name_comma=f", {self.user_name}" if self.user_name else "")
        if s.warmth >= 0.67 and s.verbosity >= 0.3:
            self.say(P.GREETING_WARM)
        if opening and s.verbosity >= 0.34:
            self.say(P.INTRODUCE, persona=self.request.persona.name)
        self.quip("greeting")
        self.say(P.OFFER_HELP)

    def goodbye(self) -> None:
        self.say(P.BYE, name_comma=self.name_comma(0.4))
        if self.style.warmth >= 0.6:
            self.say(P.BYE_WARM)
        self.quip("bye")

    def thanks(self) -> None:
        self.say(P.THANKS)
        self.quip("thanks")
        if self.style.verbosity >= 0.4:
            self.say(P.ANYTHING_ELSE)

    def how_are_you(self, greeted: bool) -> None:
        if greeted:
            self.say(P.GREETING, name_comma=f", {self.user_name}" if self.user_name else "")
        self.say(P.HOW_ARE_YOU)
        if not self.emotion:
            self.say(P.ASK_BACK_HOW)

    def who_am_i(self) -> None:
        persona = self.request.persona
        self.say(P.WHO_AM_I, persona=persona.name)
        description = persona.description.strip()
        if description and self.style.verbosity >= 0.2:
            self.parts.append(description if description[-1] in ".!?" else description + ".")
        self.say(P.OFFER_HELP)

    def joke(self) -> None:
        if self.style.humor < 0.3:
            self.parts.append(self.style.own("I am not much of a comedian, but here is one."))
        self.parts.append(self.style.own(self.style.rng.choice(P.QUIPS["answer"])))

    def acknowledge_feeling(self) -> None:
        emotion, s = self.emotion, self.style
        if emotion is None or s.empathy < 0.3:
            return
        self.say(P.EMPATHY[emotion.kind], word=emotion.word)
        if s.empathy >= 0.67:
            self.say(P.EMPATHY_DEEP["positive" if emotion.positive else "negative"])

    def follow_feeling(self) -> bool:
        """After a feeling with nothing else to answer: ask about it (or move on, for a cool persona)."""
        if self.emotion is None:
            return False
        if self.style.empathy >= 0.3:
            self.say(P.EMPATHY_FOLLOW["positive" if self.emotion.positive else "negative"])
        else:
            self.say(P.ACK)
            self.say(P.WHAT_NEXT)
        return True

    # --- grounded answers -----------------------------------------------------------------------------

    def from_memories(self, kind: str, question: str) -> None:
        if kind == "name":
            if self.user_name:
                return self.say(P.YOUR_NAME, name=self.user_name)
            self.say(P.NOT_TOLD)
            return self.say(P.ASK_FACT["name"])
        found = memories_about(kind, question, self.request.memories)
        if not found:
            self.say(P.NOT_TOLD)
            return self.say(P.ASK_FACT.get(kind, P.ASK_FACT["all"]))
        count = 1 if kind != "all" else max(1, min(len(found), self.style.knowledge_sentences()))
        for i, memory in enumerate(found[:count]):
            quoted = second_person(memory, self.user_name)
            if i == 0:
                self.say_around(P.YOU_TOLD_ME, quoted)
            else:
                self.say_around(P.ALSO, quoted + ".")
        if self.style.verbosity >= 0.6 and self.style.warmth >= 0.5:
            self.say(P.ANYTHING_ELSE)

    def answer(self, text: str) -> None:
        s = self.style
        more = bool(_MORE.search(self.lowered))
        asking = is_question(text) or more
        query = {t: 1.0 for t in content_terms(text) if t not in {"more", "else"}}
        if more or len(query) < 2:
            # "tell me more" or "what about its population?": the previous question carries the topic.
            weight = 0.5 if query else 1.0
            for term in content_terms(self.previous_user):
                query.setdefault(term, weight)
        ranked = rank_sentences(query, self.request.knowledge, text, exclude=self.previous_reply)
        if more:
            # Going on about the same material: sentences of the chunk in question count even without
            # sharing a word with the question (what is left to say rarely repeats the topic's name).
            ranked = [replace(c, matched=True) for c in sorted(ranked, key=lambda c: -c.score)]
        best = ranked[0].score if ranked and ranked[0].matched else 0.0
        if more and best >= 0.1:
            best = max(best, _MIN_ANSWER)
        if best < (_MIN_ANSWER if asking else _MIN_SHARE):
            if self.follow_feeling():
                return
            if not asking:
                self.say(P.STATEMENT_ACK)
                topic = _topic(text)
                return self.say(P.TELL_ME_MORE, topic=topic if topic[:1].isupper() else "that")
            self.say(P.DONT_KNOW, topic=_topic(text))
            self.quip("unknown")
            return self.say(P.ASK_MORE, topic=_topic(text))
        chosen = _choose(ranked, best, s.knowledge_sentences(), elaborate=s.verbosity >= 0.5)
        # The best sentence leads; the rest follow in the order the material gives them.
        ordered = chosen[:1] + sorted(chosen[1:], key=lambda c: (c.chunk, c.position))
        if s.warmth >= 0.67 and s.verbosity >= 0.25 and asking and not self.negative:
            self.say(P.OPENER_WARM, name_comma=self.name_comma(0.8))
        for i, candidate in enumerate(ordered):
            self.say_around(P.CITE if i == 0 else P.ALSO, _lower_first(candidate.text))
        self.personal_touch(query)
        self.quip("answer")
        if s.verbosity >= 0.5 and asking:
            self.say(P.MORE_ABOUT, topic=_topic(text))
        if (s.warmth >= 0.6 and s.verbosity >= 0.34) or s.verbosity >= 0.85:
            self.say(P.HOPE_HELPS)

    def personal_touch(self, query: dict[str, float]) -> None:
        """At higher verbosity, mention a memory that shares a term with the question."""
        if self.style.verbosity < 0.5 or not self.request.memories:
            return
        terms = {t for t, w in query.items() if w >= 1.0} - STOPWORDS - _GENERIC
        for memory in self.request.memories[:5]:
            if terms & set(content_terms(memory)):
                quoted = second_person(memory, self.user_name)
                return self.say_around(
                    {
                        "formal": ["I also recall that {s}."],
                        "neutral": ["I also remember {s}."],
                        "casual": ["And hey, I remember {s}!"],
                    },
                    quoted,
                )

    # --- games ----------------------------------------------------------------------------------------

    def game(self, situation: dict[str, object]) -> None:
        # the situation (move, count, tags) joins the seed: successive moves of one game get different lines,
        # while the same request still always gets the same reply
        seed = self.style.rng.randrange(1 << 30) ^ zlib.crc32(repr(situation).encode())
        line = _delegate_commentary(self.request, situation, seed)
        if line:
            self.parts.append(line)
            return
        self.say(P.GAME[_game_key(situation)])
        if self.style.humor >= 0.6 and self.style.chance(self.style.humor - 0.2):
            self.parts.append(self.style.own(self.style.rng.choice(P.GAME_QUIPS)))


_PRONOUN_START = re.compile(r"^(It|Its|They|Their|This|These|He|She|His|Her)\b")


def _choose(ranked: list[Candidate], best: float, wanted: int, elaborate: bool) -> list[Candidate]:
    """The best sentence, then others that answer well, then (when elaborating) its neighbours."""
    chosen = [ranked[0]]
    taken = {(ranked[0].chunk, ranked[0].position)}

    def fits(c: Candidate) -> bool:
        # A sentence opening with "It"/"They" only makes sense right after the sentence it refers to.
        return not _PRONOUN_START.match(c.text) or (c.chunk, c.position - 1) in taken

    for c in ranked[1:wanted]:
        if c.matched and c.score >= max(0.15, best * 0.5) and fits(c):
            chosen.append(c)
            taken.add((c.chunk, c.position))
    if elaborate:
        lead = ranked[0]
        for c in sorted(
            ranked,
            key=lambda c: (
                c.chunk != lead.chunk,
                c.position <= lead.position,
                abs(c.position - lead.position),
            ),
        ):
            if len(chosen) >= wanted:
                break
            # Other chunks only lend their opening sentence: it stands on its own.
            if (
                (c.chunk, c.position) not in taken
                and (c.chunk == lead.chunk or c.matched or c.position == 0)
                and fits(c)
            ):
                chosen.append(c)
                taken.add((c.chunk, c.position))
    return chosen


def _name_in_history(history: Sequence[Turn]) -> str | None:
    for turn in reversed(history):
        if turn.role == "user":
            name = name_in_turn(turn.content)
            if name:
                return name
    return None


def _game_key(situation: dict[str, object]) -> str:
    winner = str(situation.get("winner") or "")
    if winner in ("user", "personality", "draw"):
        return {"user": "user_won", "personality": "personality_won", "draw": "draw"}[winner]
    event = str(situation.get("event") or situation.get("type") or situation.get("kind") or "").lower()
    for needles, key in (
        (("invalid", "illegal"), "invalid"),
        (("blunder", "mistake"), "blunder"),
        (("good", "great", "brilliant", "best", "strong"), "good_move"),
        (("start", "begin"), "start"),
        (("draw", "tie", "stalemate"), "draw"),
        (("user_won", "user_win", "you_won", "lost"), "user_won"),
        (("won", "win", "checkmate"), "personality_won"),
    ):
        if any(n in event for n in needles):
            return key
    return "move"


def _highlights(situation: dict[str, object]) -> list[str]:
    """The games package's situation tags ("win", "blunder", "by_user", ...) from a situation dict."""
    given = situation.get("highlights")
    if isinstance(given, list | tuple):
        return [str(tag) for tag in given]
    winner = str(situation.get("winner") or "")
    if winner in ("user", "personality", "draw"):
        # the tags are the personality's point of view: "win" means the personality won
        return [{"user": "loss", "personality": "win", "draw": "draw"}[winner]]
    event = str(situation.get("event") or situation.get("type") or "")
    return [event] if event else []


def _delegate_commentary(request: DialogueRequest, situation: dict[str, object], seed: int) -> str | None:
    """Game commentary from the games package when it is there; None means 'say our own short line'."""
    try:
        # import_module consults sys.modules even when the package already holds the attribute
        commentary = importlib.import_module("avatar_service.core.games.commentary")
    except ImportError:
        return None
    game = situation.get("game_name") or situation.get("game") or situation.get("game_id") or "the game"
    try:
        line = commentary.comment(
            _highlights(situation),
            dict(request.persona.traits),
            random.Random(seed),
            str(game).replace("_", " "),
        )
    except Exception:  # a bug or an API change over there must not break the conversation
        return None
    return line.strip() if isinstance(line, str) and line.strip() else None
