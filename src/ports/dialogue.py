"""Dialogue engine port: the personality's next reply (conversations, game commentary)."""

from collections.abc import AsyncIterator, Mapping, Sequence
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
class ToolSpec:
    """A tool the personality may call: offered to a language model in the OpenAI `tools` form."""

    name: str
    description: str
    parameters: Mapping[str, object]  # a JSON Schema object: the call's arguments


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str  # the engine's own id for the call, which pairs its result with it
    name: str
    arguments: str  # JSON text as the model wrote it (it may be malformed)


@dataclass(frozen=True, slots=True)
class ToolCalls:
    """What `stream` yields, after any text, when the model calls tools instead of finishing its reply."""

    calls: tuple[ToolCall, ...]


@dataclass(frozen=True, slots=True)
class ToolRound:
    """One round of tool calls earlier in this turn: what the model wrote with them, and each call's result
    (JSON text, in the calls' order), for the model to go on from."""

    text: str
    calls: tuple[ToolCall, ...]
    results: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DialogueRequest:
    persona: Persona
    history: Sequence[Turn]  # oldest first; the last item is the user's new turn
    knowledge: Sequence[str] = ()  # best knowledge chunks, best first
    memories: Sequence[str] = ()  # the user's best memories, best first
    user_name: str | None = None
    tools: Sequence[ToolSpec] = ()  # engines that cannot call tools ignore them (the offline engine does)
    tool_rounds: Sequence[ToolRound] = ()  # this turn's calls so far, oldest first
    tools_final: bool = False  # no more calls this turn: the model must answer with what it has
    situation: GameSituation | None = None  # a game move to comment on instead of a user turn to answer
    # Embedding relevance (0..1) of each knowledge chunk and each memory to the turn, in the same order;
    # empty when unknown. The offline engine blends it with its own lexical evidence per sentence.
    knowledge_relevance: Sequence[float] = ()
    memory_relevance: Sequence[float] = ()
    topics: Sequence[str] = ()  # what the personality knows about (its knowledge items' names), for "I don't know"
    # Embedding similarity (0..1) to the turn of each knowledge sentence (core.text.sentences.answer_sentences of
    # the chunks) whose embedding this process has cached; a sentence missing here is judged by its chunk's.
    sentence_relevance: Mapping[str, float] = field(default_factory=dict)
    # The name of each knowledge chunk's item ("Opening hours and finding us"), in the order of `knowledge`; "" where
    # the item was given none. What a chunk is about, when its sentences do not say it in the question's words.
    knowledge_titles: Sequence[str] = ()


class DialogueFailed(RuntimeError):
    """The engine could not produce (the rest of) a reply: its server is unreachable, refused, timed out or
    answered something malformed. Engines raise this, or a subclass, for every such failure."""


class DialogueEngine(Protocol):
    name: str  # shown by /healthz, e.g. "offline-grounded" or "openai-compatible:gpt-4o-mini"

    def stream(self, request: DialogueRequest) -> AsyncIterator[str | ToolCalls]:
        """Yields the reply in pieces as they are produced; an engine that calls tools may end with one
        `ToolCalls` (only when the request offers tools), after which the caller runs them and asks again
        with the round added to `tool_rounds`."""
        ...

    async def reply(self, request: DialogueRequest) -> str: ...
