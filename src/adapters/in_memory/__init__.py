"""In-memory storage for unit tests: the same repositories and transactions as the SQL adapter."""

from avatar_service.adapters.in_memory.storage import MemoryStorage

__all__ = ["MemoryStorage"]
