"""Commentary follows the situation and the personality's traits, and varies from line to line."""

from __future__ import annotations

import random

from avatar_service.core.games.base import HIGHLIGHTS
from avatar_service.core.games.commentary import CONSOLE, JOKES, LINES, comment, describe, exchange

PLAIN = {"warmth": 0.5, "humor": 0.0, "formality": 0.5, "verbosity": 0.5, "empathy": 0.0}


def lines(tags: tuple[str, ...], traits: dict, n: int = 40) -> set[str]:
    return {comment(tags, traits, random.Random(i), "Chess") for i in range(n)}


def test_every_tag_gives_a_line_with_the_game_filled_in() -> None:
    for tag in HIGHLIGHTS:
        for actor in ("by_user", "by_personality"):
            text = comment((actor, tag), PLAIN, random.Random(1), "Chess")
            assert text and "{" not in text and len(text) < 400


def test_lines_vary_and_follow_the_situation() -> None:
    assert len(lines(("by_personality", "win"), PLAIN)) >= 3
    assert lines(("by_personality", "win"), PLAIN).isdisjoint(lines(("by_user", "loss"), PLAIN))
    assert lines(("by_personality", "check"), PLAIN).isdisjoint(lines(("by_user", "check"), PLAIN))
    assert comment((), PLAIN, random.Random(1), "Chess")


def test_formality_changes_the_wording() -> None:
    formal = lines(("by_user", "good_move"), {**PLAIN, "formality": 0.9})
    casual = lines(("by_user", "good_move"), {**PLAIN, "formality": 0.1})
    assert formal.isdisjoint(casual)
    assert formal <= set(LINES["good_move:user"][0]) and casual <= set(LINES["good_move:user"][1])


def test_verbosity_humor_warmth_and_empathy_add_to_the_line() -> None:
    terse = lines(("by_personality", "capture", "near_win"), {**PLAIN, "verbosity": 0.0})
    wordy = lines(("by_personality", "capture", "near_win"), {**PLAIN, "verbosity": 1.0})
    assert max(map(len, terse)) < min(map(len, wordy))
    funny = lines(("by_user", "opening"), {**PLAIN, "humor": 1.0, "verbosity": 0.7})
    assert any(j.format(game="Chess") in text for text in funny for j in JOKES)
    assert not any(j.format(game="Chess") in t for t in lines(("by_user", "opening"), PLAIN) for j in JOKES)
    kind = {**PLAIN, "empathy": 1.0, "verbosity": 0.7}
    consoling = set(CONSOLE[0] + CONSOLE[1])
    assert all(any(c in t for c in consoling) for t in lines(("by_user", "letter_miss"), kind))
    assert not any(any(c in t for c in consoling) for t in lines(("by_user", "letter_hit"), kind))
    warm = lines(("by_user", "letter_hit"), {**PLAIN, "warmth": 1.0, "verbosity": 0.7})
    assert len(warm - lines(("by_user", "letter_hit"), PLAIN)) > 0


def test_the_same_rng_gives_the_same_line() -> None:
    traits = {"warmth": 0.9, "humor": 0.9, "formality": 0.2, "verbosity": 0.9, "empathy": 0.9}
    tags = ("by_personality", "fork", "threat")
    assert comment(tags, traits, random.Random(5), "Connect four") == comment(
        tags, traits, random.Random(5), "Connect four"
    )


def test_a_streak_is_credited_to_the_winner_of_the_round() -> None:
    verbose = {**PLAIN, "verbosity": 0.7}
    mine = lines(("by_user", "round_won", "streak"), verbose)
    theirs = lines(("by_user", "round_lost", "streak"), verbose)
    assert any(s in t for t in mine for s in LINES["streak:personality"][0])
    assert any(s in t for t in theirs for s in LINES["streak:user"][0])


def test_an_exchange_keeps_each_movers_tags_and_the_latest_position() -> None:
    user = ("by_user", "opening", "blunder", "threat", "near_loss")
    mine = ("by_personality", "opening", "capture", "near_win")
    tags = exchange(user, mine)
    assert tags == ["opening", "blunder:user", "threat:user", "capture:personality", "near_win"]
    assert exchange(("by_user", "fork", "loss")) == ["fork:user", "loss"]  # the user's move ended the game
    assert describe(tags).startswith("the user made a blunder; the personality captured a piece")
    assert describe(()) == "the game goes on"


def test_qualified_tags_comment_on_the_right_mover() -> None:
    verbose = {**PLAIN, "verbosity": 0.7}
    both = lines(("fork:user", "capture:personality"), verbose)
    assert all(any(t.startswith(f) for f in LINES["fork:user"][0]) for t in both)
    assert any(any(c in t for c in LINES["capture:personality"][0]) for t in both)
    # a blunder of the user is still remarked on after the personality answered it
    assert all(any(t.startswith(b) for b in LINES["blunder:user"][0])
               for t in lines(exchange(("by_user", "blunder"), ("by_personality",)), PLAIN))
