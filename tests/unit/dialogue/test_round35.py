"""Round 35 of the offline answerer: what a blind split (heldout36: a canal paddle club, a mobile sharpening service, a
pottery-painting café) found wrong, tested here on businesses of their own: a no said after a colon, leaving a child
somewhere as a question of supervision, "the right age for one", being in when someone comes, asking again what was
said, the user's home as "where I live", and everyday words of the round (a life jacket, little ones, wheelchair
friendly)."""

from __future__ import annotations

from avatar_service.adapters.dialogue.age_limits import age_fit
from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.answering import clause_terms
from avatar_service.adapters.dialogue.follow_up_context import reason_given
from avatar_service.adapters.dialogue.my_people import asked_again_of
from avatar_service.adapters.dialogue.question_cases import asks_age_limit
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.adapters.dialogue.told_cases import asks_the_place_for
from avatar_service.core.text.follow_ups import is_follow_up

from .test_round24 import ask

GLASS = [
    "We only do glass painting: we don't run glass-blowing or stained-glass classes.",
    "Children can start glass painting from the age of 8, and under-12s must have an adult staying with them.",
    "Children under 10 must be supervised by an adult at the table at all times.",
    "We're all on the ground floor with step-free access from the street.",
    "Once painted, pieces are fired and ready to collect 5 days later. We can post finished pieces for £7 a parcel.",
    "We're open Thursday to Sunday from 10am to 6pm.",
    "You don't have to be in for a delivery, as long as you tell us a safe place to leave it.",
    "On Toddler Tuesdays, under-4s pay no studio fee.",
]
GLASS_MEMORIES = ["User's son Rory is 6", "User's dad Len uses a wheelchair", "User lives in Didsbury",
                  "User painted a vase at the studio on Friday 3 May"]


def ask_the_studio(*questions: str) -> str:
    return ask("The owner of a glass-painting studio.", GLASS, [0.3] * 8, *questions,
               memories=(GLASS_MEMORIES, [0.2, 0.2, 0.2, 0.2]))


def test_a_no_said_after_a_colon_answers_for_its_own_part() -> None:
    reply = ask_the_studio("do you do glass blowing classes?")
    assert reply.startswith("No") and "glass-blowing" in reply, reply


def test_whether_a_named_child_can_do_a_thing_is_asked_at_their_age() -> None:
    reply = ask_the_studio("can rory do glass painting with you?")
    assert reply.startswith("No") and "8" in reply, reply


def test_leaving_a_child_somewhere_and_going_asks_about_supervision() -> None:
    assert "supervis" in terms("can i leave rory painting while i nip to the shops?")
    assert "supervis" in terms("could i drop rory at his class and head off to work?")
    assert "shop" not in terms("can i leave rory painting while i nip to the shops?")
    reply = ask_the_studio("can i leave rory painting while i nip to the shops?")
    assert "supervised" in reply, reply


def test_the_right_age_for_one_asks_the_limit_of_the_thing_before() -> None:
    assert asks_age_limit("is rory the right age for it?")
    assert is_follow_up("is rory the right age for one?") and is_follow_up("what does the family one include?")
    assert not is_follow_up("can one person come?")


def test_being_in_when_someone_comes() -> None:
    assert "present" in terms("do i need to be home when you come?")
    assert "present" in terms("somebody needs to be in to sign for them")
    reply = ask_the_studio("do i need to be home for the delivery?")
    assert reply.startswith("No"), reply


def test_asking_again_what_was_said_leans_on_the_turns_before() -> None:
    assert is_follow_up("sorry, what time did you say it finishes?")
    reply = ask_the_studio("when are you open?", "do you sell frames?", "sorry, what time did you say it finishes?")
    assert "6pm" in reply, reply


def test_a_question_of_the_place_itself_is_not_answered_by_what_the_user_told() -> None:
    assert terms("is it wheelchair friendly?") == terms("is it wheelchair accessible?")
    reply = ask_the_studio("is it wheelchair friendly? my dad's coming with us")
    assert "step-free" in reply, reply


def test_another_way_asked_instead_is_the_place_s_not_the_memory_s() -> None:
    reply = ask_the_studio("when can i collect the vase i did?", "could you post it to me instead?")
    assert "£7" in reply, reply


