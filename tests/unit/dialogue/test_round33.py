"""Round 33 of the offline answerer: what a blind split (heldout32: a yarn shop, a skip hire firm, a children's
football club) found wrong in how answers are read, tested here on a business of its own: a phone number asked as
"your number", an address by its unit and postcode, a person's name that is a place's ("Roundhay Park"), a "not"
in the case a sentence opens with, a plural that is anyone's ("for boys") and the limit asked "old enough to join"."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import HOLDS, wanted
from avatar_service.adapters.dialogue.my_people import ages_of_relatives, weigh_for_the_limit

from .test_round24 import ask

VAN_HIRE = [
    "Northgate Vans is a family business run by Priya Shah from Unit 7, Kirkstall Industrial Estate, Leeds LS12 4QT.",
    "Our Saturday van club runs on Saturdays from 9am to noon at Roundhay Park.",
    "Book by phone or email.",
    "You can ring us on 0113 496 0772, Monday to Saturday.",
    "If you can't keep the van overnight, our wait and return service costs £90: the driver waits while you load.",
    "We run boys-only driving skills days for ages 7 to 11 on Sundays.",
    "If we have to cancel because of ice or flooding, we text you by 7am and refund the hire in full.",
]
MEMORIES = ["User's son Leo is 3", "User lives in Headingley"]


def ask_the_van_hire(*questions: str) -> str:
    return ask("The owner of a van hire firm.", VAN_HIRE, [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3], *questions,
               memories=(MEMORIES, [0.2, 0.2]))


def test_your_number_asks_for_a_phone_number() -> None:
    assert wanted("what's your number?") == ["contact"]
    assert wanted("what's hannah's number?") == ["contact"]
    assert wanted("have you got a mobile number?") == ["contact"]
    assert wanted("what's my number?") == [] and "contact" not in wanted("what's your number of staff?")
    assert "0113 496 0772" in ask_the_van_hire("what's your number?")


def test_a_unit_or_a_postcode_is_an_address() -> None:
    assert HOLDS["place"].search("The firm is run by Dean from Unit 4, Hawksworth Trading Estate, Swindon SN2 1DZ.")
    assert HOLDS["place"].search("Write to us, WA16 8SJ.")
    assert not HOLDS["place"].search("Call 01793 524 880 for a quote.")
    assert "LS12 4QT" in ask_the_van_hire("where are you based?")


def test_a_place_named_in_two_words_is_no_person() -> None:
    assert not HOLDS["person"].search("The club runs on Saturdays at Roundhay Park.")
    assert HOLDS["person"].search("The club is run by Priya Shah, a qualified coach.")
    assert "Priya Shah" in ask_the_van_hire("who runs it?")


def test_a_not_in_the_case_a_sentence_opens_with_is_no_no() -> None:
    reply = ask_the_van_hire("is there an option where you just wait while i load it?")
    assert "wait and return" in reply and not reply.startswith("No"), reply


def test_rained_off_is_cancelled() -> None:
    assert "text you by 7am" in ask_the_van_hire("how will i know if it's rained off?")


def test_a_plural_on_its_own_is_anyones_not_the_users_child() -> None:
    memories = ["User's son Leo is 3", "User's daughter Maisie is 4"]
    assert ages_of_relatives("do you do anything just for boys?", memories) == []
    assert ages_of_relatives("can my boys come?", memories) == [3]
    assert ages_of_relatives("is it ok for my son?", memories) == [3]
    reply = ask_the_van_hire("do you do anything just for boys?")
    assert "boys-only" in reply and not reply.startswith("No"), reply


def test_old_enough_to_join_asks_the_limit_not_about_joining() -> None:
    weights = {"maisi": 1.0, "old": 1.0, "enough": 1.0, "join": 1.0}
    said = "is maisie old enough to join?"  # (as said: nothing in it stands for someone else)
    weigh_for_the_limit(weights, said, said, "", ["User's daughter Maisie is 4"])
    assert all(w <= 0.3 for w in weights.values()), weights
    weights = {"old": 1.0, "enough": 1.0, "archeri": 1.0}  # what the limit is for, when named, stays the topic
    said = "is she old enough to do archery?"
    weigh_for_the_limit(weights, said, said, "", [])
    assert weights["archeri"] == 1.0, weights


def test_a_price_asked_by_one_unit_is_no_when_counted_by_another() -> None:
    fees = ["Seniors is paid by the term, at £85 for ten sessions.", "Juniors pay £7 a session."]
    reply = ask("The coach of a youth club.", fees, [0.4, 0.3], "do the seniors pay per session?")
    assert reply.startswith("No") and "by the term" in reply, reply
    reply = ask("A garage owner.", ["We charge £40 an hour for labour."], [0.4], "do you charge by the hour?")
    assert reply.startswith("Yes"), reply


def test_ones_own_thing_that_must_be_bought_here_is_a_no() -> None:
    rules = ["Bait must be bought from our tackle shop, but you're welcome to bring your own rods and nets."]
    reply = ask("The bailiff of a fishery.", rules, [0.4], "is it ok to bring my own bait?")
    assert reply.startswith("No"), reply
    reply = ask("The bailiff of a fishery.", rules, [0.4], "can i bring my own nets?")
    assert reply.startswith("Yes"), reply
