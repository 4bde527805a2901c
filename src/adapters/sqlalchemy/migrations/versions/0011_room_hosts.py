# ruff: noqa
"""room workers and the rooms placed on them: room_hosts, room_placements

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

from avatar_service.adapters.sqlalchemy.tables import UTCDateTime

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'room_hosts',
        sa.Column('id', sa.String(length=96), primary_key=True),
        sa.Column('url', sa.Text(), nullable=False),
        sa.Column('capacity', sa.Integer(), nullable=False),
        sa.Column('started_at', UTCDateTime(), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
    )
    op.create_table(
        'room_placements',
        sa.Column('conversation_id', sa.String(length=96), primary_key=True),
        sa.Column('organization_id', sa.String(length=96), nullable=False),
        sa.Column('host_id', sa.String(length=96), nullable=False),
        sa.Column('placed_at', UTCDateTime(), nullable=False),
    )
    op.create_index('ix_room_placements_host', 'room_placements', ['host_id'])


def downgrade() -> None:
    op.drop_index('ix_room_placements_host', table_name='room_placements')
    op.drop_table('room_placements')
    op.drop_table('room_hosts')
