"""JSON Schemas of the API's bodies: the one source for input checks and the OpenAPI document.

Request schemas are checked by ``schema.validate`` before a service is called;
response schemas describe what ``present`` builds (the tests validate real answers
against them). Ranges the rules decide (points 0..157, open rows, seats, factors)
are NOT here: the core checks them and answers 422 with its own code.
"""

from __future__ import annotations

from typing import Any

from ..game.cards import DeckStyle
from ..game.rulesets import EXTRA_ROWS, SUIT_ORDERS, BarrelRule, Variant
from ..models import QUEUED_AFTER_MAX, REQUEST_ID_LEN

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(
    properties: dict[str, Schema],
    required: list[str] | None = None,
    *,
    strict: bool = True,
    description: str | None = None,
) -> Schema:
    out: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else list(required),
    }
    if strict:
        out["additionalProperties"] = False
    if description:
        out["description"] = description
    return out


def nullable(schema: Schema) -> Schema:
    if "$ref" in schema:
        return {"anyOf": [schema, {"type": "null"}]}
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return {**schema, "type": [*kinds, "null"]}


INT: Schema = {"type": "integer"}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
TIME: Schema = {"type": "string", "format": "date-time"}
INTS: Schema = {"type": "array", "items": INT}
PAIR: Schema = {"type": "array", "items": INT, "minItems": 2, "maxItems": 2}
VARIANTS = [v.value for v in Variant]

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

HAND: Schema = obj(
    {
        "declarer_seat": INT,
        "row_key": nullable(STR),
        "played_as": nullable(STR),
        "declarer_points": INT,
        "defender_points": INT,
        "match": BOOL,
        "countermatch": BOOL,
        "seich": BOOL,
    }
)
CUT: Schema = obj({"row_key": STR, "end": STR, "winner": INT, "drawn": BOOL, "order": INTS})
TIE: Schema = obj({"row_key": STR, "end": STR, "sides": INTS})
PAYOUT: Schema = obj(
    {
        "net": {**INTS, "description": "Per seat, Rappen; positive receives; sums to 0."},
        "transfers": {"type": "array", "items": obj({"payer": INT, "payee": INT, "rappen": INT})},
    }
)
RESULT: Schema = obj(
    {
        "variant": STR,
        "complete": BOOL,
        "totals": INTS,
        "rows": {
            "type": "array",
            "items": obj(
                {
                    "row_key": STR,
                    "factor": INT,
                    "values": {"type": "array", "items": nullable(INT)},
                    "marks": {"type": "array", "items": PAIR},
                    "cut": nullable(ref("Cut")),
                }
            ),
        },
        "match_row": {"type": "array", "items": PAIR},
        "net": nullable(INTS),
        "winners": {**INTS, "description": "Winning sides (several on a shared win)."},
        "cuts": {"type": "array", "items": ref("Cut")},
        "sticks": INTS,
        "potatoes": INTS,
    }
)
CELL: Schema = obj(
    {
        "value": INT,
        "index": INT,
        "played_as": nullable(STR),
        "match": BOOL,
        "countermatch": BOOL,
        "imported": {**BOOL, "description": "Typed from a paper slate (a value, no card points)."},
    }
)
SLATE: Schema = obj(
    {
        "version": INT,
        "complete": BOOL,
        "hands_dealt": INT,
        "cells_filled": INT,
        "n_cells": INT,
        "rows": {
            "type": "array",
            "items": obj(
                {
                    "key": STR,
                    "label": STR,
                    "factor": INT,
                    "choice": BOOL,
                    "kinds": {"type": "array", "items": STR},
                    "suit": nullable(STR),
                    "cells": {"type": "array", "items": nullable(ref("Cell"))},
                }
            ),
        },
        "totals": INTS,
        "match_marks": {"type": "array", "items": PAIR, "description": "(sticks, potatoes) per side, three players."},
        "open_rows": {"type": "array", "items": {"type": "array", "items": STR}, "description": "Per side."},
        "seich_used": INTS,
        "turn": nullable(ref("Turn")),
    }
)
TURN: Schema = obj(
    {
        "dealer": INT,
        "forehand": INT,
        "speaking": {**INTS, "description": "Seats that may choose, in speaking order."},
        "full_sides": INTS,
        "barrel_seat": nullable(INT),
        "barrel_rule": STR,
        "seich_available": nullable(INTS),
    }
)
PLAYER: Schema = obj({"id": INT, "name": STR})
SUMMARY: Schema = obj(
    {
        "id": STR,
        "created_at": TIME,
        "ended_at": nullable(TIME),
        "status": STR,
        "ended_early": BOOL,
        "variant": STR,
        "players": {"type": "array", "items": STR},
        "hands": INT,
        "score": nullable(INTS),
        "totals": INTS,
        "winners": {"type": "array", "items": STR},
        "money": nullable(INTS),
        "stake_rappen": INT,
        "counts_in_money": {
            **BOOL,
            "description": "False: ended early, and the table said it does not count in money.",
        },
        "deleted": {**BOOL, "description": "Deleted as a test evening (housekeeping): it counts nowhere."},
    }
)
EVENING: Schema = obj(
    {
        "id": STR,
        "status": STR,
        "ended_early": BOOL,
        "counts_in_money": {
            **BOOL,
            "description": "False: ended early, and the table said it does not count in money.",
        },
        "created_at": TIME,
        "ended_at": nullable(TIME),
        "version": INT,
        "variant": STR,
        "can_write": BOOL,
        "ruleset": {"type": "object", "description": "The rule set snapshot the evening is played with."},
        "players": {"type": "array", "items": obj({"seat": INT, "name": STR, "side": INT})},
        "sides": {"type": "array", "items": obj({"side": INT, "seats": INTS, "name": STR})},
        "slate": ref("Slate"),
        "cuts": {"type": "array", "items": ref("Cut")},
        "pending_ties": {"type": "array", "items": ref("Tie")},
        "result": nullable(ref("Result")),
        "payout": nullable(ref("Payout")),
    }
)
LOG_ITEM: Schema = obj(
    {
        "seq": INT,
        "kind": {"type": "string", "enum": ["hand", "correction", "undo"]},
        "at": TIME,
        "index": INT,
        "old": nullable(ref("Hand")),
        "new": nullable(ref("Hand")),
        "author": nullable(STR),
    }
)
ERROR: Schema = obj(
    {"error": obj({"code": STR, "message": STR, "params": {"type": "object"}})},
)
STALE: Schema = obj(
    {"error": ref("ErrorDetail"), "version": INT, "slate": ref("Slate")},
    description="409: nothing was written; the current version and the fresh slate.",
)

