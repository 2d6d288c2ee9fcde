"""Slate pages and live fragments, kept per worker once drawn (issue 15).

The four phones of a table load the same slate page when they join and fetch the same live
fragment after every hand; drawing one costs some 12 ms of CPU (two thirds templates and form
widgets), answering it again from memory a tenth of that. A worker keeps the drawn text under
everything it was drawn from:

- what it is (the page or the fragment);
- the link (its digest: the text's URLs carry the token) and whether it may write;
- the evening and its stamp (``services.read.stamp``: version, outlook setting, the open digital table
  and its latest hand, the circle's naming events) as the snapshot the text was drawn from read them;
- the language and the dates' region of the request (``i18n.current_language``, ``format_locale``).

A request looks it up with the stamp read now (one statement: link -> evening, ``poll.stamp_by_link``
on the fast layer's engine, or the poll's own), so a kept text is only ever what a fresh drawing
would give. What belongs to one request is never kept: the CSRF token and the forms' request ids
are cut out of the text when it is kept and put in fresh on every answer (two phones never share a
request id; each gets a token of its own session). A page drawn while a flashed message waited is
not kept, and none is taken from memory while one waits. Seat pages are never kept (nothing here
knows a seat).

Bounded: ``PAGE_CACHE_ENTRIES`` texts per worker (default 512, some 20 KB each), the least recently
used dropped first; 0 switches it off, and so does debug mode (templates reload there).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from flask import Flask, current_app, session
from flask_wtf.csrf import generate_csrf

from ..forms import issued_request_ids, new_request_id
from ..i18n import current_language, format_locale
from ..services.read.snapshot import EveningSnapshot
from ..services.read.snapshot import Kept as Bounded
from ..services.read.stamp import Stamp, stamp_of
from ..services.store.tokens import hash_token
from .poll import stamp_by_link

EXTENSION = "scorekeeper.page_cache"
CSRF = -1  # the hole of the CSRF token; holes 0, 1, ... are the drawing's request ids in order

Key = tuple[str, str, str, Stamp, bool, str, str]


@dataclass(frozen=True, slots=True)
class Kept:
    """A drawn text with its per-request parts cut out: ``pieces[0] hole[0] pieces[1] ...``."""

    pieces: tuple[str, ...]
    holes: tuple[int, ...]

    def fill(self, csrf: str, fresh: Callable[[], str]) -> str:
        """The text for this request: its CSRF token, and a fresh request id where the drawing had
        one (the same fresh id wherever the drawing repeated one)."""
        ids: dict[int, str] = {}
        out = [self.pieces[0]]
        for hole, piece in zip(self.holes, self.pieces[1:], strict=True):
            if hole == CSRF:
                out.append(csrf)
            else:
                if hole not in ids:
                    ids[hole] = fresh()
                out.append(ids[hole])
            out.append(piece)
        return "".join(out)


def cut(text: str, csrf: str | None, request_ids: Sequence[str]) -> Kept:
    """``text`` with the CSRF token and the request ids (random, so found nowhere else) cut out."""
    secrets: dict[str, int] = {}
    if csrf:
        secrets[csrf] = CSRF
    for n, rid in enumerate(request_ids):
        secrets.setdefault(rid, n)
    if not secrets:
        return Kept((text,), ())
    found = re.compile("|".join(re.escape(s) for s in sorted(secrets, key=len, reverse=True)))
    pieces: list[str] = []
    holes: list[int] = []
    at = 0
    for m in found.finditer(text):
        pieces.append(text[at : m.start()])
        holes.append(secrets[m.group()])
        at = m.end()
    pieces.append(text[at:])
    return Kept(tuple(pieces), tuple(holes))


class PageCache(Bounded[Key, Kept]):
    """The kept texts of one worker (threads share it), least recently used dropped first."""


def install(app: Flask) -> None:
    size = int(app.config.get("PAGE_CACHE_ENTRIES", 512))
    if size > 0 and not app.debug:
        app.extensions[EXTENSION] = PageCache(size)


def cache_of(app: Flask) -> PageCache | None:
    found: PageCache | None = app.extensions.get(EXTENSION)
    return found


def _key(kind: str, token: str, public_id: str, stamp: Stamp, can_write: bool) -> Key:
    return (kind, hash_token(token), public_id, stamp, can_write, current_language(), str(format_locale()))


def _usable() -> PageCache | None:
    """The worker's cache, unless it is off or a flashed message waits for this phone."""
    cache = cache_of(current_app)
    if cache is None or session.get("_flashes"):
        return None
    return cache


def take(kind: str, token: str, public_id: str, stamp: Stamp, can_write: bool) -> str | None:
    """The kept text of (kind, link, evening at ``stamp``), filled for this request, or None."""
    cache = _usable()
    kept = None if cache is None else cache.get(_key(kind, token, public_id, stamp, can_write))
    return None if kept is None else kept.fill(generate_csrf(), new_request_id)


def lookup(kind: str, token: str, public_id: str) -> tuple[str, Stamp, bool] | None:
    """(the kept text filled for this request, the stamp it shows, whether the link may write),
    after one statement that reads the evening's stamp by the link; None when nothing fits (or the
    link opens nothing: the full path refuses it and counts it)."""
    if _usable() is None:
        return None
    found = stamp_by_link(current_app, token, public_id)
    if found is None:
        return None
    stamp, can_write = found
    text = take(kind, token, public_id, stamp, can_write)
    return None if text is None else (text, stamp, can_write)


@dataclass(slots=True)
class Drawing:
    """A text being drawn: the request ids its forms were given, and whether it may be kept."""

    issued: list[str]
    keepable: bool


@contextmanager
def drawing() -> Iterator[Drawing]:
    """Draw a text inside the block (``keep`` it after): the request ids it is given are noted,
    and whether a flashed message waited before (then the text shows it and is not kept)."""
    keepable = _usable() is not None
    with issued_request_ids() as issued:
        yield Drawing(issued, keepable)


def keep(done: Drawing, kind: str, token: str, snap: EveningSnapshot, can_write: bool, text: str) -> None:
    """Keep ``text``, drawn from ``snap`` for the link ``token``, under the snapshot's stamp."""
    cache = cache_of(current_app)
    if cache is not None and done.keepable:
        key = _key(kind, token, snap.public_id, stamp_of(snap), can_write)
        cache.put(key, cut(text, generate_csrf(), done.issued))
