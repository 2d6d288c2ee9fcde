"""The shape of JSON input, checked against the same JSON Schema the OpenAPI document shows.

A small validator for the subset of JSON Schema the API uses (``type`` with type
lists for ``null``, ``properties``/``required``/``additionalProperties``, ``items``,
``enum``, ``minimum``/``maximum``, ``minLength``/``maxLength``, ``pattern``, ``minItems``/``maxItems``,
local ``$ref``). It only checks shape; every rule is the core's (via the services).
The first problem found raises ``ApiError`` (status 400) naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import ApiError

SAFE_INT = 2**53 - 1  # integers beyond this are not exact in every JSON client
REF_PREFIX = "#/components/schemas/"


def _is(value: Any, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    raise ValueError(f"schema type {kind!r} not supported")


def resolve(schema: Mapping[str, Any], components: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith(REF_PREFIX):
            raise ValueError(f"only local component refs are supported: {ref}")
        schema = components[ref[len(REF_PREFIX) :]]
    return schema


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def validate(value: Any, schema: Mapping[str, Any], components: Mapping[str, Any], path: str = "") -> None:
    """Raise ApiError (400) for the first place ``value`` does not fit ``schema``."""
    schema = resolve(schema, components)
    field = path or "body"
    if "anyOf" in schema:
        first: ApiError | None = None
        for option in schema["anyOf"]:
            try:
                validate(value, option, components, path)
                break
            except ApiError as err:
                first = first or err
        else:
            if first is not None:
                raise first
    kinds = schema.get("type")
    if kinds is not None:
        options = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, k) for k in options):
            raise ApiError("wrong_type", field=field, expected=options)
    if value is None:
        return
    if "enum" in schema and value not in schema["enum"]:
        raise ApiError("invalid_value", field=field, allowed=list(schema["enum"]))
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        low = schema.get("minimum", -SAFE_INT)
        high = schema.get("maximum", SAFE_INT)
        if not low <= value <= high:
            raise ApiError("out_of_range", field=field, minimum=low, maximum=high)
    elif isinstance(value, str):
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 10_000):
            raise ApiError(
                "out_of_range",
                field=field,
                min_length=schema.get("minLength", 0),
                max_length=schema.get("maxLength", 10_000),
            )
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            raise ApiError("invalid_value", field=field)
    elif isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 1_000):
            raise ApiError(
                "out_of_range",
                field=field,
                min_items=schema.get("minItems", 0),
                max_items=schema.get("maxItems", 1_000),
            )
        items = schema.get("items")
        if items is not None:
            for i, item in enumerate(value):
                validate(item, items, components, _join(path, i))
    elif isinstance(value, dict):
        _validate_object(value, schema, components, path)


def _validate_object(
    value: dict[str, Any], schema: Mapping[str, Any], components: Mapping[str, Any], path: str
) -> None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            raise ApiError("missing_field", field=_join(path, name))
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            validate(item, properties[name], components, _join(path, name))
        elif extra is False:
            raise ApiError("unknown_field", field=_join(path, name))
        elif isinstance(extra, Mapping):
            validate(item, extra, components, _join(path, name))