HOUSEKEEPING: Schema = obj(
    {
        "seq": INT,
        "kind": STR,
        "player": nullable(INT),
        "into": nullable(INT),
        "name": nullable(STR),
        "evening": nullable(STR),
        "undoes": nullable(INT),
        "author": nullable(STR),
        "created_at": nullable(TIME),
        "in_force": {**BOOL, "description": "False once an undo took it back."},
        "undone_by": {**nullable(INT), "description": "The seq of the undo that took it back."},
    }
)
NUMBER: Schema = {"type": "number"}
PROBABILITY: Schema = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
LINE: Schema = {
    "type": ["integer", "null"],
    "description": "Card points 0..157 scored in every open row of the side, 257 meaning a match; "
    "null when no such points do (and for three players).",
}
OUTLOOK_SIDE: Schema = obj(
    {
        "side": INT,
        "total": {**INT, "description": "The slate total now (three players: net sticks known now)."},
        "min": {**INT, "description": "The least final total (every open row scores 0)."},
        "max": {**INT, "description": "The most: every open row a match."},
        "decided": {"type": "string", "enum": ["won", "lost", "open"]},
        "catch_up": {
            **LINE,
            "description": "The smallest line that lifts it above every other current total "
            "(0: ahead). " + LINE["description"],
        },
        "clinch": {
            **LINE,
            "description": "The smallest line that lifts it above every other side's max "
            "(0: has won). " + LINE["description"],
        },
        "win": {**PROBABILITY, "description": "Probability of winning alone (1 or 0 once decided)."},
        "shared": {**PROBABILITY, "description": "Probability of sharing the win."},
        "expected": {**nullable(NUMBER), "description": "Expected final total (three players: net sticks)."},
    }
)
OUTLOOK_CELL: Schema = obj(
    {
        "side": INT,
        "open": BOOL,
        "value": nullable(INT),
        "match_enough": {**nullable(BOOL), "description": "Open cell: a match here alone makes the win sure."},
        "catch_up_share": {**nullable(INT), "description": "Open cell: its value at the side's catch_up line."},
        "clinch_share": {**nullable(INT), "description": "Open cell: its value at the side's clinch line."},
    }
)
OUTLOOK_ROW: Schema = obj(
    {
        "key": STR,
        "factor": INT,
        "max": {**INT, "description": "The most one cell of this row can hold (a match)."},
        "cells": {"type": "array", "items": ref("OutlookCell"), "description": "Per side."},
        "sticks": {**nullable(INTS), "description": "Three players: who can still get the sticks."},
        "potatoes": {**nullable(INTS), "description": "Three players: who can still get the potatoes."},
    }
)
OUTLOOK: Schema = obj(
    {
        "version": INT,
        "hidden": {**BOOL, "description": "The table hid the outlook: nothing computed, `sides` and `rows` empty."},
        "variant": STR,
        "sides": {"type": "array", "items": ref("OutlookSide")},
        "rows": {"type": "array", "items": ref("OutlookRow")},
        "shared": {**PROBABILITY, "description": "Probability that the evening ends in a shared win."},
        "simulations": {**INT, "description": "Simulated evenings behind the probabilities."},
        "seed": {
            **nullable(STR),
            "description": "The simulation's seed (16 hex digits), from the evening and its version.",
        },
        "history_hands": {
            **INT,
            "description": "Hands of the circle's ended evenings of this variant, declared by tonight's players, "
            "blended into the probabilities (per player and contract, weight n/(n+30)).",
        },
    },
    description="What each side still needs and its chance to win, at the evening's version "
    "(the same numbers as the slate page). Definitions: docs/DECISIONS.md, Outlook.",
)

