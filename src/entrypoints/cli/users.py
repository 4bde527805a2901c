"""`avatar users create|list|get|update|delete`."""

import typer

from avatar_service.entrypoints.cli.common import Cli, Column, command, drop_none, find_user, parse_json

app = typer.Typer(help="Users of your application (memories belong to them).", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("external id", "external_id"), ("memory", "settings.memory_enabled"),
                         ("metadata", "metadata"), ("created", "created_at")]
ExternalId = typer.Option(None, "--external-id", help="Your own identifier for the user (unique).")
Metadata = typer.Option(None, help="JSON object of your own data.")
UserId = typer.Argument(..., help="user_... or an external_id.")
Memory = typer.Option(None, "--memory/--no-memory", help="Remember facts from this user's conversations.")


def _settings(memory: bool | None) -> dict[str, bool] | None:
    return None if memory is None else {"memory_enabled": memory}


@command(app, "create")
async def create(cli: Cli, external_id: str | None = ExternalId, metadata: str | None = Metadata,
                 memory: bool | None = Memory) -> None:
    """Create a user."""
    body = drop_none(external_id=external_id, metadata=parse_json(metadata, "metadata"), settings=_settings(memory))
    async with cli.connect() as api:
        cli.show(await api.call("users.create", body=body))


@command(app, "list")
async def list_(cli: Cli, external_id: str | None = ExternalId,
                limit: int = typer.Option(20, help="Page size, 1 to 100."),
                cursor: str | None = typer.Option(None, help="next_cursor of the previous page.")) -> None:
    """List users, newest first (or the one with --external-id)."""
    async with cli.connect() as api:
        page = await api.call("users.list", query={"limit": limit, "cursor": cursor, "external_id": external_id})
    cli.page(page, COLUMNS, empty="no users")


@command(app, "get")
async def get(cli: Cli, user_id: str = UserId) -> None:
    """Show one user."""
    async with cli.connect() as api:
        cli.show(await api.call("users.get", await find_user(api, user_id)))


@command(app, "update")
async def update(cli: Cli, user_id: str = UserId, external_id: str | None = ExternalId,
                 metadata: str | None = Metadata, memory: bool | None = Memory) -> None:
    """Change a user's external id, metadata or memory setting."""
    body = drop_none(external_id=external_id, metadata=parse_json(metadata, "metadata"), settings=_settings(memory))
    async with cli.connect() as api:
        cli.show(await api.call("users.update", await find_user(api, user_id), body=body))


@command(app, "delete")
async def delete(cli: Cli, user_id: str = UserId) -> None:
    """Delete a user and their memories."""
    async with cli.connect() as api:
        cli.deleted(await api.call("users.delete", await find_user(api, user_id)))
