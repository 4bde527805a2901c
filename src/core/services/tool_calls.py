"""A personality's tools, called for the model during a turn: signed POSTs, answers checked, failures told.

Each call POSTs `{"id": "call_...", "tool", "arguments", "conversation_id", "personality_id", "user_id"}` to the
tool's URL through the ToolCaller port (the SSRF-guarded client), signed with the Standard Webhooks headers and
the personality's `tools_secret` (`webhook-id` is the call's id), within `SECONDS`. A 2xx answer of at most
`MAX_ANSWER_BYTES` of JSON goes back to the model as it is; anything else (refused, unreachable, timed out, an
error status, too large, not JSON, a tool the personality does not have, arguments that are no JSON object) is
reported to the model as a failed call, and the turn goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from avatar_service.core.model.tools import Tool
from avatar_service.core.webhooks.signing import headers
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.dialogue import ToolCall, ToolSpec
from avatar_service.ports.tools import ToolCaller

log = logging.getLogger(__name__)

MAX_ROUNDS = 4  # rounds of calls in one turn; then the model must answer with what it has
SECONDS = 10.0
MAX_ANSWER_BYTES = 16 * 1024


@dataclass(frozen=True, slots=True)
class Toolbox:
    """The tools one turn may call, and what every call says about where it comes from."""

    tools: Mapping[str, Tool]
    secret: str
    conversation_id: str
    personality_id: str
    user_id: str | None

    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(ToolSpec(t.name, t.description, t.parameters) for t in self.tools.values())


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    call: ToolCall
    arguments: Any  # as decoded from the model's JSON, or its raw text when that was not JSON
    result: Any = None  # the tool's JSON answer
    error: str | None = None  # why the call failed

    def for_model(self) -> str:
        """The tool message content the model reads: the answer, or the failure."""
        if self.error is None:
            return msgspec.json.encode(self.result).decode()
        return msgspec.json.encode({"error": f"The tool call failed: {self.error}"}).decode()

    def transcript_content(self) -> str:
        """The transcript item's content: which tool, with what, and what came back (or why nothing did)."""
        item: dict[str, Any] = {"tool": self.call.name, "arguments": self.arguments}
        if self.error is None:
            item["result"] = self.result
        else:
            item["error"] = self.error
        return msgspec.json.encode(item).decode()


class ToolRunner:
    def __init__(self, caller: ToolCaller, ids: Ids, clock: Clock) -> None:
        self.caller, self.ids, self.clock = caller, ids, clock

    async def run(self, box: Toolbox, calls: Sequence[ToolCall]) -> list[ToolOutcome]:
        """The calls of one round, at once; outcomes in the calls' order."""
        return list(await asyncio.gather(*(self._one(box, call) for call in calls)))

    async def _one(self, box: Toolbox, call: ToolCall) -> ToolOutcome:
        try:
            arguments = msgspec.json.decode(call.arguments or "{}")
        except msgspec.DecodeError:
            return ToolOutcome(call, call.arguments, error="the arguments are not valid JSON")
        tool = box.tools.get(call.name)
        if tool is None:
            return ToolOutcome(call, arguments, error=f"there is no tool named '{call.name}'")
        if not isinstance(arguments, dict):
            return ToolOutcome(call, arguments, error="the arguments must be a JSON object")
        ident = self.ids.new("tool_call")
        body = msgspec.json.encode({"id": ident, "tool": tool.name, "arguments": arguments,
                                    "conversation_id": box.conversation_id,
                                    "personality_id": box.personality_id, "user_id": box.user_id})
        signed = headers(box.secret, ident, int(self.clock.now().timestamp()), body)
        answer = await self.caller.call(tool.url, body, signed, SECONDS, MAX_ANSWER_BYTES)
        error = None
        if answer.status is None:
            error = f"no answer ({answer.error})"
        elif not 200 <= answer.status < 300:
            error = f"the tool answered HTTP {answer.status}"
        elif answer.too_large:
            error = f"the answer is over {MAX_ANSWER_BYTES // 1024} KB"
        else:
            try:
                return ToolOutcome(call, arguments, result=msgspec.json.decode(answer.body))
            except msgspec.DecodeError:
                error = "the answer is not JSON"
        log.warning("conversation %s: tool %s failed: %s", box.conversation_id, tool.name, error)
        return ToolOutcome(call, arguments, error=error)