FILTER = obj(
    {"from": nullable(STR), "to": nullable(STR), "variant": nullable(STR)},
    description="The filter the figures are over (days included; null: open).",
)
HAND_REF = obj(
    {
        "evening": STR,
        "ended_at": nullable(TIME),
        "hand": INT,
        "row_key": STR,
        "contract": nullable(STR),
        "points": INT,
        "scored": INT,
        "value": INT,
        "match": BOOL,
        "countermatch": BOOL,
    }
)
SETTLEMENT = obj(
    {
        "seq": INT,
        "kind": STR,
        "supersedes": nullable(INT),
        "payer_id": nullable(INT),
        "payee_id": nullable(INT),
        "rappen": nullable(INT),
        "paid_at": nullable(TIME),
        "entered_by": nullable(STR),
        "created_at": nullable(TIME),
        "in_force": BOOL,
    }
)
LEDGER = obj(
    {
        "filter": FILTER,
        "balances": {"type": "array", "items": obj({"player_id": INT, "name": STR, "rappen": INT})},
        "transfers": {"type": "array", "items": obj({"payer_id": INT, "payee_id": INT, "rappen": INT})},
        "fewest_proven": BOOL,
        "settlements": {"type": "array", "items": SETTLEMENT},
        "lines": {
            "type": "array",
            "items": obj(
                {
                    "when": nullable(TIME),
                    "evening": nullable(STR),
                    "payment": nullable(INT),
                    "change": {"type": "array", "items": obj({"player_id": INT, "rappen": INT})},
                }
            ),
        },
    }
)
MEMORY: dict[str, Schema] = {
    "PlayerStats": obj(
        {
            "player": obj({"id": INT, "name": STR}),
            "filter": FILTER,
            "evenings": INT,
            "wins": INT,
            "net_rappen": INT,
            "money_evenings": INT,
            "sticks": INT,
            "potatoes": INT,
            "hands": INT,
            "paper_cells": INT,
            "contracts": {
                "type": "array",
                "items": obj(
                    {
                        "kind": STR,
                        "hands": INT,
                        "points": INT,
                        "average": NUMBER,
                        "matches": INT,
                        "countermatches": INT,
                        "match_rate": NUMBER,
                        "countermatch_rate": NUMBER,
                        "best": HAND_REF,
                        "worst": HAND_REF,
                    }
                ),
            },
            "ratings": {
                "type": "array",
                "items": obj({"ladder": STR, "mu": NUMBER, "sigma": NUMBER, "ordinal": NUMBER, "evenings": INT}),
            },
            "pairings": {
                "type": "array",
                "items": obj({"partner_id": INT, "evenings": INT, "wins": INT, "net_rappen": INT, "points": INT}),
            },
            "head_to_head": {
                "type": "array",
                "items": obj({"opponent_id": INT, "evenings": INT, "ahead": INT, "behind": INT, "level": INT}),
            },
        }
    ),
    "Ledger": LEDGER,
    "Settlement": SETTLEMENT,
    "SettlementWritten": obj({"settlement": SETTLEMENT, "ledger": LEDGER}),
}

