"""The OpenAPI 3.1 document, built from the route registry and the component schemas."""

from __future__ import annotations

from typing import Any

from .registry import PREFIX, Operation
from .shape_parts import ref
from .shapes import SCHEMAS

ERRORS: dict[int, str] = {
    400: "Bad shape: invalid JSON, a missing field, a wrong type, an unknown field, a value out of range",
    401: "No token sent (Authorization: Bearer, or X-Circle-Token)",
    403: "The token is read-only",
    404: "Unknown circle token, evening, or route (one answer for all)",
    405: "Method not allowed",
    410: "The token opened this circle once and no longer does (code link_replaced: a new one took its place; "
    "circle_deleted; link_not_in_backup: the data was restored from an older backup); not counted as a guess. "
    "Or the evening was deleted as a test (code evening_deleted): every read and write of it is refused "
    "until the deletion is taken back (housekeeping)",
    413: "Body too large",
    415: "Content-Type is not application/json",
    429: "Rate limit reached (code rate_limited; see Retry-After): too many new circles, imports or wrong tokens "
    "from this address, or too many writes to this evening",
}

INFO = {
    "title": "scorekeeper API",
    "version": "1",
    "description": (
        "The chalk slate of Coiffeur Jass evenings as JSON. Authenticate with the circle's token: "
        "`Authorization: Bearer <token>` (or `X-Circle-Token: <token>`). The write token reads and writes; the "
        "view token only reads. Every change carries `expected_version` (409 with the fresh slate when stale) and "
        "a `request_id`: a repeat with the same body is a no-op that answers success (safe to resend after a "
        "lost answer or an error); the same `request_id` with another body is 422 `request_id_reused` and writes "
        'nothing. Errors: `{"error": {"code", "message", "params"}}`, the message in the language of '
        "`Accept-Language`. Seats are 0-based in playing order; in the team variants "
        "seats 0+2 and 1+3 are sides 0 and 1. Money is in Rappen. Shape limits on top of the schemas: integers "
        "within ±(2^53−1), strings up to 10,000 characters, lists up to 1,000 items, bodies up to 64 KiB. "
        "Any call may answer 503 with `Retry-After` when the database cannot be reached, and 500 on a fault; "
        "their code says what was written: `unavailable`/`internal` (nothing), `saved_no_answer` (the change "
        "was saved), `outcome_unknown` (it may have been): resending the same request is safe."
    ),
}


def _content(schema_name: str) -> dict[str, Any]:
    return {"application/json": {"schema": ref(schema_name)}}


def _operation(op: Operation) -> dict[str, Any]:
    out: dict[str, Any] = {"operationId": op.endpoint, "summary": op.summary, "tags": [op.tag]}
    if op.description:
        out["description"] = op.description
    params = list(op.query) + list(op.headers)
    if params:
        out["parameters"] = params
    if op.auth == "none":
        out["security"] = []
    elif op.auth == "write":
        out["description"] = (out.get("description", "") + " Needs the write token.").strip()
    documented = op.body or op.raw_body
    if documented is not None:
        body: dict[str, Any] = {"required": True, "content": _content(documented)}
        if op.example is not None:
            body["content"]["application/json"]["example"] = op.example
        out["requestBody"] = body
    responses: dict[str, Any] = {}
    for status, (text, schema) in sorted(op.responses.items()):
        responses[str(status)] = {"description": text, **({"content": _content(schema)} if schema else {})}
    codes = [405, 429]
    if documented is not None:
        codes += [400, 413, 415]
    if op.auth != "none":
        codes += [401, 404, 410]
    if op.auth == "write":
        codes.append(403)
    if "/evenings/<evening_id>" in op.rule or op.rule.startswith("/tables/"):
        codes.append(410)
    for status in sorted(codes):
        responses.setdefault(str(status), {"description": ERRORS[status], "content": _content("Error")})
    out["responses"] = responses
    return out


def document(operations: list[Operation]) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    paths.setdefault(PREFIX + "/openapi.json", {})["get"] = {
        "operationId": "openapi",
        "summary": "This document",
        "tags": ["meta"],
        "security": [],
        "responses": {"200": {"description": "OpenAPI 3.1", "content": _content("OpenApi")}},
    }
    return {
        "openapi": "3.1.0",
        "info": INFO,
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"circleToken": []}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "The circle's write or view token."},
                "circleToken": {"type": "apiKey", "in": "header", "name": "X-Circle-Token"},
            },
        },
    }
