"""The CSV of a circle's hands (part of the export, docs/EXPORT.md).

``csv_text(view)``: one row per hand on the slates (Seich hands included), ``;`` separated,
UTF-8 with a BOM (Swiss Excel), CRLF, every text cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return escaped by a leading ``'`` (no formula runs when the file
is opened).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, tzinfo
from typing import Final

from ..game.errors import N_
from .housekeeping import CircleView
from .outcome import outcome
from .records import replay

CSV_COLUMNS: Final[tuple[tuple[str, str], ...]] = (
    ("evening", N_("Evening")),
    ("ended", N_("Ended")),
    ("variant", N_("Variant")),
    ("hand", N_("Hand")),
    ("declarer", N_("Declarer")),
    ("side", N_("Side")),
    ("row", N_("Row")),
    ("factor", N_("Factor")),
    ("contract", N_("Played as")),
    ("declarer_points", N_("Declarer's points")),
    ("defender_points", N_("Defenders' points")),
    ("match", N_("Match")),
    ("countermatch", N_("Countermatch")),
    ("seich", N_("Seich")),
    ("paper", N_("From a paper slate")),
    ("cell", N_("Cell")),
    ("digital", N_("Dealt digitally")),
    ("entered_by", N_("Entered by")),
)
_RISKY = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A CSV cell's text; text that a spreadsheet would run as a formula gets a leading '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    text = str(value)
    if isinstance(value, str) and text.startswith(_RISKY):
        return "'" + text
    return text


def csv_rows(view: CircleView, *, tz: tzinfo = UTC) -> list[dict[str, object]]:
    """One dict per hand on the slates of the circle's evenings (deleted ones left out),
    oldest evening first; names as the players are called now."""
    rows: list[dict[str, object]] = []
    for ev in sorted(view.evenings, key=lambda e: (e.created_at.timestamp() if e.created_at else 0.0, e.id)):
        ev.require_inputs()
        rs = ev.ruleset
        names = [view.player_name(p) for p in ev.seats]
        effective = replay(ev.log)
        cells = {c.index: c.value for c in outcome(ev).slate.cells.values()}
        ended = "" if ev.ended_at is None else ev.ended_at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
        for number, row in enumerate(effective, start=1):
            e = row.entry
            assert e is not None
            side = " + ".join(names[s] for s in rs.seats_of(rs.side_of(e.declarer_seat)))
            rows.append(
                {
                    "evening": ev.id,
                    "ended": ended,
                    "variant": rs.variant.value,
                    "hand": number,
                    "declarer": names[e.declarer_seat],
                    "side": side,
                    "row": e.row_key,
                    "factor": None if e.row_key is None else rs.row(e.row_key).factor,
                    "contract": None if e.contract is None else e.contract.code,
                    "declarer_points": None if e.seich or e.imported else e.declarer_points,
                    "defender_points": None if e.seich or e.imported else e.defender_points,
                    "match": e.match,
                    "countermatch": e.countermatch,
                    "seich": e.seich,
                    "paper": e.imported,
                    "cell": cells.get(number - 1),
                    "digital": row.digital,
                    "entered_by": row.author,
                }
            )
    return rows


def csv_text(view: CircleView, *, headers: Mapping[str, str] | None = None, tz: tzinfo = UTC) -> str:
    """The CSV file's text, BOM first. ``headers``: column key -> translated heading
    (the English templates of ``CSV_COLUMNS`` otherwise)."""
    heading = dict(CSV_COLUMNS) | dict(headers or {})
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    keys: Sequence[str] = [k for k, _ in CSV_COLUMNS]
    writer.writerow([csv_cell(heading[k]) for k in keys])
    for row in csv_rows(view, tz=tz):
        writer.writerow([csv_cell(row[k]) for k in keys])
    return "\ufeff" + buf.getvalue()
