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
class DialogueRequest:
    persona: Persona
    history: Sequence[Turn]  # oldest first; the last item is the user's new turn
    knowledge: Sequence[str] = ()  # best knowledge chunks, best first
    memories: Sequence[str] = ()  # the user's best memories, best first
    user_name: str | None = None
    # a game or other situation the reply should comment on, e.g. {"event": "blunder", ...}
    situation: dict[str, object] | None = None


class DialogueFailed(RuntimeError):
    """The engine could not produce (the rest of) a reply: its server is unreachable, refused, timed out or
    answered something malformed. Engines raise this, or a subclass, for every such failure."""


class DialogueEngine(Protocol):
    name: str  # shown by /healthz, e.g. "offline-grounded" or "openai-compatible:gpt-4o-mini"

    def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        """Yields the reply in pieces as they are produced."""
        ...

    async def reply(self, request: DialogueRequest) -> str: ...