def test_everyday_words_of_the_round() -> None:
    assert terms("does he need a life jacket?") == terms("does he need a buoyancy aid?")
    assert "toddler" in terms("any deals for little ones?") and "toddler" not in terms("and a little one?")
    assert "Toddler Tuesdays" in ask_the_studio("any deals for little ones?")


CLUB = [
    "The boathouse is closed from Christmas Eve to New Year's Day.",
    "Riverside Rowing Club is based in the old boathouse beside Mill Lock on the Leeds and Liverpool Canal, at "
    "4 Wharf Street, Skipton BD23 1LE.",
    "Adult membership is £180 a year, and family membership is £340 a year for two adults and up to three children.",
    "Our fleet is 12 sit-in kayaks, 6 Canadian canoes and 4 single sculls.",
    "Under-14s must have a parent or guardian staying on site for the whole session.",
    "If we cancel a taster, you get a full refund; if you cancel, we refund you in full as long as you tell us at "
    "least 48 hours ahead.",
]


def ask_the_club(*questions: str) -> str:
    return ask("The secretary of a rowing club.", CLUB, [0.3] * 6, *questions,
               memories=(["User's son Alfie is 11", "User has booked Alfie onto a taster on Saturday 3 May"],
                         [0.2, 0.2]))


def test_where_a_thing_is_asked_is_answered_by_its_address() -> None:
    reply = ask_the_club("where's the boathouse?")
    assert "4 Wharf Street" in reply and "Leeds and Liverpool Canal" in reply, reply


def test_what_a_kind_includes_is_said_by_a_sentence_about_that_kind() -> None:
    reply = ask_the_club("how much is membership?", "what does the family one include?")
    assert "two adults" in reply, reply


def test_dropping_a_child_off_asks_whether_someone_must_stay() -> None:
    assert "supervis" in terms("a parent staying on site")
    reply = ask_the_club("could i drop alfie at his taster and head off to work?")
    assert "Under-14s" in reply, reply


def test_the_case_said_with_if_and_no_comma_is_not_the_question() -> None:
    assert "cancel" in terms("if we can't make alfie's taster")
    reply = ask_the_club("if we can't make alfie's taster can we get our money back?")
    assert "48 hours" in reply, reply


CHIPPY = ["Our kids' meal, for children under 12, is £6.50 and comes with a small fish, chips and a juice.",
          "A large cod and chips is £11."]


def test_what_about_someone_else_asks_the_question_before_of_them() -> None:
    assert asked_again_of("what about mia?", "can alfie have the kids meal?",
                          ["User's son Alfie is 8", "User's daughter Mia is 13"]) == "can mia have the kids meal?"
    assert asked_again_of("what about mia?", "how much is cod?", ["User's daughter Mia is 13"]) == ""
    reply = ask("The owner of a chip shop.", CHIPPY, [0.3, 0.3], "can alfie have the kids meal?", "what about mia?",
                memories=(["User's son Alfie is 8", "User's daughter Mia is 13"], [0.2, 0.2]))
    assert "under 12" in reply, reply


def test_asked_about_their_wedding_a_memory_of_the_wedding_not_of_a_consultation_for_it() -> None:
    reply = ask("The owner of a wedding florist.", ["We do no more than two weddings on any Saturday."], [0.2],
                "remind me what date the wedding is",
                memories=(["User has a wedding consultation on Thursday 5 March at 11am",
                           "User is getting married on Saturday 12 September at Hopton Barn"], [0.5, 0.45]))
    assert "12 September" in reply, reply


FOOTBALL = [
    "Older players can also try out for our under-12 and under-13 teams, which play on Sunday mornings.",
    "Mini Kickers is for ages 3 to 5 and runs on Saturdays from 9am to 9:45am at Eaton Park.",
    "Junior squads for ages 7 to 10 train on Tuesday evenings, and it's £5 a session.",
]


def ask_the_football_club(*questions: str, memories: list[str]) -> str:
    return ask("The coach of a children's football club.", FOOTBALL, [0.2, 0.2, 0.2], *questions,
               memories=(memories, [0.5] * len(memories)))


