"""The offline grounded responder: grounded answers, memories, honesty, small talk, and measurable traits."""

from __future__ import annotations

import re
import statistics
import time

import pytest

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.persona_prompt import system_message
from avatar_service.adapters.dialogue.style import CONTRACTION
from avatar_service.adapters.dialogue.user_facts import second_person
from avatar_service.ports.dialogue import DialogueEngine, DialogueRequest, GameSituation, Persona, Turn

KNOWLEDGE = [
    "Lisbon is the capital of Portugal. It lies on the Tagus river estuary. The city has about 545,000 "
    "residents, and the metropolitan area has nearly 3 million.",
    "The Belem Tower was built in the 16th century. It served as a fortress and a ceremonial gateway to "
    "Lisbon. It is a UNESCO World Heritage Site.",
    "Pasteis de nata are custard tarts that originated in the Jeronimos Monastery before 1820. Monks "
    "used egg whites to starch clothes and baked the leftover yolks into pastries.",
    "Tram 28 runs through the historic districts of Alfama, Baixa and Estrela. Tickets cost about three "
    "euros when bought on board.",
    "The 1755 earthquake destroyed much of Lisbon. The Marquis of Pombal led the rebuilding of the Baixa "
    "district on a grid plan.",
]
MEMORIES = [
    "User lives in Porto",
    "User loves hiking and board games",
    "The user's name is Sam",
    "User has a dog named Rex",
    "User is vegetarian",
]
QUESTIONS = [
    "What is the capital of Portugal?",
    "How many people live in Lisbon?",
    "When was the Belem Tower built?",
    "What are pasteis de nata?",
    "How much does a ticket for tram 28 cost?",
    "What happened in the 1755 earthquake?",
]
PROMPTS = [*QUESTIONS, "hello", "thanks!", "bye", "how are you?", "What is the tallest mountain in Nepal?"]

engine = OfflineGroundedDialogue()


def ask_request(req: DialogueRequest) -> str:
    return engine.compose(req)


def ask(
    text: str | None,
    traits: dict[str, float] | None = None,
    *,
    knowledge: list[str] | None = None,
    memories: list[str] | None = None,
    user_name: str | None = None,
    history: list[Turn] | None = None,
    situation: GameSituation | None = None,
) -> str:
    return engine.compose(request(text, traits, knowledge, memories, user_name, history, situation))


def request(
    text: str | None,
    traits: dict[str, float] | None = None,
    knowledge: list[str] | None = None,
    memories: list[str] | None = None,
    user_name: str | None = None,
    history: list[Turn] | None = None,
    situation: GameSituation | None = None,
    topics: list[str] | None = None,
) -> DialogueRequest:
    persona = Persona("Ava", "You are Ava, a travel guide.", "A friendly guide to Portugal.", traits or {})
    turns = list(history or []) + ([Turn("user", text)] if text is not None else [])
    return DialogueRequest(
        persona,
        turns,
        knowledge=KNOWLEDGE if knowledge is None else knowledge,
        memories=MEMORIES if memories is None else memories,
        user_name=user_name,
        situation=situation,
        topics=topics or (),
    )


def test_is_a_dialogue_engine() -> None:
    typed: DialogueEngine = engine
    assert typed.name == "offline-grounded"
    assert "NOT a language model" in (OfflineGroundedDialogue.__doc__ or "")


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("What is the capital of Portugal?", "capital of Portugal"),
        ("How many people live in Lisbon?", "545,000"),
        ("When was the Belem Tower built?", "16th century"),
        ("What are pasteis de nata?", "custard tarts"),
        ("How much does a ticket for tram 28 cost?", "three euros"),
        ("Who led the rebuilding of the Baixa?", "Marquis of Pombal"),
    ],
)
def test_answers_from_the_knowledge_it_was_given(question: str, fact: str) -> None:
    for traits in ({"verbosity": 0.0}, {"verbosity": 1.0, "formality": 0.0}, {"formality": 1.0}):
        assert fact in ask(question, traits)


