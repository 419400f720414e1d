"""The database schema (SQLAlchemy 2 declarative models); Alembic migrations create and change it.

A table is stored as what the engine needs to rebuild it exactly: the game's name, its settings, its
seed and the ordered action log, plus now and then a snapshot of the engine's state that loads
without replaying the log. Everything else is the service's own state: seats, status, chat.
Secrets (seat tokens, the invite, the host's key) are stored only as SHA-256 digests.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "parlor_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    #: the create request, normalised (edition, options, seat plan, timer, language...) as JSON
    config: Mapped[str] = mapped_column(Text)
    #: the engine's settings once the game exists (names fixed at start), as JSON
    settings: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the game's seed: until the start the committed seed, from then on the one derived from it
    #: and the seats' nonces (parlor.core.fairness)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12), index=True)  # waiting, running, paused, over
    version: Mapped[int] = mapped_column(Integer, default=0)  # actions committed
    meta_rev: Mapped[int] = mapped_column(Integer, default=0)  # seats/status changes
    invite_hash: Mapped[str] = mapped_column(String(64), index=True)
    host_hash: Mapped[str] = mapped_column(String(64))
    listed: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    #: verifiable randomness (none for an imported game): the seed committed to at creation, the
    #: salt (hex) and the published commitment; the nonces of the seats (JSON) once started.
    #: The seed and the salt are secret until the end; only the commitment is ever sent before.
    committed_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    nonces: Mapped[str | None] = mapped_column(Text, nullable=True)


class SeatRow(Base):
    __tablename__ = "parlor_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot_options: Mapped[str] = mapped_column(Text, default="{}")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: played by the stand-in since its person has been gone longer than the grace period
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the nonce the seat's client added (hex), fixed once given; counts only until the start
    nonce: Mapped[str | None] = mapped_column(String(64), nullable=True)


class PresenceRow(Base):
    """A server process holds a connection for a seat (several processes share one PostgreSQL).

    Each process refreshes ``seen_at`` of its rows while it runs; a row not refreshed for a while
    belongs to a process that died and counts for nothing.
    """

    __tablename__ = "parlor_presence"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float, index=True)


class ActionRow(Base):
    __tablename__ = "parlor_actions"

    # (table, seq) is the primary key: two writers racing for the same step cannot both commit.
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(8))  # seat, bot, standin
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    __tablename__ = "parlor_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)


class SnapshotRow(Base):
    """The newest saved engine state of a table (``parlor.core.state.export_state``).

    Only an accelerator: the action log stays the record. It holds the hidden state and the
    random generator's, so only the loading server reads it; nothing of it is ever sent.
    """

    __tablename__ = "parlor_snapshots"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("parlor_tables.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)  # actions it covers (the log's first ones)
    #: ``engine_fingerprint()`` of the rules that wrote it: other rules replay instead
    engine: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the engine's ``snapshot()`` (sorted JSON) at that version: checked on load
    digest: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
