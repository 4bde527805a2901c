"""`avatar webhooks create|list|get|update|delete|test|deliveries`."""

import typer

from avatar_service.entrypoints.cli.common import Cli, Column, command, drop_none

app = typer.Typer(help="Webhook endpoints, test deliveries and the delivery log.", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("url", "url"), ("events", "events"), ("enabled", "enabled"),
                         ("created", "created_at")]
DELIVERIES: list[Column] = [("id", "id"), ("event", "event_type"), ("status", "status"), ("attempt", "attempt"),
                            ("http", "response_status"), ("ms", "duration_ms"), ("error", "error"),
                            ("created", "created_at")]
WebhookId = typer.Argument(..., help="wh_...")
Events = "Comma-separated: conversation.started, conversation.ended, video.completed, video.failed, " \
         "knowledge.processed, memory.created."


def _events(value: str | None) -> list[str] | None:
    return None if value is None else [e.strip() for e in value.split(",") if e.strip()]


@command(app, "create")
async def create(cli: Cli, url: str = typer.Option(..., help="Where deliveries are POSTed."),
                 events: str = typer.Option(..., help=Events),
                 enabled: bool = typer.Option(True, "--enabled/--disabled", help="Deliver from now on.")) -> None:
    """Create an endpoint; shows its signing secret (only this once)."""
    async with cli.connect() as api:
        cli.show(await api.call("webhooks.create", body={"url": url, "events": _events(events), "enabled": enabled}))


@command(app, "list")
async def list_(cli: Cli) -> None:
    """List endpoints."""
    async with cli.connect() as api:
        found = await api.call("webhooks.list")
    cli.rows(found, found["data"], COLUMNS, empty="no webhooks")


@command(app, "get")
async def get(cli: Cli, webhook_id: str = WebhookId) -> None:
    """Show one endpoint."""
    async with cli.connect() as api:
        cli.show(await api.call("webhooks.get", webhook_id))


@command(app, "update")
async def update(cli: Cli, webhook_id: str = WebhookId, url: str | None = typer.Option(None, help="New URL."),
                 events: str | None = typer.Option(None, help=Events),
                 enabled: bool | None = typer.Option(None, "--enabled/--disabled", help="Turn deliveries on/off.")
                 ) -> None:
    """Change an endpoint's URL, events or enabled flag."""
    async with cli.connect() as api:
        cli.show(await api.call("webhooks.update", webhook_id,
                                body=drop_none(url=url, events=_events(events), enabled=enabled)))


@command(app, "delete")
async def delete(cli: Cli, webhook_id: str = WebhookId) -> None:
    """Delete an endpoint."""
    async with cli.connect() as api:
        cli.deleted(await api.call("webhooks.delete", webhook_id))


@command(app, "test")
async def test(cli: Cli, webhook_id: str = WebhookId) -> None:
    """Send a signed webhook.test delivery now; shows the attempt."""
    async with cli.connect() as api:
        cli.show(await api.call("webhooks.test", webhook_id))


@command(app, "deliveries")
async def deliveries(cli: Cli, webhook_id: str = WebhookId, limit: int = typer.Option(20, help="Page size, 1-100."),
                     cursor: str | None = typer.Option(None, help="next_cursor of the previous page.")) -> None:
    """The endpoint's delivery attempts, newest first."""
    async with cli.connect() as api:
        page = await api.call("webhooks.deliveries", webhook_id, query={"limit": limit, "cursor": cursor})
    cli.page(page, DELIVERIES, empty="no deliveries yet")
