"""The export format of a whole circle (docs/EXPORT.md): a versioned JSON document,
its pure encoder, decoder and validator (the CSV of its hands: ``spreadsheet``).

- ``encode(circle, exported_at)`` gives the plain JSON-able document; ``dumps`` the text.
  A digital hand that is not over is never written (its cards are private).
- ``decode(data)`` reads bytes or text back into a ``CircleRecord``: a file that is not
  JSON, not ours, of a newer version, damaged (a field missing or of the wrong type)
  or invalid (a hand the rules refuse, a broken log, a cut that does not fit) is
  refused with a ``RuleError`` whose code and ``N_()`` template say which, and where.
  Older versions are brought up to the current one by ``UPGRADES`` (version n ->
  function giving version n + 1) before they are read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Final

from ..game.contracts import Contract
from ..game.errors import N_, RuleError
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..scoring.final import Cut, End
from .housekeeping import fold_events, seats_of
from .outcome import outcome
from .purse import check_log
from .records import (
    CircleRecord,
    CutEntry,
    DigitalAction,
    DigitalHand,
    EveningRecord,
    Housekeeping,
    HousekeepingKind,
    LogEntry,
    LogKind,
    PaymentKind,
    Player,
    Settlement,
    Status,
)

FORMAT: Final = "scorekeeper-circle"
VERSION: Final = 1
MEDIA_TYPE: Final = "application/json"

ERROR_CODES: Final[dict[str, str]] = {
    "export_not_json": N_("This file is not a scorekeeper export (it is not readable JSON)."),
    "export_foreign": N_("This file is not a scorekeeper export of a circle."),
    "export_version_newer": N_(
        "This export was written by a newer scorekeeper (format version %(version)s); update this one first."
    ),
    "export_damaged": N_("This export is damaged: %(where)s is missing or wrong."),
    "export_invalid": N_("This export does not add up: %(where)s (%(reason)s)."),
}


def _fail(code: str, **params: object) -> RuleError:
    return RuleError(ERROR_CODES[code], code, **params)


# --- upgrades -----------------------------------------------------------------------
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
# version n -> the function that turns a version-n document into version n + 1.
UPGRADES: dict[int, Upgrade] = {}


def upgrade(
    doc: dict[str, Any], *, current: int = VERSION, upgrades: Mapping[int, Upgrade] | None = None
) -> dict[str, Any]:
    """Bring a document of any known version up to ``current``."""
    table = UPGRADES if upgrades is None else upgrades
    version = doc.get("version")
    if type(version) is not int or version < 1:
        raise _fail("export_damaged", where="version")
    if version > current:
        raise _fail("export_version_newer", version=version)
    while version < current:
        if version not in table:  # pragma: no cover - every version below VERSION has its step
            raise _fail("export_damaged", where="version")
        doc = table[version](doc)
        version += 1
        if doc.get("version") != version:
            raise AssertionError(f"upgrade from {version - 1} must give version {version}")
    return doc


# --- encoding -----------------------------------------------------------------------
def _time(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def _hand(e: HandEntry | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {
        "row": e.row_key,
        "declarer_seat": e.declarer_seat,
        "contract": None if e.contract is None else e.contract.code,
        "declarer_points": e.declarer_points,
        "defender_points": e.defender_points,
        "match": e.match,
        "countermatch": e.countermatch,
        "seich": e.seich,
        "cell": e.cell,
    }


def _digital(h: DigitalHand) -> dict[str, Any]:
    return {
        "table": h.table,
        "number": h.number,
        "dealer": h.dealer,
        "deck": list(h.deck),
        "open_rows": [list(rows) for rows in h.open_rows],
        "seich_used": list(h.seich_used),
        "slate_version": h.slate_version,
        "created_at": _time(h.created_at),
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat,
                "action": a.action,
                "computer": a.computer,
                "created_at": _time(a.created_at),
            }
            for a in h.actions
        ],
    }


def _evening(ev: EveningRecord) -> dict[str, Any]:
    ev.require_inputs()  # an export holds inputs: never an evening read as its stored outcome only
    return {
        "id": ev.id,
        "status": ev.status.value,
        "created_at": _time(ev.created_at),
        "ended_at": _time(ev.ended_at),
        "counts_in_money": ev.counts_in_money,
        "first_dealer": ev.first_dealer,
        "seats": list(ev.seats),
        "ruleset": ev.ruleset.to_dict(),
        "log": [
            {
                "seq": r.seq,
                "kind": r.kind.value,
                "supersedes": r.supersedes,
                "digital": r.digital,
                "author": r.author,
                "created_at": _time(r.created_at),
                "hand": _hand(r.entry),
            }
            for r in ev.log
        ],
        "cuts": [
            {
                "row": c.cut.row_key,
                "end": c.cut.end,
                "winner": c.cut.winner,
                "order": list(c.cut.order),
                "drawn": c.cut.drawn,
                "created_at": _time(c.created_at),
            }
            for c in ev.cuts
        ],
        "digital": [_digital(h) for h in ev.digital if h.finished],  # never a hand still in play
    }


def _circle(circle: CircleRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"name": circle.name, "created_at": _time(circle.created_at)}
    if circle.house_rules is not None:  # written only when saved: a circle without keeps its file as before
        out["house_rules"] = circle.house_rules.to_dict()
    return out


def encode(circle: CircleRecord, exported_at: datetime) -> dict[str, Any]:
    """The export document of ``circle`` (plain JSON types)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(exported_at),
        "circle": _circle(circle),
        "players": [{"id": p.id, "name": p.name, "created_at": _time(p.created_at)} for p in circle.players],
        "evenings": [_evening(ev) for ev in circle.evenings],
        "settlements": [
            {
                "seq": s.seq,
                "kind": s.kind.value,
                "supersedes": s.supersedes,
                "payer": s.payer,
                "payee": s.payee,
                "rappen": s.rappen,
                "paid_at": _time(s.paid_at),
                "entered_by": s.entered_by,
                "created_at": _time(s.created_at),
            }
            for s in circle.settlements
        ],
        "housekeeping": [
            {
                "seq": h.seq,
                "kind": h.kind.value,
                "player": h.player,
                "into": h.into,
                "name": h.name,
                "evening": h.evening,
                "undoes": h.undoes,
                "author": h.author,
                "created_at": _time(h.created_at),
            }
            for h in circle.housekeeping
        ],
    }


