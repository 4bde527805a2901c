"""Round 24 of the offline answerer: emphasis that names nothing ("a proper kitchen"); "afterwards" is "after";
a question about what the user just told ("there's a fox under our shed, can you get rid of it?"); a yes-or-no
question whose every main word a sentence holds ("could you drop a parcel off?" / "we don't deliver parcels"); a
follow-up whose kind is the turn before's is answered by the sentence holding its own words ("what about christmas
day?" after "from what time?"); a number asked whether ("just the one visit?") checked against the one given; poison
is bait, dearer is a price, sitting down is seated, people are guests."""

from __future__ import annotations

from avatar_service.adapters.dialogue.counted import in_the_count
from avatar_service.adapters.dialogue.terms import RELATED, terms
from avatar_service.ports.dialogue import Persona

from .conversation import last_reply


def ask(description: str, knowledge: list[str], relevance: list[float], *questions: str,
        memories: tuple[list[str], list[float]] = ([], [])) -> str:
    """The reply to the last of `questions`, asked in turn of a personality that `description` describes."""
    persona = Persona("Sam", "", description, {"verbosity": 0.3})
    return last_reply(persona, questions, knowledge, relevance, *memories)

PESTS = [
    "Getting rid of rats or mice in a house costs £140, which covers three visits over three weeks. "
    "Treating a wasp nest costs £60.",
    "For fleas, you need to hoover every room before we come, and children and pets must stay out of the house for "
    "four hours after we spray. For rats and mice we use sealed bait boxes that are safe around children and pets.",
    "We don't deal with foxes, badgers or moles, and we don't deliver leaflets.",
]


def ask_about_pests(*questions: str) -> str:
    return ask("The owner of a pest control firm.", PESTS, [0.5, 0.4, 0.3], *questions)


def test_what_the_user_told_is_what_it_stands_for() -> None:
    reply = ask_about_pests("there's a fox living under our shed, can you get rid of it?")
    assert reply.startswith("No") and "foxes" in reply, reply


def test_afterwards_is_after() -> None:
    reply = ask_about_pests("how much is a flea treatment?", "how long do we have to stay out afterwards?")
    assert "four hours" in reply, reply


def test_a_number_asked_whether_is_checked_against_the_one_given() -> None:
    reply = ask_about_pests("how much to get rid of mice?", "is that just the one visit?")
    assert reply.startswith("No") and "three visits" in reply, reply
    assert in_the_count("do you have two ovens?", "The kitchen has two ovens and a dishwasher.") is True
    assert in_the_count("can 5 people come?", "Our cars take up to four people.") is None  # a bound: not a count


def test_a_yes_or_no_question_whose_every_main_word_a_sentence_holds() -> None:
    reply = ask_about_pests("could you drop some leaflets off for me?")
    assert reply.startswith("No") and "leaflets" in reply, reply


TAXI = [
    "Our fares start at £4.50, plus £2.20 a mile. Between 11pm and 6am, fares are time and a half. "
    "On Christmas Day and Boxing Day, fares are double.",
    "The main hall holds 120 people standing or 80 seated at tables. The kitchen has two ovens and an urn.",
]


def ask_the_taxi(*questions: str) -> str:
    return ask("The owner of a taxi firm.", TAXI, [0.5, 0.2], *questions)


def test_a_follow_up_with_the_turn_befores_kind_is_answered_by_its_own_words() -> None:
    reply = ask_the_taxi("when are fares time and a half?", "from what time?", "what about christmas day?")
    assert "double" in reply, reply


def test_emphasis_names_nothing() -> None:
    assert "proper" not in terms("is there a proper kitchen i could use?")
    reply = ask_the_taxi("is there a proper kitchen i could use?")
    assert "ovens" in reply, reply


def test_everyday_words() -> None:
    assert "bait" in RELATED.get("poison", frozenset())
    assert "expens" in RELATED.get("dearer", frozenset()) or "cost" in RELATED.get("dearer", frozenset())
    assert "seat" in terms("will they all fit sat down?")
    assert "guest" in RELATED.get("peopl", frozenset())


HALL = [
    "Please don't use nails, tape or Blu Tack on the walls; use the hooks along the picture rail. "
    "Sue shows people round the hall on Tuesday evenings between 6pm and 7pm.",
    "The kitchen has two ovens, a dishwasher, and crockery and cutlery for 100 people.",
]


def ask_the_hall(*questions: str) -> str:
    return ask("The bookings secretary of a village hall.", HALL, [0.4, 0.3], *questions)


def test_a_no_holding_every_known_word_asked_answers_though_one_is_unknown() -> None:
    reply = ask_the_hall("can i put bunting up with blu tack?")  # (bunting is nowhere)
    assert reply.startswith("No") and "Blu Tack" in reply, reply


def test_looking_round_is_a_viewing_and_cups_are_crockery() -> None:
    assert "Tuesday" in ask_the_hall("can i come and look round first?")
    assert "crockery" in ask_the_hall("are plates and cups included?")


def test_the_one_memory_holding_a_word_asked_about_the_user_answers() -> None:
    memories = ["User prefers pitches close to the river", "User is allergic to wasp stings",
                "User travels in an old VW campervan"]
    reply = ask("The warden of a campsite.", ["Pitches cost £25 a night."], [0.1],
                "Which part of the site do I like to be in?", memories=(memories, [0.16, 0.07, 0.03]))
    assert "river" in reply, reply


def test_becoming_a_member_is_the_membership() -> None:
    knowledge = ["Regent membership costs 45 euros a year. Members get 2 euros off every ticket, 10% off at the bar, "
                 "and two free tickets when they join."]
    reply = ask("The manager of a cinema.", knowledge, [0.5], "How much is it to become a member?")
    assert "45 euros" in reply, reply


def test_a_day_the_whole_sentence_opens_with_is_no_case_of_it() -> None:
    from avatar_service.adapters.dialogue.narrowing import one_case

    sentence = "At weekends we are open from 8am to 1pm on Saturday and from 8am to 4pm on Sunday."
    assert one_case(sentence, set(terms("are you open on sundays?")), set(), ["time"]) == \
        "At weekends we are open from 8am to 4pm on Sunday."


def test_who_does_something_asks_the_place_not_what_the_user_told() -> None:
    knowledge = ["Mia Carter does all our piercings, with sterile needles."]
    reply = ask("The manager of a tattoo studio.", knowledge, [0.3], "who does the piercings?",
                memories=(["User's sister Grace is 16 and wants her nose pierced"], [0.5]))
    assert "Mia" in reply, reply


def test_when_a_place_shuts_asks_the_hour() -> None:
    knowledge = ["The shop is open Tuesday to Saturday from 7am to 4pm and on Sunday from 8am to 1pm. We are closed on "
                 "Mondays."]
    reply = ask("The owner of a bakery.", knowledge, [0.6],
                "What time do you open on a Sunday?", "and when do you shut?")
    assert "1pm" in reply, reply
