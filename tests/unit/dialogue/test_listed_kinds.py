"""Round 11 of the offline answerer: kinds listed with their prices ("adult membership £240, family membership
£380..."), someone else's plans ("a mate of mine"), what the user has in mind before asking, an age limit asked of
someone the last reply named, a doer and the doing ("swimmer" / "swim"), and a thing asked of a place that holds
other things."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.age_limits import age_fit, ages_meant
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.narrowing import one_case
from avatar_service.adapters.dialogue.terms import same_family, stem, terms
from avatar_service.adapters.dialogue.user_facts import about_user, asked_part
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

CLUB = [
    "Adult membership costs £240 a year, family membership £380 and junior membership, for under-18s, £60. "
    "New members also pay a one-off joining fee of £50.",
    "Children must be at least 8 years old and able to swim 50 metres to join a course.",
    "Club racing is on Sunday mornings, with the first start at 10:30am, and on Wednesday evenings from May to "
    "August, starting at 6:30pm.",
    "Wetsuits and buoyancy aids can be borrowed from the changing rooms. Motorboats and jet skis are not allowed on "
    "the mere.",
]
MEMORIES = ["User's daughter Erin is 9 and wants to learn to sail", "Neil prefers the Wednesday evening races"]
engine = OfflineGroundedDialogue()


def converse(*questions: str) -> list[str]:
    persona = Persona("Ewan", "", "The membership secretary of Harlow Mere Sailing Club.", {"verbosity": 0.3})
    history: list[Turn] = []
    replies = []
    for q in questions:
        history.append(Turn("user", q))
        replies.append(engine.compose(DialogueRequest(persona, list(history), knowledge=CLUB, memories=MEMORIES)))
        history.append(Turn("assistant", replies[-1]))
    return replies


def test_a_listed_kind_is_cut_to_the_one_named() -> None:
    listed = "Adult membership costs £240 a year, family membership £380 and junior membership, for under-18s, £60."
    family = "and if I signed the whole family up?"
    assert one_kind(listed, set(terms(family)), family, ["price"]) == "Family membership costs £380."
    me = "what would it cost for just me for the year?"
    assert one_kind(listed, set(terms(me)), me, ["price"]) == "Adult membership costs £240 a year."
    assert one_kind(listed, set(), "how much is it?", ["price"]) == listed  # none named: all of them
    # a threshold is a condition, and a price that opens its piece is one_clause's
    delivery = "We deliver on orders over £25, and delivery costs £4."
    assert one_kind(delivery, set(terms("how much to deliver an order?")), "", ["price"]) == delivery
    hems = "Taking up trousers costs £14, or £18 for jeans."
    assert one_kind(hems, {"jean"}, "and jeans?", ["price"]) == "It's £18 for jeans."
    posters = "Large-format posters on satin paper cost £12 for A2, £18 for A1 and £25 for A0."
    assert one_kind(posters, set(terms("an A1 poster?")), "", ["price"]) == "It's £18 for A1."
    assert one_kind(posters, set(terms("a poster?")), "", ["price"]) == posters  # what all share tells none apart


def test_listed_kinds_through_the_answerer() -> None:
    replies = converse("thinking of joining, what would it cost for just me for the year?",
                       "and if I signed the whole family up?")
    assert "240" in replies[0] and "380" not in replies[0]
    assert "380" in replies[1] and "240" not in replies[1]


def test_someone_elses_plans_and_what_the_user_has_in_mind() -> None:
    assert about_user("a mate of mine wants to bring his jet ski up, is that ok?") == 0.0
    assert asked_part("a mate of mine wants to bring his jet ski up, is that ok?") == "is that ok?"
    assert asked_part("thinking of joining, what would it cost for just me?") == "what would it cost for just me?"
    added = "how much is it going to cost? he wants about 20 friends there"
    assert asked_part(added) == "how much is it going to cost?"
    assert "not allowed" in converse("a mate of mine wants to bring his jet ski up, is that ok?")[0]


def test_an_age_limit_for_someone_named_before() -> None:
    replies = converse("how old's my daughter again?", "is she old enough to do a course?",
                       "does she have to be a good swimmer?")
    assert "9" in replies[0]
    assert "at least 8" in replies[1]
    assert "50 metres" in replies[2]


def test_a_doer_is_of_the_doings_family() -> None:
    assert same_family(stem("swimmer"), stem("swim")) and same_family(stem("rider"), stem("ride"))
    assert not same_family(stem("shower"), stem("show")) and not same_family(stem("summer"), stem("sum"))


def test_a_thing_asked_of_a_place_that_holds_other_things_is_unknown() -> None:
    reply = converse("Are there showers in the changing rooms?")[0]
    assert "know" in reply and "Wetsuits" not in reply


def test_the_case_the_last_reply_named() -> None:
    races = CLUB[2]
    cut = one_case(races, {"time", "kick"}, set(), ["time"], set(terms("You prefer the Wednesday evening races")))
    assert cut == "Club racing is on Wednesday evenings from May to August, starting at 6:30pm."


def test_a_toddler_is_about_two_and_months_are_no_years() -> None:
    assert ages_meant("and for a toddler?") == [2]
    assert age_fit("Babies under 12 months play free.", [2]) == 0.0
    assert age_fit("Children under 4 play free.", [2]) > 0
