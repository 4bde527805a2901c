"""Round 29 of the offline answerer: questions from a blind review of fifteen new businesses."""

from __future__ import annotations

from avatar_service.adapters.dialogue.age_limits import ages
from avatar_service.adapters.dialogue.answer_types import HOLDS, wanted
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.feelings import detect_emotion
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.ranking import said_sentences
from avatar_service.adapters.dialogue.user_facts import about_user
from avatar_service.adapters.dialogue.yes_or_no import lower_first
from avatar_service.core.text.follow_ups import resolved
from avatar_service.ports.dialogue import Persona

from .conversation import last_reply
from .test_round24 import ask

PHARMACY_HOURS = "The pharmacy is open Monday to Friday from 8.30am to 7pm, Saturday from 9am to 5pm."
PHARMACY_LUNCH = "On Saturdays we close for lunch between 1pm and 1.30pm."


def test_another_case_of_a_list_is_read_from_the_same_list() -> None:
    persona = Persona("Sam", "", "The pharmacist of a high-street pharmacy.", {"verbosity": 0.3})
    # the lunch break is nearer in meaning to "and on Saturdays?", as the embedder found it
    reply = last_reply(persona, ["What time do you close on weekdays?", "And on Saturdays?"],
                       [f"{PHARMACY_HOURS} {PHARMACY_LUNCH}"], [0.5], [], [],
                       sentence_relevance={PHARMACY_HOURS: 0.53, PHARMACY_LUNCH: 0.8})
    assert "5pm" in reply and "lunch" not in reply, reply


def test_blood_pressure_is_no_feeling() -> None:
    assert detect_emotion("Can you check my blood pressure?") is None
    felt = detect_emotion("I'm under so much pressure at work")
    assert felt is not None and felt.kind == "stressed" and felt.word == "under pressure"
    assert detect_emotion("I have so much stress right now").word == "stressed"  # "feeling stressed", not "stress"


def test_no_appointment_needed_is_not_a_no() -> None:
    reply = ask("The pharmacist of a high-street pharmacy.",
                ["We offer free blood pressure checks, with no appointment needed."], [0.5],
                "Can you check my blood pressure?")
    assert reply.startswith("Yes") and "sorry" not in reply.lower(), reply


def test_what_is_not_provided_you_need_to_bring() -> None:
    nursery = ["Please send a spare set of clothes every day. Nappies and wipes are not provided."]
    reply = ask("The manager of a day nursery.", nursery, [0.5],
                "Do I need to send nappies?")
    assert reply.startswith("Yes"), reply


def test_ages_said_in_words_turning_and_in_months() -> None:
    assert ages("Your son Leo is two and a half.") == [2]
    assert ages("Your son Alfie is turning 10.") == [10]
    assert ages("Your baby daughter Nell is 8 months old.") == [0]  # not 8
    assert ages("The pool is one of the largest in town.") == []
    assert HOLDS["age"].search("Your son Alfie is turning 10.") and HOLDS["age"].search("for ages 7 to 11")


NURSERY = ["Little Acorns cares for children from 6 months to 5 years.",
           "Babies up to 2 are in the Seedlings room, 2 to 3 year olds are in the Saplings room, and 3 to 5 year olds "
           "are in the Oak room."]


def test_a_child_whose_age_is_said_in_words_is_placed_by_it() -> None:
    assert wanted("What ages do you take?") == ["age"]
    reply = ask("The manager of a day nursery.", NURSERY, [0.3, 0.4], "Which room would my son be in?",
                memories=(["User's son Leo is two and a half"], [0.3]))
    assert "Saplings" in reply, reply


def test_an_amount_said_in_another_price_is_a_price() -> None:
    lettings = ["Tenants pay a holding deposit of one week's rent to reserve a property.",
                "Tenants need to earn at least 30 times the monthly rent per year."]
    reply = ask("A letting agent.", lettings, [0.5, 0.4], "How much is the holding deposit?")
    assert "one week's rent" in reply, reply
    assert "30 times" in ask("A letting agent.", lettings, [0.4, 0.4], "How much do I need to earn?")


def test_everyday_words_for_what_the_text_says_otherwise() -> None:
    launderette = ["Dryers cost £1 for 10 minutes. Washing powder is sold at the counter for 80p a cup.",
                   "The machines take coins and contactless cards."]
    assert "powder" in ask("A launderette.", launderette, [0.4, 0.3], "Do you sell detergent?")
    fishery = ["A day ticket costs £12. Juniors under 16 and over-65s pay £8 for a day."]
    assert "£8" in ask("A fishery.", fishery, [0.5], "Is it cheaper for pensioners?")


