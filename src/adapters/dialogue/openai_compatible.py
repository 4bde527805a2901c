"""Dialogue through any OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp, Ollama...).

Replies stream (`"stream": true`, server-sent events); a personality's tools are offered in the `tools` form, and
the model's calls come back as `ToolCalls` once its stream ends (their `delta.tool_calls` fragments put
together). Earlier rounds of the turn go back as the assistant's `tool_calls` message and one `tool` message per
result; on the last allowed round `tool_choice` is `none`, so the model answers in words.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx

from avatar_service.adapters.dialogue.persona_prompt import system_message
from avatar_service.ports.dialogue import DialogueFailed, DialogueRequest, ToolCall, ToolCalls

_RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
_MAX_HISTORY = 40  # turns sent back to the model; older ones cost tokens and rarely change the reply
_MAX_RETRY_AFTER = 10.0  # a conversation cannot wait minutes for a rate limit to lift


class DialogueUnavailable(DialogueFailed):
    """The dialogue server could not produce a reply (unreachable, timed out, refused or malformed)."""


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OpenAICompatibleDialogue:
    """POSTs to ``{base_url}/chat/completions``; ``base_url`` includes the version, e.g. ``.../v1``.

    Retries connection failures, 408/409/429 and 5xx with exponential backoff (honouring a short
    ``Retry-After``), but never once reply text has been handed to the caller. Every failure surfaces as
    ``DialogueUnavailable``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        *,
        temperature: float | None = 0.7,
        max_tokens: int | None = None,
        backoff: float = 0.5,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.name = f"openai-compatible:{model}"
        self.model = model
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # The read timeout also bounds the gap between two streamed pieces, so a stalled stream fails.
        self._timeout = httpx.Timeout(timeout, connect=min(timeout, 10.0))
        self._max_retries = max(0, max_retries)
        self._backoff = backoff
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._client = client
        self._owns_client = client is None

    async def aclose(self) -> None:
        if self._client is not None and self._owns_client:
            await self._client.aclose()
            self._client = None

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self._timeout)
        return self._client

    def payload(self, request: DialogueRequest, stream: bool) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": system_message(request)}]
        for turn in list(request.history)[-_MAX_HISTORY:]:
            if turn.role in ("user", "assistant", "system") and turn.content.strip():
                messages.append({"role": turn.role, "content": turn.content})
        for done in request.tool_rounds:
            messages.append({"role": "assistant", "content": done.text or None, "tool_calls": [
                {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                for call in done.calls]})
            messages += [{"role": "tool", "tool_call_id": call.id, "content": result}
                         for call, result in zip(done.calls, done.results, strict=True)]
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": stream}
        if request.tools:
            body["tools"] = [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                               "parameters": dict(tool.parameters)}}
                             for tool in request.tools]
            if request.tools_final:
                body["tool_choice"] = "none"
        if self._temperature is not None:
            body["temperature"] = self._temperature
        if self._max_tokens is not None:
            body["max_tokens"] = self._max_tokens
        return body

    async def reply(self, request: DialogueRequest) -> str:
        body = self.payload(request, stream=False)
        for attempt in range(self._max_retries + 1):
            try:
                response = await self._http().post(self._url, json=body, headers=self._headers)
                self._check(response.status_code, response.headers, response.text)
                return _message_text(response)
            except (_Retryable, httpx.TransportError) as exc:
                await self._wait_or_give_up(exc, attempt)
        raise AssertionError("unreachable")  # the loop either returns or raises

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str | ToolCalls]:
        body = self.payload(request, stream=True)
        for attempt in range(self._max_retries + 1):
            started = False
            try:
                async with self._http().stream(
                    "POST", self._url, json=body, headers=self._headers
                ) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        self._check(response.status_code, response.headers, response.text)
                    if "text/event-stream" not in response.headers.get("content-type", ""):
                        # Some servers ignore stream=true and answer with one JSON body.
                        await response.aread()
                        text = _message_text(response)
                        if text:
                            started = True
                            yield text
                        calls = _message_calls(response)
                        if calls:
                            yield calls
                        return
                    async for piece in _sse_pieces(response):
                        started = True
                        yield piece
                    return
            except (_Retryable, httpx.TransportError) as exc:
                if started:
                    raise DialogueUnavailable(f"{self.name}: stream broke off: {_describe(exc)}") from exc
                await self._wait_or_give_up(exc, attempt)

    def _check(self, status: int, headers: httpx.Headers, text: str) -> None:
        if status < 400:
            return
        detail = f"HTTP {status} from {self._url}: {text[:200]}"
        if status in _RETRY_STATUS:
            raise _Retryable(detail, _retry_after(headers))
        raise DialogueUnavailable(f"{self.name}: {detail}")

    async def _wait_or_give_up(self, exc: Exception, attempt: int) -> None:
        retryable = isinstance(
            exc, _Retryable | httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout
        )
        if not retryable or attempt >= self._max_retries:
            tries = f" after {attempt + 1} attempts" if attempt else ""
            raise DialogueUnavailable(f"{self.name}: {_describe(exc)}{tries}") from exc
        delay = self._backoff * (2**attempt)
        if isinstance(exc, _Retryable) and exc.retry_after is not None:
            delay = max(delay, min(exc.retry_after, _MAX_RETRY_AFTER))
        await anyio.sleep(delay)


