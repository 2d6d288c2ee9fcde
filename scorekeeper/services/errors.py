"""Errors of the service layer: RuleError subclasses with stable codes."""

from __future__ import annotations

from typing import Any

from ..game.errors import N_, RuleError


class NotFound(RuleError):
    """The circle, evening, player or entry does not exist (or the link is wrong)."""

    code = "not_found"

    def __init__(self, message: str = N_("Not found."), code: str | None = None, **params: Any) -> None:
        super().__init__(message, code, **params)


class StaleVersion(RuleError):
    """Somebody else changed the evening first; nothing was written."""

    code = "stale"

    def __init__(self, current_version: int) -> None:
        super().__init__(
            N_("Somebody else changed this slate in the meantime. Here is the fresh slate; nothing was written."),
            "stale",
            current_version=current_version,
        )
        self.current_version = current_version


class Forbidden(RuleError):
    """The read-only link was used to change something."""

    code = "forbidden"

    def __init__(self, message: str = N_("This link is read-only."), code: str | None = None, **params: Any) -> None:
        super().__init__(message, code, **params)


class RequestIdReused(RuleError):
    """A request id already applied came back with a different body; nothing was written."""

    code = "request_id_reused"

    def __init__(self) -> None:
        super().__init__(
            N_(
                "This request was already sent once with other values; that first one counts. "
                "Nothing was written now: check the slate, then send again if needed."
            ),
            "request_id_reused",
        )


__all__ = ["Forbidden", "NotFound", "RequestIdReused", "RuleError", "StaleVersion"]
