"""Snapshots: a table's newest saved engine state, to load without replaying its whole log.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_snapshots",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_snapshots")
