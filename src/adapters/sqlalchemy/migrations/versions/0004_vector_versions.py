# ruff: noqa
"""vector versions: one counter per vector namespace, so every process knows when its cached index is stale

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('vector_versions',
    sa.Column('namespace', sa.String(length=160), nullable=False),
    sa.Column('version', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('namespace')
    )


def downgrade() -> None:
    op.drop_table('vector_versions')
