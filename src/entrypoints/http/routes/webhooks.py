"""/v1/webhooks: endpoints, test deliveries and the delivery log. Needs the `*` scope."""

from litestar import Router, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from avatar_service.core.model import (
    Deleted,
    Page,
    Webhook,
    WebhookCreate,
    WebhookDelivery,
    WebhookList,
    WebhookPatch,
    WebhookWithSecret,
)
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@post("/", status_code=201, opt=scopes("*"))
async def create_webhook(
    data: JSONBody[WebhookCreate], webhooks: NamedDependency[Webhooks], caller: NamedDependency[Caller]
) -> WebhookWithSecret:
    return await webhooks.create(caller.organization_id, data)


@get("/", opt=scopes("*"))
async def list_webhooks(webhooks: NamedDependency[Webhooks], caller: NamedDependency[Caller]) -> WebhookList:
    return await webhooks.list(caller.organization_id)


@get("/{webhook_id:str}", opt=scopes("*"))
async def get_webhook(
    webhook_id: FromPath[str], webhooks: NamedDependency[Webhooks], caller: NamedDependency[Caller]
) -> Webhook:
    return await webhooks.get(caller.organization_id, webhook_id)


@patch("/{webhook_id:str}", opt=scopes("*"))
async def update_webhook(
    webhook_id: FromPath[str],
    data: JSONBody[WebhookPatch],
    webhooks: NamedDependency[Webhooks],
    caller: NamedDependency[Caller],
) -> Webhook:
    return await webhooks.update(caller.organization_id, webhook_id, data)


@delete("/{webhook_id:str}", status_code=200, opt=scopes("*"))
async def delete_webhook(
    webhook_id: FromPath[str], webhooks: NamedDependency[Webhooks], caller: NamedDependency[Caller]
) -> Deleted:
    return await webhooks.delete(caller.organization_id, webhook_id)


@post("/{webhook_id:str}/test", status_code=200, opt=scopes("*"))
async def test_webhook(
    webhook_id: FromPath[str], webhooks: NamedDependency[Webhooks], caller: NamedDependency[Caller]
) -> WebhookDelivery:
    return await webhooks.test(caller.organization_id, webhook_id)


@get("/{webhook_id:str}/deliveries", opt=scopes("*"))
async def list_deliveries(
    webhook_id: FromPath[str],
    webhooks: NamedDependency[Webhooks],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
) -> Page[WebhookDelivery]:
    return await webhooks.deliveries(caller.organization_id, webhook_id, page(limit, cursor))


router = Router(
    "/webhooks",
    tags=["Webhooks"],
    route_handlers=[
        create_webhook,
        list_webhooks,
        get_webhook,
        update_webhook,
        delete_webhook,
        test_webhook,
        list_deliveries,
    ],
)