async def _sse_pieces(response: httpx.Response) -> AsyncIterator[str | ToolCalls]:
    finished = False  # a finish_reason came: a server that then closes without [DONE] still finished
    calls: dict[int, dict[str, str]] = {}  # tool calls by index, put together from their fragments
    async for line in response.aiter_lines():
        if not line.startswith("data:"):
            continue  # comments (": keep-alive"), event:/id: fields and blank separators
        data = line[5:].strip()
        if data == "[DONE]":
            finished = True
            break
        try:
            event = json.loads(data)
        except json.JSONDecodeError as exc:
            raise DialogueUnavailable(f"malformed stream event: {data[:100]!r}") from exc
        if isinstance(event, dict) and event.get("error"):
            raise DialogueUnavailable(f"server error in stream: {str(event['error'])[:200]}")
        for choice in event.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                yield delta["content"]
            for fragment in delta.get("tool_calls") or []:
                _add_fragment(calls, fragment)
            finished = finished or bool(choice.get("finish_reason"))
    if not finished:  # the connection closed mid-reply: what came is not the whole reply
        raise DialogueUnavailable("the stream ended before the reply was finished")
    if calls:
        yield ToolCalls(tuple(ToolCall(c["id"] or f"call_{i}", c["name"], c["arguments"])
                              for i, c in sorted(calls.items())))


def _add_fragment(calls: dict[int, dict[str, str]], fragment: Any) -> None:
    """One `delta.tool_calls` item: the first of a call brings its id and name, the rest its arguments."""
    if not isinstance(fragment, dict):
        raise DialogueUnavailable(f"malformed tool call in stream: {str(fragment)[:100]!r}")
    index = fragment.get("index", len(calls))
    call = calls.setdefault(index if isinstance(index, int) else len(calls), {"id": "", "name": "", "arguments": ""})
    function = fragment.get("function") or {}
    call["id"] = call["id"] or str(fragment.get("id") or "")
    call["name"] = call["name"] or str(function.get("name") or "")
    call["arguments"] += str(function.get("arguments") or "")


def _message_calls(response: httpx.Response) -> ToolCalls | None:
    """The tool calls of a whole (not streamed) answer, if it made any."""
    try:
        found = response.json()["choices"][0]["message"].get("tool_calls") or []
        calls = tuple(ToolCall(str(c.get("id") or f"call_{i}"), str(c["function"]["name"]),
                               str(c["function"].get("arguments") or ""))
                      for i, c in enumerate(found))
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise DialogueUnavailable(f"unexpected tool calls in the answer: {response.text[:200]!r}") from exc
    return ToolCalls(calls) if calls else None


def _message_text(response: httpx.Response) -> str:
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise DialogueUnavailable(f"unexpected chat-completions body: {response.text[:200]!r}") from exc
    return content.strip() if isinstance(content, str) else ""


def _retry_after(headers: httpx.Headers) -> float | None:
    try:
        return max(0.0, float(headers.get("retry-after", "")))
    except ValueError:
        return None  # an HTTP-date: fall back to our own backoff


def _describe(exc: Exception) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out ({type(exc).__name__})"
    return str(exc) or type(exc).__name__
