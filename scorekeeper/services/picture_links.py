"""Picture links: a link that opens one evening's slate picture and nothing else.

A shared slate picture must never carry the circle's write link (whoever receives it
could write on the circle) nor open more than the picture. Where a phone cannot share
the PNG file itself, it shares ``/p/<key>/slate.png``: ``key`` is the evening's public
id and a MAC over it, keyed by the app's secret key, bound to the circle's current
onlookers' link (its stored hash). So a picture link:

- shows that evening's slate picture, as it stands now, and nothing else (no slate page,
  no circle, no other evening);
- cannot be made without the secret key (guessing one is a wrong token, counted);
- stops working when the circle gets a new onlookers' link ("every read-only link
  handed out stops") or is deleted.

No row is stored: the key is checked by computing it again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlalchemy import bindparam, select

from ..game.errors import N_
from ..models import Circle, Evening, is_public_id
from .errors import NotFound
from .evenings import get_evening
from .store import tx
from .store.signals import token_refused

MAC_CHARS = 22  # 132 bits of the HMAC-SHA256, URL-safe base64
_DOMAIN = b"scorekeeper slate picture v1"

_CIRCLE_OF_EVENING = (
    select(Circle).join(Evening, Evening.circle_id == Circle.id).where(Evening.public_id == bindparam("public_id"))
)


def _mac(secret: str | bytes, evening_id: str, view_token_hash: str) -> str:
    key = secret.encode("utf-8") if isinstance(secret, str) else secret
    message = b"\0".join((_DOMAIN, evening_id.encode("ascii"), view_token_hash.encode("ascii")))
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:MAC_CHARS]


def picture_key(secret: str | bytes, circle: Circle, evening_id: str) -> str:
    """The key of the picture link of the circle's evening ``evening_id``."""
    return f"{evening_id}.{_mac(secret, evening_id, circle.view_token_hash)}"


def _refused() -> NotFound:
    token_refused.send("picture")
    return NotFound(N_("This link does not open any circle."), "circle_not_found")


def open_picture(secret: str | bytes, key: str) -> tuple[Circle, Evening]:
    """The circle and evening a picture key opens; NotFound (counted as a wrong token) otherwise."""
    evening_id, _dot, mac = key.partition(".") if isinstance(key, str) and len(key) <= 128 else ("", "", "")
    if not is_public_id(evening_id) or len(mac) != MAC_CHARS or not mac.isascii():
        raise _refused()
    circle = tx.session().execute(_CIRCLE_OF_EVENING, {"public_id": evening_id}).scalar_one_or_none()
    if circle is None or not hmac.compare_digest(mac, _mac(secret, evening_id, circle.view_token_hash)):
        raise _refused()
    return circle, get_evening(circle, evening_id)  # the evening's own rules (one gone is gone here too)
