"""Round 9 of the offline answerer: a word of everyday English that nothing known holds ("per head", "you guys",
"at least", "set me back") is how a question is said, not what it asks about; a rarer word nothing holds still
makes the question one the avatar cannot answer."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.terms import RELATED, common_terms, stem, terms
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

PUZZLE_ROOMS = [
    "Lockbox is at 12 Canal Street, Leeds, above the bakery.",
    "Teams of 2 or 3 pay £25 per player, and teams of 4 to 6 pay £19 per player.",
    "A technician reaches addresses inside the ring road within 40 minutes.",
]
PLOTS = ["A small garden plot costs £30 a year and a full plot costs £55 a year.", "The gates open at 8am."]
engine = OfflineGroundedDialogue()


def ask(*questions: str, knowledge: list[str] = PUZZLE_ROOMS) -> str:
    persona = Persona("Ana", "", "The host at Lockbox, a puzzle room venue in Leeds.", {"verbosity": 0.3})
    turns: list[Turn] = []
    reply = ""
    for question in questions:
        turns.append(Turn("user", question))
        reply = engine.compose(DialogueRequest(persona, list(turns), knowledge=knowledge, memories=[]))
        turns.append(Turn("assistant", reply))
    return reply


def test_common_words_are_everyday_english() -> None:
    assert {"head", "guy", "back", "least"} <= common_terms("cost per head? you guys, set me back at least")
    question = "do you sell skateboards or thermostats?"
    assert not common_terms(question) & set(terms(question))
    assert "five" not in common_terms("there's five of us")  # a number is no everyday word
    assert "long" not in common_terms("Is there long-stay parking?")  # a compound's part is not the word
    assert "d" not in common_terms("Do you show films in 3D?")


def test_an_everyday_word_nothing_holds_does_not_make_a_question_unanswerable() -> None:
    assert "£19" in ask("There's five of us, what's it going to cost per head?")
    assert "Canal Street" in ask("where are you guys?")
    assert "duration" in wanted("how quickly can someone get to me?")
    assert "40 minutes" in ask("how quickly can a technician get to me?")


def test_set_me_back_asks_a_price() -> None:
    assert "cost" in terms("what does a full plot set me back?")
    assert "price" in wanted("what does a full plot set me back?")
    assert "£55" in ask("what does a whole plot set me back each year?", knowledge=PLOTS)


def test_a_rarer_word_nothing_holds_is_still_unknown() -> None:
    reply = ask("Do you sell skateboards?")
    assert "not know" in reply or "not sure" in reply
    assert "skateboards" in reply


def test_the_places_own_trade_is_no_unknown_topic() -> None:
    persona = Persona("Jo", "", "The office manager of Tapwell Plumbing, a family plumbing firm.", {"verbosity": 0.3})
    knowledge = ["A call-out during working hours costs £65.", "Our office is open Monday to Friday."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "How much is it to get a plumber out?")],
                                           knowledge=knowledge, memories=[]))
    assert "£65" in reply


def test_everyday_words_for_calling_and_hurrying() -> None:
    assert "call" in terms("What's the best number to ring you on?")
    assert "contact" in wanted("What's the best number to ring you on?")
    assert stem("express") in RELATED[stem("urgent")] and stem("invoice") in RELATED[stem("billing")]