def test_answers_in_a_sentence_or_two_without_padding() -> None:
    for question in QUESTIONS:
        reply = ask(question, {"verbosity": 0.3, "warmth": 0.9, "humor": 0.0})
        assert len(re.findall(r"[.!?](\s|$)", reply)) <= 2, reply
        assert not re.search(r"great question|want to hear more|hope that helps|from what i've read", reply, re.I)


def test_admits_ignorance_in_one_sentence_and_names_what_it_knows() -> None:
    reply = ask("What is the tallest mountain in Nepal?")
    assert not any(sentence.split(".")[0] in reply for sentence in KNOWLEDGE)
    assert re.search(r"(not sure|don't know|do not know)", reply, re.I)
    assert len(re.findall(r"[.!?](\s|$)", reply)) == 1
    topics = ask_request(request("What is the tallest mountain in Nepal?", topics=["Trams", "Belem Tower"]))
    assert topics.endswith("I can help with trams and Belem Tower.")


def test_the_same_question_asked_again_gets_the_same_answer() -> None:
    first = ask("When was the Belem Tower built?")
    history = [Turn("user", "When was the Belem Tower built?"), Turn("assistant", first),
               Turn("user", "thanks"), Turn("assistant", "You're welcome!")]
    again = ask("When was the Belem Tower built?", history=history)
    assert "16th century" in first and again == first


def test_a_follow_up_is_read_with_the_turn_before_it() -> None:
    knowledge = ["The museum opens at 9am and closes at 6pm. Tickets cost 22.50 euros for adults. Visitors under "
                 "18 enter free.", "The cafe serves lunch until 3pm."]
    first = ask("How much is a ticket?", knowledge=knowledge, memories=[])
    assert "22.50" in first
    kids = ask("and for kids?", knowledge=knowledge, memories=[],
               history=[Turn("user", "How much is a ticket?"), Turn("assistant", first)])
    assert "free" in kids, kids
    close = ask("And when do you close?", knowledge=knowledge, memories=[],
                history=[Turn("user", "When do you open?"), Turn("assistant", "The museum opens at 9am.")])
    assert "6pm" in close


def test_memory_questions_are_answered_in_the_second_person() -> None:
    memories = ["Alice loves Vermeer paintings", "Alice has a dog named Rex", "User lives in Utrecht",
                "Alice's birthday is on 3 May"]
    assert ask("What painter do I like?", memories=memories) == "You love Vermeer paintings."
    assert ask("What's my dog's name?", memories=memories) == "You have a dog named Rex."
    assert ask("When is my birthday?", memories=memories) == "Your birthday is on 3 May."
    for question in ("Where do I live?", "What painter do I like?"):
        assert not re.search(r"\b(user|alice)\b", ask(question, memories=memories), re.I)


def test_knowledge_still_wins_for_a_question_about_the_place() -> None:
    knowledge = ["Vaccinations for dogs cost 40 euros and for cats 35 euros. A consultation costs 55 euros.",
                 "We treat dogs, cats, rabbits and birds. We do not treat horses."]
    memories = ["User's cat Mimi is afraid of car rides", "Sofia has a dog named Bruno"]
    assert "35 euros" in ask("How much is a vaccination for my cat?", knowledge=knowledge, memories=memories)
    assert ask("Do you treat horses?", knowledge=knowledge, memories=memories).startswith("No, we do not treat")
    assert "Mimi" in ask("What is my cat called?", knowledge=knowledge, memories=memories)
    assert "Bruno" in ask("What is my dog's name?", knowledge=knowledge, memories=memories)


def test_a_joke_is_never_told_twice_in_a_conversation() -> None:
    history: list[Turn] = []
    replies = []
    for question in QUESTIONS * 3:
        reply = ask(question, {"humor": 1.0}, history=history)
        history += [Turn("user", question), Turn("assistant", reply)]
        replies.append(reply)
    from avatar_service.adapters.dialogue import phrases

    told = [q for r in replies for q in phrases.QUIPS["answer"] if q in r]
    assert told and len(told) == len(set(told))


