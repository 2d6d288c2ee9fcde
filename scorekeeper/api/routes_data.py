"""The circle's data: export (JSON or CSV), restore an export into a new circle, delete a
circle for good, import a past evening from a paper slate."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any, Final

from flask import current_app, request, url_for
from werkzeug.wrappers import Response
from werkzeug.wsgi import get_input_stream

from ..downloads import download
from ..game.contracts import Contract
from ..game.errors import RuleError
from ..history.export import FORMAT, VERSION
from ..history.paper import PaperCell
from ..models import Circle
from ..present.export import csv_headings, time_zone
from ..scoring.final import Cut
from ..services import erase, paper, restore
from .blueprint import answer, evening_answer, routes
from .errors import ApiError, rule_error_response
from .registry import parameter
from .routes_circle import ruleset_from
from .serialize import circle_dict

PIECE: Final = 64 * 1024  # an import body is read in pieces this large

QUERY_FORMAT = parameter(
    "format", "query", {"type": "string", "enum": ["json", "csv"]}, "`json` (default, restorable) or `csv`."
)
IMPORT_EXAMPLE: dict[str, Any] = {
    "format": FORMAT,
    "version": VERSION,
    "exported_at": "2026-03-06T23:00:00+00:00",
    "circle": {"name": "Sternen", "created_at": "2026-01-09T18:00:00+00:00"},
    "players": [{"id": "p1", "name": "Anne-Marie Zurbriggen", "created_at": None}],
    "evenings": [],
    "settlements": [],
    "housekeeping": [],
}


def _download(exported: restore.Exported) -> Response:
    return download(exported.text, exported.media_type, exported.filename)


@routes.operation(
    "/circle/export",
    "GET",
    summary="Export the circle (JSON to restore it, or CSV for a spreadsheet)",
    tag="export",
    auth="write",
    query=(QUERY_FORMAT,),
    description="JSON: the versioned export (docs/EXPORT.md): every player, evening with its rule set, entry, "
    "correction, cut, settlement, housekeeping event and the digital actions of finished hands; a hand still in "
    "play is never exported. CSV (`?format=csv`, `text/csv`): one row per hand, `;`-separated, UTF-8 with a BOM, "
    "formula cells escaped, headings in the language of `Accept-Language`.",
    responses={200: ("The export document (an attachment)", "CircleExport")},
)
def export_circle(circle: Circle) -> Response:
    kind = request.args.get("format", "json")
    if kind == "json":
        return _download(restore.export_json(circle))
    if kind == "csv":
        return _download(restore.export_csv(circle, headers=csv_headings(), tz=time_zone()))
    raise ApiError("invalid_value", field="format")


@routes.operation(
    "/circles/import",
    "POST",
    summary="Restore an export into a new circle",
    tag="circles",
    auth="none",
    raw_body="CircleExport",
    description="The body is a JSON export file (any format version up to this one). It is checked whole, by the "
    "rules of the writes it replays, before anything is written; the new circle gets new links and ids. This "
    "endpoint takes bodies up to `IMPORT_MAX_BYTES` (32 MiB by default; 500 evenings typed by hand are some 4 MB), "
    "the others 64 KiB; a body is read as it arrives and refused (413) as soon as it passes the limit, chunked or "
    "not, and (422) at its first bytes if it cannot be JSON. Every import counts against the imports limit of the "
    "caller's address (`LIMIT_IMPORTS`, refused ones too); a server reads one file at a time per process and "
    "answers another 503 with `Retry-After`.",
    responses={
        201: ("The new circle, its two tokens (shown once) and its links", "CircleImported"),
        422: ("The file is not an export, is damaged, newer, or does not add up: nothing written", "Error"),
        503: ("Another file is being read just now (code import_busy, see Retry-After): nothing written", "Error"),
    },
    example=IMPORT_EXAMPLE,
)
def import_circle() -> Response:
    if not request.is_json:
        raise ApiError("unsupported_media_type")
    limit = int(current_app.config["IMPORT_MAX_BYTES"])
    if request.content_length is not None and request.content_length > limit:
        raise ApiError("too_large")
    # this endpoint only: an export of a large circle, read in pieces (a chunked body too)
    stream = get_input_stream(request.environ, max_content_length=limit + 1)
    try:
        circle, write_token, view_token = restore.restore_upload(iter(partial(stream.read, PIECE), b""), limit=limit)
    except restore.TooLarge:
        raise ApiError("too_large") from None
    except restore.ImportBusy as err:
        busy = rule_error_response(err)
        busy.status_code = 503
        busy.headers["Retry-After"] = str(restore.RETRY_AFTER_S)
        return busy
    links = {
        "write": url_for("circles.circle", token=write_token, _external=True),
        "view": url_for("circles.circle", token=view_token, _external=True),
    }
    return answer(
        {"circle": circle_dict(circle), "write_token": write_token, "view_token": view_token, "links": links}, 201
    )


@routes.operation(
    "/circle",
    "DELETE",
    summary="Delete the circle for good",
    tag="circles",
    auth="write",
    body="CircleDelete",
    description="Every row of the circle is erased from the database (players, evenings, hands, cuts, digital "
    "tables, settlements, housekeeping); the links stop working. Export it first: nothing can bring it back. "
    "`name` must be the circle's name (the second question the pages ask).",
    responses={204: ("Deleted", None), 422: ("The name does not match: nothing deleted", "Error")},
    example={"name": "Donnschtig-Jass"},
)
def delete_circle(circle: Circle, body: dict[str, Any]) -> Response:
    erase.delete_circle(circle, typed_name=body["name"])
    return Response(status=204)


PAPER_EXAMPLE: dict[str, Any] = {
    "variant": "teams",
    "players": ["Anna", "Beat", "Cla", "Dora"],
    "first_dealer": 0,
    "played_at": "2026-03-06T19:30:00+01:00",
    "cells": [
        {"row_key": "suit_S", "side": 0, "value": 12},
        {"row_key": "suit_S", "side": 1, "value": 25, "match": True},
        {"row_key": "obenabe", "side": 1, "value": 45},
    ],
    "counts_in_money": False,
    "request_id": "paper-2026-03-06",
}


def _contract(code: str | None, field: str) -> Contract | None:
    if code is None:
        return None
    try:
        return Contract.parse(code)
    except ValueError:
        raise ApiError("invalid_value", field=field) from None


@routes.operation(
    "/evenings/paper",
    "POST",
    summary="Import a past evening from a paper slate",
    tag="evenings",
    auth="write",
    body="PaperEvening",
    description="The final cells of each row (and their match marks), typed from a paper slate without the "
    "hands: written as an ended evening, its cells marked as imported. They count in money and ratings, not in "
    "the card-point statistics. Every cell is checked as a hand would be (a value some hand in that row could "
    "write). A repeated `request_id` returns the evening it wrote.",
    responses={
        201: ("The imported evening (Location: its URL)", "Evening"),
        422: ("A cell, a name or a cut breaks a rule (the first one is named): nothing written", "Error"),
    },
    example=PAPER_EXAMPLE,
)
def import_paper(circle: Circle, body: dict[str, Any]) -> Response:
    played_at = None
    if body.get("played_at") is not None:
        try:
            played_at = datetime.fromisoformat(body["played_at"])
        except ValueError:
            raise ApiError("invalid_value", field="played_at") from None
        if played_at.tzinfo is None:
            raise ApiError("invalid_value", field="played_at")
    cells = [
        PaperCell(
            row_key=c["row_key"],
            side=c["side"],
            value=c["value"],
            contract=_contract(c.get("played_as"), f"cells[{i}].played_as"),
            match=bool(c.get("match", False)),
            countermatch=bool(c.get("countermatch", False)),
        )
        for i, c in enumerate(body["cells"])
    ]
    cuts = [
        Cut(c["row_key"], c["end"], c["order"][0] if c["order"] else -1, False, tuple(c["order"]))
        for c in body.get("cuts") or ()
    ]
    ruleset = ruleset_from(body)
    names = [str(name) for name in body["players"]]
    try:
        evening = paper.import_evening(
            circle,
            ruleset=ruleset,
            player_names=names,
            first_dealer=body["first_dealer"],
            cells=cells,
            cuts=cuts,
            played_at=played_at,
            counts_in_money=bool(body.get("counts_in_money", True)),
            author=body.get("author"),
            request_id=body["request_id"],
        )
    except RuleError as err:  # rows and contracts named as the paper page names them
        return rule_error_response(err, ruleset, names)
    response = evening_answer(evening, 201)
    response.headers["Location"] = url_for("api.evening", evening_id=evening.public_id)
    return response
