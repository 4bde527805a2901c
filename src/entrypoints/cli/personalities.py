"""`avatar personalities create|list|get|update|delete`."""

from typing import Any

import typer

from avatar_service.entrypoints.cli.common import Cli, Column, command, drop_none, parse_json

app = typer.Typer(help="Personalities: name, prompt, voice, appearance, traits.", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("name", "name"), ("description", "description"),
                         ("voice", lambda p: f"{p['voice']['provider']}/{p['voice']['voice_id']}"),
                         ("avatar", "appearance.avatar_id"), ("created", "created_at")]
Limit = typer.Option(20, help="Page size, 1 to 100.")
Cursor = typer.Option(None, help="next_cursor of the previous page.")


def _fields(name: str | None, description: str | None, system_prompt: str | None, voice: str | None,
            appearance: str | None, traits: str | None, metadata: str | None) -> dict[str, Any]:
    return drop_none(name=name, description=description, system_prompt=system_prompt,
                     voice=parse_json(voice, "voice"), appearance=parse_json(appearance, "appearance"),
                     traits=parse_json(traits, "traits"), metadata=parse_json(metadata, "metadata"))


Description = typer.Option(None, help="A brief description.")
Prompt = typer.Option(None, "--system-prompt", help="How the personality behaves.")
Voice = typer.Option(None, help='JSON, e.g. \'{"provider": "openai", "voice_id": "alloy"}\'.')
Appearance = typer.Option(None, help='JSON, e.g. \'{"avatar_id": "ava", "style": "cartoon"}\'.')
Traits = typer.Option(None, help='JSON, each 0..1, e.g. \'{"warmth": 0.9, "humor": 0.2}\'.')
Metadata = typer.Option(None, help="JSON object of your own data.")


@command(app, "create")
async def create(cli: Cli, name: str = typer.Option(..., help="Display name."), description: str | None = Description,
                 system_prompt: str | None = Prompt, voice: str | None = Voice, appearance: str | None = Appearance,
                 traits: str | None = Traits, metadata: str | None = Metadata) -> None:
    """Create a personality."""
    body = _fields(name, description, system_prompt, voice, appearance, traits, metadata)
    async with cli.connect() as api:
        cli.show(await api.call("personalities.create", body=body))


@command(app, "list")
async def list_(cli: Cli, limit: int = Limit, cursor: str | None = Cursor) -> None:
    """List personalities, newest first."""
    async with cli.connect() as api:
        page = await api.call("personalities.list", query={"limit": limit, "cursor": cursor})
    cli.page(page, COLUMNS, empty="no personalities yet: avatar personalities create --name Ava")


@command(app, "get")
async def get(cli: Cli, personality_id: str = typer.Argument(..., help="personality_...")) -> None:
    """Show one personality."""
    async with cli.connect() as api:
        cli.show(await api.call("personalities.get", personality_id))


@command(app, "update")
async def update(cli: Cli, personality_id: str = typer.Argument(..., help="personality_..."),
                 name: str | None = typer.Option(None, help="Display name."), description: str | None = Description,
                 system_prompt: str | None = Prompt, voice: str | None = Voice, appearance: str | None = Appearance,
                 traits: str | None = Traits, metadata: str | None = Metadata) -> None:
    """Change some fields (nested objects are merged: --traits '{"humor": 1}' keeps the other traits)."""
    body = _fields(name, description, system_prompt, voice, appearance, traits, metadata)
    async with cli.connect() as api:
        cli.show(await api.call("personalities.update", personality_id, body=body))


@command(app, "delete")
async def delete(cli: Cli, personality_id: str = typer.Argument(..., help="personality_...")) -> None:
    """Delete a personality."""
    async with cli.connect() as api:
        deleted = await api.call("personalities.delete", personality_id)
    cli.deleted(deleted)
