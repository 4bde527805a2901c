"""Round 23 of the offline answerer: a follow-up that asks only for a kind of answer ("how long does it take?")
after turns that borrowed many words; coming often as what a pass is for; a day the question names that a sentence
lists without hours ("and never on Sundays"); whether there is something for what the last reply said; the clause
after ", and" that holds what is asked says yes or no ("money off" is a discount); a yes-or-no question after a memory
is not answered by that memory said again; the one person of a list that "who" names, and the quick ways ("express"); a
follow-up that names nothing ("how much is that?") asks about the case the turn before named; half an hour is 30
minutes; "how often" asks for a frequency, not any number; what the place provides one need not bring; running late
is answered by when to arrive; what stops the sun fading a picture is what blocks UV light; coming out that far
asks whether the area is covered; fitting a log burner is installing a wood-burning stove; forgetting and lighting it is
about it being lit; "£10 off" is a discount; a yes or no cut to the clause that holds what it asks; "when can I swim?"
asks the place; no "No, No"; a single class is a drop-in."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import holds, wanted
from avatar_service.adapters.dialogue.narrowing import one_case, one_clause
from avatar_service.adapters.dialogue.ranked import Candidate, Query, Ranking, Scored
from avatar_service.adapters.dialogue.ranking import rank, said_sentences
from avatar_service.adapters.dialogue.terms import GENERIC_TERMS, RELATED, terms
from avatar_service.adapters.dialogue.user_facts import asks_permission
from avatar_service.adapters.dialogue.yes_or_no import with_answer_word
from avatar_service.ports.dialogue import Persona

from .conversation import last_reply

SWEEP = [
    "A standard sweep of an open fire costs £65, and each extra flue on the same visit costs £35. "
    "Removing a bird's nest costs from £90.",
    "We sweep with brushes and a sealed vacuum. A normal sweep takes about 45 minutes. "
    "Please don't light the fire on the day of your sweep.",
    "We cover Shrewsbury and Wem. You can book on 01743 496 027. "
    "We sweep Monday to Friday from 8am to 5pm and on Saturday mornings from 8am to 12 noon, and never on Sundays.",
]
MEMORIES = ["User has a wood-burning stove in the living room and an open fire in the dining room", "User lives in Wem"]


def ask(*questions: str) -> str:
    persona = Persona("Owen", "", "The owner of a chimney sweeping business.", {"verbosity": 0.3})
    return last_reply(persona, questions, SWEEP, [0.5, 0.4, 0.2], MEMORIES, [0.5, 0.2])


def test_a_follow_up_asking_only_a_kind_is_answered_by_the_sentence_of_that_kind() -> None:
    # the first turn's many words leave the second's share of any sentence small: the kind asked for chooses
    reply = ask("how much is a sweep of an open fire and a stove on the same visit?", "how long does it take?")
    assert "45 minutes" in reply, reply


STUDIO = [
    "A drop-in class costs £12, a ten-class pass costs £100, and unlimited monthly membership costs £65. "
    "Your first class is free if you book it online. Private one-to-one sessions cost £50 an hour.",
    "Classes last 60 minutes. Beginners' yoga is on Monday evenings at 6pm.",
]


def ask_the_studio(*questions: str) -> str:
    persona = Persona("Priya", "", "The owner of a yoga studio.", {"verbosity": 0.3})
    return last_reply(persona, questions, STUDIO, [0.5, 0.3], [], [])


def test_coming_often_is_what_a_pass_is_for() -> None:
    reply = ask_the_studio("is there a cheaper way if i come a lot?")
    assert "pass" in reply and "Private" not in reply, reply


def test_a_day_named_without_hours_is_not_cut_to_the_day_before() -> None:
    hours = SWEEP[2].split(". ")[-1]
    assert one_case(hours, {"sunday"}, {"saturday"}, ["clock"]) == hours  # the Saturday case is not the answer
    # ...while "what time do you close that day?" after Saturdays still gets the Saturday case
    assert "Saturday" in one_case(hours, set(terms("close day")), {"saturday"}, ["clock"])
    reply = ask("what hours do you work on saturdays?", "and sundays?")
    assert "never" in reply.lower() and "noon" not in reply, reply


def test_whether_there_is_something_for_what_the_reply_said() -> None:
    studio = [*STUDIO, "Priya teaches our pregnancy yoga class on Thursdays at 6pm, from 14 weeks of pregnancy."]
    persona = Persona("Priya", "", "The owner of a yoga studio.", {"verbosity": 0.3})
    reply = last_reply(persona, ["how far along did i say i was?", "is there a class for that?"], studio,
                       [0.4, 0.3, 0.2], ["User is 22 weeks pregnant"], [0.5])
    assert "pregnancy yoga" in reply and "Thursday" in reply, reply


def test_the_clause_that_holds_what_is_asked_says_yes_or_no() -> None:
    payment = "We take card and cash, but not cheques, and members of the Art Society get 10% off framing."
    best = Scored(Candidate(payment, "knowledge", 0, 0, 0.4, True), 0.5, 0.5, False)
    ranking = Ranking([best], 0.0, 1)
    assert with_answer_word(best, "do i get money off for that?", ranking).startswith("Yes, ")
    assert with_answer_word(best, "can i pay by cheque?", ranking).startswith("No, ")


def test_a_yes_or_no_after_a_memory_is_not_answered_by_that_memory_again() -> None:
    memory = Candidate("Your daughter Megan is 18 and has just passed her driving test.", "memory", 0, 0, 0.3, True)
    cars = Candidate("We have two courtesy cars, but drivers must be over 25.", "knowledge", 0, 0, 0.5, True)
    others = [Candidate(text, "knowledge", 1, i, 0.2, True) for i, text in enumerate([
        "An MOT costs £45.", "A full service costs £219.", "We are open Monday to Friday from 8am to 6pm.",
        "Tyres are fitted from £65 each.", "We collect your car from home for £15."])]
    asked = dict(text="could she borrow one of your courtesy cars?", weights={"courtesi": 1.0, "car": 1.0,
                 "borrow": 1.0, "daughter": 0.5, "megan": 0.5}, yes_no=True, about_user=0.6)
    assert rank(Query(**asked), [memory, cars, *others]).ranked[0].candidate is memory  # (what it was before)
    said = said_sentences(memory.text)
    assert rank(Query(**asked, last_reply=said), [memory, cars, *others]).ranked[0].candidate is cars


def test_who_is_the_one_person_of_a_list_that_the_question_names() -> None:
    team = ("Uncle Barney (Barnaby Cole) does our magic and balloon modelling, Professor Fizz (Tasha Reid) runs the "
            "Big Science Show, and Captain Jo (Joanna Pike) does pirate parties.")
    assert one_clause(team, "who does the science show?", ["person"]).startswith("Professor Fizz")
    manager = "The manager, Ms. Florence Okonjo, has run the cinema since 2010."
    assert one_clause(manager, "who is the manager?", ["person"]) == manager  # one person named twice


CLEANER = ["Taking up trouser hems costs £11, replacing a zip costs from £15, and taking in a dress starts at £20.",
           "Duvets take three working days and wedding dresses take two weeks."]


def ask_the_cleaner(*questions: str) -> str:
    persona = Persona("Rosa", "", "The owner of a dry cleaner's.", {"verbosity": 0.3})
    return last_reply(persona, questions, CLEANER, [0.5, 0.4], [], [])


def test_a_follow_up_naming_nothing_asks_about_the_case_the_turn_before_named() -> None:
    assert ask_the_cleaner("can you take up the trousers on my suit?", "how much is that?") == \
        "Taking up trouser hems costs £11."
    # ...but a turn that names its own case keeps it
    assert ask_the_cleaner("how long does a wedding dress take?", "and a duvet?") == "Duvets take three working days."


def test_a_duration_said_in_words_is_its_minutes() -> None:
    assert terms("and for half an hour?") == terms("and for 30 minutes?")
    assert "30" not in terms("two and a half hours")  # (not "half hours" read as 30 minutes)
    prices = "A 30-minute private lesson costs £38 and an hour-long private lesson costs £65."
    persona = Persona("Jo", "", "The owner of a riding school.", {"verbosity": 0.3})
    reply = last_reply(persona, ["how much is a private lesson?", "and for half an hour?"], [prices], [0.5], [], [])
    assert "£38" in reply and "£65" not in reply, reply


def test_how_often_asks_for_a_frequency_not_any_number() -> None:
    assert wanted("i burn logs, how often should i have it swept?") == ["frequency"]
    assert holds("We recommend sweeping twice a year if you burn wood.", ["frequency"])
    assert holds("Regular customers are cleaned every four weeks.", ["frequency"])
    assert not holds("Clearflue was started in 2009.", ["frequency"])
    assert not holds("We only do inside cleans when you ask, not on every visit.", ["frequency"])


def test_what_the_place_provides_the_user_need_not_bring() -> None:
    mats = "We provide mats, blocks and straps free, but you're welcome to bring your own mat."
    best = Scored(Candidate(mats, "knowledge", 0, 0, 0.4, True), 0.5, 0.5, False)
    ranking = Ranking([best], 0.0, 1)
    assert with_answer_word(best, "do we need to bring our own mats?", ranking).startswith("No, ")
    assert not with_answer_word(best, "can i bring my own mat?", ranking).startswith("No, ")


def test_running_late_is_answered_by_when_to_arrive() -> None:
    rules = ["Please arrive ten minutes early, because the door is locked five minutes after a class starts.",
             "Morning flow classes run Monday to Friday at 7am."]
    persona = Persona("Priya", "", "The owner of a yoga studio.", {"verbosity": 0.3})
    reply = last_reply(persona, ["what if we're running a bit late?"], rules, [0.4, 0.3], [], [])
    assert "locked" in reply, reply


def test_what_stops_the_sun_fading_a_picture() -> None:
    glass = "Museum glass, which blocks 99% of UV light so pictures don't fade, costs £30 extra."
    best = Scored(Candidate(glass, "knowledge", 0, 0, 0.4, True), 0.5, 0.5, False)
    ranking = Ranking([best], 0.0, 1)
    assert with_answer_word(best, "is there glass that stops the sun fading it?", ranking).startswith("Yes, ")
    assert RELATED[terms("sun")[0]] & set(terms(glass)) and RELATED[terms("stops")[0]] & set(terms(glass))


def test_coming_out_that_far_asks_whether_the_area_is_covered() -> None:
    assert {"cover", "area"} <= set(terms("do you come out that far?"))
    assert {"cover", "area"} <= set(terms("my sister lives in wokingham, would you go out there?"))
    assert "cover" not in terms("do you still come out if it's raining?")
    assert "cover" not in terms("would you charge to travel out to me?")


def test_fitting_a_log_burner_is_installing_a_wood_burning_stove() -> None:
    asked = set(terms("could you fit me a new log burner?"))
    stated = set(terms("We don't install wood-burning stoves."))
    assert "stove" in asked and RELATED[terms("fit")[0]] & stated


def test_forgetting_and_lighting_it_is_about_it_being_lit() -> None:
    assert terms("the fire has been lit") == terms("the fire has been light")
    assert terms("forget")[0] in GENERIC_TERMS  # how a slip is said, not what it is about


def test_pounds_off_are_a_discount() -> None:
    assert "discount" in terms("Pensioners over 70 get £10 off a standard sweep.")
    assert "discount" in terms("do i get any money off then?")


def test_a_yes_or_no_is_cut_to_the_clause_that_holds_what_it_asks() -> None:
    spend = "We have a minimum spend of £450 for weddings, and most of our couples spend between £900 and £1,800."
    persona = Persona("Flora", "", "The owner of a wedding florist's.", {"verbosity": 0.3})
    reply = last_reply(persona, ["is there a minimum i'd have to spend?"], [spend], [0.5], [], [])
    assert "£450" in reply and "£900" not in reply, reply


def test_when_can_i_asks_the_place_not_what_the_user_likes() -> None:
    assert asks_permission("when can i swim lengths before work?")
    pool = ["Early-morning lane swimming runs Monday to Friday from 6:30am to 9am."]
    persona = Persona("Dee", "", "The manager of a swimming pool.", {"verbosity": 0.3})
    reply = last_reply(persona, ["when can i swim lengths before work?"], pool, [0.45],
                       ["User likes to swim lengths in the morning before work"], [0.6])
    assert "6:30" in reply, reply


def test_a_sentence_that_opens_with_no_gets_no_second_no() -> None:
    food = "No outside food is allowed, apart from birthday cakes and baby food."
    best = Scored(Candidate(food, "knowledge", 0, 0, 0.4, True), 0.5, 0.5, False)
    assert with_answer_word(best, "can we bring our own food?", Ranking([best], 0.0, 1)) == food


def test_a_single_class_is_the_drop_in() -> None:
    assert "£12" in ask_the_studio("how much is a single class?")
    assert "£12" not in ask_the_studio("how much is a ten-class pass?")
