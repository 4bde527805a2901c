"""Rock-paper-scissors, best of N: a personality that learns the user's habits but never peeks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from .base import (
    Difficulty,
    IllegalMove,
    InvalidOptions,
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
    rng_for,
)
from .options import GameOptions, parse_options

CHOICES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
BEATEN_BY = {loser: winner for winner, loser in BEATS.items()}
# chance of a uniformly random throw: easy is mostly random, hard mostly exploits the model
RANDOMNESS = {"easy": 0.75, "medium": 0.35, "hard": 0.1}
# older throws weigh less, so a user who changes habits is followed
DECAY = 0.85


def predict(history: list[dict], rng: random.Random) -> str:
    """Most likely next user throw from frequencies, transitions after the user's last throw, and
    transitions after the user's last throw together with that round's result (win-stay, lose-shift)."""
    weights = dict.fromkeys(CHOICES, 0.1)
    if history:
        last = history[-1]
        n = len(history)
        for i, rnd in enumerate(history):
            age = DECAY ** (n - 1 - i)
            weights[rnd["user"]] += 0.5 * age
            if i == 0:
                continue
            prev = history[i - 1]
            if prev["user"] == last["user"]:
                weights[rnd["user"]] += 1.0 * age
                if prev["winner"] == last["winner"]:
                    weights[rnd["user"]] += 1.5 * age
    top = max(weights.values())
    return rng.choice([c for c in CHOICES if weights[c] >= top - 1e-9])


def pick(state: Mapping[str, Any]) -> str:
    """The personality's throw for the coming round, a function of the state only (never of the user's
    current choice, which is not known yet when this runs)."""
    rng = rng_for(state, len(state["history"]))
    if rng.random() < RANDOMNESS[state["options"]["difficulty"]]:
        return rng.choice(CHOICES)
    return BEATEN_BY[predict(state["history"], rng)]


class RockPaperScissorsOptions(GameOptions):
    """Rock, paper, scissors' options: how predictable the personality is, and the match's length."""

    difficulty: Difficulty = "medium"
    rounds: Annotated[int, msgspec.Meta(ge=1, le=99, description="best of N; odd",
                                        extra_json_schema={"x-odd": True})] = 3


class RockPaperScissors:
    id = "rock_paper_scissors"
    name = "Rock, paper, scissors"
    description = (
        "Simultaneous throws, best of N (first to a majority of N wins; tied throws are replayed, "
        "up to 3N throws in all). Rock beats scissors, scissors beat paper, paper beats rock."
    )
    move_schema = build_move_schema(choice={"type": "string", "enum": list(CHOICES)})
    options_type = RockPaperScissorsOptions
    state_schema = build_state_schema(
        "The user always moves; the personality's throw of each round comes back with it.",
        {
            "rounds": {"type": "integer"},
            "wins_needed": {"type": "integer"},
            "score": {"type": "object", "description": "{'user': n, 'personality': n, 'draws': n}"},
            "history": {
                "type": "array",
                "description": "[{'user', 'personality', 'winner'}], winner 'user' | 'personality' | 'draw'",
            },
        },
        turns=("user",),
    )

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]:
        opts = parse_options(options, RockPaperScissorsOptions)
        if opts.rounds % 2 == 0:
            raise InvalidOptions("options.rounds", "options.rounds must be odd, so that a match has a winner")
        state = {
            "rounds": opts.rounds,
            "wins_needed": opts.rounds // 2 + 1,
            "score": {"user": 0, "personality": 0, "draws": 0},
            "history": [],
            "options": msgspec.to_builtins(opts),
            "turn": "user",
            "finished": False,
            "winner": None,
            "_seed": new_seed(seed),
        }
        return state, "user"

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome:
        require_turn(state, "user")
        _, choice = move_field(move, ("choice",))
        if not isinstance(choice, str) or choice.strip().lower() not in CHOICES:
            raise IllegalMove("'choice' must be 'rock', 'paper' or 'scissors'")
        choice = choice.strip().lower()
        theirs = pick(state)
        new = clone(state)
        rnd_winner = "draw" if choice == theirs else "user" if BEATS[choice] == theirs else "personality"
        new["history"].append({"user": choice, "personality": theirs, "winner": rnd_winner})
        new["score"]["draws" if rnd_winner == "draw" else rnd_winner] += 1
        tags = [
            "by_user",
            {"user": "round_lost", "personality": "round_won", "draw": "round_draw"}[rnd_winner],
        ]
        if len(new["history"]) == 1:
            tags.append("opening")
        decided = [r["winner"] for r in new["history"] if r["winner"] != "draw"]
        if rnd_winner != "draw" and decided[-3:] == [rnd_winner] * 3:
            tags.append("streak")
        score, need = new["score"], new["wins_needed"]
        winner: Winner | None = None
        if score["user"] >= need or score["personality"] >= need:
            winner = "user" if score["user"] >= need else "personality"
        elif len(new["history"]) >= 3 * new["rounds"]:
            # the throw cap keeps a run of ties from going on forever
            lead = score["user"] - score["personality"]
            winner = "draw" if lead == 0 else "user" if lead > 0 else "personality"
        else:
            if score["personality"] == need - 1:
                tags.append("near_win")
            if score["user"] == need - 1:
                tags.append("near_loss")
        return finish(new, winner, "user", tags, personality_move={"choice": theirs})

    def personality_move(self, state: dict) -> tuple[dict, Outcome]:
        """Throws are simultaneous and resolved in user_move, so there is no separate personality turn."""
        return {}, Outcome(
            state=clone(state),
            finished=bool(state["finished"]),
            winner=state["winner"],
            next_turn=None if state["finished"] else "user",
            highlights=("by_personality",),
        )
