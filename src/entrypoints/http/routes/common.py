"""Parameter types shared by the routes."""

from typing import Annotated

from litestar.params import QueryParameter

from avatar_service.core.pagination import PageRequest, page_request

Limit = Annotated[int, QueryParameter(ge=1, le=100, description="Page size, 1 to 100 (default 20).")]
Cursor = Annotated[str | None, QueryParameter(max_length=512, description="`next_cursor` of the previous page.")]


def page(limit: int, cursor: str | None) -> PageRequest:
    return page_request(limit, cursor)
