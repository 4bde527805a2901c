"""Round 23 of the offline answerer: a follow-up that asks only for a kind of answer ("how long does it take?")
after turns that borrowed many words, and coming often as what a pass is for."""

from __future__ import annotations

from avatar_service.ports.dialogue import Persona

from .conversation import last_reply

SWEEP = [
    "A standard sweep of an open fire costs £65, and each extra flue on the same visit costs £35. "
    "Removing a bird's nest costs from £90.",
    "We sweep with brushes and a sealed vacuum. A normal sweep takes about 45 minutes. "
    "Please don't light the fire on the day of your sweep.",
    "We cover Shrewsbury and Wem. You can book on 01743 496 027.",
]
MEMORIES = ["User has a wood-burning stove in the living room and an open fire in the dining room", "User lives in Wem"]


def ask(*questions: str) -> str:
    persona = Persona("Owen", "", "The owner of a chimney sweeping business.", {"verbosity": 0.3})
    return last_reply(persona, questions, SWEEP, [0.5, 0.4, 0.2], MEMORIES, [0.5, 0.2])


def test_a_follow_up_asking_only_a_kind_is_answered_by_the_sentence_of_that_kind() -> None:
    # the first turn's many words leave the second's share of any sentence small: the kind asked for chooses
    reply = ask("how much is a sweep of an open fire and a stove on the same visit?", "how long does it take?")
    assert "45 minutes" in reply, reply


STUDIO = [
    "A drop-in class costs £12, a ten-class pass costs £100, and unlimited monthly membership costs £65. "
    "Your first class is free if you book it online. Private one-to-one sessions cost £50 an hour.",
    "Classes last 60 minutes. Beginners' yoga is on Monday evenings at 6pm.",
]


def ask_the_studio(*questions: str) -> str:
    persona = Persona("Priya", "", "The owner of a yoga studio.", {"verbosity": 0.3})
    return last_reply(persona, questions, STUDIO, [0.5, 0.3], [], [])


def test_coming_often_is_what_a_pass_is_for() -> None:
    reply = ask_the_studio("is there a cheaper way if i come a lot?")
    assert "pass" in reply and "Private" not in reply, reply