RESPONSES: dict[str, Schema] = {
    "Error": obj({"error": ref("ErrorDetail")}),
    "ErrorDetail": ERROR["properties"]["error"],
    "StaleError": STALE,
    "Hand": HAND,
    "Cut": CUT,
    "Tie": TIE,
    "Cell": CELL,
    "Turn": TURN,
    "Slate": SLATE,
    "Result": RESULT,
    "Payout": PAYOUT,
    "Player": PLAYER,
    "EveningSummary": SUMMARY,
    "Evening": EVENING,
    "LogItem": LOG_ITEM,
    "CircleCreated": obj(
        {"circle": ref("Circle"), "write_token": STR, "view_token": STR},
        description="The plain tokens are shown once; only their hashes are stored.",
    ),
    "Circle": obj({"id": STR, "name": STR, "created_at": TIME}),
    "WriteTokenRenewed": obj(
        {"circle": ref("Circle"), "write_token": STR},
        description="The new write token, shown once; the one sent with this request no longer works.",
    ),
    "ViewTokenRenewed": obj(
        {"circle": ref("Circle"), "view_token": STR},
        description="The new view token, shown once; the old view token no longer works.",
    ),
    "CircleView": obj(
        {"circle": ref("Circle"), "can_write": BOOL, "players": {"type": "array", "items": ref("Player")}}
    ),
    "PlayerList": obj({"players": {"type": "array", "items": ref("Player")}}),
    "PlayerRecords": obj(
        {
            "records": {
                "type": "array",
                "items": obj({"player_id": INT, "name": STR, "evenings": INT, "wins": INT, "net_rappen": INT}),
            }
        }
    ),
    "HousekeepingChange": HOUSEKEEPING,
    "CircleExport": {
        "type": "object",
        "description": "A circle's export (docs/EXPORT.md): format `scorekeeper-circle`, a version, the circle, "
        "players, evenings, settlements and housekeeping.",
    },
    "CircleImported": obj(
        {
            "circle": ref("Circle"),
            "write_token": STR,
            "view_token": STR,
            "links": obj({"write": STR, "view": STR}),
        },
        description="As a new circle: the plain tokens are shown once; `links` open its pages.",
    ),
    "HousekeepingLog": obj({"changes": {"type": "array", "items": ref("HousekeepingChange")}}),
    "EveningList": obj({"evenings": {"type": "array", "items": ref("EveningSummary")}}),
    "Version": obj({"version": INT}),
    "Entries": obj({"version": INT, "entries": {"type": "array", "items": obj({"index": INT, "hand": ref("Hand")})}}),
    "Corrections": obj({"version": INT, "items": {"type": "array", "items": ref("LogItem")}}),
    "Cuts": obj(
        {
            "version": INT,
            "cuts": {"type": "array", "items": ref("Cut")},
            "pending": {"type": "array", "items": ref("Tie")},
        }
    ),
    "Standing": obj(
        {
            "version": INT,
            "decided": BOOL,
            "totals": INTS,
            "match_marks": {"type": "array", "items": PAIR},
            "pending_ties": {"type": "array", "items": ref("Tie")},
            "result": nullable(ref("Result")),
            "payout": nullable(ref("Payout")),
        },
        description="`result` and `payout` once every cell is filled (or the evening ended) and every tie is cut.",
    ),
    "Variants": obj(
        {
            "variants": {
                "type": "array",
                "items": obj(
                    {"variant": STR, "players": INT, "sides": INT, "hands": INT, "ruleset": {"type": "object"}}
                ),
            }
        }
    ),
    "OutlookSide": OUTLOOK_SIDE,
    "OutlookCell": OUTLOOK_CELL,
    "OutlookRow": OUTLOOK_ROW,
    "Outlook": OUTLOOK,
    "Settings": obj({"outlook_hidden": BOOL}),
    "OpenApi": {"type": "object"},
    **MEMORY,
}

SCHEMAS: dict[str, Schema] = {**REQUESTS, **RESPONSES}
