"""A text turn under way: the reply's pieces as the dialogue engine writes them, the reply stored when it ends.

`Conversations.start_turn` checks the turn, stores the user's message (`open`) and hands back a `TextTurn`;
iterating it yields the reply's pieces in order. A turn not opened first (`Conversations.say`) stores the user's
message with the reply, in the same commit. However the iteration ends, the reply is stored exactly once:

- it ran to its end: the whole reply;
- the consumer stopped early (``aclose()``, a cancelled task, a client that left the stream) or the engine failed
  midway: what had been produced by then, marked ``interrupted``, so a half reply never looks whole.

An engine failure surfaces as `Unavailable` (HTTP 503) after the partial reply is stored.

With a toolbox (the personality has tools), the request offers them; when the engine answers with tool calls,
they are run (`tool_calls.ToolRunner`), each becomes a `tool` transcript item, and the engine is asked again
with the round's results, at most `MAX_ROUNDS` times; the last time it must answer in words. The text of every
round is the reply (rounds joined by a space, sent as a piece of its own so the pieces still join to it). When
tools were called and the engine's last round says nothing (a model that only calls, past the cap too), the reply
ends with `NO_TOOL_ANSWER`, so the user is told rather than left with silence or a bare "Let me check."
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from avatar_service.core.errors import Unavailable
from avatar_service.core.model import Conversation, ConversationRecord, MessageResult, TranscriptItem
from avatar_service.core.services.base import Deps
from avatar_service.core.services.tool_calls import MAX_ROUNDS, Toolbox, ToolRunner
from avatar_service.ports.dialogue import DialogueEngine, DialogueFailed, DialogueRequest, ToolCalls, ToolRound
from avatar_service.ports.storage import UnitOfWork

log = logging.getLogger(__name__)

NO_TOOL_ANSWER = "Sorry, my tools did not give me an answer this time."


class TextTurn:
    """One turn's reply in the making. Iterate it once for the pieces; `result` is set when it is stored."""

    def __init__(self, deps: Deps, dialogue: DialogueEngine, request: DialogueRequest, record: ConversationRecord,
                 message: TranscriptItem, opening: Callable[[UnitOfWork], Awaitable[Conversation]],
                 since: Callable[[datetime], float], tools: ToolRunner | None = None, toolbox: Toolbox | None = None,
                 started: float | None = None) -> None:
        self.deps, self.dialogue = deps, dialogue
        self.request = dataclasses.replace(request, tools=toolbox.specs()) if toolbox and tools else request
        self.record, self.message = record, message
        # The turn's first write (the conversation's activity, with the user's message): made by `open`, or else
        # in the unit that stores the reply. It returns the conversation as it then stands.
        self._opening: Callable[[UnitOfWork], Awaitable[Conversation]] | None = opening
        self.view: Conversation | None = None
        self._since = since
        self.tools, self.toolbox = tools, toolbox
        self._text: list[str] = []
        self._tool_items: list[TranscriptItem] = []  # this turn's calls, stored with the reply
        self._pieces: AsyncIterator[str] | None = None
        self._stored: asyncio.Future[MessageResult] | None = None
        self.result: MessageResult | None = None
        # Latency figures stored with the reply: the text turn's own (first piece, whole turn, from `started`,
        # the turn's beginning, monotonic) unless the room sets a spoken turn's (set_metrics).
        self._started = time.monotonic() if started is None else started
        self._first_piece: float | None = None
        self._metrics: dict[str, float | None] | None = None

    @property
    def conversation_id(self) -> str:
        return self.record.id

    async def open(self) -> None:
        """Stores the user's message now, on its own, so a streamed turn's message is in the transcript at once."""
        if self._opening is None:
            return
        async with self.deps.storage(self.record.organization_id) as uow:
            self.view = await self._opening(uow)
            await uow.transcripts.append(self.record.id, [self.message])
            await uow.commit()
        self._opening = None

    def text(self) -> str:
        """The reply as produced so far."""
        return "".join(self._text)

    def set_metrics(self, metrics: dict[str, float | None]) -> None:
        """A spoken turn's figures (the room's), stored with the reply instead of the text turn's own."""
        self._metrics = dict(metrics)

    def _own_metrics(self) -> dict[str, float | None]:
        def ms(at: float | None) -> float | None:
            return None if at is None else round(1000 * (at - self._started), 1)

        return {"first_piece_ms": ms(self._first_piece), "total_ms": ms(time.monotonic())}

    def __aiter__(self) -> AsyncIterator[str]:
        if self._pieces is None:
            self._pieces = self._run()
        return self._pieces

    async def collect(self) -> MessageResult:
        """The whole turn: every piece consumed, the reply stored; the result."""
        async for _ in self:
            pass
        assert self.result is not None  # the iteration stores the reply before it ends
        return self.result

    async def aclose(self) -> None:
        """Stops the turn where it is (the engine's generation too) and stores what was produced, marked
        interrupted. Does nothing to a turn already stored; safe to call any number of times."""
        if self._stored is not None:
            await asyncio.shield(self._stored)
            return
        if self._pieces is None:
            self._pieces = self._run()  # never started: stored as an empty, interrupted reply
        generator = self._pieces
        try:
            await generator.aclose()  # type: ignore[attr-defined]
        except RuntimeError:  # it is running in another task, which stops (and stores) it itself
            return
        if self._stored is None:
            await self._finish(interrupted=True)
        else:
            await asyncio.shield(self._stored)

    async def _run(self) -> AsyncIterator[str]:
        try:
            rounds: list[ToolRound] = []
            for index in range(MAX_ROUNDS + 1):
                request = self.request
                if rounds:
                    request = dataclasses.replace(request, tool_rounds=tuple(rounds), tools_final=index == MAX_ROUNDS)
                written: list[str] = []
                calls = None
                async with _closing(self.dialogue.stream(request)) as pieces:
                    async for piece in pieces:
                        if isinstance(piece, ToolCalls):
                            calls = piece.calls
                        elif piece:
                            if not written and _runs_into(self._text, piece):
                                self._text.append(" ")  # a new round's text: a word apart from the last
                                yield " "
                            written.append(piece)
                            self._text.append(piece)
                            if self._first_piece is None:
                                self._first_piece = time.monotonic()
                            yield piece
                if not calls or self.tools is None or self.toolbox is None or index == MAX_ROUNDS:
                    break  # (calls after the last allowed round are not run: the reply ends with its words)
                outcomes = await self.tools.run(self.toolbox, calls)
                when = self._since(self.deps.clock.now())
                self._tool_items += [TranscriptItem(role="tool", content=o.transcript_content(), timestamp=when)
                                     for o in outcomes]
                rounds.append(ToolRound("".join(written), calls, tuple(o.for_model() for o in outcomes)))
            if rounds and not "".join(written).strip():  # tools ran, and the model's last word was nothing
                if _runs_into(self._text, NO_TOOL_ANSWER):
                    self._text.append(" ")
                    yield " "
                self._text.append(NO_TOOL_ANSWER)
                if self._first_piece is None:
                    self._first_piece = time.monotonic()
                yield NO_TOOL_ANSWER
        except DialogueFailed as error:
            await self._finish(interrupted=True)
            log.warning("conversation %s: the dialogue engine failed midway: %s", self.record.id, error)
            raise Unavailable(f"The dialogue engine failed: {error}") from error
        except BaseException:  # the consumer left (GeneratorExit, cancellation) or a bug: keep what was said
            await self._finish(interrupted=True)
            raise
        await self._finish(interrupted=False)

    async def _finish(self, interrupted: bool) -> MessageResult:
        """Stores the reply once, in a task of its own: a cancelled caller cannot cut the write short."""
        if self._stored is None:
            self._stored = asyncio.ensure_future(self._store(interrupted))
        return await asyncio.shield(self._stored)

    async def _store(self, interrupted: bool) -> MessageResult:
        reply = TranscriptItem(role="assistant", content=self.text(), timestamp=self._since(self.deps.clock.now()),
                               interrupted=interrupted, metrics=self._metrics or self._own_metrics())
        items = [*self._tool_items, reply]
        async with self.deps.storage(self.record.organization_id) as uow:
            if self._opening is not None:  # not opened: the user's message goes in with the reply, one statement
                self.view = await self._opening(uow)
                items.insert(0, self.message)
            await uow.transcripts.append(self.record.id, items)
            await uow.commit()
        self._opening = None
        assert self.view is not None
        self.result = MessageResult(conversation=self.view, message=self.message, reply=reply)
        return self.result


def _runs_into(before: list[str], piece: str) -> bool:
    """Whether `piece` would stick to the end of the text before it (no space on either side)."""
    return bool(before) and not before[-1][-1:].isspace() and not piece[:1].isspace()


@asynccontextmanager
async def _closing(iterator: AsyncIterator[str]) -> AsyncIterator[AsyncIterator[str]]:
    """Closes the engine's stream however the turn ends, so a turn cut short stops the generation too (an
    HTTP engine drops its connection, and the model server stops generating)."""
    try:
        yield iterator
    finally:
        close = getattr(iterator, "aclose", None)
        if close is not None:
            await close()
