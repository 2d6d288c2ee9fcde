"""Circles and their players: create, open by secret link, add players.

Tokens (``tokens``): only their sha256 is stored; a link is checked by hashing it, looking the
hash up, and comparing in constant time. A new link is answered only once the old one is refused
by every worker and host (``stamp_watch.honour_everywhere``). The old one's hash is kept
(``retired``): a phone still holding it is told the link was replaced (``LinkGone``, 410), and
is not counted as a guess.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import Session

from ..game.errors import N_, RuleError
from ..models import Circle, Player
from . import retired
from .errors import Forbidden, NotFound
from .read import stamp_watch, who_is_who
from .store import link_seal, tx
from .store.signals import token_refused
from .store.tokens import hash_token, new_token

CIRCLE_NAME_MAX = 80
PLAYER_NAME_MAX = 40

__all__ = [
    "add_player",
    "clean_name",
    "create_circle",
    "find_circles",
    "get_or_create_player",
    "new_view_link",
    "new_write_link",
    "onlookers_link",
    "open_circle",
    "open_circle_for_write",
]


def clean_name(name: str, *, limit: int, code: str) -> str:
    """Trim and collapse whitespace; 1..limit characters, no control characters."""
    text = " ".join(str(name or "").split())
    if not text or len(text) > limit or any(ord(ch) < 32 for ch in text):
        raise RuleError(N_("A name has 1 to %(limit)s characters."), code, limit=limit)
    return text


def create_circle(name: str) -> tuple[Circle, str, str]:
    """A new circle. Returns (circle, write_token, view_token); the plain tokens are shown once."""
    clean = clean_name(name, limit=CIRCLE_NAME_MAX, code="circle_name")
    write_token = new_token()
    view_token = new_token()
    with tx.write() as s:
        circle = Circle(
            name=clean,
            write_token_hash=hash_token(write_token),
            view_token_hash=hash_token(view_token),
            view_token_sealed=link_seal.seal(view_token, write_token),
        )
        s.add(circle)
    return circle, write_token, view_token


_BY_TOKEN = select(Circle).where(
    or_(Circle.write_token_hash == bindparam("digest"), Circle.view_token_hash == bindparam("digest"))
)  # built once: building a statement costs more than running it


def open_circle(token: str) -> tuple[Circle, bool]:
    """The circle a link opens, and whether the link may write. Raises NotFound (a link that never
    opened anything: counted as a guess) or LinkGone (one that did once: replaced, its circle
    deleted, or not in a restored backup)."""
    if not token or len(token) > 128:
        raise NotFound(N_("This link does not open any circle."), "circle_not_found")
    digest = hash_token(token)
    circle = tx.session().execute(_BY_TOKEN, {"digest": digest}).scalar_one_or_none()
    if circle is None:
        gone = retired.gone(digest)
        if gone is not None:
            raise gone
        token_refused.send("circle")
        raise NotFound(N_("This link does not open any circle."), "circle_not_found")
    can_write = hmac.compare_digest(circle.write_token_hash, digest)
    if not can_write and not hmac.compare_digest(circle.view_token_hash, digest):  # pragma: no cover
        raise NotFound(N_("This link does not open any circle."), "circle_not_found")
    return circle, can_write


def find_circles(text: str) -> list[Circle]:
    """The circles an operator means by ``text``: the one with that public id, else those of
    that name (case-insensitive), oldest first."""
    s = tx.session()
    by_id = s.execute(select(Circle).where(Circle.public_id == text)).scalar_one_or_none()
    if by_id is not None:
        return [by_id]
    clean = " ".join(text.split()).lower()
    return list(s.execute(select(Circle).where(func.lower(Circle.name) == clean).order_by(Circle.id)).scalars())


def open_circle_for_write(token: str) -> Circle:
    """As ``open_circle``, but a read-only link raises Forbidden."""
    circle, can_write = open_circle(token)
    if not can_write:
        raise Forbidden()
    return circle


def _find_player(s: Session, circle_id: int, name: str) -> Player | None:
    return s.execute(
        select(Player).where(Player.circle_id == circle_id, func.lower(Player.name) == name.lower())
    ).scalar_one_or_none()


def get_or_create_player(s: Session, circle_id: int, name: str) -> Player:
    """Inside a write transaction: the circle's player of that name (case-insensitive), or a new one."""
    clean = clean_name(name, limit=PLAYER_NAME_MAX, code="player_name")
    player = _find_player(s, circle_id, clean)
    if player is None:
        player = Player(circle_id=circle_id, name=clean)
        s.add(player)
        s.flush()
    return player


def add_player(circle: Circle, name: str) -> Player:
    """A new player in the circle; a name already there (any case) raises ``player_exists``."""
    clean = clean_name(name, limit=PLAYER_NAME_MAX, code="player_name")
    circle_id = circle.id
    with tx.write() as s:
        if _find_player(s, circle_id, clean) is not None or who_is_who.resolve(
            who_is_who.state_in(s, circle_id), [clean]
        ) != [None]:
            raise RuleError(N_("%(name)s is already in this circle."), "player_exists", name=clean)
        player = Player(circle_id=circle_id, name=clean)
        s.add(player)
    return player


def _new_token(circle: Circle, column: str, sealed: Callable[[str], str | None]) -> str:
    """A new token in ``column`` (``write_token_hash`` or ``view_token_hash``): the old one
    stops working at the commit, for every worker and host (a link is a lookup of its hash; the
    fast poll's copies have all dropped it before this returns).

    Only its hash is stored; the plain token is returned once to be shown. The old hash is kept
    as replaced (``retired``). ``sealed(token)``: the onlookers' link sealed anew for the write
    link's holders (``link_seal``), or None.
    """
    token = new_token()
    digest = hash_token(token)
    seal = sealed(token)
    circle_id = circle.id
    with tx.write() as s:
        row = s.execute(select(Circle).where(Circle.id == circle_id).with_for_update()).scalar_one_or_none()
        if row is None:
            raise NotFound(N_("This link does not open any circle."), "circle_not_found")
        old = getattr(row, column)
        setattr(row, column, digest)
        row.view_token_sealed = seal
        kind = retired.WRITE if column == "write_token_hash" else retired.VIEW
        retired.retire(s, old, kind=kind, reason=retired.REPLACED, circle_id=circle_id)
    setattr(circle, column, digest)
    circle.view_token_sealed = seal
    stamp_watch.honour_everywhere(tx.engine())
    return token


def new_view_link(circle: Circle, write_token: str | None = None) -> str:
    """A new onlookers (read-only) token for the circle; the old one stops working. Made with the
    write link (``write_token``), it is kept for the circle page to show again."""

    def sealed(view: str) -> str | None:
        return link_seal.seal(view, write_token) if write_token else None

    return _new_token(circle, "view_token_hash", sealed)


def new_write_link(circle: Circle, old_write_token: str | None = None) -> str:
    """A new write token for the circle; the old one stops working (a leaked link is no
    longer permanent). Every phone that used the old one loses access until given the new one.
    Made with the old write link (``old_write_token``), the onlookers' link stays shown."""
    view = onlookers_link(circle, old_write_token) if old_write_token else None
    return _new_token(circle, "write_token_hash", lambda write: link_seal.seal(view, write) if view else None)


def onlookers_link(circle: Circle, write_token: str) -> str | None:
    """The circle's current onlookers' token, for the holder of its write link; None when it was
    not kept (made before it could be, or by ``flask new-write-link``)."""
    return link_seal.unseal(circle.view_token_sealed, write_token, circle.view_token_hash)
