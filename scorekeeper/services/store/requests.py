"""What a write request asked, as a digest: a repeated request id must ask the same.

Every change carries a request id; a repeat is a double tap or a resend after a lost
answer and records nothing. The digest of the request's canonical content (the action
and its parameters, as the service received them; not the expected version, which a
client may refresh before resending) is stored with the applied request, so the same id
with a different body is refused (``RequestIdReused``) instead of silently dropped.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..errors import RequestIdReused


def digest(action: str, **params: Any) -> str:
    """sha256 (hex) of the action and its parameters as canonical JSON."""
    text = json.dumps({"action": action, **params}, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def check_same(stored: str | None, asked: str, *, same_action: bool = True) -> None:
    """Raise ``RequestIdReused`` unless the stored digest is the one asked now.

    A request applied before digests were kept (NULL) is compared by its action only.
    """
    if not same_action or (stored is not None and stored != asked):
        raise RequestIdReused()
