"""`avatar keys create|list|revoke`, straight on the use cases (no server needed)."""

import msgspec
import typer
from rich.console import Console
from rich.table import Table

from avatar_service.core.errors import AvatarError
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.validation import parse
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.cli import runtime

app = typer.Typer(help="API keys.", no_args_is_help=True)
Organization = typer.Option("default", "--organization", help="Organization slug (created when missing).")
Json = typer.Option(False, "--json", help="Print JSON instead of text.")


def _fail(error: AvatarError) -> None:
    typer.echo(f"error: {error.message}" + (f" ({error.param})" if error.param else ""), err=True)
    raise typer.Exit(1)


@app.command("create")
def create(name: str = typer.Option(..., help="Display name."),
           scopes: str = typer.Option("*", help="Comma-separated: *, read, write, conversations, chat, voice, video."),
           organization: str = Organization, as_json: bool = Json) -> None:
    """Create a key; prints its secret (shown only this once)."""

    async def work() -> bytes | str:
        container = await runtime.migrated(runtime.settings())
        try:
            keys: ApiKeys = container.resolve(ApiKeys)
            data = parse(ApiKeyCreate, {"name": name, "scopes": [s.strip() for s in scopes.split(",") if s.strip()]})
            org = await keys.organization(organization)
            created = await keys.create(org.id, data)
            return msgspec.json.encode(created) if as_json else created.secret
        finally:
            await container.resolve(bootstrap.Storage).close()

    try:
        out = runtime.run(work)
    except AvatarError as error:
        _fail(error)
    typer.echo(out.decode() if isinstance(out, bytes) else out)


@app.command("list")
def list_keys(organization: str = Organization, as_json: bool = Json) -> None:
    """List the organization's keys (never their secrets)."""

    async def work() -> list[object]:
        container = await runtime.migrated(runtime.settings())
        try:
            keys: ApiKeys = container.resolve(ApiKeys)
            org = await keys.organization(organization)
            found: list[object] = []
            request = PageRequest(limit=100)
            while True:
                page = await keys.list(org.id, request)
                found += page.data
                if not page.has_more or not page.data:
                    return found
                last = page.data[-1]
                request = PageRequest(limit=100, after=(last.created_at, last.id))  # type: ignore[attr-defined]
        finally:
            await container.resolve(bootstrap.Storage).close()

    found = runtime.run(work)
    if as_json:
        typer.echo(msgspec.json.encode({"data": found}).decode())
        return
    table = Table("id", "name", "prefix", "scopes", "created", "last used")
    for key in found:
        table.add_row(key.id, key.name, key.key_prefix, ",".join(key.scopes),  # type: ignore[attr-defined]
                      f"{key.created_at:%Y-%m-%d %H:%M}",  # type: ignore[attr-defined]
                      f"{key.last_used_at:%Y-%m-%d %H:%M}" if key.last_used_at else "-")  # type: ignore[attr-defined]
    Console().print(table)


@app.command("revoke")
def revoke(key_id: str, organization: str = Organization) -> None:
    """Revoke a key: it gets 401 from then on."""

    async def work() -> None:
        container = await runtime.migrated(runtime.settings())
        try:
            keys: ApiKeys = container.resolve(ApiKeys)
            org = await keys.organization(organization)
            await keys.revoke(org.id, key_id)
        finally:
            await container.resolve(bootstrap.Storage).close()

    try:
        runtime.run(work)
    except AvatarError as error:
        _fail(error)
    typer.echo(f"revoked {key_id}", err=True)
