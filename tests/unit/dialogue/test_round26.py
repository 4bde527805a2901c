"""Round 26 of the offline answerer: a no that names what is asked about answers a yes-or-no question whatever else it
names ("a spare front door key?" / "we don't cut keys"), but only the no of the part that names it; a case of a
sentence is named by a word of its own ("£110 per hour, or £130 per hour with our guest artists" is not named by
"per hour"), and asked "the bigger size?" the last of its cases is; "how much do you charge" asks a price."""

from __future__ import annotations

from avatar_service.adapters.dialogue.narrowing import one_clause

from .test_round24 import ask

SHOES = [
    "We don't dye or recolour shoes, and we don't cut keys. New zips in boots cost £30 per boot.",
    "We have a small arcade with 30 machines, but we do not have pool tables.",
    "Hobnail Shoe Repairs is at 14 Fisher Street, Carlisle.",
]


def ask_cobbler(*questions: str) -> str:
    return ask("The owner of a cobbler's shop.", SHOES, [0.4, 0.2, 0.2], *questions)


def test_a_no_that_names_what_is_asked_about_answers_whatever_else_the_question_names() -> None:
    reply = ask_cobbler("can you cut me a spare front door key?")
    assert reply.startswith("No") and "keys" in reply, reply


def test_only_the_no_of_the_part_naming_it_answers() -> None:
    reply = ask_cobbler("is there a cash machine in the building?")
    assert "pool tables" not in reply, reply


def test_a_case_is_named_by_a_word_of_its_own() -> None:
    sentence = ("Our minimum charge is £60, which covers small pieces, and most work is charged at £110 per hour, or "
                "£130 per hour with our guest artists.")
    assert one_clause(sentence, "how much does suki charge per hour?", ["price"]) == \
        "Most work is charged at £110 per hour."
    assert "130" in one_clause(sentence, "how much is it with a guest artist?", ["price"])


def test_the_bigger_one_is_the_last_case() -> None:
    sentence = "Museum glass costs £30 extra for A4 and £45 extra for A3."
    assert one_clause(sentence, "how much extra is that on the bigger size?", ["price"]) == "It's £45 extra for A3."
    assert "30" in one_clause(sentence, "and on the smaller one?", ["price"])
