# ruff: noqa
"""personality tools: the functions a language model may call, and the secret their calls are signed with

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('personalities') as batch:
        batch.add_column(sa.Column('tools', sa.JSON(), nullable=False, server_default='[]'))
        batch.add_column(sa.Column('tool_signing_secret', sa.String(length=128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('personalities') as batch:
        batch.drop_column('tool_signing_secret')
        batch.drop_column('tools')
