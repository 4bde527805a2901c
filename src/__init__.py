"""avatar_service: self-hostable conversational avatars (library, HTTP API and CLI).

    async with avatar_service.open("sqlite+aiosqlite:///./var/avatar.db") as avatars:
        org = await avatars.organization()
        ava = await avatars.personalities.create(org.id, PersonalityCreate(name="Ava"))
"""

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "open"]


def open(database_url: str | None = None, **kwargs: Any) -> Any:
    """See avatar_service.embedded.open (imported lazily: `import avatar_service` stays light)."""
    from avatar_service.embedded import open as open_service

    return open_service(database_url, **kwargs)
