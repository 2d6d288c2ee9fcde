"""JSON Schemas of the API's bodies: the one source for input checks and the OpenAPI document.

Request schemas (``shapes_requests``) are checked by ``schema.validate`` before a service is
called; response schemas (``shapes_responses``) describe what ``present`` builds (the tests
validate real answers against them). Ranges the rules decide (points 0..157, open rows, seats,
factors) are NOT here: the core checks them and answers 422 with its own code. Both are built of
``shape_parts``.
"""

from __future__ import annotations

from .shape_parts import Schema
from .shapes_requests import REQUESTS
from .shapes_responses import RESPONSES

SCHEMAS: dict[str, Schema] = {**REQUESTS, **RESPONSES}

__all__ = ["REQUESTS", "RESPONSES", "SCHEMAS"]
