"""Hangman: the personality hosts a word from the shipped list and the user guesses."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any

import msgspec

from .base import (
    Difficulty,
    IllegalMove,
    Outcome,
    Side,
    Winner,
    build_move_schema,
    build_state_schema,
    clone,
    finish,
    move_field,
    new_seed,
    require_turn,
)
from .options import GameOptions, parse_options

# (shortest word, longest word, lives): longer words give away more letters per hit, so they are easier
LEVELS = {"easy": (7, 12, 8), "medium": (5, 7, 6), "hard": (3, 5, 5)}


@lru_cache(maxsize=1)
def words() -> tuple[str, ...]:
    text = resources.files(__package__).joinpath("words.txt").read_text(encoding="utf-8")
    return tuple(w for w in (line.strip() for line in text.splitlines()) if w and not w.startswith("#"))


def masked(word: str, guessed: list[str]) -> str:
    return "".join(c if c in guessed else "_" for c in word)


class HangmanOptions(GameOptions):
    """Hangman's options: the length of the word and the lives."""

    difficulty: Annotated[Difficulty, msgspec.Meta(
        description="easy: long words, 8 lives; medium: 5-7 letters, 6 lives; hard: 3-5 letters, 5 lives")] = "medium"


class Hangman:
    id = "hangman"
    name = "Hangman"
    description = (
        "Guess the personality's word one letter at a time, or the whole word at once. "
        "Each wrong letter or wrong word costs a life."
    )
    move_schema = build_move_schema(
        letter={"type": "string", "pattern": "^[A-Za-z]$"},
        word={"type": "string", "pattern": "^[A-Za-z]+$"},
    )
    options_type = HangmanOptions
    state_schema = build_state_schema(
        "The word stays in '_secret' until the game ends.",
        {
            "masked": {"type": "string", "description": "the word with unknown letters as '_'"},
            "length": {"type": "integer"},
            "guessed": {"type": "array", "description": "letters guessed so far, in order"},
            "wrong_letters": {"type": "array"},
            "wrong_words": {"type": "array"},
            "lives": {"type": "integer"},
            "lives_left": {"type": "integer"},
            "word": {"type": ["string", "null"], "description": "revealed when the game is finished"},
        },
        turns=("user",),
        winners=("user", "personality"),
    )

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]:
        opts = parse_options(options, HangmanOptions)
        lo, hi, lives = LEVELS[opts.difficulty]
        word = random.Random(new_seed(seed)).choice([w for w in words() if lo <= len(w) <= hi])
        state = {
            "masked": "_" * len(word),
            "length": len(word),
            "guessed": [],
            "wrong_letters": [],
            "wrong_words": [],
            "lives": lives,
            "lives_left": lives,
            "word": None,
            "options": msgspec.to_builtins(opts),
            "turn": "user",
            "finished": False,
            "winner": None,
            "_seed": new_seed(seed),
            "_secret": word,
        }
        return state, "user"

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome:
        require_turn(state, "user")
        kind, value = move_field(move, ("letter", "word"))
        if not isinstance(value, str):
            raise IllegalMove(f"'{kind}' must be a string")
        guess = value.strip().lower()
        word = state["_secret"]
        if kind == "letter":
            if len(guess) != 1 or not ("a" <= guess <= "z"):
                raise IllegalMove("'letter' must be a single letter from a to z")
            if guess in state["guessed"]:
                raise IllegalMove(f"the letter {guess!r} was already guessed")
        else:
            if not guess.isascii() or not guess.isalpha():
                raise IllegalMove("'word' must contain only the letters a to z")
            if len(guess) != len(word):
                raise IllegalMove(f"the word has {len(word)} letters, not {len(guess)}")
            if guess in state["wrong_words"]:
                raise IllegalMove(f"{guess!r} was already tried")
        new = clone(state)
        tags = ["by_user"]
        if not state["guessed"] and not state["wrong_words"]:
            tags.append("opening")
        if kind == "letter":
            new["guessed"].append(guess)
            if guess in word:
                tags.append("letter_hit")
                if word.count(guess) >= 2:
                    tags.append("good_move")
            else:
                new["wrong_letters"].append(guess)
                new["lives_left"] -= 1
                tags.append("letter_miss")
            new["masked"] = masked(word, new["guessed"])
        elif guess == word:
            new["masked"] = word
            tags.append("good_move")
        else:
            new["wrong_words"].append(guess)
            new["lives_left"] -= 1
            tags.append("letter_miss")
        winner: Winner | None = None
        if new["masked"] == word:
            winner = "user"
        elif new["lives_left"] <= 0:
            winner = "personality"
        else:
            if new["lives_left"] <= 2:
                tags.append("near_win")
            if len({c for c in word if c not in new["guessed"]}) == 1:
                tags.append("near_loss")
        if winner is not None:
            new["word"] = word
        return finish(new, winner, "user", tags)

    def personality_move(self, state: dict) -> tuple[dict, Outcome]:
        """The host has no move of its own: every reveal happens in user_move. A no-op, never needed."""
        return {}, Outcome(
            state=clone(state),
            finished=bool(state["finished"]),
            winner=state["winner"],
            next_turn=None if state["finished"] else "user",
            highlights=("by_personality",),
        )
