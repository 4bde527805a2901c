"""Round 29 of the offline answerer: questions from a blind review of fifteen new businesses."""

from __future__ import annotations

from avatar_service.adapters.dialogue.feelings import detect_emotion
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
    reply = ask("The manager of a day nursery.", ["Please send a spare set of clothes every day. Nappies and wipes are not provided."], [0.5],
                "Do I need to send nappies?")
    assert reply.startswith("Yes"), reply
