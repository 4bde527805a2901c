# ruff: noqa
"""photo avatars: an organization's uploaded portraits (picture and preview in the blob store, landmarks here)

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

import avatar_service.adapters.sqlalchemy.tables

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('avatars',
    sa.Column('id', sa.String(length=96), nullable=False),
    sa.Column('organization_id', sa.String(length=96), nullable=False),
    sa.Column('name', sa.String(length=255), nullable=False),
    sa.Column('created_at', avatar_service.adapters.sqlalchemy.tables.UTCDateTime(timezone=True), nullable=False),
    sa.Column('updated_at', avatar_service.adapters.sqlalchemy.tables.UTCDateTime(timezone=True), nullable=False),
    sa.Column('image_key', sa.Text(), nullable=False),
    sa.Column('preview_key', sa.Text(), nullable=False),
    sa.Column('width', sa.Integer(), nullable=False),
    sa.Column('height', sa.Integer(), nullable=False),
    sa.Column('face_box', sa.JSON(), nullable=False),
    sa.Column('landmarks', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_avatars_org_created', 'avatars', ['organization_id', 'created_at', 'id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_avatars_org_created', table_name='avatars')
    op.drop_table('avatars')
