"""Round 7 of the offline answerer: everyday phrasings for what a text says in its own words (a weekday range for
"during the week", latecomers for missing the start, keeping for hanging on to), and a case the user puts ("if I
cancel...") asking the place's rule rather than something about the user."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.terms import RELATED, stem, terms
from avatar_service.adapters.dialogue.user_facts import about_user
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

BIKE_SHOP = [
    "Spoke & Chain is open Monday to Friday from 8am to 6pm and on Saturdays from 9am to 1pm.",
    "A full service costs 70 pounds. Bikes left for a service are stored for 30 days after we call you.",
    "Riders more than 10 minutes late for a guided ride may not be able to join it. Rides are cancelled in storms.",
    "Our mechanic Priya handles all electric bike repairs. Tom looks after wheel building.",
]
MEMORIES = ["User owns a cello", "User prefers rides along the canal", "User's fiancee is called Noor"]
engine = OfflineGroundedDialogue()


def ask(text: str) -> str:
    persona = Persona("Jo", "", "Works at the Spoke & Chain bike shop.", {"verbosity": 0.3})
    return engine.compose(DialogueRequest(persona, [Turn("user", text)], knowledge=BIKE_SHOP, memories=MEMORIES))


def test_during_the_week_is_a_weekday_range() -> None:
    assert "weekday" in terms("What are your hours during the week?")
    assert "weekday" in terms("We are open Tuesday to Friday.")
    assert "Monday to Friday" in ask("When are you open during the week?")


def test_everyday_phrasings_are_the_texts_words() -> None:
    assert "late" in terms("What if I miss the start?") and "start" in terms("What if I miss the start?")
    assert "keep" in terms("How long do you hang on to my bike?")
    assert "miss" in terms("What if I don't show up?")
    assert "handl" in terms("Who looks after wheel building?") and "visit" in terms("Can I pop in on Monday?")
    assert stem("latecomers") in RELATED[stem("late")]
    assert "Priya" in ask("Who deals with electric bike repairs?")


def test_a_case_the_user_puts_asks_the_places_rule() -> None:
    assert about_user("If I cancel a week before, do I lose the deposit?") == 0.0
    assert about_user("If I'm late, do I miss the ride?") == 0.0
    assert about_user("What instrument do I play?") == 1.0  # no case put: about them


def test_what_the_user_told_in_other_words() -> None:
    assert "cello" in ask("Remind me, what instrument have I got?")
    assert "canal" in ask("Which rides do I like best?")
    assert "Noor" in ask("And who am I marrying?")


def test_paired_lists_are_narrowed_to_the_item_asked_about() -> None:
    from avatar_service.adapters.dialogue.narrowing import narrowed

    lessons = "Lessons last 30, 45 or 60 minutes and cost £22, £31 and £40."
    assert narrowed(lessons, "How much is an hour lesson?") == "Lessons last 60 minutes and cost £40."
    assert narrowed(lessons, "and a half-hour one?") == "Lessons last 30 minutes and cost £22."
    assert narrowed(lessons, "What does a 45-minute lesson cost?") == "Lessons last 45 minutes and cost £31."
    assert narrowed(lessons, "How much are lessons?") == lessons  # no item named
    assert narrowed(lessons, "What about a 2 hour lesson?") == lessons  # named, in no list
    # two short lists are no pairing unless the sentence says so
    assert narrowed("Adults pay 12 and 9 euros for ages 3 and 15.", "how much at 3?") == \
        "Adults pay 12 and 9 euros for ages 3 and 15."
    assert narrowed("Boxes cost £2 and £3 and hold 10 and 20 kg respectively.", "the 20 kg ones?") == \
        "Boxes cost £3 and hold 20 kg."


def test_the_answer_names_only_the_price_asked_for() -> None:
    persona = Persona("Jo", "", "Teaches the piano.", {"verbosity": 0.3})
    knowledge = ["Lessons last 30, 45 or 60 minutes and cost £22, £31 and £40. Lessons are at my studio."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "How much is an hour lesson?")],
                                           knowledge=knowledge, memories=[]))
    assert "£40" in reply and "£22" not in reply, reply


def test_the_clause_asked_about_answers() -> None:
    persona = Persona("Jo", "", "Runs a bakery.", {"verbosity": 0.3})
    knowledge = ["Our spelt loaf costs £4.10 and the walnut bloomer costs £5.20. We bake every morning.",
                 "A small tart for 4 people costs £18, and a large tart for 10 people costs £36."]

    def ask(text: str) -> str:
        return engine.compose(DialogueRequest(persona, [Turn("user", text)], knowledge=knowledge, memories=[]))

    loaf, tart = ask("How much is a spelt loaf?"), ask("What does a tart for 10 people cost?")
    assert "£4.10" in loaf and "£5.20" not in loaf, loaf
    assert "£36" in tart and "£18" not in tart, tart
    both = ask("How much are your tarts?")  # no clause holds more of the question: both are said
    assert "£18" in both and "£36" in both, both


def test_a_weekday_outside_the_days_given_is_a_no() -> None:
    from avatar_service.adapters.dialogue.answer_types import on_the_day

    assert on_the_day("Do you run games on a Tuesday?", "We run games from Wednesday to Sunday.") is False
    assert on_the_day("Open on a Monday?", "Open Friday to Monday.") is True  # a range may wrap the week
    assert on_the_day("Are you open?", "Open Friday to Monday.") is None
    assert ask("Are you open on Sundays?").startswith("No, ")
    assert ask("Are you open on a Wednesday?").startswith("Yes, ")
    assert ask("Are you open on Saturdays?").startswith("Yes, ")  # a day named on its own


def test_everyday_phrasings_of_round_9() -> None:
    assert "2" in terms("what if it ends up just being me and my mate?")  # a party of two
    assert "discount" in terms("do I get any money off?")
    assert stem("proof") in RELATED[stem("id")] and stem("bonfires") in RELATED[stem("burn")]
    assert about_user("When am I allowed to light a bonfire?") == 0.0  # the place's rule, not about them
    assert about_user("What am I allergic to?") == 1.0


def test_when_inside_a_question_only_says_in_which_case() -> None:
    from avatar_service.adapters.dialogue.answer_types import wanted

    assert wanted("How do I like to be told when he's ready?") == []
    assert wanted("When do you open?") == ["clock"]  # an hour, the most specific time
    assert "time" in wanted("Do you know when the museum opens?")
    assert "time" in wanted("I need my bike back, when can I collect it?")


def test_kinds_a_sentence_holds_read_people_and_jobs() -> None:
    from avatar_service.adapters.dialogue.answer_types import holds

    assert holds("You run the shop with your sister Kirsty.", ["person"])  # a relation and a name
    assert holds("You are the headteacher of a primary school.", ["occupation"])
    assert not holds("Your boiler is a Vaillant that is 12 years old.", ["occupation"])  # a name is no job


def test_one_clause_of_two_that_each_state_a_price() -> None:
    from avatar_service.adapters.dialogue.answer_types import wanted
    from avatar_service.adapters.dialogue.narrowing import one_clause

    hems = "Taking up trousers costs £14, or £18 for jeans if you want to keep the worn hem."
    assert one_clause(hems, "what do you charge to take trousers up?", ["price"]) == "Taking up trousers costs £14."
    assert one_clause(hems, "and for jeans?", ["price"]) == "It's £18 for jeans if you want to keep the worn hem."
    curtains = "Unlined curtains cost £20 a panel, and lined curtains cost £30 a panel."
    assert one_clause(curtains, "how much for lined curtains?", ["price"]) == "Lined curtains cost £30 a panel."
    # a threshold is a condition, not the price asked for: the sentence stays whole
    delivery = "We deliver on orders over £25, and delivery costs £4."
    assert one_clause(delivery, "How much do you charge to deliver an order?", ["price"]) == delivery
    assert "price" in wanted("what's the damage for a 5 year old?")


def test_whereabouts_and_kick_off() -> None:
    from avatar_service.adapters.dialogue.answer_types import wanted

    assert terms("whereabouts is the club?") == ["club"] and "place" in wanted("whereabouts is the club?")
    assert "start" in terms("what time do the races kick off?")


def test_holidays_are_dates_on_both_sides() -> None:
    assert {"26", "decemb"} <= set(terms("Are you open on Boxing Day?"))
    assert {"26", "decemb"} <= set(terms("We are closed only on Christmas Day and Boxing Day."))
    assert "until" not in terms("till what time?")  # "till" is "until", a word of asking


def test_a_day_or_a_month_is_no_name_and_a_part_time_job_is_a_job() -> None:
    from avatar_service.adapters.dialogue.answer_types import holds

    assert not holds("You are on safety boat duty on Sunday 8 June.", ["name"])
    assert holds("You have a dinghy called Blue Heron.", ["name"])
    assert holds("Amira works part-time as a pharmacist", ["occupation"])
    assert stem("dinghy") in RELATED[stem("boat")]
    assert about_user("Am I ok to bring them both?") == 0.0


def test_what_the_user_tells_before_asking_is_the_case() -> None:
    knowledge = ["A session costs £8.", "There is a separate toddler area for under-4s."]
    persona = Persona("Jo", "", "Works at a soft-play centre.", {"verbosity": 0.3})
    turn = "my nephew is obsessed with tractors and dinosaurs, do you have a toddler area?"
    reply = engine.compose(DialogueRequest(persona, [Turn("user", turn)], knowledge=knowledge, memories=[]))
    assert "toddler area" in reply


def test_an_age_picks_the_priced_case_that_includes_it() -> None:
    from avatar_service.adapters.dialogue.narrowing import one_clause

    play = "A session costs £8.50 for children aged 4 to 11 and £6 for children aged 1 to 3."
    five = one_clause(play, "how much for a 5 year old?", ["price"])
    assert five == "A session costs £8.50 for children aged 4 to 11."
    assert one_clause(play, "and for a toddler?", ["price"]) == "It's £6 for children aged 1 to 3."
    assert one_clause(play, "how much is a session?", ["price"]) == play  # no case asked: both are the answer
