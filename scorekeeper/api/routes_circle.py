"""Circles, players, the history and records, the variants, starting an evening."""

from __future__ import annotations

from typing import Any

from flask import url_for
from werkzeug.wrappers import Response

from ..game.errors import N_, RuleError
from ..game.rules_input import rules_from_dict
from ..game.rulesets import RuleSet, Variant, default_ruleset, stake_of
from ..models import Circle
from ..present.errors import error_text
from ..services import circles as circle_service
from ..services import evenings as svc
from ..services.read import listings
from .auth import can_write_now, token_from_request
from .blueprint import answer, evening_answer, routes
from .errors import ApiError
from .serialize import circle_dict, player_dict, players_of, record_dict, summary_dict

NAME_EXAMPLE = {"name": "Donnschtig-Jass"}
START_EXAMPLE = {
    "variant": "three",
    "players": ["Anna", "Beat", "Cla"],
    "first_dealer": 0,
    "options": {"deck": "swiss", "barrel": "book"},
    "stake": {"rappen": 50, "round_to": 5},
    "request_id": "4f7c0d0e-start-1",
}


@routes.operation(
    "/circles",
    "POST",
    summary="Create a circle",
    tag="circles",
    auth="none",
    body="CircleCreate",
    responses={
        201: ("The circle and its two tokens (shown once)", "CircleCreated"),
        422: ("The name is empty or too long", "Error"),
    },
    example=NAME_EXAMPLE,
)
def create_circle(body: dict[str, Any]) -> Response:
    circle, write_token, view_token = circle_service.create_circle(body["name"])
    return answer({"circle": circle_dict(circle), "write_token": write_token, "view_token": view_token}, 201)


@routes.operation(
    "/circle",
    "GET",
    summary="The circle of the token",
    tag="circles",
    responses={200: ("The circle, whether the token may write, its players", "CircleView")},
)
def circle(circle: Circle) -> Response:
    return answer({"circle": circle_dict(circle), "can_write": can_write_now(), "players": players_of(circle)})


@routes.operation(
    "/circle/write-token",
    "POST",
    summary="Replace the write token",
    tag="circles",
    auth="write",
    description="A new write token; the one sent with this request stops working at once, on every "
    "worker and host, for every client that uses it (phones with the write link included). The new token "
    "is in this answer only: keep it before anything else. No body.",
    responses={200: ("The new write token (shown once)", "WriteTokenRenewed")},
)
def new_write_token(circle: Circle) -> Response:
    token = circle_service.new_write_link(circle, token_from_request())  # the onlookers link stays shown
    return answer({"circle": circle_dict(circle), "write_token": token})


@routes.operation(
    "/circle/view-token",
    "POST",
    summary="Replace the view token",
    tag="circles",
    auth="write",
    description="A new view (onlookers) token; the old one stops working at once. The write token is unchanged. "
    "No body.",
    responses={200: ("The new view token (shown once)", "ViewTokenRenewed")},
)
def new_view_token(circle: Circle) -> Response:
    token = circle_service.new_view_link(circle, token_from_request())  # kept for the circle page to show
    return answer({"circle": circle_dict(circle), "view_token": token})


@routes.operation(
    "/players", "GET", summary="The circle's players", tag="players", responses={200: ("Players by name", "PlayerList")}
)
def players(circle: Circle) -> Response:
    return answer({"players": players_of(circle)})


@routes.operation(
    "/players",
    "POST",
    summary="Add a player",
    tag="players",
    auth="write",
    body="PlayerCreate",
    responses={201: ("The new player", "Player"), 422: ("Name empty, too long, or already in the circle", "Error")},
    example={"name": "Dora"},
)
def add_player(circle: Circle, body: dict[str, Any]) -> Response:
    return answer(player_dict(circle_service.add_player(circle, body["name"])), 201)


@routes.operation(
    "/players/records",
    "GET",
    summary="Per player: evenings, wins, net money",
    tag="players",
    responses={200: ("Records of every player, by name", "PlayerRecords")},
)
def records(circle: Circle) -> Response:
    return answer({"records": [record_dict(r) for r in listings.player_records(circle)]})


