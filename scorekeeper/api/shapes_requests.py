"""JSON Schemas of the API's request bodies, checked by ``schema.validate`` before a service is
called. Ranges the rules decide (points 0..157, open rows, seats, factors) are NOT here: the
core checks them and answers 422 with its own code."""

from __future__ import annotations

from ..bots import LEVELS
from ..game.cards import DeckStyle, Suit
from ..game.contracts import Kind
from ..game.rulesets import EXTRA_ROWS, ROW_NAME_MAX, ROWS_MAX, ROWS_MIN, SUIT_ORDERS, BarrelRule, Scoring, Shape
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

LEVEL: Schema = {
    "type": "string",
    "enum": list(LEVELS),
    "description": "The computer players' level: `easy` (the rule-based player, instant), `normal` "
    "(search, ~300 ms a move), `strong` (longer search, up to ~1 s a move). "
    "Default: the server's (`normal`).",
}
EXPECTED_SEQ: Schema = {
    "type": "integer",
    "minimum": 0,
    "description": "The number of actions in the hand so far (`seq` of the seat state).",
}


RULE_ROW: Schema = obj(
    {
        "key": {
            "type": "string",
            "maxLength": ROW_NAME_MAX,
            "description": "Stable id, unique in the rule set (`suit_H`, `obenabe`, `joker1`); "
            "default `row1`, `row2`... by position.",
        },
        "kinds": {
            "type": "array",
            "items": {"type": "string", "enum": [k.value for k in Kind]},
            "maxItems": len(Kind),
            "description": "What the row may be played as (RULES 4): one contract, or several (a joker, a "
            '"one of these two" row: the declarer says which). Empty: a house row, a contract the app has '
            "no play rules for (written by hand; the digital deal and the computer players are not offered).",
        },
        "factor": {**INT, "description": "The row's factor (three players: its sticks), 1 to 1000."},
        "suit": {
            "type": ["string", "null"],
            "enum": [*(s.letter for s in Suit), None],
            "description": "The trump suit of a suit row (`kinds` [`suit`]); null otherwise.",
        },
        "name": {
            "type": "string",
            "maxLength": ROW_NAME_MAX,
            "description": "The circle's name for the row (a house row's only label); absent: the app's.",
        },
    },
    ["factor"],
    description="One row of the slate.",
)

RULES: Schema = obj(
    {
        "variant": {
            "type": "string",
            "enum": VARIANTS,
            "description": "The preset the rule set starts from, and its shape: `three`, `teams`, `solo4`, or "
            "`club` (a team shape). Options left out are the variant's.",
        },
        "shape": {
            "type": "string",
            "enum": [sh.value for sh in Shape],
            "description": "Who plays against whom: three players alone, two teams of two, four all against "
            "all. In a request it may stand for the variant (`teams` for two teams); given with the variant, "
            "it must be the variant's.",
        },
        "rows": {
            "type": "array",
            "items": ref("RuleRow"),
            "maxItems": 100,
            "description": f"The rows in slate order, {ROWS_MIN} to {ROWS_MAX} (the rules check it: 422).",
        },
        "barrel": {"type": "string", "enum": [b.value for b in BarrelRule]},
        "undenufe_six11": BOOL,
        "seich": {**BOOL, "description": "A player in the barrel may throw the hand in (Seich)."},
        "seich_times": {**INT, "description": "How often a player or team may call Seich in an evening (1-9)."},
        "stake": obj(
            {"rappen": INT, "per_points": INT, "round_to": INT},
            [],
            description="Rappen per stick (three players) or per `per_points` points; rounded to `round_to`.",
        ),
        "deck": {"type": "string", "enum": [d.value for d in DeckStyle]},
        "scoring": {
            "type": "string",
            "enum": [sc.value for sc in Scoring],
            "description": "How a cell is written: `raw` the declarer's card points, `tenths` floor(points / "
            "10) x factor, `full` points x factor. Three players write `raw`.",
        },
        "match_points": {
            **INT,
            "description": "What a match counts as before the factor (257; `full` scoring: 157).",
        },
        "match_bonus": {**INT, "description": "Added to a match after the factor (0; `full` scoring: 100)."},
        "countermatch_cost": {
            **INT,
            "description": "Points a countermatch costs, counted before the factor (0: it writes 0).",
        },
        "preset": {**BOOL, "description": "Read-only (ignored in a request): one of the rule sets of RULES 6."},
        "digital_rows": {
            "type": "array",
            "items": STR,
            "description": "Read-only (ignored in a request): the rows the digital table deals (not the house rows).",
        },
    },
    ["rows"],
    description="A rule set: the one shape `GET /evenings/{id}` answers as `rules` and `POST /evenings` "
    "accepts as `rules`, so the rules of one evening start the next unchanged. A rule set the rules do not "
    "allow is refused with 422 `rules_invalid`, its `field` saying where (`rows[3].factor`, `rows`, "
    "`match_points`).",
)

REQUESTS: dict[str, Schema] = {
    "RuleRow": RULE_ROW,
    "Rules": RULES,
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
                "description": "Row key -> factor (the rule set checks 1..1000). Two rows may share a "
                "factor: taken as given (the start page asks first, a client says what it means).",
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
            "rules": ref("Rules"),
            "request_id": REQUEST_ID,
        },
        ["players", "first_dealer", "request_id"],
        description="`variant` (with `options` and `stake`), or `rules`: a whole rule set (a circle's own, "
        "or the `rules` of another evening).",
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
            "match": {
                **BOOL,
                "description": "The declaring side took every trick (157 : 0). The slate marks it as the "
                "match, but in a Misère as the countermatch (it writes 0).",
            },
            "countermatch": {
                **BOOL,
                "description": "The declaring side took no trick (0 : 157). The slate marks it as the "
                "countermatch, but in a Misère as the match (the opponents' 157 and the bonus).",
            },
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
            "match": {
                **BOOL,
                "description": "As in a hand: the side took every trick; in a Misère the slate's countermatch "
                "(the page's ★ and ✗ marks are the slate's).",
            },
            "countermatch": {
                **BOOL,
                "description": "As in a hand: the side took no trick; in a Misère the slate's match.",
            },
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
            "rules": ref("Rules"),
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
        ["players", "first_dealer", "cells", "request_id"],
        description="A past evening typed from a paper slate: its final cells, marked as imported. Its rules: "
        "`variant` (with `options` and `stake`), or `rules` (a circle's own).",
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
    # the digital table
    "TableOpen": obj(
        {
            "computers": {
                "type": "array",
                "items": INT,
                "maxItems": 4,
                "description": "Seats given to computer players.",
            },
            "level": LEVEL,
        },
        [],
    ),
    "SeatJoin": obj({"token": {"type": "string", "minLength": 1, "maxLength": 128}}),
    "TableChoice": obj(
        {
            "expected_seq": EXPECTED_SEQ,
            "action": {
                "type": ["integer", "string"],
                "maxLength": 100,
                "description": "An action id from `legal_actions`, or its notation from "
                "`choices` (`pass`, `seich`, `suit_H=suit:H`, `block:obenabe`).",
            },
        }
    ),
    "TablePlay": obj(
        {
            "expected_seq": EXPECTED_SEQ,
            "card": {"type": "string", "maxLength": 8, "description": "A card in notation: `H9`, `SA`, `DT`."},
        }
    ),
}
