"""avatar_service: self-hostable conversational avatars (library, HTTP API and CLI)."""

__version__ = "0.1.0"
