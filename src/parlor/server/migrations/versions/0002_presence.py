"""Away state shared by every process: a seat's ``away`` flag, and who holds which seat where.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlor_seats") as batch:  # (SQLite alters by copying the table)
        batch.add_column(sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "parlor_presence",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("parlor_presence")
    with op.batch_alter_table("parlor_seats") as batch:
        batch.drop_column("away")
