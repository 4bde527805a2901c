"""Round 31 of the offline answerer: rules found by a blind split (heldout29: an ice rink, a brewery's tours, a day
nursery), each tested here on a business of its own."""

from __future__ import annotations

from avatar_service.adapters.dialogue.age_limits import age_bars, ages, group_asked, limits_group
from avatar_service.adapters.dialogue.answer_types import HOLDS, in_the_months
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.my_people import ages_of_relatives, named_ages
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.adapters.dialogue.user_facts import about_user, asked_part
from avatar_service.adapters.dialogue.yes_or_no import lower_first
from avatar_service.ports.dialogue import Persona

from .conversation import last_reply
from .test_round24 import ask

KARTING = [
    "Arrive-and-drive sessions run on weekdays from 12pm to 9pm and at weekends from 10am to 10pm. The track is open "
    "all year round.",
    "Prices include race suits, helmets and gloves. A 15-minute session costs £25. Pack a warm layer for winter "
    "evenings.",
    "Our junior club runs on Tuesdays at 5pm and on Sundays at 9am, 11am and 1pm, and lasts about an hour and a half. "
    "Our chief instructor, Priya Kaur, leads the Sunday junior club herself.",
    "Apart from bottled water, we don't allow drinks in the pit lane. The café is open seven days a week. The outdoor "
    "track stays open whatever the weather.",
    "Before your first race there's a ten-minute safety briefing, and every driver is given a marshal who keeps an eye "
    "on them.",
    "Our race night is on the last Friday of the month, with a DJ in the café; tickets are £45 and include a burger "
    "and a trophy for the winner.",
]


def ask_the_track(*questions: str) -> str:
    return ask("The manager of an indoor karting track.", KARTING, [0.4, 0.35, 0.3, 0.3, 0.3, 0.3], *questions)


def test_the_one_sentence_naming_the_thing_asked_about_answers_though_far_in_meaning() -> None:
    # every word asked is known ("pack" in another sentence), and only one sentence names gloves
    persona = Persona("Sam", "", "The manager of an indoor karting track.", {"verbosity": 0.3})
    sentences = {s: 0.2 for chunk in KARTING for s in chunk.split(". ")}
    sentences["Prices include race suits, helmets and gloves."] = 0.3
    reply = last_reply(persona, ["do we need to pack gloves?"], KARTING, [0.3] * 6, [], [], sentences)
    assert "gloves" in reply and "don't know" not in reply, reply


def test_how_a_thing_works_asks_about_the_thing() -> None:
    assert terms("work")[0] not in question_weights("how does the safety briefing work?", [], [])
    reply = ask_the_track("how does the safety briefing work?")
    assert "ten-minute" in reply, reply



def test_seven_days_a_week_is_a_day() -> None:
    assert HOLDS["day"].search("The café is open seven days a week.")
    reply = ask_the_track("what days is the café open?")
    assert "seven days" in reply, reply


def test_a_thing_spared_a_refusal_is_a_yes() -> None:
    reply = ask_the_track("can i bring bottled water into the pit lane?")
    assert reply.startswith("Yes"), reply


def test_what_days_keeps_every_day_a_sentence_lists_for_its_subject() -> None:
    reply = ask_the_track("what days does the junior club run?")
    assert "Tuesdays" in reply and "Sundays" in reply, reply


def test_going_on_for_is_how_long_not_tell_me_more() -> None:
    reply = ask_the_track("what days does the junior club run?", "how long does it go on for?")
    assert "an hour and a half" in reply, reply



def test_rain_is_weather() -> None:
    reply = ask_the_track("is the outdoor track open when it's chucking it down?")
    assert reply.startswith("Yes") and "whatever the weather" in reply, reply


def test_a_hyphenated_first_word_is_lower_cased_after_yes() -> None:
    assert lower_first("Well-behaved dogs are welcome.") == "well-behaved dogs are welcome."
    assert lower_first("Jean-Paul runs the bar.") == "Jean-Paul runs the bar."


JUNIOR_KARTS = [
    "A standard session costs £30 for adults and £18 for juniors aged 8 to 15. Under-8s ride free in a twin kart with "
    "a paying adult.",
    "Drivers under 12 must have an adult with them in the pits. Night racing is for ages 16 and over only.",
    "We accept council-funded activity days for drivers aged 8 to 11.",
]
FAMILY = (["User's son Rhys is 5", "User's daughter Cerys is 10", "User's baby Osian is 18 months old"],
          [0.4, 0.4, 0.4])


