"""Round 27 of the offline answerer: a list of priced kinds ends where a clause of its own begins ("..., and children
under 4 swim free with a paying adult" names no adult's price)."""

from __future__ import annotations

from avatar_service.adapters.dialogue.narrowing import one_kind

SWIM = ("A casual swim costs £5.20 for adults, £3.10 for juniors aged 4 to 16 and £3.80 for over-65s, and children "
        "under 4 swim free with a paying adult.")


def test_a_list_of_kinds_ends_where_a_clause_of_its_own_begins() -> None:
    assert one_kind(SWIM, {"adult", "swim"}, "how much is it for a grown-up to go swimming?", ["price"]) == \
        "A casual swim costs £5.20 for adults."
    assert one_kind(SWIM, {"junior", "swim"}, "how much is it for a junior?", ["price"]) == \
        "It's £3.10 for juniors aged 4 to 16."
    # the clause after the list is still a case of its own, found by the age asked about
    assert one_kind(SWIM, {"child"}, "how much is it for my 3 year old?", ["price"], [3]) == \
        "Children under 4 swim free with a paying adult."


def test_a_threshold_inside_the_list_still_keeps_the_sentence_whole() -> None:
    sentence = ("Our units range from 10 square feet for £18 a week, up to 200 square feet for £62 a week, and our "
                "most popular 50 square foot unit costs £29 a week.")
    assert one_kind(sentence, {"unit"}, "how much is a unit?", ["price"]) == sentence
