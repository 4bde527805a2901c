"""`avatar memories add|bulk|list|get|update|search|delete`: what personalities remember about users."""

import csv
import json
from pathlib import Path
from typing import Any

import typer

from avatar_service.entrypoints.cli.common import Cli, Column, command, drop_none, find_user, personality_id

app = typer.Typer(help="Memories: facts about a user, scoped to a personality.", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("content", "content"), ("category", "category"),
                         ("source", "source.type"), ("personality id", "personality_id"), ("created", "created_at")]
BATCH = 100  # the API's cap per bulk request
UserId = typer.Argument(..., help="user_... or an external_id.")
MemoryId = typer.Argument(..., help="mem_...")
Personality = typer.Option(..., "--personality", help="personality_... (or name) the memory is scoped to.")
OnlyPersonality = typer.Option(None, "--personality", help="Only this personality's (id or name).")
Category = typer.Option(None, help="personal, location, preference, relationship, schedule, context or custom.")


@command(app, "add")
async def add(cli: Cli, user_id: str = UserId, content: str = typer.Argument(..., help="The fact, in words."),
              personality: str = Personality, category: str | None = Category) -> None:
    """Add one memory (confidence 1.0, source manual)."""
    async with cli.connect() as api:
        body = drop_none(personality_id=await personality_id(api, personality), content=content, category=category)
        cli.show(await api.call("memories.create", await find_user(api, user_id), body=body))


def read_items(file: Path) -> list[dict[str, Any]]:
    """A JSON list of {content, category?} (or {"memories": [...]}), or a CSV with a `content` column."""
    if file.suffix.lower() == ".csv":
        with file.open(newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.DictReader(handle))
        if rows and "content" not in rows[0]:
            raise typer.BadParameter("the CSV needs a header row with a 'content' column", param_hint="FILE")
        return [drop_none(content=r["content"], category=(r.get("category") or "").strip() or None) for r in rows]
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise typer.BadParameter(f"not JSON: {error}", param_hint="FILE") from None
    if isinstance(data, dict):
        data = data.get("memories")
    if not isinstance(data, list):
        raise typer.BadParameter("expected a JSON list of {content, category} objects", param_hint="FILE")
    return [{"content": item} if isinstance(item, str) else item for item in data]


@command(app, "bulk")
async def bulk(cli: Cli, user_id: str = UserId,
               file: Path = typer.Argument(..., exists=True, dir_okay=False, help="A .json or .csv file."),
               personality: str = Personality) -> None:
    """Add many memories from a JSON or CSV file (sent 100 at a time, the API's cap per request)."""
    items = read_items(file)
    if not items:
        raise typer.BadParameter("the file holds no memories", param_hint="FILE")
    created: list[dict[str, Any]] = []
    async with cli.connect() as api:
        user, personality = await find_user(api, user_id), await personality_id(api, personality)
        for start in range(0, len(items), BATCH):
            body = {"personality_id": personality, "memories": items[start:start + BATCH]}
            created += (await api.call("memories.bulk", user, body=body))["data"]
    result = {"created_count": len(created), "data": created}
    cli.rows(result, created, COLUMNS)
    cli.done(f"created {len(created)} memories")


@command(app, "list")
async def list_(cli: Cli, user_id: str = UserId,
                personality: str | None = OnlyPersonality,
                category: str | None = Category, limit: int = typer.Option(20, help="Page size, 1 to 100."),
                cursor: str | None = typer.Option(None, help="next_cursor of the previous page.")) -> None:
    """List a user's memories, newest first."""
    async with cli.connect() as api:
        query = {"limit": limit, "cursor": cursor, "personality_id": await personality_id(api, personality),
                 "category": category}
        page = await api.call("memories.list", await find_user(api, user_id), query=query)
    cli.page(page, COLUMNS, empty="no memories")


@command(app, "get")
async def get(cli: Cli, user_id: str = UserId, memory_id: str = MemoryId) -> None:
    """Show one memory."""
    async with cli.connect() as api:
        cli.show(await api.call("memories.get", await find_user(api, user_id), memory_id))


@command(app, "update")
async def update(cli: Cli, user_id: str = UserId, memory_id: str = MemoryId,
                 content: str | None = typer.Option(None, help="The new wording."),
                 category: str | None = Category) -> None:
    """Change a memory's content or category."""
    async with cli.connect() as api:
        cli.show(await api.call("memories.update", await find_user(api, user_id), memory_id,
                                body=drop_none(content=content, category=category)))


@command(app, "search")
async def search(cli: Cli, user_id: str = UserId, query: str = typer.Argument(..., help="What to look for."),
                 personality: str | None = OnlyPersonality,
                 limit: int = typer.Option(10, help="At most this many, 1 to 100."),
                 min_relevance: float = typer.Option(0.0, "--min-relevance", help="0 to 1.")) -> None:
    """Semantic search over a user's memories, best first."""
    async with cli.connect() as api:
        body = drop_none(query=query, personality_id=await personality_id(api, personality), limit=limit,
                         min_relevance=min_relevance)
        found = await api.call("memories.search", await find_user(api, user_id), body=body)
    cli.rows(found, found["data"], [("relevance", "relevance"), *COLUMNS[:3]], empty="no memory matches")


@command(app, "delete")
async def delete(cli: Cli, user_id: str = UserId, memory_id: str = MemoryId) -> None:
    """Delete a memory."""
    async with cli.connect() as api:
        cli.deleted(await api.call("memories.delete", await find_user(api, user_id), memory_id))