def test_old_enough_to_join_is_answered_by_the_range_naming_the_age() -> None:
    reply = ask_the_football_club("is maisie old enough to join?", memories=["User's daughter Maisie is 4"])
    assert "Mini Kickers" in reply, reply


def test_anything_for_someone_a_memory_gives_an_age_is_what_is_for_that_age() -> None:
    reply = ask_the_football_club("is there anything i could bring finn to?", memories=["User's grandson Finn is 8"])
    assert "Junior squads" in reply, reply
    reply = ask_the_football_club("is there anything my grandson could join?", memories=["User's grandson Finn is 4"])
    assert "Mini Kickers" in reply, reply


FARM = [
    "Over-65s pay £11, and a family ticket for two adults and two children is £45.",
    "Entry is £13.50 for adults and £11.50 for children aged 2 to 15, and under-2s come in free.",
    "We take dogs from six months old, and we don't board dogs in season.",
]


def test_a_child_in_the_group_that_goes_free_needs_no_ticket() -> None:
    reply = ask("The owner of a farm park.", FARM, [0.28, 0.21, 0.1], "does maisie need a ticket?",
                memories=(["User's daughter Maisie is 1"], [0.3]))
    assert reply.startswith("No") and "under-2s" in reply, reply


def test_whether_a_pet_the_user_told_of_may_board_is_the_place_s_rule_for_it() -> None:
    reply = ask("The owner of a farm park and kennels.", FARM, [0.1, 0.1, 0.3],
                "could our new puppy board with you yet?",
                memories=(["User has a new cockapoo puppy called Pip who is 4 months old"], [0.5]))
    assert "six months" in reply, reply


def test_a_limit_for_ages_and_up_bars_the_younger() -> None:
    limit = "The workshop is for ages 16 and up."
    assert age_fit(limit, [14]) < 0 < age_fit(limit, [40])
    reply = ask("The owner of an upholstery workshop.", ["Our workshop costs £95 and is for ages 16 and up.",
                                                         "Rosie looks after customers."], [0.05, 0.1],
                "could my daughter come with me?", memories=(["User's daughter Isla is 14"], [0.2]))
    assert "16 and up" in reply, reply


def test_which_thing_of_its_kind_the_user_has_is_its_name() -> None:
    assert wanted("what car have i got, do you remember?") == ["name"]
    reply = ask("The owner of a garage.", ["An MOT costs £54.85."], [0.1], "what car have i got, do you remember?",
                memories=(["User would rather wait at the garage than leave their car",
                           "User drives a 2017 Vauxhall Astra"], [0.3, 0.2]))
    assert "Vauxhall Astra" in reply, reply


def test_anything_a_person_of_the_users_can_eat_is_asked_for_them() -> None:
    assert asks_the_place_for("is there anything my husband can eat?")


def test_how_come_is_answered_by_the_reason_the_last_reply_gave() -> None:
    assert reason_given("how come?", "No, we don't sharpen cylinder mowers, because they need a grinding machine.") == \
        "Because they need a grinding machine."
    assert reason_given("how come?", "We're open until 5pm.") == ""
    assert reason_given("how much is it?", "No, because they need a grinding machine.") == ""


def test_a_clause_opening_with_they_is_about_what_the_first_opens_with() -> None:
    assert "boat" in clause_terms(["Club boats may only go to the weir", "they must never go through a lock"])[1]
    reply = ask("The secretary of a rowing club.", ["Club boats may only be paddled between Mill Lock and the weir, "
                                                    "and they must never be taken through a lock."], [0.4],
                "can we take the boats through the locks?")
    assert reply.startswith("No") and "never" in reply, reply


def test_a_clause_cut_from_its_sentence_keeps_the_when_the_sentence_opens_with() -> None:
    chippy = ["From Easter to October we're open every day from 11:30am to 8:30pm.",
              "From November to Easter we close on Mondays and Tuesdays, and the takeaway shuts at 7pm."]
    reply = ask("The owner of a chip shop.", chippy, [0.2, 0.5], "what time does the takeaway shut?")
    assert reply.startswith("From November to Easter, the takeaway shuts at 7pm"), reply
