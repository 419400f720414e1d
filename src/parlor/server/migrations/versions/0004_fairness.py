"""Verifiable randomness: a table's committed seed, salt and commitment, and each seat's nonce.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlor_tables") as batch:  # (SQLite alters by copying the table)
        batch.add_column(sa.Column("committed_seed", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("nonces", sa.Text, nullable=True))
    with op.batch_alter_table("parlor_seats") as batch:
        batch.add_column(sa.Column("nonce", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parlor_seats") as batch:
        batch.drop_column("nonce")
    with op.batch_alter_table("parlor_tables") as batch:
        for name in ("nonces", "commitment", "salt", "committed_seed"):
            batch.drop_column(name)
