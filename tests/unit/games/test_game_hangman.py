"""Hangman: the word stays secret until the end, letters and words are checked, lives run out."""

from __future__ import annotations

import pytest

from avatar_service.core.games import IllegalMove
from avatar_service.core.games.hangman import LEVELS, Hangman, words

GAME = Hangman()


def public(state: dict) -> dict:
    return {k: v for k, v in state.items() if not k.startswith("_")}


def test_the_word_list_ships_with_hundreds_of_plain_words() -> None:
    assert len(words()) >= 300 and len(set(words())) == len(words())
    assert all(w.isascii() and w.isalpha() and w.islower() for w in words())


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_difficulty_picks_word_length_and_lives(difficulty: str) -> None:
    lo, hi, lives = LEVELS[difficulty]
    for seed in range(20):
        state, _ = GAME.start({"difficulty": difficulty}, seed)
        assert lo <= len(state["_secret"]) <= hi and state["lives_left"] == lives


def test_the_secret_is_never_in_the_public_state_until_the_end() -> None:
    state, _ = GAME.start({}, 7)
    word = state["_secret"]
    assert word not in repr(public(state)) and state["masked"] == "_" * len(word)
    for letter in "zqxj":
        if state["finished"] or letter in word:
            continue
        state = GAME.user_move(state, {"letter": letter}).state
        assert state["finished"] or word not in repr(public(state))
    outcome = GAME.user_move(state, {"word": word.upper()})
    assert outcome.winner == "user" and outcome.state["word"] == word and "loss" in outcome.highlights


def test_letters_reveal_misses_cost_lives_and_repeats_are_refused() -> None:
    state, _ = GAME.start({"difficulty": "medium"}, 3)
    word = state["_secret"]
    hit = word[0]
    outcome = GAME.user_move(state, {"letter": hit.upper()})
    assert "letter_hit" in outcome.highlights and outcome.state["lives_left"] == 6
    assert all((c == hit) == (m == hit) for c, m in zip(word, outcome.state["masked"], strict=True))
    with pytest.raises(IllegalMove, match="already guessed"):
        GAME.user_move(outcome.state, {"letter": hit})
    miss = next(c for c in "zqxjkvbwy" if c not in word)
    missed = GAME.user_move(outcome.state, {"letter": miss})
    assert "letter_miss" in missed.highlights and missed.state["lives_left"] == 5
    with pytest.raises(IllegalMove, match=f"has {len(word)} letters"):
        GAME.user_move(state, {"word": word + "s"})


def test_running_out_of_lives_is_a_win_for_the_personality() -> None:
    state, _ = GAME.start({"difficulty": "hard"}, 5)
    word = state["_secret"]
    wrong = [c for c in "zqxjkvbwyfgm" if c not in word]
    outcome = None
    for letter in wrong[: state["lives"]]:
        outcome = GAME.user_move(state, {"letter": letter})
        state = outcome.state
    assert outcome is not None and outcome.winner == "personality" and "win" in outcome.highlights
    assert state["word"] == word and state["lives_left"] == 0


def test_the_host_has_no_move_of_its_own() -> None:
    state, _ = GAME.start({}, 1)
    move, outcome = GAME.personality_move(state)
    assert move == {} and outcome.state == state and outcome.next_turn == "user"
