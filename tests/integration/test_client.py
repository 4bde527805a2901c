"""avatar_service.client against the real app on a loopback port: every operation through the sync client, the
async one on the same server, cursor walks, streamed turns and the typed errors."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import msgspec
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.client import (
    AsyncAvatarClient,
    AuthenticationError,
    AvatarClient,
    BadRequestError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
)
from avatar_service.core.model import (
    MessageResult,
    Page,
    PersonalityCreate,
    PersonalityPatch,
    PersonalityWithSecret,
    User,
)
from avatar_service.core.model.memories import MemoryItem

from .helpers import Receiver
from .live_app import Live, live_app

PORTRAIT = Path(__file__).parents[1] / "data" / "astronaut.png"
HOURS = "The museum opens at 9am and closes at 5pm. Tickets cost 12 euros."


@dataclass
class Served:
    base_url: str
    key: str
    live: Live
    portal: BlockingPortal

    def drain(self) -> None:
        """Runs the jobs the requests queued (knowledge processing, deliveries): the app runs no worker."""
        self.portal.call(self.live.container.resolve(DatabaseJobQueue).drain)

    def scoped_key(self, *scopes: str) -> str:
        return self.portal.call(self.live.key, *scopes)


@pytest.fixture(scope="module")
def served(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The app served by uvicorn in a thread of its own, so a sync client can block on it."""
    directory = tmp_path_factory.mktemp("client")
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(
            live_app(sqlite_template, directory, allow_private_urls=True)) as live:
        yield Served(live.base_url, live.api.headers["Authorization"].removeprefix("Bearer "), live, portal)


