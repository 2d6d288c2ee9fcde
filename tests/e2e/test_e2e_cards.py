"""The card sprites in Chromium at 360 x 740: every card of every deck draws, hands fit the phone.

Static test pages (built here from ``scorekeeper.render.faces``, so the hrefs are the ones a
page will use) are served from a temporary folder with a strict Content-Security-Policy
(no inline style, no script): a console error (a refused style, a missing file) fails.
Screenshots go to the test's temporary folder, or to ``SCOREKEEPER_SHOTS`` when set, to
be looked at.
"""

from __future__ import annotations

import functools
import html
import io
import os
import shutil
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import in_thread
from PIL import Image, ImageChops, ImageFilter, ImageStat

from scorekeeper.game.cards import parse_cards
from scorekeeper.render.faces import (
    BACK_SYMBOL,
    CARD_VIEWBOX,
    SUIT_VIEWBOX,
    TRUMP_SYMBOL,
    card_face,
    sprite_file,
    sprite_symbols,
    suit_face,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CSP = "default-src 'self'; script-src 'none'; style-src 'self'; object-src 'none'; base-uri 'none'"
DECKS = [("swiss", False), ("french", False), ("french", True)]
# A three-player hand of 12 and a four-player hand of 9, one of them trump (hearts / roses).
HAND_9 = parse_cards("C6 C9 CJ D7 DA SQ ST HJ HA")
HAND_12 = parse_cards("C6 C8 CT CK D9 DQ SA S7 H6 HT HQ HK")
TRUMP_SUIT = 3


class _Handler(SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # the base class's name
        pass


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/static/css/app.css"><link rel="stylesheet" href="/static/css/cards.css">'
        '<link rel="stylesheet" href="/test.css"><link rel="icon" href="/static/icons/icon.svg">'
        f"</head><body><main>{body}</main></body></html>"
    )


def _svg(ref: str, *, trump_ref: str | None = None, viewbox: str = CARD_VIEWBOX, cls: str = "cardface") -> str:
    uses = f'<use href="/static/{ref}"/>'
    if trump_ref:
        uses += f'<use href="/static/{trump_ref}"/>'
    return f'<svg class="{cls}" viewBox="{viewbox}" aria-hidden="true" focusable="false">{uses}</svg>'


def _hand_page(style: str, four: bool, cards: list[Any], language: str) -> str:
    sprite = sprite_file(style, four_colour=four)
    trump = suit_face(TRUMP_SUIT, style, language, four_colour=four)
    buttons = []
    for c in cards:
        face = card_face(c, style, language, four_colour=four)
        is_trump = c // 9 == TRUMP_SUIT
        label = face.name + (", trump" if is_trump else "")
        buttons.append(
            f'<button type="button" data-card="{face.symbol}" aria-label="{html.escape(label)}">'
            f"{_svg(face.ref, trump_ref=f'{sprite}#{TRUMP_SYMBOL}' if is_trump else None)}</button>"
        )
    head = (
        f'<p class="trumps">Trumps: {_svg(trump.ref, viewbox=SUIT_VIEWBOX, cls="suit-icon")} '
        f"{html.escape(trump.name)}</p>"
    )
    # As on the seat page: the cards are the buttons of a form that also holds hidden inputs.
    hidden = '<input type="hidden" name="csrf_token" value="x"><input type="hidden" name="seq" value="1">'
    form = f'<form class="cards" data-hand method="post" action="/">{hidden}{"".join(buttons)}</form>'
    return _page(f"{style} hand of {len(cards)}", head + form)


def _deck_page(style: str, four: bool) -> str:
    sprite = sprite_file(style, four_colour=four)
    cells = [
        f'<li data-symbol="{sym}">{_svg(f"{sprite}#{sym}")}<small>{html.escape(mark)}</small></li>'
        for sym, mark in sprite_symbols(style).items()
    ]
    cells.append(f'<li data-symbol="{BACK_SYMBOL}">{_svg(f"{sprite}#{BACK_SYMBOL}")}</li>')
    cells.append(f'<li data-symbol="{TRUMP_SYMBOL}">{_svg(f"{sprite}#HA", trump_ref=f"{sprite}#{TRUMP_SYMBOL}")}</li>')
    suits = "".join(
        f'<li data-symbol="{f.symbol}">{_svg(f.ref, viewbox=SUIT_VIEWBOX, cls="suit-icon")} {html.escape(f.name)}</li>'
        for f in (suit_face(s, style, "en", four_colour=four) for s in range(4))
    )
    return _page(
        f"{style} deck", f'<ul class="deck" data-deck>{"".join(cells)}</ul><ul class="suits" data-suits>{suits}</ul>'
    )


TEST_CSS = """
.icons img { display: block; margin: 0 0 4px; }
.deck { display: grid; grid-template-columns: repeat(9, minmax(0, 1fr)); gap: 3px; list-style: none; padding: 0; }
.deck li { min-width: 0; text-align: center; font-size: .7rem; }
.suits { display: flex; flex-wrap: wrap; gap: .2rem 1rem; list-style: none; padding: 0; font-size: 1.1rem; }
"""


@pytest.fixture(scope="module")
def card_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The sprites, the icons, app.css and cards.css, and the test pages, over HTTP with a strict CSP."""
    site = tmp_path_factory.mktemp("card-site")
    for rel in ("cards", "css", "icons"):
        shutil.copytree(ROOT / "static" / rel, site / "static" / rel)
    (site / "test.css").write_text(TEST_CSS)
    icons = "".join(
        f'<img src="/static/icons/{f}" width="192" height="192" alt="" data-icon="{f}">'
        for f in ("icon.svg", "icon-192.png", "icon-maskable-192.png", "icon-512.png", "icon-maskable-512.png")
    )
    (site / "icons.html").write_text(_page("icons", f'<div class="icons">{icons}</div>'))
    for style, four in DECKS:
        name = f"{style}{'-4c' if four else ''}"
        (site / f"deck-{name}.html").write_text(_deck_page(style, four))
        for language in ("en", "de"):
            for n, cards in ((9, HAND_9), (12, HAND_12)):
                (site / f"hand-{name}-{n}-{language}.html").write_text(_hand_page(style, four, cards, language))
    with in_thread(ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(site)))) as url:
        yield url


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    target = os.environ.get("SCOREKEEPER_SHOTS")
    path = Path(target) if target else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def _open(phone: Any, url: str) -> tuple[Any, list[str]]:
    page = phone()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
    page.on("response", lambda r: errors.append(f"{r.status}: {r.url}") if r.status >= 400 else None)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, errors


# Every <use> resolves to a drawn box (an unresolved external reference has an empty one).
_ALL_USES_DRAWN = """() => {
  const uses = [...document.querySelectorAll('use')];
  return uses.length > 0 && uses.every(u => { const b = u.getBBox(); return b.width > 0 && b.height > 0; });
}"""
_USE_BOXES = """() => [...document.querySelectorAll('use')].map(u => {
  const b = u.getBBox(); return [u.getAttribute('href'), b.x, b.y, b.width, b.height];
})"""


def _ink(img: Image.Image) -> float:
    """The share of pixels that are clearly not white paper."""
    grey = img.convert("L")
    hist = grey.histogram()
    return sum(hist[:200]) / max(1, grey.width * grey.height)


@pytest.mark.parametrize(("style", "four"), DECKS, ids=["swiss", "french", "french-4c"])
def test_every_card_of_the_deck_draws_from_the_sprite(
    phone: Any, card_site: str, shots: Path, style: str, four: bool
) -> None:
    name = f"{style}{'-4c' if four else ''}"
    page, errors = _open(phone, f"{card_site}/deck-{name}.html")
    page.wait_for_function(_ALL_USES_DRAWN, timeout=15000)
    boxes = page.evaluate(_USE_BOXES)
    symbols = sprite_symbols(style)
    assert len(boxes) == len(symbols) + 2 + 1 + 4  # every card, back, HA + trump overlay, four suits
    for href, _x, _y, w, h in boxes:
        if href.endswith(("#" + TRUMP_SYMBOL, "#" + BACK_SYMBOL)) or "#suit-" not in href:
            assert w > 80 and h > 120, (href, w, h)  # a card spans its 100 x 150 box
        else:
            assert w > 60 and h > 60, (href, w, h)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    png = page.screenshot(full_page=True)
    (shots / f"deck-{name}.png").write_bytes(png)
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    scale = picture.width / 360
    for item in page.locator("[data-deck] li").all():
        box = item.locator("svg").bounding_box()
        assert box is not None
        crop = picture.crop(
            (
                round(box["x"] * scale),
                round(box["y"] * scale),
                round((box["x"] + box["width"]) * scale),
                round((box["y"] + box["height"]) * scale),
            )
        )
        symbol = item.get_attribute("data-symbol")
        assert _ink(crop) > 0.08, f"{symbol} looks empty"
        if symbol not in (BACK_SYMBOL, TRUMP_SYMBOL):
            corner = crop.crop((0, 0, crop.width * 2 // 5, crop.height * 3 // 10))  # the rank mark
            assert _ink(corner) > 0.12, f"{symbol}: no rank mark in the corner"
    assert errors == []


@pytest.mark.parametrize(("style", "four"), DECKS, ids=["swiss", "french", "french-4c"])
@pytest.mark.parametrize("n", [9, 12])
def test_a_hand_fits_the_phone_with_readable_cards(
    phone: Any, card_site: str, shots: Path, style: str, four: bool, n: int
) -> None:
    name = f"{style}{'-4c' if four else ''}"
    for language in ("en", "de"):
        page, errors = _open(phone, f"{card_site}/hand-{name}-{n}-{language}.html")
        page.wait_for_function(_ALL_USES_DRAWN, timeout=15000)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
            "document.documentElement.clientWidth"
        )
        cards = page.locator("[data-hand] button").all()
        assert len(cards) == n
        rows: dict[int, int] = {}
        for card in cards:
            box = card.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
            # A thumb-sized target, and the corner mark (34 of 150 units) at least 15 px high.
            assert box["width"] >= 48 and box["height"] * 34 / 150 >= 15, box
            rows[round(box["y"])] = rows.get(round(box["y"]), 0) + 1
        assert list(rows.values()) == ([5, 4] if n == 9 else [6, 6])  # two rows
        last = cards[-1].bounding_box()
        assert last is not None and last["y"] + last["height"] <= 740  # the whole hand on the first screen
        assert page.locator(".trumps .suit-icon").bounding_box() is not None
        (shots / f"hand-{name}-{n}-{language}.png").write_bytes(page.screenshot())
        assert errors == []


def test_the_icons_load_and_the_svg_icon_draws_like_the_png(phone: Any, card_site: str, shots: Path) -> None:
    page, errors = _open(phone, f"{card_site}/icons.html")
    images = page.locator("[data-icon]").all()
    assert len(images) == 5
    for img in images:
        assert img.evaluate("i => i.complete && i.naturalWidth > 0"), img.get_attribute("data-icon")
    box = page.locator("[data-icon='icon.svg']").bounding_box()
    assert box is not None and (box["width"], box["height"]) == (192, 192)
    png = page.screenshot(clip=box)
    (shots / "icon-svg-in-chromium.png").write_bytes(png)
    drawn = Image.open(io.BytesIO(png)).convert("RGB").resize((192, 192), Image.Resampling.LANCZOS)
    paper = Image.new("RGBA", (192, 192), (0xFB, 0xFA, 0xF6, 255))
    paper.alpha_composite(Image.open(ROOT / "static" / "icons" / "icon-192.png").convert("RGBA"))
    # The same drawing, up to edge smoothing and a sub-pixel shift: compare slightly blurred.
    blur = ImageFilter.GaussianBlur(2)
    diff = ImageStat.Stat(ImageChops.difference(drawn.filter(blur), paper.convert("RGB").filter(blur)))
    assert max(diff.mean) < 4, diff.mean
    assert errors == []
