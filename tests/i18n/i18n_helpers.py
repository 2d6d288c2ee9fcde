"""Helpers of the language tests: where the catalogs are, how messages are extracted, and
evenings whose pages are read as a person sees them (visible texts, the slate's rows)."""

from __future__ import annotations

import html
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import cast

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, hand_data, hidden

from scorekeeper.game.contracts import all_contracts
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring.slate import Slate
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as evening_service

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LOCALES = ("de_CH", "fr_CH", "it_CH")
MAKEFILE = ROOT / "Makefile"
BABEL_CFG = ROOT / "babel.cfg"

# A printf-style conversion as Python's ``%`` operator reads it (``%%`` is a literal percent).
CONVERSION = re.compile(r"%(?:\((?P<name>\w+)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?P<type>[diouxXeEfFgGcrsa%])")


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def load_catalog(locale: str) -> Catalog:
    with po_path(locale).open("rb") as fh:
        return read_po(fh, locale=locale)


def placeholders(text: str) -> set[str]:
    """The conversions of a message: ``%(name)s`` as ``name:s``, positional ones as ``#1:d``..."""
    found: set[str] = set()
    position = 0
    for m in CONVERSION.finditer(text):
        if m.group("type") == "%":
            continue
        if m.group("name"):
            found.add(f"{m.group('name')}:{m.group('type')}")
        else:
            position += 1
            found.add(f"#{position}:{m.group('type')}")
    return found


def ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def strings(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (cast(str, message.string),)


def babel_keywords() -> list[str]:
    """The ``-k`` arguments of ``make translations-update`` (BABEL_KEYWORDS in the Makefile)."""
    m = re.search(r"^BABEL_KEYWORDS\s*:?=\s*(.+)$", MAKEFILE.read_text(), re.M)
    assert m, "the Makefile defines no BABEL_KEYWORDS"
    return shlex.split(m.group(1))


def babel_ignore_dirs() -> str:
    """The folders ``make translations-update`` does not look into (BABEL_IGNORE_DIRS)."""
    m = re.search(r"^BABEL_IGNORE_DIRS\s*:?=\s*(.+)$", MAKEFILE.read_text(), re.M)
    assert m, "the Makefile defines no BABEL_IGNORE_DIRS"
    return m.group(1).strip()


def extract(pot: Path) -> Catalog:
    """Extract every marked message of the sources into ``pot``, as ``make translations-update`` does."""
    cmd = [
        sys.executable,
        "-m",
        "babel.messages.frontend",
        "-q",
        "extract",
        "-F",
        str(BABEL_CFG),
        *babel_keywords(),
        "--ignore-dirs",
        babel_ignore_dirs(),
        "--no-wrap",
        "-o",
        str(pot),
        ".",
    ]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as fh:
        return read_po(fh)


# --- pages, as a person reads them -----------------------------------------------------------
NAMES = ["Anna", "Beat", "Cla"]


def make_evening(app: Flask, deck: str = "swiss", hands: Sequence[HandEntry] = ()) -> tuple[str, str, str]:
    """(write token, view token, evening id) of a three-player evening in ``deck`` with ``hands`` recorded."""
    with app.app_context():
        circle, write, view = circle_service.create_circle("Donnerstagsjass")
        ruleset = default_ruleset(Variant.THREE, deck=deck)
        ev = evening_service.start_evening(
            circle, ruleset=ruleset, player_names=NAMES, first_dealer=0, request_id="start-1"
        )
        for i, entry in enumerate(hands):
            ev = evening_service.record_hand(ev, entry, expected_version=ev.version, request_id=f"hand-{i}")
        return write, view, ev.public_id


def whole_evening() -> list[HandEntry]:
    """Thirty valid hands of a three-player evening, no ties: seat 1 always makes 60, seat 2 70, seat 0 80."""
    ruleset = default_ruleset(Variant.THREE)
    hands: list[HandEntry] = []
    for _i in range(ruleset.n_hands):
        slate = Slate.build(ruleset, 0, hands)
        seat = slate.eligible_seats()[0]
        row = ruleset.row(slate.open_rows(ruleset.side_of(seat))[0])
        contract = next(c for k in row.kinds for c in all_contracts(k) if row.allows(c)) if row.is_choice else None
        points = 60 + 10 * ((seat + 2) % 3)
        hands.append(HandEntry(row.key, seat, contract, points, 157 - points))
    return hands


def next_hand(ruleset: RuleSet, sent: list[HandEntry]) -> HandEntry:
    """A valid next hand after ``sent``: the first eligible seat, its side's first open row, a
    contract the row allows, points that vary (a match now and then, equal cells sometimes)."""
    slate = Slate.build(ruleset, 0, sent)
    i = len(sent)
    seat = slate.eligible_seats()[0]
    row = ruleset.row(slate.open_rows(ruleset.side_of(seat))[0])
    options = [c for k in row.kinds for c in all_contracts(k) if row.allows(c)] if row.is_choice else [None]
    contract = options[i % len(options)]
    if i % 9 == 4:
        return HandEntry(row.key, seat, contract, 157, 0, match=True)
    points = (60, 77, 95, 77, 120, 33)[i % 6]
    return HandEntry(row.key, seat, contract, points, 157 - points)


# --- the same through the pages, as a phone does it -------------------------------------------
def client_circle(client: FlaskClient, name: str = "Jass du jeudi") -> tuple[str, str]:
    """(write path, view path) of a circle made through the home page's form."""
    r = client.post("/", data={"name": name, **hidden(client.get("/").text, "/")})
    assert r.status_code == 200, r.text
    write = re.search(r'id="write-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', r.text)
    view = re.search(r'id="view-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', r.text)
    assert write and view
    return write.group(1), view.group(1)


def client_start(client: FlaskClient, write: str, variant: Variant) -> str:
    """Start an evening of ``variant`` through the start form (its defaults); returns the slate path."""
    rs = default_ruleset(variant)
    url = f"{write}/start?variant={variant.value}"
    page = client.get(url).text
    order = re.search(r'<select[^>]*name="suit_order".*?<option selected value="(\w+)"', page, re.S)
    data = {
        **hidden(page, "/start"),
        "deck": rs.deck.value,
        "suit_order": order.group(1) if order else "swiss",
        "barrel": rs.barrel.value,
        "stake_chf": f"{rs.stake.rappen / 100:.2f}",
        "per_points": str(rs.stake.per_points),
        "round_to": "5",
        "first_dealer": "0",
        **{f"seat_{i}": name for i, name in enumerate(["Anna", "Beat", "Cla", "Dora"][: rs.n_players])},
    }
    r = client.post(url, data=data)
    assert r.status_code == 302, flashes(r.text) or r.text
    return str(r.headers["Location"])


def client_record(client: FlaskClient, slate: str, ruleset: RuleSet, sent: list[HandEntry], upto: int) -> None:
    """Record hands through the slate page's form until ``upto`` hands are on it."""
    while len(sent) < upto:
        entry = next_hand(ruleset, sent)
        r = client.post(f"{slate}/hands", data={**hidden(client.get(slate).text, "/hands"), **hand_data(entry)})
        assert r.status_code == 302, (len(sent), entry, flashes(r.text))
        sent.append(entry)


class _Visible(HTMLParser):
    """Text nodes and the user-visible attributes of a page (no script or style)."""

    ATTRS = ("placeholder", "title", "aria-label", "data-confirm", "data-done", "value")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        a = dict(attrs)
        for name in self.ATTRS:
            # A submit input shows its value; a <button>'s value is sent, not shown.
            if name == "value" and not (tag == "input" and a.get("type") in ("submit", "button")):
                continue
            if a.get(name):
                self.texts.append(a[name] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def visible_texts(page: str) -> list[str]:
    parser = _Visible()
    parser.feed(page)
    return [re.sub(r"\s+", " ", t).strip() for t in parser.texts]


def rows_shown(page: str) -> list[str]:
    labels = re.findall(r'<th scope="row" class="rowlabel">([^<]+)<span class="factor">', page)
    return [html.unescape(m).replace("\u00ad", "").strip() for m in labels]  # soft hyphens for narrow screens
