"""Webhook endpoints, the events they subscribe to, and delivery attempts."""

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta, Struct

from avatar_service.core.model.common import UNSET, Request, Resource, UnsetType, Url

EventKind = Literal[
    "conversation.started",
    "conversation.ended",
    "video.completed",
    "video.failed",
    "knowledge.processed",
    "memory.created",
]
EVENT_KINDS: tuple[str, ...] = EventKind.__args__  # type: ignore[attr-defined]
Events = Annotated[list[EventKind], Meta(min_length=1, max_length=len(EVENT_KINDS))]


class Webhook(Resource, kw_only=True):
    id: str
    object: Literal["webhook"] = "webhook"
    url: str
    events: list[EventKind]
    created_at: datetime
    enabled: bool = True


class WebhookWithSecret(Webhook, kw_only=True):
    """Returned once, at creation: the only time the signing secret is shown."""

    secret: str


class WebhookRecord(Webhook, kw_only=True):
    organization_id: str
    secret: str
    updated_at: datetime
    # first failure of the current failing streak; the endpoint is disabled after 5 days of it
    failing_since: datetime | None = None


class WebhookList(Resource, kw_only=True):
    data: list[Webhook]


class WebhookCreate(Request, kw_only=True):
    url: Url
    events: Events
    enabled: bool = True


class WebhookPatch(Request, kw_only=True):
    url: Url | UnsetType = UNSET
    events: Events | UnsetType = UNSET
    enabled: bool | UnsetType = UNSET


DeliveryStatus = Literal["pending", "succeeded", "failed"]


class WebhookDelivery(Resource, kw_only=True):
    id: str
    object: Literal["webhook_delivery"] = "webhook_delivery"
    webhook_id: str | None
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempt: int = 0
    response_status: int | None = None
    duration_ms: int | None = None
    error: str | None = None
    next_retry_at: datetime | None = None
    created_at: datetime
    delivered_at: datetime | None = None


class DeliveryRecord(WebhookDelivery, kw_only=True):
    organization_id: str
    url: str
    payload: bytes = b""


class Event(Struct, kw_only=True):
    """An outbox row: written in the same transaction as the change that causes it."""

    id: str
    organization_id: str
    type: str
    created_at: datetime
    data: dict[str, Any]
    # where else to send it (a video's own webhook_url), with its own secret
    target_url: str | None = None
    target_secret: str | None = None
    dispatched: bool = False
