"""The first schema: tables, seats, the action log and chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlor_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("meta_rev", sa.Integer, nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False, index=True),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "parlor_seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("bot_options", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    )
    op.create_table(
        "parlor_actions",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("actor", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "parlor_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("parlor_tables.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlor_chat")
    op.drop_table("parlor_actions")
    op.drop_table("parlor_seats")
    op.drop_table("parlor_tables")
