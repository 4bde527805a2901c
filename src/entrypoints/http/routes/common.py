"""Parameter types shared by the routes."""

from typing import Annotated

from litestar.params import QueryParameter

from avatar_service.core.pagination import DEFAULT_LIMIT, MAX_LIMIT, PageRequest, page_request

# The page size as a query parameter; the bounds are the core's (page_request checks them for every caller).
Limit = Annotated[int, QueryParameter(ge=1, le=MAX_LIMIT,
                                      description=f"Page size, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT}).")]
Cursor = Annotated[str | None, QueryParameter(max_length=512, description="`next_cursor` of the previous page.")]


def page(limit: int, cursor: str | None) -> PageRequest:
    return page_request(limit, cursor)