def test_the_price_of_what_a_sentence_opens_with() -> None:
    valets = ["A Full Valet is £85 and adds a deep clean of the interior; it takes about three hours.",
              "The Showroom Valet is £180, adds a machine polish and a ceramic wax to everything in the Full Valet, "
              "and takes most of a day."]
    persona = Persona("Sam", "", "A mobile car valeting service.", {"verbosity": 0.3})
    # the showroom's sentence is as near in meaning, as the embedder found it
    reply = last_reply(persona, ["what does a full valet cost?"], [" ".join(reversed(valets))], [0.5], [], [],
                       sentence_relevance={valets[0]: 0.71, valets[1]: 0.71})
    assert "£85" in reply and "£180" not in reply, reply


def test_a_kind_asked_alone_is_asked_of_what_the_last_reply_said() -> None:
    hours = "The range is open from 7am to 10pm Monday to Friday and from 8am to 9pm at weekends."
    deal = "On Tuesdays from 4pm until closing, baskets are half price for anyone under 18."
    persona = Persona("Sam", "", "A golf driving range.", {"verbosity": 0.3})
    # the opening hours are nearer in meaning to "from what time?", as the embedder found them
    reply = last_reply(persona, ["do you do any deals for teenagers?", "from what time?"], [hours, deal], [0.4, 0.4],
                       [], [], sentence_relevance={hours: 0.5, deal: 0.15})
    assert "4pm" in reply and "7am" not in reply, reply


def test_costing_extra_is_asked_of_the_price_just_given() -> None:
    family = "The family room costs £130 a night for two adults and up to two children, breakfast included."
    welcome = "Children of all ages are welcome, and we lend a cot and a high chair free of charge if you ask."
    persona = Persona("Sam", "", "A bed-and-breakfast guesthouse.", {"verbosity": 0.3})
    # children are nearer in meaning to the question than the family room, as the embedder found them
    reply = last_reply(persona, ["how much is the family room a night?", "do the kids cost extra on top?"],
                       [family, welcome], [0.4, 0.4], [], [], sentence_relevance={family: 0.4, welcome: 0.5})
    assert "£130" in reply, reply


def test_a_clock_time_is_no_age_and_a_photo_is_a_portrait() -> None:
    assert not HOLDS["age"].search("A full day from 7.30am to 6pm costs £68.")
    assert HOLDS["age"].search("Little Acorns cares for children from 6 months to 5 years.")
    studio = ["Her business partner Marcus Bell shoots the headshots and pet portraits.",
              "Pet portraits are £60 for 45 minutes."]
    reply = ask("A portrait photography studio.", studio, [0.4, 0.4], "Can you take photos of my dog?")
    assert reply.startswith("Yes") and "portraits" in reply, reply
    assert lower_first("Her business partner shoots pet portraits.") == "her business partner shoots pet portraits."


def test_how_do_i_report_asks_what_to_do_and_the_boss_heads_it() -> None:
    assert about_user("How do I report a dripping tap?") == 0.0
    lettings = ["Tenants report repairs through our online portal or by calling 01603 777 345.",
                "We manage flats across Norwich."]
    assert "portal" in ask("A letting agent.", lettings, [0.3, 0.2], "How do I report a dripping tap?",
                           memories=(["User has a cat called Tofu"], [0.1]))
    team = ["The senior partner is Margaret Finch, who heads the probate team.",
            "Conveyancing is handled by Daniel Osei."]
    assert "Margaret" in ask("A firm of solicitors.", team, [0.25, 0.24], "Who's the boss there?")


def test_whether_one_must_is_answered_by_what_says_one_must() -> None:
    bingo = ["Members get a free cup of tea and a biscuit at afternoon sessions.",
             "Membership is free, and you need it to play; bring photo ID to join."]
    persona = Persona("Sam", "", "A bingo club.", {"verbosity": 0.3})
    reply = last_reply(persona, ["Do I have to be a member?"], [" ".join(bingo)], [0.5], [], [],
                       sentence_relevance={bingo[0]: 0.45, bingo[1]: 0.63})
    assert "you need it" in reply, reply


