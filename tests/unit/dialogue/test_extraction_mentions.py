"""Memory extraction, round 6: facts said in passing anywhere in a sentence (core/memory/mentions.py), the
everyday frames (core/memory/everyday.py), and the shapes the earlier rounds missed: habits said with a part
of the day, a pronoun for the one just named, a name and age in brackets, colloquial names for a partner, and
what is no fact (obligations, having time). The sentences are written for these tests, none from the eval."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide
from avatar_service.core.memory.mentions import mentioned

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    # a thing of theirs called by its make, even inside a question
    ("could you take a look at my Astra? the brakes squeak", ("User has an Astra", "personal")),
    ("my 2009 Civic keeps stalling at junctions", ("User has a 2009 Civic", "personal")),
    ("we just bought a second-hand Skoda Octavia, can you fit a towbar?",
     ("User has a second-hand Skoda Octavia", "personal")),
    ("do you tune banjos? mine's a Deering", ("User's banjo is a Deering", "personal")),
    ("the frets are worn, mine's an old Gibson", ("User has an old Gibson", "personal")),
    # a trip, with when, wherever it is said
    ("are there any ferries to Bilbao in early july?", ("User is planning a trip to Bilbao in early July", "schedule")),
    ("we're after a weekend away in Bruges for my birthday",
     ("User is planning a trip to Bruges for their birthday", "schedule")),
    # a date of theirs, and a relative's day
    ("our car insurance runs out in august, can you quote?", ("User's car insurance runs out in August", "schedule")),
    ("my visa expires in november so I need an appointment", ("User's visa expires in November", "schedule")),
    ("I'd like some balloons for my nan's 90th on sunday", ("User's nan's 90th is on Sunday", "relationship")),
    # how well they speak a language
    ("my German is a bit rusty, is the tour in English?", ("User's German is a bit rusty", "personal")),
])
def test_a_fact_mentioned_in_passing(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", [
    "if I had a Porsche I'd drive it every day",
    "my neighbour's Audi blocks the drive",
    "do you sell Samsung chargers?",
    "how much are flights to Rome?",  # asked about, with no when: no plan of theirs
    "we went to Paris last year and loved it",
    "are you going to Vienna next week?",  # someone else's trips
    "is your trip to Oslo in June?",
    "my dad's trip to Goa in May was great",
])
def test_what_is_not_theirs_or_not_planned_is_no_mention(said: str) -> None:
    assert not [c for c, _ in facts(said) if c.startswith(("User has a", "User has an", "User is planning"))]


def test_a_mention_a_rule_already_read_is_not_made_twice() -> None:
    made = facts("I drive a Volvo estate, is there parking?")
    assert len([c for c, _ in made if "Volvo" in c]) == 1


def test_mentions_are_searched_in_order_with_what_they_are_about() -> None:
    found = mentioned("my Kindle broke and my driving test is on the 3rd of May")
    assert [(c, about) for c, _, _, about in found] == [("User has a Kindle", "Kindle"),
                                                        ("User's driving test is on the 3rd of May", "driving test")]


@pytest.mark.parametrize(("said", "expected"), [
    # medicine and what the body does not take
    ("I take levothyroxine for my thyroid, can I have grapefruit?",
     ("User takes levothyroxine for their thyroid", "personal")),
    ("I'm on beta blockers for my blood pressure", ("User takes beta blockers for their blood pressure", "personal")),
    ("shellfish gives me hives so no prawns please", ("User gets hives from shellfish", "personal")),
    ("Dairy makes me really bloated", ("User gets bloated from dairy", "personal")),
    # a taste as a verdict, and one given up for another
    ("it's the almond croissant for me these days", ("User now prefers the almond croissant", "preference")),
    ("I'm more of a cat person", ("User is a cat person", "preference")),
    # who is writing, and one named without saying who
    ("Priya Shah here, I called about the boiler", ("User's name is Priya Shah", "personal")),
    ("Nugget is 11 now and has arthritis", ("User's Nugget is 11 years old and has arthritis", "relationship")),
])
def test_everyday_frames(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_reaction_and_the_condition_behind_it_are_one_memory() -> None:
    assert facts("penicillin makes me sick, I'm allergic") == [("User is allergic to penicillin", "personal")]
    assert facts("cheese doesn't agree with me, I'm lactose intolerant") == [
        ("User is lactose intolerant and can't tolerate cheese", "personal")]


def test_going_off_something_for_something_else_is_one_change() -> None:
    assert facts("I've gone off flat whites, it's a cortado for me now") == [
        ("User now prefers a cortado, having gone off flat whites", "preference")]


@pytest.mark.parametrize(("said", "expected"), [
    # habits said with a part of the day, most days, or shifts
    ("I usually walk the dog in the evenings", ("User usually walks the dog in the evenings", "schedule")),
    ("I'm at the allotment most weekends", ("User is at the allotment most weekends", "schedule")),
    ("I'm on night shifts, can I come after 2pm?", ("User is on night shifts", "schedule")),
    # a past job said with how long
    ("ran a pub in Hull for 12 years", ("User ran a pub in Hull for 12 years", "personal")),
])
def test_habits_and_past_work(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("is there a new Ferrante out? she's my favourite novelist",
     ("User's favorite novelist is Ferrante", "preference")),
    ("can I book Pepper in? she's my 6 year old spaniel", ("User's 6-year-old spaniel is named Pepper",
                                                          "relationship")),
    ("my nephew Kofi (14) wants to try climbing", ("User's nephew Kofi is 14 years old and wants to try climbing",
                                                  "relationship")),
    ("the boys are turning 8 on the 9th, Sam and Leo",
     ("User's boys Sam and Leo are turning 8 on the 9th", "relationship")),
    ("we have two rabbits, Bun and Clover, do you board them?", ("User has two rabbits named Bun and Clover",
                                                                "relationship")),
    ("the missus is a vet", ("User's wife is a vet", "relationship")),
    ("my other half works nights", ("User's partner works nights", "relationship")),
])
def test_who_the_user_means(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", [
    "I have to be careful with my back",
    "I've got loads of time this week",
    "I'm knackered most days",
])
def test_obligations_spare_time_and_moods_are_no_facts(said: str) -> None:
    assert facts(said) == []


@pytest.mark.parametrize(("said", "expected"), [
    # what the user is not or has not is a fact too
    ("I'm not married", ("User is not married", "relationship")),
    # where they are now, said after a move, and a first home
    ("we left Bath in the spring, we're up in Inverness now",
     ("User now lives in Inverness, having left Bath in the spring", "location")),
    ("I finally bought my first flat in Salford", ("User bought their first flat in Salford", "location")),
    # a name said in passing, a diet said short, a request after "so" left out
    ("I'm Marta by the way", ("User's name is Marta", "personal")),
    ("I'm Swedish by the way", None),
    ("i'm plant-based, do you have oat milk?", ("User is plant-based", "preference")),
    ("I've got a dodgy knee so a ground floor room please", ("User has got a dodgy knee", "personal")),
])
def test_negations_moves_and_short_forms(said: str, expected: tuple[str, str] | None) -> None:
    if expected is None:
        assert not [c for c, _ in facts(said) if c.startswith("User's name")]
    else:
        assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("been a postman for 30 years now", ("User is a postman", "personal")),
    ("we rescued an elderly collie, she's called Meg", ("User has an elderly collie named Meg", "relationship")),
    ("I'm a Virgo, if that helps", ("User is a Virgo", "personal")),
    ("I'll be 65 in March, so I'm thinking about the future", ("User turns 65 in March", "personal")),
    ("we're expecting our third in June", ("User is expecting their third in June", "relationship")),
    ("I have a masters in economics", ("User has a masters in economics", "personal")),
    ("I'm trying to cut back on caffeine", ("User is trying to cut back on caffeine", "context")),
])
def test_left_out_subjects_namings_and_life_stages(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("turns", "expected"), [
    (["do you deliver to Ripon?", "I'm just outside it in Bishop Thornton"],
     ("User lives in Bishop Thornton", "location")),
    (["I'm close to Hove"], ("User lives close to Hove", "location")),
    (["I've just started at Arup as an intern"], ("User works at Arup as an intern", "personal")),
    (["we have a spaniel called Dotty", "Dotty is 5"], ("User's spaniel Dotty is 5 years old", "relationship")),
    (["I enjoy baking, knitting and long walks"], ("User enjoys baking, knitting and long walks", "preference")),
    (["my brother and I are both keen anglers"], ("User and their brother are both keen anglers", "relationship")),
])
def test_places_near_new_starts_known_names_and_lists(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_a_thing_given_up_for_another_revises_the_memory_of_it() -> None:
    said = facts("sold the clio, got a hybrid Corolla now")
    assert said == [("User now has a hybrid Corolla, having sold the clio", "personal")]
    assert decide(said[0][0], [Candidate("m1", "User drives a Renault Clio", 0.4)]).action == "update"
    gone_off = facts("I've gone off cappuccinos, it's a flat white for me now")[0][0]
    assert decide(gone_off, [Candidate("m2", "User's favourite coffee is a cappuccino", 0.4)]).action == "update"


def test_something_done_once_is_no_habit() -> None:
    assert ("User locked up at 6", "schedule") not in facts("I locked up at 6")
    assert facts("I went to the gym at 7") == []


@pytest.mark.parametrize(("said", "expected"), [
    ("I run a cat sitting service from my flat", ("User runs a cat sitting service from their flat", "personal")),
    ("I look after two cats and a rabbit", ("User looks after two cats and a rabbit", "relationship")),
    ("can I bring my assistance dog? her name's Juno", ("User's dog is named Juno", "relationship")),
    ("my father-in-law is visiting for Easter", ("User's father-in-law is visiting for Easter", "relationship")),
    ("I'm going through a separation at the moment", ("User is going through a separation", "relationship")),
    ("I'm on a waiting list for cataract surgery", ("User is on the waiting list for cataract surgery", "personal")),
    ("I'm in my final year at Exeter", ("User is in their final year at Exeter", "personal")),
])
def test_what_a_relation_word_names_and_life_situations(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", [
    "I read that trains to Lyon are cheap in March",
    "we're not going to Crete this summer after all",
    "the trip to Skye on the 4th was wonderful",
    "my Netflix keeps freezing",
    "work makes me tired",
    "I've got a stinking cold",
    "I have to collect a parcel at 4",
])
def test_reports_cancelled_plans_apps_and_passing_things_are_no_facts(said: str) -> None:
    assert facts(said) == []


@pytest.mark.parametrize(("said", "expected"), [
    ("my scalp is really sensitive, do you have a gentle shampoo?", ("User's scalp is really sensitive", "personal")),
    ("my knees are bad so no running classes", ("User's knees are bad", "personal")),
    ("my laptop's an old MacBook Air, will the charger fit?", ("User's laptop is an old MacBook Air", "personal")),
    ("I've been off sick with my back since Easter", ("User has been off sick with their back since Easter",
                                                      "personal")),
])
def test_the_body_and_what_a_thing_of_theirs_is(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_what_they_do_not_have_is_left_unsaid() -> None:
    assert facts("we moved recently and still don't have a dentist") == []


@pytest.mark.parametrize(("turns", "expected"), [
    (["been teetotal 3 years now haha"], ("User is teetotal", "preference")),
    (["I'm at the depot 6 till 2, so evenings suit me"], ("User is at the depot 6 till 2", "schedule")),
    (["sorry, the baby was up all night", "he's 5 months old now"], ("User's baby is 5 months old", "relationship")),
    (["I'm doing an evening course in bookkeeping, need a calculator"],
     ("User is doing an evening course in bookkeeping", "context")),
    (["we're a household of four"], ("User's household is four people", "relationship")),
    (["I can't have dairy or I get ill"], ("User cannot have dairy", "personal")),
    (["I'm a resident at Holly Court"], ("User is a resident at Holly Court", "location")),
])
def test_fresh_shapes_of_round_six(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_a_moment_of_someone_else_and_being_used_to_something_are_no_facts() -> None:
    assert facts("the baby was up all night") == []
    assert facts("I'm used to early starts") == []


@pytest.mark.parametrize(("turns", "expected"), [
    (["the rent's going up so we're looking for a 2 bed near Leith"],
     ("User is looking for a 2 bed near Leith", "context")),
    (["I've got a newborn so I can only do mornings"], ("User can only do mornings", "schedule")),
    (["I've got a newborn so I can only do mornings"], ("User has a newborn", "relationship")),
    (["my sons share a room, Jack and Oli"], ("User's sons Jack and Oli share a room", "relationship")),
    (["we've been engaged for ages and finally tying the knot in May"],
     ("User is getting married in May", "relationship")),
    (["our washing machine is a Bosch, about 8 years old"], ("User's washing machine is a Bosch", "personal")),
    (["my gran's in a nursing home in Whitby now"], ("User's gran is in a nursing home in Whitby", "relationship")),
    (["I'm a sign writer, based near Frome"], ("User is based near Frome", "location")),
    (["my brother and I are moving to Derby in the new year"], ("User is moving to Derby in the new year", "schedule")),
    (["I'm on maternity leave till March"], ("User is on maternity leave till March", "personal")),
    (["my wife and I have been married 30 years"], ("User and their wife have been married for 30 years",
                                                   "relationship")),
])
def test_third_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


@pytest.mark.parametrize(("turns", "expected"), [
    (["I finally gave up vaping, 2 months now"], ("User stopped vaping", "preference")),
    (["I've started doing yoga three times a week"], ("User started doing yoga three times a week", "schedule")),
    (["Dee, my childminder, has the kids on Tuesdays"], ("User's childminder Dee has the kids on Tuesdays",
                                                         "relationship")),
    (["my favourite author is Le Guin, read everything she wrote"], ("User's favorite author is Le Guin",
                                                                      "preference")),
    (["I've had three knee operations"], ("User has had three knee operations", "personal")),
    (["Saturday mornings are for swimming lessons"], ("User has swimming lessons on Saturday mornings", "schedule")),
])
def test_fourth_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_a_doing_without_what_it_is_about_is_no_fact() -> None:
    assert facts("I can't drive, never learned") == [("User can't drive", "personal")]


@pytest.mark.parametrize(("turns", "expected"), [
    (["can I order my repeat? it's the levothyroxine for my thyroid"],
     ("User takes levothyroxine for their thyroid", "personal")),
    (["what's good for eczema? I get it on my hands every winter"],
     ("User gets eczema on their hands every winter", "personal")),
    (["we're thinking of a fortnight in Madeira in October"],
     ("User is planning a trip to Madeira in October", "schedule")),
    (["do I need a visa to go to Vietnam in march?"], ("User is planning a trip to Vietnam in March", "schedule")),
    (["my BMW X3 needs a service, it's due on the 2nd"], ("User's service is due on the 2nd", "schedule")),
    (["my BMW X3 needs a service, it's due on the 2nd"], ("User has a BMW X3", "personal")),
    (["is it ok to bring my hamster? Pebble's 2 and very tame"],
     ("User's Pebble is 2 years old and very tame", "relationship")),
    (["I'm not teetotal any more, I drink the odd beer"],
     ("User now drinks the odd beer, no longer teetotal", "preference")),
])
def test_fifth_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_what_they_are_after_and_a_trip_to_the_shop_are_no_facts() -> None:
    assert facts("I'm after a card for my nan") == []
    assert facts("I'll go to Tesco on Monday") == []


def test_plurals_and_words_ending_in_s_stem_alike() -> None:
    said = facts("I switched from the morning class to evenings")[0][0]
    assert decide(said, [Candidate("m3", "User prefers morning classes", 0.4)]).action == "update"
    no_longer = facts("I'm not vegetarian any more, I eat fish now")[0][0]
    assert decide(no_longer, [Candidate("m4", "User is vegetarian", 0.4)]).action == "update"


@pytest.mark.parametrize(("said", "expected"), [
    ("I've had asthma since I was little", ("User has had asthma since they were little", "personal")),
    ("I suffer with migraines", ("User suffers with migraines", "personal")),
])
def test_a_condition_said_with_its_verb(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm in marketing, mostly social media", ("User works in marketing, mostly social media", "personal")),
    ("I retired from teaching two years ago", ("User retired from teaching two years ago", "personal")),
    ("I'm partial to a bit of jazz", ("User is partial to a bit of jazz", "preference")),
    ("I'm not much of a coffee drinker", ("User is not a big coffee drinker", "preference")),
    ("crime dramas are my guilty pleasure", ("User loves crime dramas", "preference")),
    ("I could eat pasta every day", ("User loves pasta", "preference")),
    ("Mondays are my day off", ("User has Mondays off", "schedule")),
    ("our daughter's at uni in Leeds studying law", ("User's daughter is at uni in Leeds studying law",
                                                     "relationship")),
    ("I'm a Glaswegian born and bred", ("User is a Glaswegian", "personal")),
    ("I'm vegetarian apart from the odd bit of fish", ("User is vegetarian apart from the odd bit of fish",
                                                       "preference")),
    ("I'm 3 weeks into a new job at the hospital", ("User is 3 weeks into a new job at the hospital", "personal")),
    ("I keep chickens at the bottom of the garden", ("User keeps chickens at the bottom of the garden", "personal")),
    ("I'm gluten free because of my coeliac disease", ("User is gluten free", "preference")),
    ("we video call my parents on Sundays", ("User video-calls their parents on Sundays", "schedule")),
])
def test_sixth_probe_shapes(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("turns", "expected"), [
    (["since I work weekends, can I come on a Tuesday?"], ("User works weekends", "schedule")),
    (["as a vegan, what can I have?"], ("User is a vegan", "preference")),
    (["being a teacher I get long holidays"], ("User is a teacher", "personal")),
    (["we've just had twins, a boy and a girl"], ("User had twins", "relationship")),
    (["our second arrived in May, a little girl, Hana"], ("User's little girl is named Hana", "relationship")),
    (["I'm sitting my theory test, test is on the 9th"], ("User's test is on the 9th", "schedule")),
    (["my work van's a Ford Transit, can you fit a roof rack?"], ("User's van is a Ford Transit", "personal")),
    (["I'm at college in Derby but home is Skegness"], ("User is at college in Derby", "personal")),
    (["I'm at college in Derby but home is Skegness"], ("User's home is in Skegness", "location")),
])
def test_seventh_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_a_past_doing_with_only_a_time_is_no_fact() -> None:
    assert facts("I'm an ex-smoker, quit 10 years ago") == [("User is an ex-smoker", "personal")]


@pytest.mark.parametrize(("turns", "expected"), [
    (["can we book the back room?", "it's my grandparents' diamond anniversary"],
     ("User is celebrating their grandparents' diamond anniversary", "relationship")),
    (["any advice for a first triathlon?", "mine's Windsor in June"], ("User's triathlon is Windsor in June",
                                                                       "schedule")),
    (["do you deliver on saturdays?", "I'm out at work all week"], ("User is out at work all week", "schedule")),
    (["is the gym quiet early on?", "I train before work, about 6"], ("User trains before work, about 6",
                                                                     "schedule")),
])
def test_eighth_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_how_much_someone_drives_is_not_a_car() -> None:
    assert not [c for c, _ in facts("I drive a lot for work") if "drives a lot" in c]


@pytest.mark.parametrize(("turns", "expected"), [
    (["can my 12 year old join the adult class?"], ("User has a 12-year-old child", "relationship")),
    (["do you deliver to Chorley? that's where I live"], ("User lives in Chorley", "location")),
    (["we're hoping to move to the Highlands in a few years"],
     ("User is hoping to move to the Highlands in a few years", "location")),
    (["I'm mostly vegan, the odd bit of cheese"], ("User is mostly vegan", "preference")),
    (["I won't eat anything with sesame, I'm allergic"], ("User is allergic to sesame", "personal")),
    (["I'm newly single so a table for one"], ("User is single", "relationship")),
    (["we're first-time buyers"], ("User and their partner are first-time buyers", "relationship")),
    (["I'm shy, can I go last?"], ("User is shy", "personal")),
])
def test_ninth_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_allergic_with_nothing_beside_it_is_dropped() -> None:
    assert facts("I'm allergic") == []


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm Welsh but I've been in Leeds 15 years", ("User lives in Leeds", "location")),
    ("got tickets for Cardiff in July, any hotels?", ("User is planning a trip to Cardiff in July", "schedule")),
    ("I work 4 days a week, Tues to Fri", ("User works 4 days a week, Tues to Fri", "schedule")),
    ("I live alone since my divorce", ("User lives alone since their divorce", "personal")),
    ("we're Jewish so kosher only please", ("User is Jewish", "personal")),
    ("I'm hoping to retire at 60", ("User is planning to retire at 60", "personal")),
    ("I'm training to be an electrician", ("User is training to be an electrician", "context")),
])
def test_tenth_probe_shapes(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_request_after_so_is_no_state() -> None:
    assert all("only" not in c for c, _ in facts("we're Jewish so kosher only please"))


@pytest.mark.parametrize(("turns", "expected"), [
    (["my hips aren't great, is there a lift?"], ("User's hips are not great", "personal")),
    (["mine's an iPad Air, do you do cases?"], ("User has an iPad Air", "personal")),
    (["we're doing Florida for Easter"], ("User is planning a trip to Florida for Easter", "schedule")),
    (["I'm a retired GP"], ("User is a retired GP", "personal")),
    (["any egg free cakes? I'm allergic"], ("User is allergic to egg", "personal")),
    (["my husband Tom's birthday is the 3rd"], ("User's husband Tom's birthday is the 3rd", "relationship")),
    (["I'm learning Greek for a trip to Crete in May"], ("User is learning Greek", "context")),
    (["I'm learning Greek for a trip to Crete in May"], ("User is planning a trip to Crete in May", "schedule")),
    (["I've just signed up for a 10k"], ("User has signed up for a 10k", "context")),
    (["I'm off sugar for lent"], ("User is off sugar for lent", "preference")),
    (["I can't manage stairs since my hip op"], ("User can't do stairs since their hip op", "personal")),
])
def test_eleventh_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


@pytest.mark.parametrize(("turns", "expected"), [
    (["we've booked Majorca for the first week of August"],
     ("User is planning a trip to Majorca for the first week of August", "schedule")),
    (["I've had a stent since 2018"], ("User has had a stent since 2018", "personal")),
    (["I'm not keen on olives"], ("User does not like olives", "preference")),
    (["my brother Sam is coming over from Perth in March"],
     ("User's brother Sam is coming over from Perth in March", "relationship")),
    (["I'm 41 and just took up climbing"], ("User has taken up climbing", "context")),
])
def test_twelfth_probe_shapes(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


def test_a_particular_dish_they_cannot_have_is_a_request() -> None:
    assert ("User cannot have the pastry", "personal") not in facts("I'm gluten free so I can't have the pastry")
