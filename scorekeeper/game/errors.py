"""Domain errors shared by the pure packages.

Pure code cannot import Flask-Babel, so a message is an English template marked
with ``N_`` (extracted by ``pybabel -k N_``) plus parameters. The web layer
translates ``message`` with gettext and then fills in ``params``; a parameter
that is a ``Card`` or ``Suit`` is rendered in the evening's deck style and the
user's language. ``code`` is stable and goes into JSON errors.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Mark a message for translation without translating it here."""
    return message


class RuleError(ValueError):
    """A move or an entry the rules do not allow. Nothing was changed."""

    code = "rule_error"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        self.message = message
        if code is not None:
            self.code = code
        self.params = params
        super().__init__(self.render())

    def render(self) -> str:
        """The English text with parameters filled in (tests, logs)."""
        try:
            return self.message % {k: str(v) for k, v in self.params.items()} if self.params else self.message
        except (KeyError, ValueError, TypeError):
            return self.message