def test_a_list_announced_by_a_colon_is_said_whole() -> None:
    sessions = "Lucky Star Bingo has two main sessions every day: the afternoon session at 1.30pm and the evening " \
               "session at 7.30pm."
    assert one_clause(sessions, "When are the bingo sessions?", ["time"]) == sessions
    assert "7.30pm" in one_clause(sessions, "When is the evening session?", ["time"])


def test_how_long_a_business_has_been_going() -> None:
    shop = ["Pennington's Hardware is a family-run ironmongers, trading since 1962.",
            "We are open Monday to Saturday from 8am to 5.30pm."]
    assert "1962" in ask("A hardware shop.", shop, [0.15, 0.15], "How long have you been going?")


def test_late_hours_are_the_evening() -> None:
    clinic = ["We are open Monday to Friday from 9am to 5pm, and until 8pm on Thursdays.",
              "The clinic is on the first floor."]
    assert "8pm" in ask("A foot clinic.", clinic, [0.3, 0.2], "Are you open late any evening?")


def test_learning_is_being_taught() -> None:
    rink = ["Our Learn to Skate course runs for eight weeks on Saturday mornings at 9am and costs £96.",
            "The head coach is Natalia Brooks, a former British ice dance champion."]
    persona = Persona("Sam", "", "An ice rink.", {"verbosity": 0.3})
    reply = last_reply(persona, ["Do you teach beginners?"], [" ".join(rink)], [0.4], [], [],
                       sentence_relevance={rink[0]: 0.39, rink[1]: 0.3})
    assert "Learn to Skate" in reply, reply


def test_a_niece_or_a_granddaughter_is_asked_of_with_her_age() -> None:
    karaoke = ["Everyone must be 18 or over after 8pm; under-18s are welcome before 8pm with an adult.",
               "Rooms can be booked online or by phone on 0161 555 0192."]
    reply = ask("A karaoke bar.", karaoke, [0.24, 0.16], "Can my niece come with us?",
                memories=(["User's niece Ruby is 16"], [0.55]))
    assert "under-18s are welcome" in reply, reply
    bingo = ["You must be 18 or over to enter the hall.", "Membership is free, and you need it to play."]
    reply = ask("A bingo club.", bingo, [0.28, 0.17], "Can my granddaughter come with me?",
                memories=(["User's granddaughter Chloe is 17"], [0.55]))
    assert reply.startswith("No, you must be 18"), reply
    fishery = ["Under-14s must be accompanied by an adult when fishing.", "A day ticket costs £12."]
    reply = ask("A fishery.", fishery, [0.4, 0.2], "Can my grandson come fishing on his own?",
                memories=(["User's grandson Harry is 12"], [0.4]))
    assert "accompanied" in reply and not reply.startswith("Yes"), reply


def test_a_name_after_its_role_and_a_comma_is_someone() -> None:
    nursery = ["Breakfast, a hot lunch and tea are cooked on site by our chef, Andy, and are included in the fees.",
               "The nursery manager is Priya Shah, and her deputy is Gemma Lowe."]
    reply = ask("A day nursery.", nursery, [0.42, 0.22], "Are meals included?", "Who does the cooking?")
    assert "Andy" in reply, reply


def test_what_a_yes_said_is_what_was_said() -> None:
    assert said_sentences("Yes, travel vaccinations are available by appointment.") == frozenset(
        ["travel vaccinations are available by appointment"])


def test_the_kind_that_counts_as_the_question_does() -> None:
    cattery = ["A single cat costs £14 per night, and two cats sharing cost £22 per night.",
               "Cats from the same household can share a chalet."]
    reply = ask("A cattery.", cattery, [0.6, 0.5], "How much is it per night?", "What about two cats in one chalet?")
    assert "£22" in reply and "£14" not in reply, reply


def test_a_deposit_back_is_a_refund_and_non_refundable_is_a_no() -> None:
    paintball = ["A deposit of £5 per player is needed to book, and it is non-refundable.", "Parking is free.",
                 "Book online or call 01942 600 811.", "Our Standard package costs £25 per person.",
                 "Masks must be worn at all times in the game zones.", "Extra paintballs cost £8 per 100.",
                 "Players must be at least 12 years old.", "Lunch is a burger with a drink.",
                 "There are toilets and changing rooms on site, but no showers."]
    persona = Persona("Sam", "", "A paintball site.", {"verbosity": 0.3})
    reply = last_reply(persona, ["Can I get my deposit back if we cancel?"], [" ".join(paintball)], [0.3], [], [],
                       sentence_relevance={paintball[0]: 0.33, paintball[1]: 0.16, paintball[2]: 0.17})
    assert "non-refundable" in reply, reply


