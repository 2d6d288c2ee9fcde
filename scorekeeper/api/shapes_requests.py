"""JSON Schemas of the API's request bodies, checked by ``schema.validate`` before a service is
called. Ranges the rules decide (points 0..157, open rows, seats, factors) are NOT here: the
core checks them and answers 422 with its own code."""

from __future__ import annotations

from ..game.cards import DeckStyle
from ..game.rulesets import EXTRA_ROWS, SUIT_ORDERS, BarrelRule
from ..models import QUEUED_AFTER_MAX, REQUEST_ID_LEN
from .shape_parts import BOOL, INT, STR, TIME, VARIANTS, Schema, nullable, obj, ref

REQUEST_ID: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": REQUEST_ID_LEN,
    "pattern": "^[!-~]+$",
    "description": "Unique per change (e.g. a UUID; printable ASCII, no spaces); a repeat is a no-op (idempotent).",
}
EXPECTED_VERSION: Schema = {
    "type": "integer",
    "minimum": 0,
    "description": "The evening version the change is based on; else 409 and the fresh slate.",
}
WRITE_FIELDS: dict[str, Schema] = {"expected_version": EXPECTED_VERSION, "request_id": REQUEST_ID}
AUTHOR: Schema = {"type": ["string", "null"], "maxLength": 200, "description": "Who entered it (a name; optional)."}

