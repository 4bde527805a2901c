"""SQLAlchemy Core storage: SQLite (embedded default) and PostgreSQL."""

from avatar_service.adapters.sqlalchemy.storage import SqlStorage

__all__ = ["SqlStorage"]
