"""Secret links: ``secrets.token_urlsafe(TOKEN_BYTES)``; only their sha256 is stored, and a link
is checked by hashing it and looking the hash up (``circles``, ``seats``, ``stamp``)."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