def test_greets_by_name_from_user_name_memories_or_earlier_turn() -> None:
    assert "Maria" in ask("hello", user_name="Maria", memories=[])
    assert "Sam" in ask("Hi!", memories=MEMORIES)
    earlier = [Turn("user", "My name is Jordan"), Turn("assistant", "Nice to meet you, Jordan!")]
    assert "Jordan" in ask("hey", memories=[], history=earlier)
    assert "Nice to meet you, Jordan" in ask("My name is Jordan", {"formality": 0.5}, memories=[])
    nameless = ask("hello", memories=[])
    assert nameless.startswith(("Hello", "Hi", "Hey", "Good day"))


def test_answers_questions_about_the_user_from_memories() -> None:
    assert "Sam" in ask("What's my name?")
    assert "Porto" in ask("Where do I live?")
    assert "hiking" in ask("What do I like?")
    assert "Rex" in ask("What's my dog's name?")
    about = ask("What do you know about me?", {"verbosity": 1.0})
    assert sum(word in about for word in ("Porto", "hiking", "Sam", "Rex")) >= 3
    # memories are spoken to the user, not about them
    assert "user" not in ask("Where do I live?").lower()


def test_says_when_it_was_not_told() -> None:
    reply = ask("Where do I live?", memories=[])
    assert re.search(r"told me", reply) and "where you live" in reply
    assert ask("What's my name?", memories=[]).endswith("?")


def test_small_talk() -> None:
    assert re.search(r"welcome|problem|anytime|pleasure|got it|happy to help", ask("thanks so much!"), re.I)
    assert re.search(r"bye|later|farewell", ask("ok bye, talk later"), re.I)
    assert re.search(r"well|good|great", ask("how are you?"), re.I)
    assert "Ava" in ask("who are you?")
    assert ask("ok").endswith("?")
    opening = ask(None, {"verbosity": 0.8})
    assert "Ava" in opening and opening.endswith("?")


def test_tell_me_more_continues_with_new_material() -> None:
    first = ask("When was the Belem Tower built?", {"verbosity": 0.0})
    more = ask(
        "tell me more",
        {"verbosity": 0.0},
        history=[Turn("user", "When was the Belem Tower built?"), Turn("assistant", first)],
    )
    assert "16th century" not in more
    assert re.search(r"fortress|UNESCO|Lisbon", more)


def test_deterministic_and_streamed_sentence_by_sentence() -> None:
    import anyio

    req = request("How many people live in Lisbon?", {"verbosity": 0.9, "warmth": 0.9})

    async def collect() -> tuple[str, list[str]]:
        return await engine.reply(req), [piece async for piece in engine.stream(req)]

    reply, pieces = anyio.run(collect)
    assert reply == engine.compose(req) == engine.compose(req)
    assert "".join(pieces) == reply
    assert len(pieces) >= 2 and all(len(re.findall(r"[.!?](\s|$)", p)) == 1 for p in pieces), pieces


def test_fast_with_five_chunks_and_five_memories() -> None:
    requests = [request(q, {"verbosity": v}) for q in PROMPTS for v in (0.0, 0.5, 1.0)]
    started = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for req in requests:
            engine.compose(req)
    per_reply = (time.perf_counter() - started) / (rounds * len(requests))
    assert per_reply < 0.005, f"{per_reply * 1000:.2f} ms per reply"


# --- traits, measured ---------------------------------------------------------------------------------


def words_in(replies: list[str]) -> float:
    return statistics.mean(len(r.split()) for r in replies)


def test_verbosity_lengthens_replies() -> None:
    means = [words_in([ask(q, {"verbosity": v}) for q in PROMPTS]) for v in (0.0, 0.5, 1.0)]
    assert means[0] < means[1] < means[2], means
    assert means[2] > 1.5 * means[0], means
    sentences = [
        statistics.mean(len(re.findall(r"[.!?](\s|$)", ask(q, {"verbosity": v}))) for q in QUESTIONS)
        for v in (0.0, 1.0)
    ]
    assert sentences[0] < sentences[1]


