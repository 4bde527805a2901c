"""Round 36 of the offline answerer: what a blind split (heldout37: a hot tub hire firm, a karate club, a bouncy castle
hire firm) found wrong, tested here on businesses of their own: "what's ..." as a question, the hours of a phone line,
how hot and how much room, whom a memory names ("is it ok for priya?"), "too old" and "any age", a need that waits
("you don't need one yet"), a child's condition, a price of a thing the place does not price, counts that are no ages,
the clause that shares its sentence's subject, and when one pays the rest."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import holds, wanted
from avatar_service.adapters.dialogue.terms import is_question, terms
from avatar_service.adapters.dialogue.told_cases import asks_the_place_for
from avatar_service.adapters.dialogue.user_facts import second_person

from .test_round24 import ask

SAUNA = [
    "Fire & Ice Sauna Hire is run by Dan Reid from Unit 2, Mill Yard, Hexham NE46 1RT.",
    "You can call us on 01434 600 221. The phone line is open Monday to Friday from 8am to 6pm.",
    "We deliver anywhere within 20 miles of Hexham for free, and we don't travel further than 40 miles.",
    "The sauna is kept at 80°C, and it takes about two hours to heat up from cold.",
    "The sauna needs a flat, level area of at least 3m by 3m, and it costs £180 for a weekend.",
    "We don't recommend using the sauna if you're pregnant, so please check with your midwife first.",
    "Pets aren't allowed in the sauna.",
    "A £40 deposit secures your dates, and the balance is paid in cash or by card when we deliver.",
]
SAUNA_MEMORIES = ["User's sister Priya is pregnant and due in May", "User has a collie called Skye",
                  "User lives in Corbridge"]


def ask_the_sauna(*questions: str) -> str:
    return ask("The owner of a mobile sauna hire firm.", SAUNA, [0.3] * len(SAUNA), *questions,
               memories=(SAUNA_MEMORIES, [0.2] * len(SAUNA_MEMORIES)))


JUDO = [
    "Tynedale Judo Club has been teaching judo in Hexham since 1998.",
    "All sessions take place at the Wentworth Leisure Centre, Wentworth Place, Hexham NE46 3PD.",
    "Juniors aged 6 to 12 train on Mondays and Wednesdays from 5pm to 6pm.",
    "Adults are welcome at any age and any fitness level.",
    "A judo suit costs £25, but you don't need one for your first month; a t-shirt and tracksuit bottoms are fine.",
    "Children with additional needs are very welcome, so please have a word with the coach before the first session.",
    "Belt gradings are held every term, and cost £20 each.",
    "The club team enters the County Championships every spring.",
]
JUDO_MEMORIES = ["User's daughter Maya is 9 and has autism", "User's daughter Maya has done one free trial session",
                 "User is 58 and wants to take up judo", "User lives in Prudhoe"]


def ask_the_judo_club(*questions: str, near: int | None = None, near_memory: int | None = None) -> str:
    """(`near`, `near_memory`: the knowledge sentence, the memory the retrieval finds nearest in meaning)"""
    return ask("The head coach of a judo club.", JUDO, [0.55 if i == near else 0.3 for i in range(len(JUDO))],
               *questions, memories=(JUDO_MEMORIES, [0.4 if i == near_memory else 0.2
                                                     for i in range(len(JUDO_MEMORIES))]))


def test_what_s_opens_a_question_as_what_does() -> None:
    assert is_question("what's the furthest you'll go") and is_question("how's the parking round there")
    reply = ask_the_sauna("what's the furthest you'll travel")
    assert "40 miles" in reply, reply


def test_when_one_can_ring_asks_the_hours_of_the_line() -> None:
    assert wanted("when can i ring you") == ["time"]
    assert "contact" in wanted("what's your number and when can i call")
    reply = ask_the_sauna("when can i ring you")
    assert "8am" in reply, reply


def test_how_hot_asks_a_temperature_said_in_so_many_words() -> None:
    assert wanted("how hot does it get?") == ["temperature"]
    assert ask_the_sauna("how hot does it get?").startswith("The sauna is kept at 80°C")
    reply = ask_the_sauna("how hot does your van's engine get?")
    assert "not know" in reply, reply


def test_how_much_room_asks_a_size_not_a_price() -> None:
    assert wanted("how much room does it need?") == ["size"] and wanted("how much space?") == ["size"]
    reply = ask_the_sauna("how much space does the sauna need?")
    assert "3m by 3m" in reply and "£180" not in reply, reply


def test_whom_a_memory_names_is_asked_for() -> None:
    assert asks_the_place_for("is it ok for priya at the moment?")
    assert asks_the_place_for("is the club ok with maya's condition?")
    reply = ask_the_sauna("is it ok for priya at the moment?")
    assert reply.startswith("No") and "pregnant" in reply, reply
    reply = ask_the_sauna("can skye get in with us lol")
    assert reply.startswith("No") and "pets" in reply, reply


def test_a_second_everyday_verb_agrees_with_you() -> None:
    assert second_person("User is 58 and wants to take up judo") == "you are 58 and want to take up judo"
    assert second_person("User has a cat and two dogs") == "you have a cat and two dogs"


def test_too_old_is_answered_no_by_any_age() -> None:
    reply = ask_the_judo_club("am i too old to start?")
    assert reply.startswith("No") and "any age" in reply, reply


def test_a_need_that_waits_says_no_to_needing_it_now() -> None:
    reply = ask_the_judo_club("does she need a proper uniform straight away?")
    assert reply.startswith("No") and "first month" in reply, reply


def test_a_child_s_condition_is_what_a_place_calls_additional_needs() -> None:
    assert "addit" in terms("is the club ok with maya's condition?")
    reply = ask_the_judo_club("is the club ok with maya's condition?")
    assert "additional needs" in reply, reply


def test_a_price_of_a_thing_the_place_prices_nowhere_is_not_known() -> None:
    reply = ask_the_judo_club("how much is it to go in for the county championships?", near=6)
    assert ("not know" in reply or "not sure" in reply) and "£" not in reply, reply


def test_a_count_is_no_age_time_or_price() -> None:
    assert not holds("Juniors aged 6 to 12 train on Mondays from 5pm to 6pm.", ["number"])
    assert not holds("Little Cubs is our class for 4 to 6 year olds.", ["number"])
    assert holds("No more than 8 children may use it at once.", ["number"])
    assert holds("Students need at least 20 sessions before grading.", ["number"])


def test_where_one_trains_is_the_address_of_the_sessions() -> None:
    reply = ask_the_judo_club("where do you train?")
    assert "Wentworth Leisure Centre" in reply, reply


def test_a_clause_that_shares_its_sentence_s_subject_is_given_it_back() -> None:
    from avatar_service.adapters.dialogue.narrowing import with_subject

    assert with_subject("cost £20 each.", "Belt gradings are held every term, and cost £20 each.") == \
        "Belt gradings cost £20 each."
    assert with_subject("Take the 42 bus.", "Park at the station, and take the 42 bus.") == "Take the 42 bus."
    reply = ask_the_judo_club("when are gradings?", "how much do they cost?")
    assert reply.startswith("Belt gradings cost £20"), reply


def test_when_one_pays_the_rest_is_a_time_not_a_price() -> None:
    assert wanted("when do i pay the rest") == ["time"]
    reply = ask_the_sauna("how much is the deposit?", "when do i pay the rest?")
    assert "when we deliver" in reply, reply


def test_a_memory_that_holds_no_word_asked_names_nobody() -> None:
    reply = ask_the_judo_club("what's my son's name?", near_memory=3)
    assert "told me" in reply, reply


TUTORS = [
    "Brightwell Tutors is at 3 Quay Street, Whitby YO21 3BA, above the bakery.",
    "Whitby station is about a five-minute walk from us.",
    "Brothers and sisters get 10% off their group fees.",
    "We send a written progress report home every term, and hold a parents' evening in March.",
    "To stop lessons we need a full month's notice in writing.",
    "Lessons cancelled with less than 24 hours' notice are charged in full.",
    "Gift vouchers are available for any course and last 12 months.",
    "Our chess tutor, Omar, teaches on Tuesdays and Thursdays.",
    "Tutoring usually takes six weeks to show results.",
]


def ask_the_tutors(*questions: str) -> str:
    return ask("The manager of a tutoring and chess-tutoring centre in Whitby.", TUTORS,
               [0.45, 0.5] + [0.3] * (len(TUTORS) - 2), *questions)


def test_both_kids_are_brothers_and_sisters() -> None:
    assert "sibl" in terms("do i get anything off with both kids coming?")
    reply = ask_the_tutors("do i get anything off with both kids coming?")
    assert "10%" in reply, reply


def test_how_a_pupil_is_getting_on_is_their_progress() -> None:
    reply = ask_the_tutors("how will i know how they're getting on?")
    assert "progress report" in reply, reply


def test_how_much_notice_asks_a_length_of_time() -> None:
    assert wanted("how much notice do i need to give?") == ["duration"]
    reply = ask_the_tutors("how much notice do i need to give if we want to stop?")
    assert "month" in reply, reply


def test_what_is_available_is_sold() -> None:
    reply = ask_the_tutors("do you sell gift vouchers?")
    assert reply.startswith("Yes"), reply


def test_a_doer_whose_work_names_the_place_is_someone_there() -> None:
    reply = ask("A small jewellery repair and engraving shop.",
                ["Hand engraving is done by Ellen on Thursdays and Fridays only.",
                 "Engraving usually takes three working days.", "We're open Tuesday to Saturday, 10am to 5pm."],
                [0.6, 0.65, 0.3], "which days does the engraver work?")
    assert "Thursdays and Fridays" in reply, reply


def test_whereabouts_in_a_town_asks_the_address() -> None:
    reply = ask_the_tutors("whereabouts in whitby are you?")
    assert "3 Quay Street" in reply, reply
    assert "footbal" in terms("can he wear his footy boots?")


BAKER = [
    "Crumb & Co is a home bakery run by Lily Ash from her kitchen in Ripon; collections are by appointment.",
    "Gluten-free sponges are available too, at no extra charge.",
    "Vegan sponges are available in any flavour for an extra £10 per cake.",
    "I can deliver cakes anywhere in Ripon for £6.",
    "Sticky toffee dessert pots can be added for £3 each.",
    "Our celebration menu is vanilla, lemon drizzle and chocolate fudge.",
    "The balance is due 7 days before collection.",
    "Please give at least 10 days' notice for tiered cakes.",
    "Anyone with a nut allergy should tell me when ordering.",
]


def ask_the_baker(*questions: str) -> str:
    return ask("A home baker who makes celebration cakes.", BAKER, [0.3] * len(BAKER), *questions)


def test_a_thing_free_of_what_someone_cannot_have_is_no_price() -> None:
    reply = ask_the_baker("do you do gluten free?")
    assert reply.startswith("Yes") and "gluten-free" in reply, reply


def test_dropping_a_thing_round_to_someone_s_is_delivering_it() -> None:
    assert "deliv" in terms("could you drop alfie's cake round to mine?")
    reply = ask_the_baker("could you drop the cake round to my mum's?")
    assert "£6" in reply, reply


def test_the_occasion_a_thing_is_for_is_no_topic() -> None:
    reply = ask_the_baker("can you do a vegan cake for my dad's birthday?")
    assert "£10" in reply, reply


def test_everyday_words_of_the_round() -> None:
    assert "dessert" in terms("do you do a pudding?") or {"pud", "pudding"} & set(terms("do you do a pudding?"))
    assert ask_the_baker("do you do a pudding?").lower().startswith("yes, sticky toffee")
    assert terms("anything health wise?") == ["health"]
    assert wanted("what cakes do you make?") == ["list"] and wanted("what time do you do lunch?") == ["clock"]
    reply = ask_the_baker("sorry when did you say the rest was due?")
    assert "7 days" in reply, reply
    reply = ask_the_baker("how much notice do you need for the tiered ones?")
    assert "10 days" in reply, reply


SWIM_SHOP = [
    "The shop is open Tuesday to Sunday, and on Sundays from 9am to 1pm.",
    "We're closed all day on Mondays.",
    "Customers can park for free in the yard behind the shop on weekdays, but at weekends you'll need to use the "
    "Pavilion car park.",
    "The office is open Monday to Friday 8am to 5pm, and Saturday 9am to 12pm for phone calls only.",
    "Children aged 8 to 11 must have a parent or guardian stay on the poolside throughout.",
]


def ask_the_swim_shop(*questions: str) -> str:
    return ask("The owner of a swimming and snorkelling shop with a pool.", SWIM_SHOP, [0.3] * len(SWIM_SHOP),
               *questions, memories=(["User's son Theo is 9"], [0.2]))


def test_the_part_of_a_sentence_about_what_is_asked_says_which_days() -> None:
    reply = ask_the_swim_shop("can i park in your yard on a saturday?")
    assert reply.startswith("No") and "Pavilion" in reply, reply
    reply = ask_the_swim_shop("is the office open on saturdays?")  # (one list of days: "..., and Saturday 9am")
    assert reply.startswith("Yes"), reply


def test_closed_on_the_day_asked_is_the_hours_of_that_day() -> None:
    reply = ask_the_swim_shop("what time do you open on sundays?", "and mondays?")
    assert "closed all day on Mondays" in reply, reply


def test_staying_on_the_poolside_is_supervising() -> None:
    reply = ask_the_swim_shop("can theo swim here?", "do i have to stay with him?")
    assert "poolside" in reply, reply
