"""Round 26 of the offline answerer: a no that names what is asked about answers a yes-or-no question whatever else it
names ("a spare front door key?" / "we don't cut keys"), but only the no of the part that names it; a case of a
sentence is named by a word of its own ("£110 per hour, or £130 per hour with our guest artists" is not named by
"per hour"), and asked "the bigger size?" the last of its cases is; "how much do you charge" asks a price."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import holds, on_the_day, wanted
from avatar_service.adapters.dialogue.listed_kinds import JUST_ME, one_kind
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.user_facts import second_person

from .test_round24 import ask

SHOES = [
    "We don't dye or recolour shoes, and we don't cut keys. New zips in boots cost £30 per boot.",
    "We have a small arcade with 30 machines, but we do not have pool tables.",
    "Hobnail Shoe Repairs is at 14 Fisher Street, Carlisle.",
]


def ask_cobbler(*questions: str) -> str:
    return ask("The owner of a cobbler's shop.", SHOES, [0.4, 0.2, 0.2], *questions)


def test_a_no_that_names_what_is_asked_about_answers_whatever_else_the_question_names() -> None:
    reply = ask_cobbler("can you cut me a spare front door key?")
    assert reply.startswith("No") and "keys" in reply, reply


def test_only_the_no_of_the_part_naming_it_answers() -> None:
    reply = ask_cobbler("is there a cash machine in the building?")
    assert "pool tables" not in reply, reply


def test_a_case_is_named_by_a_word_of_its_own() -> None:
    sentence = ("Our minimum charge is £60, which covers small pieces, and most work is charged at £110 per hour, or "
                "£130 per hour with our guest artists.")
    assert one_clause(sentence, "how much does suki charge per hour?", ["price"]) == \
        "Most work is charged at £110 per hour."
    assert "130" in one_clause(sentence, "how much is it with a guest artist?", ["price"])


def test_the_bigger_one_is_the_last_case() -> None:
    sentence = "Museum glass costs £30 extra for A4 and £45 extra for A3."
    assert one_clause(sentence, "how much extra is that on the bigger size?", ["price"]) == "It's £45 extra for A3."
    assert "30" in one_clause(sentence, "and on the smaller one?", ["price"])


def test_what_is_excepted_is_a_no() -> None:
    reply = ask("The owner of a guesthouse.", ["We take cash and all cards except American Express.",
                                               "Check-in is between 3pm and 8pm."], [0.3, 0.2], "do you take amex?")
    assert reply.startswith("No") and "American Express" in reply, reply


def test_an_aside_points_back_at_nothing() -> None:
    repairs = ["The warranty doesn't cover new drops or cracks.",
               "We don't do home visits, and we don't repair game consoles, smartwatches or televisions."]
    reply = ask("The owner of a phone repair shop.", repairs, [0.4, 0.3], "what if i drop it again, is that covered?",
                "can you fix my playstation while i'm at it?")
    assert reply.startswith("No") and "consoles" in reply, reply


def test_a_grown_up_is_not_priced_by_a_family_ticket() -> None:
    pool = ["A family swim for two adults and two juniors costs £13.50.",
            "A casual swim costs £5.20 for adults and £3.10 for juniors."]
    reply = ask("The manager of a swimming pool.", pool, [0.5, 0.5], "how much is it for a grown-up to go swimming?")
    assert "5.20" in reply and "13.50" not in reply, reply
    assert not JUST_ME.search("how much is a pitch for me and my wife?")
    assert JUST_ME.search("what would it cost for just me?")


def test_how_quick_asks_how_long_and_coming_out_is_a_call_out() -> None:
    pests = ["If the pests come back within 30 days of a treatment, we treat again free of charge.",
             "We aim to treat wasp nests within 48 hours of your call."]
    reply = ask("The owner of a pest control firm.", pests, [0.3, 0.3], "how quick can you come out?")
    assert "48 hours" in reply, reply


def test_the_small_hours_are_night_and_time_and_a_half_is_a_price() -> None:
    taxi = ["Our fares start at £4.50, plus £2.20 a mile.",
            "Between 11pm and 6am, and all day on Sundays, fares are time and a half."]
    reply = ask("The owner of a taxi firm.", taxi, [0.4, 0.3], "how much do you charge per mile?",
                "is it dearer at night?")
    assert "time and a half" in reply, reply


def test_how_the_user_feels_about_what_they_told_is_not_the_topic() -> None:
    dance = ["Children's ballet is on Tuesday from 4:15pm, and street dance for ages 8 to 14 is on Wednesday at 5pm.",
             "Pirouette teaches ballet, tap and jazz to children from 3 years old."]
    reply = ask("The office manager of a dance school.", dance, [0.31, 0.34],
                "my son's obsessed with breakdancing, have you got anything for him?")
    assert "street dance" in reply, reply


def test_a_newbie_comes_for_a_first_class() -> None:
    yoga = ["Your first class is free if you book it online.", "We provide mats and blocks free."]
    reply = ask("The owner of a yoga studio.", yoga, [0.29, 0.24], "do newbies get a free go?")
    assert reply.startswith("Yes") and "first class" in reply, reply


def test_an_amount_outside_one_cases_bound_is_the_other_case() -> None:
    sentence = "Home boarding costs £40 a night, or £35 a night for stays of a week or more."
    assert one_kind(sentence, {"night"}, "how much a night for 3 nights?", ["price"]) == \
        "Home boarding costs £40 a night."


def test_whether_there_is_a_deposit_asks_its_amount() -> None:
    assert "price" in wanted("is there a deposit?")
    assert "price" not in wanted("if I cancel three weeks before, do I lose the deposit?")
    hall = ["A booking is confirmed when the deposit is paid.",
            "Every party booking needs a refundable £150 damage deposit."]
    reply = ask("The bookings secretary of a village hall.", hall, [0.46, 0.42], "is there a deposit?")
    assert "£150" in reply, reply


def test_asked_whether_one_needs_to_the_sentence_saying_what_one_needs() -> None:
    shop = ["Bea Lawson runs the shop and takes the bookings.",
            "You don't need an appointment to drop a guitar off."]
    reply = ask("The manager of a guitar repair shop.", shop, [0.18, 0.17], "do i need to book before bringing it in?")
    assert reply.startswith("No") and "appointment" in reply, reply


def test_late_asks_the_clause_with_the_latest_hour() -> None:
    sentence = "We are open Tuesday to Saturday from 10am to 6pm, and until 8pm on Thursdays."
    assert one_clause(sentence, "which night do you stay open late?", ["time"]) == "Until 8pm on Thursdays."
    daycare = "We are open from 7:30am to 6:30pm, and dogs must be dropped off by 9:30am."
    assert "9:30" in one_clause(daycare, "whats the latest i can come in the morning?", ["time"])


def test_what_needs_no_appointment_is_for_popping_in() -> None:
    groomer = ["A full groom includes a bath, a haircut and a nail clip, and takes about two and a half hours.",
               "A nail clip on its own costs £8 and needs no appointment."]
    reply = ask("The receptionist of a dog grooming salon.", groomer, [0.46, 0.40],
                "Can I just pop in to get his nails done?")
    assert "no appointment" in reply and not reply.startswith("No"), reply


def test_a_check_is_a_test() -> None:
    optician = ["We recommend an eye test every two years.", "The plan includes your yearly contact lens check-up."]
    reply = ask("A dispensing assistant at an optician's.", optician, [0.72, 0.43],
                "How often should I be getting my eyes checked?")
    assert "two years" in reply, reply


def test_whoever_is_not_what_is_asked_about() -> None:
    hall = ["The whole building is on one level, with an accessible toilet and baby-changing.",
            "The main hall holds 120 people standing or 80 seated at tables."]
    reply = ask("The bookings secretary of a village hall.", hall, [0.31, 0.39],
                "is it ok for someone in a wheelchair?")
    assert "one level" in reply, reply


def test_a_certain_number_is_a_minimum() -> None:
    bowling = ["Up to six players can share a lane, and bumpers are available free for younger children.",
               "Children's bowling parties are for ages 5 to 12, at £14.95 per child with a minimum of eight children."]
    reply = ask("The owner of a bowling centre.", bowling, [0.46, 0.41], "how much is it per child?",
                "do you need a certain number of kids?")
    assert "minimum of eight" in reply and reply.startswith("Yes, children's"), reply


def test_an_amount_within_a_bound_ranks_the_sentence_setting_it() -> None:
    prints = ["Black and white copies cost 10p per side on A4 and 20p on A3.",
              "For orders of more than 500 sides, black and white A4 drops to 6p per side."]
    reply = ask("The counter assistant at a print shop.", prints, [0.45, 0.40],
                "i need 600 pages in b&w, is it any cheaper for that many?")
    assert "6p" in reply, reply


def test_a_sentence_holding_the_rarer_half_of_the_question_answers_though_far_in_meaning() -> None:
    climbing = ["Women's bouldering night, hosted by Jess Okafor, is every Monday from 7pm.",
                "Children under 8 can only climb in our Little Monkeys sessions on Saturday mornings."]
    reply = ask("The front-desk host at a climbing centre.", climbing, [0.39, 0.16], "is there a womens session?")
    assert "Monday" in reply, reply


def test_coming_round_to_my_house_is_a_home_visit() -> None:
    repairs = ["We don't do home visits, and we don't repair game consoles.",
               "Laptop screen replacements start at £120."]
    reply = ask("The owner of a phone repair shop.", repairs, [0.32, 0.4],
                "could someone come round to my house to do the screen?")
    assert reply.startswith("No") and "home visits" in reply, reply


def test_the_users_second_verb_agrees_with_you() -> None:
    assert second_person("Tom would like to learn to ride but is nervous around big horses", "Tom") == \
        "you would like to learn to ride but are nervous around big horses"
    assert second_person("Tom's sister is a nurse and has two kids", "Tom") == "your sister is a nurse and has two kids"


def test_a_no_refuses_what_it_names_in_so_many_words() -> None:
    boats = ["Swimming from our boats is not allowed.", "A canoe costs £15 an hour."]
    reply = ask("The owner of a boat hire.", boats, [0.3, 0.2], "do you sell fishing permits?")
    assert "Swimming" not in reply, reply


def test_a_midwife_is_an_occupation_and_pouring_down_is_rain() -> None:
    assert holds("You are a midwife at the Great Western Hospital.", ["occupation"])
    valeting = ["We can't work in heavy rain; if we have to cancel because of the weather, we'll move you to the next "
                "free slot at no charge.", "We come to your home anywhere in Swindon at no extra charge."]
    reply = ask("The owner of a mobile car valeting service.", valeting, [0.3, 0.2],
                "what happens if it pours down on the day?")
    assert "next free slot" in reply, reply


def test_a_day_outside_the_only_days_given_is_a_no() -> None:
    sentence = "Single days cost £38 and can only be booked Monday to Thursday, because Friday is show day."
    assert on_the_day("could it be the friday so she's in the show?", sentence) is False
    assert on_the_day("can she come on a tuesday?", sentence) is True
    assert on_the_day("are you open on a friday?", "We are open Monday to Thursday, and Friday mornings.") is True


# what a review of round 26 found
def test_a_no_about_a_qualified_thing_does_not_refuse_it() -> None:
    cafe = ["Dogs are not allowed inside the café.", "We open at 8am."]
    reply = ask("The owner of a café.", cafe, [0.4, 0.2], "can I bring my guide dog?")
    assert not reply.startswith("No"), reply


def test_no_need_is_a_no_to_whether_one_needs_it() -> None:
    salon = ["You don't need an appointment for a fringe trim.", "We open at 9am."]
    reply = ask("The receptionist of a hair salon.", salon, [0.4, 0.2], "do I need an appointment?")
    assert reply.startswith("No"), reply


def test_apart_from_is_besides() -> None:
    hotel = ["Apart from the pool, there is also a sauna and a steam room.", "Breakfast is at 8am."]
    reply = ask("The receptionist of a hotel.", hotel, [0.4, 0.2], "is there a pool?")
    assert reply.startswith("Yes, apart from"), reply


def test_the_clause_the_question_names_before_the_latest_hour() -> None:
    assert one_clause("The pool is open from 6am to 8pm, and the gym from 7am to 10pm.", "how late is the pool open?",
                      ["time"]) == "The pool is open from 6am to 8pm."
    assert one_clause("A large pizza is £14, or £9 for a small.", "how much for the bigger one?",
                      ["price"]) == "A large pizza is £14."


def test_review_cases_of_days_prices_and_second_verbs() -> None:
    assert on_the_day("are you open on friday?",
                      "We are only open Monday to Wednesday in winter, and Monday to Saturday in summer.") is True
    assert not holds("Every room is double glazed and has a kettle.", ["price"])
    assert second_person("User has a son who is 8 and has asthma") == "you have a son who is 8 and has asthma"


def test_the_number_to_ring_is_a_contact_and_the_other_way_needs_no_answer() -> None:
    assert "contact" in wanted("whats the number to ring?")
    boats = ["Electric boats must be booked in advance, online or by phone on 01483 570 214. We take a £50 deposit "
             "when you book an electric boat. Rowing boats can't be booked.",
             "A rowing boat costs £25 for the first hour. Canoes cost £15 an hour. Life jackets are included.",
             "We're open every day from 10am to 6pm. Dogs are welcome on rowing boats."]
    reply = ask("The owner of a boat hire.", boats, [0.62, 0.5, 0.4],
                "do i need to book the electric boat or can we just turn up?")
    assert "booked in advance" in reply, reply


def test_whether_that_is_extra_asks_a_price_and_two_of_them_is_a_second() -> None:
    assert "price" in wanted("the back seats are covered in their hair, is that extra?")
    club = ["A full week costs £165 per child.", "Brothers and sisters get 10% off the second and any further child."]
    reply = ask("The organiser of a holiday club.", club, [0.5, 0.45], "how much is it for a full week?",
                "is there any discount with two of them?")
    assert reply.startswith("Yes, brothers and sisters get 10% off"), reply
