"""avatar_service: self-hostable conversational avatars (library, HTTP API and CLI).

    async with avatar_service.open("sqlite+aiosqlite:///./var/avatar.db") as avatars:
        org = await avatars.organization()
        ava = await avatars.personalities.create(org.id, PersonalityCreate(name="Ava"))
"""

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "open", "settle_heap"]


def open(database_url: str | None = None, **kwargs: Any) -> Any:
    """See avatar_service.embedded.open (imported lazily: `import avatar_service` stays light)."""
    from avatar_service.embedded import open as open_service

    return open_service(database_url, **kwargs)


def settle_heap() -> None:
    """For a long-lived process embedding the service, once it has started (what `avatar serve` does): the objects
    that exist now are kept out of the garbage collector's full passes, and its young generation is collected
    every 7,000 allocations instead of 700 (entrypoints/heap.py says why). Calling it again does nothing."""
    from avatar_service.entrypoints.heap import settle

    settle()
