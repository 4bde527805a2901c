"""The offline grounded responder: grounded answers, memories, honesty, small talk, and measurable traits."""

from __future__ import annotations

import re
import statistics
import sys
import time
import types

import pytest

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.style import CONTRACTION
from avatar_service.ports.dialogue import DialogueEngine, DialogueRequest, Persona, Turn

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


def ask(
    text: str | None,
    traits: dict[str, float] | None = None,
    *,
    knowledge: list[str] | None = None,
    memories: list[str] | None = None,
    user_name: str | None = None,
    history: list[Turn] | None = None,
    situation: dict[str, object] | None = None,
) -> str:
    return engine.compose(request(text, traits, knowledge, memories, user_name, history, situation))


def request(
    text: str | None,
    traits: dict[str, float] | None = None,
    knowledge: list[str] | None = None,
    memories: list[str] | None = None,
    user_name: str | None = None,
    history: list[Turn] | None = None,
    situation: dict[str, object] | None = None,
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


def test_cites_the_material_rather_than_claiming_it() -> None:
    reply = ask("When was the Belem Tower built?", {"formality": 0.5})
    assert re.search(r"(read|notes|know|sources|material|got)", reply.split("16th")[0], re.I)


def test_admits_ignorance_and_asks_back() -> None:
    for knowledge in (KNOWLEDGE, []):
        reply = ask("What is the tallest mountain in Nepal?", knowledge=knowledge)
        assert not any(sentence.split(".")[0] in reply for sentence in KNOWLEDGE)
        assert re.search(r"(not sure|don't|do not|nothing|afraid)", reply, re.I)
        assert "tallest mountain in Nepal" in reply or reply.rstrip().endswith("?")
        assert reply.rstrip().endswith("?")


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


def test_says_when_it_was_not_told_and_asks() -> None:
    reply = ask("Where do I live?", memories=[])
    assert re.search(r"(told me|not believe)", reply)
    assert reply.endswith("?") and "live" in reply
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


def test_deterministic_and_streamed_in_word_groups() -> None:
    import anyio

    req = request("How many people live in Lisbon?", {"verbosity": 0.9, "humor": 0.9})

    async def collect() -> tuple[str, list[str]]:
        return await engine.reply(req), [piece async for piece in engine.stream(req)]

    reply, pieces = anyio.run(collect)
    assert reply == engine.compose(req) == engine.compose(req)
    assert "".join(pieces) == reply
    assert len(pieces) > 3 and all(1 <= len(p.split()) <= 3 for p in pieces)


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
    assert means[2] > 2 * means[0], means
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
    assert casual_contractions >= 5
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
    assert re.search(r"(great|good|excellent) question", " ".join(warm), re.I)


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


def test_game_situation_gets_a_short_line_or_the_games_commentary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "avatar_service.core.games.commentary", None)  # import fails
    line = ask("", situation={"event": "blunder", "game": "chess"})
    assert line and len(line.split()) <= 20
    assert re.search(r"won|win|yours", ask("", situation={"winner": "user"}), re.I)

    fake = types.ModuleType("avatar_service.core.games.commentary")
    seen: list[tuple[object, ...]] = []

    def comment(highlights: list[str], traits: dict[str, float], rng: object, game_name: str) -> str:
        seen.append((highlights, traits, game_name))
        return f"A {highlights[0]} at {game_name}."

    fake.comment = comment  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "avatar_service.core.games.commentary", fake)
    assert ask("", {"humor": 0.9}, situation={"highlights": ["blunder", "by_user"], "game": "chess"}) == (
        "A blunder at chess."
    )
    assert seen[-1] == (["blunder", "by_user"], {"humor": 0.9}, "chess")
    assert ask("", situation={"winner": "personality", "game_id": "tic_tac_toe"}) == "A win at tic tac toe."

    def broken(*args: object) -> str:
        raise RuntimeError("bug in commentary")

    fake.comment = broken  # type: ignore[attr-defined]
    assert ask("", situation={"event": "blunder"})


def test_game_situation_with_the_real_commentary_module() -> None:
    pytest.importorskip("avatar_service.core.games.commentary")
    line = ask("", {"formality": 0.9}, situation={"highlights": ["win"], "game": "chess"})
    assert re.search(r"win|won|victory|mine", line, re.I), line
    assert line == ask("", {"formality": 0.9}, situation={"highlights": ["win"], "game": "chess"})


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
    from avatar_service.adapters.dialogue.language import second_person

    assert second_person(memory, "Sam") == spoken
