"""Round 37 of the offline answerer: what a blind split (heldout39: a paintball venue, a barber shop, a petting farm)
found wrong, tested here on businesses of their own: beer said as "cans", "rock up", "midweek" and the "hols", the
latest one can turn up, the price of a group the user told of, a follow-up asked of the place's answer rather than
of the user, an age limit written "under-12s", "walk-in only" as no booking to make, the age of one child of two in
one memory, a pet asked about by name alone, who owns a place, how far, "anything cheaper than ...", whether a
thing is safe for someone (what they need), "my condition", the price of a party, each at their age, and whether a
measure the user told is within a limit."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.totals import group_total
from avatar_service.adapters.dialogue.yes_or_no import lower_first

from .test_round24 import ask

KARTING = [
    "Redline Karting is an outdoor go-kart track at Moor Lane, Thirsk YO7 3BT.",
    "The track is owned by Gary Platt, a former rally driver, and Sue Platt runs the office and bookings.",
    "We're open Saturday and Sunday from 10am to 5pm, with last entry at 4pm.",
    "During North Yorkshire school holidays we also open on Wednesdays and Thursdays from 11am to 4pm.",
    "Arrive-and-drive sessions are walk-on, on Sundays only, and you'll race with other drivers.",
    "A Grand Prix session costs £55 per driver and includes 45 minutes on track and a podium finish.",
    "A Sprint session costs £30 per driver for 20 minutes on track.",
    "Cadet karts are for ages 8 to 15, on Saturday mornings.",
    "No alcohol is allowed on site, and anyone who has been drinking won't be allowed to race.",
    "Dogs aren't allowed in the pit lane or the viewing area, except assistance dogs.",
    "Kids' kart parties cost £18 per child, with a minimum of 8 children.",
    "Come and watch the racing from our heated viewing gallery, with hot drinks and snacks.",
]
KARTING_MEMORIES = ["User's daughter Ava is 14 months old and his son Leo is 9", "User has a whippet called Pepper",
                    "User's dad Frank is 70", "User lives in Ripon, about 12 miles from the track",
                    "User's work team is 14 people including himself", "User expects 9 children at Leo's party"]


def ask_the_track(*questions: str) -> str:
    return ask("The owner of a go-kart track.", KARTING, [0.3] * len(KARTING), *questions,
               memories=(KARTING_MEMORIES, [0.2] * len(KARTING_MEMORIES)))


SALON = [
    "Curl Up & Dye is a hair salon at 3 Bridge Street, Thirsk.",
    "Over-65s pay £15 for a cut and blow-dry on Mondays and Tuesdays.",
    "Saturdays are walk-in only, first come, first served.",
    "Kids' cuts for under-12s are £10.",
    "Little ones are welcome, but children under 3 are best brought in on a weekday morning.",
]
SALON_MEMORIES = ["User's mum Joan is 71", "User works in York Monday to Friday until 6pm"]


def ask_the_salon(*questions: str) -> str:
    return ask("A hairdresser.", SALON, [0.3] * len(SALON), *questions,
               memories=(SALON_MEMORIES, [0.2] * len(SALON_MEMORIES)))


def test_cans_are_beer_and_the_lads_are_friends_not_children() -> None:
    reply = ask_the_track("the lads want to bring a few cans, is that alright?")
    assert "alcohol" in reply.lower(), reply


def test_rocking_up_is_arriving_and_a_walk_on_is_turning_up() -> None:
    reply = ask_the_track("can i just rock up and race?")
    assert "Sundays" in reply, reply


def test_midweek_is_tuesday_to_thursday_and_the_hols_are_the_holidays() -> None:
    reply = ask_the_track("are you open midweek in the school hols?")
    assert "Wednesdays and Thursdays" in reply, reply


def test_the_latest_one_can_turn_up_is_the_last_admission() -> None:
    reply = ask_the_track("what's the latest we can turn up?")
    assert "4pm" in reply and "10am" not in reply, reply


def test_a_follow_up_to_the_place_s_answer_asks_on_about_the_place() -> None:
    reply = ask_the_salon("does my mum get a discount?", "which days?")
    assert "Mondays and Tuesdays" in reply and "York" not in reply, reply


def test_an_age_limit_written_with_a_hyphen_is_an_age() -> None:
    reply = ask_the_salon("how much is a kids cut?", "up to what age?")
    assert "under-12s" in reply, reply


def test_walk_in_only_says_no_booking_is_needed_and_keeps_the_day_s_capital() -> None:
    reply = ask_the_salon("do i need to book on saturdays?")
    assert reply.startswith("No, Saturdays are walk-in only"), reply


def test_the_age_of_one_child_of_two_in_one_memory() -> None:
    reply = ask_the_track("can my son drive a cadet kart?")  # Leo is 9 (his sister, named first, is 14 months)
    assert reply.startswith("Yes, "), reply


def test_a_pet_asked_about_by_name_alone_is_asked_about_as_what_it_is() -> None:
    reply = ask_the_track("can pepper come with us?")
    assert "Dogs aren't allowed" in reply, reply


def test_the_owner_is_the_one_the_text_says_owns_it() -> None:
    reply = ask_the_track("who owns redline?")
    assert "Gary Platt" in reply, reply


def test_how_far_asks_a_distance_but_how_far_ahead_a_time() -> None:
    assert wanted("how far is it from us?") == ["distance"]
    assert "distance" not in wanted("how far ahead should i book?")
    assert "distance" not in wanted("how far along did i say i was?")
    reply = ask_the_track("how far is it from us?")
    assert "12 miles" in reply, reply


def test_anything_cheaper_than_a_thing_is_another_thing() -> None:
    reply = ask_the_track("is there anything cheaper than the grand prix?")
    assert "£30" in reply and "£55" not in reply, reply


def test_a_plural_of_a_word_the_text_writes_in_lower_case_is_no_name() -> None:
    known = "Come and meet our ponies. Pony rides are £3."
    assert lower_first("Pony rides are £3.", known) == "pony rides are £3."


def test_the_price_of_a_group_the_user_told_of() -> None:
    reply = ask_the_track("how much is a grand prix session?", "so what would that come to for all of us?")
    assert reply == "At £55 per driver, that's £770 for 14 people." or "£770" in reply, reply
    reply = ask_the_track("do you do kids parties?", "so how much for leo's party?")
    assert "£162 for 9 children" in reply, reply


def test_no_group_price_without_a_group_asked_or_with_a_count_of_its_own() -> None:
    memories = ["User's work team is 14 people"]
    assert group_total("how much is it?", "It costs £55 per person.", "", memories) is None
    assert group_total("what would it come to for 3 of us?", "It costs £55 per person.", "", memories) is None
    assert group_total("what would it come to for all of us?", "It costs £55 per person.", "", memories) == \
        "At £55 per person, that's £770 for 14 people."


BAKERY = [
    "Crumbs is a cake shop at 9 Mill Street, Thirsk.",
    "Birthday cakes need ordering at least a week ahead, and cost from £35.",
    "Our kitchen also handles gluten, so none of our cakes can be guaranteed safe for coeliacs.",
    "We have a small café with a soft play corner for under-5s.",
    "Pregnant customers should avoid our unpasteurised cheese scones.",
]
BAKERY_MEMORIES = ["User's husband Sam is coeliac", "User's husband Sam has his 40th birthday on 12 June",
                   "User is pregnant with her first baby", "User lives in Thirsk"]


def ask_the_bakery(*questions: str) -> str:
    return ask("A baker.", BAKERY, [0.3] * len(BAKERY), *questions,
               memories=(BAKERY_MEMORIES, [0.2] * len(BAKERY_MEMORIES)))


def test_whether_a_thing_is_safe_for_someone_asks_of_what_they_need() -> None:
    reply = ask_the_bakery("will the birthday cake be ok for sam?")  # his being coeliac, not his birthday
    assert "gluten" in reply, reply


def test_my_condition_is_what_the_user_told_of_their_own_health() -> None:
    reply = ask_the_bakery("is there anything i should avoid in my condition?")
    assert "unpasteurised" in reply, reply


CINEMA = [
    "The Regal is a one-screen cinema on High Street, Thirsk.",
    "Tickets are £9 for adults, £6 for under-16s and £7 for over-65s.",
    "Popcorn is £3.50 a tub.",
]
CINEMA_MEMORIES = ["User's nan Peggy is 81", "User's son Tom is 10 and his daughter Lily is 13", "User's friend Sal"
                   " is coming on Friday"]


def ask_the_cinema(*questions: str) -> str:
    return ask("The manager of a cinema.", CINEMA, [0.3] * len(CINEMA), *questions,
               memories=(CINEMA_MEMORIES, [0.2] * len(CINEMA_MEMORIES)))


def test_the_price_of_a_party_each_at_their_age() -> None:
    assert ask_the_cinema("how much for me and my nan?") == "That's £16: £9 for you and £7 for your nan."
    assert ask_the_cinema("how much would it be for me and both my kids?") == \
        "That's £21: £9 for you, £6 for Tom and £6 for Lily."
    assert ask_the_cinema("what would it cost for me and tom?") == "That's £15: £9 for you and £6 for Tom."


def test_no_party_price_for_someone_whose_age_is_unknown() -> None:
    reply = ask_the_cinema("how much for me and sal?")
    assert "That's" not in reply, reply


MARQUEE = [
    "Our marquees are pegged into grass, so they can't go on patios or decking.",
    "The generator must be within 20 metres of the marquee, because our cable is 20 metres long.",
    "A 6m by 9m marquee needs a flat lawn of at least 8m by 11m.",
]


def ask_the_marquee_firm(*questions: str, memories: list[str]) -> str:
    return ask("A marquee hire firm.", MARQUEE, [0.3] * len(MARQUEE), *questions,
               memories=(memories, [0.2] * len(memories)))


def test_a_measure_the_user_told_within_the_place_s_limit() -> None:
    lawn = ["User's back lawn is flat and about 10m by 14m", "User lives in Thirsk"]
    assert ask_the_marquee_firm("will a 6m by 9m marquee fit on my lawn?", memories=lawn).startswith("Yes, a 6m by 9m")
    small = ["User's back lawn is flat and about 7m by 14m"]
    reply = ask_the_marquee_firm("is my lawn big enough for the 6m by 9m marquee?", memories=small)
    assert reply.startswith("No, a 6m by 9m"), reply
    far = ["User's generator shed is about 30 metres from the lawn"]
    assert ask_the_marquee_firm("is my generator shed close enough?", memories=far).startswith("No, the generator")


AQUARIUM = [
    "A family ticket for 2 adults and 2 children is £36. Adults £12. Children aged 3 to 15 £8. Under-3s get in free. "
    "Over-65s pay £10, and a family ticket for two adults and three children is £44.",
    "The aquarium is on Humber Dock Street, Hull.",
]


def ask_the_aquarium(*questions: str) -> str:
    memories = ["User's son Oli is 7 and his sister Bea is 10 months old", "User's mum Pat is 68"]
    return ask("An aquarium.", AQUARIUM, [0.5, 0.2], *questions, memories=(memories, [0.2, 0.2]))


def test_the_price_for_one_kind_of_visitor_is_not_a_family_s() -> None:
    reply = ask_the_aquarium("how much is entry for kids?")
    assert "£8" in reply and "£36" not in reply, reply
    reply = ask_the_aquarium("how much is entry for kids?", "and for adults?")
    assert "£12" in reply and "£36" not in reply, reply
    reply = ask_the_aquarium("does my mum get a cheaper ticket?")  # (the family ticket is one clause of two)
    assert "£10" in reply, reply


def test_the_baby_is_the_child_whose_age_is_in_months() -> None:
    reply = ask_the_aquarium("does the baby need a ticket?")
    assert "Under-3s get in free" in reply, reply


def test_the_party_price_names_each_child_the_memories_name() -> None:
    reply = ask_the_aquarium("how much would it be for me, mum and the two kids?")
    assert reply == "That's £30: £12 for you, £10 for your mum, £8 for Oli and nothing for Bea.", reply


PLAY_CENTRE = [
    "Toddler sessions cost £5 per child and run on weekday mornings.",
    "Birthday parties run on Saturdays and cost £14 per child, with a minimum of 10 children.",
    "Laser maze games are for ages 7 and up and cost £8 per player for 30 minutes.",
    "Party guests get a pizza slice and a juice each, and the birthday child plays free with 12 or more paying kids.",
]


def ask_the_play_centre(*questions: str) -> str:
    return ask("A children's play centre.", PLAY_CENTRE, [0.5, 0.5, 0.4, 0.3], *questions)


def test_how_much_per_child_asks_the_price_of_what_was_just_talked_about() -> None:
    reply = ask_the_play_centre("do you do birthday parties?", "how much per child?")
    assert "£14" in reply, reply
    reply = ask_the_play_centre("is the laser maze ok for a 9 year old?", "how much is it per kid?")
    assert "£8" in reply, reply
