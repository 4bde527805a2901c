"""Round 20 of the offline answerer: whom "she" stands for when the user asks what they said, a pronoun in a
contraction ("she's"), a listed person's own description kept with them when the list is cut to one, and everyday
phrases for what a text says in other words ("the same day", "without losing", "mess up my warranty")."""

from __future__ import annotations

from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.core.text.follow_ups import is_follow_up
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

from .conversation import engine, last_reply

SCHOOL = [
    "Miss Clara Voss teaches all the piano lessons, and Mr Tom Reed teaches guitar.",
    "Lessons last 30 minutes and cost £18 each.",
    "Your first lesson is a free trial.",
]
MEMORIES = ["User's son Felix is 9 and plays piano", "User works as a nurse", "User is going to Spain in August"]


def ask(*questions: str) -> str:
    persona = Persona("Ruth", "", "The office manager at a music school.", {"verbosity": 0.3})
    return last_reply(persona, questions, SCHOOL, [0.3, 0.2, 0.2], MEMORIES, [0.2, 0.1, 0.1])


def test_a_pronoun_in_a_contraction_points_back() -> None:
    assert is_follow_up("what's he called?")
    assert is_follow_up("and how old's she?")


def test_asked_what_the_user_said_he_is_the_users_own() -> None:
    # the reply named the teacher, but "what did I say he's called?" asks after the user's son
    reply = ask("my boy's learning piano, who's his teacher?", "what did i say he's called?")
    assert "Felix" in reply and "Spain" not in reply, reply


def test_a_listed_person_keeps_their_own_description() -> None:
    staff = ("Our coaches are Ana Lopez, who specialises in jazz and tap, and Ben Ode, our trainee, "
             "and Sam Fry, who runs the office.")
    assert one_kind(staff, {"specialis", "tap"}, "who's best with tap?", ["person"]) == \
        "Our coaches are Ana Lopez, who specialises in jazz and tap."


def test_everyday_phrases_for_what_a_text_says() -> None:
    assert "sameday" in terms("can I have it back the same day?")
    assert "sameday" in terms("Our same-day service costs £5 extra.")
    assert "keep" in terms("can I book early without losing my renewal date?")
    assert {"valid", "warranti"} <= set(terms("will a service with you mess up my warranty?"))
    assert {"collect", "deliv"} <= set(terms("do you pick up and drop off?"))


def test_a_memory_that_says_back_what_the_user_just_told_answers_nothing() -> None:
    reply = ask("my boy's learning piano, who's his teacher?")
    assert "Clara Voss" in reply and "Felix" not in reply, reply


def test_a_kind_named_before_its_figure_keeps_its_own_words() -> None:
    fees = "Adult membership costs £240 a year, family membership £380 and junior membership, for under-18s, £60."
    assert one_kind(fees, {"famili"}, "and if I signed the whole family up?", ["price"]) == \
        "Family membership costs £380."


def test_words_for_a_rule_a_style_and_coming_now_and_again() -> None:
    assert "compulsori" in terms("is she made to do exams?")
    assert {"exam", "option"} <= set(terms("Exams are optional."))
    assert "visit" in terms("how much if I just come now and again?")
    assert "visit" in terms("Adults can pay £9 a class as a drop-in.")
    assert "streetdanc" in terms("Street dance is on Wednesday at 5pm.")


def test_a_rule_asked_with_what_and_a_question_wrapped_in_do_you_remember() -> None:
    from avatar_service.adapters.dialogue.user_facts import about_user, asked_part

    assert about_user("what does my little girl have to wear?") == 0.0  # the place's rule for her
    assert about_user("what does my wife do for a living?") > 0.0
    assert asked_part("what car have i got, do you remember?") == "what car have i got, do you remember?"
    assert asked_part("i have a cat, is that ok?") == "is that ok?"


def test_a_later_clause_the_question_names_is_the_answer() -> None:
    from avatar_service.adapters.dialogue.narrowing import one_clause

    repairs = "A new battery costs £59 for any iPhone and £69 for Samsung phones, and a charging port repair costs £45."
    assert one_clause(repairs, "my charging port is playing up, how much to fix it?", ["price"]) == \
        "A charging port repair costs £45."


def test_dropping_something_off_keeps_what_is_dropped() -> None:
    assert terms("can I drop my dog off early?") == ["leav", "dog", "earli"]
    assert "leav" in terms("what's the latest I can drop them off?")


def test_how_much_to_do_something_asks_a_price() -> None:
    from avatar_service.adapters.dialogue.answer_types import wanted

    assert wanted("how much to do the windows on a 3 bed semi?") == ["price"]
    assert wanted("how much notice do you need?") == ["duration"]


def test_a_show_named_in_the_question_is_not_who_does_it() -> None:
    persona = Persona("Holly", "", "The owner of a party entertainers' business.", {"verbosity": 0.3})
    knowledge = ["The Big Science Show is two hours of experiments for ages 7 to 11 and costs £290.",
                 "Professor Fizz (Tasha Reid) runs the Big Science Show.",
                 "You can book on 023 8049 6115 or through our website."]
    request = DialogueRequest(persona, [Turn("user", "who does the science show?")], knowledge=knowledge,
                              knowledge_relevance=[0.45, 0.45, 0.1])
    assert "Tasha Reid" in engine.compose(request)
    request = DialogueRequest(persona, [Turn("user", "what number can i ring you on?")], knowledge=knowledge,
                              knowledge_relevance=[0.1, 0.1, 0.15])
    assert "023 8049 6115" in engine.compose(request)


def test_how_and_when_one_pays_are_not_a_price() -> None:
    from avatar_service.adapters.dialogue.answer_types import wanted

    assert wanted("how do i pay you?") == []
    assert wanted("how long have i got to pay?") == ["duration"]
    assert wanted("how much do i pay?") == ["price"]
    assert "leav" in terms("do i need to book before bringing it in?")


def test_the_places_terms_asked_with_am_i_or_have_i_got_to() -> None:
    from avatar_service.adapters.dialogue.user_facts import about_user

    assert about_user("am i tied into a contract?") == 0.0
    assert about_user("how long have i got to pay?") == 0.0
    assert about_user("am i allergic to anything?") == 1.0
    assert about_user("what car have i got?") == 1.0
    assert terms("do you still come out if it's chucking it down?") == ["come", "rain"]