def ask_about_juniors(*questions: str) -> str:
    return ask("The manager of an indoor karting track.", JUNIOR_KARTS, [0.4, 0.3, 0.3], *questions, memories=FAMILY)


def test_my_little_boy_is_the_son_a_memory_gives_an_age() -> None:
    assert ages_of_relatives("what would my little boy cost?", FAMILY[0]) == [5]
    reply = ask_about_juniors("what would my little boy cost?")
    assert "free" in reply, reply


def test_a_named_child_after_a_price_asks_the_price_for_their_age() -> None:
    reply = ask_about_juniors("what would my little boy cost?", "and cerys?")
    assert "£18" in reply, reply


def test_a_named_child_on_their_own_is_asked_of_the_age_rule() -> None:
    assert "supervis" in terms("Drivers under 12 must have an adult with them in the pits.")
    reply = ask_about_juniors("can cerys go in the pits on her own?")
    assert "under 12" in reply, reply


def test_a_group_named_by_its_age_is_asked_of_that_age() -> None:
    assert group_asked("can under 16s do the night racing?") == [15]
    assert group_asked("do over 60s pay less?") == [60]
    assert age_bars("Night racing is for ages 16 and over only.") == [16]
    reply = ask_about_juniors("is night racing any good?", "can under 16s go?")
    assert reply.startswith("No"), reply


def test_a_babys_months_are_its_years() -> None:
    assert ages("User's baby Osian is 18 months old") == [1]


def test_funded_is_free() -> None:
    reply = ask_about_juniors("do you take the free activity days?")
    assert reply.startswith("Yes") and "council-funded" in reply, reply


def test_giving_notice_is_the_places_rule_not_a_fact_about_the_user() -> None:
    assert about_user("how much notice do i give if i want to stop coming?") == 0.0
    assert about_user("can my dad collect him?") == 0.0  # the place's rule, not what the user told
    assert about_user("what do i do for a living?") == 1.0


def test_a_group_named_with_a_hyphen_is_a_group() -> None:
    assert limits_group("Under-8s ride free in a twin kart with a paying adult.")
    reply = ask_about_juniors("how much is it for an adult?")
    assert "£30" in reply, reply


def test_sorting_something_out_is_the_places_rule() -> None:
    assert about_user("does that cover drinks or do i sort that?") == 0.0


def test_what_a_ticket_includes_is_a_list_said_whole() -> None:
    assert HOLDS["list"].search("tickets are £25 and include a festival glass and three drinks tokens")
    reply = ask_the_track("is there a race night?", "what do you get with a ticket?")
    assert "burger" in reply and "trophy" in reply, reply


CLUB = [
    "Adult membership costs £190 a year, while students and anyone over 70 can join for £105. Juniors aged 8 to 17 "
    "pay £55.",
    "Little Racquets is for children aged 4 to 7, on Saturday mornings at 9am.",
]
MEMBER = (["User is 74 and recently retired", "User's mum Nell is 93", "User's grandson Alfie is 6",
           "User's granddaughter Bea is 14 months old"], [0.4, 0.4, 0.4, 0.4])


def ask_the_club(*questions: str) -> str:
    return ask("The secretary of a tennis club.", CLUB, [0.4, 0.3], *questions, memories=MEMBER)


def test_someone_my_age_is_asked_at_the_age_the_user_told() -> None:
    reply = ask_the_club("how much is membership for someone my age?")
    assert "£105" in reply and not reply.startswith("While"), reply


def test_a_named_child_having_a_go_is_asked_at_their_age() -> None:
    reply = ask_the_club("can bea have a go on saturday mornings?")  # 14 months: too young for 4 to 7
    assert reply.startswith("No") and "4 to 7" in reply, reply
    reply = ask_the_club("would alfie be able to go on saturday mornings?")  # 6
    assert reply.startswith("Yes") and "4 to 7" in reply, reply


def test_a_discount_for_a_parent_is_the_price_for_their_age() -> None:
    reply = ask_the_club("my mum fancies joining, does she get a discount?")
    assert "£105" in reply, reply


def test_a_named_babys_months_are_its_years() -> None:
    assert named_ages("User's granddaughter Bea is 14 months old") == [("Bea", 1)]


def test_my_booking_asked_again_is_what_the_user_booked() -> None:
    assert about_user("when's our shoot again?") == 1.0
    assert about_user("what time was that again?") < 1.0  # no booking of the user's named


