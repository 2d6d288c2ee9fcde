"""Who may do what: the circle's token travels in a header, never in a URL.

``Authorization: Bearer <token>`` (preferred) or ``X-Circle-Token: <token>``. The
write token may read and write; the view token only reads (403 on a write). A token
that opens no circle and an evening that is not in the circle both answer 404 with
the same body, so nothing can be probed. A token that opened the circle once (replaced,
its circle deleted, not in a restored backup: ``services.retired``) answers 410 with its
code (``link_replaced``, ``circle_deleted``, ``link_not_in_backup``) and is not counted
as a guess.
"""

from __future__ import annotations

from flask import g, request

from ..models import Circle
from ..services import circles as circle_service
from ..services.errors import Forbidden
from .errors import ApiError

TOKEN_HEADER = "X-Circle-Token"


def token_from_request() -> str | None:
    auth = request.headers.get("Authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    token = request.headers.get(TOKEN_HEADER, "").strip()
    return token or None


def circle_from_request(*, write: bool) -> Circle:
    """The circle the request's token opens; ApiError 401 without a token, NotFound/Forbidden from the service."""
    token = token_from_request()
    if token is None:
        raise ApiError("token_required")
    circle, can_write = circle_service.open_circle(token)
    if write and not can_write:
        raise Forbidden()
    g.api_can_write = can_write
    return circle


def can_write_now() -> bool:
    """Whether the request's token (already checked by ``circle_from_request``) may write."""
    return bool(g.get("api_can_write", False))