def test_the_sync_client_does_every_operation(served: Served, tmp_path: Path) -> None:
    with AvatarClient(served.base_url, served.key) as client, Receiver() as receiver:
        assert isinstance(client._transport.http, httpx.Client)  # blocking httpx, no event loop underneath
        assert client.health()["status"] == "ok"

        ava = client.personalities.create(name="Ava", system_prompt="You are a museum guide.", traits={"warmth": 0.9})
        assert isinstance(ava, PersonalityWithSecret) and ava.traits.warmth == 0.9 and ava.id.startswith("personality_")
        updated = client.personalities.update(ava.id, PersonalityPatch(description="A guide"))
        assert updated.description == "A guide" and updated.traits.warmth == 0.9  # merged, not replaced
        assert client.personalities.get(ava.id).description == "A guide"
        assert ava.id in [p.id for p in client.personalities.list_all()]

        item = client.knowledge.create(ava.id, type="text", name="Hours", content=HOURS)
        upload = tmp_path / "prices.txt"
        upload.write_text("A family ticket costs 30 euros and covers two adults and three children.")
        document = client.knowledge.upload(ava.id, upload, name="Prices")
        assert (item.status, document.type, document.name) == ("pending", "document", "Prices")
        served.drain()
        assert client.knowledge.get(ava.id, document.id).status == "ready"
        hits = client.knowledge.search(ava.id, query="when does the museum open", limit=1)
        assert hits.data[0].knowledge_item_id == item.id and 0 < hits.data[0].relevance <= 1
        assert [i.id for i in client.knowledge.list_all(ava.id, page_size=1)] == [document.id, item.id]
        assert [i.id for i in client.knowledge.list(ava.id, type="text").data] == [item.id]
        assert client.knowledge.delete(ava.id, document.id).deleted

        alice = client.users.create(external_id="alice")
        assert client.users.list(external_id="alice").data[0].id == alice.id
        assert client.users.update(alice.id, metadata={"plan": "pro"}).metadata == {"plan": "pro"}
        assert client.users.get(alice.id).external_id == "alice"
        rex = client.memories.create(alice.id, personality_id=ava.id, content="Alice has a dog named Rex",
                                     category="relationship")
        bulk = client.memories.bulk(alice.id, personality_id=ava.id,
                                    memories=[MemoryItem(content="Alice lives in Lisbon", category="location")])
        assert bulk.created_count == 1 and rex.confidence == 1.0
        found = client.memories.search(alice.id, query="does she have a dog?", personality_id=ava.id)
        assert found.data[0].id == rex.id and 0 < found.data[0].relevance <= 1
        assert client.memories.update(alice.id, rex.id, content="Alice has two dogs").content == "Alice has two dogs"
        assert client.memories.get(alice.id, rex.id).category == "relationship"
        assert [m.id for m in client.memories.list(alice.id, category="location").data] == [bulk.data[0].id]
        assert client.memories.delete(alice.id, bulk.data[0].id).deleted

        conversation = client.conversations.create(personality_id=ava.id, user_id=alice.id, mode="voice",
                                                   initial_message="Welcome to the museum!")
        said = client.conversations.send(conversation.id, "When does the museum open?")
        assert isinstance(said, MessageResult) and "9" in said.reply.content
        assert client.conversations.end(conversation.id).status == "ended"
        transcript = client.conversations.get(conversation.id, include_transcript=True).transcript or []
        assert [t.role for t in transcript] == ["assistant", "user", "assistant"]
        assert [c.id for c in client.conversations.list_all(personality_id=ava.id)] == [conversation.id]
        assert client.conversations.list(status="ended", user_id=alice.id).data[0].id == conversation.id

        assert "tic_tac_toe" in [g.id for g in client.games.list().data]
        session = client.game_sessions.create(personality_id=ava.id, game_id="tic_tac_toe")
        moved = client.game_sessions.move(session.id, move={"cell": 4})
        assert moved.user_move_valid and moved.session.move_count == 2
        assert client.game_sessions.get(session.id).move_count == 2
        assert [s.id for s in client.game_sessions.list(status="active").data] == [session.id]
        assert client.game_sessions.abandon(session.id).status == "abandoned"
        assert [s.id for s in client.game_sessions.list_all(status="abandoned")] == [session.id]

        video = client.videos.create(personality_id=ava.id, text="Hello there.", resolution="480p")
        assert video.status == "pending" and video.webhook_secret is None
        assert client.videos.cancel(video.id).status == "cancelled"
        assert client.videos.get(video.id).status == "cancelled"
        assert [v.id for v in client.videos.list_all(status="cancelled")] == [video.id]

        hook = client.webhooks.create(url=f"{receiver.url}/hook", events=["memory.created"])
        assert hook.secret.startswith("whsec_")
        assert client.webhooks.update(hook.id, events=["memory.created", "video.failed"]).events == [
            "memory.created", "video.failed"]
        attempt = client.webhooks.test(hook.id)
        assert attempt.status == "succeeded" and receiver.requests[-1].path == "/hook"
        assert attempt.id in [d.id for d in client.webhooks.deliveries_all(hook.id)]
        assert client.webhooks.get(hook.id).enabled and [w.id for w in client.webhooks.list().data] == [hook.id]
        assert client.webhooks.delete(hook.id).deleted

        reader = client.api_keys.create(name="reader", scopes=["read"], rate_limit_per_minute=100)
        assert reader.secret.startswith("sk_") and client.api_keys.get(reader.id).rate_limit_per_minute == 100
        assert reader.id in [k.id for k in client.api_keys.list_all()]
        assert client.api_keys.revoke(reader.id).deleted
        with pytest.raises(AuthenticationError):
            AvatarClient(served.base_url, reader.secret, max_retries=0).personalities.list()

        drawn = client.avatars.list().data
        assert client.avatars.get(drawn[0].id).name == drawn[0].name
        assert client.personalities.delete(ava.id).deleted


async def test_the_async_client_on_the_same_api(served: Served, tmp_path: Path) -> None:
    async with AsyncAvatarClient(served.base_url, served.key) as client:
        assert isinstance(client._transport.http, httpx.AsyncClient)
        ava = await client.personalities.create(PersonalityCreate(name="Ada"))  # a Struct, or its fields
        conversation = await client.conversations.create(personality_id=ava.id, mode="voice")
        async with client.conversations.stream(conversation.id, "Hello, who are you?") as turn:
            pieces = [piece async for piece in turn]
        assert turn.result is not None and len(pieces) > 1  # the offline engine writes a few words at a time
        assert "".join(pieces) == turn.text == turn.result.reply.content
        said = await client.conversations.send(conversation.id, "Thanks!")
        transcript = (await client.conversations.get(conversation.id, include_transcript=True)).transcript or []
        assert [t.content for t in transcript if t.role == "assistant"] == [turn.result.reply.content,
                                                                             said.reply.content]
        again = client.conversations.stream(conversation.id, "Bye!")
        result = await again.until_done()  # not entered: iterating opens it
        assert result.reply.content == again.text

        photo = await client.avatars.create(PORTRAIT, name="Astronaut")
        assert (photo.style, photo.name) == ("realistic", "Astronaut")
        assert photo.id in [a.id for a in (await client.avatars.list()).data]
        assert (await client.avatars.delete(photo.id)).deleted
        voices = (await client.voices.list()).data
        assert {"joe", "iris"} <= {v.id for v in voices}
        raw = await client.request("GET", f"/personalities/{ava.id}")
        assert raw["id"] == ava.id and isinstance(raw["created_at"], str)  # plain JSON values


