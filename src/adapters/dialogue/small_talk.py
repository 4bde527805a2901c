"""What the offline answerer says when the turn is no question about the knowledge: greetings, thanks, goodbyes,
"how are you", who it is, a joke, a feeling acknowledged, the user's name and what it remembers of them; the honest
"I don't know" when nothing answers; and how any part of a reply is put in the persona's register (`say`, `quip`)."""

from __future__ import annotations

import re

from avatar_service.adapters.dialogue import phrases as P
from avatar_service.adapters.dialogue.answering import indirect, lower_name, unknown_topic
from avatar_service.adapters.dialogue.feelings import Emotion
from avatar_service.adapters.dialogue.ranked import Ranking
from avatar_service.adapters.dialogue.style import Bank, Style
from avatar_service.adapters.dialogue.user_facts import about_user, asked_part, asks_permission, second_person
from avatar_service.ports.dialogue import DialogueRequest

# the turns that are small talk, as the reply routes them (offline_grounded._Reply.route)
GREETING = re.compile(
    r"^\s*(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|yo)\b[\s,!.]*", re.I)
BYE = re.compile(r"\b(bye|goodbye|good night|see you|see ya|farewell|talk (to you )?later|gotta go|have to go)\b")
THANKS = re.compile(r"\b(thanks|thank you|thx|cheers|appreciate it|much appreciated)\b")
HOW_ARE_YOU = re.compile(r"\b(how (are|r) (you|u)|how's it going|how is it going|how are things|how have you been|"
                          r"how do you do|how's your day|how is your day)\b")
WHO_ARE_YOU = re.compile(r"\b(who are you|what's your name|what is your name|tell me about yourself|"
                          r"introduce yourself|what are you)\b")
ACK = re.compile(r"^(ok|okay|alright|all right|cool|sure|great|nice|yes|no|yep|nope|got it|i see|hmm+|ah)\W*$")
JOKE = re.compile(r"\b(tell me a joke|make me laugh|say something funny|know any jokes)\b")
MY_NAME = re.compile(r"\b(what'?s my name|what is my name|\bwho am i(?: again)?$|(know|remember) my name)")
ALL_ABOUT_ME = re.compile(r"\b(what do you (know|remember) about me|do you remember (me|anything)|"
                           r"tell me about (me|myself)|what have i told you)")


class SmallTalk:
    """The reply's parts so far and the persona's style; the reply (`offline_grounded._Reply`) sets them up."""

    request: DialogueRequest
    style: Style
    parts: list[str]
    said: str  # everything the persona said earlier in the conversation
    user_name: str | None
    emotion: Emotion | None
    cases: list[int]  # the memories of whom the question asks the place for (told_cases)

    # --- assembling ---------------------------------------------------------------------------------

    def say(self, bank: Bank, **values: str) -> None:
        self.parts.append(self.style.own(self.style.pick(bank, **values)))

    def name_comma(self, warmth_needed: float = 0.5) -> str:
        return f", {self.user_name}" if self.user_name and self.style.warmth >= warmth_needed else ""

    def quip(self, kind: str) -> None:
        """A light line, only for a very humorous persona, and never one already said in this conversation."""
        s = self.style
        if s.humor < 0.7 or self.negative or not s.chance(s.humor - 0.4):
            return
        fresh = [q for q in P.QUIPS[kind] if s.own(q) not in self.said]
        if fresh:
            self.parts.append(s.own(s.rng.choice(fresh)))

    @property
    def negative(self) -> bool:
        return self.emotion is not None and not self.emotion.positive

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
        fresh = [q for q in P.QUIPS["answer"] if self.style.own(q) not in self.said] or list(P.QUIPS["answer"])
        if self.style.humor < 0.3:
            self.parts.append(self.style.own("I am not much of a comedian, but here is one."))
        self.parts.append(self.style.own(self.style.rng.choice(fresh)))

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

    # --- the user -------------------------------------------------------------------------------------

    def your_name(self) -> None:
        if self.user_name:
            return self.say(P.YOUR_NAME, name=self.user_name)
        self.say(P.NOT_TOLD, what="your name")
        self.say(P.ASK_NAME)

    def all_about_you(self) -> None:
        memories = [second_person(m, self.user_name) for m in self.request.memories]
        if not memories:
            return self.say(P.NOT_TOLD, what="much about yourself")
        count = 2 if self.style.verbosity < 0.5 else 3 if self.style.verbosity < 0.8 else 4
        chosen = memories[:count]
        listed = chosen[0] if len(chosen) == 1 else ", ".join(chosen[:-1]) + " and " + chosen[-1]
        template = self.style.pick(P.YOU_TOLD_ME_ALL, s="\x00")
        before, _, after = template.partition("\x00")
        self.parts.append(self.style.own(before) + listed + self.style.own(after))

    # --- honest limits --------------------------------------------------------------------------------

    def dont_know(self, text: str, ranking: Ranking) -> None:
        """Nothing known answers: say so in one sentence, and name what it can help with."""
        asked = asked_part(text)  # ("my dad's in a wheelchair, can he still play?" asks the place: no "never said")
        if about_user(asked) >= 0.6 and not asks_permission(asked) and not self.cases:  # (the user did tell of them)
            return self.say(P.NOT_TOLD, what=indirect(text))
        self.say(P.DONT_KNOW, topic=unknown_topic(text, ranking) or "that")
        topics = [lower_name(t) for t in self.request.topics if t.strip()][:4]
        if topics:
            listed = topics[0] if len(topics) == 1 else ", ".join(topics[:-1]) + " and " + topics[-1]
            self.say(P.I_KNOW_ABOUT, topics=listed)
