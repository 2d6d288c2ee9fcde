"""Typed SQLAlchemy models: persistence only, no rules.

Store inputs, derive outputs: an evening keeps its rule set snapshot, its seats
and an append-only list of entries (hands, corrections, undos) and cuts. Totals,
sticks, potatoes and payouts are recomputed from those rows by ``scorekeeper.scoring``;
the derived values stored are ``Evening.version`` (the change counter phones poll) and the
outlook's forecasts (``OutlookForecast``: a cache per version, recomputable).
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, CheckConstraint, DateTime, Dialect, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from .extensions import Base, db

if TYPE_CHECKING:  # db.Model is made at run time; for the type checker it is the declarative base
    Model = Base
else:
    Model = db.Model

REQUEST_ID_LEN = 64
QUEUED_AFTER_MAX = 200  # request ids a hand from an offline queue may name (more than an evening has hands)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite hands back naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime; use models.utcnow()")
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def new_public_id() -> str:
    """A random, unguessable public id (16 URL-safe characters)."""
    return secrets.token_urlsafe(12)


# The shape of every public id handed out (evenings, digital tables): url-safe token
# characters. Anything else is refused before it reaches the database.
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_public_id(text: object) -> bool:
    return isinstance(text, str) and PUBLIC_ID.fullmatch(text) is not None


class Circle(Model):
    """A "Jassrunde": players and their evenings, reached only by secret links."""

    __tablename__ = "circles"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    name: Mapped[str] = mapped_column(String(80))
    # sha256 hex of the plain tokens (secrets.token_urlsafe(32)); the plain ones are shown once.
    write_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    view_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The onlookers' token sealed under the write token (services.store.link_seal), so the circle page
    # can show it to the write link's holders; NULL when not known (then a new one shows it).
    view_token_sealed: Mapped[str | None] = mapped_column(String(128))
    # The circle's own Coiffeur (issue 24): a RuleSet.to_dict() snapshot, the default when an
    # evening is started; NULL until the circle saves one (then the four presets are offered).
    house_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="circle", order_by="Player.id", cascade="save-update, merge"
    )
    evenings: Mapped[list[Evening]] = relationship(
        back_populates="circle", order_by="Evening.id", cascade="save-update, merge"
    )

    def __repr__(self) -> str:
        return f"<Circle {self.public_id} {self.name!r}>"


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("circle_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    circle: Mapped[Circle] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"<Player {self.name!r}>"


class Evening(Model):
    __tablename__ = "evenings"
    __table_args__ = (
        # start_evening is idempotent per circle.
        UniqueConstraint("circle_id", "start_request_id"),
        CheckConstraint("status IN ('open', 'ended')", name="status"),
        CheckConstraint("version >= 0", name="version"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id"), index=True)
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)  # RuleSet.to_dict() snapshot
    first_dealer: Mapped[int]
    version: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(String(8), default="open")
    ended_early: Mapped[bool] = mapped_column(default=False)
    # An evening ended early counts in the money totals only if the table said so when ending it.
    counts_in_money: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    start_request_id: Mapped[str | None] = mapped_column(String(REQUEST_ID_LEN))
    # sha256 of what the start request asked (services.store.requests.digest): the same id with
    # another body is refused. NULL for evenings started before it was kept.
    start_digest: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A table that does not want the outlook (issue 13): not computed, not shown; a setting, not a change of the slate.
    outlook_hidden: Mapped[bool] = mapped_column(default=False, server_default=false())
    # when a write last lost a race for this evening (a hint for fair turns: services.store.write_queue.hold_off)
    contended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Deleted as a test evening (housekeeping): the fold of the circle's housekeeping log for this
    # evening, written by the same transaction as the event that changes it (a delete, its undo) so
    # that every read and write knows it from the evening's own row (services.housekeeping).
    deleted: Mapped[bool] = mapped_column(default=False, server_default=false())

    circle: Mapped[Circle] = relationship(back_populates="evenings")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="evening", order_by="Seat.seat", cascade="save-update, merge"
    )
    entries: Mapped[list[EntryRow]] = relationship(
        back_populates="evening", order_by="EntryRow.seq", cascade="save-update, merge"
    )
    cuts: Mapped[list[CutRow]] = relationship(
        back_populates="evening", order_by="CutRow.id", cascade="save-update, merge"
    )

    @property
    def players(self) -> list[Player]:
        """The players in seat order."""
        return [s.player for s in self.seats]

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    def __repr__(self) -> str:
        return f"<Evening {self.public_id} v{self.version} {self.status}>"


class Seat(Model):
    """Who sat where: seats 0..n-1 in playing order (anticlockwise)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("evening_id", "player_id"),)

    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)

    evening: Mapped[Evening] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


