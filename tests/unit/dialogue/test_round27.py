"""Round 27 of the offline answerer: a list of priced kinds ends where a clause of its own begins ("..., and children
under 4 swim free with a paying adult" names no adult's price)."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.terms import GENERIC_TERMS, RELATED, terms

from .test_round24 import ask

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


def test_the_clause_after_the_list_is_the_answer_when_the_question_names_it() -> None:
    sentence = ("Entry is £12 for adults, £9 for children aged 3 to 15, £10 for seniors, and a family ticket for two "
                "adults and two children costs £38.")
    assert one_kind(sentence, set(terms("family ticket")), "how much is a family ticket?", ["price"]) == \
        "A family ticket for two adults and two children costs £38."
    sentence = "A day ticket costs £9 for adults, £5 for children, and a season pass costs £95."
    assert one_kind(sentence, set(terms("season pass")), "how much is a season pass?", ["price"]) == \
        "A season pass costs £95."


def test_a_threshold_inside_the_list_still_keeps_the_sentence_whole() -> None:
    sentence = ("Our units range from 10 square feet for £18 a week, up to 200 square feet for £62 a week, and our "
                "most popular 50 square foot unit costs £29 a week.")
    assert one_kind(sentence, {"unit"}, "how much is a unit?", ["price"]) == sentence


STORAGE = [
    "We take in deliveries for business customers during office hours, but we don't accept parcels for household "
    "customers. We sell boxes from £2.50 each, tape, bubble wrap and mattress covers in the office.",
    "Our partner, Swindon Man and Van, collects your things from £45 an hour for a van and two people.",
]


def test_what_the_user_told_weighs_little_beside_what_they_ask() -> None:
    reply = ask("The manager of a self-storage centre.", STORAGE, [0.4, 0.3],
                "my husband needs somewhere for his tools and stock, do you do anything for businesses?")
    assert "business customers" in reply, reply


def test_what_a_review_of_round_27_found() -> None:
    # the clause after the list is not the answer when the list holds a word asked that it lacks
    units = ("Units cost £18 a week for 25 square feet, £29 a week for 50 square feet, and a 100 square foot unit "
             "costs £48 a week.")
    assert one_kind(units, set(terms("50 square foot unit")), "how much is a 50 square foot unit?", ["price"]) == \
        "It's £29 a week for 50 square feet."
    # nor when it holds only what all the kinds share ("cakes" of "Celebration cakes cost")
    cakes = "Celebration cakes cost £35 for a 6 inch, £50 for an 8 inch, and a tiered wedding cake starts at £250."
    assert one_kind(cakes, set(terms("cakes")), "how much are your cakes?", ["price"]) == cakes
    # a kind is not chosen for holding what all of them share ("a day ticket" of "A day ticket costs £9 for adults")
    day = "A day ticket costs £9 for adults, £5 for children, and a season pass costs £95."
    assert one_kind(day, set(terms("entry")), "there are 2 adults and 2 kids, how much is entry?", ["price"]) == day
    # days listed are one fact: "are you open on Monday?" keeps "closed"
    closed = "It is closed on Sundays, Mondays and public holidays."
    assert one_kind(closed, set(terms("open monday")), "Are you open on Monday?", ["time"]) == closed


def test_the_one_thing_served_whose_hours_are_asked() -> None:
    cafe = ("The farm café serves breakfast until 11:30am and lunch from 12 noon until 2:30pm, and Helen's scones are "
            "baked fresh every morning.")
    assert one_clause(cafe, "till when do you do lunch in the cafe?", ["time"]) == "Lunch is from 12 noon until 2:30pm."
    assert one_clause(cafe, "until what time is breakfast?", ["clock"]) == \
        "The farm café serves breakfast until 11:30am."
    assert "lunch" in one_clause(cafe, "what are the cafe hours?", ["clock"])  # (names neither: both)


def test_stuck_asks_for_hints_and_somewhere_else_says_where() -> None:
    assert "hint" in RELATED.get(terms("stuck")[0], frozenset())
    assert {"somewher", "els"} <= GENERIC_TERMS
    rooms = ["Every team gets three free hints during the game, and you can ask for them on the walkie-talkie.",
             "Submarine 9 is our hardest room, and only about a quarter of teams get out in time."]
    reply = ask("The owner of an escape room venue.", rooms, [0.3, 0.3],
                "what happens if we get totally stuck in there?")
    assert "hints" in reply, reply


def test_the_deadline_for_letting_you_know_asks_when_to_tell() -> None:
    assert "time" in wanted("whats the deadline for letting you know?")
    boxes = ["You can pause your box for up to four weeks a year, but you must tell us by 6pm on the Monday before the "
             "delivery you want to skip.", "The shop is open Tuesday to Saturday from 8:30am to 5:30pm."]
    reply = ask("The owner of a farm shop.", boxes, [0.4, 0.2], "we're away in august, can i pause the box?",
                "whats the deadline for letting you know?")
    assert "6pm on the Monday" in reply, reply


CLEANER = ["Our same-day express service costs £5 extra per order if you bring it in before 9:30am, and it is ready "
           "after 4pm. We sew loose buttons back on for free when we clean a shirt or suit.",
           "A wedding dress costs from £95, which includes boxing it in acid-free tissue."]


def ask_the_cleaner(*questions: str) -> str:
    return ask("The manager of a dry cleaner.", CLEANER, [0.3, 0.2], *questions)


def test_back_says_nothing_of_what_is_asked() -> None:
    assert "back" not in ask_the_cleaner("how much is a wedding dress?", "does it come back in a box?").lower()
    assert "same-day" in ask_the_cleaner("if i need them back the same day, can you do that?")


def test_the_latest_asks_for_a_time() -> None:
    reply = ask_the_cleaner("how much extra is the same-day service?",
                            "what's the latest i can drop them off for that?")
    assert "9:30am" in reply, reply


def test_a_follow_up_asking_a_price_of_its_own_gets_the_clause_that_states_one() -> None:
    post = ["We also take repairs by post from anywhere in the UK: send them by tracked post with a note of what you "
            "need, and return postage costs £8.50.", "New heels on ladies' shoes cost £12 a pair."]
    reply = ask("The owner of a shoe repair shop.", post, [0.4, 0.2],
                "my dad's got some shoes that need doing but he's up in glasgow, can he post them to you?",
                "how much to post them back to him?")
    assert "8.50" in reply, reply
