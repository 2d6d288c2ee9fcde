"""JSON errors of the API: one shape, stable codes, messages in the caller's language.

Every error answer is ``{"error": {"code": ..., "message": ..., "params": {...}}}``
(a stale write adds ``"slate"`` and ``"version"`` next to ``"error"``).

Status per error class:

- 400 the request's shape: bad JSON, missing field, wrong type, unknown field,
  a value outside the JSON-safe range, an unknown option name (``ShapeError``);
- 401 no circle token sent; 403 a read-only token used to write (``Forbidden``);
- 404 unknown route, circle, evening (``NotFound``: one answer for a wrong token and
  an unknown evening, so nothing can be probed);
- 405 method, 413 body too large, 415 not ``application/json``;
- 409 stale ``expected_version`` (``StaleVersion``);
- 410 a token that opened the circle once and no longer does (``LinkGone``: ``link_replaced``,
  ``circle_deleted``, ``link_not_in_backup``; never counted as a guess by the rate limiter), and
  an evening deleted as a test (``EveningDeleted``, code ``evening_deleted``: every read and
  write of it, until the deletion is taken back);
- 422 any other ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from flask import Response, jsonify
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from ..game.cards import Card, Suit
from ..game.contracts import Contract
from ..game.errors import RuleError
from ..game.rulesets import RuleSet
from ..present.errors import error_text
from ..services.errors import EveningDeleted, Forbidden, LinkGone, NotFound, StaleVersion

# Messages of the API's own codes (rules bring their own, from the core).
MESSAGES: dict[str, Any] = {
    "bad_json": _l("The request body is not valid JSON."),
    "body_not_object": _l("The request body must be a JSON object."),
    "missing_field": _l("The field %(field)s is required."),
    "wrong_type": _l("The field %(field)s has the wrong type."),  # when TYPE_MESSAGES has no sentence
    "out_of_range": _l("The field %(field)s is out of range."),
    "unknown_field": _l("The field %(field)s is not known here."),
    "invalid_value": _l("The field %(field)s has a value that is not allowed."),
    "options_invalid": _l("These options do not fit together: %(reason)s"),
    "rules_invalid": _l("The rule set is not valid (%(field)s): %(reason)s"),
    "token_required": _l("Send the circle's token in the Authorization header (Bearer) or in X-Circle-Token."),
    "not_found": _l("Not found."),
    "read_only": _l("This token is read-only: it shows the circle but cannot change it."),
    "method_not_allowed": _l("This method is not allowed here."),
    "unsupported_media_type": _l("Send the request body as JSON (Content-Type: application/json)."),
    "too_large": _l("The request body is too large."),
    "bad_request": _l("The request could not be understood."),
    "internal": _l("Something went wrong on the server. Nothing was written."),
}

# "wrong_type": one whole sentence per set of JSON types a field takes (a type word inside a
# translated sentence would stay English), keyed by the schema's type names.
TYPE_MESSAGES: dict[frozenset[str], Any] = {
    frozenset({"integer"}): _l("The field %(field)s must be a whole number."),
    frozenset({"number"}): _l("The field %(field)s must be a number."),
    frozenset({"string"}): _l("The field %(field)s must be text."),
    frozenset({"boolean"}): _l("The field %(field)s must be true or false."),
    frozenset({"array"}): _l("The field %(field)s must be a list."),
    frozenset({"object"}): _l("The field %(field)s must be an object."),
    frozenset({"null"}): _l("The field %(field)s must be null."),
    frozenset({"integer", "null"}): _l("The field %(field)s must be a whole number or null."),
    frozenset({"number", "null"}): _l("The field %(field)s must be a number or null."),
    frozenset({"string", "null"}): _l("The field %(field)s must be text or null."),
    frozenset({"boolean", "null"}): _l("The field %(field)s must be true, false or null."),
    frozenset({"array", "null"}): _l("The field %(field)s must be a list or null."),
    frozenset({"object", "null"}): _l("The field %(field)s must be an object or null."),
    frozenset({"integer", "string"}): _l("The field %(field)s must be a whole number or text."),
}

# Codes and their status; RuleError codes not listed here are rule violations (422).
STATUS: dict[str, int] = {
    "bad_json": 400,
    "body_not_object": 400,
    "missing_field": 400,
    "wrong_type": 400,
    "out_of_range": 400,
    "unknown_field": 400,
    "invalid_value": 400,
    "bad_request": 400,
    "token_required": 401,
    "read_only": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "stale": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "options_invalid": 422,
    "rules_invalid": 422,
    "internal": 500,
}


class ApiError(Exception):
    """An error of the API layer itself (shape, auth, media type)."""

    def __init__(self, code: str, status: int | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.status = status if status is not None else STATUS[code]
        self.params = params


def json_param(value: Any) -> Any:
    """A message parameter as plain JSON (cards and suits by their notation)."""
    if value is None or isinstance(value, (bool, int, float, str)) and not isinstance(value, Enum):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Contract):
        return value.code
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [json_param(v) for v in value]
    return str(value)


def error_body(code: str, message: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "params": {k: json_param(v) for k, v in params.items()}}}


def _template(err: ApiError) -> Any:
    if err.code == "wrong_type":
        expected = err.params.get("expected")
        if isinstance(expected, (list, tuple)) and frozenset(expected) in TYPE_MESSAGES:
            return TYPE_MESSAGES[frozenset(expected)]
    return MESSAGES.get(err.code, MESSAGES["bad_request"])


def api_error_response(err: ApiError) -> Response:
    text = str(_template(err))
    try:
        message = text % {k: json_param(v) for k, v in err.params.items()} if err.params else text
    except (KeyError, ValueError, TypeError):
        message = text
    response = jsonify(error_body(err.code, message, err.params))
    response.status_code = err.status
    return response


def rule_status(err: RuleError) -> int:
    if isinstance(err, NotFound):
        return 404
    if isinstance(err, Forbidden):
        return 403
    if isinstance(err, StaleVersion):
        return 409
    if isinstance(err, (LinkGone, EveningDeleted)):
        return 410
    return 422


def rule_error_response(
    err: RuleError,
    ruleset: RuleSet | None = None,
    names: list[str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    """A RuleError from the core or the services as JSON, translated like the pages do it."""
    if isinstance(err, NotFound):  # one answer for every unknown thing: no oracle
        return api_error_response(ApiError("not_found"))
    if isinstance(err, Forbidden):
        return api_error_response(ApiError("read_only"))
    body = error_body(err.code, error_text(err, ruleset, names), err.params)
    body.update(extra or {})
    response = jsonify(body)
    response.status_code = rule_status(err)
    return response


def http_error_response(exc: HTTPException) -> Response:
    """Werkzeug's HTTP errors (routing, 405, 413, a bad request) as JSON."""
    code = {
        401: "token_required",
        403: "read_only",
        404: "not_found",
        405: "method_not_allowed",
        413: "too_large",
        415: "unsupported_media_type",
        500: "internal",
    }.get(exc.code or 500, "bad_request")
    status = exc.code if exc.code and 400 <= exc.code < 600 else 400
    response = api_error_response(ApiError(code, status))
    if exc.code == 405:
        allowed = getattr(exc, "valid_methods", None)
        if allowed:
            response.headers["Allow"] = ", ".join(sorted(allowed))
    return response
