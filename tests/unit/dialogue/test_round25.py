"""Round 25 of the offline answerer: an age asked "at that age" is the age just said, and the place's limit for it
is the answer, not the age again nor "you haven't told me"; "riders can start at 4" and "16- and 17-year-olds" are
age limits, and the one naming the age asked says more than a wider one ("under 14"); a clause after a bare comma
("..., charging ports take about two hours") is a case of its own."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import age_fit
from avatar_service.adapters.dialogue.narrowing import one_clause

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
    assert 0 < age_fit("We pierce 16- and 17-year-olds with a parent present.", [16]) < 1.0
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
