"""JSON Schemas of the API's answers: what ``present`` builds (the tests validate real answers
against them)."""

from __future__ import annotations

from ..bots import LEVELS
from .shape_parts import BOOL, INT, INTS, PAIR, STR, TIME, Schema, nullable, obj, ref

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
        "match": {**BOOL, "description": "The declaring side took every trick (in a Misère the slate's countermatch)."},
        "countermatch": {**BOOL, "description": "The declaring side took no trick (in a Misère the slate's match)."},
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
        "seich_hands": {
            "type": "array",
            "items": nullable(obj({"hand": INT, "seat": INT})),
            "description": "Per side: where its first Seich went (the 1-based hand and the seat that "
            "called it), or null (not called; always null where the rules allow no Seich).",
        },
        "seich_calls": {
            "type": "array",
            "items": {"type": "array", "items": obj({"hand": INT, "seat": INT})},
            "description": "Per side: every Seich it called, in order (the 1-based hand and the seat "
            "that called it); several only where the rules allow a side more than one (`seich_times`).",
        },
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
        "deleted": {
            **BOOL,
            "description": "Always false: an evening deleted as a test (housekeeping) is left out of every list "
            "and answers 410 `evening_deleted` until the deletion is taken back.",
        },
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
        "rules": ref("Rules"),
        "players": {
            "type": "array",
            "items": obj(
                {
                    "seat": INT,
                    "name": STR,
                    "short": {
                        **STR,
                        "description": "The evening's short form of the name (what the slate's headers and "
                        "the picture show): its fewest first words that no other player's start with, "
                        "whole words only.",
                    },
                    "side": INT,
                }
            ),
        },
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
NEED: Schema = {
    **nullable(
        obj(
            {
                "kind": {"type": "string", "enum": ["there", "cell", "average", "matches", "others", "out"]},
                "points": {
                    **nullable(INT),
                    "description": "cell: the fewest card points (257: a match) one hand needs in one of "
                    "`rows`; average: the points per open row, on average (the line).",
                },
                "rows": {
                    "type": "array",
                    "items": STR,
                    "description": "cell: the open rows where that one hand is enough.",
                },
                "matches": {
                    **nullable(INT),
                    "description": "matches: the fewest matches that do it, with 157 points in the other open rows.",
                },
            }
        )
    ),
    "description": "The least the side needs, as the slate page says it: there (already), cell (one hand is "
    "enough), average (points in every open row, an average), matches, others (a sure win is not in its "
    "own hands), out (out of reach); null once the evening is over or the side is decided.",
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
        "lead_need": {**NEED, "description": "To take the lead. " + NEED["description"]},
        "sure_need": {**NEED, "description": "To be sure of the win. " + NEED["description"]},
    }
)
OUTLOOK_CELL: Schema = obj(
    {
        "side": INT,
        "open": BOOL,
        "value": nullable(INT),
        "match_enough": {
            **nullable(BOOL),
            "description": "Open cell: a match here alone makes the win sure (sure_alone is not null).",
        },
        "catch_up_share": {**nullable(INT), "description": "Open cell: its value at the side's catch_up line."},
        "clinch_share": {**nullable(INT), "description": "Open cell: its value at the side's clinch line."},
        "lead_alone": {
            **nullable(INT),
            "description": "Open cell: the fewest card points (257: a match) one hand here needs on its own "
            "to take the lead; null when not even a match does.",
        },
        "sure_alone": {
            **nullable(INT),
            "description": "Open cell: the same to be sure of the win.",
        },
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
        "odds_known": {
            **BOOL,
            "description": "False for a circle's own rules (house rules): no shipped table fits them, so "
            "there are no probabilities (null), only the exact lines.",
        },
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
    # the digital table
    "TableSeat": obj(
        {
            "seat": INT,
            "name": STR,
            "computer": BOOL,
            "joined": BOOL,
            "level": nullable(
                {
                    "type": "string",
                    "enum": [*LEVELS, None],
                    "description": "A computer seat's level (null for a human seat).",
                }
            ),
            "failed": {
                **BOOL,
                "description": "The computer in this seat could not move: the hand waits until the seat is "
                "given to the computer again (a retry) or to a phone (a new seat token).",
            },
        }
    ),
    "Table": obj(
        {
            "id": STR,
            "status": STR,
            "version": INT,
            "hand": INT,
            "dealer": nullable(INT),
            "to_move": nullable(INT),
            "hand_over": BOOL,
            "seats": {"type": "array", "items": ref("TableSeat")},
        }
    ),
    "EveningTable": obj({"table": nullable(ref("Table"))}),
    "SeatTokenIssued": obj(
        {"seat": INT, "token": STR, "link": STR},
        description="Shown once; the seat's previous token no longer works.",
    ),
    "SeatState": obj(
        {
            "table_id": STR,
            "status": STR,
            "version": INT,
            "seq": INT,
            "seat": INT,
            "names": {"type": "array", "items": STR},
            "choices": {"type": "array", "items": STR, "description": "The legal actions in notation, same order."},
            "view": {"type": "object", "description": "The engine's view of this seat (its own hand only)."},
            "failed_computers": {
                "type": "array",
                "items": INT,
                "description": "Computer seats that could not move: the hand waits for the organiser.",
            },
        },
    ),
}
