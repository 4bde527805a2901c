"""Memory extraction by a language model: against a tiny OpenAI-compatible server on loopback that this test
runs, facts come back validated; anything malformed, refused or unreachable falls back to the rules."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from avatar_service.adapters.dialogue.llm_extractor import LanguageModelFacts
from avatar_service.core.memory.facts import CATEGORIES

TURNS = ["Hi! My wife Sarah and I are going to Lisbon in August.", "What's the weather like there?"]


class FakeModel:
    """Answers each chat completion with the next prepared (status, content) and keeps the requests."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, str]] = []
        self.requests: list[dict[str, Any]] = []


@pytest.fixture
def model() -> Iterator[tuple[FakeModel, str]]:
    fake = FakeModel()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # the http.server API names it so
            fake.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            status, content = fake.replies.pop(0) if fake.replies else (500, "")
            body = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake, f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def facts_json(*facts: dict[str, Any]) -> str:
    return json.dumps({"facts": list(facts)})


async def test_facts_come_from_the_model_as_validated_json(model: tuple[FakeModel, str]) -> None:
    fake, url = model
    fake.replies.append((200, facts_json(
        {"content": "User's wife is named Sarah", "category": "relationship", "confidence": 0.9,
         "extracted_from": TURNS[0]},
        {"content": "User is going to Lisbon in August.", "category": "schedule", "confidence": 1.0},
        {"content": "User is going to Lisbon in August", "category": "schedule"},  # said twice: kept once
        {"content": "The weather in Lisbon is nice", "category": "context"},  # not about the user: dropped
    )))
    extractor = LanguageModelFacts(url, "tiny", api_key="k")
    facts = await extractor.facts(TURNS)
    assert [(f.content, f.category) for f in facts] == [
        ("User's wife is named Sarah", "relationship"), ("User is going to Lisbon in August", "schedule")]
    assert facts[0].extracted_from == TURNS[0] and facts[1].extracted_from == TURNS[0]
    assert facts[0].confidence == 0.9 and facts[1].confidence == 0.95  # 1.0 is for memories entered by hand
    request = fake.requests[0]
    assert request["model"] == "tiny" and request["response_format"]["type"] == "json_schema"
    schema = json.dumps(request["response_format"]["json_schema"]["schema"])
    assert all(category in schema for category in CATEGORIES)
    assert all(turn in request["messages"][1]["content"] for turn in TURNS)


@pytest.mark.parametrize("reply", [
    (200, "I think the user has a wife."),  # not JSON
    (200, facts_json({"content": "User likes jazz", "category": "music"})),  # a category not in the spec
    (200, json.dumps({"memories": []})),  # not the schema
    (503, ""),  # the server refuses
])
async def test_any_failure_falls_back_to_the_rules(model: tuple[FakeModel, str], reply: tuple[int, str]) -> None:
    fake, url = model
    fake.replies.append(reply)
    facts = await LanguageModelFacts(url, "tiny").facts(TURNS)
    contents = [f.content for f in facts]
    assert "User's wife is named Sarah" in contents and "User is going to Lisbon in August" in contents
    assert len(fake.requests) == 1


async def test_an_unreachable_model_falls_back_to_the_rules() -> None:
    facts = await LanguageModelFacts("http://127.0.0.1:9/v1", "tiny", timeout=2.0).facts(["I live in Ghent."])
    assert [f.content for f in facts] == ["User lives in Ghent"]
