"""Stateful model tests: Hypothesis drives the use cases on in-memory storage and checks the state tables.

After every step, every stored status must be reachable from the one seen before through `core/states.py`
(a step may take several edges, e.g. pending -> processing -> ready in one job run), a final status never
changes, and an operation refused with a Conflict (409) left every row of its table as it was. API keys:
a revoked key never authenticates again, and `last_used_at` never goes back.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue
from avatar_service.adapters.in_memory import MemoryStorage
from avatar_service.core import states
from avatar_service.core.errors import Conflict, Unauthenticated
from avatar_service.core.model import (
    ApiKeyCreate,
    ConversationCreate,
    GameSessionCreate,
    KnowledgeCreate,
    MoveCreate,
    PersonalityCreate,
    VideoCreate,
)
from avatar_service.core.services import video_rendering
from avatar_service.core.services.api_keys import CACHE_SECONDS, ApiKeys
from avatar_service.core.services.conversations import Conversations
from avatar_service.core.services.games import GameSessions
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.knowledge_processing import KnowledgeProcessor
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.video_rendering import VideoRenderer
from avatar_service.core.services.videos import Videos
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.fetcher import Fetched, FetchError
from avatar_service.ports.renderer import AvatarInfo, RenderCancelled, RenderRequest, RenderResult
from avatar_service.ports.speech import Audio, SpeechEngines, VoiceChoice

T = TypeVar("T")
ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"
BOUNDED = settings(max_examples=30, stateful_step_count=20, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def reachable(kind: str) -> dict[str, set[str]]:
    """The transitive closure of a transition table: every status a status can become in one or more moves."""
    table = states.TABLES[kind]
    closure: dict[str, set[str]] = {}
    for start in table:
        seen: set[str] = set()
        todo = list(table[start])
        while todo:
            status = todo.pop()
            if status not in seen:
                seen.add(status)
                todo.extend(table[status])
        closure[start] = seen
    return closure


class Clock:
    def __init__(self) -> None:
        self.current = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)


class Speech:
    name = "fake-speech"

    def synthesize(self, text: str, voice: VoiceChoice) -> Audio:
        return Audio(samples=[0] * 2400, sample_rate=24_000)


class Renderer:
    """Writes two small files; a render of a video whose gate is closed waits until the gate opens or a
    cancel is seen (so a cancel can land while it is processing)."""

    name = "fake-renderer"

    def __init__(self) -> None:
        self.gates: dict[str, threading.Event] = {}

    def list_avatars(self) -> list[AvatarInfo]:
        return [AvatarInfo("ava", "Ava", "realistic")]

    def render(self, request: RenderRequest, on_progress: Callable[[int], None],
               should_cancel: Callable[[], bool]) -> RenderResult:
        gate = self.gates.get(request.out_dir.parent.parent.name)
        while gate is not None and not gate.wait(0.005):
            if should_cancel():
                raise RenderCancelled()
        if should_cancel():
            raise RenderCancelled()
        request.out_dir.mkdir(parents=True, exist_ok=True)
        video, thumb = request.out_dir / "v.mp4", request.out_dir / "t.jpg"
        video.write_bytes(b"mp4")
        thumb.write_bytes(b"jpg")
        on_progress(50)
        return RenderResult(video, thumb, 0.1, "video/mp4")


class Fetcher:
    """URLs containing 'broken' fail as an unreachable host would; others answer a line of text."""

    async def fetch(self, url: str) -> Fetched:
        if "broken" in url:
            raise FetchError("fetch_failed", "unreachable")
        return Fetched(url, 200, "text/plain", f"Facts from {url}: the sky is blue.".encode())


class Machine(RuleBasedStateMachine):
    """One in-memory container per example, on an event loop of its own; subclasses say which table to watch."""

    kind = ""
    table = ""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.tmp = Path(tempfile.mkdtemp(prefix="avatar-sm-"))
        self.clock = Clock()
        self.storage = MemoryStorage()
        self.renderer = Renderer()
        conf = load_settings({}, embedder="lexical", data_dir=str(self.tmp), secret_key="state-machines")
        self.container = bootstrap.test(
            conf, self.storage, clock=self.clock, renderer=self.renderer, dialogue=OfflineGroundedDialogue(),
            speech=SpeechEngines({p: Speech() for p in ("elevenlabs", "cartesia", "openai", "azure")}))
        self.container.resolve(KnowledgeProcessor).fetcher = Fetcher()
        self.container.resolve(VideoRenderer).fetcher = Fetcher()
        self.queue: DatabaseJobQueue = self.container.resolve(DatabaseJobQueue)
        self.seen: dict[str, str] = {}
        self.ids: list[str] = []
        self.closure = reachable(self.kind) if self.kind else {}
        self.personality = self.run(self.container.resolve(Personalities).create(
            ORG, PersonalityCreate(name="Ada"))).id

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(work)

    def attempt(self, work: Awaitable[T]) -> T | None:
        """Runs one operation; a Conflict must have changed nothing in the watched table."""
        before = self.storage.rows(self.table)
        try:
            return self.run(work)
        except Conflict:
            assert self.storage.rows(self.table) == before, "a refused operation changed the table"
            return None

    def drain(self) -> None:
        self.run(self.queue.drain())

    @invariant()
    def statuses_follow_the_table(self) -> None:
        if not self.kind:
            return
        for row in self.storage.rows(self.table):
            new, old = row["status"], self.seen.get(row["id"])
            if old is not None and new != old:
                assert not states.is_final(self.kind, old), f"{row['id']}: final {old} became {new}"
                assert new in self.closure[old], f"{row['id']}: {old} -> {new} is not in the table"
            self.seen[row["id"]] = new

    def teardown(self) -> None:
        for status in sorted(set(self.seen.values())):
            event(f"{self.kind} reached {status}")  # --hypothesis-show-statistics: the states really covered
        try:
            pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
            for gate in self.renderer.gates.values():
                gate.set()
            if pending:
                self.loop.run_until_complete(asyncio.wait(pending, timeout=5))
            self.run(self.storage.close())
        finally:
            self.loop.close()
            shutil.rmtree(self.tmp, ignore_errors=True)


class KnowledgeMachine(Machine):
    kind, table = "knowledge_item", "knowledge"

    @rule(text=st.text(st.characters(codec="utf-8"), min_size=1, max_size=40).filter(str.strip))
    def add_text(self, text: str) -> None:  # punctuation alone ends `failed` (content_empty)
        item = self.run(self.container.resolve(Knowledge).add(
            ORG, self.personality, KnowledgeCreate(type="text", content=text)))
        assert item.status == "pending"
        self.ids.append(item.id)

    @rule(broken=st.booleans(), refresh=st.sampled_from(["never", "hourly", "daily"]))
    def add_url(self, broken: bool, refresh: str) -> None:
        url = f"https://example.com/{'broken' if broken else 'fine'}/{len(self.ids)}"
        item = self.run(self.container.resolve(Knowledge).add(
            ORG, self.personality, KnowledgeCreate(type="url", url=url, refresh_interval=refresh)))  # type: ignore[arg-type]
        self.ids.append(item.id)

    @rule()
    def process(self) -> None:
        self.drain()
        for row in self.storage.rows("knowledge"):
            assert row["status"] in {"ready", "failed"}, "a drained queue left an item unfinished"
            assert (row["status"] == "failed") == (row["error"] is not None)

    @rule(hours=st.integers(1, 30))
    def time_passes(self, hours: int) -> None:
        self.clock.advance(hours * 3600)

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def delete(self, index: int) -> None:
        item_id = self.ids.pop(index % len(self.ids))
        self.run(self.container.resolve(Knowledge).delete(ORG, self.personality, item_id))
        assert all(c["knowledge_item_id"] != item_id for c in self.storage.rows("chunks"))
        self.seen.pop(item_id, None)


class VideoMachine(Machine):
    kind, table = "video.generation", "videos"

    def __init__(self) -> None:
        super().__init__()
        self.tasks: dict[str, asyncio.Task[None]] = {}
        video_rendering.PROGRESS_EVERY = 0.01  # the watcher notices a cancel quickly (restored in teardown)

    def teardown(self) -> None:
        video_rendering.PROGRESS_EVERY = 0.5
        super().teardown()

    def _row(self, video_id: str) -> dict[str, Any]:
        return next(r for r in self.storage.rows("videos") if r["id"] == video_id)

    @rule(explode=st.booleans())
    def create(self, explode: bool) -> None:
        created = self.run(self.container.resolve(Videos).create(
            ORG, VideoCreate(personality_id=self.personality, text="!!!" if explode else "Hello there")))
        assert created.status == "pending"
        self.ids.append(created.id)

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def start_render(self, index: int) -> None:
        """Starts the render job and leaves it held at its gate, processing, until `finish` or a cancel."""
        video_id = self.ids[index % len(self.ids)]
        if video_id in self.tasks or self._row(video_id)["status"] != "pending":
            return
        self.renderer.gates[video_id] = threading.Event()
        renderer = self.container.resolve(VideoRenderer)
        self.tasks[video_id] = self.loop.create_task(renderer({"organization_id": ORG, "id": video_id}))
        self.run(asyncio.sleep(0.02))

    @precondition(lambda self: self.tasks)
    @rule()
    def finish(self) -> None:
        for video_id, task in list(self.tasks.items()):
            self.renderer.gates[video_id].set()
            self.run(asyncio.wait_for(task, 10))
            del self.tasks[video_id]
            assert states.is_final(self.kind, self._row(video_id)["status"])

    @rule()
    def run_jobs(self) -> None:
        if not self.tasks:
            self.drain()

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def cancel(self, index: int) -> None:
        video_id = self.ids[index % len(self.ids)]
        before = self._row(video_id)["status"]
        result = self.attempt(self.container.resolve(Videos).cancel(ORG, video_id))
        if before in {"completed", "failed"}:
            assert result is None, "cancelling a finished video must be a 409"
        else:
            assert result is not None and result.status == "cancelled"

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def fail(self, index: int) -> None:
        video_id = self.ids[index % len(self.ids)]
        before = self._row(video_id)
        self.run(self.container.resolve(Videos).fail(ORG, video_id, "render_failed", "by the model"))
        after = self._row(video_id)
        if states.is_final(self.kind, before["status"]):
            assert after == before
        else:
            assert after["status"] == "failed" and after["error"]["code"] == "render_failed"

    @invariant()
    def final_videos_have_their_times(self) -> None:
        for row in self.storage.rows("videos"):
            if states.is_final(self.kind, row["status"]):
                assert row["completed_at"] is not None
            if row["status"] == "completed":
                assert row["video_key"] and row["progress"] == 100


class ConversationMachine(Machine):
    kind, table = "conversation", "conversations"

    def _status(self, conversation_id: str) -> str:
        return next(r["status"] for r in self.storage.rows("conversations") if r["id"] == conversation_id)

    @rule()
    def create(self) -> None:
        created = self.run(self.container.resolve(Conversations).create(
            ORG, ConversationCreate(personality_id=self.personality)))
        self.ids.append(created.id)

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def join(self, index: int) -> None:
        conversation_id = self.ids[index % len(self.ids)]
        before = self._status(conversation_id)
        result = self.attempt(self.container.resolve(Conversations).joined(ORG, conversation_id))
        assert (result is None) == states.is_final(self.kind, before)

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50), text=st.text(min_size=1, max_size=30).filter(str.strip))
    def say(self, index: int, text: str) -> None:
        conversation_id = self.ids[index % len(self.ids)]
        before = self._status(conversation_id)
        turns = len([t for t in self.storage.rows("transcripts") if t.get("conversation_id") == conversation_id])
        result = self.attempt(self.container.resolve(Conversations).say(ORG, conversation_id, text))
        assert (result is None) == states.is_final(self.kind, before)
        if result is None:  # the transcript is its own table: a refused turn added nothing to it either
            after = len([t for t in self.storage.rows("transcripts") if t.get("conversation_id") == conversation_id])
            assert after == turns

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50), failed=st.booleans())
    def end(self, index: int, failed: bool) -> None:
        conversation_id = self.ids[index % len(self.ids)]
        before = self._status(conversation_id)
        ended = self.run(self.container.resolve(Conversations).end(
            ORG, conversation_id, "failed" if failed else "ended"))
        assert ended.status == before if states.is_final(self.kind, before) else ended.status in {"ended", "failed"}

    @rule(seconds=st.sampled_from([1, 120, 299, 301, 599, 601, 3601]))
    def time_passes(self, seconds: int) -> None:
        """After the due timers ran, nothing is left open past a deadline the clock has reached."""
        self.clock.advance(seconds)
        self.drain()
        now = self.clock.now()
        for row in self.storage.rows("conversations"):
            if not states.is_final(self.kind, row["status"]):
                for deadline in ("join_deadline", "idle_deadline", "max_deadline"):
                    assert row[deadline] is None or row[deadline] > now, f"{row['id']} open past {deadline}"


class GameMachine(Machine):
    kind, table = "game_session", "game_sessions"

    def _status(self, session_id: str) -> str:
        return next(r["status"] for r in self.storage.rows("game_sessions") if r["id"] == session_id)

    @rule(game=st.sampled_from(["tic_tac_toe", "rock_paper_scissors", "hangman"]),
          first=st.sampled_from(["user", "personality"]))
    def create(self, game: str, first: str) -> None:
        options = {"first": first} if game == "tic_tac_toe" else {}
        session = self.run(self.container.resolve(GameSessions).create(
            ORG, GameSessionCreate(personality_id=self.personality, game_id=game, options=options)))
        assert session.status == "active"
        self.ids.append(session.id)

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50), cell=st.integers(0, 8), choice=st.sampled_from(["rock", "paper", "scissors"]),
          letter=st.sampled_from("aeiostnrx"))
    def move(self, index: int, cell: int, choice: str, letter: str) -> None:
        session_id = self.ids[index % len(self.ids)]
        row = next(r for r in self.storage.rows("game_sessions") if r["id"] == session_id)
        move = {"tic_tac_toe": {"cell": cell}, "rock_paper_scissors": {"choice": choice},
                "hangman": {"letter": letter}}[row["game_id"]]
        before = self.storage.rows("game_sessions")
        result = self.attempt(self.container.resolve(GameSessions).move(ORG, session_id, MoveCreate(move=move)))
        assert (result is None) == states.is_final(self.kind, row["status"])
        if result is not None and not result.user_move_valid:  # answered in-band, and nothing moved
            assert self.storage.rows("game_sessions") == before

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50), right=st.booleans())
    def guess_the_word(self, index: int, right: bool) -> None:
        """Hangman ends in one move when the word is guessed: the way `completed` is reached in few steps."""
        session_id = self.ids[index % len(self.ids)]
        row = next(r for r in self.storage.rows("game_sessions") if r["id"] == session_id)
        if row["game_id"] != "hangman":
            return
        word = row["state"]["_secret"] if right else "zzzzzz"
        result = self.attempt(self.container.resolve(GameSessions).move(ORG, session_id,
                                                                        MoveCreate(move={"word": word})))
        assert (result is None) == states.is_final(self.kind, row["status"])
        if result is not None and right:
            assert result.session.status == "completed" and result.session.winner == "user"

    @precondition(lambda self: self.ids)
    @rule(index=st.integers(0, 50))
    def abandon(self, index: int) -> None:
        session_id = self.ids[index % len(self.ids)]
        before = self._status(session_id)
        result = self.attempt(self.container.resolve(GameSessions).abandon(ORG, session_id))
        assert (result is None) == (before == "completed")

    @rule(hours=st.sampled_from([1, 23, 25]))
    def time_passes(self, hours: int) -> None:
        self.clock.advance(hours * 3600)
        self.drain()


class ApiKeyMachine(Machine):
    """Keys are created, used and revoked; a revoked key is refused for ever, whatever its cached state."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: dict[str, str] = {}  # id -> secret
        self.revoked: set[str] = set()
        self.last_used: dict[str, datetime] = {}
        self.api_keys: ApiKeys = self.container.resolve(ApiKeys)

    @initialize()
    def first_key(self) -> None:
        self.create()

    @rule()
    def create(self) -> None:
        created = self.run(self.api_keys.create(ORG, ApiKeyCreate(name=f"k{len(self.keys)}", scopes=["read"])))
        assert created.secret and created.secret.startswith("sk_")
        self.keys[created.id] = created.secret

    @rule(index=st.integers(0, 50))
    def authenticate(self, index: int) -> None:
        key_id = list(self.keys)[index % len(self.keys)]
        try:
            caller = self.run(self.api_keys.authenticate(self.keys[key_id]))
        except Unauthenticated:
            assert key_id in self.revoked, "a live key was refused"
            return
        assert key_id not in self.revoked, "a revoked key authenticated"
        assert caller.key_id == key_id and caller.organization_id == ORG

    @rule(index=st.integers(0, 50))
    def revoke(self, index: int) -> None:
        key_id = list(self.keys)[index % len(self.keys)]
        self.run(self.api_keys.revoke(ORG, key_id))
        self.revoked.add(key_id)

    @rule(secret=st.text(max_size=60))
    def a_wrong_secret(self, secret: str) -> None:
        if secret in self.keys.values():
            return
        with pytest.raises(Unauthenticated):
            self.run(self.api_keys.authenticate(secret))

    @rule(seconds=st.sampled_from([0.5, CACHE_SECONDS, 61.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)

    @invariant()
    def keys_are_consistent(self) -> None:
        rows = {r["id"]: r for r in self.storage.rows("api_keys")}
        for key_id in self.keys:
            row = rows[key_id]
            assert (row["revoked_at"] is not None) == (key_id in self.revoked)
            used = row["last_used_at"]
            if key_id in self.last_used:
                assert used is not None and used >= self.last_used[key_id], "last_used_at went back"
            if used is not None:
                self.last_used[key_id] = used
        listed = self.run(self.api_keys.list(ORG, _page()))
        assert {k.id for k in listed.data} == set(self.keys) - self.revoked


def _page() -> Any:
    from avatar_service.core.pagination import PageRequest

    return PageRequest(limit=100)


TestKnowledgeItems = BOUNDED(KnowledgeMachine).TestCase
TestVideoGenerations = BOUNDED(VideoMachine).TestCase
TestConversations = BOUNDED(ConversationMachine).TestCase
TestGameSessions = BOUNDED(GameMachine).TestCase
TestApiKeys = BOUNDED(ApiKeyMachine).TestCase
