# ruff: noqa
"""read cache and vector changes: PostgreSQL tells every process which cached rows changed; each change to a
namespace's vectors is logged, so a process applies only what changed since the version it holds

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

# The tables the read cache keeps on PostgreSQL (adapters/sqlalchemy/pg_listener.py names the same).
CACHED = ("organizations", "personalities", "users", "memories", "knowledge_items", "conversations",
          "video_generations", "avatars", "game_sessions", "webhooks")

# One notification per statement, sent at commit: the ids an UPDATE or DELETE touched (50 at most, which
# keeps the payload under PostgreSQL's 8000 bytes), or the table's name alone for a bigger change or a
# TRUNCATE (every cached row of that table is dropped). Inserts need none: a missing id is never cached.
FUNCTION = """
CREATE OR REPLACE FUNCTION avatar_cache_notify() RETURNS trigger AS $$
DECLARE
    touched bigint;
    ids text;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('avatar_cache', TG_TABLE_NAME);
        RETURN NULL;
    END IF;
    SELECT count(*), string_agg(id, ',') INTO touched, ids FROM (SELECT id FROM old_rows LIMIT 51) AS first_rows;
    IF touched > 50 THEN
        PERFORM pg_notify('avatar_cache', TG_TABLE_NAME);
    ELSIF touched > 0 THEN
        PERFORM pg_notify('avatar_cache', TG_TABLE_NAME || ':' || ids);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    op.create_table('vector_changes',
    sa.Column('namespace', sa.String(length=160), nullable=False),
    sa.Column('version', sa.BigInteger(), nullable=False),
    sa.Column('vector_id', sa.String(length=96), nullable=False),
    sa.PrimaryKeyConstraint('namespace', 'version', 'vector_id')
    )
    with op.batch_alter_table('vector_versions') as batch:
        batch.add_column(sa.Column('log_floor', sa.BigInteger(), nullable=False, server_default='0'))
    # Versions written before the log existed have no entries: a process holding one reloads in full.
    op.execute("UPDATE vector_versions SET log_floor = version")
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for table in CACHED:
        for event in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER avatar_cache_{event.lower()}_{table} AFTER {event} ON {table} "
                       "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION avatar_cache_notify()")
        op.execute(f"CREATE TRIGGER avatar_cache_truncate_{table} AFTER TRUNCATE ON {table} "
                   "FOR EACH STATEMENT EXECUTE FUNCTION avatar_cache_notify()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in CACHED:
            for event in ("update", "delete", "truncate"):
                op.execute(f"DROP TRIGGER IF EXISTS avatar_cache_{event}_{table} ON {table}")
        op.execute("DROP FUNCTION IF EXISTS avatar_cache_notify()")
    with op.batch_alter_table('vector_versions') as batch:
        batch.drop_column('log_floor')
    op.drop_table('vector_changes')