def test_formality_trades_contractions_and_casual_words_for_formal_phrasing() -> None:
    def replies(formality: float) -> list[str]:
        return [ask(q, {"formality": formality, "verbosity": 0.7, "warmth": 0.7}) for q in PROMPTS]

    formal, casual = replies(0.95), replies(0.05)
    formal_contractions = sum(len(CONTRACTION.findall(r)) for r in formal)
    casual_contractions = sum(len(CONTRACTION.findall(r)) for r in casual)
    assert formal_contractions == 0
    assert casual_contractions >= 2
    casual_words = re.compile(r"\b(hey|cool|awesome|ooh|yay|nope|gotta|got it|anytime|no problem)\b", re.I)
    assert sum(bool(casual_words.search(r)) for r in casual) > sum(
        bool(casual_words.search(r)) for r in formal
    )
    assert not any("!" in r for r in formal)


def test_warmth_adds_friendly_openers_and_the_users_name() -> None:
    def replies(warmth: float) -> list[str]:
        return [ask(q, {"warmth": warmth, "verbosity": 0.6}, user_name="Maria") for q in QUESTIONS]

    warm, cold = replies(0.95), replies(0.05)
    assert sum("Maria" in r for r in warm) > sum("Maria" in r for r in cold) == 0
    assert sum(r.count("!") for r in warm) > sum(r.count("!") for r in cold) == 0
    assert re.search(r"\b(sure|of course|certainly)\b", " ".join(warm), re.I)


def test_humor_adds_light_quips() -> None:
    from avatar_service.adapters.dialogue import phrases

    quips = [q for bank in phrases.QUIPS.values() for q in bank]

    def quip_count(humor: float) -> int:
        replies = [ask(q, {"humor": humor, "verbosity": 0.6}) for q in PROMPTS]
        return sum(any(q in r for q in quips) for r in replies)

    assert quip_count(0.0) == 0
    assert quip_count(1.0) >= len(PROMPTS) // 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm so stressed about my exams", r"stress|sorry|frustrat"),
        ("I feel really sad today", r"sorry"),
        ("I just got the job and I'm so happy!", r"wonderful|glad|awesome|love that|happy for you|delighted"),
        ("I'm exhausted after this week", r"sorry|exhausting|rough|break"),
    ],
)
def test_empathy_acknowledges_feelings(text: str, expected: str) -> None:
    caring = ask(text, {"empathy": 0.95})
    cool = ask(text, {"empathy": 0.05})
    assert re.search(expected, caring, re.I), caring
    assert not re.search(expected, cool, re.I), cool
    assert re.search(r"\?$|tell me|spill", caring.rstrip(), re.I)  # and invites the user to say more


def test_empathy_is_not_triggered_by_questions_about_feelings_in_general() -> None:
    reply = ask("Why are people sad in winter?", {"empathy": 0.95})
    assert "sorry" not in reply.lower()


def test_empathy_comes_before_a_grounded_answer() -> None:
    reply = ask("I'm stressed, how much does a ticket for tram 28 cost?", {"empathy": 0.9})
    assert reply.index("three euros") > reply.lower().index("stress")


def test_game_commentary_is_the_line_the_core_computed() -> None:
    situation = GameSituation(game="Chess", game_id="chess", highlights=("blunder:user",),
                              summary="the user made a blunder", line="Hmm, are you sure about that one? I play e7e5.",
                              user_move={"uci": "f2f3"}, personality_move={"uci": "e7e5"})
    assert ask("", situation=situation) == situation.line
    prompt = system_message(request("", situation=situation))
    assert "the user made a blunder" in prompt and "e7e5" in prompt


@pytest.mark.parametrize(
    ("memory", "spoken"),
    [
        ("User lives in Lisbon", "you live in Lisbon"),
        ("User's name is Ana", "your name is Ana"),
        ("User is allergic to shellfish", "you are allergic to shellfish"),
        (
            "User usually calls their mum every Sunday evening",
            "you usually call your mum every Sunday evening",
        ),
        ("User used to live in Tokyo when they were a kid", "you used to live in Tokyo when you were a kid"),
        ("User has a golden retriever named Max", "you have a golden retriever named Max"),
        ("User goes swimming before work every Monday", "you go swimming before work every Monday"),
        ("User studies architecture at Delft", "you study architecture at Delft"),
        ("Sam's dog is Rex", "your dog is Rex"),
        ("I live in Porto", "you live in Porto"),
    ],
)
def test_memories_are_spoken_in_the_second_person(memory: str, spoken: str) -> None:
    assert second_person(memory, "Sam") == spoken
