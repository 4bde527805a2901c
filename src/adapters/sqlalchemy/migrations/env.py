"""Alembic environment: runs on the connection the service hands over (see migrate.py)."""

from alembic import context

from avatar_service.adapters.sqlalchemy.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True, compare_type=True)
with context.begin_transaction():
    context.run_migrations()
