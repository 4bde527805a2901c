"""A local OpenAI-compatible chat-completions server for tests and benchmarks, speaking the streaming protocol.

`FakeModel(answer)` serves `POST /v1/chat/completions` on a loopback port in a thread of its own. `answer` gets
each request body and returns what to do:

- `Say(text, delay)`: the reply, streamed a word at a time (`delta.content`), `delay` seconds between words;
- `Call((name, arguments), ...)`: tool calls, streamed as `delta.tool_calls` fragments the way OpenAI sends them
  (id and name first, the arguments' JSON cut into pieces), finish_reason `tool_calls`;
- `Break(text)`: part of a reply, then the connection is dropped without `[DONE]`;
- `Status(code)`: an HTTP error.

A request with `"stream": false` gets the same answer as one JSON body. Every request body is kept in
`requests`; `hangups` counts the streams the client left before their end (the generation stopped).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Say:
    text: str
    delay: float = 0.0


@dataclass(frozen=True)
class Call:
    calls: tuple[tuple[str, dict[str, Any]], ...]
    text: str = ""  # what the model writes before it calls

    def __init__(self, *calls: tuple[str, dict[str, Any]], text: str = "") -> None:
        object.__setattr__(self, "calls", calls)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True)
class Break:
    text: str


@dataclass(frozen=True)
class Status:
    code: int


Answer = Say | Call | Break | Status


def words(text: str) -> list[str]:
    """The text in word-sized tokens that join back to it exactly."""
    return re.findall(r"\s*\S+", text) or [text]


def last_tool_results(body: dict[str, Any]) -> list[str]:
    """The contents of the tool messages that close the conversation sent (the latest round's results)."""
    results: list[str] = []
    for message in reversed(body.get("messages", [])):
        if message.get("role") != "tool":
            break
        results.insert(0, message.get("content", ""))
    return results


@dataclass
class FakeModel:
    answer: Callable[[dict[str, Any]], Answer]
    requests: list[dict[str, Any]] = field(default_factory=list)
    hangups: int = 0
    finished_at: list[float] = field(default_factory=list)  # time.monotonic() at each streamed answer's end

    def __post_init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    event = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": "fake",
             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(event)}\n\n".encode()


def _tool_call_chunks(answer: Call, round_id: int) -> Iterator[bytes]:
    for index, (name, arguments) in enumerate(answer.calls):
        call_id = f"call_{round_id}_{index}"
        yield _chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                                      "function": {"name": name, "arguments": ""}}]})
        text = json.dumps(arguments)
        for start in range(0, len(text), 7):  # the arguments arrive in fragments
            yield _chunk({"tool_calls": [{"index": index, "function": {"arguments": text[start:start + 7]}}]})


def _handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            model.requests.append(body)
            answer = model.answer(body)
            if isinstance(answer, Status):
                self._send(answer.code, "application/json", b'{"error": {"message": "not now"}}')
            elif not body.get("stream"):
                self._whole(answer, len(model.requests))
            else:
                try:
                    self._stream(answer, len(model.requests))
                except (BrokenPipeError, ConnectionResetError):
                    model.hangups += 1

        def _send(self, status: int, kind: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _whole(self, answer: Answer, round_id: int) -> None:
            message: dict[str, Any] = {"role": "assistant", "content": getattr(answer, "text", "")}
            if isinstance(answer, Call):
                message["tool_calls"] = [
                    {"id": f"call_{round_id}_{i}", "type": "function",
                     "function": {"name": name, "arguments": json.dumps(arguments)}}
                    for i, (name, arguments) in enumerate(answer.calls)]
            payload = {"id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
                       "choices": [{"index": 0, "message": message,
                                    "finish_reason": "tool_calls" if isinstance(answer, Call) else "stop"}]}
            self._send(200, "application/json", json.dumps(payload).encode())

        def _stream(self, answer: Answer, round_id: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            out = self.wfile
            out.write(_chunk({"role": "assistant", "content": ""}))
            delay = answer.delay if isinstance(answer, Say) else 0.0
            for token in words(getattr(answer, "text", "")) if getattr(answer, "text", "") else []:
                if delay:
                    time.sleep(delay)
                out.write(_chunk({"content": token}))
                out.flush()
            if isinstance(answer, Break):
                return  # the connection closes with no finish and no [DONE]
            if isinstance(answer, Call):
                for chunk in _tool_call_chunks(answer, round_id):
                    out.write(chunk)
                out.write(_chunk({}, "tool_calls"))
            else:
                out.write(_chunk({}, "stop"))
            out.write(b"data: [DONE]\n\n")
            out.flush()
            model.finished_at.append(time.monotonic())

    return Handler
