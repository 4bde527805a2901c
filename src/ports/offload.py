"""Offload port: runs CPU-heavy or blocking work away from the event loop."""

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Offload(Protocol):
    async def __call__(self, fn: Callable[..., T], *args: Any) -> T: ...
