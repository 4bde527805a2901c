"""`avatar knowledge add|list|get|search|delete`: what a personality knows; `add` waits while it processes."""

import time
from pathlib import Path
from typing import Any

import anyio
import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from avatar_service.entrypoints.cli.backends import Backend
from avatar_service.entrypoints.cli.common import Cli, Column, command, console, drop_none
from avatar_service.entrypoints.cli.common import personality_id as _pid

app = typer.Typer(help="Knowledge: texts, web pages, feeds and documents a personality draws on.",
                  no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("type", "type"), ("status", "status"), ("name", "name"),
                         ("chunks", "chunk_count"), ("tokens", "token_count"), ("error", "error.code"),
                         ("created", "created_at")]
PersonalityId = typer.Argument(..., help="personality_... or its name.")
ItemId = typer.Argument(..., help="kb_...")
FINAL = ("ready", "failed")


async def wait(cli: Cli, api: Backend, personality_id: str, item: dict[str, Any], patience: float) -> dict[str, Any]:
    """Polls the item until ready or failed, showing its status as it goes (nothing extra with --json)."""
    deadline = time.monotonic() + patience
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=console,
                  disable=cli.json, transient=True) as progress:
        task = progress.add_task(f"{item['name'] or item['id']}: {item['status']}")
        while item["status"] not in FINAL and time.monotonic() < deadline:
            await anyio.sleep(0.25)
            item = await api.call("knowledge.get", personality_id, item["id"])
            progress.update(task, description=f"{item['name'] or item['id']}: {item['status']}")
    return item


@command(app, "add")
async def add(cli: Cli, personality: str = PersonalityId,
              text: str | None = typer.Option(None, help="Plain text to know."),
              url: str | None = typer.Option(None, help="A web page (or PDF, ...) to fetch."),
              feed: str | None = typer.Option(None, help="An RSS or Atom feed: every entry."),
              file: Path | None = typer.Option(None, exists=True, dir_okay=False, help="A local document to upload."),
              name: str | None = typer.Option(None, help="Display name (default: from the source)."),
              refresh_interval: str | None = typer.Option(None, "--refresh-interval",
                                                          help="hourly, daily, weekly or never (URLs, feeds)."),
              wait_: bool = typer.Option(True, "--wait/--no-wait", help="Wait until it is ready or failed."),
              patience: float = typer.Option(600.0, "--timeout", help="Seconds to wait at most.")) -> None:
    """Add one knowledge item (exactly one of --text, --url, --feed, --file) and follow its processing."""
    given = [option for option, value in (("--text", text), ("--url", url), ("--feed", feed), ("--file", file))
             if value is not None]
    if len(given) != 1:
        raise typer.BadParameter("give exactly one of --text, --url, --feed, --file", param_hint="source")
    fields = drop_none(name=name, refresh_interval=refresh_interval)
    async with cli.connect(jobs=wait_) as api:  # embedded, this process does the processing while it waits
        personality_id = str(await _pid(api, personality))
        if file is not None:
            item = await api.upload(personality_id, file, fields)
        elif text is not None:
            item = await api.call("knowledge.add", personality_id, body={"type": "text", "content": text, **fields})
        else:
            item = await api.call("knowledge.add", personality_id,
                                  body={"type": "url" if url else "feed", "url": url or feed, **fields})
        if wait_:
            item = await wait(cli, api, personality_id, item, patience)
    cli.show(item)
    if item["status"] == "failed":
        error = item.get("error") or {}
        cli.done(f"failed: {error.get('message')} ({error.get('code')})")
        raise typer.Exit(1)
    if item["status"] == "ready":
        cli.done(f"ready: {item['chunk_count']} chunks, {item['token_count']} tokens")
    elif wait_:
        cli.done(f"still {item['status']} after {patience:g} s")


@command(app, "list")
async def list_(cli: Cli, personality: str = PersonalityId,
                type_: str | None = typer.Option(None, "--type", help="document, url, text or feed."),
                limit: int = typer.Option(20, help="Page size, 1 to 100."),
                cursor: str | None = typer.Option(None, help="next_cursor of the previous page.")) -> None:
    """List a personality's knowledge items, newest first."""
    async with cli.connect() as api:
        personality_id = str(await _pid(api, personality))
        page = await api.call("knowledge.list", personality_id, query={"type": type_, "limit": limit, "cursor": cursor})
    cli.page(page, COLUMNS, empty="no knowledge yet")


@command(app, "get")
async def get(cli: Cli, personality: str = PersonalityId, item_id: str = ItemId) -> None:
    """Show one knowledge item."""
    async with cli.connect() as api:
        personality_id = str(await _pid(api, personality))
        cli.show(await api.call("knowledge.get", personality_id, item_id))


@command(app, "search")
async def search(cli: Cli, personality: str = PersonalityId, query: str = typer.Argument(..., help="A question."),
                 limit: int = typer.Option(5, help="At most this many chunks, 1 to 100."),
                 min_relevance: float = typer.Option(0.0, "--min-relevance", help="0 to 1.")) -> None:
    """The chunks that best answer a query."""
    async with cli.connect() as api:
        personality_id = str(await _pid(api, personality))
        found = await api.call("knowledge.search", personality_id,
                               body={"query": query, "limit": limit, "min_relevance": min_relevance})
    cli.rows(found, found["data"], [("relevance", "relevance"), ("item id", "knowledge_item_id"),
                                    ("content", "content")], empty="nothing relevant")


@command(app, "delete")
async def delete(cli: Cli, personality: str = PersonalityId, item_id: str = ItemId) -> None:
    """Delete a knowledge item and its chunks."""
    async with cli.connect() as api:
        personality_id = str(await _pid(api, personality))
        cli.deleted(await api.call("knowledge.delete", personality_id, item_id))
