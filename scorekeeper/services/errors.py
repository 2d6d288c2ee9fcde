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


# (reason, what the link was) -> (code, message); a reason alone stands for every kind of link.
GONE: dict[tuple[str, str | None], tuple[str, str]] = {
    ("replaced", "write"): (
        "link_replaced",
        N_("This circle's write link was changed: ask the others at the table for the new link."),
    ),
    ("replaced", "view"): (
        "link_replaced",
        N_("This circle's onlookers link was changed: ask the others at the table for the new link."),
    ),
    ("deleted", None): (
        "circle_deleted",
        N_("This circle was deleted: its slates and history are no longer in this app."),
    ),
    ("restored", None): (
        "link_not_in_backup",
        N_(
            "This link no longer opens anything: the app's data was restored from a backup made "
            "before the link existed. Ask whoever runs the app."
        ),
    ),
}


class LinkGone(RuleError):
    """A link that opened a circle once and no longer does: replaced by a new one, its circle
    deleted, or not in the backup the data was restored from (``services.retired``). Answered
    410 with what happened, and never counted as a guess."""

    code = "link_replaced"

    def __init__(self, reason: str, link: str) -> None:
        code, message = GONE.get((reason, link)) or GONE[(reason, None)]
        super().__init__(message, code, link=link)
        self.reason = reason
        self.link = link


class EveningDeleted(RuleError):
    """The evening was deleted as a test evening (housekeeping): it is shown nowhere and takes
    no write until the deletion is taken back. Nothing was written."""

    code = "evening_deleted"

    def __init__(self) -> None:
        super().__init__(
            N_(
                "This evening was deleted as a test evening: it is shown nowhere and nothing can be "
                "written on it. Nothing was written. It comes back if the deletion is taken back "
                "under “Tidy up”."
            ),
            "evening_deleted",
        )


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


__all__ = ["EveningDeleted", "Forbidden", "LinkGone", "NotFound", "RequestIdReused", "StaleVersion"]
