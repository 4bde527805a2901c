"""Round 6 of the offline answerer: everyday words for one another, the kind of answer a question's words name,
whom a follow-up's pronoun stands for, and questions asking what the place expects of the user."""

from __future__ import annotations

import re

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.user_facts import about_user
from avatar_service.core.text.follow_ups import resolved
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

MARINA = [
    "Bayside Marina rents kayaks and paddleboards from April to October. Our launch, the Grey Heron, takes "
    "visitors round the bay twice a day.",
    "In strong winds all trips are called off. Trips must be reserved in advance in the summer. "
    "We are closed on 25 and 26 December.",
    "Boat trips leave on Mondays and Thursdays at 10am. Dogs are welcome on the launch but not in the kayaks.",
]
MEMORIES = ["User has a spaniel called Pip", "User lives in Harwich"]
DONT_KNOW = re.compile(r"don't know|not sure|do not know|told me", re.I)
engine = OfflineGroundedDialogue()


def ask(text: str, history: list[Turn] | None = None) -> str:
    persona = Persona("Sam", "", "A guide at Bayside Marina.", {"verbosity": 0.3})
    return engine.compose(DialogueRequest(persona, [*(history or []), Turn("user", text)], knowledge=MARINA,
                                          memories=MEMORIES))


def test_everyday_words_answer_for_each_other() -> None:
    assert "advance" in ask("Do I need to book ahead?")
    assert "winds" in ask("What happens if it's stormy?")


def test_a_fixed_holiday_is_its_date() -> None:
    assert "26 December" in ask("Are you open on Boxing Day?")


def test_which_days_asks_for_a_day() -> None:
    assert wanted("Which days do the trips run?") == ["day"]  # (a time of its own: no hour of the day answers it)
    assert "Mondays" in ask("Which days do the boat trips go?")


def test_a_contact_asked_for_and_nowhere_is_not_known() -> None:
    assert DONT_KNOW.search(ask("What's your phone number?"))


def test_what_should_i_do_asks_the_place() -> None:
    assert about_user("How early should I arrive?") == 0.0
    assert about_user("Where do I live?") == 1.0


def test_a_pronoun_stands_for_whom_the_turn_before_named() -> None:
    assert resolved("Can he come on the boat?", "What's my dog called?") == "Can my dog come on the boat?"
    assert resolved("what is her name?", "my little girl wants lessons") == "what is my little girl's name?"
    assert resolved("can they come too?", "do you take my kids?") == "can my kids come too?"
    assert resolved("Can he come?", "Is it open today?") == "Can he come?"  # nobody was named
    history = [Turn("user", "What's my dog called?"), Turn("assistant", "You have a spaniel called Pip.")]
    assert "welcome" in ask("Can he come on the launch?", history)


def test_a_phrasal_verb_is_its_one_word() -> None:
    from avatar_service.adapters.dialogue.terms import terms

    assert "arriv" in terms("What if we turn up late?") and "join" in terms("How do I sign up?")
    assert "discount" in terms("Students get 2 pounds off a day pass.")


def test_how_do_i_asks_how_it_is_done_here() -> None:
    assert about_user("How do I make a booking?") == 0.0
    assert about_user("Who do I talk to about a group booking?") == 0.0


def test_is_there_asks_about_the_place_not_the_user() -> None:
    assert "spaniel" not in ask("Is there anywhere for a dog?")


def test_an_age_range_includes_or_excludes_an_age() -> None:
    from avatar_service.adapters.dialogue.age_limits import age_fit

    assert age_fit("Children aged 6 to 15 can join Kids Club.", [9]) > 0
    assert age_fit("Children aged 6 to 15 can join Kids Club.", [4]) == -1.0
    assert age_fit("Doors open 10 to 11.", []) == 0.0


def test_that_asks_more_about_what_the_last_reply_said() -> None:
    knowledge = ["A day ticket for the museum costs 14 pounds. Guided tours cost 5 pounds.",
                 "The nearest car park is behind the station; it offers 3 hours for 2 pounds."]
    parked = "The nearest car park is behind the station; it offers 3 hours for 2 pounds."
    history = [Turn("user", "Where can I leave the car?"), Turn("assistant", parked)]
    text = engine.compose(DialogueRequest(Persona("Sam", "", "A guide.", {"verbosity": 0.3}),
                                          [*history, Turn("user", "How much does that cost?")], knowledge=knowledge))
    assert "2 pounds" in text


def test_a_year_answers_when() -> None:
    from avatar_service.adapters.dialogue.answer_types import holds

    assert holds("The school was founded in 2012 by chef Anna Rossi.", ["time"])
    assert holds("User has twin boys who are 11", ["age"]) and not holds("Doors are 10 am", ["age"])


def test_what_the_user_cannot_have_is_about_them() -> None:
    assert about_user("Is there anything I can't eat?") == 1.0
    assert about_user("Can you cater for me? I can't have gluten.") < 1.0


