"""Memory extraction by a language model: the facts a conversation states, asked of any OpenAI-compatible
chat-completions server (AVATAR_DIALOGUE_BASE_URL) as JSON, validated, with the rules as the fallback."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import httpx
import msgspec

from avatar_service.core.memory.facts import CATEGORIES, Fact, RuleFacts

log = logging.getLogger(__name__)

Category = Literal["personal", "location", "preference", "relationship", "schedule", "context", "custom"]
assert set(Category.__args__) == set(CATEGORIES)  # type: ignore[attr-defined]


class _Fact(msgspec.Struct, forbid_unknown_fields=False):
    content: Annotated[str, msgspec.Meta(min_length=3, max_length=300)]
    category: Category
    confidence: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] = 0.8
    extracted_from: Annotated[str, msgspec.Meta(max_length=2000)] = ""


class _Facts(msgspec.Struct, forbid_unknown_fields=False):
    facts: Annotated[list[_Fact], msgspec.Meta(max_length=50)]


SCHEMA = msgspec.json.schema(_Facts)
_INSTRUCTIONS = (
    "You extract facts about the user from what the user said in a conversation, for a memory the assistant "
    "keeps. Keep every fact the user states plainly about themselves: their name, age, pets and family (with "
    "names), work, where they live or moved to, plans with places and dates, diet and allergies, hobbies, "
    "likes and dislikes. Ignore questions, small talk, wishes, hypotheticals and opinions about other things. "
    "Write each fact in the third person with 'User' as the subject (\"User has a dog named Rex\"), with one "
    f"category of: {', '.join(CATEGORIES)}, a confidence from 0 to 1, and the user's sentence it came from in "
    "extracted_from. Answer with JSON only, matching this schema: " + json.dumps(SCHEMA)
)


class LanguageModelFacts:
    """The FactExtractor port on a chat-completions server; any failure (unreachable, an error status, a
    reply that is not JSON of the schema) falls back to the rules, so a conversation never loses its facts."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout: float = 30.0,
                 fallback: RuleFacts | None = None, client: httpx.AsyncClient | None = None) -> None:
        self.name = f"openai-compatible:{model}"
        self.model = model
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = httpx.Timeout(timeout, connect=min(timeout, 10.0))
        self._fallback = fallback or RuleFacts()
        self._client = client

    async def facts(self, user_turns: Sequence[str]) -> list[Fact]:
        turns = [t.strip() for t in user_turns if t.strip()]
        if not turns:
            return []
        try:
            return self._validated(await self._ask(turns), turns)
        except Exception as error:  # any failure of the model: the rules stand in
            log.warning("fact extraction by %s failed (%s); using the rules", self.name, error)
            return await self._fallback.facts(turns)

    async def _ask(self, turns: list[str]) -> Any:
        body = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "facts", "schema": SCHEMA, "strict": False}},
            "messages": [{"role": "system", "content": _INSTRUCTIONS},
                         {"role": "user", "content": "\n".join(f"- {t}" for t in turns)}],
        }
        client = self._client or httpx.AsyncClient(timeout=self._timeout)
        try:
            response = await client.post(self._url, json=body, headers=self._headers, timeout=self._timeout)
        finally:
            if self._client is None:
                await client.aclose()
        response.raise_for_status()
        content = response.json()["choices"][0]["message"]["content"]
        if not isinstance(content, str):
            raise ValueError("the reply has no text content")
        return content

    @staticmethod
    def _validated(content: str, turns: list[str]) -> list[Fact]:
        text = content.strip()
        if text.startswith("```"):  # some models fence JSON even when asked not to
            text = text.strip("`").removeprefix("json").strip()
        parsed = msgspec.json.decode(text, type=_Facts)
        out, seen = [], set()
        for fact in parsed.facts:
            content = " ".join(fact.content.split()).rstrip(".")
            if not content.lower().startswith("user") or content.casefold() in seen:
                continue  # a fact not about the user, or said twice
            seen.add(content.casefold())
            source = fact.extracted_from if any(fact.extracted_from and fact.extracted_from in t for t in turns) \
                else next((t for t in turns if _shares_words(t, content)), turns[-1])
            # 1.0 is kept for memories a person entered by hand
            out.append(Fact(content, fact.category, round(min(fact.confidence, 0.95), 2), source))
        return out


def _shares_words(turn: str, content: str) -> bool:
    words = {w for w in content.lower().split() if len(w) > 3 and w != "user"}
    return bool(words & set(turn.lower().replace(".", " ").replace(",", " ").split()))