class EntryRow(Model):
    """Append-only log of an evening's slate.

    ``kind``: ``hand`` (a new hand), ``correction`` (replaces the entry whose row has
    seq ``supersedes``; the old row stays, so old and new values and the time are
    kept), ``undo`` (takes back the last entry, the row with seq ``supersedes``;
    carries no hand fields). Never updated, never deleted.
    """

    __tablename__ = "entries"
    __table_args__ = (
        UniqueConstraint("evening_id", "seq"),
        UniqueConstraint("evening_id", "request_id"),
        CheckConstraint("kind IN ('hand', 'correction', 'undo')", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"))
    seq: Mapped[int]  # 1, 2, 3... per evening
    kind: Mapped[str] = mapped_column(String(12))
    supersedes: Mapped[int | None]  # seq of the row this one replaces or takes back
    # HandEntry fields (NULL on undo rows)
    row_key: Mapped[str | None] = mapped_column(String(40))
    declarer_seat: Mapped[int | None]
    contract: Mapped[str | None] = mapped_column(String(40))  # Contract.code
    declarer_points: Mapped[int | None]
    defender_points: Mapped[int | None]
    match: Mapped[bool] = mapped_column(default=False)
    countermatch: Mapped[bool] = mapped_column(default=False)
    seich: Mapped[bool] = mapped_column(default=False)
    digital: Mapped[bool] = mapped_column(default=False)  # played in the app, not entered by hand
    # A cell typed from a paper slate: the value written (HandEntry.cell); both piles 0. NULL: a hand.
    cell: Mapped[int | None]
    request_id: Mapped[str] = mapped_column(String(REQUEST_ID_LEN))
    # Who recorded it, as the phone says (a name; there are no accounts). RULES 7: who, when, old, new.
    author: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    evening: Mapped[Evening] = relationship(back_populates="entries")

    def __repr__(self) -> str:
        return f"<EntryRow #{self.seq} {self.kind} {self.row_key}>"


class CutRow(Model):
    """How a tie in a row was decided by cutting cards (three players).

    ``end``: ``high`` (tie for the sticks), ``low`` (for the potatoes) or ``all``
    (three equal cells). ``ranking``: the tied sides from highest card to lowest,
    e.g. ``"2,0"`` (the first is ``winner``); a cut only counts while the slate still
    shows exactly that tie (same row, end and sides). The latest cut for a tie wins.
    """

    __tablename__ = "cuts"
    __table_args__ = (CheckConstraint("end_ IN ('high', 'low', 'all')", name="end"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    row_key: Mapped[str] = mapped_column(String(40))
    end: Mapped[str] = mapped_column("end_", String(4))
    ranking: Mapped[str] = mapped_column(String(16))
    winner: Mapped[int]
    drawn: Mapped[bool] = mapped_column(default=False)  # drawn by the app, or a real cut at the table
    request_id: Mapped[str] = mapped_column(String(REQUEST_ID_LEN))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    evening: Mapped[Evening] = relationship(back_populates="cuts")


class OutlookForecast(Model):
    """An evening's win probabilities at one version (issue 13), simulated once and kept:
    every phone and the API read the same figures, and a poll computes nothing. Derived,
    so it may be dropped and recomputed (the same seed gives the same figures, as long as
    the circle's history is the same); older versions of an evening are removed."""

    __tablename__ = "outlook_forecasts"

    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    forecast: Mapped[dict[str, Any]] = mapped_column(JSON)  # services.read.outlook.forecast_to_dict
    history_hands: Mapped[int]  # recorded hands of the circle's history blended in
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class EveningOutcome(Model):
    """An ended evening's outcome as the circle's memory reads it (``history.summary``),
    kept so that a worker that has never seen the circle need not replay every slate.
    Derived, never an input: it counts only while ``version`` is the evening's version and
    ``format`` is ``history.summary.FORMAT`` (otherwise it is computed from the log and cuts
    again and replaced); it is never exported, a restore computes it anew, and erasing a
    circle erases it. Dropping every row loses nothing."""

    __tablename__ = "evening_outcomes"

    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int]  # the evening's version it was computed from
    format: Mapped[int]  # history.summary.FORMAT it was written in
    summary: Mapped[list[Any]] = mapped_column(JSON)  # history.summary.to_data: the figures
    hands: Mapped[str] = mapped_column(Text)  # ... and the hands, JSON text read when a page needs them
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class RatingRun(Model):
    """A ladder's ratings over a circle's ended evenings (``history.ratings.run``: every game
    in order and the ratings after it), kept so that a worker that has never seen the
    circle need not rate every evening again. Derived, never an input: it is used only as far
    as its games are the circle's games now, in the same order, under the same ``model``
    (``history.ratings.MODEL``); otherwise what differs is rated again and the row replaced.
    Never exported; erasing a circle erases it."""

    __tablename__ = "rating_runs"

    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id", ondelete="CASCADE"), primary_key=True)
    ladder: Mapped[str] = mapped_column(String(8), primary_key=True)  # history.ratings.Ladder
    model: Mapped[str] = mapped_column(String(80))
    games: Mapped[list[Any]] = mapped_column(JSON)  # history.ratings.run_to_data
    rated: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AppliedRequest(Model):
    """Every request id an evening has seen, whatever it did: a repeat is a no-op."""

    __tablename__ = "applied_requests"

    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), primary_key=True)
    request_id: Mapped[str] = mapped_column(String(REQUEST_ID_LEN), primary_key=True)
    action: Mapped[str] = mapped_column(String(16))
    version: Mapped[int]  # the evening's version after the request
    # sha256 of what the request asked (services.store.requests.digest): the same id with another
    # body is refused (request_id_reused). NULL for requests applied before it was kept.
    digest: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class HousekeepingRow(Model):
    """Append-only housekeeping of a circle (issue 9.12): ``rename`` (``player`` is called
    ``name``), ``merge`` (``player`` is the same person as ``into``), ``delete_evening``
    (``evening`` was a test), ``undo`` (takes back the event with seq ``undoes``).
    Applied by ``history.housekeeping`` as a fold; never updated, never deleted."""

    __tablename__ = "housekeeping"
    __table_args__ = (
        UniqueConstraint("circle_id", "seq"),
        UniqueConstraint("circle_id", "request_id"),
        CheckConstraint("kind IN ('rename', 'merge', 'delete_evening', 'undo')", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id"), index=True)
    seq: Mapped[int]  # 1, 2, 3... per circle
    kind: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str | None] = mapped_column(String(40))
    evening_id: Mapped[int | None] = mapped_column(ForeignKey("evenings.id"))
    undoes: Mapped[int | None]
    request_id: Mapped[str] = mapped_column(String(REQUEST_ID_LEN))
    author: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<HousekeepingRow #{self.seq} {self.kind}>"


# --- the digital table (issue 4) ------------------------------------------------------
class DigitalTable(Model):
    """A table dealt by the app for an evening: seats on phones or computer players.

    Its hands and their actions are append-only rows; the engine state is rebuilt by
    replaying them. ``version`` is the change counter the seat pages poll.
    """

    __tablename__ = "digital_tables"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'closed')", name="status"),
        CheckConstraint("version >= 0", name="version"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    status: Mapped[str] = mapped_column(String(8), default="open")
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Restored from an export (closed): it holds only hands that were over when exported.
    restored: Mapped[bool] = mapped_column(default=False, server_default=false())

    evening: Mapped[Evening] = relationship()

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    def __repr__(self) -> str:
        return f"<DigitalTable {self.public_id} v{self.version} {self.status}>"


class TableSeat(Model):
    """A seat at a digital table: held by a phone (sha256 of its token) or a computer."""

    __tablename__ = "table_seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("digital_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    computer: Mapped[bool] = mapped_column(default=False)
    level: Mapped[str] = mapped_column(String(8), default="normal", server_default="normal")  # a computer's level
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # When the computer in this seat could not move: it waits until retried or handed to a phone.
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TableHand(Model):
    """One hand dealt at a digital table: the shuffled deck and what it was dealt for."""

    __tablename__ = "table_hands"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("digital_tables.id"), index=True)
    number: Mapped[int]  # 1, 2, 3... per table
    dealer: Mapped[int]
    deck: Mapped[list[int]] = mapped_column(JSON)  # the order of the 36 cards
    open_rows: Mapped[list[list[str]]] = mapped_column(JSON)  # per side, when dealt
    seich_used: Mapped[list[int]] = mapped_column(JSON)
    slate_version: Mapped[int]  # the evening's version when dealt (the slate it belongs to)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class TableAction(Model):
    """Append-only: every pass, announcement, Komisch block and card, in order."""

    __tablename__ = "table_actions"
    __table_args__ = (UniqueConstraint("hand_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("table_hands.id"))
    seq: Mapped[int]  # 1, 2, 3... per hand
    seat: Mapped[int]
    action: Mapped[int]  # engine action id (engine.actions)
    computer: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


# --- the purse (issue 12) -------------------------------------------------------------
class SettlementRow(Model):
    """Append-only log of a circle's purse: who paid whom how much, and when.

    ``kind``: ``payment`` (a new one), ``correction`` (replaces the payment or correction
    whose row has seq ``supersedes``, with new values), ``void`` (takes the payment with
    seq ``supersedes`` back; carries no values). Never updated, never deleted: balances
    are derived (``history.purse``).
    """

    __tablename__ = "settlements"
    __table_args__ = (
        UniqueConstraint("circle_id", "seq"),
        UniqueConstraint("circle_id", "request_id"),
        CheckConstraint("kind IN ('payment', 'correction', 'void')", name="kind"),
        CheckConstraint("rappen IS NULL OR rappen > 0", name="rappen"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id"), index=True)
    seq: Mapped[int]  # 1, 2, 3... per circle
    kind: Mapped[str] = mapped_column(String(12))
    supersedes: Mapped[int | None]  # seq of the row this one replaces or takes back
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))  # NULL on a void
    payee_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    rappen: Mapped[int | None]
    paid_at: Mapped[datetime | None] = mapped_column(UTCDateTime())  # when the money changed hands
    entered_by: Mapped[str | None] = mapped_column(String(40))  # as the phone says (no accounts)
    request_id: Mapped[str] = mapped_column(String(REQUEST_ID_LEN))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<SettlementRow #{self.seq} {self.kind}>"


# --- links that open nothing any more (issue 21) --------------------------------------
class RetiredLink(Model):
    """A link that once opened a circle (or a seat) and no longer does, kept by its hash alone, so
    a phone still holding it is told what happened instead of "not found" (and is not counted as
    a guess by the rate limiter).

    ``kind``: what the link was (``write``, ``view`` or ``seat``); ``reason``: ``replaced`` (a new
    link took its place), ``deleted`` (its circle was erased) or ``restored`` (the data was
    restored from a backup that does not hold it). ``circle_id`` while the circle exists, NULL
    once it is erased: an erased circle leaves only these hashes, no name and no other data.
    """

    __tablename__ = "retired_links"
    __table_args__ = (
        CheckConstraint("kind IN ('write', 'view', 'seat')", name="kind"),
        CheckConstraint("reason IN ('replaced', 'deleted', 'restored')", name="reason"),
    )

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(String(12))
    circle_id: Mapped[int | None] = mapped_column(ForeignKey("circles.id"), index=True)
    retired_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<RetiredLink {self.kind} {self.reason}>"
