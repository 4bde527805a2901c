# ruff: noqa
"""transcript interrupted: a reply cut short (stream left, engine failed, spoken over) is stored marked so

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('transcript_items') as batch:
        batch.add_column(sa.Column('interrupted', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('transcript_items') as batch:
        batch.drop_column('interrupted')