def dumps(circle: CircleRecord, exported_at: datetime) -> str:
    """The export as UTF-8 JSON text (one line, names as written)."""
    return json.dumps(encode(circle, exported_at), ensure_ascii=False, separators=(",", ":"))


# --- decoding -------------------------------------------------------------------------
class _Reader:
    """Typed access to one JSON object; any surprise is ``export_damaged`` at its path."""

    __slots__ = ("d", "path")

    def __init__(self, d: object, path: str) -> None:
        if not isinstance(d, dict):
            raise _fail("export_damaged", where=path)
        self.d: dict[str, Any] = d
        self.path = path

    def _get(self, key: str) -> Any:
        if key not in self.d:
            raise _fail("export_damaged", where=f"{self.path}.{key}")
        return self.d[key]

    def _bad(self, key: str) -> RuleError:
        return _fail("export_damaged", where=f"{self.path}.{key}")

    def integer(self, key: str) -> int:
        v = self._get(key)
        if type(v) is not int:
            raise self._bad(key)
        return v

    def opt_integer(self, key: str) -> int | None:
        v = self._get(key)
        return None if v is None else self.integer(key)

    def boolean(self, key: str) -> bool:
        v = self._get(key)
        if type(v) is not bool:
            raise self._bad(key)
        return v

    def text(self, key: str) -> str:
        v = self._get(key)
        if not isinstance(v, str):
            raise self._bad(key)
        return v

    def opt_text(self, key: str) -> str | None:
        v = self._get(key)
        return None if v is None else self.text(key)

    def time(self, key: str) -> datetime | None:
        v = self.opt_text(key)
        if v is None:
            return None
        try:
            when = datetime.fromisoformat(v)
        except ValueError:
            raise self._bad(key) from None
        if when.tzinfo is None:
            raise self._bad(key)
        return when

    def required_time(self, key: str) -> datetime:
        when = self.time(key)
        if when is None:
            raise self._bad(key)
        return when

    def array(self, key: str) -> list[Any]:
        v = self._get(key)
        if not isinstance(v, list):
            raise self._bad(key)
        return v

    def integers(self, key: str) -> tuple[int, ...]:
        v = self.array(key)
        if any(type(x) is not int for x in v):
            raise self._bad(key)
        return tuple(v)

    def items(self, key: str) -> list[_Reader]:
        return [_Reader(x, f"{self.path}.{key}[{i}]") for i, x in enumerate(self.array(key))]

    def obj(self, key: str) -> _Reader:
        return _Reader(self._get(key), f"{self.path}.{key}")

    def enum(self, key: str, kind: Callable[[str], Any]) -> Any:
        try:
            return kind(self.text(key))
        except ValueError:
            raise self._bad(key) from None


def _read_hand(r: _Reader) -> HandEntry:
    code = r.opt_text("contract")
    try:
        contract = None if code is None else Contract.parse(code)
    except ValueError:
        raise _fail("export_damaged", where=f"{r.path}.contract") from None
    return HandEntry(
        row_key=r.opt_text("row"),
        declarer_seat=r.integer("declarer_seat"),
        contract=contract,
        declarer_points=r.integer("declarer_points"),
        defender_points=r.integer("defender_points"),
        match=r.boolean("match"),
        countermatch=r.boolean("countermatch"),
        seich=r.boolean("seich"),
        cell=r.opt_integer("cell"),
    )


