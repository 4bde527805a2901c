"""Shared vocabulary of the game engine: sides, outcomes, errors, the Game protocol and the move schemas."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

if TYPE_CHECKING:
    from .options import GameOptions

Side = Literal["user", "personality"]
Winner = Literal["user", "personality", "draw"]
Difficulty = Literal["easy", "medium", "hard"]

DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)
SIDES: tuple[str, ...] = get_args(Side)

# Highlights vocabulary (commentary.py reads it). Exactly one actor tag says whose move the outcome
# describes, because the service may comment on either half of an exchange:
#   by_user / by_personality
# Move tags describe the mover's move: check, capture, fork, threat (the mover can win / gain next
# move), good_move, blunder, opening, letter_hit, letter_miss.
# Result tags are from the personality's point of view, since the personality is the one speaking:
#   win / loss / draw, round_won / round_lost / round_draw, near_win / near_loss, streak (the winner of
#   this round has won three or more in a row).
HIGHLIGHTS: tuple[str, ...] = (
    "by_user",
    "by_personality",
    "check",
    "capture",
    "fork",
    "threat",
    "good_move",
    "blunder",
    "opening",
    "letter_hit",
    "letter_miss",
    "win",
    "loss",
    "draw",
    "round_won",
    "round_lost",
    "round_draw",
    "near_win",
    "near_loss",
    "streak",
)

# Keys of a state that start with "_" are private (the seed, hangman's word): the service strips them
# before showing the state to a client.
PRIVATE_PREFIX = "_"


class InvalidOptions(Exception):
    """Bad `options` at session creation; `param` names the offending field, e.g. options.difficulty."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param
        self.message = message


class IllegalMove(Exception):
    """Anything wrong with the content of a move; str(exc) is the reason shown to the user."""


@dataclass(frozen=True, slots=True)
class Outcome:
    state: dict
    finished: bool
    winner: Winner | None
    next_turn: Side | None
    highlights: tuple[str, ...]
    personality_move: dict | None = None


class Game(Protocol):
    id: str
    name: str
    description: str
    move_schema: dict
    state_schema: dict

    @property
    def options_type(self) -> type[GameOptions]:
        """The game's options Struct (options.py)."""
        ...

    def start(self, options: Mapping[str, Any], seed: int) -> tuple[dict, Side]: ...

    def user_move(self, state: dict, move: Mapping[str, Any]) -> Outcome: ...

    def personality_move(self, state: dict) -> tuple[dict, Outcome]: ...


PRIVATE_NOTE = "Keys starting with '_' are private to the service and never shown to clients."


def build_move_schema(**fields: dict) -> dict:
    """A game's `move` object: exactly one of the listed fields (required, when there is only one)."""
    schema: dict = {"type": "object", "additionalProperties": False, "properties": fields}
    if len(fields) == 1:
        schema["required"] = list(fields)
    else:
        schema["minProperties"] = schema["maxProperties"] = 1
    return schema


def build_state_schema(note: str, properties: dict, *, turns: tuple[str, ...] = SIDES,
                 winners: tuple[str, ...] = ("user", "personality", "draw")) -> dict:
    """A game's `state`: its own fields plus the ones every game keeps (options, turn, finished, winner)."""
    return {
        "type": "object",
        "description": f"{PRIVATE_NOTE} {note}".strip(),
        "properties": {
            **properties,
            "options": {"type": "object"},
            "turn": {"enum": [*turns, None]},
            "finished": {"type": "boolean"},
            "winner": {"enum": [*winners, None]},
        },
    }


def move_field(move: Mapping[str, Any], allowed: tuple[str, ...]) -> tuple[str, Any]:
    """Returns the single (key, value) of a move object, or raises IllegalMove naming what is expected."""
    expected = " or ".join(repr(k) for k in allowed)
    if not isinstance(move, Mapping):
        raise IllegalMove(f"a move must be an object with {expected}")
    keys = [k for k in move if k in allowed]
    extra = [k for k in move if k not in allowed]
    if extra:
        raise IllegalMove(f"unknown move field {extra[0]!r}; expected {expected}")
    if len(keys) != 1:
        raise IllegalMove(f"a move needs exactly one of {expected}")
    return keys[0], move[keys[0]]


def new_seed(seed: int) -> int:
    return int(seed) & 0xFFFFFFFF


def rng_for(state: Mapping[str, Any], salt: object) -> random.Random:
    """A generator derived from the private seed and a per-move salt, so that a state alone fixes the
    personality's choice (pure, replayable) while successive moves still differ."""
    return random.Random(f"{state['_seed']}:{salt}")


def clone(state: Mapping[str, Any]) -> dict:
    # the service may keep the caller's dict (e.g. to retry), so a move never edits it in place
    return copy.deepcopy(dict(state))


def require_turn(state: Mapping[str, Any], side: Side) -> None:
    if state.get("finished"):
        raise IllegalMove("the game is over")
    if state.get("turn") != side:
        raise IllegalMove("it is not your turn" if side == "user" else "it is not the personality's turn")


def other(side: Side) -> Side:
    return "personality" if side == "user" else "user"


def finish(
    state: dict,
    winner: Winner | None,
    next_turn: Side | None,
    tags: list[str],
    personality_move: dict | None = None,
) -> Outcome:
    """Records the turn / result in the state and wraps it in an Outcome with result tags added."""
    if winner is not None:
        state["finished"] = True
        state["winner"] = winner
        state["turn"] = None
        tags.append({"personality": "win", "user": "loss", "draw": "draw"}[winner])
        next_turn = None
    else:
        state["turn"] = next_turn
    return Outcome(
        state=state,
        finished=winner is not None,
        winner=winner,
        next_turn=next_turn,
        highlights=tuple(dict.fromkeys(tags)),
        personality_move=personality_move,
    )
