"""Round 12 of the offline answerer: questions as people text them ("r u open on mondays", "did i tell u?", "b&w",
"cafe" for "café"), pence as prices, "till when", a month checked against the months a sentence gives, a clause
chosen whether or not it says the answer in figures ("comb binding ... is done while you wait"), and what a question
would have instead ("in silver instead of gold?")."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import holds, in_the_months, wanted
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.question_cases import aside
from avatar_service.adapters.dialogue.terms import spelled_out, terms
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

SHOP = [
    "Black and white copies cost 10p per side on A4 and 20p on A3, and colour copies cost 45p per side on A4 and 90p "
    "on A3. Large-format posters on satin paper cost £12 for A2, £18 for A1 and £25 for A0.",
    "Hardback thesis binding with gold lettering on the spine costs £18 per copy and takes 3 working days, and comb "
    "binding costs £4 and is done while you wait.",
    "We are open Monday to Friday from 8:30am to 6pm, and we are closed on Sundays. The barbecue box costs £35 and "
    "is only sold from May to September.",
    "The café serves lunch until 2:30pm.",
]
MEMORIES = ["Hannah works as a marine biologist"]
engine = OfflineGroundedDialogue()


def converse(*questions: str) -> list[str]:
    persona = Persona("Sam", "", "Works at Copperplate Print & Copy.", {"verbosity": 0.3})
    history: list[Turn] = []
    for q in questions:
        history.append(Turn("user", q))
        history.append(Turn("assistant", engine.compose(DialogueRequest(persona, list(history), knowledge=SHOP,
                                                                        memories=MEMORIES))))
    return [t.content for t in history if t.role == "assistant"]


def test_texting_is_spelled_out() -> None:
    assert spelled_out("r u open on mondays") == "are you open on mondays"
    assert spelled_out("whats my job again, did i tell u?") == "what's my job again, did i tell you?"
    assert spelled_out("and black n white?") == "and black and white?"
    assert spelled_out("600 pages in b&w") == "600 pages in black and white"
    assert spelled_out("i dont want them") == "i don't want them"
    assert spelled_out("the u-bend") == "the u-bend"  # a letter in a compound is no word
    assert terms("cafe") == terms("café") and terms("an A1 poster") == ["a1", "poster"]


def test_texted_questions_through_the_answerer() -> None:
    assert "biologist" in converse("whats my job again, did i tell u?")[0]
    assert "45p" in converse("how much is colour printing per page?")[0]
    assert "10p" in converse("how much is colour printing per page?", "and black n white?")[1]
    assert "2:30" in converse("till when do you do lunch in the cafe?")[0]


def test_pence_are_prices_and_till_when_asks_a_time() -> None:
    assert holds("Copies cost 10p per side.", ["price"])
    assert "time" in wanted("till when do you do lunch?")
    assert holds("It takes 3 working days.", ["duration"])


def test_a_month_is_checked_against_the_months_given() -> None:
    sold = "The barbecue box is only sold from May to September."
    assert in_the_months("could i get a bbq box in october?", sold) is False
    assert in_the_months("and in june?", sold) is True
    assert in_the_months("is it open in winter?", sold) is None
    assert in_the_months("in january?", "The field is open from November to February.") is True
    assert converse("could i get a bbq box in october?")[0].startswith("No, ")


def test_the_clause_asked_about_whether_or_not_it_says_a_figure() -> None:
    binding = SHOP[1]
    assert one_clause(binding, "how long does the hardback binding take", ["duration"]) == \
        "Hardback thesis binding with gold lettering on the spine costs £18 per copy and takes 3 working days."
    assert one_clause(binding, "and comb binding?", ["duration"], follow_up=True) == \
        "Comb binding costs £4 and is done while you wait."
    # "what's that cost?" points back to what the last reply said
    assert one_clause(binding, "whats that cost?", ["price"], True, "Comb binding is done while you wait.") == \
        "Comb binding costs £4 and is done while you wait."
    # a list of three figures is narrowed() 's to pair, never cut at its last "and"
    lessons = "Lessons last 30, 45 or 60 minutes and cost £22, £31 and £40."
    assert one_clause(lessons, "how long does that one last?", ["duration"], follow_up=True) == lessons
    # not a follow-up: the clause that says it ("a spare key costs £4.50", not where keys are cut)
    keys = "Our shop cuts keys Monday to Saturday, and a spare front door key costs £4.50."
    assert one_clause(keys, "how much to get a spare front door key cut?", ["price"]) == \
        "A spare front door key costs £4.50."


def test_what_it_would_be_instead_of_is_no_topic() -> None:
    assert aside("can you do the lettering in silver instead of gold?") == frozenset(terms("gold"))
    assert aside("could we get them the same day if we're desperate?") == frozenset(terms("desperate"))
    assert "know" in converse("can you do the lettering in silver instead of gold?")[0]


def test_working_towards_is_preparing_for() -> None:
    assert "prepar" in terms("Which grade am I working towards?")
    assert "work" not in terms("Which grade am I working towards?")


def test_round_14_readings() -> None:
    from avatar_service.adapters.dialogue.feelings import detect_emotion
    from avatar_service.adapters.dialogue.narrowing import one_case

    hours = "We are open Monday to Thursday from 8am to 8pm, on Friday from 8am to 5pm and on Saturday from 9am to 1pm."
    assert one_case(hours, {"close", "friday"}, set(), ["clock"]) == "We are open on Friday from 8am to 5pm."
    artists = "Suki Tanaka does fine-line pieces, and Dom Reyes is the only artist here who takes on cover-ups."
    assert one_clause(artists, "i want an old tattoo covered up, who should i see?", ["person"]).startswith("Dom")
    assert "time" in wanted("whats the latest i can drop him off?")
    assert spelled_out("where abouts are you") == "whereabouts are you"
    assert detect_emotion("my daughter's hurt her knee, do you see kids?") is None
    assert detect_emotion("I feel really hurt") is not None
    assert "prefer" in terms("what time of day did i say suits me?")


def test_on_my_own_is_how_the_user_comes() -> None:
    from avatar_service.adapters.dialogue.user_facts import about_user

    assert about_user("am I ok to bring them both on my own?") == 0.0
    assert about_user("do I live on my own?") == 1.0


def test_weekdays_and_weekends_are_days_and_the_users_people_are_whom_it_is_for() -> None:
    from avatar_service.adapters.dialogue.answer_types import on_the_day
    from avatar_service.adapters.dialogue.question_cases import relatives

    desks = "Hot-desk members can come in from 8am to 8pm on weekdays."
    assert on_the_day("Can I come in on a Sunday?", desks) is False
    assert on_the_day("on a Wednesday?", desks) is True
    assert on_the_day("on a Saturday?", "We open at weekends only.") is True
    assert relatives("My dad's in a wheelchair, can he still play?") == frozenset(terms("dad"))
    persona = Persona("Jo", "", "The host of Hive Coworking.", {"verbosity": 0.3})
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "Can I come in on a Sunday?")],
                                           knowledge=[desks, "A hot desk costs 180 euros a month."]))
    assert reply.startswith("No, ")
