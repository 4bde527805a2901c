"""Dialogue engine port: the personality's next reply (conversations, game commentary)."""

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Turn:
    role: str  # "user" | "assistant" | "system"
    content: str


@dataclass(frozen=True, slots=True)
class Persona:
    name: str
    system_prompt: str
    description: str
    # each 0..1: warmth, humor, formality, verbosity, empathy
    traits: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameSituation:
    """The latest exchange of a game, for the personality to comment on.

    `line` is the core's own comment on it (core.games.commentary: in the personality's register, tied to
    the moves, never a line already said in this game); the offline engine says it as it is, a language
    model may say it in its own words from `summary` and the moves.
    """

    game: str  # the game's name, e.g. "Connect four"
    game_id: str
    highlights: tuple[str, ...]  # commentary tags of the exchange, e.g. ("blunder:user", "near_win")
    summary: str  # the highlights in plain words
    line: str
    finished: bool = False
    winner: str | None = None  # "user" | "personality" | "draw" once finished
    move_count: int = 0
    user_move: object = None  # the moves as the game takes them, e.g. {"column": 3}
    personality_move: object = None


@dataclass(frozen=True, slots=True)
class DialogueRequest:
    persona: Persona
    history: Sequence[Turn]  # oldest first; the last item is the user's new turn
    knowledge: Sequence[str] = ()  # best knowledge chunks, best first
    memories: Sequence[str] = ()  # the user's best memories, best first
    user_name: str | None = None
    situation: GameSituation | None = None  # a game move to comment on instead of a user turn to answer
    # Embedding relevance (0..1) of each knowledge chunk and each memory to the turn, in the same order;
    # empty when unknown. The offline engine blends it with its own lexical evidence per sentence.
    knowledge_relevance: Sequence[float] = ()
    memory_relevance: Sequence[float] = ()
    topics: Sequence[str] = ()  # what the personality knows about (its knowledge items' names), for "I don't know"


class DialogueFailed(RuntimeError):
    """The engine could not produce (the rest of) a reply: its server is unreachable, refused, timed out or
    answered something malformed. Engines raise this, or a subclass, for every such failure."""


class DialogueEngine(Protocol):
    name: str  # shown by /healthz, e.g. "offline-grounded" or "openai-compatible:gpt-4o-mini"

    def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        """Yields the reply in pieces as they are produced."""
        ...

    async def reply(self, request: DialogueRequest) -> str: ...