async def test_downloads_write_the_file_without_the_key(served: Served, tmp_path: Path) -> None:
    sent: list[httpx.Request] = []

    async def seen(request: httpx.Request) -> None:
        sent.append(request)

    clip = bytes(range(256)) * 400
    with Receiver() as media:
        media.pages["/media/clip.mp4?expires=1&signature=x"] = ("video/mp4", clip)
        async with httpx.AsyncClient(event_hooks={"request": [seen]}) as http, \
                AsyncAvatarClient(served.base_url, served.key, http_client=http) as client:
            progress: list[tuple[int, int | None]] = []
            size = await client.download(f"{media.url}/media/clip.mp4?expires=1&signature=x", tmp_path / "clip.mp4",
                                         progress=lambda done, total: progress.append((done, total)))
            with pytest.raises(NotFoundError):
                await client.download(f"{media.url}/media/gone.mp4", tmp_path / "gone.mp4")
    assert size == len(clip) and (tmp_path / "clip.mp4").read_bytes() == clip
    assert progress[-1] == (len(clip), len(clip))
    assert all("authorization" not in r.headers for r in sent)  # signed URLs: the key stays with the API


async def test_list_all_walks_every_page_once(served: Served) -> None:
    requests: list[httpx.Request] = []

    async def seen(request: httpx.Request) -> None:
        requests.append(request)

    async with httpx.AsyncClient(event_hooks={"request": [seen]}) as http:
        async with AsyncAvatarClient(served.base_url, served.key, http_client=http) as client:
            user = await client.users.create()
            ava = await client.personalities.create(name="Walker")
            made = await client.memories.bulk(user.id, personality_id=ava.id, memories=[
                {"content": f"Fact number {n}", "category": "custom"} for n in range(7)])
            requests.clear()
            walked = [m.id async for m in client.memories.list_all(user.id, page_size=3)]
            assert sorted(walked) == sorted(m.id for m in made.data) and len(walked) == len(set(walked)) == 7
            assert len(requests) == 3  # 3 + 3 + 1
            assert [r.url.params.get("cursor") is None for r in requests] == [True, False, False]
            first = await client.memories.list(user.id, limit=3)
            assert isinstance(first, Page) and first.has_more and [m.id for m in first.data] == walked[:3]
        assert not http.is_closed  # a client handed in stays its owner's to close


def test_typed_errors_carry_status_code_param_message_and_request_id(served: Served) -> None:
    with AvatarClient(served.base_url, served.key, max_retries=0) as client:
        with pytest.raises(NotFoundError) as missing:
            client.personalities.get("personality_doesnotexist")
        error = missing.value
        assert (error.status, error.code, error.type) == (404, "resource_missing", "invalid_request_error")
        assert "No such personality" in error.message and error.request_id and error.request_id.startswith("req_")

        with pytest.raises(BadRequestError) as invalid:
            client.request("POST", "/personalities", json={"name": "Ava", "traits": {"warmth": 3}})
        assert (invalid.value.status, invalid.value.param) == (400, "traits.warmth")
        with pytest.raises(msgspec.ValidationError):  # typed methods check the body before sending it
            client.personalities.create(name="Ava", traits={"warmth": 3})

        client.users.create(external_id="bob")
        with pytest.raises(ConflictError) as taken:
            client.users.create(external_id="bob")
        assert (taken.value.status, taken.value.param) == (409, "external_id")
    with AvatarClient(served.base_url, served.scoped_key("read"), max_retries=0) as reader, \
            pytest.raises(PermissionDeniedError) as denied:
        reader.users.create(external_id="carol")
    assert denied.value.status == 403 and denied.value.code == "insufficient_scope"


def test_a_user_struct_round_trips(served: Served) -> None:
    """Answers are the API's own Structs: what the client decodes encodes back to what the server sent."""
    with AvatarClient(served.base_url, served.key) as client:
        user = client.users.create(external_id="dana", metadata={"tier": 2})
        raw = client.request("GET", f"/users/{user.id}")
    assert isinstance(user, User) and msgspec.to_builtins(user) == raw