def test_everyday_words_for_a_club() -> None:
    courts = ["Members can bring a friend along as a guest for £5 a visit.",
              "Our two hard courts are floodlit until 9pm, so you can play into the evening.",
              "An annual pass costs £60. You're welcome to bring a picnic on Sundays.",
              "Most of the paths are fine for pushchairs."]
    def ask_the_courts(question: str) -> str:
        return ask("The secretary of a tennis club.", courts, [0.3] * 4, question)
    assert "guest" in ask_the_courts("can i bring a mate?")
    assert "floodlit" in ask_the_courts("can we still play when it gets dark?")
    assert "£60" in ask_the_courts("do you do a season ticket?")
    assert "picnic" in ask_the_courts("can we bring our own lunch?")


def test_months_with_their_days() -> None:
    assert in_the_months("are you open in january?", "From 15 March to 2 November we're open every day.") is False
    assert in_the_months("are you open in june?", "From 15 March to 2 November we're open every day.") is True
    assert in_the_months("are you open in march?", "From 15 March to 2 November we're open every day.") is None
    park = ["From 15 March to 2 November we're open every day from 10am to 5pm, with last admission at 4pm."]
    reply = ask("The owner of a farm park.", park, [0.4], "are you open in january?")
    assert reply.startswith("No"), reply
    assert lower_first("Over the winter we open at weekends.") == "over the winter we open at weekends."


def test_the_latest_one_can_get_in_is_the_last_admission() -> None:
    park = ["From 15 March to 2 November we're open every day from 10am to 5pm, with last admission at 4pm."]
    reply = ask("The owner of a farm park.", park, [0.4], "what time do you open?",
                "and whats the latest we can get in?")
    # (the clause, with the season its sentence opens with: "From 15 March to 2 November, last admission at 4pm.")
    assert "last admission at 4pm" in reply.lower() and "10am" not in reply, reply



def test_having_a_go_where_no_taster_is_known_is_asked_of_the_thing() -> None:
    reply = ask_the_club("can alfie have a go at little racquets?")
    assert reply.startswith("Yes") and "4 to 7" in reply, reply
    reply = ask_the_club("can bea have a go at little racquets?")
    assert reply.startswith("No"), reply


def test_everyday_words_for_being_late_private_and_changing_ones_mind() -> None:
    assert "late" in terms("what happens if i'm stuck in traffic?")
    assert "privat" in terms("can we get a tour to ourselves?")
    assert "cancel" in terms("what if we change our minds?")
    assert asked_part("a mate wants 12 of us to go for his stag, can we get a tour to ourselves?") == \
        "can we get a tour to ourselves?"



def test_a_refusal_with_an_exception_is_still_a_no_for_the_thing_refused() -> None:
    cinema = ["Apart from drinks bought at our bar, we don't allow drinks in the screens."]
    reply = ask("The manager of a cinema.", cinema, [0.4], "can i bring a drink in?")
    assert reply.startswith("No"), reply
    reply = ask("The manager of a cinema.", cinema, [0.4], "can i bring a drink from your bar into the screen?")
    assert reply.startswith("Yes"), reply


def test_a_price_list_naming_age_groups_is_no_one_groups_sentence() -> None:
    assert not limits_group("Tickets cost £22 for adults, £15 for under-18s and £18 for over-65s.")
    theatre = ["Tickets cost £22 for adults, £15 for under-18s and £18 for over-65s. Groups of 10 or more get £2 off "
               "each ticket."]
    reply = ask("The box office manager of a theatre.", theatre, [0.4], "how much is a ticket?")
    assert "£22" in reply, reply


def test_an_age_limit_stating_no_price_gives_no_discount() -> None:
    camp = ["The pool is for ages 5 and over only.", "A pitch costs £24 a night."]
    memories = (["User's mum Gwen is 70"], [0.4])
    reply = ask("The owner of a campsite.", camp, [0.4, 0.4], "does my mum get a discount?", memories=memories)
    assert not reply.startswith("Yes"), reply


def test_a_day_pass_for_a_friend_asked_again_is_asked_of_the_place() -> None:
    assert about_user("how much is a day pass for my friend again?") < 1.0
    assert about_user("when's my lesson again?") == 1.0


def test_a_named_child_coming_is_asked_at_their_age() -> None:
    theatre = ["Evening shows start at 7.30pm and matinees at 2.30pm on Saturdays.",
               "Under-5s aren't allowed in evening shows."]
    memories = (["User's granddaughter Mia is 4"], [0.4])
    reply = ask("The box office manager of a theatre.", theatre, [0.4, 0.4], "can mia come to an evening show?",
                memories=memories)
    assert reply.startswith("No") and "Under-5s" in reply, reply
