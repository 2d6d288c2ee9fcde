"""The onlookers' link, kept for whoever holds the write link (issue 20.12).

Links are stored as their sha256 only, so the circle page could not show the onlookers' link
again, nor its QR code. It is kept sealed under the write token: ``circles.view_token_sealed``
is a random nonce and the onlookers' token XORed with a keystream of HMAC-SHA256 blocks keyed by
the write token. Only a request that presents the write link can open it; the database (a
backup) alone cannot, and holds no link in the clear. Whoever has the write link may make a new
onlookers' link anyway, so showing them the current one gives nothing away.

An opened value is checked against ``view_token_hash``: a value sealed under another write
token, or for an onlookers' link replaced since, opens as ``None`` (the page then offers to make
a new one). It is sealed when both links are known: a new circle, a restored one, a new
onlookers' link made with the write link, and a new write link made with the old one (opened
with the old, sealed with the new); otherwise (``flask new-write-link``, circles made before
this) it is empty.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from .tokens import hash_token

NONCE_BYTES = 16
SEALED_MAX = 128  # characters of the column: nonce and a 43-character token, base64 (80)
_DOMAIN = b"scorekeeper onlookers link v1\0"


def _keystream(write_token: str, nonce: bytes, length: int) -> bytes:
    key = write_token.encode("utf-8")
    blocks = [
        hmac.new(key, _DOMAIN + nonce + n.to_bytes(4, "big"), hashlib.sha256).digest() for n in range(-(-length // 32))
    ]
    return b"".join(blocks)[:length]


def seal(view_token: str, write_token: str) -> str:
    """The onlookers' token sealed under the write token (URL-safe base64 text)."""
    plain = view_token.encode("ascii")
    nonce = secrets.token_bytes(NONCE_BYTES)
    sealed = bytes(a ^ b for a, b in zip(plain, _keystream(write_token, nonce, len(plain)), strict=True))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(sealed: str | None, write_token: str, view_token_hash: str) -> str | None:
    """The onlookers' token, if ``sealed`` holds the current one under this write token; else None."""
    if not sealed:
        return None
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
    except ValueError:
        return None
    nonce, body = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
    if len(nonce) != NONCE_BYTES or not body:
        return None
    plain = bytes(a ^ b for a, b in zip(body, _keystream(write_token, nonce, len(body)), strict=True))
    try:
        token = plain.decode("ascii")
    except UnicodeDecodeError:
        return None
    return token if hmac.compare_digest(hash_token(token), view_token_hash) else None
