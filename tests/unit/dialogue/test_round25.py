"""Round 25 of the offline answerer: an age asked "at that age" is the age just said, and the place's limit for it
is the answer, not the age again nor "you haven't told me"; "riders can start at 4" and "16- and 17-year-olds" are
age limits, and the one naming the age asked says more than a wider one ("under 14"); a clause after a bare comma
("..., charging ports take about two hours") is a case of its own; after heldout23 was measured: "how old's",
"nite", "prob" spelled out, "do for a living" is a job, "Ellie, 9, and Oscar, 14" are ages, "a nurse" an occupation,
and asked the names of several people every name is said; "what room would we need?" after telling who comes
asks the place (the party's "we" is not a question about the user); "where we are." is not contracted; a teenager is
about 15, "half price for" some is a deal, a pro teaches, and "without me" asks about supervision; after "Yes," or
"No," a word written elsewhere in lower case loses its capital ("No, range balls ...")."""

from __future__ import annotations

from avatar_service.adapters.dialogue.age_limits import age_fit, ages_meant
from avatar_service.adapters.dialogue.answer_types import holds
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.style import contract
from avatar_service.adapters.dialogue.terms import spelled_out, terms
from avatar_service.adapters.dialogue.user_facts import asked_part
from avatar_service.adapters.dialogue.yes_or_no import lower_first

from .test_round24 import ask

RIDING = [
    "Riders under 14 must have a parent or guardian on the yard for the whole lesson. Hats are lent free.",
    "The youngest riders can start at 4 with a 20-minute lead-rein lesson for £22. A 30-minute private lesson "
    "costs £38.",
]
TATTOO = [
    "You must be 18 or over with photo ID to be tattooed, and we pierce 16- and 17-year-olds only with a parent "
    "present.",
    "Nose piercings cost £35, including titanium jewellery.",
]


def test_a_youngest_age_and_year_olds_are_age_limits() -> None:
    assert age_fit("The youngest riders can start at 4 with a lead-rein lesson.", [4]) == 1.0
    assert age_fit("The youngest riders can start at 4 with a lead-rein lesson.", [3]) == -1.0
    assert age_fit("Classes start at 9am.", [9]) == 0.0  # a time, not an age
    assert age_fit("We pierce 16- and 17-year-olds with a parent present.", [16]) > 0
    assert 0 < age_fit("Riders under 14 must have a parent on the yard.", [4]) < age_fit(
        "Riders can start at 4.", [4])


def test_at_that_age_asks_the_limit_for_the_age_just_said() -> None:
    memories = (["User's son Finn is 4"], [0.7])
    reply = ask("A riding school.", RIDING, [0.4, 0.4], "how old is my son Finn?", "can he ride at that age?",
                memories=memories)
    assert "start at 4" in reply, reply


def test_an_age_limit_asked_of_someone_told_about_is_the_places_rule() -> None:
    memories = (["User's little sister Grace is 16 and wants her nose pierced"], [0.4])
    reply = ask("A tattoo and piercing studio.", TATTOO, [0.2, 0.3], "how old is my little sister?",
                "is she allowed at that age?", memories=memories)
    assert "16- and 17-year-olds" in reply, reply


def test_a_clause_after_a_bare_comma_is_a_case_of_its_own() -> None:
    sentence = "Most phone screens are done in about an hour while you wait, charging ports take about two hours."
    assert one_clause(sentence, "my phone screen's smashed, how long would it take you to sort?", ["duration"]) == \
        "Most phone screens are done in about an hour while you wait."
    # a list of figures after a comma is no clause of its own
    listing = "Lessons last 30, 45 or 60 minutes and cost £22, £31 and £40."
    assert one_clause(listing, "how long is a lesson?", ["duration"]) == listing


GOLF = ["A basket of 50 balls costs £4 and 100 balls cost £7.", "The range is open from 7am to 10pm."]
GUESTS = ["Breakfast is served from 7:30 to 9:30am.", "Dogs are welcome in Room 1 at £15 per dog per night."]


def test_a_memory_listing_people_with_their_ages_answers_how_old_one_is() -> None:
    memories = (["User's children are Ellie, 9, and Oscar, 14", "Dan lives in Lymm"], [0.5, 0.1])
    reply = ask("A golf driving range.", GOLF, [0.1, 0.1], "how old's oscar, did i tell you?", memories=memories)
    assert "14" in reply, reply
    assert spelled_out("how old's oscar?") == "how old is oscar?"
    assert spelled_out("one nite, prob") == "one night, probably"


def test_what_the_user_does_for_a_living_is_their_job() -> None:
    memories = (["Priya is a nurse at St James's Hospital", "Priya lives in Leeds"], [0.12, 0.12])
    reply = ask("A guesthouse.", GUESTS, [0.1, 0.1], "what did i say i do for a living?", memories=memories)
    assert "nurse" in reply, reply
    assert holds("You are a nurse at St James's Hospital.", ["occupation"])


def test_asked_the_names_of_several_every_name_is_said() -> None:
    memories = (["User's children are Arjun, who is 7, and Maya, who is 4"], [0.4])
    reply = ask("A guesthouse.", GUESTS, [0.1, 0.1], "what are my kids called, did i tell you?", memories=memories)
    assert "Arjun" in reply and "Maya" in reply, reply


def test_a_question_for_the_party_after_telling_who_comes_asks_the_place() -> None:
    rooms = ["The family room costs £130 a night for two adults and up to two children. A double room costs £95.",
             "Breakfast is served from 7:30 to 9:30am."]
    memories = (["User's children are Arjun, who is 7, and Maya, who is 4"], [0.23])
    reply = ask("A guesthouse.", rooms, [0.43, 0.1],
                "there's four of us, me, my husband and two kids. what room would we need?", memories=memories)
    assert "family room" in reply, reply
    assert asked_part("my husband and two kids are coming. what room would we need?") == "what room would we need?"


def test_a_pronoun_and_its_verb_ending_a_clause_are_not_contracted() -> None:
    assert contract("I can help with opening hours and where we are.") == \
        "I can help with opening hours and where we are."
    assert contract("We are open at 9, it is free and I do not know.") == "We're open at 9, it's free and I don't know."


RANGE = [
    "A basket of 50 balls costs £5. A Range Card costs £20 and gives you 20% off every basket. On Tuesdays from 4pm "
    "until closing, baskets are half price for anyone under 18.",
    "Our PGA professionals are Craig Dunmore and Hannah Ojo. A 30-minute lesson costs £30.",
]


def test_a_teenager_is_about_15_and_half_price_for_some_is_a_deal() -> None:
    assert ages_meant("do you do any deals for teenagers?") == [15]
    reply = ask("A golf driving range.", RANGE, [0.4, 0.2], "do you do any deals for teenagers?")
    assert "under 18" in reply, reply


def test_a_pro_teaches_and_without_me_is_unsupervised() -> None:
    reply = ask("A golf driving range.", RANGE, [0.2, 0.4], "how much are lessons?", "who'd be teaching me?")
    assert "Craig Dunmore" in reply, reply
    assert "supervis" in terms("can he come down without me?")
    assert "supervis" in terms("Children under 12 must be with an adult at all times.")


def test_after_yes_or_no_a_word_that_is_no_name_is_in_lower_case() -> None:
    assert lower_first("Range balls must not be taken off site.", "a small range of new clubs") == \
        "range balls must not be taken off site."
    assert lower_first("Ray does every one by hand.", "Walking boots take two weeks.") == "Ray does every one by hand."
    assert lower_first("New zips cost £30.", "New heels cost £12") == "New zips cost £30."  # never written lower