def _read_log(r: _Reader) -> LogEntry:
    kind = r.enum("kind", LogKind)
    hand = r.d.get("hand")
    try:
        return LogEntry(
            seq=r.integer("seq"),
            kind=kind,
            supersedes=r.opt_integer("supersedes"),
            entry=None if hand is None else _read_hand(r.obj("hand")),
            digital=r.boolean("digital"),
            author=r.opt_text("author"),
            created_at=r.time("created_at"),
        )
    except ValueError as err:
        if isinstance(err, RuleError):
            raise
        raise _fail("export_damaged", where=f"{r.path}.hand") from None


_ENDS: Final[dict[str, End]] = {"high": "high", "low": "low", "all": "all"}


def _read_cut(r: _Reader) -> CutEntry:
    end = _ENDS.get(r.text("end"))
    if end is None:
        raise _fail("export_damaged", where=f"{r.path}.end")
    cut = Cut(r.text("row"), end, r.integer("winner"), r.boolean("drawn"), r.integers("order"))
    return CutEntry(cut, r.time("created_at"))


def _read_digital(r: _Reader) -> DigitalHand:
    open_rows = []
    for i, rows in enumerate(r.array("open_rows")):
        if not isinstance(rows, list) or not all(isinstance(k, str) for k in rows):
            raise _fail("export_damaged", where=f"{r.path}.open_rows[{i}]")
        open_rows.append(tuple(rows))
    deck = r.integers("deck")
    if sorted(deck) != list(range(36)):
        raise _fail("export_damaged", where=f"{r.path}.deck")
    return DigitalHand(
        table=r.text("table"),
        number=r.integer("number"),
        dealer=r.integer("dealer"),
        deck=deck,
        open_rows=tuple(open_rows),
        seich_used=r.integers("seich_used"),
        slate_version=r.integer("slate_version"),
        actions=tuple(
            DigitalAction(
                a.integer("seq"), a.integer("seat"), a.integer("action"), a.boolean("computer"), a.time("created_at")
            )
            for a in r.items("actions")
        ),
        finished=True,
        created_at=r.time("created_at"),
    )


def _read_ruleset(r: _Reader, key: str) -> RuleSet:
    try:
        return RuleSet.from_dict(r.obj(key).d)
    except (KeyError, ValueError, TypeError, AttributeError):
        raise _fail("export_damaged", where=f"{r.path}.{key}") from None


def _read_house_rules(c: _Reader) -> RuleSet | None:
    """The circle's house rules: an absent key (every file written before issue 24) or null
    means the circle has none."""
    return None if c.d.get("house_rules") is None else _read_ruleset(c, "house_rules")


def _read_evening(r: _Reader) -> EveningRecord:
    ruleset = _read_ruleset(r, "ruleset")
    seats = r.array("seats")
    if not all(isinstance(p, str) for p in seats):
        raise _fail("export_damaged", where=f"{r.path}.seats")
    return EveningRecord(
        id=r.text("id"),
        ruleset=ruleset,
        first_dealer=r.integer("first_dealer"),
        seats=tuple(seats),
        log=tuple(_read_log(x) for x in r.items("log")),
        cuts=tuple(_read_cut(x) for x in r.items("cuts")),
        status=r.enum("status", Status),
        created_at=r.time("created_at"),
        ended_at=r.time("ended_at"),
        counts_in_money=r.boolean("counts_in_money"),
        digital=tuple(_read_digital(x) for x in r.items("digital")),
    )


def _read_settlement(r: _Reader) -> Settlement:
    return Settlement(
        seq=r.integer("seq"),
        kind=r.enum("kind", PaymentKind),
        supersedes=r.opt_integer("supersedes"),
        payer=r.opt_text("payer"),
        payee=r.opt_text("payee"),
        rappen=r.opt_integer("rappen"),
        paid_at=r.time("paid_at"),
        entered_by=r.opt_text("entered_by"),
        created_at=r.time("created_at"),
    )


def _read_housekeeping(r: _Reader) -> Housekeeping:
    return Housekeeping(
        seq=r.integer("seq"),
        kind=r.enum("kind", HousekeepingKind),
        player=r.opt_text("player"),
        into=r.opt_text("into"),
        name=r.opt_text("name"),
        evening=r.opt_text("evening"),
        undoes=r.opt_integer("undoes"),
        author=r.opt_text("author"),
        created_at=r.time("created_at"),
    )


_BOM: Final = b"\xef\xbb\xbf"
_JSON_SPACE: Final = b" \t\r\n"
_LITERALS: Final = (b"true", b"false", b"null")


