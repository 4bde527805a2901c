"""Offline game commentary: short lines chosen by situation and shaded by the personality's traits."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

# Most telling situation first. Tags that describe a move are keyed by who made it.
PRIORITY = (
    "win",
    "loss",
    "draw",
    "round_won",
    "round_lost",
    "round_draw",
    "streak",
    "check",
    "fork",
    "blunder",
    "good_move",
    "capture",
    "threat",
    "letter_hit",
    "letter_miss",
    "near_win",
    "near_loss",
    "opening",
)
BY_ACTOR = {"check", "fork", "blunder", "good_move", "capture", "threat"}

# situation -> (formal lines, casual lines)
LINES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "win": (
        (
            "That concludes our game of {game}; the win is mine.",
            "I have won this game of {game}; thank you for a fine contest.",
            "A well-fought game of {game}. Victory goes to me this time.",
        ),
        ("Gotcha! That one's mine.", "And that's the game. I win!", "Ha, I take this round of {game}!"),
    ),
    "loss": (
        (
            "Congratulations. You have won, and deservedly so.",
            "Well played; the game is yours.",
            "I concede the game to you. A fine performance.",
        ),
        ("You got me! Nicely done.", "Okay, okay, you win. Great game!", "Wow, you beat me fair and square."),
    ),
    "draw": (
        ("A draw. Neither of us could find the decisive idea.", "The game ends level; a fair result."),
        ("A draw! Nobody blinked.", "Tied up. Rematch?", "Stalemate-ish. Call it even!"),
    ),
    "round_won": (
        ("This round is mine.", "I take the round."),
        ("Round to me!", "Ha, called it!", "Mine! Saw that one coming."),
    ),
    "round_lost": (
        ("You take the round. Well judged.", "That round goes to you."),
        ("Argh, you got that one.", "Nice throw, that round's yours.", "Okay, point to you."),
    ),
    "round_draw": (
        ("Identical choices; we go again.", "A tie. Shall we repeat the round?"),
        ("Jinx! Again!", "Same pick, great minds...", "Tie! Go again."),
    ),
    "check:personality": (
        ("Check.", "Your king is in check, I am afraid."),
        ("Check! Watch that king.", "Check! Your move, and it had better be a good one."),
    ),
    "check:user": (
        ("You have put my king in check. I must respond carefully.", "Check, indeed. Noted."),
        ("Whoa, check! Let me get out of this.", "Check on me? Bold!"),
    ),
    "fork:personality": (
        ("Note that my piece now attacks two of yours.", "A double attack. One of them will have to go."),
        ("Fork! Pick which one you'd rather keep.", "Two birds, one move!"),
    ),
    "fork:user": (
        ("A double attack. Very precise of you.", "That fork is troublesome for me."),
        ("Ouch, a fork! Clever.", "Two threats at once? Sneaky!"),
    ),
    "blunder:user": (
        ("That move may have been an oversight.", "I believe that was an inaccuracy on your part."),
        ("Hmm, are you sure about that one?", "Oops, I think that was a slip!"),
    ),
    "blunder:personality": (
        ("I fear that move was a mistake of mine.", "Not my most precise decision."),
        ("Oops, that was sloppy of me.", "Well, that wasn't my finest moment."),
    ),
    "good_move:user": (
        ("An excellent move.", "Precisely played.", "That was a strong choice."),
        ("Nice one!", "Ooh, good move!", "Smart! I like it."),
    ),
    "good_move:personality": (("I am rather pleased with that move.",), ("Not bad, if I say so myself!",)),
    "capture:personality": (
        ("I will take that piece, thank you.", "A capture. Material matters."),
        ("Yoink! That one's mine.", "Snack time: I'll take that."),
    ),
    "capture:user": (
        ("You have taken one of my pieces.", "A fair capture."),
        ("Hey, I needed that!", "You grabbed one. Noted!"),
    ),
    "threat:personality": (
        ("I now threaten to win. Mind the board.", "Please look carefully at my last move."),
        ("Watch out, I'm one step from winning!", "Careful now, I've got something cooking."),
    ),
    "threat:user": (
        ("You threaten to win; I must be careful.", "Your threat has not gone unnoticed."),
        ("Uh-oh, you're about to win, aren't you?", "Sneaky threat! Let me think."),
    ),
    "letter_hit": (
        ("Correct, that letter is in the word.", "Yes, well guessed."),
        ("Yep, it's in there!", "Good guess!", "Bingo, that letter's in!"),
    ),
    "letter_miss": (
        ("I am afraid that letter is not in the word.", "No, that one does not appear."),
        ("Nope, not in this one!", "Miss! Try another.", "Nuh-uh, no such letter."),
    ),
    "near_win": (
        ("I am close to winning this one.", "The end may be near, I think."),
        ("I can almost taste victory!", "Just one more step for me..."),
    ),
    "streak:personality": (
        ("That is several rounds in a row for me.", "I seem to have found a rhythm."),
        ("I'm on a roll!", "Three in a row, who's counting? Me.", "Hot streak!"),
    ),
    "streak:user": (
        ("You have won several rounds in a row. Impressive.", "You seem to have read me well."),
        ("You're on fire!", "How are you doing that? Three straight!", "Okay, you've cracked my code."),
    ),
    "near_loss": (
        ("You are very close to winning.", "I find myself in a difficult position."),
        ("Yikes, you're nearly there!", "I'm in trouble here, aren't I?"),
    ),
    "opening": (
        ("Let us begin. I wish you a good game of {game}.", "An opening move. Let us see how it goes."),
        ("Here we go! Let's have some fun with {game}.", "Game on!", "Alright, let's do this!"),
    ),
    "neutral": (
        ("Your move.", "Interesting. Let me consider this.", "The game continues."),
        ("Your turn!", "Hmm, okay!", "Let's see where this goes."),
    ),
}
JOKES = (
    "I would tell you a {game} joke, but I am still working on my opening.",
    "My strategy is simple: confuse you with confidence.",
    "I practise every night. Against myself. I lose.",
    "If I had hands, I would be shuffling nervously right now.",
    "Don't worry, I only gloat a little.",
)
WARM = ("I'm really enjoying this!", "It's a pleasure playing with you.", "You're great company.")
CONSOLE = (
    (
        "Do not be discouraged; you are playing thoughtfully.",
        "Every game teaches something, and you are learning quickly.",
    ),
    (
        "Hey, you're doing fine, hang in there!",
        "Don't sweat it, it's all part of the fun.",
        "Chin up, you've got this.",
    ),
)
ELABORATE = (
    ("Let us see how you respond.", "The position is becoming interesting.", "Take your time."),
    ("Your move, no pressure!", "Things are getting spicy.", "Let's keep it going!"),
)
# tags that mean the user is having a hard time
USER_STRUGGLING = {
    "win",
    "round_won",
    "near_win",
    "letter_miss",
    "blunder:user",
    "threat:personality",
    "fork:personality",
    "check:personality",
}


# tags that describe the position after a move rather than the move itself: only the latest half of an
# exchange still tells the truth about them (the personality's answer may have blocked the user's threat)
POSITION = {"near_win", "near_loss"}
# what each situation means, in words, for a dialogue engine that is a language model
MEANING = {
    "win": "the personality won the game",
    "loss": "the user won the game",
    "draw": "the game ended in a draw",
    "round_won": "the personality won this round",
    "round_lost": "the user won this round",
    "round_draw": "this round was a tie",
    "streak:personality": "the personality has won several rounds in a row",
    "streak:user": "the user has won several rounds in a row",
    "near_win": "the personality is close to winning",
    "near_loss": "the user is close to winning",
    "opening": "the game has just begun",
    "letter_hit": "the user's letter is in the word",
    "letter_miss": "the user's guess was wrong",
    "check": "{who} gave check",
    "fork": "{who} made a fork (one move attacking two things)",
    "blunder": "{who} made a blunder",
    "good_move": "{who} made a strong move",
    "capture": "{who} captured a piece",
    "threat": "{who} threatens to win next move",
}


def exchange(user: Sequence[str], personality: Sequence[str] = ()) -> list[str]:
    """The highlights of one exchange (the user's move, then the personality's answer) as one list.

    Move tags keep their mover ("blunder:user", "fork:personality"), so a blunder of the user is still
    remarked on after the personality has answered it; position and result tags come from the latest half,
    which describes the board as it is now.
    """
    halves = [(side, tags) for side, tags in (("user", user), ("personality", personality)) if tags]
    out: list[str] = []
    for i, (side, tags) in enumerate(halves):
        latest = i == len(halves) - 1
        for tag in tags:
            if tag in BY_ACTOR:
                out.append(f"{tag}:{side}")
            elif not tag.startswith("by_") and (latest or tag not in POSITION):
                out.append(tag)
    return list(dict.fromkeys(out))


def describe(highlights: Sequence[str]) -> str:
    """The situation in plain words ("the user made a blunder; the personality captured a piece")."""
    said = []
    for situation in _situations(highlights):
        tag, _, who = situation.partition(":")
        meaning = MEANING.get(situation) or MEANING.get(tag)
        if meaning:
            said.append(meaning.format(who=f"the {who}" if who else "someone"))
    return "; ".join(said) or "the game goes on"


def _situations(highlights: Sequence[str]) -> list[str]:
    """Situations, most telling first; move tags qualified by their mover ("fork:user").

    Takes either one half's raw tags (with by_user / by_personality saying whose move it was) or the
    already-qualified tags of exchange().
    """
    tags = set(highlights)
    actor = "user" if "by_user" in tags else "personality"
    # a streak belongs to whoever won this round, not to whoever threw
    streaker = "personality" if "round_won" in tags else "user"
    out: list[str] = []
    for t in PRIORITY:
        if t in BY_ACTOR:
            # the personality's answer came last, so it leads when both sides did the same kind of thing
            for who in ("personality", "user"):
                if f"{t}:{who}" in tags or (t in tags and who == actor):
                    out.append(f"{t}:{who}")
        elif t == "streak":
            out += [f"streak:{streaker}"] if t in tags else []
        elif t in tags:
            out.append(t)
    return out


def comment(
    highlights: Sequence[str], traits: Mapping[str, float], rng: random.Random, game_name: str
) -> str:
    """One short line in the personality's voice: formal or casual, longer when verbose, a joke when
    humorous, a kind word when empathetic and the user is struggling, a warm remark when warm."""

    def trait(name: str) -> float:
        return min(1.0, max(0.0, float(traits.get(name, 0.5))))

    register = 0 if trait("formality") >= 0.5 else 1
    situations = _situations(highlights) or ["neutral"]
    parts = [rng.choice(LINES[situations[0]][register])]
    verbosity = trait("verbosity")
    # verbose personalities mention a second situation too, terse ones keep to one sentence
    if verbosity >= 0.6 and len(situations) > 1 and situations[1] in LINES:
        parts.append(rng.choice(LINES[situations[1]][register]))
    if trait("empathy") >= 0.6 and USER_STRUGGLING & set(situations) and "loss" not in situations:
        parts.append(rng.choice(CONSOLE[register]))
    if trait("humor") >= 0.6 and rng.random() < trait("humor"):
        parts.append(rng.choice(JOKES))
    if trait("warmth") >= 0.65 and rng.random() < trait("warmth") * 0.8:
        parts.append(rng.choice(WARM))
    if verbosity >= 0.8 and "win" not in situations and "loss" not in situations:
        parts.append(rng.choice(ELABORATE[register]))
    # verbosity sets how many sentences survive: one, two, or at most four
    parts = parts[: 1 if verbosity < 0.3 else 2 if verbosity < 0.6 else 4]
    return " ".join(parts).format(game=game_name)