REQUESTS: dict[str, Schema] = {
    "CircleCreate": obj({"name": {"type": "string", "maxLength": 1000}}),
    "PlayerCreate": obj({"name": {"type": "string", "maxLength": 1000}}),
    "RuleOptions": obj(
        {
            "suit_order": {"type": "string", "enum": sorted(SUIT_ORDERS)},
            "extra_rows": {"type": "array", "items": {"type": "string", "enum": list(EXTRA_ROWS)}, "maxItems": 3},
            "barrel": {"type": "string", "enum": [b.value for b in BarrelRule]},
            "undenufe_six11": BOOL,
            "jokers_play_extras": {
                "type": "boolean",
                "description": "Four players: a joker may also be played as one of the extra rows (default: "
                "only as a suit, Obenabe or Undenufe).",
            },
            "deck": {"type": "string", "enum": [d.value for d in DeckStyle]},
            "factors": {
                "type": "object",
                "additionalProperties": INT,
                "description": "Row key -> factor (the rule set checks 1..1000).",
            },
        },
        [],
        description="Options of the variant; every one defaults to the variant's default.",
    ),
    "StakeOptions": obj(
        {"rappen": INT, "per_points": INT, "round_to": {"type": "integer", "enum": [1, 5]}},
        [],
        description="Rappen per stick (three players; `per_points` is ignored there) or per `per_points` points of "
        "difference; amounts rounded to `round_to`. Defaults: the variant's.",
    ),
    "EveningStart": obj(
        {
            "variant": {"type": "string", "enum": VARIANTS},
            "players": {
                "type": "array",
                "items": {"type": "string", "maxLength": 1000},
                "maxItems": 8,
                "description": "Names in seat order (seat 0 first; teams are seats 0+2 and 1+3). "
                "New names join the circle.",
            },
            "first_dealer": {"type": "integer", "description": "Seat of the first dealer."},
            "options": ref("RuleOptions"),
            "stake": ref("StakeOptions"),
            "request_id": REQUEST_ID,
        },
        ["variant", "players", "first_dealer", "request_id"],
    ),
    "HandInput": obj(
        {
            **WRITE_FIELDS,
            "declarer_seat": INT,
            "row_key": {"type": ["string", "null"], "maxLength": 200, "description": "Row key; null only for a Seich."},
            "played_as": {
                "type": ["string", "null"],
                "maxLength": 200,
                "description": "Contract code (e.g. `suit:H`, `slalom:obenabe`, `misere:undenufe`); "
                "required for joker, 12-fach and Misère/Zwüschedüre rows.",
            },
            "declarer_points": {**INT, "description": "Declaring side's card points (0..157, checked by the rules)."},
            "defender_points": {**INT, "description": "Defenders' card points; both add up to 157."},
            "match": BOOL,
            "countermatch": BOOL,
            "seich": {**BOOL, "description": "Club variant: thrown in from the barrel (no row, no points)."},
            "author": AUTHOR,
            "queued_after": {
                "type": "array",
                "items": {k: v for k, v in REQUEST_ID.items() if k != "description"},
                "maxItems": QUEUED_AFTER_MAX,
                "description": "Sent from an offline phone's queue: the request ids of that phone's earlier "
                "queued hands. The hand is then accepted on a newer version than `expected_version` if every "
                "change since was one of them; otherwise 409 as usual.",
            },
        },
        ["expected_version", "request_id", "declarer_seat"],
        description="One hand. Points are required unless `seich` is true.",
    ),
    "Action": obj({**WRITE_FIELDS, "author": AUTHOR}, ["expected_version", "request_id"]),
    "SettlementInput": obj(
        {
            "kind": {"type": "string", "enum": ["payment", "correction", "void"], "description": "Default `payment`."},
            "supersedes": {**nullable(INT), "description": "Correction or void: the `seq` of the row it replaces."},
            "payer_id": {**nullable(INT), "description": "Who paid (a player id); not for a void."},
            "payee_id": {**nullable(INT), "description": "Who received it."},
            "rappen": {**nullable(INT), "description": "How much, in Rappen (more than 0)."},
            "paid_at": {
                "type": ["string", "null"],
                "maxLength": 64,
                "description": "When the money changed hands: a day (`2026-11-30`, noon in the circle's time zone) "
                "or a date-time with its offset.",
            },
            "entered_by": AUTHOR,
            "request_id": REQUEST_ID,
        },
        ["request_id"],
    ),
    "EndInput": obj(
        {
            **WRITE_FIELDS,
            "early": {**BOOL, "description": "End before every cell is filled."},
            "counts_in_money": {
                **BOOL,
                "description": "An evening ended early counts in the circle's money totals only if true "
                "(default true); a complete evening always counts.",
            },
        },
        ["expected_version", "request_id"],
    ),
    "PaperCell": obj(
        {
            "row_key": {"type": "string", "maxLength": 200},
            "side": {**INT, "description": "The column: a player (three players, solo) or a team (0 or 1)."},
            "value": {**INT, "description": "The cell as written on the paper slate."},
            "played_as": {
                "type": ["string", "null"],
                "maxLength": 200,
                "description": "What a joker row was played as (optional; a Misère must be named).",
            },
            "match": BOOL,
            "countermatch": BOOL,
        },
        ["row_key", "side", "value"],
    ),
    "PaperEvening": obj(
        {
            "variant": {"type": "string", "enum": VARIANTS},
            "players": {"type": "array", "items": {"type": "string", "maxLength": 1000}, "maxItems": 8},
            "first_dealer": INT,
            "options": ref("RuleOptions"),
            "stake": ref("StakeOptions"),
            "cells": {"type": "array", "items": ref("PaperCell"), "maxItems": 200},
            "cuts": {
                "type": "array",
                "maxItems": 40,
                "description": "Three players: how each tie was cut (the tied sides, highest card first); "
                "a tie without one is cut by the app.",
                "items": obj(
                    {
                        "row_key": STR,
                        "end": {"type": "string", "enum": ["high", "low", "all"]},
                        "order": {"type": "array", "items": INT, "maxItems": 4},
                    }
                ),
            },
            "played_at": {**TIME, "description": "When the evening was played (default: now)."},
            "counts_in_money": {
                **BOOL,
                "description": "With empty cells (ended early): counts in the money totals only if true (default).",
            },
            "author": AUTHOR,
            "request_id": REQUEST_ID,
        },
        ["variant", "players", "first_dealer", "cells", "request_id"],
        description="A past evening typed from a paper slate: its final cells, marked as imported.",
    ),
    "CircleDelete": obj({"name": {"type": "string", "maxLength": 1000, "description": "The circle's name, again."}}),
    "HousekeepingInput": obj(
        {
            "kind": {"type": "string", "enum": ["rename", "merge", "delete_evening", "undo"]},
            "player": {**INT, "description": "rename, merge: the player's id."},
            "into": {**INT, "description": "merge: the id of the player kept."},
            "name": {"type": "string", "maxLength": 1000, "description": "rename: the new name."},
            "evening": {"type": "string", "maxLength": 64, "description": "delete_evening: the evening's id."},
            "undoes": {**INT, "description": "undo: the seq of the change taken back."},
            "request_id": REQUEST_ID,
            "author": AUTHOR,
        },
        ["kind", "request_id"],
    ),
    "CutInput": obj(
        {
            **WRITE_FIELDS,
            "row_key": STR,
            "end": {"type": "string", "enum": ["high", "low", "all"]},
            "winner": {**INT, "description": "The side that drew the highest card."},
            "order": {
                "type": "array",
                "items": INT,
                "maxItems": 4,
                "description": "Every tied side, highest card first (needed for a three-way tie).",
            },
        },
        ["expected_version", "request_id", "row_key", "end", "winner"],
    ),
    "SettingsInput": obj(
        {"outlook_hidden": {**BOOL, "description": "Hide the outlook for this evening (nothing computed or shown)."}},
        [],
        description="The evening's settings; what is left out stays as it is. Not a change of the slate: "
        "no version, no request id (setting a value twice is the same as once).",
    ),
}