def check_start(head: bytes) -> bool:
    """What the first bytes of a file already tell, before the rest is read: True once they
    begin a JSON object (it may be an export), False while only a byte-order mark and blanks
    came; ``export_not_json`` when they cannot begin JSON at all, ``export_foreign`` when they
    begin JSON that is no object (a list, a string, a number, true, false, null). A file of
    another kind (a picture, the CSV) is so refused at its first piece, never read whole."""
    text = head.removeprefix(_BOM).lstrip(_JSON_SPACE)
    if not text or _BOM.startswith(head):
        return False
    first = text[:1]
    if first == b"{":
        return True
    if first in b'["-0123456789':
        raise _fail("export_foreign")
    for literal in _LITERALS:
        if text.startswith(literal):
            raise _fail("export_foreign")
        if literal.startswith(text):
            return False  # "nu": wait for more
    raise _fail("export_not_json")


def parse(data: bytes | str) -> dict[str, Any]:
    """The JSON document of an export file, upgraded to the current version."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _fail("export_not_json") from None
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        raise _fail("export_not_json") from None
    return document(doc)


def document(doc: object) -> dict[str, Any]:
    """An already parsed JSON value as an export document, upgraded to the current version."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail("export_foreign")
    return upgrade(doc)


def read(doc: dict[str, Any]) -> CircleRecord:
    """A current-version document as records (types checked, rules not yet: ``validate``)."""
    r = _Reader(doc, "export")
    r.required_time("exported_at")  # not kept (a restore is not the export), but part of the format
    c = r.obj("circle")
    return CircleRecord(
        name=c.text("name"),
        created_at=c.time("created_at"),
        players=tuple(Player(p.text("id"), p.text("name"), p.time("created_at")) for p in r.items("players")),
        evenings=tuple(_read_evening(x) for x in r.items("evenings")),
        settlements=tuple(_read_settlement(x) for x in r.items("settlements")),
        housekeeping=tuple(_read_housekeeping(x) for x in r.items("housekeeping")),
        house_rules=_read_house_rules(c),
    )


def validate(circle: CircleRecord) -> None:
    """Everything a restore would rely on, by the rules of the writes it replays: ids unique
    and known, every rule set one an evening could be started with (``RuleSet.check``), every
    log replays, every slate passes the scoring core's checks (``Slate.build``), every ended
    evening has its result, the purse and housekeeping logs pass their gates. Raises
    ``export_invalid`` (``where``: the field, ``reason``: the rule's own RuleError code)."""

    def invalid(where: str, reason: str) -> RuleError:
        return _fail("export_invalid", where=where, reason=reason)

    def check_rules(where: str, rs: RuleSet) -> None:
        try:
            rs.check()  # what starting an evening allows (factors, stake, rows)
        except RuleError as err:
            raise invalid(f"{where}.{err.params.get('field', 'rows')}", err.code) from None

    if circle.house_rules is not None:
        check_rules("circle.house_rules", circle.house_rules)  # what saving them allows
    ids = [p.id for p in circle.players]
    if len(set(ids)) != len(ids):
        raise invalid("players", "player_twice")
    known = set(ids)
    seen: set[str] = set()
    for i, ev in enumerate(circle.evenings):
        where = f"evenings[{i}]"
        if ev.id in seen:
            raise invalid(where, "evening_twice")
        seen.add(ev.id)
        rs = ev.ruleset
        check_rules(f"{where}.ruleset", rs)
        if len(ev.seats) != rs.n_players or len(set(ev.seats)) != len(ev.seats) or not set(ev.seats) <= known:
            raise invalid(where, "seats")
        if not 0 <= ev.first_dealer < rs.n_players:
            raise invalid(where, "first_dealer")
        if ev.ended and ev.ended_at is None:
            raise invalid(where, "ended_at")
        try:
            entries = ev.entries
        except ValueError:
            raise invalid(where, "log") from None
        if any(not 0 <= e.declarer_seat < rs.n_players for e in entries):
            raise invalid(where, "declarer_unknown")
        try:
            out = outcome(ev)
        except RuleError as err:
            raise invalid(where, err.code) from None
        if ev.ended and out.result is None:
            raise invalid(where, "cut_missing")
    try:
        check_log(known, circle.settlements)
    except RuleError as err:
        raise invalid("settlements", err.code) from None
    try:
        fold_events(circle.players, seats_of(circle), circle.housekeeping)
    except RuleError as err:
        raise invalid("housekeeping", err.code) from None


def decode(data: bytes | str | dict[str, Any]) -> CircleRecord:
    """An export file (or its parsed JSON) read, upgraded and validated; RuleError if it
    cannot be restored."""
    circle = read(document(data) if isinstance(data, dict) else parse(data))
    validate(circle)
    return circle