def test_clothes_are_the_washing() -> None:
    launderette = ["Our service wash costs £14 for a bag up to 7kg, washed, dried and folded.",
                   "Dryers cost £1 for 10 minutes."]
    assert "£14" in ask("A launderette.", launderette, [0.4, 0.3], "Can you wash and fold my clothes for me?")


def test_no_sure_before_the_answer_to_a_yes_or_no_question() -> None:
    persona = Persona("Sam", "", "A dental practice.", {"verbosity": 0.5, "warmth": 0.8})
    reply = last_reply(persona, ["can i pay cash?"], ["Payment is by card only; the practice does not accept cash."],
                       [0.5], [], [])
    assert not reply.startswith(("Sure", "Of course")), reply


def test_closing_time_is_not_the_late_opening() -> None:
    hours = "Keynote Music is open Monday to Saturday from 9:30am to 5:30pm, with late opening until 7pm on Thursdays."
    reply = ask("A music shop.", [hours, "The shop is closed on Sundays."], [0.45, 0.43], "what time do you close?")
    assert "5:30pm" in reply, reply
    hours = "We are open Monday to Friday from 9:30am to 6pm, on Saturday from 10am to 5pm and on Sunday from 11am " \
            "to 3pm, but we close early at 2pm on Wednesdays for staff training."
    reply = ask("A phone repair shop.", [hours], [0.5], "what time do you shut on a wednesday?")
    assert "2pm" in reply and "6pm" not in reply, reply


def test_at_the_hospital_is_a_place() -> None:
    assert HOLDS["place"].search("You work night shifts at the hospital.")
    assert not HOLDS["place"].search("We are busiest at the weekend.")
    reply = ask("A driving school.", ["Lessons cost £38 an hour."], [0.1], "remind me, where do i work?",
                memories=(["User lives in Bayston Hill", "User works night shifts at the hospital"], [0.21, 0.32]))
    assert "hospital" in reply, reply


DRUMS = ["Lessons are for ages 8 and up, but drum pupils must be at least 10.", "Lessons cost £18 for half an hour."]


def test_how_old_he_is_is_asked_of_whom_the_user_named() -> None:
    assert resolved("hang on, how old is he again?", "my lad wants drum lessons, can he start?") == \
        "hang on, how old is my lad again?"
    reply = ask("A music shop that gives lessons.", DRUMS, [0.62, 0.3], "my lad wants drum lessons, can he start?",
                "hang on, how old is he again?", memories=(["User's son Jacob is 9"], [0.28]))
    assert "Jacob is 9" in reply, reply
    reply = ask("A music shop that gives lessons.", DRUMS, [0.42, 0.3], "what about my son, how old is he now?",
                memories=(["User's son Jacob is 9", "User's daughter Mia is 12"], [0.22, 0.34]))
    assert "Jacob is 9" in reply, reply


def test_a_car_is_no_parking() -> None:
    school = ["Gareth Pryce owns the school and teaches in manual cars.",
              "The office is at 14 Castle Foregate, Shrewsbury SY1 2EL."]
    reply = ask("A driving school.", school, [0.17, 0.3], "where's your office?", "is there parking there?")
    assert "Gareth" not in reply, reply


def test_a_sentence_that_opens_with_someone_doing_it_names_them() -> None:
    assert HOLDS["person"].search("Alex Kerr does all repairs, on Tuesdays and Wednesdays.")
    assert not HOLDS["person"].search("Keynote Music is open Monday to Saturday.")
    shop = ["Repairs usually take 3 to 5 working days.", "Alex Kerr does all repairs, on Tuesdays and Wednesdays.",
            "Keynote does not repair pianos or brass instruments.", "Violins can be hired for £15 a month.",
            "The shop is open Monday to Saturday from 9:30am to 5:30pm.", "Guitar lessons cost £18 for half an hour."]
    persona = Persona("Sam", "", "A music shop.", {"verbosity": 0.3})
    reply = last_reply(persona, ["how long do repairs take?", "who does them?"], [" ".join(shop)], [0.5], [], [],
                       sentence_relevance={shop[0]: 0.85, shop[1]: 0.47, shop[2]: 0.33})
    assert "Alex Kerr" in reply, reply


def test_a_two_hour_one_is_the_two_hour_lesson() -> None:
    prices = ["A single one-hour lesson costs £38 and a two-hour lesson costs £72.",
              "Lessons in an automatic car cost £42 per hour."]
    reply = ask("A driving school.", prices, [0.7, 0.65], "hiya, how much is a lesson?", "and a two hour one?")
    assert "£72" in reply and "£38" not in reply, reply


