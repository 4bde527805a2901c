"""Round 28 of the offline answerer: "who runs it?" asks who, of what was said before."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import HOLDS, wanted
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.counted import over_the_minimum, priced_each
from avatar_service.adapters.dialogue.follow_up_context import pointing_nouns, role_words
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.my_people import ages_of_relatives
from avatar_service.adapters.dialogue.narrowing import one_clause, with_verb
from avatar_service.adapters.dialogue.offline_grounded import _Reply
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

from .conversation import last_reply
from .test_round24 import ask

GYM = [
    "Our spin class, led by Dana Whitlock, is every Wednesday at 6pm and costs £6.",
    "Our head trainer, Omar Saleh, runs the boxing club on Mondays and Fridays from 7pm.",
    "A new personal training plan starts at £120 a month and comes with a free body scan.",
    "All personal training plans are written by our senior coach, Ruth Ellery.",
]


def ask_the_gym(*questions: str) -> str:
    return ask("The manager of a gym.", GYM, [0.5, 0.4, 0.3, 0.3], *questions)


def test_who_does_it_asks_who_of_what_was_said() -> None:
    assert role_words("who runs it?") == "runs"
    assert role_words("who'd come and fit that?") == "come and fit"
    assert role_words("Who looks after that kind of job?") == "looks after"
    assert role_words("who runs the boxing club?") == ""  # names what it asks about
    reply = ask_the_gym("is there a spin class?", "who runs it?")
    assert "Dana Whitlock" in reply and "Omar" not in reply, reply


def test_that_kind_of_thing_names_nothing_new() -> None:
    assert pointing_nouns("who looks after that kind of job?") == {"job"}


def test_a_who_follow_up_is_not_answered_by_the_price_just_given() -> None:
    price, fitter = ("A new heat pump, fitted, starts at £7,900 and comes with a 7-year warranty.",
                     "All installations are done by our senior engineer, Idris Vaughan.")
    persona = Persona("Sam", "", "The owner of a heating firm.", {"verbosity": 0.3})
    # the price is nearer in meaning to the turn, as the embedder found it for the boiler of the evaluation
    reply = last_reply(persona, ["roughly what would a new heat pump cost, fitted?", "who would come and put it in?"],
                       [price, fitter], [0.5, 0.3], [], [], sentence_relevance={price: 0.6, fitter: 0.27})
    assert "Idris Vaughan" in reply, reply



def test_when_one_can_get_there_asks_when_it_opens() -> None:
    # arriving is how the time is asked, not what about: nothing known need hold it (the opening hours do not)
    weights = question_weights("what's the earliest we can get there on a sunday?", ["time"], [])
    assert set(weights) == {"sunday"}, weights
    assert "ferri" in question_weights("what time does the ferry arrive?", ["clock"], [])  # (a ferry's arrival)


def test_who_does_it_finds_the_person_by_the_word_when_the_reply_named_nobody() -> None:
    pottery = ["The studio is open Wednesday to Sunday, 10am to 5pm, with evening classes until 9pm on Wednesdays and "
               "Thursdays.",
               "A six-week beginners' wheel course costs £180, with classes on Wednesday evenings at 7pm.",
               "Naomi Frost founded the studio and teaches the wheel courses. Pete Lawson runs the kilns."]
    reply = ask("The host of a pottery studio.", pottery, [0.5, 0.4, 0.3], "what time are the classes?",
                "who teaches it?")
    assert "Naomi Frost" in reply, reply


def test_the_person_to_talk_to_is_who_is_asked() -> None:
    assert set(question_weights("who's the best person to talk to about the party?", ["person"], [])) == \
        {"good", "parti"}


def test_a_word_asked_whether_that_nothing_holds_is_not_said_by_a_sentence_near_in_meaning() -> None:
    florist = ["Dried-flower bouquets are available all year round from £85.",
               "A bridal bouquet starts at £120, and bridesmaids' bouquets cost £55 each.",
               "We deliver wedding flowers to the venue on the morning of the wedding."]
    persona = Persona("Sam", "", "The owner of a wedding florist.", {"verbosity": 0.3})
    # the dried bouquets are the nearest in meaning, as the embedder found them, but nothing known preserves anything
    reply = last_reply(persona, ["can you dry and preserve my bouquet after the wedding?"], florist, [0.5, 0.4, 0.3],
                       [], [], sentence_relevance={florist[0]: 0.56, florist[1]: 0.52, florist[2]: 0.4})
    assert "Dried-flower" not in reply and "know" in reply, reply
    restaurant = ["Tables can be booked by phone at 06 4455 8899 or online.",
                  "Groups larger than eight people must book at least two days ahead."]
    persona = Persona("Sam", "", "The host of a restaurant.", {"verbosity": 0.3})
    reply = last_reply(persona, ["can I book a table for ten people?"], restaurant, [0.5, 0.5], [], [],
                       sentence_relevance={restaurant[0]: 0.54, restaurant[1]: 0.54})
    assert "know" not in reply, reply  # (a number is an amount, not a thing nothing holds)


CLUB = ["Children are split into two groups: Juniors, aged 5 to 8, and Seniors, aged 9 to 14.",
        "A full week costs £150 per child."]
FAMILY = (["User's mum Sandra sometimes collects the children", "User's son Theo is 11 and loves the drums",
           "User's daughter Amelie is 7"], [0.3, 0.35, 0.3])


def test_several_of_the_users_children_are_each_answered_from_the_memories() -> None:
    for question in ("how old did i say my two are?", "how old are my children?", "what are my kids called?"):
        reply = ask("The host of a holiday club.", CLUB, [0.4, 0.3], question, memories=FAMILY)
        assert "Theo is 11" in reply and "Amelie is 7" in reply and "Sandra" not in reply, (question, reply)
    reply = ask("The host of a holiday club.", CLUB, [0.4, 0.3], "how old is my son?", memories=FAMILY)
    assert "Theo is 11" in reply and "Amelie" not in reply, reply


def test_who_looks_after_them_when_nothing_known_says_so() -> None:
    dentist = ["Children are seen by Dr. Ruben Vos.", "Dr. Hannah Kowalski is our orthodontist and fits braces.",
               "We are open Monday to Friday from 8am to 6pm."]
    reply = ask("The receptionist of a dental practice.", dentist, [0.4, 0.3, 0.2], "Who looks after kids?")
    assert "Ruben Vos" in reply, reply


def test_what_the_place_lets_one_do_or_sees_is_how_the_question_is_put() -> None:
    locksmith = ["We never open a door without proof that you live there, such as a driving licence or a bill.",
                 "An emergency call-out costs £75 on weekdays.", "We cover the whole of Leicester."]
    reply = ask("The owner of a locksmith firm.", locksmith, [0.3, 0.3, 0.2],
                "do you need to see ID or anything before you let me in?")
    assert "proof" in reply, reply


def test_where_a_thing_is_held_asks_a_place() -> None:
    assert set(question_weights("where's the recital being held?", ["place"], [])) == {"recit"}


def test_a_list_of_kinds_that_differ_in_how_many_is_cut_to_the_count_asked() -> None:
    sentence = "We remove earwax by microsuction, which costs £65 for both ears or £45 for one ear."
    assert one_kind(sentence, {"ear"}, "how much is it for just the one ear?", ["price"]) == "It's £45 for one ear."
    assert "£65 for both ears" in one_kind(sentence, {"ear"}, "and for both?", ["price"])
    shirts = "A shirt washed and pressed costs £2.80, or £2.50 each when you bring five or more."
    assert one_kind(shirts, {"shirt"}, "what's a single shirt cost?", ["price"]) == shirts  # ("each" is no count)


def test_being_coeliac_is_a_diet() -> None:
    reply = ask("The owner of a bookshop with a café.", CLUB, [0.1, 0.1], "did i tell you about my diet thing?",
                memories=(["User is coeliac", "User has a spaniel called Biscuit"], [0.08, 0.1]))
    assert "coeliac" in reply, reply


def test_days_listed_together_are_one_kinds() -> None:
    sentence = "Last orders are at 5pm on weekdays and Saturdays and 3:30pm on Sundays."
    assert one_kind(sentence, {"sunday"}, "and on sundays?", ["clock"]) == "It's 3:30pm on Sundays."
    assert one_kind(sentence, {"saturday"}, "and on saturdays?", ["clock"]) == \
        "Last orders are at 5pm on weekdays and Saturdays."


def test_a_case_that_says_its_figure_with_a_verb_of_its_own_gets_no_other() -> None:
    assert with_verb("our soup of the day is £6.50", "A pot of tea costs £2.80", ["price"]) == \
        "our soup of the day is £6.50"
    assert with_verb("for a large dog £62", "A small dog costs £40", ["price"]) == "for a large dog costs £62"


def test_a_price_in_pence_is_no_time_of_day() -> None:
    assert not HOLDS["clock"].search("A pot of tea costs £2.80 and a flat white is £3.40.")
    assert HOLDS["clock"].search("The last bus leaves at 10.30.")


def test_is_there_a_charge_for_that_asks_the_price_of_what_was_said() -> None:
    clinic = ["For anyone who can't get to the clinic we do home visits within 15 miles of Exeter, with a £40 call-out "
              "charge.", "A hearing test is free and takes an hour.", "We are open Monday to Friday, 9am to 5pm."]
    reply = ask("The receptionist of a hearing clinic.", clinic, [0.4, 0.3, 0.3],
                "she can't get out of the house, could someone come to her?", "is there a charge for that?")
    assert reply.startswith("Yes") and "£40" in reply, reply



def test_for_me_names_one_person_only_when_a_price_is_asked() -> None:
    def weights(question: str) -> dict[str, float]:
        request = DialogueRequest(Persona("Sam", "", "The owner of a bookshop.", {}), [Turn("user", question)],
                                  knowledge=["Adult tickets cost £8."], knowledge_relevance=[0.3])
        return _Reply(request).query(question, False).weights

    assert "adult" in weights("how much would it be for just me?")
    assert "adult" not in weights("if you haven't got a book can you get it in for me?")


def test_what_sort_of_money_asks_a_price() -> None:
    assert wanted("my wife reckons i need hearing aids, what sort of money are they?") == ["price"]
    assert wanted("what kinds of boats do you have?") == ["list"]


def test_a_yes_or_no_question_after_a_recall_asks_the_place() -> None:
    cafe = ["There's no lift up to the café, but we'll happily bring your order down to the ground floor.",
            "Our café is upstairs and seats 24.", "The shop is open from 9am to 5:30pm."]
    memories = (["User's mum Eileen uses a wheelchair", "User lives in Church Stretton"], [0.5, 0.2])
    reply = ask("The owner of a bookshop with a café.", cafe, [0.45, 0.4, 0.2], "who did i say uses a wheelchair?",
                "can she get up to the café?", memories=memories)
    assert "no lift" in reply, reply


def test_a_grandchild_is_a_child_whose_age_a_memory_gives() -> None:
    assert ages_of_relatives("is there anything on for kids my grandson's age?",
                             ["Gwen's grandson Alfie is 4 and loves dinosaurs", "Gwen lives in Ludlow"]) == [4]


def test_what_they_get_for_that_asks_what_is_included() -> None:
    assert wanted("what do they get for that?") == ["list"]
    party = ["Our Bounce Party costs £17 per child, with a minimum of 10 children. It includes an hour's jump and grip "
             "socks, followed by 45 minutes in a party room with hot food, squash and a party host."]
    reply = ask("The host of a trampoline park.", party, [0.5], "how much is a party per child?",
                "what do they get for that?")
    assert "hot food" in reply, reply


def test_a_count_under_the_minimum_is_a_no_and_a_frame_is_no_clause() -> None:
    rule = "On Friday and Saturday nights, and every night in August, the minimum stay is two nights."
    assert over_the_minimum("can we just do the one night on a saturday?", rule) is False
    assert over_the_minimum("can we stay three nights?", rule) is True
    assert over_the_minimum("can we bring a dog?", rule) is None
    rooms = [rule, "A double room costs £95 a night, breakfast included."]
    reply = ask("The owner of a guesthouse.", rooms, [0.5, 0.3], "can we just do the one nite on a saturday?")
    assert reply.startswith("No") and "minimum stay is two nights" in reply, reply


def test_a_price_per_one_does_not_cover_both() -> None:
    assert priced_each("is that for both boots?", "New zips in boots cost £30 per boot.")
    assert not priced_each("is that for both boots?", "Resoling a pair of boots costs £45.")
    reply = ask("The owner of a shoe repair shop.", ["New zips in boots cost £30 per boot.", "Heels cost £12."],
                [0.5, 0.3], "how much for new zips in my boots?", "is that for both boots?")
    assert reply.startswith("No"), reply


def test_more_than_one_asks_both_the_price_of_one_and_of_each_extra() -> None:
    sentence = "Treating a wasp nest costs £60, and each extra nest treated on the same visit costs £20."
    # (the last reply had said the first clause)
    assert one_clause(sentence, "and if there's two of them?", ["price"], True, "Treating a wasp nest costs £60.") == \
        sentence


def test_a_question_about_the_place_is_never_refused_as_something_the_user_did_not_tell() -> None:
    rooms = ["Nobody who has been drinking alcohol is allowed to play.", "Each room takes 60 minutes."]
    reply = ask("The host of an escape-room venue.", rooms, [0.3, 0.3], "My dad's in a wheelchair, can he still play?")
    assert "told" not in reply and ("know" in reply or "not sure" in reply), reply
