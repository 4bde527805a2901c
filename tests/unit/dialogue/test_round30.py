"""Round 30 of the offline answerer: rules found by a blind split (heldout27: a cookery school, a boarding kennels,
an electrician), each tested here on businesses of its own."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import HOLDS, wanted
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.my_people import ages_of_named, named_for
from avatar_service.adapters.dialogue.narrowing import with_verb
from avatar_service.adapters.dialogue.question_cases import users_place
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.adapters.dialogue.user_facts import asks_about_the_told
from avatar_service.adapters.dialogue.yes_or_no import lower_first

from .test_round24 import ask

CLIMBING = [
    "Little Climbers is our club for 6 to 11 year olds. It meets every Saturday from 9am to 10am and costs £9 a "
    "session.",
    "Adults can book an induction for £15. Shoes can be hired for £4.",
    "Everyone under 18 must sign a parent's form, and children under 8 aren't allowed on the high walls.",
]


def ask_the_wall(*questions: str, memories: tuple[list[str], list[float]] = ([], [])) -> str:
    return ask("The manager of an indoor climbing wall.", CLIMBING, [0.45, 0.45, 0.3], *questions, memories=memories)


def test_year_olds_is_an_age() -> None:
    assert HOLDS["age"].search("our club for 6 to 11 year olds")
    reply = ask_the_wall("do you have a club for children?", "what age range is it for?")
    assert "6 to 11" in reply, reply


def test_an_it_sentence_says_what_it_is_when_the_question_named_nothing() -> None:
    # "It meets every Saturday" alone: what meets?
    reply = ask_the_wall("is there anything on for kids at the weekend?")
    assert "Little Climbers" in reply and "Saturday" in reply, reply


def test_how_sure_the_asker_is_is_not_what_is_asked() -> None:
    weights = question_weights("roughly how much is it?", ["price"], [])
    assert all(w < 1.0 for w in weights.values()), weights
    reply = ask_the_wall("i'm thinking about getting my own shoes, can i hire some instead?")
    assert "£4" in reply and "don't know" not in reply, reply


def test_a_pointer_after_a_question_points_at_that_question() -> None:
    assert asks_about_the_told("what's that cost?", "could i hire shoes? ")
    assert not asks_about_the_told("what's that cost?", "my son loves climbing, ")
    reply = ask_the_wall("can i get an induction? what's that cost?")
    assert "£15" in reply, reply


def test_a_named_childs_age_from_a_memory_meets_the_age_bar() -> None:
    assert ages_of_named("is gethin ok?", ["User's children are Ffion, who is 10, and Gethin, who is 13"]) == [13]
    assert ages_of_named("is tom ok?", ["Tom's lesson is at 10am"]) == []  # a time, not an age
    memories = (["User's children are Maya, who is 7, and Leo, who is 12"], [0.5])
    reply = ask_the_wall("is leo old enough to go on the high walls?", memories=memories)
    assert reply.startswith("Yes"), reply
    reply = ask_the_wall("is leo old enough to go on the high walls?", "and maya?", memories=memories)
    assert reply.startswith("No") and "under 8" in reply, reply


def test_which_day_asks_for_a_day() -> None:
    assert wanted("which day does the club meet?") == ["day"]
    assert wanted("what day and time is it?") == ["time"]
    knowledge = ["Sam runs the evening classes and looks after our Little Climbers sessions.", *CLIMBING]
    reply = ask("The manager of an indoor climbing wall.", knowledge, [0.5, 0.45, 0.45, 0.3],
                "which day does little climbers meet?")
    assert "Saturday" in reply, reply


def test_a_no_in_a_list_of_examples_set_aside_is_no_answer() -> None:
    knowledge = ["For genuine emergencies – no power, a burning smell, sparking sockets – we run an out-of-hours "
                 "service on evenings after 6pm, at weekends and on bank holidays. An emergency call-out costs £120.",
                 "Our office is open Monday to Friday 8am to 5pm for phone calls."]
    reply = ask("The office manager of an electrician.", knowledge, [0.55, 0.3],
                "one of my sockets is sparking and it's 9pm, can anyone come out?")
    assert "out-of-hours" in reply and not reply.startswith("No"), reply


def test_a_minimum_charge_goes_with_its_price() -> None:
    priced = "Key cutting is £4 per key, with a minimum charge of £10."
    assert one_kind(priced, set(terms("key cutting cost")), "what does key cutting cost?", ["price"]) == priced


KENNELS = [
    "We also offer doggy day care Monday to Friday, 8am to 6pm, for £20 a day.",
    "Day care dogs need the same vaccinations as boarders, and any dog over a year old must be neutered.",
    "Places are limited to 10 dogs a day.",
]


def test_the_users_pet_named_is_whom_a_question_is_for() -> None:
    weights = {"biscuit": 1.0, "neuter": 1.0}
    memories = ["User has a springer spaniel called Biscuit who is 4"]
    kennels = frozenset(t for sentence in KENNELS for t in terms(sentence))
    assert named_for(weights, memories, kennels) == {"biscuit"}
    assert named_for({"biscuit": 1.0}, memories, kennels) == set()  # nothing else asked: Biscuit is the topic
    assert named_for(weights, memories, frozenset(terms("Biscuit is our office cat."))) == set()  # the place's own


def test_a_sentence_level_with_the_best_that_holds_what_is_asked_answers_it() -> None:
    # the day care of the turn before comes first by meaning; the neutering rule holds what is asked
    reply = ask("The owner of a boarding kennels.", KENNELS, [0.55, 0.5, 0.4],
                "do you do day care too?", "would biscuit need to be neutered for that?",
                memories=(["User has a springer spaniel called Biscuit who is 4"], [0.3]))
    assert "neutered" in reply, reply



def test_what_is_looked_at_is_what_is_asked_about() -> None:
    assert users_place("can you have a look at my boiler?") == frozenset()
    assert users_place("can you pick it up from my house?") == frozenset(terms("house"))
    reply = ask("The office manager of an electrician.",
                ["We're electricians only, so we don't work on gas appliances, boilers or plumbing.",
                 "Our standard labour rate is £55 an hour."], [0.4, 0.2],
                "can you have a look at my boiler?")
    assert "boilers" in reply and "don't know" not in reply, reply


def test_you_re_after_yes_or_no_is_lower_case() -> None:
    assert lower_first("You're welcome to bring your own food.") == "you're welcome to bring your own food."
    assert lower_first("We'll ring you the day before.") == "we'll ring you the day before."


def test_when_the_visit_the_user_booked_is_asked_after_the_booking() -> None:
    memories = (["User has an inspection booked for Tuesday 9 September at 10:30am"], [0.5])
    knowledge = ["The office is open Monday to Friday 8am to 5pm.", "An inspection costs £120."]
    reply = ask("The office manager of an electrician.", knowledge, [0.3, 0.4],
                "when's my inspection?", "what time are you coming?", memories=memories)
    assert "10:30" in reply, reply
    # (the memory far in meaning, as MiniLM puts it, and the office hours nearer)
    reply = ask("The office manager of a plumber.",
                ["Our office is at 27 Gloucester Road, Bristol, and is open Monday to Friday from 8am to 5pm.",
                 "An emergency call-out in the evening, at night or at the weekend costs £120."], [0.31, 0.32],
                "when's my boiler service?", "what time will you turn up?",
                memories=(["User has a boiler service booked for 9 January at 8am"], [0.26]))
    assert "9 January at 8am" in reply, reply


def test_who_owns_asks_who_runs_it() -> None:
    reply = ask("The receptionist of a garage.", ["Northside Motors is run by Sue Hart, a master technician.",
                                                 "An MOT costs £54.85."], [0.3, 0.2], "who actually owns the garage?")
    assert "Sue Hart" in reply, reply


def test_which_would_you_recommend_asks_which() -> None:
    weights = question_weights("which class would you recommend?", [], [])
    assert weights.get("recommend", 0.0) < 1.0, weights


def test_each_child_is_told_whether_they_may_come() -> None:
    memories = (["User's son Sam is 11", "User's daughter Ivy is 5"], [0.4, 0.4])
    reply = ask_the_wall("could both my kids come to little climbers?", memories=memories)
    assert reply.startswith("Sam (11) can, but Ivy (5) can't"), reply
    priced = ask_the_wall("is there a discount with both my kids coming?", memories=memories)
    assert "can't" not in priced, priced  # a price asked, not whether they may


def test_a_long_question_of_its_own_does_not_borrow_the_kind_asked_before() -> None:
    # "is there a charge for that?" asked a price; what to bring is no price
    reply = ask("The owner of a boarding kennels.",
                ["Injections such as insulin cost £3 per day.", "Dog boarding is £24 per night."], [0.5, 0.4],
                "my cat needs insulin, is there a charge for that?",
                "what do i need to bring with me when i drop them off?")
    assert "£" not in reply, reply


def test_a_case_with_a_verb_of_its_own_gets_no_second_one() -> None:
    assert with_verb("teams should arrive 15 minutes early", "Every game lasts 60 minutes", ["duration"]) == \
        "teams should arrive 15 minutes early"
    assert with_verb("for a large dog £62", "A small dog costs £38", ["price"]) == "for a large dog costs £62"


def test_what_number_do_i_ring_asks_a_contact() -> None:
    assert wanted("if a pipe bursts at night, what number do I ring?") == ["contact"]


def test_seasick_is_of_boats() -> None:
    reply = ask("The booking clerk of a ferry company.", ["The ferry sails at 9am."], [0.1],
                "remind me, how do I cope on boats?", memories=(["User gets seasick easily"], [0.23]))
    assert "seasick" in reply, reply


def test_a_fiancee_called_by_name_is_a_person() -> None:
    assert HOLDS["person"].search("Your fiancee is called Imogen.")


def test_where_it_is_after_the_users_own_place_asks_of_that_place() -> None:
    memories = (["User's new flat is in Barry, on the third floor"], [0.4])
    reply = ask("The office manager of a removals firm.", ["Our storage warehouse is on Penarth Road in Grangetown."],
                [0.32], "where am i moving to?", "which floor is it on?", memories=memories)
    assert "third floor" in reply, reply


def test_open_asked_of_a_day_it_closes_is_a_no() -> None:
    reply = ask("The manager of a launderette.",
                ["We're open every day from 7am to 9pm. We close on Christmas Day, Boxing Day and New Year's Day."],
                [0.5], "are you open on boxing day?")
    assert reply.startswith("No"), reply


def test_free_answers_whether_one_pays_no() -> None:
    knowledge = ["Carers come free of charge - just mention it when you book.", "Adult tickets cost £14."]
    reply = ask("The box office manager of a theatre.", knowledge, [0.5, 0.3],
                "do carers have to pay?")
    assert reply.startswith("No"), reply
    lifts = ask("The manager of a ski school.", ["Every child must wear a helmet, and we lend helmets free of charge."],
                [0.4], "will she have to pay for the lifts?")
    assert not lifts.startswith("No"), lifts  # the helmets are free, not the lifts


def test_a_swap_is_an_exchange() -> None:
    reply = ask("The box office manager of a theatre.",
                ["Tickets can't be refunded, but they can be exchanged for another performance for £1.50 per ticket.",
                 "Adult tickets cost £14."], [0.4, 0.4], "how much does it cost to swap to another night?")
    assert "1.50" in reply, reply


def test_who_pays_what_and_who_comes_with_whom_say_no_child_may_not() -> None:
    memories = (["User's grandchildren are Rosie, who is 4, and Alfie, who is 7"], [0.4])
    knowledge = ["Under-16s pay £9.", "Children under 12 must be accompanied by an adult."]
    reply = ask("The box office manager of a theatre.", knowledge, [0.5, 0.5],
                "would it be ok for both my grandchildren to come?", memories=memories)
    assert "can" not in reply, reply
