"""The JSON API under ``/api/v1``: the same services and checks as the pages.

``register(app)`` is called by ``create_app``. The blueprint is exempt from CSRF
(token-authenticated JSON; writes must be ``application/json``, which a browser
form cannot send cross-site without a preflight). Every answer under ``/api/v1``,
errors included, is JSON; see ``errors`` for the codes and statuses and
``/api/v1/openapi.json`` for the document.

- ``blueprint``: the blueprint, its route registry and the helpers the views share;
  ``registry``: ``ApiRoutes.operation`` registers a view AND its OpenAPI description,
  and runs the common checks (token, media type, body against its schema);
- ``shapes``: the JSON Schemas of bodies and answers (one source for both);
  ``validation``: input checked against them; ``openapi``: the OpenAPI document;
- ``serialize``: JSON from the services' values and an evening's snapshot;
- ``auth``, ``errors``; the views: ``routes_circle``, ``routes_evening``, ``routes_table``,
  ``routes_memory`` (a player's statistics, the purse and its settlements),
  ``routes_housekeeping``, ``routes_data`` (export, restore, delete, paper slates).

The API never imports the pages (``web``); shared words come from ``present``.
"""

from __future__ import annotations

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response

from ..extensions import csrf
from ..game.errors import RuleError
from ..services import evenings as svc
from ..services.errors import StaleVersion
from ..services.read import snapshot
from ..services.read.replay import ruleset_of
from . import (  # noqa: F401  (the views register themselves)
    routes_circle,
    routes_data,
    routes_evening,
    routes_housekeeping,
    routes_memory,
    routes_table,
)
from .blueprint import bp, routes
from .errors import ApiError, api_error_response, http_error_response, rule_error_response
from .openapi import document
from .registry import PREFIX
from .serialize import slate_dict

__all__ = ["bp", "register", "routes"]


@bp.route("/openapi.json")
def openapi() -> Response:
    return jsonify(document(routes.operations))


@bp.errorhandler(ApiError)
def _api_error(err: ApiError) -> Response:
    response = api_error_response(err)
    if err.code == "token_required":
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return response


@bp.errorhandler(RuleError)
def _rule_error(err: RuleError) -> Response:
    evening = g.get("api_evening")
    if evening is None:
        return rule_error_response(err)
    ruleset = ruleset_of(evening)
    if isinstance(err, StaleVersion):  # the fresh slate, read after the failed write rolled back
        fresh = snapshot.load_snapshot(svc.get_evening(g.api_circle, g.api_evening_id))
        extra = {"version": fresh.version, "slate": slate_dict(fresh)}
        return rule_error_response(err, ruleset, list(fresh.names), extra)
    return rule_error_response(err, ruleset, list(svc.names_of(evening)), {})


def _http_error(exc: HTTPException) -> Response:
    return http_error_response(exc)


# Code-specific handlers: the pages' app-wide 404/403 handlers (HTML) must not answer here.
# 500 (and 503) are the app's fault handlers (``scorekeeper.faults``): they answer this shape
# under /api/ and know whether anything was written.
for _code in (400, 403, 404, 405, 413, 415):
    bp.register_error_handler(_code, _http_error)
bp.register_error_handler(HTTPException, _http_error)


def _routing_errors() -> Response | None:
    """Unknown paths and wrong methods under /api/v1 answer JSON (the pages keep their HTML)."""
    exc = request.routing_exception
    under_api = request.path == PREFIX or request.path.startswith(PREFIX + "/")
    if exc is None or isinstance(exc, RequestRedirect) or not under_api:
        return None
    return http_error_response(exc)


@bp.after_request
def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


def register(app: Flask) -> None:
    csrf.exempt(bp)
    app.register_blueprint(bp)
    app.before_request(_routing_errors)
