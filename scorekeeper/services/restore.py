"""A circle's data leaves and comes back: the export (JSON, ``history.export``; CSV, ``history.spreadsheet``),
the restore of a JSON export into a new circle, and a past evening typed from a paper
slate.

Restore: the file is read, upgraded and validated by ``history.export.decode`` first
(a damaged or foreign file is refused with its ``RuleError`` and nothing is written);
then the whole circle is written in one transaction with new links, new player,
evening and table ids, and every stored input as it was (times, authors, corrections,
undos, cuts, digital hands that were over, settlements, housekeeping), so slates,
results, money, statistics and ratings come out exactly as before.

A digital hand's result is written on the slate under the request id
``table:<table>:<number>`` (``snapshot.digital_hand_request_id``); an export does not
carry request ids, so the restore gives the evening's digital ``hand`` rows, in log
order, the request ids of its digital hands in table and number order (the table wrote
them in that order, one hand at a time). The restored tables are marked ``restored``:
they hold only hands that were over, so they are read back even where a file does not
pair them with rows.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import insert

from ..game.errors import N_, RuleError
from ..history import export, housekeeping, spreadsheet
from ..history.outcome import outcome
from ..history.records import CircleRecord, EveningRecord, LogKind
from ..models import (
    Circle,
    CutRow,
    DigitalTable,
    EntryRow,
    Evening,
    HousekeepingRow,
    Player,
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
    utcnow,
)
from .circles import CIRCLE_NAME_MAX, PLAYER_NAME_MAX
from .read import memory
from .read.circle_record import load_record
from .read.replay import hand_fields, ranking_text
from .read.snapshot import digital_hand_request_id
from .store import link_seal, tx
from .store.tokens import hash_token, new_token

IMPORT_REQUEST: Final = "import"  # request ids of restored rows: import:<seq>


@dataclass(frozen=True, slots=True)
class Exported:
    """An export file: its text, media type and a file name."""

    text: str
    media_type: str
    filename: str


def _slug(name: str) -> str:
    kept = "".join(ch if ch.isalnum() else "-" for ch in name.casefold())
    return "-".join(part for part in kept.split("-") if part)[:40] or "circle"


def export_json(circle: Circle, *, now: datetime | None = None) -> Exported:
    """The circle as the versioned JSON export (docs/EXPORT.md); hands in play never in it."""
    when = now or utcnow()
    text = export.dumps(load_record(circle), when)  # every input (the memory may hold stored outcomes only)
    return Exported(text, "application/json", f"scorekeeper-{_slug(circle.name)}-{when:%Y-%m-%d}.json")


def export_csv(circle: Circle, *, headers: dict[str, str], tz: Any, now: datetime | None = None) -> Exported:
    """One row per hand (``;``, UTF-8 with BOM, formula cells escaped), names as now."""
    when = now or utcnow()
    text = spreadsheet.csv_text(housekeeping.view(load_record(circle)), headers=headers, tz=tz)
    return Exported(text, "text/csv; charset=utf-8", f"scorekeeper-{_slug(circle.name)}-{when:%Y-%m-%d}.csv")


# --- restore ------------------------------------------------------------------------------
def _invalid(where: str, reason: str) -> RuleError:
    return RuleError(export.ERROR_CODES["export_invalid"], "export_invalid", where=where, reason=reason)


def _check_lengths(record: CircleRecord) -> None:
    """What the database holds that the export format does not bound."""
    if not 1 <= len(record.name.strip()) <= CIRCLE_NAME_MAX:
        raise _invalid("circle.name", "circle_name")
    for i, p in enumerate(record.players):
        if not 1 <= len(p.name) <= PLAYER_NAME_MAX:
            raise _invalid(f"players[{i}].name", "player_name")
    texts: list[tuple[str, str | None]] = []
    for i, ev in enumerate(record.evenings):
        texts.extend((f"evenings[{i}].log", r.author) for r in ev.log)
    texts.extend(("settlements", s.entered_by) for s in record.settlements)
    texts.extend(("housekeeping", h.author) for h in record.housekeeping)
    for where, text in texts:
        if text is not None and len(text) > PLAYER_NAME_MAX:
            raise _invalid(where, "author")


def _digital_request_ids(ev: EveningRecord, tables: dict[str, str]) -> dict[int, str]:
    """log seq -> request id, for the evening's digital hand rows (see the module's docstring)."""
    rows = [r.seq for r in ev.log if r.kind is LogKind.HAND and r.digital]
    hands = [digital_hand_request_id(tables[h.table], h.number) for h in ev.digital]
    if len(rows) != len(hands):
        return {}  # not one hand row per digital hand: the rows keep import ids (the table is marked restored)
    return dict(zip(rows, hands, strict=True))


# --- reading a file as it arrives ------------------------------------------------------------
RETRY_AFTER_S: Final = 30  # what a refused second import is told to wait


class TooLarge(RuleError):
    """The file passed the size a restore takes; nothing was written (the rest was not read)."""

    code = "too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(N_("This file is larger than a restore takes (%(limit)s bytes)."), "too_large", limit=limit)


class ImportBusy(RuleError):
    """Another file is being read and checked in this process; nothing was read or written."""

    code = "import_busy"

    def __init__(self) -> None:
        super().__init__(
            N_("Another export file is being read just now. Nothing was written: try again in a minute."),
            "import_busy",
        )


# One file at a time per process: a worker holds one file (up to the limit) and what it
# parses into, some six times its size, never several (six at once took 480 MB).
_ONE_AT_A_TIME = threading.BoundedSemaphore(1)


@contextmanager
def _one_at_a_time() -> Iterator[None]:
    if not _ONE_AT_A_TIME.acquire(blocking=False):
        raise ImportBusy()
    try:
        yield
    finally:
        _ONE_AT_A_TIME.release()


def _skip(pieces: Iterator[bytes], limit: int, read: int) -> None:
    """Read the rest of a refused file and keep none of it (up to ``limit`` bytes in all): the
    client is still sending, and a connection closed under it loses the answer."""
    for piece in pieces:
        read += len(piece)
        if read > limit:
            return


def read_file(pieces: Iterable[bytes], limit: int) -> bytes:
    """The file from its pieces as they arrive: refused at the first piece that shows it is no
    export (``export.check_start``: a picture, the CSV; the rest is read and dropped, never
    kept or parsed), and with ``TooLarge`` as soon as the pieces pass ``limit`` bytes (a
    chunked body has no length to check first)."""
    data = bytearray()
    started = False
    stream = iter(pieces)
    for piece in stream:
        data += piece
        if len(data) > limit:
            raise TooLarge(limit)
        if not started:
            try:
                started = export.check_start(bytes(data[:4096]))
            except RuleError:
                _skip(stream, limit, len(data))
                raise
    return bytes(data)


def restore_upload(pieces: Iterable[bytes], *, limit: int) -> tuple[Circle, str, str]:
    """``restore`` of a file read as it arrives (``read_file``), one at a time per process:
    ``ImportBusy`` at once, nothing of the file read, while another is being read here (the
    refusal sheds the load: it holds no thread while the client goes on sending)."""
    with _one_at_a_time():
        return restore(read_file(pieces, limit))


def restore(data: bytes | str | dict[str, Any]) -> tuple[Circle, str, str]:
    """A new circle holding an export file's data. Returns (circle, write token, view token);
    RuleError (``export_*``) when the file cannot be restored: then nothing is written."""
    record = export.decode(data)
    _check_lengths(record)
    return restore_record(record)


def restore_record(record: CircleRecord) -> tuple[Circle, str, str]:
    """Write an already validated ``CircleRecord`` as a new circle (new links and ids)."""
    write_token = new_token()
    view_token = new_token()
    with tx.write() as s:
        circle = Circle(
            name=" ".join(record.name.split()),
            write_token_hash=hash_token(write_token),
            view_token_hash=hash_token(view_token),
            view_token_sealed=link_seal.seal(view_token, write_token),
            created_at=record.created_at or utcnow(),
            house_rules=None if record.house_rules is None else record.house_rules.to_dict(),
        )
        s.add(circle)
        s.flush()
        players = {
            p.id: Player(circle_id=circle.id, name=p.name, created_at=p.created_at or utcnow()) for p in record.players
        }
        s.add_all(players.values())
        gone = housekeeping.fold_stored(record.players, record.housekeeping).deleted  # evenings deleted as tests
        evenings = {ev.id: _evening(circle.id, ev, deleted=ev.id in gone) for ev in record.evenings}
        s.add_all(evenings.values())
        tables: dict[tuple[str, str], DigitalTable] = {}
        for ev in record.evenings:
            for h in ev.digital:
                if (ev.id, h.table) not in tables:
                    tables[(ev.id, h.table)] = DigitalTable(
                        evening=evenings[ev.id],
                        status="closed",
                        version=0,
                        restored=True,
                        created_at=h.created_at or utcnow(),
                    )
        s.add_all(tables.values())
        s.flush()
        pid = {old: row.id for old, row in players.items()}
        seats: list[dict[str, Any]] = []
        entries: list[dict[str, Any]] = []
        cuts: list[dict[str, Any]] = []
        hands: list[tuple[TableHand, Sequence[Any]]] = []
        for ev in record.evenings:
            row = evenings[ev.id]
            seats.extend({"evening_id": row.id, "seat": i, "player_id": pid[p]} for i, p in enumerate(ev.seats))
            new_tables = {h.table: tables[(ev.id, h.table)].public_id for h in ev.digital}
            digital_ids = _digital_request_ids(ev, new_tables)
            for r in ev.log:
                fields = hand_fields(r.entry) if r.entry is not None else {}
                entries.append(
                    {
                        "evening_id": row.id,
                        "seq": r.seq,
                        "kind": r.kind.value,
                        "supersedes": r.supersedes,
                        "row_key": None,
                        "declarer_seat": None,
                        "contract": None,
                        "declarer_points": None,
                        "defender_points": None,
                        "match": False,
                        "countermatch": False,
                        "seich": False,
                        "cell": None,
                        **fields,
                        "digital": r.digital,
                        "request_id": digital_ids.get(r.seq, f"{IMPORT_REQUEST}:{r.seq}"),
                        "author": r.author,
                        "created_at": r.created_at or row.created_at,
                    }
                )
            for i, c in enumerate(ev.cuts):
                cuts.append(
                    {
                        "evening_id": row.id,
                        "row_key": c.cut.row_key,
                        "end": c.cut.end,
                        "ranking": ranking_text(c.cut.order),
                        "winner": c.cut.winner,
                        "drawn": c.cut.drawn,
                        "request_id": f"{IMPORT_REQUEST}:cut:{i + 1}",
                        "created_at": c.created_at or row.created_at,
                    }
                )
            for h in ev.digital:
                hand = TableHand(
                    table_id=tables[(ev.id, h.table)].id,
                    number=h.number,
                    dealer=h.dealer,
                    deck=list(h.deck),
                    open_rows=[list(side) for side in h.open_rows],
                    seich_used=list(h.seich_used),
                    slate_version=h.slate_version,
                    created_at=h.created_at or row.created_at,
                )
                hands.append((hand, h.actions))
        s.add_all(hand for hand, _a in hands)
        s.flush()
        if seats:
            s.execute(insert(Seat), seats)
        if entries:
            s.execute(insert(EntryRow), entries)
        if cuts:
            s.execute(insert(CutRow), cuts)
        actions = [
            {
                "hand_id": hand.id,
                "seq": a.seq,
                "seat": a.seat,
                "action": a.action,
                "computer": a.computer,
                "created_at": a.created_at or hand.created_at,
            }
            for hand, acts in hands
            for a in acts
        ]
        if actions:
            s.execute(insert(TableAction), actions)
        _settlements(s, circle.id, record, pid)
        _housekeeping(s, circle.id, record, pid, evenings)
    tx.after_write(("circle", circle.id), lambda: memory.store_after_write(circle))  # outcomes, rating runs
    return circle, write_token, view_token


def _evening(circle_id: int, ev: EveningRecord, *, deleted: bool) -> Evening:
    ended = ev.ended
    complete = outcome(ev).slate.complete
    return Evening(
        circle_id=circle_id,
        ruleset=ev.ruleset.to_dict(),
        first_dealer=ev.first_dealer,
        # every stored row counted once, as the evening's own changes would have
        version=len(ev.log) + len(ev.cuts) + (1 if ended else 0),
        status=ev.status.value,
        ended_early=ended and not complete,
        counts_in_money=ev.counts_in_money,
        start_request_id=None,
        created_at=ev.created_at or utcnow(),
        ended_at=ev.ended_at,
        deleted=deleted,
    )


def _settlements(s: Any, circle_id: int, record: CircleRecord, pid: dict[str, int]) -> None:
    rows = [
        {
            "circle_id": circle_id,
            "seq": p.seq,
            "kind": p.kind.value,
            "supersedes": p.supersedes,
            "payer_id": None if p.payer is None else pid[p.payer],
            "payee_id": None if p.payee is None else pid[p.payee],
            "rappen": p.rappen,
            "paid_at": p.paid_at,
            "entered_by": p.entered_by,
            "request_id": f"{IMPORT_REQUEST}:{p.seq}",
            "created_at": p.created_at or utcnow(),
        }
        for p in record.settlements
    ]
    if rows:
        s.execute(insert(SettlementRow), rows)


def _housekeeping(
    s: Any, circle_id: int, record: CircleRecord, pid: dict[str, int], evenings: dict[str, Evening]
) -> None:
    rows = [
        {
            "circle_id": circle_id,
            "seq": h.seq,
            "kind": h.kind.value,
            "player_id": None if h.player is None else pid[h.player],
            "into_id": None if h.into is None else pid[h.into],
            "name": h.name,
            "evening_id": None if h.evening is None else evenings[h.evening].id,
            "undoes": h.undoes,
            "request_id": f"{IMPORT_REQUEST}:{h.seq}",
            "author": h.author,
            "created_at": h.created_at or utcnow(),
        }
        for h in record.housekeeping
    ]
    if rows:
        s.execute(insert(HousekeepingRow), rows)


__all__ = [
    "Exported",
    "ImportBusy",
    "TooLarge",
    "export_csv",
    "export_json",
    "read_file",
    "restore",
    "restore_record",
    "restore_upload",
]
