"""Standard Webhooks signing, checked against the independent `standardwebhooks` package both ways."""

from __future__ import annotations

import base64
import json
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from avatar_service.core.webhooks import InvalidSignature, headers, new_secret, sign, verify

BODY = json.dumps({"id": "evt_123", "type": "memory.created", "data": {"x": "é"}}).encode()


def test_new_secret_is_whsec_base64_of_enough_random_bytes() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) >= 24
    assert new_secret() != secret


def test_our_signature_passes_their_verify() -> None:
    secret = new_secret()
    now = int(time.time())
    sent = headers(secret, "evt_123", now, BODY)
    assert set(sent) == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    assert sent["webhook-signature"].startswith("v1,")
    assert Webhook(secret).verify(BODY, sent) == json.loads(BODY)


def test_their_signature_passes_our_verify() -> None:
    secret = new_secret()
    now = int(time.time())
    theirs = Webhook(secret).sign("evt_9", _dt(now), BODY.decode())
    assert theirs == sign(secret, "evt_9", now, BODY)
    verify(secret, {"Webhook-Id": "evt_9", "Webhook-Timestamp": str(now), "Webhook-Signature": theirs}, BODY)


def test_tampered_body_is_rejected_by_both() -> None:
    secret = new_secret()
    sent = headers(secret, "evt_1", int(time.time()), BODY)
    tampered = BODY.replace(b"memory", b"memorY")
    with pytest.raises(InvalidSignature):
        verify(secret, sent, tampered)
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(tampered, sent)


def test_tampered_timestamp_or_id_is_rejected() -> None:
    secret = new_secret()
    now = int(time.time())
    sent = headers(secret, "evt_1", now, BODY)
    with pytest.raises(InvalidSignature):
        verify(secret, {**sent, "webhook-timestamp": str(now + 1)}, BODY)
    with pytest.raises(InvalidSignature):
        verify(secret, {**sent, "webhook-id": "evt_2"}, BODY)


def test_wrong_secret_is_rejected() -> None:
    sent = headers(new_secret(), "evt_1", int(time.time()), BODY)
    with pytest.raises(InvalidSignature):
        verify(new_secret(), sent, BODY)


def test_stale_and_future_timestamps_are_rejected() -> None:
    secret = new_secret()
    sent = headers(secret, "evt_1", 1_000_000, BODY)
    verify(secret, sent, BODY, now=1_000_000 + 300)
    with pytest.raises(InvalidSignature, match="tolerance"):
        verify(secret, sent, BODY, now=1_000_000 + 301)
    with pytest.raises(InvalidSignature, match="tolerance"):
        verify(secret, sent, BODY, now=1_000_000 - 301)


def test_one_matching_signature_among_several_is_enough() -> None:
    old, new = new_secret(), new_secret()
    now = int(time.time())
    both = f"v1,{'A' * 44} {sign(old, 'evt_1', now, BODY)} v2,zzz {sign(new, 'evt_1', now, BODY)}"
    sent = {"webhook-id": "evt_1", "webhook-timestamp": str(now), "webhook-signature": both}
    verify(old, sent, BODY)
    verify(new, sent, BODY)
    Webhook(new).verify(BODY, sent)


@pytest.mark.parametrize(
    "broken",
    [
        {"webhook-signature": "v2," + "A" * 44},
        {"webhook-signature": "v1,not base64!"},
        {"webhook-signature": ""},
        {"webhook-timestamp": "soon"},
        {"webhook-id": ""},
    ],
)
def test_malformed_headers_are_rejected(broken: dict[str, str]) -> None:
    secret = new_secret()
    sent = {**headers(secret, "evt_1", int(time.time()), BODY), **broken}
    with pytest.raises(InvalidSignature):
        verify(secret, sent, BODY)


def test_secret_without_prefix_signs_the_same() -> None:
    secret = new_secret()
    assert sign(secret.removeprefix("whsec_"), "m", 1, b"x") == sign(secret, "m", 1, b"x")


def _dt(ts: int) -> datetime:
    """The reference package takes its timestamp as a datetime."""
    return datetime.fromtimestamp(ts, tz=UTC)
