"""`avatar chat` and `avatar play` driven through a real pseudo-terminal, then checked in the database."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

import avatar_service
from avatar_service.core.model import PersonalityCreate, UserCreate
from avatar_service.core.pagination import PageRequest

from .openai_server import FakeModel, Say

AVATAR = str(Path(sys.executable).with_name("avatar"))
TIMEOUT = 120  # seconds for any one expectation: generous, the machine is shared


@pytest.fixture
async def world(tmp_path: Path) -> dict[str, Any]:
    """A database with Ava and a user, made through the embedding API (faster than more subprocesses)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/avatar.db"
    async with avatar_service.open(url, worker=False, embedder="lexical", data_dir=str(tmp_path)) as svc:
        org = (await svc.organization()).id
        ava = await svc.personalities.create(org, PersonalityCreate(name="Ava", system_prompt="A friendly barista."))
        sam = await svc.users.create(org, UserCreate(external_id="sam"))
    env = {**os.environ, "AVATAR_DATABASE_URL": url, "AVATAR_DATA_DIR": str(tmp_path), "AVATAR_EMBEDDER": "lexical",
           "AVATAR_LOG_LEVEL": "WARNING"}
    for name in ("AVATAR_API_URL", "AVATAR_API_KEY"):
        env.pop(name, None)
    return {"url": url, "dir": str(tmp_path), "env": env, "org": org, "ava": ava.id, "sam": sam.id}


def spawn(world: dict[str, Any], *args: str, env: dict[str, str] | None = None) -> pexpect.spawn:
    return pexpect.spawn(AVATAR, list(args), env={**world["env"], **(env or {})}, encoding="utf-8", timeout=TIMEOUT,
                         dimensions=(50, 140))


async def test_chat_prints_the_reply_as_the_model_writes_it(world: dict[str, Any]) -> None:
    """With a language model that writes a word every 0.15 s, the first words are on the terminal well before
    the model has finished: the pieces are printed as they arrive, not the finished reply."""
    reply = "Sure thing. We brew with beans from a small farm in Colombia, roasted every Monday morning."
    with FakeModel(lambda body: Say(reply, delay=0.15)) as model:
        chat = spawn(world, "chat", "Ava", env={"AVATAR_DIALOGUE_BASE_URL": model.base_url})
        chat.expect_exact("you> ")
        chat.sendline("Where do your beans come from?")
        chat.expect_exact("Ava> ")
        seen: list[tuple[float, str]] = [(time.monotonic(), chat.buffer)] if chat.buffer else []
        chat.buffer = ""
        while "you> " not in "".join(text for _, text in seen):
            seen.append((time.monotonic(), chat.read_nonblocking(4096, timeout=TIMEOUT)))
        chat.sendeof()
        chat.expect(pexpect.EOF)
        chat.close()
    printed = "".join(text for _, text in seen).split("you> ")[0].strip()
    assert printed == reply
    first_words = next(at for at, text in seen if text.strip())
    assert model.finished_at and first_words < model.finished_at[0] - 1.0  # about 2 s of the reply still to come
    assert len([text for _, text in seen if text.strip()]) >= 5  # it came in many pieces


def open_service(world: dict[str, Any]) -> Any:
    return avatar_service.open(world["url"], worker=False, embedder="lexical", data_dir=world["dir"])


async def test_chat_is_a_real_conversation_ended_by_ctrl_d(world: dict[str, Any]) -> None:
    chat = spawn(world, "chat", "Ava", "--user", "sam")
    chat.expect(r"Talking with Ava \((conv_[\w-]+)\)")
    conversation_id = chat.match.group(1)
    chat.expect_exact("you> ")
    chat.sendline("Hi! My name is Sam and I work as a nurse in Porto.")
    chat.expect_exact("Ava> ")
    chunks = [chat.buffer] if chat.buffer else []  # what arrived with the prompt, then the rest as it comes
    chat.buffer = ""
    while "you> " not in "".join(chunks):
        chunks.append(chat.read_nonblocking(4096, timeout=TIMEOUT))
    reply = "".join(chunks).split("you> ")[0].strip()
    assert reply and "Sam" in reply
    chat.sendeof()  # Ctrl-D ends the conversation
    chat.expect(r"conversation ended: 1 turns.*Ava remembers (\d+) new things")
    remembered = int(chat.match.group(1))
    chat.expect(pexpect.EOF)
    chat.close()
    assert chat.exitstatus == 0

    async with open_service(world) as svc:
        conversation = await svc.conversations.get(world["org"], conversation_id, include_transcript=True)
        assert conversation.status == "ended" and conversation.user_id == world["sam"]
        assert [(t.role, t.content) for t in conversation.transcript or []] == [
            ("user", "Hi! My name is Sam and I work as a nurse in Porto."), ("assistant", reply)]
        memories = (await svc.memories.list(world["org"], world["sam"], PageRequest(limit=50))).data
        extracted = [m for m in memories if m.source.type == "conversation"]
        assert len(extracted) == remembered >= 1
        assert all(m.source.conversation_id == conversation_id for m in extracted)


async def test_play_tic_tac_toe_to_the_end_on_a_drawn_grid(world: dict[str, Any]) -> None:
    game = spawn(world, "play", "tic_tac_toe", "Ava", "--user", world["sam"])
    game.expect(r"tic_tac_toe with Ava \((gs_[\w-]+)\)")
    session_id = game.match.group(1)
    game.expect_exact("───┼───┼───")  # the grid, empty cells numbered
    game.expect_exact("your move> ")
    game.sendline("9")
    game.expect_exact("not a valid move")  # answered in-band by the service, the game goes on
    for cell in range(9):  # every cell in turn: taken ones are refused in-band, so the board fills up
        if game.expect_exact(["your move> ", "Ava wins.", "You win!", "A draw."]) != 0:
            break
        game.sendline(str(cell))
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 0

    async with open_service(world) as svc:
        session = await svc.games.get(world["org"], session_id)
        assert session.status == "completed" and session.winner in ("user", "personality", "draw")
        assert session.user_id == world["sam"] and session.move_count >= 5


async def test_play_chess_draws_the_board_and_quit_abandons(world: dict[str, Any]) -> None:
    game = spawn(world, "play", "chess", "Ava", "--difficulty", "easy")
    game.expect(r"chess with Ava \((gs_[\w-]+)\)")
    session_id = game.match.group(1)
    game.expect_exact("a b c d e f g h")  # the diagram from the FEN, white (the user) at the bottom
    game.expect_exact("your move> ")
    game.sendline("e2e4")
    game.expect(r"Ava plays (\S+)")
    game.expect_exact("4 |·|·|·|·|♙|")  # the pawn stands on e4
    game.expect_exact("your move> ")
    game.sendline("Nf3")  # SAN works too
    game.expect_exact("Ava plays")
    game.expect_exact("your move> ")
    game.sendline("quit")
    game.expect_exact("Game abandoned.")
    game.expect(pexpect.EOF)
    game.close()
    assert game.exitstatus == 0

    async with open_service(world) as svc:
        session = await svc.games.get(world["org"], session_id)
        assert session.status == "abandoned" and session.move_count == 4
        assert session.state["history"][0] == "e2e4" and session.state["history"][2] == "g1f3"
