"""Offline game commentary: short lines chosen by situation, tied to the moves, shaded by the traits.

The game service computes the line once per exchange (and hands it to the dialogue engine in a
GameSituation). Within one game no sentence is said twice: the caller passes what was already said, and a
variant not yet used is chosen; when every variant of a situation is spent, the line falls back to the
moves themselves, which differ from move to move.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from avatar_service.core.text.sentences import split_sentences

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


# the moves in words: the personality's ({mine}) and the user's ({yours}); formal lines, casual lines
MY_MOVE = (
    ("I play {mine}.", "My answer is {mine}.", "I choose {mine}.", "I reply with {mine}."),
    ("I'll go {mine}.", "{Mine} for me!", "My move: {mine}.", "Let's try {mine}."),
)
YOUR_MOVE = (
    ("You played {yours}.", "{Yours}, I see.", "So, {yours}."),
    ("{Yours}, huh?", "Ooh, {yours}.", "{Yours}? Noted."),
)
BOTH_MOVES = (
    ("Your {yours} against my {mine}.", "You chose {yours}; I chose {mine}."),
    ("Your {yours} versus my {mine}!", "{Yours} against {mine}!"),
)
FALLBACK = ("Move {count}: {what}.", "Move {count}: {what}!")


def move_words(move: object) -> str | None:
    """A move as the game takes it, in words: {"column": 3} -> "column 3", {"uci": "e7e5"} -> "e7e5"."""
    if not isinstance(move, Mapping) or len(move) != 1:
        return None
    [(key, value)] = move.items()
    if key in ("column", "cell"):
        return f"{key} {value}"
    if key == "letter":
        return f"the letter {str(value).upper()}"
    if key == "word":
        return f"the word {str(value).upper()}"
    return str(value) if key in ("uci", "san", "choice") else None


def comment(
    highlights: Sequence[str], traits: Mapping[str, float], rng: random.Random, game_name: str,
    *, said: Collection[str] = (), mine: str | None = None, yours: str | None = None, count: int = 0,
) -> str:
    """One short line in the personality's voice: formal or casual, longer when verbose, a joke when very
    humorous, a kind word when empathetic and the user is struggling, a warm remark when warm.

    `said` holds the lines already said in this game (none of their sentences is said again); `mine` and
    `yours` are the moves of this exchange in words (`move_words`), which the line mentions while the game
    goes on.
    """

    def trait(name: str) -> float:
        try:
            return min(1.0, max(0.0, float(traits.get(name, 0.5))))
        except (TypeError, ValueError):
            return 0.5

    register = 0 if trait("formality") >= 0.5 else 1
    used = {_key(s) for line in said for s in split_sentences(line)}
    values = {"game": game_name, "mine": mine or "", "yours": yours or "", "Mine": _cap(mine), "Yours": _cap(yours)}

    def fresh(options: Sequence[str]) -> str | None:
        order = list(options)
        rng.shuffle(order)
        for option in order:
            text = option.format(**values)
            keys = {_key(s) for s in split_sentences(text)}
            if not keys & used:
                used.update(keys)
                return text
        return None

    situations = _situations(highlights) or ["neutral"]
    ended = bool({"win", "loss", "draw"} & set(situations))
    verbosity = trait("verbosity")
    headline = next((line for s in situations if s in LINES and (line := fresh(LINES[s][register]))), None)
    moves = None
    if not ended:
        if mine and yours:
            moves = fresh(BOTH_MOVES[register])
        elif mine or yours:
            moves = fresh((MY_MOVE if mine else YOUR_MOVE)[register])
    if headline is None and moves is None:
        what = " / ".join(m for m in (yours, mine) if m) or "the game goes on"
        headline = FALLBACK[register].format(count=count or len(used) + 1, what=what)
    quiet = situations == ["neutral"]  # nothing happened but the moves: they lead
    parts = [p for p in ((moves, headline) if quiet else (headline, moves)) if p]
    extras = []
    # verbose personalities mention a second situation too, terse ones keep to one sentence
    if verbosity >= 0.6 and len(situations) > 1 and situations[1] in LINES:
        extras.append(fresh(LINES[situations[1]][register]))
    if trait("empathy") >= 0.6 and USER_STRUGGLING & set(situations) and "loss" not in situations:
        extras.append(fresh(CONSOLE[register]))
    if trait("humor") >= 0.7 and rng.random() < trait("humor"):
        extras.append(fresh(JOKES))
    if trait("warmth") >= 0.65 and rng.random() < trait("warmth") * 0.8:
        extras.append(fresh(WARM))
    if verbosity >= 0.8 and not ended:
        extras.append(fresh(ELABORATE[register]))
    # verbosity sets how many sentences survive: one or two, three, or at most five
    keep = 2 if verbosity < 0.6 else 3 if verbosity < 0.8 else 5
    if verbosity < 0.3:
        keep = 1 if not moves or quiet else 2  # a terse line still says what was played
    return " ".join([*parts, *(e for e in extras if e)][:keep])


def _key(sentence: str) -> str:
    """Sentences compare by their words: "Check." and "Check!" are the same line."""
    return " ".join("".join(c if c.isalnum() else " " for c in sentence.casefold()).split())


def _cap(text: str | None) -> str:
    return (text[:1].upper() + text[1:]) if text else ""
