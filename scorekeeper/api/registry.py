"""Routes and their description in one place: ``ApiRoutes.operation`` registers a view on
the blueprint AND records what the OpenAPI document says about it.

The decorator also does the common work of every endpoint, in this order: the circle
token (401/404/403), ``Content-Type: application/json`` for writes (415), the JSON body
(400) checked against the request schema (400), then the view runs with ``circle``
(and ``body``) passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Literal

from flask import Blueprint, request
from werkzeug.exceptions import BadRequest

from .auth import circle_from_request
from .errors import ApiError
from .shapes import SCHEMAS
from .validation import validate

Auth = Literal["none", "read", "write"]
Where = Literal["path", "query", "header"]
PREFIX = "/api/v1"
MAX_BODY = 64 * 1024


def parameter(
    name: str, where: Where, schema: dict[str, Any], description: str | None = None, *, required: bool | None = None
) -> dict[str, Any]:
    """An OpenAPI parameter; one in the path is required, the others only when ``required``."""
    out: dict[str, Any] = {"name": name, "in": where, "required": where == "path" if required is None else required}
    out["schema"] = schema
    if description is not None:
        out["description"] = description
    return out


@dataclass(frozen=True)
class Operation:
    rule: str  # Flask rule below PREFIX, e.g. "/evenings/<evening_id>/entries/<int:index>"
    method: str
    endpoint: str
    summary: str
    description: str
    tag: str
    auth: Auth
    body: str | None  # request schema name
    responses: dict[int, tuple[str, str | None]]  # status -> (description, response schema name)
    query: tuple[dict[str, Any], ...] = ()
    headers: tuple[dict[str, Any], ...] = ()
    example: dict[str, Any] | None = None
    # A body the view reads itself (documented as ``raw_body``'s schema; not checked here),
    # e.g. an export file larger than MAX_BODY.
    raw_body: str | None = None

    @property
    def path(self) -> str:
        """The OpenAPI path: ``/api/v1/evenings/{evening_id}``."""
        return PREFIX + re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", self.rule)


@dataclass
class ApiRoutes:
    blueprint: Blueprint
    operations: list[Operation] = field(default_factory=list)

    def operation(
        self,
        rule: str,
        method: str,
        *,
        summary: str,
        tag: str,
        auth: Auth = "read",
        body: str | None = None,
        responses: dict[int, tuple[str, str | None]],
        description: str = "",
        query: tuple[dict[str, Any], ...] = (),
        headers: tuple[dict[str, Any], ...] = (),
        example: dict[str, Any] | None = None,
        raw_body: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
            op = Operation(
                rule,
                method,
                view.__name__,
                summary,
                description,
                tag,
                auth,
                body,
                responses,
                query,
                headers,
                example,
                raw_body,
            )

            @wraps(view)
            def run(**kwargs: Any) -> Any:
                if auth != "none":
                    kwargs["circle"] = circle_from_request(write=auth == "write")
                if body is not None:
                    kwargs["body"] = json_body(body)
                return view(**kwargs)

            self.operations.append(op)
            self.blueprint.add_url_rule(rule, view.__name__, run, methods=[method])
            return run

        return decorate


def json_body(schema_name: str) -> dict[str, Any]:
    """The request's JSON object, checked against ``schema_name``; ApiError (400/413/415) otherwise."""
    if not request.is_json:
        raise ApiError("unsupported_media_type")
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError("too_large")
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY:
        raise ApiError("too_large")
    try:
        data = request.get_json()
    except (BadRequest, RecursionError, ValueError):
        raise ApiError("bad_json") from None
    if not isinstance(data, dict):
        raise ApiError("body_not_object")
    validate(data, SCHEMAS[schema_name], SCHEMAS)
    return data