def test_a_number_in_the_question_is_the_users_case() -> None:
    assert "7 days" in engine.compose(DialogueRequest(
        Persona("Sam", "", "A chef.", {"verbosity": 0.3}),
        [Turn("user", "What happens if I have to pull out 3 days before?")],
        knowledge=["If you cancel at least 7 days before a class, we refund you in full. Aprons are provided."]))


def test_a_memory_about_someone_else_does_not_answer_for_the_user() -> None:
    request = DialogueRequest(Persona("Dave", "", "A mechanic.", {"verbosity": 0.3}),
                              [Turn("user", "What kind of car do I drive?")], knowledge=[],
                              memories=["User's wife drives an electric car", "User drives a Skoda estate car"],
                              memory_relevance=[0.5, 0.45])
    assert "Skoda" in engine.compose(request)


def test_how_one_pays_is_no_price_and_a_request_of_the_place_is_no_memory() -> None:
    assert "price" not in wanted("Can I pay by card?") and "price" in wanted("How much do I pay?")
    assert "price" not in wanted("Can I pay for a big repair in instalments?")
    assert about_user("My wife drives an electric car, can you service it?") == 0.0


def test_teaching_is_a_job() -> None:
    from avatar_service.adapters.dialogue.answer_types import holds

    assert holds("You teach primary school.", ["occupation"])


def test_what_time_asks_for_a_time_of_day() -> None:
    assert wanted("What time do you close today?") == ["clock"]
    assert "time" in wanted("How early should I come?")
    knowledge = ["We are open every day from 10am to 5pm. We are closed on 25 December."]
    text = engine.compose(DialogueRequest(Persona("Finn", "", "A guide.", {"verbosity": 0.3}),
                                          [Turn("user", "What time do you close today?")], knowledge=knowledge))
    assert "5pm" in text


def test_a_breed_is_a_dog_and_a_question_to_the_place_is_never_a_memory() -> None:
    request = DialogueRequest(Persona("Rosie", "", "A dog sitter.", {"verbosity": 0.3}),
                              [Turn("user", "What's my dog called?")], knowledge=["We walk dogs daily."],
                              memories=["User has a cockapoo called Nala who is 2"])
    assert "Nala" in engine.compose(request)
    history = [Turn("user", "What's my favourite animal?"), Turn("assistant", "Your favourite animals are otters.")]
    assert "otters" not in ask("Do you have any?", history)


def test_the_users_own_place_is_not_what_is_asked_about() -> None:
    knowledge = ["We offer a pick-up and drop-off van service within 5 miles for 6 pounds each way.",
                 "We walk small groups of dogs in the woods every afternoon."]
    text = engine.compose(DialogueRequest(Persona("Rosie", "", "A dog sitter.", {"verbosity": 0.3}),
                                          [Turn("user", "Can you collect my dog from my house?")],
                                          knowledge=knowledge,
                                          sentence_relevance={knowledge[0]: 0.45, knowledge[1]: 0.3}))
    assert "van" in text  # "house" is nowhere, but it is the user's place, not what they ask about


def test_words_that_only_ask_weigh_little() -> None:
    from avatar_service.adapters.dialogue.answering import question_weights

    weights = question_weights("Do you offer drinks?", [], [])
    assert weights["drink"] == 1.0 and weights["offer"] < 1.0
    assert "big" not in question_weights("How big are the groups?", wanted("How big are the groups?"), [])


def test_a_follow_up_without_words_of_its_own_is_answered_by_the_kind_it_asks() -> None:
    knowledge = ["The Ridge Walk costs 35 pounds and the Lakeside Ramble 20 pounds.",
                 "The Lakeside Ramble is a gentle 5-mile walk."]
    history = [Turn("user", "Is there an easier walk?"), Turn("assistant", knowledge[1])]
    text = engine.compose(DialogueRequest(Persona("Owen", "", "A guide.", {"verbosity": 0.3}),
                                          [*history, Turn("user", "How much is that one?")], knowledge=knowledge,
                                          sentence_relevance={knowledge[0]: 0.25, knowledge[1]: 0.15}))
    assert "20 pounds" in text


def test_what_the_user_tells_before_a_question_is_no_question_about_them() -> None:
    from avatar_service.adapters.dialogue.user_facts import asked_part

    assert asked_part("My wife can't eat gluten, is that a problem?") == "is that a problem?"
    assert asked_part("My son is 3, is there something for him?") == "is there something for him?"
    assert asked_part("What's my dog called?") == "What's my dog called?"
    request = DialogueRequest(Persona("Kai", "", "A host.", {"verbosity": 0.3}),
                              [Turn("user", "My son is 3, is there something for him?")],
                              knowledge=["Toddler sessions for under-5s run on weekday mornings."],
                              memories=["User has a 3 year old son called Jack"], memory_relevance=[0.6])
    assert "Toddler" in engine.compose(request)
