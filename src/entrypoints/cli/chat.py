"""`avatar chat PERSONALITY`: a real text conversation in the terminal, the replies streamed as they print."""

import sys
from collections.abc import AsyncIterator

import typer

from avatar_service.entrypoints.cli.backends import Backend
from avatar_service.entrypoints.cli.common import Cli, command, errors, find_personality, find_user

app = typer.Typer()


def ask(prompt: str) -> str | None:
    """One line from the user; None at Ctrl-D or Ctrl-C (both end the conversation cleanly)."""
    try:
        import readline  # noqa: F401  (line editing and history for input(), where the platform has it)
    except ImportError:
        pass
    try:
        return input(prompt)
    except (EOFError, KeyboardInterrupt):
        sys.stdout.write("\n")
        return None


def show(name: str, text: str) -> None:
    sys.stdout.write(f"{name}> {text}\n\n")
    sys.stdout.flush()


async def stream(name: str, pieces: AsyncIterator[str]) -> None:
    """Prints the reply's pieces as the engine writes them (over HTTP they come as server-sent events)."""
    sys.stdout.write(f"{name}> ")
    sys.stdout.flush()
    try:
        async for piece in pieces:
            sys.stdout.write(piece)
            sys.stdout.flush()
    finally:
        sys.stdout.write("\n\n")
        sys.stdout.flush()


async def _conversation(cli: Cli, api: Backend, personality: str, user: str | None, mode: str,
                        greeting: str | None) -> None:
    found = await find_personality(api, personality)
    name = found["name"]
    body = {"personality_id": found["id"], "mode": mode, "user_id": await find_user(api, user)}
    if greeting:
        body["initial_message"] = greeting
    conversation = await api.call("conversations.create", body={k: v for k, v in body.items() if v is not None})
    conversation_id = conversation["id"]
    errors.print(f"Talking with {name} ({conversation_id}). Type /quit or press Ctrl-D to end.")
    if greeting:
        show(name, greeting)
    turns = 0
    try:
        while (line := ask("you> ")) is not None:
            if line.strip() in ("/quit", "/exit"):
                break
            if not line.strip():
                continue
            await stream(name, api.say_streamed(conversation_id, line))
            turns += 1
    finally:  # the conversation ends however the loop does, so its memories are extracted
        ended = await api.call("conversations.end", conversation_id)
        await api.settle()
    summary = f"conversation {ended['status']}: {turns} turns, {ended.get('duration') or 0} s"
    if body.get("user_id") and not cli.remote:  # embedded, extraction has just run in this process
        memories = await api.call("memories.list", body["user_id"], query={"limit": 100})
        learned = [m for m in memories["data"] if (m.get("source") or {}).get("conversation_id") == conversation_id]
        summary += f"; {name} remembers {len(learned)} new things"
    errors.print(summary)
    if cli.json:
        cli.dump(await api.call("conversations.get", conversation_id, query={"include_transcript": True}))


@command(app, "chat")
async def chat(cli: Cli, personality: str = typer.Argument(..., help="personality_... or its name."),
               user: str | None = typer.Option(None, "--user", help="user_... or an external_id: the conversation "
                                                                    "is theirs and what it reveals is remembered."),
               mode: str = typer.Option("voice", help="Conversation mode: voice, video or voice_video (the "
                                                      "terminal is text either way; over HTTP it decides the scopes)."),
               greeting: str | None = typer.Option(None, help="The personality's opening line.")) -> None:
    """Talk with a personality in the terminal; Ctrl-D (or /quit) ends the conversation."""
    async with cli.connect() as api:
        await _conversation(cli, api, personality, user, mode, greeting)
