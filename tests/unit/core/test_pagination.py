"""Keyset cursors: round trip, rejection of garbage and bad limits, and complete walks while items arrive."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest

from avatar_service.core.errors import Invalid
from avatar_service.core.model import UserCreate
from avatar_service.core.pagination import DEFAULT_LIMIT, decode_cursor, encode_cursor, page_request

from .conftest import ORG, Core


def test_cursor_round_trip() -> None:
    at = datetime(2025, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)
    cursor = encode_cursor(at, "user_abc")
    assert "=" not in cursor and "/" not in cursor and "+" not in cursor  # safe in a query string
    assert decode_cursor(cursor) == (at, "user_abc")
    assert page_request(5, cursor).after == (at, "user_abc")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage!",
        "abc",
        "====",
        _b64(b"not json"),
        _b64(b'{"created_at": 1}'),
        _b64(b'["2025-01-01T00:00:00Z"]'),
        _b64(b'["not a date", "user_x"]'),
        _b64(b'["2025-01-01T00:00:00", "user_x"]'),  # no time zone
    ],
)
def test_garbage_cursor_is_invalid(cursor: str) -> None:
    with pytest.raises(Invalid) as error:
        page_request(10, cursor)
    assert error.value.param == "cursor"


@pytest.mark.parametrize("limit", [0, -1, 101, 1000])
def test_limit_out_of_range_is_invalid_not_clamped(limit: int) -> None:
    with pytest.raises(Invalid) as error:
        page_request(limit, None)
    assert error.value.param == "limit"


def test_limit_bounds_and_default() -> None:
    assert page_request(None, None).limit == DEFAULT_LIMIT == 20
    assert page_request(1, None).limit == 1 and page_request(100, None).limit == 100
    assert page_request(7, None).after is None


async def test_walk_returns_every_item_once_while_items_are_added(core: Core) -> None:
    # Items share timestamps in threes, so the id breaks ties inside one created_at.
    original = []
    for i in range(23):
        if i % 3 == 0:
            core.clock.advance(1)
        original.append((await core.users.create(ORG, UserCreate(external_id=f"u{i}"))).id)
    seen: list[str] = []
    page = await core.users.list(ORG, page_request(5, None))
    pages = 1
    while True:
        seen += [u.id for u in page.data]
        assert len(page.data) <= 5
        if not page.has_more:
            assert page.next_cursor is None
            break
        assert page.next_cursor is not None
        core.clock.advance(1)  # newer items arrive between pages: they belong before the cursor
        await core.users.create(ORG, UserCreate(external_id=f"late{pages}"))
        page = await core.users.list(ORG, page_request(5, page.next_cursor))
        pages += 1
    assert pages == 5
    assert len(seen) == len(set(seen)) == 23
    assert set(seen) == set(original)
    stored = {u["id"]: u for u in core.storage.rows("users")}
    keys = [(stored[i]["created_at"], i) for i in seen]
    assert keys == sorted(keys, reverse=True)  # newest first, id descending within a timestamp


async def test_filtered_pages_and_exact_last_page(core: Core) -> None:
    for i in range(10):
        await core.users.create(ORG, UserCreate(external_id=f"x{i}"))
    only = await core.users.list(ORG, page_request(10, None), external_id="x3")
    assert [u.external_id for u in only.data] == ["x3"] and only.has_more is False
    full = await core.users.list(ORG, page_request(10, None))
    assert len(full.data) == 10 and full.has_more is False and full.next_cursor is None
    first = await core.users.list(ORG, page_request(9, None))
    assert first.has_more is True
    rest = await core.users.list(ORG, page_request(9, first.next_cursor))
    assert len(rest.data) == 1 and rest.has_more is False
