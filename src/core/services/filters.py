"""Optional list filters: a filter the caller left out is not a filter on NULL."""

from typing import Any


def given(**filters: Any) -> dict[str, Any]:
    return {name: value for name, value in filters.items() if value is not None}
