"""Work notifications: PostgreSQL tells idle workers about new jobs and events at commit

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# One NOTIFY per statement; PostgreSQL folds identical notifications of a transaction into one and sends it
# at commit, so a worker never wakes for work it cannot see yet. SQLite has no NOTIFY (one process there).
FUNCTION = """
CREATE OR REPLACE FUNCTION avatar_notify_work() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('avatar_work', TG_TABLE_NAME);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    for table in ("jobs", "outbox"):
        op.execute(f"CREATE TRIGGER avatar_notify_{table} AFTER INSERT ON {table} "
                   "FOR EACH STATEMENT EXECUTE FUNCTION avatar_notify_work()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in ("jobs", "outbox"):
        op.execute(f"DROP TRIGGER IF EXISTS avatar_notify_{table} ON {table}")
    op.execute("DROP FUNCTION IF EXISTS avatar_notify_work()")