@routes.operation(
    "/evenings",
    "GET",
    summary="The history: every evening, newest first",
    tag="evenings",
    responses={200: ("Evening summaries (result and money once decided)", "EveningList")},
)
def evenings(circle: Circle) -> Response:
    return answer({"evenings": [summary_dict(s) for s in listings.history(circle)]})


@routes.operation(
    "/variants",
    "GET",
    summary="The variants and their default rule sets",
    tag="evenings",
    auth="none",
    responses={200: ("One default rule set per variant", "Variants")},
)
def variants() -> Response:
    out = []
    for v in Variant:
        rs = default_ruleset(v)
        out.append(
            {
                "variant": v.value,
                "players": rs.n_players,
                "sides": rs.n_sides,
                "hands": rs.n_hands,
                "ruleset": rs.to_dict(),
            }
        )
    return answer({"variants": out})


def ruleset_from(body: dict[str, Any]) -> RuleSet:
    """The rule set of a start request: ``rules`` (checked by the rules; 422 ``rules_invalid``
    naming the field), else the variant's defaults adjusted by the options given."""
    if "rules" in body:
        return rules_of(body)
    if "variant" not in body:
        raise ApiError("missing_field", field="variant")
    variant = Variant(body["variant"])
    options: dict[str, Any] = body.get("options") or {}
    stake_in: dict[str, Any] = body.get("stake") or {}
    try:
        stake = stake_of(
            variant,
            rappen=stake_in.get("rappen"),
            per_points=stake_in.get("per_points"),
            round_to=stake_in.get("round_to"),
        )
        return default_ruleset(
            variant,
            suit_order=options.get("suit_order"),
            extra_rows=options.get("extra_rows", ()),
            barrel=options.get("barrel"),
            undenufe_six11=bool(options.get("undenufe_six11", False)),
            stake=stake,
            deck=options.get("deck"),
            factors=options.get("factors") or None,
            jokers_play_extras=bool(options.get("jokers_play_extras", False)),
        )
    except RuleError as err:  # the reason in the caller's language, its rule's code beside it
        raise ApiError("options_invalid", reason=error_text(err), rule=err.code) from None


def rules_of(body: dict[str, Any]) -> RuleSet:
    """A start request's ``rules``: alone (no ``options`` or ``stake`` beside it; a ``variant``
    beside it is the rules' own), read and checked by ``rules_input.rules_from_dict``."""
    rules: dict[str, Any] = body["rules"]
    for extra in ("options", "stake"):
        if extra in body:
            raise ApiError("invalid_value", field=extra)  # the rule set holds its options and stake
    try:
        ruleset = rules_from_dict(rules)
        if body.get("variant", ruleset.variant.value) != ruleset.variant.value:
            raise RuleError(N_("The rule set's %(field)s is not valid."), "rules_field", field="variant")
    except RuleError as err:  # the reason in the caller's language, its field and rule's code beside it
        field = str(err.params.get("field", "rules"))
        raise ApiError("rules_invalid", field=field, reason=error_text(err), rule=err.code) from None
    return ruleset


@routes.operation(
    "/evenings",
    "POST",
    summary="Start an evening",
    tag="evenings",
    auth="write",
    body="EveningStart",
    description="Variant, options, players in seat order, first dealer and stake; or instead of variant, "
    "options and stake a whole rule set as `rules` (the `rules` of another evening start the next unchanged). "
    "A repeated `request_id` returns the evening it started (no second evening).",
    responses={
        201: ("The new evening (Location: its URL)", "Evening"),
        422: ("Players, dealer or options break a rule", "Error"),
    },
    example=START_EXAMPLE,
)
def start_evening(circle: Circle, body: dict[str, Any]) -> Response:
    evening = svc.start_evening(
        circle,
        ruleset=ruleset_from(body),
        player_names=list(body["players"]),
        first_dealer=body["first_dealer"],
        request_id=body["request_id"],
    )
    response = evening_answer(evening, 201)
    response.headers["Location"] = url_for("api.evening", evening_id=evening.public_id)
    return response
