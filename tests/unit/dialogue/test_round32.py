"""Round 32 of the offline answerer: the user's own people and things a question names are its case, read as the
user told of them (told_cases), found by a blind split (heldout31: a pharmacy, a fishery, an upholsterer) and tested
here on businesses of their own."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import HOLDS
from avatar_service.adapters.dialogue.terms import RELATED, terms
from avatar_service.adapters.dialogue.told_cases import asks_the_place_for, case_terms, memories_named, the_cases
from avatar_service.adapters.dialogue.user_facts import about_user

from .test_round24 import ask

GARDEN_CENTRE = [
    "Greenacre Garden Centre is open every day from 9am to 5pm, and the café serves lunch from 12 to 2:30pm.",
    "Well-behaved dogs are welcome in the garden centre and the café at no extra charge, as long as they stay on a "
    "lead.",
    "The café is upstairs and there's no lift, so you'll need to manage a flight of twelve steps to reach it.",
    "Our workshop services lawnmowers and hedge trimmers. We don't work on anything with a petrol engine.",
    "Our garden design service starts at £250 for a small back garden.",
]
MEMORIES = [
    "User has a border collie called Skye",
    "User's dad Frank walks with a stick since his knee operation",
    "User has a petrol strimmer that won't start",
    "User's wife Helen is vegetarian",
    "User would rather shop early than leave the dog at home",
]


def ask_the_garden_centre(*questions: str) -> str:
    return ask("The manager of a garden centre with a café.", GARDEN_CENTRE, [0.3, 0.3, 0.3, 0.3, 0.2], *questions,
               memories=(MEMORIES, [0.5, 0.3, 0.4, 0.3, 0.2]))


def test_a_pet_named_by_its_name_is_asked_for_by_what_it_is() -> None:
    reply = ask_the_garden_centre("can skye come along?")
    assert "dogs are welcome" in reply.lower() and "collie" not in reply and not reply.startswith("No"), reply


def test_a_thing_of_the_users_asked_of_the_place_is_answered_by_the_rule_for_what_the_user_told_of_it() -> None:
    reply = ask_the_garden_centre("could you fix my strimmer?")
    assert reply.startswith("No") and "petrol engine" in reply, reply


def test_a_relative_asked_for_is_the_rule_for_what_the_user_told_of_them() -> None:
    reply = ask_the_garden_centre("will my dad be alright getting up to the cafe?")
    assert "steps" in reply and "stick" not in reply, reply


def test_what_the_user_told_is_still_what_a_question_about_them_asks() -> None:
    assert "Skye" in ask_the_garden_centre("what's my dog called?")
    assert "vegetarian" in ask_the_garden_centre("does my wife eat meat?")


def test_the_memory_a_question_names_is_one_about_that_thing() -> None:
    # the dog is the memory's topic in "User has a border collie", not in "... than leave the dog at home"
    assert memories_named("can my dog come in?", MEMORIES, frozenset()) == ([], frozenset())
    assert memories_named("can skye come in?", MEMORIES, frozenset())[0] == [0]
    assert memories_named("could you look at my nan's chair?", ["User inherited her grandmother's armchair"],
                          frozenset())[0] == [0]
    # a name the place itself says is none of the user's ("Sunday" in a memory and in the opening hours)
    assert memories_named("are you open on sunday?", ["User is coming on Sunday"], frozenset({"sunday"}))[0] == []


def test_what_is_asked_of_the_place_for_someone_is_told_from_what_is_asked_about_them() -> None:
    assert asks_the_place_for("could you fix my strimmer?")
    assert asks_the_place_for("can skye come along?")
    assert asks_the_place_for("is it free for my mum?")
    assert not asks_the_place_for("does she eat meat?")
    assert not asks_the_place_for("what did I pay for my new camera?")


def test_what_costs_nothing_extra_is_no_no_unless_paying_is_asked() -> None:
    reply = ask_the_garden_centre("can dogs come in the cafe?")
    assert not reply.startswith("No"), reply


TREETOPS = [
    "The high ropes course is for over-12s only, and children under 14 must climb with a paying adult.",
    "Every visit starts with a safety briefing, which is free of charge.",
    "Gift vouchers are posted on Mondays, and somebody needs to be home to sign for them.",
    "Entry to the Friday night zip-wire race is £8 a head.",
    "We're open every day from 9am to 5pm.",
]


def ask_the_treetops(*questions: str) -> str:
    return ask("The manager of a treetop adventure park.", TREETOPS, [0.3, 0.3, 0.3, 0.3, 0.2], *questions,
               memories=(["User's son Jack is 13"], [0.3]))


def test_an_age_limit_asks_an_age_whatever_the_limit_is_called() -> None:
    assert "over-12s" in ask_the_treetops("is there an age limit on the high ropes?")
    assert "over-12s" in ask_the_treetops("is there a minimum age for the high ropes?")


def test_climbing_with_a_paying_adult_is_being_supervised() -> None:
    reply = ask_the_treetops("can i leave jack to climb on his own?")
    assert "paying adult" in reply and not reply.startswith("Yes"), reply


def test_someone_is_somebody() -> None:
    reply = ask_the_treetops("when do you post gift vouchers?", "does someone have to be home?")
    assert reply.startswith("Yes") and "somebody needs" in reply, reply


def test_entering_is_entry() -> None:
    assert "£8" in ask_the_treetops("is there a race on friday nights?", "how much to enter?")


def test_mine_is_the_users_home() -> None:
    told = ["User's mum lives in Hexham", "User lives in Corbridge, 12 miles away"]
    assert memories_named("could you collect it from mine?", told, frozenset())[0] == [1]
    assert asks_the_place_for("do i need a permit for mine?")


def test_what_the_user_did_is_asked_of_them() -> None:
    assert about_user("which size did i go for?") == 1.0
    assert about_user("what did we order?") == 1.0
    assert about_user("what did i need to bring?") < 1.0


WOOL_SHOP = [
    "Our beginners' knitting class runs on Tuesday evenings and costs £40, including needles and a ball of wool.",
    "If you buy wool in a skein, we'll wind it into a ball for you free of charge.",
    "Click-and-collect orders can be picked up from 10am to 4pm.",
    "Our owner, Ruth, is a qualified knitting tutor.",
    "Our delivery driver waits up to 15 minutes if nobody answers.",
    "Tea and coffee are served in the shop at no extra charge.",
]


def ask_the_wool_shop(*questions: str) -> str:
    return ask("The owner of a wool shop.", WOOL_SHOP, [0.3, 0.3, 0.3, 0.3, 0.3, 0.3], *questions)


def test_what_a_price_includes_need_not_be_brought() -> None:
    reply = ask_the_wool_shop("tell me about the knitting class", "do i need to bring my own needles?")
    assert reply.startswith("No") and "including needles" in reply, reply


def test_whether_it_costs_is_answered_no_by_what_is_free() -> None:
    for reply in (ask_the_treetops("is there a safety briefing?", "does that cost anything?"),
                  ask_the_wool_shop("can you wind a skein for me?", "do you charge for that?")):
        assert reply.startswith("No") and "free of charge" in reply, reply


def test_everyday_words_of_round_32() -> None:
    assert terms("collect")[0] in RELATED[terms("grab")[0]]  # "what time can i come and grab it?"
    assert terms("wait")[0] in terms("how long would the driver hang about?")
    assert "Tuesday" in ask_the_wool_shop("is there anything for complete beginners?")
    assert "qualified" in ask_the_wool_shop("is ruth properly qualified?")


def test_a_thing_the_user_has_named_with_the_is_its_case() -> None:
    reply = ask_the_garden_centre("could you fix the strimmer?")
    assert reply.startswith("No") and "petrol engine" in reply, reply
    assert memories_named("can the old fridge freezer go in?", ["User has an old fridge freezer to get rid of"],
                          frozenset())[0] == [0]
    assert memories_named("can the fridge go in?", ["User's brother runs a fridge repair shop"], frozenset())[0] == []


# what a review of the round found (a helper's 347 turns of eight businesses of its own), each fixed


def test_a_cost_asked_of_a_thing_is_answered_by_what_costs_nothing_extra() -> None:
    assert ask_the_garden_centre("do dogs cost extra?").startswith("No")
    assert ask_the_wool_shop("is the coffee free?").startswith("Yes")


def test_asked_to_tell_what_the_user_told_it_is_said() -> None:
    assert "vegetarian" in ask_the_garden_centre("could you tell me what my wife eats?")


def test_a_thing_of_several_memories_or_of_someone_else_is_no_case() -> None:
    bikes = ["User's son Arlo is 9 and has a red BMX", "User has a carbon road bike", "User has a cargo bike"]
    assert memories_named("would you service my son's bike?", bikes, frozenset())[0] == [0]
    pianos = ["User has a Victorian upright piano", "User has a Yamaha digital piano"]
    assert memories_named("could you tune my piano?", pianos, frozenset())[0] == []


def test_nothing_told_of_someone_but_their_name_and_age_is_no_case() -> None:
    assert case_terms("would my nan be ok on the boat?", ["User's nan Pat is 92"], [0]) == frozenset()
    assert "marlborough" in case_terms("could you do my mum's?", ["User's mum lives in Marlborough"], [0])


def test_round_32s_review_words() -> None:
    assert about_user("what did we say about the dogs?") < 1.0
    assert about_user("how old is he?") >= 0.6
    assert terms("mobility")[0] in terms("User's dad walks with a frame")
    assert HOLDS["age"].search("Thursday evenings are for over 18s only.")


def test_an_age_limit_nothing_states_is_not_known() -> None:
    reply = ask_the_wool_shop("is there an age limit for click and collect?")
    assert "not sure" in reply or "don't know" in reply or "do not know" in reply, reply


# found by heldout33 (a tuition centre, a jewellery workshop, an archery range), measured once before these


def test_the_users_people_are_named_without_my_and_before_the_question() -> None:
    watch = ["User's dad Ray has an automatic Omega watch that has stopped working"]
    assert memories_named("can i bring dad's watch in to you?", watch, frozenset())[0] == [0]
    told = "my mum does pickup sometimes, will she be ok getting up to you?"
    cases, told_of = the_cases(told, "will she be ok getting up to you?", ["User's mum uses a wheelchair"],
                               frozenset(), frozenset(), {}, aged=False)
    assert cases == [0] and terms("wheelchair")[0] in told_of
    assert asks_the_place_for("could jake do something there for his birthday?")


def test_the_places_own_name_tells_nothing_of_the_users() -> None:
    husband = ["User's husband Pete is a self-employed electrician"]
    question = "my husband needs somewhere for his tools, do you do anything for businesses?"
    _, told_of = the_cases(question, "do you do anything for businesses?", husband, frozenset(),
                           frozenset(terms("Keepsafe Self Storage")), {}, aged=False)
    assert terms("self")[0] not in told_of and terms("electrician")[0] in told_of
