"""The pieces the API's JSON Schemas are built of (``shapes_requests``, ``shapes_responses``)."""

from __future__ import annotations

from typing import Any

from ..game.rulesets import Variant

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
