"""Rock-paper-scissors: best of N, the personality never sees the current throw, and it adapts."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from avatar_service.core.games.rock_paper_scissors import CHOICES, RockPaperScissors

GAME = RockPaperScissors()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    past=st.lists(st.sampled_from(CHOICES), max_size=8),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
)
def test_the_personality_never_sees_the_current_throw(seed: int, past: list, difficulty: str) -> None:
    state, _ = GAME.start({"rounds": 99, "difficulty": difficulty}, seed)
    for choice in past:
        state = GAME.user_move(state, {"choice": choice}).state
    picks = {GAME.user_move(state, {"choice": c}).personality_move["choice"] for c in CHOICES}
    assert len(picks) == 1


def test_best_of_three_ends_at_two_wins_and_ties_are_replayed() -> None:
    state, first = GAME.start({}, 1)
    assert first == "user" and state["wins_needed"] == 2
    while not state["finished"]:
        outcome = GAME.user_move(state, {"choice": "rock"})
        assert outcome.next_turn in ("user", None) and outcome.personality_move is not None
        state = outcome.state
    assert max(state["score"]["user"], state["score"]["personality"]) == 2
    assert len(state["history"]) == sum(state["score"].values())


def test_a_long_run_of_ties_is_capped_at_three_n_throws() -> None:
    state, _ = GAME.start({"rounds": 1}, 1)
    for _ in range(3):
        assert not state["finished"]
        mirror = {"rock": "rock", "paper": "paper", "scissors": "scissors"}
        # throw whatever the personality is about to throw, found by trying on a copy
        theirs = GAME.user_move(state, {"choice": "rock"}).personality_move["choice"]
        state = GAME.user_move(state, {"choice": mirror[theirs]}).state
    assert state["finished"] and state["winner"] == "draw"


def personality_share(difficulty: str, pattern: list[str], throws: int = 60) -> float:
    won = lost = 0
    for seed in range(5):
        state, _ = GAME.start({"rounds": 99, "difficulty": difficulty}, seed)
        for choice in itertools.islice(itertools.cycle(pattern), throws):
            if state["finished"]:
                break
            outcome = GAME.user_move(state, {"choice": choice})
            state = outcome.state
            won += "round_won" in outcome.highlights
            lost += "round_lost" in outcome.highlights
    return won / max(1, won + lost)


def test_hard_exploits_habits_and_easy_is_closer_to_chance() -> None:
    for pattern in (["rock"], ["rock", "paper", "scissors"], ["paper", "paper", "scissors"]):
        hard = personality_share("hard", pattern)
        assert hard > 0.75, pattern
        assert personality_share("easy", pattern) < hard


def test_streak_and_near_tags() -> None:
    state, _ = GAME.start({"rounds": 99, "difficulty": "hard"}, 3)
    tags: set[str] = set()
    for _ in range(30):
        outcome = GAME.user_move(state, {"choice": "rock"})
        tags |= set(outcome.highlights)
        state = outcome.state
    assert {"streak", "round_won", "opening", "by_user"} <= tags