def test_a_discount_asks_a_price() -> None:
    assert "price" in wanted("any discount if i buy a few at once?")
    prices = ["A block of ten one-hour lessons costs £350 if paid upfront.",
              "Lessons in an automatic car cost £42 per hour."]
    reply = ask("A driving school.", prices, [0.4, 0.33], "any discount if i buy a load at once?",
                "what about in an automatic?", memories=(["User prefers driving automatic cars"], [0.31]))
    assert "£42" in reply, reply


def test_wanting_to_learn_asks_about_lessons_for_her_age() -> None:
    school = ["Pupils can start lessons from age 17 and must hold a valid provisional driving licence.",
              "Gareth Pryce owns the school and teaches in manual cars.",
              "Nadia Khan teaches in automatic cars only."]
    reply = ask("A driving school.", school, [0.3, 0.3, 0.31], "my daughter wants to learn, can she start with you?",
                memories=(["User's daughter Ffion is 16"], [0.3]))
    assert reply.startswith("No, pupils can start lessons from age 17"), reply


def test_the_part_that_holds_more_of_the_question_says_yes_or_no() -> None:
    returns = "Unused items can be returned within 30 days with a receipt, but strings, reeds and drumsticks cannot " \
              "be returned once opened."
    reply = ask("A music shop.", [returns], [0.5], "can i return a pack of strings i've opened?")
    assert reply.startswith("No"), reply
    reply = ask("A dental practice.", ["Payment is by card only; the practice does not accept cash."], [0.5],
                "can i pay cash?")
    assert not reply.startswith("Yes"), reply


def test_after_six_is_the_evening_and_which_day_works_asks_which_day() -> None:
    hours = ["Keynote Music is open Monday to Saturday from 9:30am to 5:30pm, with late opening until 7pm on "
             "Thursdays.", "The shop is closed on Sundays."]
    reply = ask("A music shop.", hours, [0.23, 0.21], "i can only make it over after six, which day works?")
    assert "Thursdays" in reply, reply


def test_buying_a_load_at_once_is_a_block() -> None:
    prices = ["A single one-hour lesson costs £38 and a two-hour lesson costs £72.",
              "A block of ten one-hour lessons costs £350 if paid upfront.",
              "Lessons in an automatic car cost £42 per hour.", "Gift vouchers are available in any amount from £20."]
    persona = Persona("Sam", "", "A driving school.", {"verbosity": 0.3})
    reply = last_reply(persona, ["any discount if i buy a load at once?"], [" ".join(prices)], [0.5], [], [],
                       sentence_relevance={prices[0]: 0.4, prices[1]: 0.45, prices[2]: 0.35, prices[3]: 0.3})
    assert "£350" in reply, reply


def test_an_amp_is_an_amplifier() -> None:
    hire = ["Violins, cellos and keyboards can be hired for £15 a month.", "Keynote does not hire out drum kits or "
            "amplifiers."]
    reply = ask("A music shop.", hire, [0.33, 0.34], "could i hire an amp too?")
    assert reply.startswith("No") and "amplifiers" in reply, reply


def test_being_put_to_sleep_is_sedation() -> None:
    policies = ["Sedation is not available at the practice.", "Payment is by card only.",
                "Dr Anika Shah is the principal dentist and does all crowns and root canal treatment."]
    reply = ask("A dental practice.", policies, [0.3, 0.2, 0.25], "can i be put to sleep for my treatment?")
    assert reply.startswith("No") and "Sedation" in reply, reply


def test_that_one_points_back_and_lasting_is_how_long() -> None:
    lessons = ["Lessons last 30, 45 or 60 minutes and cost £22, £31 and £40.",
               "A first trial lesson of 20 minutes is free."]
    persona = Persona("Sam", "", "A piano teacher.", {"verbosity": 0.3})
    reply = last_reply(persona, ["Can I try a lesson before signing up?", "how long does that one last?"],
                       [" ".join(lessons)], [0.5], [], [], sentence_relevance={lessons[0]: 0.49, lessons[1]: 0.56})
    assert "20 minutes" in reply and "£40" not in reply, reply
    weights = question_weights("how long does that one last?", ["duration"], [])
    assert "singl" not in weights and weights.get("last", 0.0) < 1.0, weights  # (the kind asked, "that one" said)
