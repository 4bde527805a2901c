# ruff: noqa
"""room turns' metrics, recordings and why a conversation ended: transcript_items.metrics (JSON),
conversations.recording_key and conversations.end_reason

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('transcript_items') as batch:
        batch.add_column(sa.Column('metrics', sa.JSON(), nullable=True))
    with op.batch_alter_table('conversations') as batch:
        batch.add_column(sa.Column('end_reason', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('recording_key', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('conversations') as batch:
        batch.drop_column('recording_key')
        batch.drop_column('end_reason')
    with op.batch_alter_table('transcript_items') as batch:
        batch.drop_column('metrics')
