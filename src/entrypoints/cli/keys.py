"""`avatar keys create|list|revoke`: API keys, embedded (the first key) or over HTTP with a `*` key.

Embedded, the CLI is the operator's: `list` shows every organization's keys and `revoke` finds a key by its id in
any organization, unless `--organization` names one. Over HTTP the key's organization is all there is."""

from typing import Any

import typer

from avatar_service.entrypoints.cli.common import Cli, Column, command

app = typer.Typer(help="API keys.", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("name", "name"), ("prefix", "key_prefix"), ("scopes", "scopes"),
                         ("limit/min", "rate_limit_per_minute"), ("created", "created_at"),
                         ("last used", "last_used_at")]


@command(app, "create")
async def create(cli: Cli, name: str = typer.Option(..., help="Display name."),
                 scopes: str = typer.Option("*", help="Comma-separated: *, read, write, conversations, chat, voice, "
                                                      "video."),
                 rate_limit: int | None = typer.Option(None, "--rate-limit", help="Requests a minute for this key "
                                                       "(0: none); default: the deployment's.")) -> None:
    """Create a key; prints its secret alone (shown only this once), or with --json the key plus `secret`."""
    body: dict[str, Any] = {"name": name, "scopes": [s.strip() for s in scopes.split(",") if s.strip()]}
    if rate_limit is not None:
        body["rate_limit_per_minute"] = rate_limit
    async with cli.connect() as api:
        created = await api.call("keys.create", body=body)
    if cli.json:
        cli.dump(created)
    else:
        typer.echo(created["secret"])


@command(app, "list")
async def list_keys(cli: Cli) -> None:
    """List keys (never their secrets): every organization's, unless --organization names one or over HTTP."""
    found: list[dict[str, Any]] = []
    async with cli.connect() as api:
        if cli.every_organization:
            found = (await api.call("keys.list_every"))["data"]
            cli.rows({"data": found}, found, [("organization", "organization"), *COLUMNS],
                     empty="no keys: avatar keys create --name me --scopes '*'")
            return
        cursor = None
        while True:  # every key: an organization has few
            page = await api.call("keys.list", query={"limit": 100, "cursor": cursor})
            found += page["data"]
            cursor = page.get("next_cursor")
            if not page["has_more"] or not cursor:
                break
    cli.rows({"data": found}, found, COLUMNS, empty="no keys: avatar keys create --name me --scopes '*'")


@command(app, "revoke")
async def revoke(cli: Cli, key_id: str = typer.Argument(..., help="key_...")) -> None:
    """Revoke a key: it gets 401 from then on."""
    async with cli.connect() as api:
        revoked = await api.call("keys.revoke_any" if cli.every_organization else "keys.revoke", key_id)
    if cli.json:
        cli.dump(revoked)
    else:
        typer.echo(f"revoked {key_id}", err=True)
